import DarkroomCatalog
import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import Foundation
import XCTest
import DarkroomLibrary
import DarkroomModel
import DarkroomReport

/// A camera card of generated photos imported into a library by the shipped import pipeline, a
/// video and a Live Photo's video recorded in the catalog as a video import records them, and the
/// shipped gallery pipeline run over the library. The library's folder name holds a space, `#`, `?`
/// and `é`, so every link to it must be encoded.
final class GalleryFixture {
    let folder: TemporaryFolder
    var card: URL { folder.path("card") }
    var library: URL { folder.path("My Library #1 ?é") }
    var gallery: URL { library.appendingPathComponent("gallery") }
    private var made = 0

    /// The repository, for the shipped pipelines.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    init(_ label: String = "gallery") throws {
        for tool in ["convert", "exiftool", "ffmpeg"] { try GalleryFixture.require(tool) }
        folder = try TemporaryFolder(label)
        try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
    }

    /// Skips (fails under CI) when `tool` is not installed.
    static func require(_ tool: String) throws {
        let found = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
        if !found { throw Prerequisite.missing("\(tool) is not installed (scripts/setup.sh --tests installs it)") }
    }

    // MARK: The card

    /// A photographic-looking JPEG on the card, with EXIF tags written by exiftool
    /// (`["-DateTimeOriginal=2024:01:05 10:00:00", "-Model=..."]`).
    @discardableResult
    func photo(_ name: String, width: Int = 480, height: Int = 360, exif: [String] = []) throws -> URL {
        made += 1
        let url = card.appendingPathComponent(name)
        try Fixtures.photo(url, width: width, height: height, seed: made, exif: exif)
        return url
    }

    /// A photo with no date inside, whose file time is `touchDate` (`2023-12-31 18:00`): dated with low confidence.
    @discardableResult
    func undatedPhoto(_ name: String, touchDate: String) throws -> URL {
        let url = try photo(name)
        try Fixtures.run("touch", ["-d", touchDate, url.path])
        return url
    }

    /// A Google Micro Video motion photo: a still with `GCamera:MicroVideo` XMP and an H.264 clip appended.
    @discardableResult
    func motionPhoto(_ name: String, date: String) throws -> URL {
        let url = try photo(name, exif: ["-DateTimeOriginal=\(date)"])
        let clip = try GalleryFixture.clip(seconds: 1, in: folder, named: "motion-\(name).mp4")
        let video = try Data(contentsOf: clip)
        try Fixtures.run("exiftool", ["-q", "-overwrite_original", "-XMP-GCamera:MicroVideo=1", "-XMP-GCamera:MicroVideoVersion=1",
                                      "-XMP-GCamera:MicroVideoOffset=\(video.count)", url.path])
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: video)
        try handle.close()
        return url
    }

    /// A short H.264 clip (320x240, 10 fps, a moving test pattern) made by the ffmpeg CLI, in MP4 or
    /// (by the name's extension) QuickTime.
    static func clip(seconds: Int, in folder: TemporaryFolder, named name: String) throws -> URL {
        let url = folder.path(name)
        try Fixtures.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:d=\(seconds):r=10", "-c:v", "libx264",
                                    "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-movflags", "+faststart", url.path])
        return url
    }

    // MARK: Runs

    /// Runs a shipped pipeline (`pipelines/<name>.yaml`) from `inputs` into the library.
    func run(pipeline name: String, inputs: [URL]) throws -> RunReport {
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry)
            .load(path: GalleryFixture.repository.appendingPathComponent("pipelines/\(name).yaml").path)
        return try Runner(pipeline: pipeline, settings: RunSettings(library: library, timeZone: TimeZone(identifier: "Europe/Paris")!, jobs: 2))
            .run(inputs: inputs)
    }

    /// Runs a pipeline written out in `yaml` from `inputs` into the library.
    func run(yaml: String, inputs: [URL]) throws -> RunReport {
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(yaml: yaml, file: "test-gallery.yaml")
        return try Runner(pipeline: pipeline, settings: RunSettings(library: library, jobs: 2)).run(inputs: inputs)
    }

    /// Imports the card with the shipped import pipeline, insisting nothing failed.
    @discardableResult
    func importCard(file: StaticString = #filePath, line: UInt = #line) throws -> RunReport {
        let report = try run(pipeline: "import-camera-roll", inputs: [card])
        XCTAssertEqual(report.failures, [], file: file, line: line)
        return report
    }

    /// The library's `Photos/` and, when it has one, `Videos/`: the gallery's inputs.
    var galleryInputs: [URL] {
        ["Photos", "Videos"].map { library.appendingPathComponent($0) }.filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Runs the shipped gallery pipeline over the library, insisting nothing failed.
    @discardableResult
    func makeGallery(file: StaticString = #filePath, line: UInt = #line) throws -> RunReport {
        let report = try run(pipeline: "gallery", inputs: galleryInputs)
        XCTAssertEqual(report.failures, [], file: file, line: line)
        return report
    }

    // MARK: Videos, as a video import records them

    /// A video filed at `Videos/YYYY/MM/<id>.mp4` with its poster at `Thumbnails/YYYY/MM/<id>.jpg`,
    /// recorded in the catalog as the import records a video (media kind from its original's name).
    @discardableResult
    func video(date: LocalDateTime, seconds: Int = 2, camera: String = "Apple iPhone 13") throws -> String {
        let clip = try GalleryFixture.clip(seconds: seconds, in: folder, named: "clip-\(date.description).mp4")
        let hash = try ContentHash.ofFile(clip)
        let id = ContentHash.uuid(fromHex: hash).uuidString.lowercased()
        let month = String(format: "%04d/%02d", date.year, date.month)
        let poster = folder.path("poster-\(id).jpg")
        try Fixtures.run("ffmpeg", ["-v", "error", "-y", "-i", clip.path, "-frames:v", "1", "-vf", "scale=200:-2", poster.path])
        var asset = AssetFacts(contentHash: hash, id: ContentHash.uuid(fromHex: hash), originalPath: card.appendingPathComponent("CLIP.MP4").path,
                               fileSize: 1, captureDate: CaptureDate(local: date, utcOffsetSeconds: 3600, source: .quickTimeCreationDate,
                                                                     timeZoneSource: .metadata, confidence: .high),
                               width: 320, height: 240, orientation: nil, camera: camera)
        asset.video = VideoFacts(duration: Double(seconds), codec: "h264", bitDepth: 8, hdrTransfer: nil, audioCodec: nil)
        try record(subject: hash, asset: asset, files: [("Videos/\(month)/\(id).mp4", clip, "video-encode"),
                                                        ("Thumbnails/\(month)/\(id).jpg", poster, "thumbnail")])
        return id
    }

    /// A Live Photo's video joined to the still imported from `still` (a card file): recorded as the
    /// still's motion part, `Photos/YYYY/MM/<still id>.mov`, owned by the video's own subject.
    func livePhotoVideo(of still: URL) throws {
        let stillHash = try ContentHash.ofFile(still)
        let catalog = try Catalog(library: library)
        let facts = try XCTUnwrap(try catalog.rememberedFacts(contentHash: stillHash)?.captureDate, "the still is not imported")
        let clip = try GalleryFixture.clip(seconds: 1, in: folder, named: "live-\(stillHash.prefix(8)).mov")
        let hash = try ContentHash.ofFile(clip)
        var asset = AssetFacts(contentHash: hash, id: ContentHash.uuid(fromHex: hash), originalPath: card.appendingPathComponent("LIVE.MOV").path,
                               fileSize: 1, captureDate: facts, width: 320, height: 240, orientation: nil, camera: "Apple iPhone 13")
        asset.motionOf = stillHash
        asset.video = VideoFacts(duration: 1, codec: "h264", bitDepth: 8, hdrTransfer: nil, audioCodec: nil)
        let month = String(format: "%04d/%02d", facts.local.year, facts.local.month)
        try record(subject: hash, asset: asset,
                   files: [("Photos/\(month)/\(ContentHash.uuid(fromHex: stillHash).uuidString.lowercased()).mov", clip, "motion-video")])
    }

    /// Copies `files` into the library and records them, with `asset`, as `import-camera-roll` steps' outputs.
    private func record(subject: String, asset: AssetFacts, files: [(path: String, source: URL, step: String)]) throws {
        let catalog = try Catalog(library: library)
        let run = try catalog.beginRun(pipeline: "import-camera-roll.yaml")
        var outputs: [PublishedOutput] = []
        for file in files {
            let destination = library.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: file.source, to: destination)
            outputs.append(PublishedOutput(step: "import-camera-roll/\(file.step)", path: file.path,
                                           size: Int64(try Data(contentsOf: destination).count), sha256: try ContentHash.ofFile(destination)))
        }
        _ = try catalog.commit(UnitCompletion(subject: subject, units: files.map { .init(step: "import-camera-roll/\($0.step)", key: "fixture") },
                                              outputs: outputs, asset: asset), run: run)
        try catalog.finishRun(run, report: RunReport(pipeline: "import-camera-roll.yaml", library: library.path))
    }

    // MARK: Reading the gallery

    /// A page of the gallery (`index.html`, `2024-01.html`).
    func page(_ name: String) throws -> String {
        try String(contentsOf: gallery.appendingPathComponent(name), encoding: .utf8)
    }

    /// The gallery's HTML pages, by name.
    func pages() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: gallery.path).filter { $0.hasSuffix(".html") }.sorted()
    }

    /// The id a card file has in the library.
    static func id(of file: URL) throws -> String {
        ContentHash.uuid(fromHex: try ContentHash.ofFile(file)).uuidString.lowercased()
    }
}

/// The pieces of a page's HTML that tests look at.
enum HTMLScan {
    /// Every `<tag ...>` start tag of `name` in `html`.
    static func tags(_ name: String, in html: String) -> [String] {
        html.matches(of: try! Regex("<\(name)\\b[^>]*>")).map { String($0.output[0].substring ?? "") }
    }

    /// The value of `attribute` in a start tag, with character references undone.
    static func attribute(_ attribute: String, of tag: String) -> String? {
        guard let match = tag.firstMatch(of: try! Regex(" \(attribute)=\"([^\"]*)\"")), let value = match.output[1].substring else { return nil }
        return unescape(String(value))
    }

    /// Text with HTML's character references undone.
    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The file a relative link from a page in `folder` points at.
    static func file(_ link: String, from folder: URL) -> URL? {
        guard let url = URL(string: link, relativeTo: folder.appendingPathComponent("page.html")) else { return nil }
        return url.isFileURL ? URL(fileURLWithPath: url.standardizedFileURL.path) : nil
    }
}
