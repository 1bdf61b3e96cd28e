import Foundation

/// One row of `outputs`: a published file.
public struct OutputRow: Sendable, Hashable {
    public var path: String
    public var step: String
    public var subject: String
    public var size: Int64
    public var sha256: String
    /// The run that recorded it (nil for what `catalog rebuild` found).
    public var run: Int64?

    public init(path: String, step: String, subject: String, size: Int64, sha256: String, run: Int64?) {
        self.path = path; self.step = step; self.subject = subject; self.size = size; self.sha256 = sha256; self.run = run
    }
}

/// One row of `units`: a done unit of work (a step, for one subject, with the key of its inputs and options).
public struct UnitRow: Sendable, Hashable {
    public var step: String
    public var subject: String
    public var key: String
    public var run: Int64?

    public init(step: String, subject: String, key: String, run: Int64?) {
        self.step = step; self.subject = subject; self.key = key; self.run = run
    }
}

/// One row of `pending_outputs`: a path a run is about to link into the library.
public struct PendingNote: Sendable, Hashable {
    public var path: String
    public var run: Int64
    /// The queue job that noted it (nil outside a work queue).
    public var job: Int64?

    public init(path: String, run: Int64, job: Int64?) {
        self.path = path; self.run = run; self.job = job
    }
}

/// A run as `runs` lists it.
public struct RunRow: Sendable, Hashable {
    public var id: Int64
    public var pipeline: String

    public init(id: Int64, pipeline: String) {
        self.id = id; self.pipeline = pipeline
    }
}

/// How a run ended, as `runs` records it.
public struct RunOutcome: Sendable, Hashable {
    public var id: Int64
    public var processed: Int
    public var skipped: Int
    public var duplicates: Int
    public var failed: Int
    /// `ok`, or `failures` when some file failed.
    public var status: String

    public init(id: Int64, processed: Int, skipped: Int, duplicates: Int, failed: Int, status: String) {
        self.id = id; self.processed = processed; self.skipped = skipped; self.duplicates = duplicates; self.failed = failed
        self.status = status
    }
}

/// One row of `revisions`: the number a photo's or video's catalog entry was given the last time
/// its facts, its files or a part joined to it changed (numbers only grow).
public struct AssetRevision: Sendable, Hashable {
    public var contentHash: String
    public var revision: Int64

    public init(contentHash: String, revision: Int64) {
        self.contentHash = contentHash; self.revision = revision
    }
}
