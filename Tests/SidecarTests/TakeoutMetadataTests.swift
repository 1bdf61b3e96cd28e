import DarkroomCore
import DarkroomSidecars
import DarkroomTestSupport
import Foundation
import XCTest
import DarkroomModel

/// Reading a Takeout JSON: the capture instant, places, people and captions; absurd values left out
/// with the reason; malformed and hostile JSON an error, never a crash.
final class TakeoutMetadataTests: XCTestCase {
    /// The shape of a real sidecar (as reported in Takeout issues), with values of our own.
    static func sidecar(taken: String = "\"1551123684\"", geoData: String = "30.6578, 104.0739, 486.2") -> String {
        let place = geoData.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return """
            {
              "title": "IMG_7448.JPG",
              "description": "Sunset over the bay",
              "imageViews": "2973",
              "creationTime": { "timestamp": "1551165960", "formatted": "Feb 26, 2019, 7:26:00 AM UTC" },
              "photoTakenTime": { "timestamp": \(taken), "formatted": "Feb 25, 2019, 7:41:24 PM UTC" },
              "geoData": { "latitude": \(place[0]), "longitude": \(place[1]), "altitude": \(place[2]), "latitudeSpan": 0.0, "longitudeSpan": 0.0 },
              "geoDataExif": { "latitude": 30.6578197, "longitude": 104.0738983, "altitude": 486.2175, "latitudeSpan": 0.0, "longitudeSpan": 0.0 },
              "people": [{ "name": "Alice" }, { "name": "Bob" }, { "name": "" }],
              "url": "https://photos.google.com/photo/AF1Qip",
              "googlePhotosOrigin": { "mobileUpload": { "deviceType": "IOS_PHONE" } },
              "favorited": true
            }
            """
    }

    private let now = Date(timeIntervalSince1970: 1_750_000_000)  // June 2025

    private func read(_ json: String) throws -> TakeoutMetadata { try TakeoutMetadata(data: Data(json.utf8), now: now) }

    func testEveryFieldOfARealShapedSidecar() throws {
        let metadata = try read(Self.sidecar())
        XCTAssertEqual(metadata.photoTakenTime, Date(timeIntervalSince1970: 1_551_123_684), "2019-02-25T19:41:24Z")
        XCTAssertEqual(metadata.creationTime, Date(timeIntervalSince1970: 1_551_165_960))
        XCTAssertEqual(metadata.title, "IMG_7448.JPG")
        XCTAssertEqual(metadata.description, "Sunset over the bay")
        XCTAssertEqual(metadata.geoData, GeoLocation(latitude: 30.6578, longitude: 104.0739, altitude: 486.2))
        XCTAssertEqual(metadata.geoDataExif?.latitude, 30.6578197)
        XCTAssertEqual(metadata.location, metadata.geoData, "the place Google Photos shows wins")
        XCTAssertEqual(metadata.people, ["Alice", "Bob"])
        XCTAssertTrue(metadata.favorited)
        XCTAssertEqual(metadata.ignored, [])
    }

    func testZeroPlaceMeansNoneAndTheExifPlaceIsUsed() throws {
        let metadata = try read(Self.sidecar(geoData: "0.0, 0.0, 0.0"))
        XCTAssertNil(metadata.geoData)
        XCTAssertEqual(metadata.location?.longitude, 104.0738983)
        XCTAssertEqual(metadata.ignored, [], "0/0 is Takeout's normal 'no place', not a problem")
        let nowhere = try read(Self.sidecar(geoData: "95.0, 10.0, 0.0"))
        XCTAssertNil(nowhere.geoData)
        XCTAssertEqual(nowhere.ignored, ["geoData (95.0, 10.0) is not a place on Earth"])
        XCTAssertNil(try read(Self.sidecar(geoData: "51.5, -0.12, 0.0")).geoData?.altitude, "altitude 0 is Takeout's unknown")
    }

    func testTimestampsGoodAndAbsurd() throws {
        XCTAssertEqual(try read(Self.sidecar(taken: "1551123684")).photoTakenTime, Date(timeIntervalSince1970: 1_551_123_684),
                       "a number is read like the string Takeout writes")
        // A scan dated 1904 in Google Photos: Takeout writes a negative timestamp, which is a real date.
        XCTAssertEqual(try read(Self.sidecar(taken: "\"-2082844800\"")).photoTakenTime, Date(timeIntervalSince1970: -2_082_844_800))
        let cases: [(String, String)] = [
            ("\"0\"", "photoTakenTime.timestamp is 0, which Takeout writes for no date"),
            ("\"-9999999999\"", "photoTakenTime.timestamp -9999999999 is 1653-02-10T06:13:21Z, before photography existed"),
            ("\"99999999999\"", "photoTakenTime.timestamp 99999999999 is 5138-11-16T09:46:39Z, in the future"),
            ("\"1750200000\"", "photoTakenTime.timestamp 1750200000 is 2025-06-17T22:40:00Z, in the future"),
            ("\"soon\"", "photoTakenTime.timestamp \"soon\" is not a number of seconds"),
            ("\"99999999999999999999999\"", "photoTakenTime.timestamp \"99999999999999999999999\" is not a number of seconds"),
            ("1.5e300", "photoTakenTime.timestamp 1.5e+300 is not a number of seconds"),
            ("null", "photoTakenTime.timestamp null is not a number of seconds"),
            ("{}", "photoTakenTime.timestamp an object is not a number of seconds"),
        ]
        for (value, reason) in cases {
            let metadata = try read(Self.sidecar(taken: value))
            XCTAssertNil(metadata.photoTakenTime, value)
            XCTAssertEqual(metadata.ignored, [reason], value)
            XCTAssertNotNil(metadata.creationTime, "the rest of the sidecar is still read")
        }
        let undated = try read(#"{"title": "IMG_1.jpg"}"#)
        XCTAssertNil(undated.photoTakenTime)
        XCTAssertEqual(undated.ignored, ["no photoTakenTime.timestamp: the JSON gives no capture time"])
    }

    func testMalformedJSONIsAnErrorWithItsReason() {
        let cases: [(Data, String)] = [
            (Data(#"{"title": "IMG_1.jpg", "photoTakenTime": {"timestamp": "1"#.utf8), "not valid JSON"),
            (Data(), "not valid JSON"),
            (Data("[1, 2, 3]".utf8), "the JSON is an array, not an object: not a Takeout sidecar"),
            (Data("\"just text\"".utf8), "the JSON is \"just text\", not an object: not a Takeout sidecar"),
            (Data([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D]), "not valid JSON"),  // {"\xC3(":1} - invalid UTF-8
            (Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8), "JSON nested deeper than 32 levels"),
            (Data(count: (1 << 20) + 1), "larger than 1 MiB: not a Takeout sidecar"),
        ]
        for (data, reason) in cases {
            XCTAssertThrowsError(try TakeoutMetadata(data: data, now: now), reason) { error in
                let error = error as? SidecarError
                XCTAssertTrue(error?.reason.hasPrefix(reason) ?? false, "\(error?.reason ?? "not a SidecarError") should start with \(reason)")
            }
        }
    }

    func testReadingAFileNamesItInErrors() throws {
        let folder = try TemporaryFolder("takeout-metadata")
        let good = folder.path("IMG_7448.JPG.json")
        try Data(Self.sidecar().utf8).write(to: good)
        XCTAssertEqual(try TakeoutMetadata(contentsOf: good, now: now).title, "IMG_7448.JPG")
        let broken = folder.path("broken.json")
        try Data("{".utf8).write(to: broken)
        XCTAssertThrowsError(try TakeoutMetadata(contentsOf: broken, now: now)) { error in
            XCTAssertEqual((error as? SidecarError)?.file, broken.path)
            XCTAssertTrue(String(describing: error).hasPrefix("\(broken.path): not valid JSON"), String(describing: error))
        }
        let huge = folder.path("huge.json")
        try Data(count: 3 << 20).write(to: huge)
        XCTAssertThrowsError(try TakeoutMetadata(contentsOf: huge, now: now)) { error in
            XCTAssertEqual(error as? SidecarError, SidecarError(file: huge.path, reason: "larger than 1 MiB: not a sidecar"))
        }
        XCTAssertThrowsError(try TakeoutMetadata(contentsOf: folder.path("missing.json"), now: now)) { error in
            XCTAssertEqual((error as? SidecarError)?.file, folder.path("missing.json").path)
        }
    }

    func testHugeValuesAndRandomDamage() throws {
        let caption = String(repeating: "é", count: 400_000)
        let long = try read(#"{"photoTakenTime": {"timestamp": "1551123684"}, "description": "\#(caption)"}"#)
        XCTAssertEqual(long.description?.count, 400_000)
        XCTAssertEqual(long.photoTakenTime, Date(timeIntervalSince1970: 1_551_123_684))
        let original = Array(Self.sidecar().utf8)
        var generator = SeededGenerator(seed: 0x7A4E)
        var outcomes = (read: 0, refused: 0)
        for _ in 0..<1500 {
            var bytes = original
            for _ in 0..<3 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            do {
                _ = try TakeoutMetadata(data: Data(bytes), now: now)
                outcomes.read += 1
            } catch is SidecarError {
                outcomes.refused += 1
            }
        }
        XCTAssertEqual(outcomes.read + outcomes.refused, 1500, "every damaged file is read or refused with a SidecarError")
        XCTAssertGreaterThan(outcomes.refused, 100)
    }
}
