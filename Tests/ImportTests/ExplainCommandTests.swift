import DarkroomTestSupport
import Foundation
import XCTest

/// `darkroom explain` on the corpus's tricky files, before any import, and on a library's photo by
/// its id: the chosen source, the candidates set aside and why, the zone, the folder and outputs.
final class ExplainCommandTests: XCTestCase {
    var command: DarkroomCommand!

    override func setUpWithError() throws {
        command = try DarkroomCommand(workingDirectory: ImportTests.root)
    }

    /// `explain --json` of a file, parsed; the command must succeed.
    func explain(_ arguments: [String]) throws -> [String: Any] {
        let result = try command.run(["explain", "--json", "--time-zone", "UTC"] + arguments)
        XCTAssertEqual(result.status, 0, result.err)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any], result.out)
    }

    /// (source, outcome) of every candidate, in order.
    func candidates(_ report: [String: Any]) -> [String] {
        let explanation = report["explanation"] as? [String: Any]
        return (explanation?["candidates"] as? [[String: Any]] ?? []).map { candidate in
            let outcome = candidate["outcome"] as? [String: Any]
            return "\(candidate["source"] as? String ?? "?") \(outcome?["outcome"] as? String ?? "?")"
        }
    }

    func chosen(_ report: [String: Any]) -> [String: Any] {
        (report["explanation"] as? [String: Any])?["chosen"] as? [String: Any] ?? [:]
    }

    func testZeroDatesAreRejectedAndTheFileTimeDecidesAtLowConfidence() throws {
        let report = try explain([try Corpus.file("metadata-extractor-images/jpg/Nikon E885.jpg").path])
        XCTAssertEqual(candidates(report), ["exif:DateTimeOriginal rejected", "exif:DateTimeDigitized rejected", "file-mtime chosen"])
        let first = ((report["explanation"] as? [String: Any])?["candidates"] as? [[String: Any]])?.first
        XCTAssertEqual((first?["outcome"] as? [String: Any])?["reason"] as? String, "all zeros (clock never set)")
        XCTAssertEqual(first?["value"] as? String, "0000:00:00 00:00:00")
        XCTAssertEqual(chosen(report)["confidence"] as? String, "low")
    }

    /// A RAW the import fails on (its sensor data cut out) still shows the date its own EXIF records,
    /// as exiftool reads it, under the reason it cannot be imported; the command exits 1 and plans nothing.
    func testARawWithoutItsImageDataShowsItsRecordedDateAndWhyItCannotBeImported() throws {
        for (name, recorded, reason) in [
            ("exiftool-Nikon.nef", "2004-06-09T16:02:35", "the file holds 18 bytes of image data for a 3040x2014 sensor"),
            ("exiftool-CanonRaw.cr2", "2005-08-03T18:59:18", "the file holds 16 bytes of image data, too few for any camera's sensor"),
        ] {
            let path = try Corpus.file("raw/\(name)").path
            let result = try command.run(["explain", "--time-zone", "UTC", path])
            XCTAssertEqual(result.status, 1, name)
            XCTAssertTrue(result.out.contains("cannot decide: RAW image data is missing or cut short: \(reason)"), result.out)
            XCTAssertTrue(result.out.contains("chosen:     \(recorded)+00:00 from exif:DateTimeOriginal"), result.out)
            XCTAssertFalse(result.out.contains("outputs:"), result.out)
        }
    }

    /// A file the import passes over is said to be, with the run's reason: a Sigma X3F (Debian's LibRaw
    /// cannot decode it) with the date its own metadata records, as exiftool reads it; a sidecar; a file
    /// that is no photo at all.
    func testAFileTheImportPassesOverSaysSoWithTheRunsReason() throws {
        let x3f = try command.run(["explain", "--time-zone", "UTC", try Corpus.file("raw/exiftool-SigmaDP2.x3f").path])
        XCTAssertEqual(x3f.status, 1)
        XCTAssertTrue(x3f.out.contains("cannot decide: the pipeline passes it over: Sigma X3F RAW photo (.x3f): not read"), x3f.out)
        XCTAssertTrue(x3f.out.contains("chosen:     2009-11-28T13:05:20+00:00 from exif:DateTimeOriginal"), x3f.out)
        for (file, reason) in [("immich-test-assets/metadata/xmp/dates/2000.xmp", "XMP sidecar"), ("manifest.tsv", "not a photo or video: .tsv")] {
            let result = try command.run(["explain", try Corpus.file(file).path])
            XCTAssertEqual(result.status, 1, file)
            XCTAssertTrue(result.out.contains("cannot decide: the pipeline passes it over: \(reason)"), result.out)
            XCTAssertFalse(result.out.contains("chosen:"), result.out)
        }
    }

    func testGPSOnlyIsPlacedInTheZoneAtItsPosition() throws {
        let report = try explain([try Corpus.file("exif-samples/heic/mobile/HMD_Nokia_8.3_5G.heif").path])
        XCTAssertEqual(candidates(report).first, "exif:GPSDateTime chosen")
        XCTAssertEqual((report["explanation"] as? [String: Any])?["zoneAtLocation"] as? String, "Europe/Madrid")
        XCTAssertEqual(chosen(report)["timeZoneSource"] as? String, "gps")
        XCTAssertEqual(report["localTime"] as? String, "2022-02-03T15:44:09", "14:44:09 UTC is 15:44 in Spain in February")
        XCTAssertEqual(report["folder"] as? String, "Photos/2022/02")
        let id = try XCTUnwrap(report["id"] as? String)
        XCTAssertEqual(report["plannedOutputs"] as? [String], ["Photos/2022/02/\(id).heic", "Thumbnails/2022/02/\(id).jpg"])
    }

    func testXMPOnlyWithItsOffset() throws {
        let report = try explain([try Corpus.file("exif-samples/jpg/xmp/no_exif.jpg").path])
        XCTAssertEqual(candidates(report).first, "xmp chosen")
        XCTAssertEqual(report["localTime"] as? String, "2013-09-23T10:09:46")
        XCTAssertEqual(chosen(report)["utcOffsetSeconds"] as? Int, 7200)
        XCTAssertEqual(chosen(report)["timeZoneSource"] as? String, "metadata")
    }

    func testFileNameOnly() throws {
        let report = try explain([try Corpus.file("phockup/tests/input/date_20170101_010101.jpg").path])
        XCTAssertEqual(candidates(report), ["filename chosen", "file-mtime unused"])
        XCTAssertEqual(report["localTime"] as? String, "2017-01-01T01:01:01")
    }

    func testAnOffsetPresentIsKeptAndAnOffsetAbsentTakesTheChosenZone() throws {
        let google = try explain([try Corpus.file("exiftool-t-images/t/images/Google.jpg").path])
        XCTAssertEqual(candidates(google).prefix(3), ["exif:DateTimeOriginal chosen", "exif:DateTimeDigitized unused", "exif:GPSDateTime unused"])
        XCTAssertEqual(chosen(google)["utcOffsetSeconds"] as? Int, 7200)
        XCTAssertEqual(chosen(google)["timeZoneSource"] as? String, "metadata")

        let elodie = try explain([try Corpus.file("elodie/elodie/tests/files/Plain With Spaces And Uppercase 123.jpg").path])
        XCTAssertEqual(candidates(elodie).first, "exif:DateTimeOriginal chosen")
        XCTAssertEqual(chosen(elodie)["timeZoneSource"] as? String, "configured", "no offset tag: --time-zone UTC gives it one")
        XCTAssertEqual(elodie["localTime"] as? String, "2015-12-05T00:59:26.840", "with its SubSecTimeOriginal")

        // Without --time-zone, the wall clock stands with an unknown offset.
        let result = try command.run(["explain", try Corpus.file("elodie/elodie/tests/files/Plain With Spaces And Uppercase 123.jpg").path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("  chosen:     2015-12-05T00:59:26.840 from exif:DateTimeOriginal; time zone: unknown; confidence: high"),
                      result.out)
    }

    /// A phone video: its QuickTime creation date with its offset decides, and it would be filed
    /// under Videos/ as an MP4 (its streams fit in MP4) with its poster frame under Thumbnails/.
    func testAVideoIsFiledUnderVideosWithItsPoster() throws {
        let report = try explain([ImportTests.samples.appendingPathComponent("Phone/IMG_4531.MOV").path])
        XCTAssertEqual(candidates(report), ["quicktime:CreationDate chosen", "file-mtime unused"])
        XCTAssertEqual(chosen(report)["utcOffsetSeconds"] as? Int, 3600)
        XCTAssertEqual(report["localTime"] as? String, "2024-06-02T11:05:00")
        XCTAssertEqual(report["folder"] as? String, "Videos/2024/06")
        let id = try XCTUnwrap(report["id"] as? String)
        XCTAssertEqual(report["plannedOutputs"] as? [String], ["Videos/2024/06/\(id).mp4", "Thumbnails/2024/06/\(id).jpg"])
    }

    /// After an import, a photo is explained from the library by its id: its original, the
    /// recorded date, its outputs in the library, and the same decision made again.
    func testAPhotoOfALibraryIsExplainedByItsID() throws {
        let folder = try TemporaryFolder("explain-library")
        let input = folder.path("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let original = input.appendingPathComponent("garden.webp")
        try FileManager.default.copyItem(at: ImportTests.samples.appendingPathComponent("Phone/garden.webp"), to: original)
        let pipeline = folder.path("p.yaml")
        try Data("steps:\n  - exif-date\n  - thumbnail\n".utf8).write(to: pipeline)
        let run = try command.run(["run", pipeline.path, "--input", input.path, "--library", folder.path("lib").path, "--time-zone", "UTC"])
        XCTAssertEqual(run.status, 0, run.err)

        let id = try XCTUnwrap(try explain([original.path, "--pipeline", pipeline.path])["id"] as? String)
        let report = try explain([id, "--library", folder.path("lib").path, "--pipeline", pipeline.path])
        XCTAssertEqual(report["file"] as? String, original.path)
        let recorded = try XCTUnwrap(report["recorded"] as? [String: Any])
        XCTAssertEqual((recorded["captureDate"] as? [String: Any])?["source"] as? String, "xmp")
        let outputs = (recorded["outputs"] as? [[String: Any]] ?? []).map { "\($0["path"] as? String ?? "") \($0["present"] as? Bool ?? false)" }
        XCTAssertEqual(outputs, ["Thumbnails/2023/12/\(id).jpg true"])
        XCTAssertEqual(report["plannedOutputs"] as? [String], ["Thumbnails/2023/12/\(id).jpg"], "the same decision, made again")

        let text = try command.run(["explain", "Thumbnails/2023/12/\(id).jpg", "--library", folder.path("lib").path, "--pipeline", pipeline.path])
        XCTAssertEqual(text.status, 2, "a path relative to the library is not a file here: \(text.out)")
        let byPath = try command.run(["explain", folder.path("lib/Thumbnails/2023/12/\(id).jpg").path, "--library", folder.path("lib").path,
                                      "--pipeline", pipeline.path])
        XCTAssertEqual(byPath.status, 0, byPath.err)
        XCTAssertTrue(byPath.out.hasPrefix(original.path + "\n"), "a library file leads to its original: \(byPath.out)")
        XCTAssertTrue(byPath.out.contains("  in library: Thumbnails/2023/12/\(id).jpg [p/thumbnail]"), byPath.out)

        // A date the user set is what the library keeps: explain says so rather than offering to refile.
        let set = try command.run(["catalog", "set-date", original.path, "2019-06-15T12:00", "--library", folder.path("lib").path])
        XCTAssertEqual(set.status, 0, set.err + set.out)
        let corrected = try command.run(["explain", id, "--library", folder.path("lib").path, "--pipeline", pipeline.path])
        XCTAssertEqual(corrected.status, 0, corrected.err)
        XCTAssertTrue(corrected.out.contains("  recorded:   id \(id), 2019-06-15T12:00:00"), corrected.out)
        XCTAssertTrue(corrected.out.contains(" (user, tz: "), corrected.out)
        XCTAssertTrue(corrected.out.contains("  user date:  set with darkroom catalog set-date"), corrected.out)
        XCTAssertFalse(corrected.out.contains("  changed:"), corrected.out)
        XCTAssertTrue(corrected.out.contains("  in library: Thumbnails/2019/06/\(id).jpg [p/thumbnail]"), corrected.out)
    }

    /// Without `--pipeline`, explain uses the shipped import pipeline as built into darkroom, so it
    /// gives the same answer from any folder (it once read pipelines/ relative to the working
    /// directory and, elsewhere, used other options and showed no folder or outputs).
    func testTheDefaultPipelineIsTheSameFromEveryFolder() throws {
        let photo = ImportTests.samples.appendingPathComponent("Phone/garden.webp").path
        let here = try command.run(["explain", "--json", "--time-zone", "UTC", photo])
        let otherFolder = try TemporaryFolder("explain-elsewhere")
        let elsewhere = try DarkroomCommand(workingDirectory: otherFolder.url).run(["explain", "--json", "--time-zone", "UTC", photo])
        XCTAssertEqual(here.status, 0, here.err)
        XCTAssertEqual(elsewhere.status, 0, elsewhere.err)
        XCTAssertEqual(elsewhere.out, here.out)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(elsewhere.out.utf8)) as? [String: Any])
        XCTAssertEqual(report["folder"] as? String, "Photos/2023/12")
        XCTAssertEqual((report["plannedOutputs"] as? [String])?.count, 2, "the HEIC and its thumbnail")
    }
}
