import DarkroomCatalog
import DarkroomCore
import DarkroomLibrary
import DarkroomModel
import DarkroomStages
import DarkroomTestSupport
import Foundation
import XCTest

/// A camera roll made on the spot, imported into a library by a small, fast import pipeline (run
/// in this process), and `darkroom export` run on it as a user runs it (the binary).
final class ExportFixture {
    let folder: TemporaryFolder
    var roll: URL { folder.path("roll") }
    var library: URL { folder.path("library") }
    let command: DarkroomCommand

    /// The import: 1024 px HEICs (XMP sidecars embedded), motion parts, videos, thumbnails.
    static let importPipeline = """
        inputs:
          include: ["**/*.{jpg,jpeg,heic,png,mov,mp4}"]
        steps:
          - exif-date
          - resize: { long-edge: 1024 }
          - heic-encode: { quality: 40, preset: ultrafast, output: "Photos/{yyyy}/{MM}/{id}.heic" }
          - motion-video: { output: "Photos/{yyyy}/{MM}/{id}.{ext}" }
          - video-encode: { output: "Videos/{yyyy}/{MM}/{id}.{ext}" }
          - thumbnail: { size: 64, output: "Thumbnails/{yyyy}/{MM}/{id}.jpg" }
        """

    init(_ label: String) throws {
        // The tests open exported images in this process too.
        try NativeLibraries.start()
        folder = try TemporaryFolder(label)
        command = try DarkroomCommand(workingDirectory: folder.url)
        try FileManager.default.createDirectory(at: roll, withIntermediateDirectories: true)
    }

    /// A photo at `name` in the roll (640x480 unless said), taken at `date` (`2024:05:03 12:30:00`)
    /// at `offset`, with `camera`, a GPS position unless `gps` is false, and more exiftool arguments.
    @discardableResult
    func photo(_ name: String, date: String?, offset: String = "+02:00", camera: (make: String, model: String)? = ("Canon", "Canon EOS 5D"),
               gps: Bool = true, size: (Int, Int) = (640, 480), seed: Int, exif more: [String] = []) throws -> URL {
        let url = roll.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var exif = more
        if let date { exif += ["-DateTimeOriginal=\(date)", "-OffsetTimeOriginal=\(offset)"] }
        if let camera { exif += ["-Make=\(camera.make)", "-Model=\(camera.model)"] }
        if gps { exif += Self.gpsArguments }
        try Fixtures.photo(url, width: size.0, height: size.1, seed: seed, exif: exif)
        return url
    }

    /// A position in Paris, in EXIF and XMP, and a city in XMP: what an export must remove.
    static let gpsArguments = ["-GPSLatitude=48.8582", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E",
                               "-GPSAltitude=35", "-XMP-photoshop:City=Paris", "-XMP-exif:GPSLatitude=48.8582 N",
                               "-XMP-exif:GPSLongitude=2.2945 E"]

    /// An XMP sidecar beside a photo (`photo.jpg.xmp`) with a rating, keywords and a title.
    func sidecar(of photo: URL, rating: Int? = nil, keywords: [String] = [], title: String? = nil) throws {
        var description = ""
        if let rating { description += "<xmp:Rating>\(rating)</xmp:Rating>" }
        if !keywords.isEmpty {
            description += "<dc:subject><rdf:Bag>" + keywords.map { "<rdf:li>\($0)</rdf:li>" }.joined() + "</rdf:Bag></dc:subject>"
        }
        if let title { description += "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">\(title)</rdf:li></rdf:Alt></dc:title>" }
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
            \(description)</rdf:Description></rdf:RDF></x:xmpmeta>
            """
        try Data(packet.utf8).write(to: URL(fileURLWithPath: photo.path + ".xmp"))
    }

    /// Imports the roll into the library, in this process.
    func importRoll() throws {
        let file = folder.path("import.yaml")
        try Data(Self.importPipeline.utf8).write(to: file)
        let pipeline = try PipelineLoader(registry: BuiltInStages.registry).load(path: file.path)
        let report = try Runner(pipeline: pipeline, settings: RunSettings(library: library, timeZone: TimeZone(identifier: "UTC")!, jobs: 2))
            .run(inputs: [roll])
        XCTAssertEqual(report.failures, [], "the import")
    }

    /// `darkroom export --library <library> ARGUMENTS`.
    func export(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try command.run(["export", "--library", library.path, "--quiet"] + arguments)
    }

    /// The originals the dry run of `arguments` would export, by file name, in its order.
    func selected(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let result = try export(["--to", folder.path("unused").path, "--dry-run", "--json"] + arguments)
        XCTAssertEqual(result.status, 0, result.err, file: file, line: line)
        let plan = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        let items = plan?["items"] as? [[String: Any]] ?? []
        return items.compactMap { ($0["original"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }
    }

    var catalog: Catalog { get throws { try XCTUnwrap(try Catalog.openReadOnly(library: library)) } }

    /// The catalog's record of the photo imported from `original`.
    func asset(_ original: URL) throws -> AssetFacts {
        try XCTUnwrap(try catalog.assets(.originalPath(original.path)).first, "\(original.lastPathComponent) is not in the catalog")
    }

    /// The library file of a photo made by `step` (`heic-encode`).
    func libraryFile(_ original: URL, step: String = "heic-encode") throws -> URL {
        let outputs = try catalog.outputs(ofSubjects: [try asset(original).contentHash])
        let output = try XCTUnwrap(outputs.first { $0.step.hasSuffix("/\(step)") }, "\(original.lastPathComponent) has no \(step) output")
        return library.appendingPathComponent(output.path)
    }

    /// The regular files of a folder (not hidden), sorted.
    static func files(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// exiftool's tags of a file (`-j -a -G1` and `arguments`), as "Group:Tag" to value.
    static func tags(_ url: URL, _ arguments: [String] = []) throws -> [String: String] {
        let json = try Fixtures.run("exiftool", ["-j", "-a", "-G1", "-n"] + arguments + [url.path])
        let objects = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        return (objects.first ?? [:]).filter { $0.key != "SourceFile" }.reduce(into: [:]) { $0[$1.key] = "\($1.value)" }
    }

    /// Every tag exiftool finds that places the photo: any GPS tag, XMP location field, maker note, IPTC place.
    static func locationTags(_ url: URL) throws -> [String: String] {
        try tags(url, ["-gps:all", "-xmp:all", "-makernotes:all", "-iptc:all", "-location:all"]).filter { key, _ in
            let name = key.lowercased()
            return name.contains("gps") || name.contains("city") || name.contains("country") || name.contains("location")
                || name.contains("makernote") || name.hasPrefix("iptc")
        }
    }
}
