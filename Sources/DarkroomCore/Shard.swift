import Foundation
import DarkroomModel

/// One share of a sharded sweep: shard `index` (counted from 0) of `count`.
///
/// A photo belongs to the shard its content hash picks, so every photo lands in exactly one shard
/// whatever order the files are found in, and duplicates land with their original. A collection
/// output (a time-lapse, one collage) belongs to the shard its step and name pick.
public struct Shard: Sendable, Hashable, Codable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws {
        guard count >= 1 else { throw ShardError("the shard count must be at least 1, got \(count)") }
        guard (0..<count).contains(index) else {
            throw ShardError("shard \(index) is not one of 0...\(count - 1) (shards are counted from 0)")
        }
        self.index = index
        self.count = count
    }

    /// `I/N` as written on the command line, e.g. `2/8`.
    public var description: String { "\(index)/\(count)" }

    /// Whether a photo (by content hash) is this shard's.
    public func owns(contentHash: String) -> Bool {
        Shard.bucket(of: contentHash, among: count) == index
    }

    /// Whether a named thing (a collection output, a file that could not be hashed) is this shard's.
    public func owns(name: String) -> Bool {
        Shard.bucket(of: ContentHash.of(name), among: count) == index
    }

    /// The first 64 bits of a hex digest, modulo `count`: uniform, and the same on every machine.
    static func bucket(of hexDigest: String, among count: Int) -> Int {
        let value = UInt64(hexDigest.prefix(16), radix: 16) ?? 0
        return Int(value % UInt64(count))
    }

    /// Parses `--shard`: `I/N`, or `auto` / `auto/N` to take I (and N) from the array-job scheduler's
    /// environment (`JOB_COMPLETION_INDEX` on Kubernetes, `SLURM_ARRAY_TASK_ID` with
    /// `SLURM_ARRAY_TASK_MIN`/`SLURM_ARRAY_TASK_COUNT` on Slurm, `AWS_BATCH_JOB_ARRAY_INDEX` on AWS Batch).
    /// Kubernetes and AWS Batch do not tell a task how many there are: give N, or set `DARKROOM_SHARDS`.
    public static func parse(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, let first = parts.first, !first.isEmpty else {
            throw ShardError("--shard: expected I/N (e.g. 0/4), auto or auto/N, got '\(text)'")
        }
        let explicitCount: Int?
        if parts.count == 2 {
            guard let n = Int(parts[1]) else { throw ShardError("--shard: the count in '\(text)' is not a number") }
            explicitCount = n
        } else {
            explicitCount = nil
        }
        if first == "auto" {
            let found = try fromEnvironment(environment, countGiven: explicitCount != nil)
            return try Shard(index: found.index, count: explicitCount ?? found.count ?? {
                throw ShardError("--shard auto: \(found.source) gives this task's index but not how many tasks there are; "
                                 + "write --shard auto/N or set DARKROOM_SHARDS")
            }())
        }
        guard let index = Int(first) else { throw ShardError("--shard: the index in '\(text)' is not a number (or 'auto')") }
        guard let count = explicitCount else { throw ShardError("--shard: expected I/N (e.g. 0/4), got '\(text)'") }
        return try Shard(index: index, count: count)
    }

    /// On Slurm, without a declared count, the array's own range gives both (`--array=1-16`: task 1 is
    /// shard 0 of 16). With a count declared (`auto/N`, `DARKROOM_SHARDS`), the task id is the shard
    /// itself, so that re-running one task (`sbatch --array=7`) still runs shard 7 of N.
    private static func fromEnvironment(_ environment: [String: String], countGiven: Bool) throws -> (index: Int, count: Int?, source: String) {
        func number(_ key: String) throws -> Int? {
            guard let text = environment[key] else { return nil }
            guard let value = Int(text) else { throw ShardError("--shard auto: \(key)='\(text)' is not a number") }
            return value
        }
        let declared = try number("DARKROOM_SHARDS")
        if let task = try number("SLURM_ARRAY_TASK_ID") {
            if countGiven || declared != nil { return (task, declared, "SLURM_ARRAY_TASK_ID") }
            return (task - (try number("SLURM_ARRAY_TASK_MIN") ?? 0), try number("SLURM_ARRAY_TASK_COUNT"), "SLURM_ARRAY_TASK_ID")
        }
        if let index = try number("JOB_COMPLETION_INDEX") { return (index, declared, "JOB_COMPLETION_INDEX") }
        if let index = try number("AWS_BATCH_JOB_ARRAY_INDEX") { return (index, declared, "AWS_BATCH_JOB_ARRAY_INDEX") }
        throw ShardError("--shard auto: none of JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or AWS_BATCH_JOB_ARRAY_INDEX is set; "
                         + "give the shard as I/N")
    }
}

/// A `--shard` value that cannot be used.
public struct ShardError: RefusalError, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
