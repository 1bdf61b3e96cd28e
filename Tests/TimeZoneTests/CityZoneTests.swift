import Foundation
import XCTest

/// A city on every continent gets its IANA zone, and the offsets in force in January and July
/// (half- and quarter-hour zones included).
final class CityZoneTests: TimeZoneTestCase {
    func testEurope() {
        assertZone(48.8566, 2.3522, is: "Europe/Paris", january: 60, july: 120)
        assertZone(55.7558, 37.6173, is: "Europe/Moscow", january: 180, july: 180)
        assertZone(64.1466, -21.9426, is: "Atlantic/Reykjavik", january: 0, july: 0)
    }

    func testNorthAmerica() {
        assertZone(40.7128, -74.0060, is: "America/New_York", january: -300, july: -240)
        assertZone(34.0522, -118.2437, is: "America/Los_Angeles", january: -480, july: -420)
        assertZone(61.2181, -149.9003, is: "America/Anchorage", january: -540, july: -480)
    }

    func testSouthAmerica() {
        assertZone(-23.5505, -46.6333, is: "America/Sao_Paulo", january: -180, july: -180)
        assertZone(-34.6037, -58.3816, is: "America/Argentina/Buenos_Aires", january: -180, july: -180)
    }

    func testAfrica() {
        assertZone(-26.2041, 28.0473, is: "Africa/Johannesburg", january: 120, july: 120)
        assertZone(-1.2921, 36.8219, is: "Africa/Nairobi", january: 180, july: 180)
    }

    func testAsiaWithHalfAndQuarterHours() {
        assertZone(35.6762, 139.6503, is: "Asia/Tokyo", january: 540, july: 540)
        assertZone(22.5726, 88.3639, is: "Asia/Kolkata", january: 330, july: 330)
        assertZone(27.7172, 85.3240, is: "Asia/Kathmandu", january: 345, july: 345)
    }

    func testOceaniaWithSouthernSummerTime() {
        assertZone(-33.8688, 151.2093, is: "Australia/Sydney", january: 660, july: 600)
        assertZone(-36.8485, 174.7633, is: "Pacific/Auckland", january: 780, july: 720)
        assertZone(-43.9535, -176.5597, is: "Pacific/Chatham", january: 825, july: 765)
        assertZone(21.3069, -157.8583, is: "Pacific/Honolulu", january: -600, july: -600)
        assertZone(1.87, -157.43, is: "Pacific/Kiritimati", january: 840, july: 840)
    }

    func testAntarctica() {
        assertZone(-77.8463, 166.6682, is: "Antarctica/McMurdo", january: 780, july: 720)
    }
}
