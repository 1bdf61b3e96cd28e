import DarkroomCore
import DarkroomCatalog
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest
import DarkroomOptions
import DarkroomReport

/// A folder of generated photos and a library, and a way to run the `timelapse` stage on them
/// through the real pipeline loader and runner (`exif-date` reads the dates from the file names).
final class TimelapseFixture {
    let folder: TemporaryFolder
    var photos: URL { folder.path("photos") }
    var library: URL { folder.path("library") }

    /// Small and fast unless a test says otherwise.
    static let defaults: KeyValuePairs<String, String> = ["size": "320x240", "preset": "ultrafast"]

    init() throws {
        try NativeLibraries.start()
        folder = try TemporaryFolder("timelapse-test")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    }

    /// A file name carrying a capture date (`exif-date` reads `2024-01-05 08.00.00`), with a prefix
    /// so file-name order can differ from date order.
    static func name(_ prefix: String, day: Int, hour: Int = 8, month: Int = 1) -> String {
        String(format: "%@ 2024-%02d-%02d %02d.00.00.jpg", prefix, month, day, hour)
    }

    /// A plain grey photo (JPEG).
    @discardableResult
    func photo(_ name: String, grey: Double, width: Int = 160, height: Int = 120) throws -> URL {
        try photo(name, colour: Colour(red: grey, green: grey, blue: grey), width: width, height: height)
    }

    /// A plain coloured photo (JPEG, quality 95). A one-pixel marker in the top-left corner keeps
    /// every file distinct: the runner passes byte-identical duplicates over.
    @discardableResult
    func photo(_ name: String, colour: Colour, width: Int = 160, height: Int = 120) throws -> URL {
        let url = photos.appendingPathComponent(name)
        made += 1
        try Fixtures.solid(url, colour: colour, width: width, height: height, number: made)
        return url
    }
    private var made = 0

    /// A JPEG whose header is fine but whose pixel data stops half way (a card pulled mid-write).
    @discardableResult
    func truncatedPhoto(_ name: String) throws -> URL {
        let url = photos.appendingPathComponent(name)
        made += 1
        let busy = try Image.solid(width: 640, height: 480, colour: .white)
            .drawingRectangles((0..<40).map { (x: $0 * 16, y: $0 * 12, width: 16, height: 12) },
                               colour: Colour(red: Double(made * 37 % 256), green: 30, blue: 90))
        try busy.write(to: url.path, as: .jpeg(quality: 95))
        let data = try Data(contentsOf: url)
        try data.prefix(data.count / 2).write(to: url)
        return url
    }

    /// The pipeline text: `exif-date` (then `ForgetUndatedNames` when asked) then `timelapse` with the
    /// defaults overridden by `options`.
    static func pipeline(_ options: KeyValuePairs<String, String>, forgettingDates: Bool = false) -> String {
        var merged: [(String, String)] = defaults.filter { key, _ in !options.contains { $0.key == key } }.map { ($0.key, $0.value) }
        merged += options.map { ($0.key, $0.value) }
        var yaml = "steps:\n  - exif-date:\n      fallback-to-file-time: false\n"
        if forgettingDates { yaml += "  - \(ForgetUndatedNames.name)\n" }
        yaml += "  - timelapse:\n" + merged.map { "      \($0.0): \($0.1)\n" }.joined()
        return yaml
    }

    /// Runs the pipeline over the photos; the report, and the video when one was published.
    func run(_ options: KeyValuePairs<String, String> = [:], forgettingDates: Bool = false) throws -> (report: RunReport, video: URL?) {
        let registry = BuiltInStages.registry.adding([StageDescriptor(ForgetUndatedNames.self)])
        let pipeline = try PipelineLoader(registry: registry)
            .load(yaml: Self.pipeline(options, forgettingDates: forgettingDates), file: "test.yaml")
        let report = try Runner(pipeline: pipeline, settings: RunSettings(library: library, jobs: 2)).run(inputs: [photos])
        let video = library.appendingPathComponent(options.first { $0.key == "output" }?.value ?? "timelapse.mp4")
        return (report, FileManager.default.fileExists(atPath: video.path) ? video : nil)
    }

    /// Runs and insists a video was made; fails the test with the report otherwise.
    func render(_ options: KeyValuePairs<String, String> = [:], file: StaticString = #filePath, line: UInt = #line) throws -> VideoInspection {
        let (report, video) = try run(options)
        let url = try XCTUnwrap(video, "no video; failures: \(report.failures)", file: file, line: line)
        return VideoInspection(url: url)
    }
}

/// A third-party-style stage for tests: clears the capture date of photos whose file name starts
/// with "undated", as if no source had given one, so the time-lapse sees items without a date.
struct ForgetUndatedNames: Stage {
    static let name = "forget-undated-names"
    static let summary = "Test only: clears the capture date of files named undated*."
    static let reads: Set<ItemAspect> = [.captureDate]
    static let writes: Set<ItemAspect> = [.captureDate]

    init(options: NoOptions) {}

    func process(_ item: Item, context: StageContext) throws {
        if item.fileName.hasPrefix("undated") { item.captureDate = nil }
    }
}
