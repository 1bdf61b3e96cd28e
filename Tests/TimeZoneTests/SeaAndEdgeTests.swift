import Foundation
import XCTest

/// Points at sea get the nautical Etc/GMT zones (whose signs are inverted: Etc/GMT+2 is UTC-2);
/// the poles, the antimeridian and null island are answered; positions not on Earth are not.
final class SeaAndEdgeTests: TimeZoneTestCase {
    func testOpenSeaHasNauticalZonesWithInvertedSigns() {
        assertZone(30, -30, is: "Etc/GMT+2", january: -120, july: -120)      // mid-Atlantic
        assertZone(0, -150, is: "Etc/GMT+10", january: -600, july: -600)     // Pacific
        assertZone(-30, 80, is: "Etc/GMT-5", january: 300, july: 300)        // Indian Ocean
    }

    func testNullIslandIsAPointAtSea() {
        assertZone(0, 0, is: "Etc/GMT", january: 0, july: 0)
    }

    func testTheAntimeridian() {
        assertZone(0, 179.9, is: "Etc/GMT-12", january: 720, july: 720)
        assertZone(0, -179.9, is: "Etc/GMT+12", january: -720, july: -720)
        XCTAssertEqual(map.zoneIdentifier(latitude: 0, longitude: 180), "Etc/GMT-12")
        XCTAssertEqual(map.zoneIdentifier(latitude: 0, longitude: -180), "Etc/GMT-12")
        assertZone(-13.8333, -171.7667, is: "Pacific/Apia", january: 780, july: 780)   // Samoa, west of the date line's kink
    }

    func testThePoles() {
        XCTAssertEqual(map.zoneIdentifier(latitude: 90, longitude: 0), "Etc/GMT")
        XCTAssertEqual(map.zoneIdentifier(latitude: 89.99, longitude: 135), "Etc/GMT-9")
        XCTAssertEqual(map.zoneIdentifier(latitude: -90, longitude: 0), "Antarctica/McMurdo")
    }

    func testPositionsNotOnEarthHaveNoZone() {
        for (latitude, longitude) in [(Double.nan, 0), (0, .nan), (.infinity, 0), (0, -.infinity),
                                      (90.0001, 0), (-91, 0), (0, 180.0001), (0, -181), (1000, 1000)] {
            XCTAssertNil(map.zoneIdentifier(latitude: latitude, longitude: longitude), "(\(latitude), \(longitude))")
            XCTAssertNil(map.timeZone(latitude: latitude, longitude: longitude), "(\(latitude), \(longitude))")
        }
    }
}
