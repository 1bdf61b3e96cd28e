import Foundation
import GRDB

/// The SQLite catalog's tables, and their upgrade. Each migration is recorded by name in
/// `grdb_migrations`, the table GRDB's migrator kept for the catalogs of earlier releases, so
/// those open and upgrade as before.
///
/// Upgrading takes the database's write lock first (an immediate transaction) and reads again,
/// inside it, which migrations are applied: two processes opening one new or old catalog at once
/// apply each migration once, the second finding the first's work done. All the missing
/// migrations go in that one transaction, so a reader sees the catalog before or after, never half.
enum CatalogSchema {
    /// One step of the schema, by the name it is recorded under.
    struct Migration {
        var name: String
        var sql: String
    }

    /// Where a catalog's schema stands.
    enum State: Equatable {
        /// No table yet (a catalog just made, or being made by another process).
        case empty
        /// Some migrations are missing: an older Darkroom wrote it.
        case outdated(missing: [String])
        /// Every migration is applied.
        case current
    }

    /// Brings the catalog up to date, or (with `last`) up to the migration named `last`.
    static func upgrade(_ database: DatabaseQueue, through last: String? = nil) throws {
        let wanted = migrations(through: last)
        // Most opens find the catalog up to date: no lock for them.
        if try database.read({ try missing(wanted, in: $0) }).isEmpty { return }
        try database.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                for migration in try missing(wanted, in: db) {
                    try db.execute(sql: migration.sql)
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.name])
                }
                return .commit
            }
        }
    }

    /// Where the catalog's schema stands, read without changing anything.
    static func state(of db: Database) throws -> State {
        let absent = try missing(migrations, in: db)
        if absent.isEmpty { return .current }
        return absent.count == migrations.count ? .empty : .outdated(missing: absent.map(\.name))
    }

    /// The migrations of `wanted` not applied yet, in order.
    private static func missing(_ wanted: [Migration], in db: Database) throws -> [Migration] {
        guard try db.tableExists("grdb_migrations") else { return wanted }
        let applied = Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
        return wanted.filter { !applied.contains($0.name) }
    }

    /// The migrations up to the one named `last` (all of them when nil).
    private static func migrations(through last: String?) -> [Migration] {
        guard let last, let index = migrations.firstIndex(where: { $0.name == last }) else { return migrations }
        return Array(migrations[...index])
    }

    /// Every migration, oldest first. Never change one that shipped: add another.
    static let migrations = [
        Migration(name: "v1", sql: """
            CREATE TABLE runs (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                pipeline TEXT NOT NULL,
                started_at TEXT NOT NULL,
                finished_at TEXT,
                processed INTEGER, skipped INTEGER, duplicates INTEGER, failed INTEGER,
                status TEXT NOT NULL DEFAULT 'running'
            );
            CREATE TABLE assets (
                content_hash TEXT PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                original_path TEXT NOT NULL,
                file_size INTEGER NOT NULL,
                capture_local TEXT,
                capture_utc_offset INTEGER,
                capture_source TEXT,
                capture_tz_source TEXT,
                capture_confidence TEXT,
                capture_json TEXT,
                width INTEGER, height INTEGER, orientation INTEGER,
                camera TEXT,
                first_run INTEGER REFERENCES runs(id),
                last_run INTEGER REFERENCES runs(id)
            );
            CREATE INDEX assets_capture ON assets(capture_local);
            CREATE TABLE file_stats (
                path TEXT PRIMARY KEY,
                size INTEGER NOT NULL,
                mtime_ns INTEGER NOT NULL,
                inode INTEGER NOT NULL,
                content_hash TEXT NOT NULL
            );
            CREATE TABLE units (
                step TEXT NOT NULL,
                subject TEXT NOT NULL,
                unit_key TEXT NOT NULL,
                run_id INTEGER REFERENCES runs(id),
                PRIMARY KEY (step, subject)
            );
            CREATE TABLE outputs (
                path TEXT PRIMARY KEY,
                step TEXT NOT NULL,
                subject TEXT NOT NULL,
                size INTEGER NOT NULL,
                sha256 TEXT NOT NULL,
                run_id INTEGER REFERENCES runs(id)
            );
            CREATE INDEX outputs_subject ON outputs(subject, step);
            CREATE TABLE pending_outputs (
                path TEXT PRIMARY KEY,
                run_id INTEGER
            );
            CREATE TABLE failures (
                run_id INTEGER REFERENCES runs(id),
                path TEXT NOT NULL,
                step TEXT NOT NULL,
                reason TEXT NOT NULL
            );
            """),
        Migration(name: "v2: videos, places and Live Photos", sql: """
            ALTER TABLE assets ADD COLUMN media_kind TEXT NOT NULL DEFAULT 'photo';
            ALTER TABLE assets ADD COLUMN latitude REAL;
            ALTER TABLE assets ADD COLUMN longitude REAL;
            ALTER TABLE assets ADD COLUMN altitude REAL;
            ALTER TABLE assets ADD COLUMN duration REAL;
            ALTER TABLE assets ADD COLUMN video_codec TEXT;
            ALTER TABLE assets ADD COLUMN bit_depth INTEGER;
            ALTER TABLE assets ADD COLUMN hdr_transfer TEXT;
            ALTER TABLE assets ADD COLUMN audio_codec TEXT;
            ALTER TABLE assets ADD COLUMN content_identifier TEXT;
            ALTER TABLE assets ADD COLUMN motion_of TEXT;
            CREATE INDEX assets_content_identifier ON assets(content_identifier);
            """),
        // units' key leads with the step, so `state(of:)` (by subject, once per photo a run) scanned
        // the whole table: a run over 10,000 photos with nothing new took minutes instead of seconds.
        Migration(name: "v3: units and motion parts by subject", sql: """
            CREATE INDEX units_subject ON units(subject);
            CREATE INDEX assets_motion_of ON assets(motion_of);
            """),
        // The gallery read every thumbnail's header on every run (a file opened twenty times by
        // libvips' loader search): 100,000 opens for a library of 100,000.
        Migration(name: "v4: image sizes", sql: """
            CREATE TABLE image_sizes (
                sha256 TEXT PRIMARY KEY,
                width INTEGER NOT NULL,
                height INTEGER NOT NULL
            ) WITHOUT ROWID;
            """),
        // What `darkroom duplicates` and `bursts: pick` read (issue 22), apart from `assets` so that a
        // re-run, which reads every asset it finds, does not read fingerprints too.
        Migration(name: "v5: similarity", sql: """
            CREATE TABLE similarity (
                content_hash TEXT PRIMARY KEY,
                fingerprint TEXT,
                sharpness REAL,
                burst_source TEXT,
                burst_id TEXT,
                burst_primary INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID;
            """),
        // The gallery read every month's photos from the catalog on every run to learn that nothing
        // had changed (14 s for 100,000 photos, issue 25). Each change to what is shown of a photo (its
        // asset row, its outputs, a part joined to it by `motion_of`) now gives the photo a new
        // revision, by triggers, so that every writer (runs, set-date, rebuild, merge, an older
        // Darkroom) numbers its changes; REPLACE takes a fresh AUTOINCREMENT rowid, never one used before.
        Migration(name: "v6: revisions", sql: """
            CREATE TABLE revisions (
                revision INTEGER PRIMARY KEY AUTOINCREMENT,
                content_hash TEXT NOT NULL UNIQUE
            );
            CREATE TRIGGER assets_inserted AFTER INSERT ON assets BEGIN
                INSERT OR REPLACE INTO revisions (content_hash) VALUES (NEW.content_hash);
                INSERT OR REPLACE INTO revisions (content_hash) SELECT NEW.motion_of WHERE NEW.motion_of IS NOT NULL;
            END;
            CREATE TRIGGER assets_updated AFTER UPDATE ON assets BEGIN
                INSERT OR REPLACE INTO revisions (content_hash) VALUES (NEW.content_hash);
                INSERT OR REPLACE INTO revisions (content_hash) SELECT NEW.motion_of WHERE NEW.motion_of IS NOT NULL;
                INSERT OR REPLACE INTO revisions (content_hash) SELECT OLD.motion_of
                    WHERE OLD.motion_of IS NOT NULL AND OLD.motion_of IS NOT NEW.motion_of;
            END;
            CREATE TRIGGER assets_deleted AFTER DELETE ON assets BEGIN
                INSERT OR REPLACE INTO revisions (content_hash) VALUES (OLD.content_hash);
                INSERT OR REPLACE INTO revisions (content_hash) SELECT OLD.motion_of WHERE OLD.motion_of IS NOT NULL;
            END;
            CREATE TRIGGER outputs_inserting BEFORE INSERT ON outputs BEGIN
                INSERT OR REPLACE INTO revisions (content_hash) SELECT subject FROM outputs WHERE path = NEW.path;
            END;
            CREATE TRIGGER outputs_inserted AFTER INSERT ON outputs BEGIN
                INSERT OR REPLACE INTO revisions (content_hash) VALUES (NEW.subject);
                INSERT OR REPLACE INTO revisions (content_hash)
                    SELECT motion_of FROM assets WHERE content_hash = NEW.subject AND motion_of IS NOT NULL;
            END;
            CREATE TRIGGER outputs_updated AFTER UPDATE ON outputs BEGIN
                INSERT OR REPLACE INTO revisions (content_hash) VALUES (OLD.subject);
                INSERT OR REPLACE INTO revisions (content_hash) VALUES (NEW.subject);
                INSERT OR REPLACE INTO revisions (content_hash)
                    SELECT motion_of FROM assets WHERE content_hash IN (OLD.subject, NEW.subject) AND motion_of IS NOT NULL;
            END;
            CREATE TRIGGER outputs_deleted AFTER DELETE ON outputs BEGIN
                INSERT OR REPLACE INTO revisions (content_hash) VALUES (OLD.subject);
                INSERT OR REPLACE INTO revisions (content_hash)
                    SELECT motion_of FROM assets WHERE content_hash = OLD.subject AND motion_of IS NOT NULL;
            END;
            """),
    ]
}
