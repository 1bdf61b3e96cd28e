import Foundation
import XCTest

/// Towns on either side of a border get different zones. The distances to the border are
/// timezone-boundary-builder's (measured on timezonefinder's polygons by
/// Benchmarks/timezones-compare.py); the map keeps borders to within about 70 m.
final class BorderTests: TimeZoneTestCase {
    func testStrasbourgAndKehlAcrossTheRhine() {
        assertZone(48.5734, 7.7521, is: "Europe/Paris", january: 60, july: 120)     // 3.6 km from the border
        assertZone(48.5727, 7.8157, is: "Europe/Berlin", january: 60, july: 120)    // 0.96 km
    }

    func testElPasoAndCiudadJuarez() {
        assertZone(31.7619, -106.4850, is: "America/Denver", january: -420, july: -360)          // 1.4 km
        assertZone(31.6904, -106.4245, is: "America/Ciudad_Juarez", january: -420, july: -360)   // 5.5 km
    }

    func testArizonaWithoutSummerTimeAndTheNavajoNationWithIt() {
        assertZone(33.4484, -112.0740, is: "America/Phoenix", january: -420, july: -420)    // Phoenix
        assertZone(35.1983, -111.6513, is: "America/Phoenix", january: -420, july: -420)    // Flagstaff
        assertZone(35.6809, -109.0526, is: "America/Denver", january: -420, july: -360)     // Window Rock, Navajo Nation
        assertZone(36.1350, -111.2399, is: "America/Denver", january: -420, july: -360)     // Tuba City, Navajo Nation (2 km)
        // The Hopi Reservation, surrounded by the Navajo Nation, keeps Arizona's time.
        assertZone(35.7900, -110.5100, is: "America/Phoenix", january: -420, july: -420)   // Second Mesa
    }

    func testDetroitAndWindsorAcrossTheDetroitRiver() {
        assertZone(42.3314, -83.0458, is: "America/Detroit", january: -300, july: -240)     // 0.94 km
        assertZone(42.3149, -83.0364, is: "America/Toronto", january: -300, july: -240)     // 1.0 km
    }

    func testSpainAndPortugalWhereTheOffsetChanges() {
        assertZone(38.8794, -6.9707, is: "Europe/Madrid", january: 60, july: 120)     // Badajoz, 5.4 km
        assertZone(38.8810, -7.1630, is: "Europe/Lisbon", january: 0, july: 60)       // Elvas, 8 km
        // Tui and Valença face each other across the Minho, 2 km apart.
        assertZone(42.0467, -8.6445, is: "Europe/Madrid", january: 60, july: 120)     // 377 m
        assertZone(42.0290, -8.6440, is: "Europe/Lisbon", january: 0, july: 60)       // 796 m
    }
}
