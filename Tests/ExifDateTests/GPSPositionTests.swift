import DarkroomExif
import Foundation
import XCTest

/// EXIF GPS coordinates: degrees, minutes and seconds signed by their references; 0/0 (a camera
/// without a fix) and values off the globe are no position.
final class GPSPositionTests: XCTestCase {
    private func position(latitude: [(UInt32, UInt32)], _ latitudeRef: String, longitude: [(UInt32, UInt32)], _ longitudeRef: String,
                          altitude: (UInt32, UInt32)? = nil, bigEndian: Bool = false) throws -> ExifTags.GPSPosition? {
        var gps: [(UInt16, TIFFBuilder.Value)] = [(0x0001, .ascii(latitudeRef)), (0x0002, .rationals(latitude)),
                                                  (0x0003, .ascii(longitudeRef)), (0x0004, .rationals(longitude))]
        if let altitude { gps.append((0x0006, .rationals([altitude]))) }
        let blob = TIFFBuilder(bigEndian: bigEndian, ifd0: [(0x010F, .ascii("Phone"))], gps: gps).build()
        return try ExifTags(parsing: blob).gpsPosition
    }

    func testSouthAndWestAreNegativeInBothByteOrders() throws {
        for bigEndian in [false, true] {
            // 33° 51' 54.5" S, 151° 12' 36" E: Sydney; 40° 42' 46" N, 74° 0' 22" W: New York.
            let sydney = try XCTUnwrap(position(latitude: [(33, 1), (51, 1), (545, 10)], "S", longitude: [(151, 1), (12, 1), (36, 1)], "E",
                                                altitude: (58, 1), bigEndian: bigEndian))
            XCTAssertEqual(sydney.latitude, -(33 + 51.0 / 60 + 54.5 / 3600), accuracy: 1e-9)
            XCTAssertEqual(sydney.longitude, 151 + 12.0 / 60 + 36.0 / 3600, accuracy: 1e-9)
            XCTAssertEqual(sydney.altitude, 58)
            let newYork = try XCTUnwrap(position(latitude: [(40, 1), (42, 1), (46, 1)], "N", longitude: [(74, 1), (0, 1), (22, 1)], "W",
                                                 bigEndian: bigEndian))
            XCTAssertLessThan(newYork.longitude, 0)
            XCTAssertGreaterThan(newYork.latitude, 0)
        }
    }

    func testZeroZeroAndImpossibleValuesAreNoPosition() throws {
        XCTAssertNil(try position(latitude: [(0, 1), (0, 1), (0, 1)], "N", longitude: [(0, 1), (0, 1), (0, 1)], "E"),
                     "0/0 is what cameras without a fix write")
        XCTAssertNil(try position(latitude: [(91, 1), (0, 1), (0, 1)], "N", longitude: [(10, 1), (0, 1), (0, 1)], "E"))
        XCTAssertNil(try position(latitude: [(45, 1), (75, 1), (0, 1)], "N", longitude: [(10, 1), (0, 1), (0, 1)], "E"), "75 minutes")
        XCTAssertNil(try position(latitude: [(45, 0), (0, 1), (0, 1)], "N", longitude: [(10, 1), (0, 1), (0, 1)], "E"), "a zero denominator")
    }
}
