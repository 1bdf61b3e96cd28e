/// The one script of Darkroom's pages: the larger view. Pages work without it (every thumbnail is a
/// link to its larger rendition or its video); with it, a thumbnail opens in a full-window view with
/// its date, camera and where the date came from, arrow keys and swipes go to the previous and next,
/// Escape closes, videos play, and a Live Photo's or motion photo's motion part plays on hover or tap
/// (in the grid too). It reads the tiles' `data-*` attributes and writes text with `textContent` only.
public enum ViewerScript {
    /// The JavaScript.
    public static let source = #"""
(function () {
  "use strict";
  var tiles = Array.prototype.slice.call(document.querySelectorAll("a.tile[data-large], a.tile[data-video]"));
  if (!tiles.length) { return; }

  function make(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text) { node.textContent = text; }
    return node;
  }

  var dialog = make("dialog", "viewer");
  dialog.setAttribute("aria-label", "Larger view");
  var stage = make("div", "stage");
  var caption = make("figcaption");
  var title = make("div", "title"), details = make("div", "details"), source = make("div", "source");
  caption.append(title, details, source);
  var figure = make("figure");
  figure.append(stage, caption);
  var prev = make("button", "nav prev", "\u2039"), next = make("button", "nav next", "\u203A"), close = make("button", "close", "\u00D7");
  prev.setAttribute("aria-label", "Previous");
  next.setAttribute("aria-label", "Next");
  close.setAttribute("aria-label", "Close");
  var counter = make("div", "counter");
  counter.setAttribute("aria-live", "polite");
  dialog.append(figure, prev, next, close, counter);
  document.body.append(dialog);

  var index = -1, opener = null;

  function motionVideo(src, className) {
    var video = make("video", className);
    video.muted = true; video.loop = true; video.playsInline = true; video.preload = "auto"; video.src = src;
    video.setAttribute("aria-hidden", "true");
    return video;
  }

  function stopMedia() {
    stage.querySelectorAll("video").forEach(function (video) { video.pause(); video.removeAttribute("src"); video.load(); });
  }

  function playMotion(on) {
    var video = stage.querySelector("video.motion");
    if (!video) { return; }
    stage.classList.toggle("playing", on);
    if (on) { video.currentTime = 0; video.play().catch(function () {}); } else { video.pause(); }
  }

  function show(position) {
    if (position < 0 || position >= tiles.length) { return; }
    index = position;
    var tile = tiles[index], data = tile.dataset, thumbnail = tile.querySelector("img");
    stopMedia();
    stage.replaceChildren();
    stage.classList.remove("playing");
    if (data.video) {
      var video = make("video", "main");
      video.controls = true; video.playsInline = true; video.autoplay = true; video.preload = "auto";
      if (data.large) { video.poster = data.large; }
      video.src = data.video;
      stage.append(video);
    } else {
      var image = make("img", "main");
      image.src = data.large;
      image.alt = thumbnail ? thumbnail.alt : "";
      stage.append(image);
      if (data.motion) {
        stage.append(motionVideo(data.motion, "motion"));
        var live = make("button", "live", "LIVE");
        live.setAttribute("aria-label", "Play the motion");
        live.addEventListener("click", function (event) { event.stopPropagation(); playMotion(!stage.classList.contains("playing")); });
        stage.append(live);
      }
    }
    title.textContent = data.title || "";
    details.textContent = data.details || "";
    source.textContent = data.source || "";
    source.classList.toggle("uncertain", data.uncertain === "true");
    counter.textContent = (index + 1) + " / " + tiles.length;
    prev.disabled = index === 0;
    next.disabled = index === tiles.length - 1;
    if (tile.id && history.replaceState) { history.replaceState(null, "", "#" + tile.id); }
  }

  function open(position) {
    opener = tiles[position];
    if (!dialog.open) { dialog.showModal(); }
    show(position);
    close.focus();
  }

  dialog.addEventListener("close", function () {
    stopMedia();
    stage.replaceChildren();
    if (history.replaceState) { history.replaceState(null, "", location.pathname + location.search); }
    if (opener) { opener.focus(); }
  });
  prev.addEventListener("click", function () { show(index - 1); });
  next.addEventListener("click", function () { show(index + 1); });
  close.addEventListener("click", function () { dialog.close(); });
  dialog.addEventListener("keydown", function (event) {
    if (event.key === "ArrowLeft") { show(index - 1); event.preventDefault(); }
    else if (event.key === "ArrowRight") { show(index + 1); event.preventDefault(); }
  });

  // Swipes: a horizontal drag of more than 50 px goes to the next or previous; a tap plays the motion.
  var startX = null, startY = null;
  stage.addEventListener("pointerdown", function (event) { startX = event.clientX; startY = event.clientY; });
  stage.addEventListener("pointerup", function (event) {
    if (startX === null) { return; }
    var dx = event.clientX - startX, dy = event.clientY - startY;
    startX = null;
    if (Math.abs(dx) > 50 && Math.abs(dx) > Math.abs(dy)) { show(dx < 0 ? index + 1 : index - 1); }
    else if (event.pointerType !== "mouse") { playMotion(!stage.classList.contains("playing")); }
  });
  stage.addEventListener("pointerenter", function (event) { if (event.pointerType === "mouse") { playMotion(true); } });
  stage.addEventListener("pointerleave", function (event) { if (event.pointerType === "mouse") { playMotion(false); } });

  document.addEventListener("click", function (event) {
    var tile = event.target.closest && event.target.closest("a.tile");
    if (!tile || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) { return; }
    var position = tiles.indexOf(tile);
    if (position < 0) { return; }
    event.preventDefault();
    open(position);
  });

  // In the grid, a Live Photo or motion photo plays its motion part while the pointer is over it.
  tiles.forEach(function (tile) {
    if (!tile.dataset.motion) { return; }
    tile.addEventListener("pointerenter", function () {
      if (tile.querySelector("video.motion")) { return; }
      var video = motionVideo(tile.dataset.motion, "motion");
      video.autoplay = true;
      tile.append(video);
      video.play().catch(function () {});
    });
    tile.addEventListener("pointerleave", function () {
      var video = tile.querySelector("video.motion");
      if (video) { video.pause(); video.remove(); }
    });
  });

  var wanted = location.hash.slice(1);
  if (wanted) {
    var start = tiles.findIndex(function (tile) { return tile.id === wanted; });
    if (start >= 0) { open(start); }
  }
})();
"""#
}
