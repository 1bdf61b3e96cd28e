import DarkroomTimeZones
import Foundation
import XCTest

/// What the lookup tests share: the shipped map, and instants to ask offsets at.
class TimeZoneTestCase: XCTestCase {
    /// The map Darkroom ships, loaded once for every test.
    var map: TimeZoneMap!

    override func setUpWithError() throws {
        map = try TimeZoneMap.load()
    }

    /// 15 January 2024, 12:00 UTC (northern winter).
    let january = Date(timeIntervalSince1970: 1_705_320_000)
    /// 15 July 2024, 12:00 UTC (northern summer).
    let july = Date(timeIntervalSince1970: 1_721_044_800)

    /// Asserts the zone at a position, and its UTC offsets in January and July, in minutes.
    func assertZone(
        _ latitude: Double, _ longitude: Double, is identifier: String,
        january januaryMinutes: Int, july julyMinutes: Int, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(map.zoneIdentifier(latitude: latitude, longitude: longitude), identifier,
                       "(\(latitude), \(longitude))", file: file, line: line)
        guard let zone = map.timeZone(latitude: latitude, longitude: longitude) else {
            return XCTFail("no TimeZone at (\(latitude), \(longitude))", file: file, line: line)
        }
        XCTAssertEqual(zone.identifier, identifier, file: file, line: line)
        XCTAssertEqual(zone.secondsFromGMT(for: january) / 60, januaryMinutes, "\(identifier) in January", file: file, line: line)
        XCTAssertEqual(zone.secondsFromGMT(for: july) / 60, julyMinutes, "\(identifier) in July", file: file, line: line)
    }
}
