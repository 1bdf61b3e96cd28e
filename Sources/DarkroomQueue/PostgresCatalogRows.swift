import DarkroomLibrary
import DarkroomModel
import DarkroomReport
import Foundation
import PostgresNIO

/// The PostgreSQL catalog's rows (`CatalogRows`): plain reads and writes of its tables and nothing
/// of the catalog's rules. A list of keys is bound as one array (`= ANY(...)`), and rows are written
/// from arrays (`unnest`), so a lookup or a write is one statement however many rows it has (one
/// per run id among the rows written).
///
/// Reads run as they come (at READ COMMITTED, a transaction would not make two statements see one
/// state either); writes run in one transaction, and the assets and outputs they read are locked
/// (`FOR UPDATE`) until it ends, so what a commit reads and merges is not changed meanwhile.
struct PostgresCatalogRows: CatalogRows {
    let session: PostgresSession

    func read<T>(_ body: (any CatalogRowReader) throws -> T) throws -> T {
        try body(PostgresRowAccess(session: session, locking: false))
    }

    func write<T>(_ body: (any CatalogRowWriter) throws -> T) throws -> T {
        try session.transaction { try body(PostgresRowAccess(session: session, locking: true)) }
    }
}

/// The catalog's tables in one session (inside its transaction when writing).
struct PostgresRowAccess: CatalogRowWriter {
    let session: PostgresSession
    /// Whether rows read are locked until the transaction ends.
    let locking: Bool

    private var forUpdate: String { locking ? " FOR UPDATE" : "" }

    // MARK: Reading

    func assets(_ lookup: AssetLookup) throws -> [AssetRow] {
        let select = "SELECT \(AssetRow.columnList) FROM assets"
        let query: PostgresQuery = switch lookup {
        case .contentHashes(let hashes): "\(unescaped: select) WHERE content_hash = ANY(\(hashes))\(unescaped: forUpdate)"
        case .ids(let ids): "\(unescaped: select) WHERE id = ANY(\(ids))\(unescaped: forUpdate)"
        case .originalPaths(let paths): "\(unescaped: select) WHERE original_path = ANY(\(paths))\(unescaped: forUpdate)"
        case .originalPathPrefix(let prefix): "\(unescaped: select) WHERE starts_with(original_path, \(prefix))\(unescaped: forUpdate)"
        case .cameras(let names): "\(unescaped: select) WHERE camera = ANY(\(names))\(unescaped: forUpdate)"
        case .contentIdentifiers(let identifiers): "\(unescaped: select) WHERE content_identifier = ANY(\(identifiers))\(unescaped: forUpdate)"
        case .motionOf(let stills): "\(unescaped: select) WHERE motion_of = ANY(\(stills))\(unescaped: forUpdate)"
        case .all: "\(unescaped: select)\(unescaped: forUpdate)"
        }
        return try session.query(query).map(Self.asset)
    }

    func cameras() throws -> [String] {
        try session.query("SELECT DISTINCT camera FROM assets WHERE camera IS NOT NULL").map { try $0.decode(String.self) }
    }

    func outputs(_ lookup: OutputLookup) throws -> [OutputRow] {
        let select = "SELECT path, step, subject, size, sha256, run_id FROM outputs"
        let query: PostgresQuery = switch lookup {
        case .paths(let paths): "\(unescaped: select) WHERE path = ANY(\(paths))\(unescaped: forUpdate)"
        case .subjects(let subjects): "\(unescaped: select) WHERE subject = ANY(\(subjects))\(unescaped: forUpdate)"
        case .subjectsOfSteps(let subjects, let steps):
            "\(unescaped: select) WHERE subject = ANY(\(subjects)) AND step = ANY(\(steps))\(unescaped: forUpdate)"
        case .subjectPrefix(let prefix): "\(unescaped: select) WHERE starts_with(subject, \(prefix))\(unescaped: forUpdate)"
        case .all: "\(unescaped: select)\(unescaped: forUpdate)"
        }
        return try session.query(query).map { row in
            let (path, step, subject, size, sha256, run) = try row.decode((String, String, String, Int64, String, Int64?).self)
            return OutputRow(path: path, step: step, subject: subject, size: size, sha256: sha256, run: run)
        }
    }

    func units(ofSubjects subjects: [String], steps: [String]?) throws -> [UnitRow] {
        let query: PostgresQuery = if let steps {
            "SELECT step, subject, unit_key, run_id FROM units WHERE subject = ANY(\(subjects)) AND step = ANY(\(steps))"
        } else {
            "SELECT step, subject, unit_key, run_id FROM units WHERE subject = ANY(\(subjects))"
        }
        return try session.query(query).map { row in
            let (step, subject, key, run) = try row.decode((String, String, String, Int64?).self)
            return UnitRow(step: step, subject: subject, key: key, run: run)
        }
    }

    func fileStats(paths: [String]) throws -> [FileFingerprint] {
        try session.query("SELECT path, size, mtime_ns, inode, content_hash FROM file_stats WHERE path = ANY(\(paths))").map { row in
            let (path, size, mtime, inode, hash) = try row.decode((String, Int64, Int64, Int64, String).self)
            return FileFingerprint(path: path, size: size, mtimeNanoseconds: mtime, inode: UInt64(bitPattern: inode), hash: hash)
        }
    }

    func similarity(contentHashes: [String]?) throws -> [SimilarityRow] {
        let select = "SELECT content_hash, fingerprint, sharpness, burst_source, burst_id, burst_primary FROM similarity"
        let query: PostgresQuery = if let contentHashes { "\(unescaped: select) WHERE content_hash = ANY(\(contentHashes))" } else { "\(unescaped: select)" }
        return try session.query(query).map { row in
            let (hash, fingerprint, sharpness, source, identifier, primary) = try row.decode((String, String?, Double?, String?, String?, Bool).self)
            return SimilarityRow(contentHash: hash, fingerprintHex: fingerprint, sharpness: sharpness, burstSource: source,
                                 burstIdentifier: identifier, burstPrimary: primary)
        }
    }

    func pairingFacts(contentHashes: [String]) throws -> [(contentHash: String, facts: PairingFacts)] {
        try session.query("SELECT content_hash, media_kind, content_identifier, motion_of FROM assets WHERE content_hash = ANY(\(contentHashes))").map { row in
            let (hash, kind, identifier, still) = try row.decode((String, String, String?, String?).self)
            return (hash, PairingFacts(contentIdentifier: identifier, motionOf: still, mediaKind: MediaKind(rawValue: kind) ?? .photo))
        }
    }

    func burstFacts(contentHashes: [String]) throws -> [BurstFacts] {
        try session.query("""
            SELECT a.content_hash, a.original_path, a.camera, s.burst_source, s.burst_id, s.burst_primary, s.sharpness
            FROM assets a LEFT JOIN similarity s ON s.content_hash = a.content_hash WHERE a.content_hash = ANY(\(contentHashes))
            """).map { row in
            let (hash, path, camera, source, identifier, primary, sharpness) = try row.decode((String, String, String?, String?, String?, Bool?, Double?).self)
            return BurstFacts(contentHash: hash, originalPath: path, camera: camera, burstSource: source, burstIdentifier: identifier,
                              burstPrimary: primary, sharpness: sharpness)
        }
    }

    func pixelSizes(sha256s: [String]) throws -> [RecordedPixelSize] {
        try session.query("SELECT sha256, width, height FROM image_sizes WHERE sha256 = ANY(\(sha256s))").map { row in
            let (sha256, width, height) = try row.decode((String, Int64, Int64).self)
            return RecordedPixelSize(sha256: sha256, width: Int(width), height: Int(height))
        }
    }

    func runs() throws -> [RunRow] {
        try session.query("SELECT id, pipeline FROM runs").map { row in
            let (id, pipeline) = try row.decode((Int64, String).self)
            return RunRow(id: id, pipeline: pipeline)
        }
    }

    // MARK: Writing

    func insertRun(pipeline: String) throws -> Int64 {
        try session.query("INSERT INTO runs (pipeline) VALUES (\(pipeline)) RETURNING id")[0].decode(Int64.self)
    }

    func finishRun(_ outcome: RunOutcome, failures: [RunReport.Failure]) throws {
        try session.execute("""
            UPDATE runs SET finished_at = now(), processed = \(outcome.processed), skipped = \(outcome.skipped),
                duplicates = \(outcome.duplicates), failed = \(outcome.failed), status = \(outcome.status)
            WHERE id = \(outcome.id)
            """)
        guard !failures.isEmpty else { return }
        try session.execute("""
            INSERT INTO failures (run_id, path, step, reason)
            SELECT \(outcome.id), path, step, reason
            FROM unnest(\(failures.map(\.path)), \(failures.map(\.step)), \(failures.map(\.reason))) AS f(path, step, reason)
            """)
    }

    func insert(_ asset: AssetRow) throws -> Bool {
        let marks = (1...AssetRow.columns.count).map { "$\($0)" }.joined(separator: ", ")
        return try session.execute(PostgresQuery(
            unsafeSQL: "INSERT INTO assets (\(AssetRow.columnList)) VALUES (\(marks)) ON CONFLICT (content_hash) DO NOTHING",
            binds: Self.binds(asset.values))) == 1
    }

    /// Every column but the content hash ($1, the first), which picks the row.
    func update(_ asset: AssetRow) throws {
        let assignments = AssetRow.columns.enumerated().dropFirst().map { "\($1.name) = $\($0 + 1)" }
        try session.execute(PostgresQuery(
            unsafeSQL: "UPDATE assets SET \(assignments.joined(separator: ", ")) WHERE content_hash = $1", binds: Self.binds(asset.values)))
    }

    func put(_ outputs: [OutputRow]) throws {
        for (run, outputs) in Dictionary(grouping: outputs, by: \.run) {
            try session.execute("""
                INSERT INTO outputs (path, step, subject, size, sha256, run_id)
                SELECT path, step, subject, size, sha256, \(run)::bigint
                FROM unnest(\(outputs.map(\.path)), \(outputs.map(\.step)), \(outputs.map(\.subject)), \(outputs.map(\.size)),
                            \(outputs.map(\.sha256))) AS o(path, step, subject, size, sha256)
                ON CONFLICT (path) DO UPDATE SET step = EXCLUDED.step, subject = EXCLUDED.subject, size = EXCLUDED.size,
                    sha256 = EXCLUDED.sha256, run_id = EXCLUDED.run_id
                """)
        }
    }

    func deleteOutputs(paths: [String]) throws {
        try session.execute("DELETE FROM outputs WHERE path = ANY(\(paths))")
    }

    func put(_ units: [UnitRow]) throws {
        for (run, units) in Dictionary(grouping: units, by: \.run) {
            try session.execute("""
                INSERT INTO units (step, subject, unit_key, run_id)
                SELECT step, subject, key, \(run)::bigint
                FROM unnest(\(units.map(\.step)), \(units.map(\.subject)), \(units.map(\.key))) AS u(step, subject, key)
                ON CONFLICT (step, subject) DO UPDATE SET unit_key = EXCLUDED.unit_key, run_id = EXCLUDED.run_id
                """)
        }
    }

    func deleteUnits(subject: String, steps: [String]) throws {
        try session.execute("DELETE FROM units WHERE subject = \(subject) AND step = ANY(\(steps))")
    }

    func put(_ files: [FileFingerprint]) throws {
        guard !files.isEmpty else { return }
        try session.execute("""
            INSERT INTO file_stats (path, size, mtime_ns, inode, content_hash)
            SELECT * FROM unnest(\(files.map(\.path)), \(files.map(\.size)), \(files.map(\.mtimeNanoseconds)),
                                 \(files.map { Int64(bitPattern: $0.inode) }), \(files.map(\.hash)))
            ON CONFLICT (path) DO UPDATE SET size = EXCLUDED.size, mtime_ns = EXCLUDED.mtime_ns,
                inode = EXCLUDED.inode, content_hash = EXCLUDED.content_hash
            """)
    }

    func put(_ sizes: [RecordedPixelSize]) throws {
        guard !sizes.isEmpty else { return }
        try session.execute("""
            INSERT INTO image_sizes (sha256, width, height)
            SELECT * FROM unnest(\(sizes.map(\.sha256)), \(sizes.map { Int64($0.width) }), \(sizes.map { Int64($0.height) }))
            ON CONFLICT (sha256) DO UPDATE SET width = EXCLUDED.width, height = EXCLUDED.height
            """)
    }

    /// One statement a row (arrays of optional values do not bind); a run writes one row a photo.
    func put(_ similarity: [SimilarityRow]) throws {
        for row in similarity {
            let burst = row.facts.burst
            try session.execute("""
                INSERT INTO similarity (content_hash, fingerprint, sharpness, burst_source, burst_id, burst_primary)
                VALUES (\(row.contentHash), \(row.fingerprintHex), \(row.facts.sharpness), \(burst?.source.rawValue), \(burst?.identifier),
                        \(burst?.isPrimary ?? false))
                ON CONFLICT (content_hash) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, sharpness = EXCLUDED.sharpness,
                    burst_source = EXCLUDED.burst_source, burst_id = EXCLUDED.burst_id, burst_primary = EXCLUDED.burst_primary
                """)
        }
    }

    func put(_ notes: [PendingNote]) throws {
        for (owner, notes) in Dictionary(grouping: notes, by: { [$0.run, $0.job] }) {
            try session.execute("""
                INSERT INTO pending_outputs (path, run_id, job_id)
                SELECT path, \(owner[0])::bigint, \(owner[1])::bigint FROM unnest(\(notes.map(\.path))) AS p(path)
                ON CONFLICT (path) DO UPDATE SET run_id = EXCLUDED.run_id, job_id = EXCLUDED.job_id
                """)
        }
    }

    func deletePending(paths: [String]) throws {
        try session.execute("DELETE FROM pending_outputs WHERE path = ANY(\(paths))")
    }

    /// `unowned` takes the notes made outside any job and those of jobs that have ended (done, or
    /// failed for good): never those of a job that may still run, which its next attempt takes.
    func takePending(_ scope: PendingScope) throws -> [String] {
        let query: PostgresQuery = switch scope {
        case .unowned: """
            DELETE FROM pending_outputs
            WHERE job_id IS NULL OR job_id IN (SELECT id FROM jobs WHERE state IN ('done', 'failed'))
            RETURNING path
            """
        case .job(let job): "DELETE FROM pending_outputs WHERE job_id = \(job) RETURNING path"
        }
        return try session.query(query).map { try $0.decode(String.self) }
    }

    // MARK: Assets' columns

    /// An asset's values, bound in the order of `AssetRow.columns` ($1 is the content hash).
    private static func binds(_ values: [AssetRow.Value]) -> PostgresBindings {
        var binds = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .text(let text): binds.append(text)
            case .integer(let number): binds.append(number)
            case .real(let number): binds.append(number)
            }
        }
        return binds
    }

    /// An asset's row, column by column.
    private static func asset(_ row: PostgresRow) throws -> AssetRow {
        let cells = row.makeRandomAccess()
        return try AssetRow(reading: { column in
            let cell = cells[column.name]
            switch column.kind {
            case .text: return .text(try cell.decode(String?.self, context: .default))
            case .integer: return .integer(try cell.decode(Int64?.self, context: .default))
            case .real: return .real(try cell.decode(Double?.self, context: .default))
            }
        })
    }
}
