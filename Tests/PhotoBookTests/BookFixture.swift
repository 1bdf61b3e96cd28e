import DarkroomCatalog
import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import DarkroomVips
import Foundation
import XCTest
import DarkroomReport

/// A folder of generated photos and a library, and a way to run `photo-book` on them through the
/// real pipeline loader and runner (`exif-date` reads each capture date from the file name).
final class BookFixture {
    let folder: TemporaryFolder
    var photos: URL { folder.path("photos") }
    var library: URL { folder.path("library") }
    private var made = 0

    init() throws {
        try PDFInspection.requireTools()
        folder = try TemporaryFolder("photo-book-test")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    }

    /// A file name carrying a capture date that `exif-date` reads (`a 2024-01-05 08.00.00.jpg`),
    /// with a prefix so that name order can differ from date order.
    static func name(_ prefix: String, _ year: Int = 2024, month: Int = 1, day: Int, ext: String = "jpg") -> String {
        String(format: "%@ %04d-%02d-%02d 08.00.00.%@", prefix, year, month, day, ext)
    }

    /// A plain photo (JPEG, quality 95) of `colour`. A one-pixel marker in a corner keeps every
    /// file distinct: the runner passes byte-identical duplicates over.
    @discardableResult
    func photo(_ name: String, colour: Colour, width: Int = 160, height: Int = 120) throws -> URL {
        let url = photos.appendingPathComponent(name)
        made += 1
        try Fixtures.solid(url, colour: colour, width: width, height: height, number: made)
        return url
    }

    /// A JPEG of busy pixels whose header is fine but whose data stops half way (a card pulled mid-write).
    @discardableResult
    func truncatedPhoto(_ name: String) throws -> URL {
        let url = photos.appendingPathComponent(name)
        try Fixtures.photo(url, width: 800, height: 600)
        let data = try Data(contentsOf: url)
        try data.prefix(data.count / 2).write(to: url)
        return url
    }

    /// Runs `exif-date` then `photo-book` with `options` (a YAML flow mapping's inside).
    func run(_ options: String = "") throws -> RunReport {
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(yaml: Self.pipeline(options), file: "test.yaml")
        return try Runner(pipeline: pipeline, settings: RunSettings(library: library, jobs: 2)).run(inputs: [photos])
    }

    /// The pipeline text for `options`.
    static func pipeline(_ options: String) -> String {
        "steps:\n  - exif-date: { fallback-to-file-time: false }\n  - photo-book: { \(options) }\n"
    }

    /// Runs and insists the book at `path` (inside the library) was made with no failure.
    func book(_ options: String = "", at path: String = "books/2024-photo-book.pdf",
              file: StaticString = #filePath, line: UInt = #line) throws -> PDFInspection {
        let report = try run(options)
        XCTAssertEqual(report.failures, [], file: file, line: line)
        let url = library.appendingPathComponent(path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), "no \(path)", file: file, line: line)
        return PDFInspection(url: url)
    }

    /// The files the library holds under `folder`, sorted.
    func files(under folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: library.appendingPathComponent(folder).path)) ?? []).sorted()
    }
}

/// The mean colour of a square of `side` pixels centred on `x`, `y` of a PNG: red, green, blue.
func colour(of png: URL, x: Double, y: Double, side: Int = 6) throws -> [Double] {
    try Fixtures.meanColour(of: png, x: Int(x) - side / 2, y: Int(y) - side / 2, width: side, height: side)
}

/// Asserts that the square around `x`, `y` of a rendered page is `expected` (within `tolerance` on
/// every channel), naming `what` and the colour found when it is not.
func assertColour(_ png: URL, x: Double, y: Double, is expected: [Double], tolerance: Double = 30, _ what: String,
                  file: StaticString = #filePath, line: UInt = #line) throws {
    let measured = try colour(of: png, x: x, y: y)
    let close = zip(measured, expected).allSatisfy { abs($0 - $1) <= tolerance }
    XCTAssertTrue(close, "\(what): \(measured.map { Int($0.rounded()) }) at (\(Int(x)), \(Int(y))), expected \(expected.map { Int($0) })",
                  file: file, line: line)
}

let red: [Double] = [255, 0, 0], green: [Double] = [0, 255, 0], blue: [Double] = [0, 0, 255], white: [Double] = [255, 255, 255]
