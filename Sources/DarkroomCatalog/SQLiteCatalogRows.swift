import DarkroomLibrary
import DarkroomModel
import DarkroomReport
import Foundation
import GRDB

/// The SQLite catalog's rows (`CatalogRows`): plain reads and writes of its tables and nothing of
/// the catalog's rules. Each statement is prepared once per connection (GRDB's statement cache), and
/// its rows' columns are read by their positions in the SELECT list; a
/// list of keys is bound as one JSON array (`json_each`), so a lookup is one statement however many
/// keys it has.
struct SQLiteCatalogRows: CatalogRows {
    let database: DatabaseQueue
    let readers: CatalogReaders?

    func read<T>(_ body: (any CatalogRowReader) throws -> T) throws -> T {
        try database.read { try body(SQLiteRowAccess(db: $0)) }
    }

    func readBeside<T>(_ body: (any CatalogRowReader) throws -> T) throws -> T {
        guard let readers else { return try read(body) }
        return try readers.read(orOn: database) { try body(SQLiteRowAccess(db: $0)) }
    }

    /// The writer and the connections beside it that only read: one a core, up to 4.
    var concurrentReads: Int { (readers?.count ?? 0) + 1 }

    /// Triggers number each asset's changes (the schema's `v6: revisions`).
    var keepsRevisions: Bool { true }

    /// An immediate transaction: the write lock is taken before anything is read, so what the body
    /// reads and merges is not changed by another process before it writes.
    func write<T>(_ body: (any CatalogRowWriter) throws -> T) throws -> T {
        try database.writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(SQLiteRowAccess(db: db))
                return .commit
            }
            return result!
        }
    }
}

/// The catalog's tables, read and written on one connection inside a transaction.
struct SQLiteRowAccess: CatalogRowWriter {
    let db: Database

    // MARK: Reading

    func assets(_ lookup: AssetLookup) throws -> [AssetRow] {
        let select = "SELECT \(AssetRow.columnList) FROM assets"
        switch lookup {
        case .contentHashes(let hashes): return try assets(select + " WHERE content_hash IN \(Self.list)", [Self.json(hashes)])
        case .ids(let ids): return try assets(select + " WHERE id IN \(Self.list)", [Self.json(ids)])
        case .originalPaths(let paths): return try assets(select + " WHERE original_path IN \(Self.list)", [Self.json(paths)])
        case .originalPathPrefix(let prefix): return try assets(select + " WHERE substr(original_path, 1, length(?1)) = ?1", [prefix])
        case .cameras(let names): return try assets(select + " WHERE camera IN \(Self.list)", [Self.json(names)])
        case .contentIdentifiers(let identifiers):
            return try assets(select + " WHERE content_identifier IN \(Self.list)", [Self.json(identifiers)])
        case .motionOf(let stills): return try assets(select + " WHERE motion_of IN \(Self.list)", [Self.json(stills)])
        case .all: return try assets(select, [])
        }
    }

    /// Only the column: a survey of the library's own files asks it of every photo.
    func originalPaths(contentHashes: [String]) throws -> [String: String] {
        let rows = try rows("SELECT content_hash, original_path FROM assets WHERE content_hash IN \(Self.list)", [Self.json(contentHashes)]) {
            ($0[0] as String, $0[1] as String)
        }
        // Content hashes are the table's key: each comes once.
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    func cameras() throws -> [String] {
        try String.fetchAll(try db.cachedStatement(sql: "SELECT DISTINCT camera FROM assets WHERE camera IS NOT NULL"))
    }

    func outputs(_ lookup: OutputLookup) throws -> [OutputRow] {
        let select = "SELECT path, step, subject, size, sha256, run_id FROM outputs"
        let (sql, arguments): (String, StatementArguments)
        switch lookup {
        case .paths(let paths): (sql, arguments) = (select + " WHERE path IN \(Self.list)", [Self.json(paths)])
        case .subjects(let subjects): (sql, arguments) = (select + " WHERE subject IN \(Self.list)", [Self.json(subjects)])
        case .subjectsOfSteps(let subjects, let steps):
            (sql, arguments) = (select + " WHERE subject IN \(Self.list) AND \(Self.stepFilter)", [Self.json(subjects), Self.json(steps)])
        case .subjectPrefix(let prefix): (sql, arguments) = (select + " WHERE substr(subject, 1, length(?1)) = ?1", [prefix])
        case .all: (sql, arguments) = (select, [])
        }
        var steps = SharedTexts()
        return try rows(sql, arguments) {
            OutputRow(path: $0[0], step: steps.shared($0[1]), subject: $0[2], size: $0[3], sha256: $0[4], run: $0[5])
        }
    }

    func units(ofSubjects subjects: [String], steps: [String]?) throws -> [UnitRow] {
        let select = "SELECT step, subject, unit_key, run_id FROM units WHERE subject IN \(Self.list)"
        let (sql, arguments): (String, StatementArguments) = steps.map {
            (select + " AND \(Self.stepFilter)", [Self.json(subjects), Self.json($0)])
        } ?? (select, [Self.json(subjects)])
        var shared = SharedTexts()
        return try rows(sql, arguments) {
            UnitRow(step: shared.shared($0[0]), subject: $0[1], key: $0[2], run: $0[3])
        }
    }

    func fileStats(paths: [String]) throws -> [FileFingerprint] {
        try rows("SELECT path, size, mtime_ns, inode, content_hash FROM file_stats WHERE path IN \(Self.list)", [Self.json(paths)]) {
            FileFingerprint(path: $0[0], size: $0[1], mtimeNanoseconds: $0[2], inode: UInt64(bitPattern: $0[3]), hash: $0[4])
        }
    }

    func similarity(contentHashes: [String]?) throws -> [SimilarityRow] {
        let select = "SELECT content_hash, fingerprint, sharpness, burst_source, burst_id, burst_primary FROM similarity"
        let sql = contentHashes == nil ? select : select + " WHERE content_hash IN \(Self.list)"
        return try rows(sql, contentHashes.map { [Self.json($0)] } ?? []) { row in
            SimilarityRow(contentHash: row[0], fingerprintHex: row[1], sharpness: row[2], burstSource: row[3], burstIdentifier: row[4],
                          burstPrimary: row[5])
        }
    }

    func pairingFacts(contentHashes: [String]) throws -> [(contentHash: String, facts: PairingFacts)] {
        let sql = "SELECT content_hash, media_kind, content_identifier, motion_of FROM assets WHERE content_hash IN \(Self.list)"
        return try rows(sql, [Self.json(contentHashes)]) { row in
            (row[0], PairingFacts(contentIdentifier: row[2], motionOf: row[3], mediaKind: MediaKind(rawValue: row[1]) ?? .photo))
        }
    }

    func burstFacts(contentHashes: [String]) throws -> [BurstFacts] {
        let sql = """
            SELECT a.content_hash, a.original_path, a.camera, s.burst_source, s.burst_id, s.burst_primary, s.sharpness
            FROM assets a LEFT JOIN similarity s ON s.content_hash = a.content_hash WHERE a.content_hash IN \(Self.list)
            """
        return try rows(sql, [Self.json(contentHashes)]) { row in
            BurstFacts(contentHash: row[0], originalPath: row[1], camera: row[2], burstSource: row[3], burstIdentifier: row[4],
                       burstPrimary: row[5], sharpness: row[6])
        }
    }

    func revisions(contentHashes: [String]) throws -> [AssetRevision] {
        try rows("SELECT content_hash, revision FROM revisions WHERE content_hash IN \(Self.list)", [Self.json(contentHashes)]) {
            AssetRevision(contentHash: $0[0], revision: $0[1])
        }
    }

    func pixelSizes(sha256s: [String]) throws -> [RecordedPixelSize] {
        try rows("SELECT sha256, width, height FROM image_sizes WHERE sha256 IN \(Self.list)", [Self.json(sha256s)]) {
            RecordedPixelSize(sha256: $0[0], width: $0[1], height: $0[2])
        }
    }

    func runs() throws -> [RunRow] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT id, pipeline FROM runs")).map { RunRow(id: $0["id"], pipeline: $0["pipeline"]) }
    }

    // MARK: Writing

    func insertRun(pipeline: String) throws -> Int64 {
        try db.cachedStatement(sql: "INSERT INTO runs (pipeline, started_at) VALUES (?, ?)").execute(arguments: [pipeline, Timestamp.now()])
        return db.lastInsertedRowID
    }

    func finishRun(_ outcome: RunOutcome, failures: [RunReport.Failure]) throws {
        try db.cachedStatement(sql: """
            UPDATE runs SET finished_at = ?, processed = ?, skipped = ?, duplicates = ?, failed = ?, status = ? WHERE id = ?
            """).execute(arguments: [Timestamp.now(), outcome.processed, outcome.skipped, outcome.duplicates, outcome.failed,
                                     outcome.status, outcome.id])
        let insert = try db.cachedStatement(sql: "INSERT INTO failures (run_id, path, step, reason) VALUES (?, ?, ?, ?)")
        for failure in failures { try insert.execute(arguments: [outcome.id, failure.path, failure.step, failure.reason]) }
    }

    func insert(_ asset: AssetRow) throws -> Bool {
        let marks = Array(repeating: "?", count: AssetRow.columns.count).joined(separator: ", ")
        try db.cachedStatement(sql: "INSERT INTO assets (\(AssetRow.columnList)) VALUES (\(marks)) ON CONFLICT (content_hash) DO NOTHING")
            .execute(arguments: Self.arguments(asset.values))
        return db.changesCount > 0
    }

    func update(_ asset: AssetRow) throws {
        let assignments = AssetRow.columns.dropFirst().map { "\($0.name) = ?" }.joined(separator: ", ")
        let values = asset.values
        try db.cachedStatement(sql: "UPDATE assets SET \(assignments) WHERE content_hash = ?")
            .execute(arguments: Self.arguments(Array(values.dropFirst()) + [values[0]]))
    }

    func put(_ outputs: [OutputRow]) throws {
        let insert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO outputs (path, step, subject, size, sha256, run_id) VALUES (?, ?, ?, ?, ?, ?)")
        for output in outputs {
            try insert.execute(arguments: [output.path, output.step, output.subject, output.size, output.sha256, output.run])
        }
    }

    func deleteOutputs(paths: [String]) throws {
        try db.cachedStatement(sql: "DELETE FROM outputs WHERE path IN \(Self.list)").execute(arguments: [Self.json(paths)])
    }

    func put(_ units: [UnitRow]) throws {
        let insert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO units (step, subject, unit_key, run_id) VALUES (?, ?, ?, ?)")
        for unit in units { try insert.execute(arguments: [unit.step, unit.subject, unit.key, unit.run]) }
    }

    func deleteUnits(subject: String, steps: [String]) throws {
        try db.cachedStatement(sql: "DELETE FROM units WHERE subject = ? AND step IN \(Self.list)").execute(arguments: [subject, Self.json(steps)])
    }

    func put(_ files: [FileFingerprint]) throws {
        let insert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO file_stats (path, size, mtime_ns, inode, content_hash) VALUES (?, ?, ?, ?, ?)")
        for file in files {
            try insert.execute(arguments: [file.path, file.size, file.mtimeNanoseconds, Int64(bitPattern: file.inode), file.hash])
        }
    }

    func put(_ sizes: [RecordedPixelSize]) throws {
        let insert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO image_sizes (sha256, width, height) VALUES (?, ?, ?)")
        for size in sizes { try insert.execute(arguments: [size.sha256, size.width, size.height]) }
    }

    func put(_ similarity: [SimilarityRow]) throws {
        let insert = try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO similarity (content_hash, fingerprint, sharpness, burst_source, burst_id, burst_primary)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
        for row in similarity {
            let burst = row.facts.burst
            try insert.execute(arguments: [row.contentHash, row.fingerprintHex, row.facts.sharpness, burst?.source.rawValue, burst?.identifier,
                                           burst?.isPrimary ?? false])
        }
    }

    /// A library's SQLite catalog has no work queue: a note's job is not stored.
    func put(_ notes: [PendingNote]) throws {
        let insert = try db.cachedStatement(sql: "INSERT OR REPLACE INTO pending_outputs (path, run_id) VALUES (?, ?)")
        for note in notes { try insert.execute(arguments: [note.path, note.run]) }
    }

    func deletePending(paths: [String]) throws {
        try db.cachedStatement(sql: "DELETE FROM pending_outputs WHERE path IN \(Self.list)").execute(arguments: [Self.json(paths)])
    }

    /// Every note is outside a job: `unowned` takes them all, a job's scope none.
    func takePending(_ scope: PendingScope) throws -> [String] {
        guard scope == .unowned else { return [] }
        return try String.fetchAll(try db.cachedStatement(sql: "DELETE FROM pending_outputs RETURNING path"))
    }

    // MARK: Helpers

    /// The few texts a read repeats on every row (step names), each kept once: a row's own copy is
    /// dropped for the first one read (a read ahead of 100,000 photos' units and outputs held a
    /// million copies of a dozen names).
    private struct SharedTexts {
        private var seen: Set<String> = []

        /// The first text read equal to `text`.
        mutating func shared(_ text: String) -> String { seen.insert(text).memberAfterInsert }
    }

    /// A list of keys, bound as one JSON array argument of the statement.
    private static let list = "(SELECT value FROM json_each(?))"
    /// Of each subject's rows (found by the index on the subject), those of these steps: the `+` keeps
    /// SQLite from looking up every (subject, step) pair instead, two to three times slower when a
    /// run asks for most of a photo's steps (an import's), and little faster when it asks for a few (a gallery's).
    private static let stepFilter = "+step IN \(list)"

    /// The rows of a statement, each made into a value as it is stepped to: a row is read in place,
    /// not copied first into a `Row` of its own (700,000 of them for a re-run over 100,000 photos).
    private func rows<T>(_ sql: String, _ arguments: StatementArguments, _ make: (Row) throws -> T) throws -> [T] {
        let cursor = try Row.fetchCursor(try db.cachedStatement(sql: sql), arguments: arguments)
        var values: [T] = []
        while let row = try cursor.next() { values.append(try make(row)) }
        return values
    }

    private func assets(_ sql: String, _ arguments: StatementArguments) throws -> [AssetRow] {
        try rows(sql, arguments) { row in
            // Columns come in the order of `AssetRow.columns`, as selected, and are read by position
            // (by name, each read would look the name up among the row's columns).
            var position = 0
            return try AssetRow(reading: { column in
                defer { position += 1 }
                let value: DatabaseValue = row[position]
                switch column.kind {
                case .text: return .text(String.fromDatabaseValue(value))
                case .integer: return .integer(Int64.fromDatabaseValue(value))
                case .real: return .real(Double.fromDatabaseValue(value))
                }
            })
        }
    }

    private static func arguments(_ values: [AssetRow.Value]) -> StatementArguments {
        StatementArguments(values.map { value -> (any DatabaseValueConvertible)? in
            switch value {
            case .text(let text): return text
            case .integer(let number): return number
            case .real(let number): return number
            }
        })
    }

    /// The keys as a JSON array of strings, written out directly (JSONEncoder took a second for the
    /// 200,000 keys of a re-run over 100,000 photos).
    static func json(_ keys: [String]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(keys.reduce(2) { $0 + $1.utf8.count + 3 })
        let hex = Array("0123456789abcdef".utf8)
        for (index, key) in keys.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            // Paths and hashes almost never hold a character to escape: those are copied whole.
            if !key.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                bytes.append(contentsOf: key.utf8)
            } else {
                for byte in key.utf8 {
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
                    case 0..<0x20: bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                    default: bytes.append(byte)
                    }
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
