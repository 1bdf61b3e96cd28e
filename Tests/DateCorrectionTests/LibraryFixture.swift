import DarkroomCatalog
import DarkroomCore
import DarkroomStages
import DarkroomTestSupport
import Foundation
import XCTest
import DarkroomLibrary
import DarkroomModel
import DarkroomReport

/// A camera roll of generated photos imported into a library with a small, fast import pipeline
/// written to a file (so the catalog records it), and the `darkroom` command to correct it.
final class LibraryFixture {
    let folder: TemporaryFolder
    var roll: URL { folder.path("roll") }
    var library: URL { folder.path("library") }
    let pipelineFile: URL
    let command: DarkroomCommand

    /// The import: HEIC and thumbnail filed by year and month.
    static let importPipeline = """
        steps:
          - exif-date
          - resize: { long-edge: 320 }
          - heic-encode: { quality: 30, preset: ultrafast, output: "Photos/{yyyy}/{MM}/{id}.heic" }
          - thumbnail: { size: 64, output: "Thumbnails/{yyyy}/{MM}/{id}.jpg" }
        """

    init(_ label: String, pipeline: String = LibraryFixture.importPipeline) throws {
        folder = try TemporaryFolder(label)
        try FileManager.default.createDirectory(at: folder.path("roll"), withIntermediateDirectories: true)
        pipelineFile = folder.path("import.yaml")
        try Data(pipeline.utf8).write(to: pipelineFile)
        command = try DarkroomCommand(workingDirectory: folder.url)
    }

    /// A photo at `relativePath` in the roll, taken at `date` (`2024:05:03 12:30:00`, offset +02:00) with `camera`.
    @discardableResult
    func photo(_ relativePath: String, date: String, camera: (make: String, model: String) = ("Canon", "Canon EOS 5D"), seed: Int) throws -> URL {
        let url = roll.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Fixtures.photo(url, width: 480, height: 320, seed: seed,
                           exif: ["-DateTimeOriginal=\(date)", "-OffsetTimeOriginal=+02:00", "-Make=\(camera.make)", "-Model=\(camera.model)"])
        return url
    }

    /// Runs a pipeline file over the roll, in this process.
    func run(_ file: URL? = nil, force: Bool = false) throws -> RunReport {
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(path: (file ?? pipelineFile).path)
        return try Runner(pipeline: pipeline, settings: RunSettings(library: library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2, force: force))
            .run(inputs: [roll])
    }

    /// `darkroom catalog set-date ... --library <library>`.
    func setDate(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try command.run(["catalog", "set-date"] + arguments + ["--library", library.path])
    }

    var catalog: Catalog { get throws { try Catalog(library: library) } }

    /// The catalog's record of the photo imported from `original`.
    func asset(_ original: URL) throws -> AssetFacts {
        try XCTUnwrap(try catalog.assets(.originalPath(original.path)).first, "\(original.lastPathComponent) is not in the catalog")
    }

    /// The library paths of the photo's catalogued outputs, sorted.
    func outputs(of original: URL) throws -> [String] {
        try catalog.state(of: try asset(original).contentHash).outputs.map(\.path).sorted()
    }

    /// The HEIC and thumbnail paths a photo has in a month folder (`2019/06`).
    func expectedOutputs(of original: URL, month: String) throws -> [String] {
        let id = try asset(original).id.uuidString.lowercased()
        return ["Photos/\(month)/\(id).heic", "Thumbnails/\(month)/\(id).jpg"]
    }

    /// Every file in the library outside `.darkroom`, relative to it, sorted.
    func libraryFiles() throws -> [String] {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: library.path).filter { path in
            !path.hasPrefix(".darkroom") && FileInfo(path: library.appendingPathComponent(path).path)?.isRegularFile == true
        }
        return paths.sorted()
    }

    /// SHA-256 of every file of the roll, by path.
    func rollHashes() throws -> [String: String] {
        var hashes: [String: String] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: roll.path) {
            let url = roll.appendingPathComponent(path)
            if FileInfo(path: url.path)?.isRegularFile == true { hashes[path] = try ContentHash.ofFile(url) }
        }
        return hashes
    }
}
