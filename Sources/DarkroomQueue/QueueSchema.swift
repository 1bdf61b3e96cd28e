import Foundation
import PostgresNIO

/// The tables of a fleet's database: the catalog (as in the SQLite catalog, plus `meta`) and the
/// work queue (`pipelines`, `jobs`, `job_attempts`, `workers`).
public enum QueueSchema {
    /// The schema version this build writes; `meta.schema_version` records the one a database has.
    public static let version = 6

    /// Creates whatever is missing. Safe to run again and from several workers at once: it runs in
    /// one transaction under an advisory lock, and does nothing when the database is up to date.
    public static func migrate(_ session: PostgresSession) throws {
        try session.transaction {
            try session.execute("SELECT pg_advisory_xact_lock(\(advisoryLock))")
            if try installedVersion(session) == version { return }
            for statement in statements { try session.execute(PostgresQuery(unsafeSQL: statement)) }
            try session.execute("""
                INSERT INTO meta (key, value) VALUES ('schema_version', \(String(version)))
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
                """)
        }
    }

    /// The key of the advisory lock migrations take ("darkroom" in ASCII).
    static let advisoryLock: Int64 = 0x6461_726B_726F_6F6D

    private static func installedVersion(_ session: PostgresSession) throws -> Int? {
        guard let row = try session.query("SELECT to_regclass('meta') IS NOT NULL").first,
              try row.decode(Bool.self) else { return nil }
        return try session.query("SELECT value FROM meta WHERE key = 'schema_version'").first
            .flatMap { Int(try $0.decode(String.self)) }
    }

    /// One statement each (the extended query protocol runs one at a time).
    static let statements = catalogTables + queueTables

    private static let catalogTables = [
        "CREATE TABLE IF NOT EXISTS meta (key text PRIMARY KEY, value text NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS runs (
            id bigserial PRIMARY KEY,
            pipeline text NOT NULL,
            started_at timestamptz NOT NULL DEFAULT now(),
            finished_at timestamptz,
            processed integer, skipped integer, duplicates integer, failed integer,
            status text NOT NULL DEFAULT 'running')
        """,
        """
        CREATE TABLE IF NOT EXISTS assets (
            content_hash text PRIMARY KEY,
            id text NOT NULL UNIQUE,
            original_path text NOT NULL,
            file_size bigint NOT NULL,
            capture_local text,
            capture_utc_offset integer,
            capture_source text,
            capture_tz_source text,
            capture_confidence text,
            capture_json text,
            width integer, height integer, orientation integer,
            camera text,
            first_run bigint REFERENCES runs(id),
            last_run bigint REFERENCES runs(id))
        """,
        "CREATE INDEX IF NOT EXISTS assets_capture ON assets (capture_local)",
        // Version 3: videos, places and Live Photos.
        """
        ALTER TABLE assets ADD COLUMN IF NOT EXISTS media_kind text NOT NULL DEFAULT 'photo',
            ADD COLUMN IF NOT EXISTS latitude double precision, ADD COLUMN IF NOT EXISTS longitude double precision,
            ADD COLUMN IF NOT EXISTS altitude double precision, ADD COLUMN IF NOT EXISTS duration double precision,
            ADD COLUMN IF NOT EXISTS video_codec text, ADD COLUMN IF NOT EXISTS bit_depth integer,
            ADD COLUMN IF NOT EXISTS hdr_transfer text, ADD COLUMN IF NOT EXISTS audio_codec text,
            ADD COLUMN IF NOT EXISTS content_identifier text, ADD COLUMN IF NOT EXISTS motion_of text
        """,
        "CREATE INDEX IF NOT EXISTS assets_content_identifier ON assets (content_identifier)",
        "CREATE INDEX IF NOT EXISTS assets_motion_of ON assets (motion_of)",
        """
        CREATE TABLE IF NOT EXISTS file_stats (
            path text PRIMARY KEY,
            size bigint NOT NULL,
            mtime_ns bigint NOT NULL,
            inode bigint NOT NULL,
            content_hash text NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS units (
            step text NOT NULL,
            subject text NOT NULL,
            unit_key text NOT NULL,
            run_id bigint REFERENCES runs(id),
            PRIMARY KEY (step, subject))
        """,
        "CREATE INDEX IF NOT EXISTS units_subject ON units (subject)",
        """
        CREATE TABLE IF NOT EXISTS outputs (
            path text PRIMARY KEY,
            step text NOT NULL,
            subject text NOT NULL,
            size bigint NOT NULL,
            sha256 text NOT NULL,
            run_id bigint REFERENCES runs(id))
        """,
        "CREATE INDEX IF NOT EXISTS outputs_subject ON outputs (subject, step)",
        "CREATE TABLE IF NOT EXISTS pending_outputs (path text PRIMARY KEY, run_id bigint, job_id bigint)",
        "CREATE INDEX IF NOT EXISTS pending_outputs_job ON pending_outputs (job_id)",
        "CREATE TABLE IF NOT EXISTS image_sizes (sha256 text PRIMARY KEY, width bigint NOT NULL, height bigint NOT NULL)",
        // Version 6: near-duplicates and bursts.
        """
        CREATE TABLE IF NOT EXISTS similarity (
            content_hash text PRIMARY KEY,
            fingerprint text,
            sharpness double precision,
            burst_source text,
            burst_id text,
            burst_primary boolean NOT NULL DEFAULT false)
        """,
        """
        CREATE TABLE IF NOT EXISTS failures (
            run_id bigint REFERENCES runs(id),
            path text NOT NULL,
            step text NOT NULL,
            reason text NOT NULL)
        """,
    ]

    private static let queueTables = [
        """
        CREATE TABLE IF NOT EXISTS pipelines (
            digest text PRIMARY KEY,
            file_name text NOT NULL,
            yaml text NOT NULL,
            library text NOT NULL,
            settings_json text NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now())
        """,
        """
        CREATE TABLE IF NOT EXISTS jobs (
            id bigserial PRIMARY KEY,
            unit_key text NOT NULL UNIQUE,
            kind text NOT NULL CHECK (kind IN ('photo', 'collection')),
            batch text NOT NULL,
            pipeline_digest text NOT NULL REFERENCES pipelines(digest),
            payload text NOT NULL,
            state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done', 'failed')),
            attempts integer NOT NULL DEFAULT 0,
            max_attempts integer NOT NULL CHECK (max_attempts >= 1),
            not_before timestamptz NOT NULL DEFAULT now(),
            lease_token uuid,
            lease_owner text,
            lease_expires timestamptz,
            last_error text,
            enqueued_at timestamptz NOT NULL DEFAULT now(),
            finished_at timestamptz)
        """,
        // Version 2: the text of the templates a pipeline reads, as JSON ({} for none).
        "ALTER TABLE pipelines ADD COLUMN IF NOT EXISTS templates_json text NOT NULL DEFAULT '{}'",
        // What `claim` scans: only unfinished jobs, oldest first.
        "CREATE INDEX IF NOT EXISTS jobs_unfinished ON jobs (id) WHERE state IN ('pending', 'running')",
        // What a collection job's wait for its batch's photos looks up.
        "CREATE INDEX IF NOT EXISTS jobs_batch ON jobs (batch, kind, state)",
        """
        CREATE TABLE IF NOT EXISTS job_attempts (
            job_id bigint NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
            attempt integer NOT NULL,
            worker text NOT NULL,
            started_at timestamptz NOT NULL DEFAULT now(),
            ended_at timestamptz,
            outcome text,
            error text,
            PRIMARY KEY (job_id, attempt))
        """,
        """
        CREATE TABLE IF NOT EXISTS workers (
            id text PRIMARY KEY,
            host text NOT NULL,
            pid integer NOT NULL,
            started_at timestamptz NOT NULL DEFAULT now(),
            heartbeat_at timestamptz NOT NULL DEFAULT now(),
            temp_folder text NOT NULL)
        """,
    ]
}
