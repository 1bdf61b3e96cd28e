import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest

/// The GIF and the WebP play in Chromium, the browser engine of most chat apps' web and desktop
/// clients: decoded frame by frame with WebCodecs' `ImageDecoder` (frame count, each frame's
/// duration, looping), and animating in an `<img>` (what the page shows changes over time).
final class AnimationBrowserTests: XCTestCase {
    func testTheGIFAndTheWebPPlayInChromium() throws {
        // One library each: a run of another pipeline in the same library would replace the first file.
        var made: [URL] = [], libraries: [TimelapseFixture] = []
        for format in ["gif", "webp"] {
            let fixture = try TimelapseFixture()
            libraries.append(fixture)
            for (day, grey) in [(1, 30.0), (2, 90.0), (3, 150.0), (4, 210.0)] { try fixture.photo(TimelapseFixture.name("p", day: day), grey: grey) }
            let (report, file) = try fixture.run(["format": format, "seconds-per-frame": "0.3"])
            made.append(try XCTUnwrap(file, "no \(format): \(report.failures)"))
        }
        let (gif, webp) = (made[0], made[1])
        let fixture = libraries[0]

        // The bytes go into the page inline: a page opened from a file cannot fetch() files, and a
        // canvas that drew a file: image cannot be read back.
        let page = fixture.folder.path("play.html")
        let html = """
            <!doctype html><body style="margin:0">
            <img id="gif"><img id="webp">
            <script>
            const bytes = { gif: "\(try Data(contentsOf: gif).base64EncodedString())", webp: "\(try Data(contentsOf: webp).base64EncodedString())" };
            for (const name of ["gif", "webp"]) document.getElementById(name).src = "data:image/" + name + ";base64," + bytes[name];
            async function frames(name) {
              const data = Uint8Array.from(atob(bytes[name]), c => c.charCodeAt(0));
              const decoder = new ImageDecoder({ data, type: "image/" + name });
              await decoder.tracks.ready;
              await decoder.completed;
              const track = decoder.tracks.selectedTrack;
              const durations = [];
              let width = 0;
              for (let i = 0; i < track.frameCount; i++) {
                const { image } = await decoder.decode({ frameIndex: i });
                durations.push(Math.round(image.duration / 1000));
                width = image.displayWidth;
                image.close();
              }
              return JSON.stringify({ frames: track.frameCount, repetitions: String(track.repetitionCount), durations, width });
            }
            </script>
            """
        try html.write(to: page, atomically: true, encoding: .utf8)

        let browser = try HeadlessBrowser.start(profile: fixture.folder.path("chromium"))
        defer { browser.quit() }
        try browser.open(page)
        for name in ["gif", "webp"] {
            let json = try XCTUnwrap(try browser.evaluate("frames('\(name)')") as? String, "ImageDecoder gave nothing for the \(name)")
            let decoded = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            XCTAssertEqual(decoded["frames"] as? Int, 4, "\(name): \(json)")
            XCTAssertEqual(decoded["durations"] as? [Int], [300, 300, 300, 300], "\(name): \(json)")
            XCTAssertEqual(decoded["repetitions"] as? String, "Infinity", "\(name) loops forever: \(json)")
            XCTAssertEqual(decoded["width"] as? Int, 320, "\(name): \(json)")

            try browser.waitUntil("document.getElementById('\(name)').complete && document.getElementById('\(name)').naturalWidth === 320",
                                  "the \(name) to load in an <img>")
            // Four photos of 0.3 s each: 0.45 s apart, the page always shows another one. Screenshots
            // are what the page shows (each one makes the browser draw a frame).
            let left = name == "gif" ? 0 : 320
            var seen = Set<Int>()
            for shot in 0..<4 {
                let url = fixture.folder.path("\(name)-\(shot).png")
                try browser.screenshot(to: url)
                seen.insert(Int(try Image.open(url.path).cropped(left: left + 100, top: 80, width: 120, height: 80).average().rounded()))
                Thread.sleep(forTimeInterval: 0.45)
            }
            XCTAssertGreaterThanOrEqual(seen.count, 2, "the \(name) animates in an <img>: levels seen \(seen.sorted())")
        }
        XCTAssertEqual(browser.takeProblems().map(\.description), [], "no console errors")
    }
}
