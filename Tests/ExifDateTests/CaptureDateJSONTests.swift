import DarkroomModel
import Foundation
import XCTest

/// The catalog keeps each capture date as the JSON `JSONEncoder` writes, and reads it back with
/// `CaptureDate.decoding(json:)`, which reads the common shape by hand: it must read every date
/// exactly as `JSONDecoder` does, and refuse what `JSONDecoder` refuses.
final class CaptureDateJSONTests: XCTestCase {
    private let local = LocalDateTime(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 58, nanosecond: 123_000_000)!

    func testDatesWrittenByJSONEncoderReadBackEqual() throws {
        let found = CaptureDate(local: local, utcOffsetSeconds: nil, source: .filename, timeZoneSource: .unknown, confidence: .low)
        let dates = [
            CaptureDate(local: local, utcOffsetSeconds: -18_000, source: .exifOriginal, timeZoneSource: .gps, confidence: .high,
                        notes: ["quote \" backslash \\ slash / tab \t newline \n é 日本 🎉", ""], dateOnly: true,
                        overrides: FoundDate(found)),
            CaptureDate(local: local, utcOffsetSeconds: 19_800, source: .user, timeZoneSource: .user, confidence: .medium,
                        dateOnly: false),
            found,
        ]
        for date in dates {
            let json = String(decoding: try JSONEncoder().encode(date), as: UTF8.self)
            XCTAssertEqual(CaptureDate.decoding(json: json), date, json)
        }
    }

    func testReadsWhatJSONDecoderReadsAndRefusesWhatItRefuses() {
        let fields = #""source":"file-mtime","timeZoneSource":"machine","confidence":"low","local":{"second":0,"hour":7,"nanosecond":0,"year":2014,"day":1,"minute":5,"month":1}"#
        let texts = [
            "{\(fields)}",
            #"{"utcOffsetSeconds":null,"notes":null,"# + "\(fields)}",
            #"{"utcOffsetSeconds":3600,"extra":[1,{"a":true},null],"# + "\(fields)}",
            // A \u escape, a fraction, a key given twice: left to JSONDecoder, which reads or refuses them.
            #"{"notes":["caf\u00e9"],"# + "\(fields)}",
            #"{"utcOffsetSeconds":1.0,"# + "\(fields)}",
            #"{"confidence":"high","# + "\(fields)}",
            // Refused: an unknown source, a missing field, trailing bytes, a leading zero, not JSON.
            #"{"source":"nope","timeZoneSource":"machine","confidence":"low","local":{"second":0,"hour":0,"nanosecond":0,"year":2014,"day":1,"minute":0,"month":1}}"#,
            #"{"source":"xmp","confidence":"low","local":{"second":0,"hour":0,"nanosecond":0,"year":2014,"day":1,"minute":0,"month":1}}"#,
            "{\(fields)} x",
            #"{"utcOffsetSeconds":01,"# + "\(fields)}",
            "", "{}", "null", "[]", #"{"local":1}"#,
        ]
        for text in texts {
            let expected = try? JSONDecoder().decode(CaptureDate.self, from: Data(text.utf8))
            XCTAssertEqual(CaptureDate.decoding(json: text), expected, text)
        }
        XCTAssertEqual(CaptureDate.decoding(json: "{\(fields)}")?.local.hour, 7)
        XCTAssertEqual(CaptureDate.decoding(json: #"{"notes":["caf\u00e9"],"# + "\(fields)}")?.notes, ["café"])
        XCTAssertNil(CaptureDate.decoding(json: "{\(fields)} x"))
    }
}
