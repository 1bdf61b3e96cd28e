@testable import DarkroomTimeZones
import Foundation
import Synchronization
import XCTest

/// Loading the map: the shipped file is found and complete; the reader answers known geometry
/// exactly; a missing, foreign or damaged file is an error that names the file and the reason.
final class MapFileTests: XCTestCase {
    func testTheShippedMapLoadsOnceAndEveryZoneIsKnownToFoundation() throws {
        let map = try TimeZoneMap.load()
        XCTAssertTrue(try TimeZoneMap.load() === map, "load() shares one map")
        XCTAssertEqual(map.dataVersion, "2026c")
        XCTAssertEqual(map.zoneIdentifiers.count, 444)
        XCTAssertEqual(map.zoneIdentifiers.filter { $0.hasPrefix("Etc/GMT") }.count, 25, "the release with oceans")
        let unknown = map.zoneIdentifiers.filter { TimeZone(identifier: $0) == nil }
        XCTAssertEqual(unknown, [], "zones the system's tzdata lacks")
    }

    func testLookupsFromManyThreadsAgree() throws {
        let map = try TimeZoneMap.load()
        let points: [(latitude: Double, longitude: Double)] = (0..<2_000).map { (index: Int) in
            let latitude = Double(index % 170) - 84.63
            let longitude = Double(index * 7 % 359) - 179.5
            return (latitude, longitude)
        }
        let expected = points.map { map.zoneIdentifier(latitude: $0.latitude, longitude: $0.longitude) }
        let answers = ConcurrentAnswers(count: points.count)
        DispatchQueue.concurrentPerform(iterations: points.count) { index in
            answers.set(index, map.zoneIdentifier(latitude: points[index].latitude, longitude: points[index].longitude))
        }
        XCTAssertEqual(answers.all, expected)
        XCTAssertGreaterThan(Set(expected.compactMap { $0 }).count, 100, "the points cross many zones")
    }

    func testASharedCellAnswersByItsRingsAndPointsBetweenZonesGetTheNearest() throws {
        let map = try TimeZoneMap(contentsOf: SyntheticMap.squareWithAGap().write())
        let step = 1.0 / 8192
        XCTAssertEqual(map.zoneIdentifier(latitude: 0.25, longitude: 0.25), "Europe/Paris")        // in the square
        XCTAssertEqual(map.zoneIdentifier(latitude: 0.75, longitude: 0.25), "Etc/GMT")             // north of it
        XCTAssertEqual(map.zoneIdentifier(latitude: 0.25, longitude: 4110 * step), "Europe/Paris") // in the gap, 14 steps from the square
        XCTAssertEqual(map.zoneIdentifier(latitude: 0.25, longitude: 4190 * step), "Etc/GMT")      // in the gap, 10 steps from zone 0
        XCTAssertEqual(map.zoneIdentifier(latitude: 2.5, longitude: 2.5), "Etc/GMT")               // another cell
        XCTAssertEqual(map.dataVersion, "test")
    }

    func testAMissingFileIsUnreadableWithItsPath() {
        let path = "/nonexistent/timezones.bin"
        XCTAssertThrowsError(try TimeZoneMap(contentsOf: URL(fileURLWithPath: path))) { error in
            guard case .unreadable(let reported, _) = error as? TimeZoneDataError else { return XCTFail("\(error)") }
            XCTAssertEqual(reported, path)
            XCTAssertTrue("\(error)".hasPrefix(path + ": cannot read the time-zone map"), "\(error)")
        }
    }

    func testTheEnvironmentVariableNamesTheFileEvenWhenItIsWrong() throws {
        let named = try TimeZoneDataLocation.bundledFile(environment: ["DARKROOM_TIMEZONE_DATA": "/elsewhere/tz.bin"])
        XCTAssertEqual(named.path, "/elsewhere/tz.bin")
        let shipped = try TimeZoneDataLocation.bundledFile(environment: [:])
        XCTAssertTrue(FileManager.default.isReadableFile(atPath: shipped.path), shipped.path)
        XCTAssertEqual(shipped.lastPathComponent, "timezones.bin")
    }

    func testNotFoundListsThePlacesTried() {
        let error = TimeZoneDataError.notFound(searched: ["/a/timezones.bin", "/b/timezones.bin"])
        XCTAssertEqual("\(error)", "time-zone map (timezones.bin) not found; looked in: /a/timezones.bin, /b/timezones.bin")
    }

    func testForeignAndDamagedFilesAreMalformedWithTheReason() throws {
        var wrongVersion = SyntheticMap.squareWithAGap()
        wrongVersion.formatVersion = 2
        var zoneOutOfRange = SyntheticMap.squareWithAGap()
        zoneOutOfRange.rawEntries[0] = 0x8000_0000 | 7
        var offsetPastThePayload = SyntheticMap.squareWithAGap()
        offsetPastThePayload.rawEntries[1] = 1_000_000
        var vertexOutsideTheCell = SyntheticMap.squareWithAGap()
        vertexOutsideTheCell.shared[.init(column: 0, row: 0)] = [
            .init(zone: 1, rings: [[(0, 0), (9000, 0), (0, 10)]]), .init(zone: 0, rings: [[(0, 0), (10, 0), (0, 10)]]),
        ]
        var onlyOneZone = SyntheticMap.squareWithAGap()
        onlyOneZone.shared[.init(column: 5, row: 5)] = [.init(zone: 1, rings: [[(0, 0), (10, 0), (0, 10)]])]
        let intact = SyntheticMap.squareWithAGap().bytes()

        let cases: [(String, [UInt8], String)] = [
            ("foreign", Array("GIF89a, not a map at all".utf8), "no DRTZ signature"),
            ("empty", [], "no DRTZ signature"),
            ("header cut", Array(intact.prefix(30)), "truncated header"),
            ("table cut", Array(intact.prefix(intact.count / 2)), "truncated cell table"),
            ("payload cut", Array(intact.dropLast(3)), "payload of"),
            ("bytes appended", intact + [0, 0], "payload of"),
            ("version", wrongVersion.bytes(), "format version 2; this Darkroom reads 1"),
            ("zone number", zoneOutOfRange.bytes(), "cell -180°E -90°N: zone 7 out of range"),
            ("offset", offsetPastThePayload.bytes(), "cell -179°E -90°N: damaged entry"),
            ("vertex", vertexOutsideTheCell.bytes(), "bounding box outside the cell"),
            ("one zone", onlyOneZone.bytes(), "damaged entry"),
        ]
        for (name, bytes, reason) in cases {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("timezones-\(name)-\(UUID().uuidString).bin")
            try Data(bytes).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            XCTAssertThrowsError(try TimeZoneMap(contentsOf: url), name) { error in
                guard case .malformed(let path, let reported) = error as? TimeZoneDataError else { return XCTFail("\(name): \(error)") }
                XCTAssertEqual(path, url.path, name)
                XCTAssertTrue(reported.contains(reason), "\(name): \(reported)")
                XCTAssertTrue("\(error)".hasPrefix(url.path + ": not a usable time-zone map: "), "\(name): \(error)")
            }
        }
    }

    func testDamagedRingsInASharedCellAreMalformed() throws {
        var bytes = SyntheticMap.squareWithAGap().bytes()
        // The last byte is zone 0's last coordinate: a varint that now never ends.
        bytes[bytes.count - 1] = 0x80
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("timezones-rings-\(UUID().uuidString).bin")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertThrowsError(try TimeZoneMap(contentsOf: url)) { error in
            XCTAssertTrue("\(error)".contains("cell 0°E 0°N: zone 0: damaged rings"), "\(error)")
        }
    }
}

/// Answers written from many threads, each to its own slot.
private final class ConcurrentAnswers: Sendable {
    private let answers: Mutex<[String?]>

    init(count: Int) { answers = Mutex(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ answer: String?) { answers.withLock { $0[index] = answer } }

    var all: [String?] { answers.withLock { $0 } }
}
