import Foundation

/// Writes small map files in the layout of `scripts/make-timezone-data.py`, to test the reader on
/// geometry whose answers are known and on damage made on purpose. Every cell lies in zone 0
/// except those given `shared` entries.
struct SyntheticMap {
    /// A zone's part of a shared cell: its rings, in steps of 1/`quantum` degree from the cell's corner.
    struct ZonePart {
        var zone: Int
        var rings: [[(x: Int, y: Int)]]
    }

    var zoneIdentifiers = ["Etc/GMT", "Europe/Paris"]
    var quantum = 8192
    var formatVersion = 1
    var dataVersion = "test"
    /// Shared cells by (column, row): column 180 is longitude 0...1, row 90 latitude 0...1.
    var shared: [CellKey: [ZonePart]] = [:]
    /// Table entries to write as they are (to damage the file), by cell index.
    var rawEntries: [Int: UInt32] = [:]

    struct CellKey: Hashable {
        var column: Int, row: Int
    }

    /// The file's bytes.
    func bytes() -> [UInt8] {
        var names: [UInt8] = []
        for identifier in zoneIdentifiers { names += Array(identifier.utf8) + [0] }
        var payload: [UInt8] = []
        var table = [UInt32](repeating: 0x8000_0000, count: 360 * 180)
        for (key, parts) in shared.sorted(by: { ($0.key.row, $0.key.column) < ($1.key.row, $1.key.column) }) {
            table[key.row * 360 + key.column] = UInt32(payload.count)
            payload += Self.varint(parts.count)
            for part in parts { payload += Self.encode(part) }
        }
        for (index, entry) in rawEntries { table[index] = entry }

        var file = Array("DRTZ".utf8)
        for field in [formatVersion, 360, 180, quantum, zoneIdentifiers.count, 0] { file += Self.littleEndian(field, width: 2) }
        file += Self.littleEndian(names.count, width: 4) + Self.littleEndian(payload.count, width: 4)
        file += Array(dataVersion.utf8.prefix(16)) + [UInt8](repeating: 0, count: 16 - min(16, dataVersion.utf8.count))
        file += names
        for entry in table { file += Self.littleEndian(Int(entry), width: 4) }
        return file + payload
    }

    /// Writes the file into a new temporary folder and returns its URL.
    func write(named name: String = "map.bin") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("timezone-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes()).write(to: url)
        return url
    }

    private static func encode(_ part: ZonePart) -> [UInt8] {
        let points = part.rings.flatMap { $0 }
        var entry = varint(part.zone)
        for bound in [points.map(\.x).min()!, points.map(\.y).min()!, points.map(\.x).max()!, points.map(\.y).max()!] {
            entry += varint(bound)
        }
        var body = varint(part.rings.count)
        for ring in part.rings {
            body += varint(ring.count)
            var previous = (x: 0, y: 0)
            for point in ring {
                body += varint(zigzag(point.x - previous.x)) + varint(zigzag(point.y - previous.y))
                previous = point
            }
        }
        return entry + varint(body.count) + body
    }

    static func varint(_ value: Int) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    private static func zigzag(_ value: Int) -> Int { value >= 0 ? value * 2 : -value * 2 - 1 }

    private static func littleEndian(_ value: Int, width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

extension SyntheticMap {
    /// One shared cell at longitude 0...1, latitude 0...1: zone 1 is the south-western square up to
    /// 4096 steps (half a degree); zone 0 is the cell less the square up to 4200 steps, so a strip
    /// 104 steps wide between them belongs to neither, as simplification leaves along borders.
    static func squareWithAGap() -> SyntheticMap {
        var map = SyntheticMap()
        let square = [(x: 0, y: 0), (x: 4096, y: 0), (x: 4096, y: 4096), (x: 0, y: 4096)]
        let cell = [(x: 0, y: 0), (x: 8192, y: 0), (x: 8192, y: 8192), (x: 0, y: 8192)]
        let hole = [(x: 0, y: 0), (x: 4200, y: 0), (x: 4200, y: 4200), (x: 0, y: 4200)]
        map.shared[CellKey(column: 180, row: 90)] = [
            ZonePart(zone: 1, rings: [square]),
            ZonePart(zone: 0, rings: [cell, hole]),
        ]
        return map
    }
}
