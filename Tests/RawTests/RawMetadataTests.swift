import DarkroomExif
import DarkroomModel
import DarkroomRaw
import DarkroomTestSupport
import Foundation
import XCTest

/// RawMetadata against exiftool, on the corpus RAWs and on copies exiftool wrote dates, offsets and
/// GPS positions into.
final class RawMetadataTests: XCTestCase {
    override func setUpWithError() throws {
        try NativeLibraries.start()
    }

    static let corpusFiles = [
        "colorchart.dng", "exiftool-CanonRaw.cr2", "exiftool-CanonRaw.cr3", "exiftool-CanonRaw.crw", "exiftool-DNG.dng",
        "exiftool-FujiFilm.raf", "exiftool-KyoceraRaw.raw", "exiftool-Minolta.mrw", "exiftool-Nikon.nef",
        "exiftool-Panasonic.rw2", "exiftool-PhaseOne.iiq", "exiftool-Sigma.x3f", "exiftool-SigmaDP2.x3f",
    ]

    func testCorpusRawFilesAgreeWithExiftool() throws {
        let files = try Self.corpusFiles.map { try Corpus.file("raw/\($0)") }
        let checked = try Exiftool.assertAgreement(files)
        XCTAssertEqual(checked, 13)
        // The corpus holds the cases that need more than IFD0 and the Exif directory.
        let cr3 = try RawMetadata.read(path: files[2].path)
        XCTAssertEqual([cr3.dateTimeOriginal, cr3.offsetTimeOriginal, cr3.subSecTimeOriginal], ["2018:02:21 12:08:56", "+00:00", "21"])
        XCTAssertEqual(try RawMetadata.read(path: files[3].path).dateTimeOriginal, "2003:11:10 17:39:26", "CRW: Unix time shown as UTC")
        XCTAssertEqual(try RawMetadata.read(path: files[6].path).model, "N DIGITAL", "Kyocera: reversed strings")
        XCTAssertEqual(try RawMetadata.read(path: files[10].path).lensModel, "Mamiya LS 80mm f/2.8 D", "IIQ: Phase One maker note")
        XCTAssertEqual(try RawMetadata.read(path: files[11].path).dateTimeOriginal, "2001:01:01 00:36:35", "X3F SD10: properties")
        XCTAssertEqual(try RawMetadata.read(path: files[0].path).dateTimeOriginal, nil, "colorchart.dng has an empty DateTimeOriginal")
    }

    func testDatesOffsetsAndGPSWrittenByExiftoolAreRead() throws {
        try Prerequisite.require(tool: "exiftool")
        let folder = try TemporaryFolder("raw-metadata")
        let writable = ["colorchart.dng", "exiftool-DNG.dng", "exiftool-CanonRaw.cr2", "exiftool-CanonRaw.cr3", "exiftool-Nikon.nef",
                        "exiftool-Panasonic.rw2", "exiftool-FujiFilm.raf", "exiftool-Minolta.mrw", "exiftool-PhaseOne.iiq",
                        "exiftool-SigmaDP2.x3f"]
        var copies = try writable.map { try copyOfCorpusFile($0, into: folder) }
        try Fixtures.run("exiftool", ["-m", "-q", "-q", "-overwrite_original", "-DateTimeOriginal=2021:07:04 09:08:07",
                                      "-OffsetTimeOriginal=-05:00", "-SubSecTimeOriginal=123", "-GPSLatitude=40.6892",
                                      "-GPSLatitudeRef=S", "-GPSLongitude=74.0445", "-GPSLongitudeRef=W",
                                      "-LensModel=Test Lens 35mm"] + copies.map(\.path))
        // CIFF has a capture time but no offset, sub-seconds or GPS (exiftool puts those in XMP).
        let crw = try copyOfCorpusFile("exiftool-CanonRaw.crw", into: folder)
        try Fixtures.run("exiftool", ["-q", "-q", "-overwrite_original", "-DateTimeOriginal=2022:12:31 23:59:58", crw.path])
        copies.append(crw)

        XCTAssertEqual(try Exiftool.assertAgreement(copies), writable.count + 1)
        for copy in copies.dropLast() {
            let metadata = try RawMetadata.read(path: copy.path)
            XCTAssertEqual(metadata.dateTimeOriginal, "2021:07:04 09:08:07", copy.lastPathComponent)
            XCTAssertEqual(metadata.offsetTimeOriginal, "-05:00", copy.lastPathComponent)
            XCTAssertEqual(metadata.gpsPosition?.latitude ?? 0, -40.6892, accuracy: 1e-6, copy.lastPathComponent)
            XCTAssertEqual(metadata.gpsPosition?.longitude ?? 0, -74.0445, accuracy: 1e-6, copy.lastPathComponent)
        }
        XCTAssertEqual(try RawMetadata.read(path: crw.path).dateTimeOriginal, "2022:12:31 23:59:58")
    }

    /// The EXIF block is a valid EXIF file: libexif and exiftool read back what the RAW said.
    func testExifBlockCarriesTheCameraEXIF() throws {
        let folder = try TemporaryFolder("raw-exif-block")
        let cr3 = try copyOfCorpusFile("exiftool-CanonRaw.cr3", into: folder)
        try Fixtures.run("exiftool", ["-q", "-q", "-overwrite_original", "-GPSLatitude=51.5", "-GPSLatitudeRef=N",
                                      "-GPSLongitude=0.1", "-GPSLongitudeRef=W", cr3.path])
        let metadata = try RawMetadata.read(path: cr3.path)
        XCTAssertEqual(try ExifTags(parsing: metadata.exifBlock), metadata.exif)
        XCTAssertEqual(metadata.exifBlock.prefix(6), Data("Exif\0\0".utf8))
        let block = folder.path("block.exif")
        try metadata.exifBlock.dropFirst(6).write(to: block)
        let both = try Exiftool.fields([block, cr3])
        XCTAssertEqual(both[0], both[1], "exiftool reads the same values from the block as from the CR3")
        XCTAssertEqual(both[0][5], "EF-M15-45mm f/3.5-6.3 IS STM")
    }

    func testFilesThatAreNotRawFailWithTheReason() throws {
        let folder = try TemporaryFolder("raw-metadata-errors")
        func reason(_ path: String) -> RawError.Reason? {
            do {
                _ = try RawMetadata.read(path: path)
                return nil
            } catch let error as RawError {
                XCTAssertTrue(error.description.hasPrefix(path + ": "), error.description)
                return error.reason
            } catch {
                XCTFail("\(error)")
                return nil
            }
        }
        let jpeg = folder.path("photo.cr2")
        try Fixtures.halves(folder.path("photo.jpg"), width: 32, height: 16)
        try FileManager.default.moveItem(at: folder.path("photo.jpg"), to: jpeg)
        XCTAssertEqual(reason(jpeg.path), .unknownContainer)
        let empty = folder.path("empty.nef")
        try Data().write(to: empty)
        XCTAssertEqual(reason(empty.path), .unknownContainer)
        guard case .unreadable = reason(folder.path("missing.dng").path) else { return XCTFail("a missing file is unreadable") }
        guard case .unreadable = reason(folder.url.path) else { return XCTFail("a folder is unreadable") }
        // A TIFF header whose first directory lies past the end of the file.
        let badTIFF = folder.path("bad.arw")
        try Data([0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0, 0]).write(to: badTIFF)
        guard case .metadataCorrupt = reason(badTIFF.path) else { return XCTFail("a TIFF without a first directory is damaged") }
        // A CR3 cut after its file-type box.
        let cr3 = try Data(contentsOf: try Corpus.file("raw/exiftool-CanonRaw.cr3"))
        let cutCR3 = folder.path("cut.cr3")
        try cr3.prefix(24).write(to: cutCR3)
        guard case .metadataCorrupt = reason(cutCR3.path) else { return XCTFail("a CR3 without its moov box is damaged") }
    }

    func testImportGlobsCoverLibRawsFormats() {
        for name in ["IMG_0001.CR2", "a.cr3", "b.NEF", "c.arw", "d.dng", "e.RAF", "f.orf", "g.rw2", "h.pef", "i.srw", "j.3fr", "k.iiq"] {
            XCTAssertTrue(MediaKind.isRawPhoto(name), name)
        }
        for name in ["photo.jpg", "clip.mov", "sigma.x3f", "noextension", "dir.cr2/file"] {
            XCTAssertFalse(MediaKind.isRawPhoto(name), name)
        }
    }

    private func copyOfCorpusFile(_ name: String, into folder: TemporaryFolder) throws -> URL {
        let copy = folder.path(name)
        try FileManager.default.copyItem(at: try Corpus.file("raw/\(name)"), to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        return copy
    }
}

/// exiftool's reading of the fields RawMetadata reads, for comparison.
enum Exiftool {
    /// The fields, in the order `ours` lists them. `Composite:` GPS values are signed decimal degrees.
    static let tags = ["DateTimeOriginal", "OffsetTimeOriginal", "SubSecTimeOriginal", "Make", "Model", "LensModel",
                       "Composite:GPSLatitude", "Composite:GPSLongitude"]

    /// exiftool's values (nil where it has none or an empty one: colorchart.dng's DateTimeOriginal is
    /// present but blank, which is no date), one row a file, in the order given.
    static func fields(_ files: [URL]) throws -> [[String?]] {
        try Prerequisite.require(tool: "exiftool")
        let output = try Fixtures.run("exiftool", ["-T", "-n", "-f", "-FilePath"] + tags.map { "-\($0)" } + files.map(\.path))
        let rows = output.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        // exiftool's FilePath is the real path: a corpus reached through a symbolic link is matched by its target.
        return try files.map { file in
            let real = file.resolvingSymlinksInPath().path
            guard let row = rows.first(where: { $0.first.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path } == real }),
                  row.count == tags.count + 1 else {
                throw FixtureError("exiftool printed no row for \(file.path):\n\(output)")
            }
            return row.dropFirst().map { $0 == "-" || $0.isEmpty ? nil : $0 }
        }
    }

    /// The same fields from RawMetadata.
    static func ours(_ file: URL) throws -> [String?] {
        let m = try RawMetadata.read(path: file.path)
        let degrees = [m.gpsPosition?.latitude, m.gpsPosition?.longitude].map { $0.map { String($0) } }
        return [m.dateTimeOriginal, m.offsetTimeOriginal, m.subSecTimeOriginal, m.make, m.model, m.lensModel] + degrees
    }

    /// Asserts every field of every file agrees (GPS to a millionth of a degree); returns the files compared.
    @discardableResult
    static func assertAgreement(_ files: [URL], file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let theirs = try fields(files)
        for (index, url) in files.enumerated() {
            let ours = try ours(url)
            for (field, tag) in tags.enumerated() {
                let name = "\(url.lastPathComponent) \(tag)"
                if tag.hasPrefix("Composite:"), let a = ours[field].flatMap(Double.init), let b = theirs[index][field].flatMap(Double.init) {
                    XCTAssertEqual(a, b, accuracy: 1e-6, name, file: file, line: line)
                } else {
                    XCTAssertEqual(ours[field], theirs[index][field], name, file: file, line: line)
                }
            }
        }
        return files.count
    }
}
