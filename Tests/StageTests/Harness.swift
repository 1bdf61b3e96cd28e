import DarkroomCore
import DarkroomCatalog
import DarkroomExif
import DarkroomHEIF
import DarkroomStages
import DarkroomTestSupport
import Foundation
import DarkroomModel
import DarkroomReport

/// Runs built-in stages through the real runner on a folder of inputs.
struct Harness {
    let folder: TemporaryFolder
    var inputs: URL { folder.path("in") }
    var library: URL { folder.path("library") }

    init(_ label: String) throws {
        folder = try TemporaryFolder(label)
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
    }

    /// Loads `steps` (the YAML list under `steps:`) and runs it.
    func run(steps: String, pixelLimit: Int = 100_000_000) throws -> RunReport {
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(yaml: "steps:\n" + steps, file: "test.yaml")
        return try Runner(pipeline: pipeline, settings: RunSettings(library: library, pixelLimit: pixelLimit,
                                                                    timeZone: TimeZone(identifier: "UTC")!, jobs: 2))
            .run(inputs: [inputs])
    }

    /// The library files published by a step, sorted.
    func outputs(of report: RunReport, under prefix: String) -> [URL] {
        report.published.filter { $0.hasPrefix(prefix) }.sorted().map { library.appendingPathComponent($0) }
    }

    /// Library-relative outputs a step published for one input file name.
    func output(for input: String, under prefix: String) throws -> URL {
        let id = ContentHash.uuid(fromHex: try ContentHash.ofFile(inputs.appendingPathComponent(input))).uuidString.lowercased()
        let matches = try FileManager.default.subpathsOfDirectory(atPath: library.appendingPathComponent(prefix).path)
            .filter { $0.contains(id) }
        guard let match = matches.first else { throw FixtureError("no output under \(prefix) for \(input)") }
        return library.appendingPathComponent(prefix).appendingPathComponent(match)
    }
}


/// Reads what a HEIC file declares, with its EXIF parsed.
enum HEIFInfoReader {
    struct Result {
        var info: HEIFInfo
        var exif: ExifTags?
        var exifOrientation: Int? { exif?.orientation }
    }

    static func read(_ url: URL) throws -> Result {
        let info = try HEIFInfo.read(url.path)
        var tags: ExifTags?
        if let block = info.exif, block.count > 4 {
            // libheif stores a 4-byte big-endian offset to the TIFF header before the EXIF data.
            let offset = Int(block.prefix(4).reduce(0) { $0 << 8 | UInt32($1) })
            tags = try? ExifTags(parsing: Data(block.dropFirst(4 + offset)))
        }
        return Result(info: info, exif: tags)
    }
}
