/// Darkroom's one stylesheet, for the gallery and the run report alike: system fonts only, light or
/// dark by the system setting (`prefers-color-scheme`), square thumbnail cells that keep their place
/// before the images arrive, and the larger view.
public enum Stylesheet {
    /// The CSS.
    public static let css = #"""
:root {
  color-scheme: light dark;
  --bg: #f6f6f4; --fg: #1d1d1f; --muted: #5f6368; --card: #ffffff; --line: #d9d9d6;
  --accent: #0b61c4; --warn: #9a4a00; --warn-bg: #fff1df; --bad: #b3261e; --bad-bg: #fdecea;
  --cell: 148px;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  line-height: 1.45;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #121212; --fg: #ececec; --muted: #a8a8ad; --card: #1e1e20; --line: #333336;
    --accent: #7db3ff; --warn: #ffb95a; --warn-bg: #3a2a12; --bad: #ff8a80; --bad-bg: #3b1614;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
header.site { padding: 1.25rem 1.5rem 0.5rem; }
header.site h1 { margin: 0; font-size: 1.6rem; }
header.site p { margin: 0.25rem 0 0; color: var(--muted); }
nav.pager { display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; padding: 0.5rem 1.5rem; }
nav.pager .here { color: var(--muted); }
main { padding: 0 1.5rem 2rem; }
section { margin: 1.5rem 0; }
h2 { font-size: 1.15rem; margin: 0 0 0.6rem; }
h3 { font-size: 1rem; margin: 0 0 0.5rem; }
.note { color: var(--muted); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }

ul.grid { list-style: none; margin: 0; padding: 0; display: grid; gap: 4px;
  grid-template-columns: repeat(auto-fill, minmax(var(--cell), 1fr)); }
ul.grid li { margin: 0; }
a.tile { position: relative; display: block; overflow: hidden; border-radius: 3px; background: var(--line); }
a.tile img, a.tile video.motion { display: block; width: 100%; height: auto; aspect-ratio: 1 / 1; object-fit: cover; }
a.tile video.motion { position: absolute; inset: 0; height: 100%; }
a.tile .badge, a.tile .flag { position: absolute; font-size: 0.72rem; font-weight: 600; padding: 0.05rem 0.4rem;
  border-radius: 0.6rem; pointer-events: none; }
a.tile .badge { left: 0.35rem; bottom: 0.35rem; background: rgba(0, 0, 0, 0.62); color: #fff; }
a.tile .flag { right: 0.35rem; top: 0.35rem; background: var(--warn-bg); color: var(--warn); }
a.tile .badge.burst { bottom: auto; top: 0.35rem; }
li.burst-shots summary { display: grid; place-items: center; aspect-ratio: 1 / 1; cursor: pointer; border: 1px dashed var(--line);
  border-radius: 3px; color: var(--muted); font-size: 0.85rem; text-align: center; padding: 0.5rem; list-style: none; }
li.burst-shots:has(details[open]) { grid-column: 1 / -1; }
li.burst-shots details[open] summary { aspect-ratio: auto; margin-bottom: 4px; }
a.tile.missing { display: grid; place-items: center; aspect-ratio: 1 / 1; color: var(--muted); font-size: 0.8rem; padding: 0.5rem; }

ol.months { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.75rem;
  grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr)); }
ol.months a { display: block; text-decoration: none; color: var(--fg); background: var(--card); border-radius: 4px; overflow: hidden;
  border: 1px solid var(--line); }
ol.months img { display: block; width: 100%; height: auto; aspect-ratio: 4 / 3; object-fit: cover; background: var(--line); }
ol.months .label { display: block; padding: 0.4rem 0.6rem; }
ol.months .count { display: block; color: var(--muted); font-size: 0.85rem; }

.made { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); list-style: none; margin: 0; padding: 0; }
.made figure { margin: 0; background: var(--card); border: 1px solid var(--line); border-radius: 4px; overflow: hidden; }
.made img, .made video { display: block; width: 100%; height: auto; background: var(--line); }
.made video { aspect-ratio: 16 / 9; }
.made figcaption { padding: 0.4rem 0.6rem; font-size: 0.85rem; overflow-wrap: anywhere; }

dl.counts { display: flex; flex-wrap: wrap; gap: 0.75rem; margin: 1rem 0 0; }
dl.counts div { background: var(--card); border: 1px solid var(--line); border-radius: 4px; padding: 0.5rem 0.9rem; min-width: 7.5rem; }
dl.counts dt { color: var(--muted); font-size: 0.85rem; }
dl.counts dd { margin: 0; font-size: 1.5rem; font-weight: 600; }
dl.counts .bad dd { color: var(--bad); }
table.list { border-collapse: collapse; width: 100%; background: var(--card); font-size: 0.9rem; }
table.list th, table.list td { text-align: left; vertical-align: top; padding: 0.35rem 0.6rem; border-bottom: 1px solid var(--line);
  overflow-wrap: anywhere; }
table.list th { color: var(--muted); font-weight: 600; }
table.failures td.reason { color: var(--bad); }
.pair { display: flex; gap: 0.75rem; align-items: flex-start; background: var(--card); border: 1px solid var(--line);
  border-radius: 4px; padding: 0.6rem; margin: 0 0 0.6rem; }
.pair figure { margin: 0; width: var(--cell); flex: none; }
.pair img { display: block; width: 100%; height: auto; aspect-ratio: 1 / 1; object-fit: cover; border-radius: 3px; }
.pair figcaption { font-size: 0.8rem; overflow-wrap: anywhere; margin-top: 0.25rem; }

dialog.viewer { width: 100vw; height: 100vh; max-width: none; max-height: none; margin: 0; padding: 0; border: 0;
  background: #0b0b0b; color: #f2f2f2; }
dialog.viewer::backdrop { background: #0b0b0b; }
dialog.viewer figure { margin: 0; }
dialog.viewer .stage { position: absolute; inset: 0 0 5.5rem 0; display: grid; place-items: center; touch-action: pan-y; }
dialog.viewer .stage img, dialog.viewer .stage video { grid-area: 1 / 1; max-width: 100%; max-height: 100%; object-fit: contain; }
dialog.viewer .stage video.motion { opacity: 0; transition: opacity 0.15s; pointer-events: none; }
dialog.viewer .stage.playing video.motion { opacity: 1; }
dialog.viewer .live { position: absolute; left: 1rem; top: 1rem; font-size: 0.75rem; font-weight: 700; padding: 0.15rem 0.5rem;
  border-radius: 0.7rem; background: rgba(255, 255, 255, 0.85); color: #111; border: 0; cursor: pointer; }
dialog.viewer figcaption { position: absolute; left: 0; right: 0; bottom: 0; height: 5.5rem; padding: 0.6rem 5rem; text-align: center;
  font-size: 0.9rem; }
dialog.viewer figcaption .title { font-weight: 600; }
dialog.viewer figcaption .source { color: #b8b8bd; }
dialog.viewer figcaption .source.uncertain { color: #ffb95a; }
dialog.viewer button.nav, dialog.viewer button.close { position: absolute; background: rgba(255, 255, 255, 0.12); color: #fff; border: 0;
  border-radius: 50%; width: 3rem; height: 3rem; font-size: 1.5rem; cursor: pointer; }
dialog.viewer button.nav:disabled { opacity: 0.25; cursor: default; }
dialog.viewer button.prev { left: 1rem; top: calc(50% - 4rem); }
dialog.viewer button.next { right: 1rem; top: calc(50% - 4rem); }
dialog.viewer button.close { right: 1rem; top: 1rem; }
dialog.viewer .counter { position: absolute; right: 1.2rem; bottom: 1rem; color: #b8b8bd; font-size: 0.85rem; }
"""#
}
