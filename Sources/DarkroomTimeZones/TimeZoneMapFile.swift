/// A map file's parts, checked from end to end when it is read, so that a lookup can trust every
/// offset and count in it. The layout is documented in `scripts/make-timezone-data.py`, which
/// writes it: a header, the zone names, a table of 1-degree cells (a cell in one zone holds that
/// zone's number; a shared cell, an offset into the payload), and the payload of shared cells.
struct TimeZoneMapFile: Sendable {
    /// The only layout this code reads.
    static let formatVersion = 1
    /// Set in a cell's table entry when the whole cell lies in one zone.
    static let singleZoneFlag: UInt32 = 0x8000_0000

    /// Cells from west to east (from longitude -180) and from south to north (from latitude -90).
    let columns: Int, rows: Int
    /// Steps per degree of the coordinates inside a cell.
    let quantum: Int
    /// The zones' IANA identifiers, by number.
    let zoneIdentifiers: [String]
    /// The timezone-boundary-builder release, e.g. "2026c".
    let dataVersion: String
    /// One entry per cell, row-major from the south-west.
    let cells: [UInt32]
    /// The shared cells' entries.
    let payload: [UInt8]

    /// Parses and checks `bytes`; the error's text says what is wrong.
    init(bytes: [UInt8]) throws(MapFileDefect) {
        var cursor = ByteCursor(bytes)
        guard cursor.take(4).map(Array.init) == Array("DRTZ".utf8) else {
            throw MapFileDefect("no DRTZ signature")
        }
        guard let version = cursor.littleEndian(width: 2), let columns = cursor.littleEndian(width: 2),
              let rows = cursor.littleEndian(width: 2), let quantum = cursor.littleEndian(width: 2),
              let zoneCount = cursor.littleEndian(width: 2), cursor.littleEndian(width: 2) != nil,
              let namesLength = cursor.littleEndian(width: 4), let payloadLength = cursor.littleEndian(width: 4),
              let versionField = cursor.take(16)
        else { throw MapFileDefect("truncated header") }
        guard version == Self.formatVersion else {
            throw MapFileDefect("format version \(version); this Darkroom reads \(Self.formatVersion)")
        }
        guard columns == 360, rows == 180, quantum > 0, zoneCount > 0 else {
            throw MapFileDefect("unexpected grid \(columns)x\(rows), quantum \(quantum), \(zoneCount) zones")
        }
        guard let names = cursor.take(namesLength) else { throw MapFileDefect("truncated zone names") }
        let identifiers = names.split(separator: 0, omittingEmptySubsequences: false).dropLast()
            .map { String(decoding: $0, as: UTF8.self) }
        guard names.last == 0, identifiers.count == zoneCount, !identifiers.contains(where: \.isEmpty) else {
            throw MapFileDefect("expected \(zoneCount) zone names, found \(identifiers.count)")
        }
        guard let table = cursor.take(4 * columns * rows) else { throw MapFileDefect("truncated cell table") }
        guard let payload = cursor.take(payloadLength), cursor.position == bytes.count else {
            throw MapFileDefect("payload of \(bytes.count - cursor.position) bytes, header says \(payloadLength)")
        }

        self.columns = columns
        self.rows = rows
        self.quantum = quantum
        self.zoneIdentifiers = identifiers
        self.dataVersion = String(decoding: versionField.prefix { $0 != 0 }, as: UTF8.self)
        self.cells = table.withUnsafeBytes { raw in
            (0..<columns * rows).map { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self)) }
        }
        self.payload = Array(payload)
        try checkCells()
    }

    /// Checks every cell: a zone number in range, or a shared entry that decodes within the
    /// payload with zone numbers and coordinates in range.
    private func checkCells() throws(MapFileDefect) {
        // Named only when one is wrong: the 64,800 names would cost more than the checks.
        func place(_ index: Int) -> String { "cell \(index % columns - 180)°E \(index / columns - 90)°N" }
        for (index, entry) in cells.enumerated() {
            if entry & Self.singleZoneFlag != 0 {
                guard Int(entry & ~Self.singleZoneFlag) < zoneIdentifiers.count else {
                    throw MapFileDefect("\(place(index)): zone \(entry & ~Self.singleZoneFlag) out of range")
                }
            } else if let problem = SharedCell(payload: payload, offset: Int(entry))
                .defect(zoneCount: zoneIdentifiers.count, quantum: quantum) {
                throw MapFileDefect("\(place(index)): \(problem)")
            }
        }
    }
}

/// What is wrong with a map file's bytes (the caller adds the path).
struct MapFileDefect: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
