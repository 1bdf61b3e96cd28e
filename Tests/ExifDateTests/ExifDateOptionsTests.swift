import DarkroomCore
import DarkroomOptions
import ExifDateStage
import Foundation
import XCTest

/// The `exif-date` options as a pipeline file would give them.
final class ExifDateOptionsTests: XCTestCase {
    func decode(_ json: String) throws -> ExifDateOptions {
        try JSONDecoder().decode(ExifDateOptions.self, from: Data(json.utf8))
    }

    /// The step's key as the options `json` make it: what the runner hashes (keys sorted).
    func key(_ json: String) throws -> String {
        try XCTUnwrap(try OptionRecord.recording { try decode(json) }.record).text()
    }

    func testDefaultsTryEverySourceAndFallBackToFileTime() throws {
        let options = try decode("{}")
        XCTAssertEqual(options.sources, [.exifOriginal, .exifDigitized, .gps, .xmp, .filename])
        XCTAssertTrue(options.fallbackToFileTime)
        XCTAssertEqual(options.videoCreationTime, .utc)
        XCTAssertTrue(options.readSidecars)
        XCTAssertEqual(ExifDateOptions.options.map(\.key), ["sources", "fallback-to-file-time", "video-creation-time", "sidecars"])
    }

    func testSidecarsAreEncodedOnlyWhenTurnedOff() throws {
        // A library imported before sidecars were read keeps its options digest (keys sorted, as
        // ConfiguredStep.digest hashes them), so nothing is redone.
        XCTAssertEqual(try key("{}"),
                       #"{"fallback-to-file-time":true,"sources":["exif-original","exif-digitized","gps","xmp","filename"]}"#)
        XCTAssertFalse(try key("{}").contains("sidecars"))
        let off = try decode(#"{"sidecars": false}"#)
        XCTAssertFalse(off.readSidecars)
        XCTAssertFalse(try decode(try key(#"{"sidecars": false}"#)).readSidecars)
    }

    func testVideoCreationTimeIsEncodedOnlyWhenSet() throws {
        // A library imported before videos were read keeps its options digest, so nothing is redone.
        let encoded = try key("{}")
        XCTAssertFalse(encoded.contains("video-creation-time"), encoded)
        let local = try decode(#"{"video-creation-time": "local"}"#)
        XCTAssertEqual(local.videoCreationTime, .local)
        let again = try decode(try key(#"{"video-creation-time": "local"}"#))
        XCTAssertEqual(again.videoCreationTime, .local)
        XCTAssertThrowsError(try decode(#"{"video-creation-time": "locale"}"#)) { error in
            XCTAssertTrue("\(error)".contains("did you mean 'local'"), "\(error)")
        }
    }

    func testSourcesAndFallbackAreRead() throws {
        let options = try decode(#"{"sources": ["filename", "exif-original"], "fallback-to-file-time": false}"#)
        XCTAssertEqual(options.sources, [.filename, .exifOriginal])
        XCTAssertFalse(options.fallbackToFileTime)
    }

    func testMisspelledSourceSuggestsTheNearest() {
        XCTAssertThrowsError(try decode(#"{"sources": ["exif-orignal"]}"#)) { error in
            XCTAssertTrue("\(error)".contains("did you mean 'exif-original'"), "\(error)")
        }
    }

    func testEmptyOrRepeatedSourcesAreRefused() {
        XCTAssertThrowsError(try decode(#"{"sources": []}"#))
        XCTAssertThrowsError(try decode(#"{"sources": ["gps", "gps"]}"#)) { error in
            XCTAssertTrue("\(error)".contains("'gps' twice"), "\(error)")
        }
    }

    func testOptionsRoundTripForTheOptionsHash() throws {
        let given = #"{"sources": ["gps", "xmp"], "fallback-to-file-time": false}"#
        let options = try decode(given)
        let again = try decode(try key(given))
        XCTAssertEqual(again.sources, options.sources)
        XCTAssertEqual(again.fallbackToFileTime, options.fallbackToFileTime)
    }

    func testStageDeclaresItsNameAndWhatItWrites() {
        XCTAssertEqual(ExifDate.name, "exif-date")
        XCTAssertEqual(ExifDate.writes, [.captureDate])
    }
}
