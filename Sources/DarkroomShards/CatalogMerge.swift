import DarkroomCore
import Foundation
import DarkroomLibrary
import DarkroomModel
import DarkroomReport

/// Folds the manifests of a sharded sweep into a catalog (`darkroom catalog merge`).
///
/// Per subject (a photo, or a collection step), the shards' completions are joined: a photo's come
/// from its one shard; a collection's outputs are spread over all shards, and its unit is recorded
/// only when every shard of the sweep finished it (otherwise the next run makes the missing outputs).
/// Outputs whose file is gone are not recorded. Files a shard linked but never recorded (it was
/// killed) are removed, and files it replaced without recording the new one get their old bytes
/// back. Merged manifests move to `.darkroom/shards/merged/<time>-run<id>/`.
public struct CatalogMerge {
    public let library: URL

    public init(library: URL) { self.library = library }

    /// What a merge did.
    public struct Report: Codable, Sendable {
        public var manifests: [String] = []
        public var photos = 0
        public var collections = 0
        public var outputs = 0
        /// Outputs of earlier options, deleted.
        public var retracted: [String] = []
        /// Files killed shards left in the library without recording them, deleted.
        public var orphansRemoved: [String] = []
        /// Collections whose unit was not recorded because some shard did not finish them.
        public var incompleteCollections: [String] = []
        /// The shards' failures, each once.
        public var failures: [RunReport.Failure] = []
        /// Manifest lines torn by a crash, skipped.
        public var unreadableLines = 0
        /// The manifests those lines were in.
        public var tornManifests: [String] = []

        /// Lines for a terminal.
        public var text: String {
            var lines = ["merged \(manifests.count) shard manifests: \(photos) photos, \(collections) collections, "
                         + "\(outputs) outputs recorded, \(retracted.count) stale outputs and \(orphansRemoved.count) orphans removed, "
                         + "\(failures.count) failures"]
            lines += incompleteCollections.map { "  not finished by every shard (made again by the next run): \($0)" }
            lines += failures.sorted { $0.path < $1.path }.map { "  failed: \($0.path) [\($0.step)]: \($0.reason)" }
            if unreadableLines > 0 { lines.append("  \(unreadableLines) torn manifest lines skipped (in \(tornManifests.joined(separator: ", ")))") }
            return lines.joined(separator: "\n")
        }
    }

    /// A shard that started and never finished: still running, or killed and not run again.
    public struct UnfinishedShard: RefusalError, CustomStringConvertible {
        public var manifests: [String]
        public var description: String {
            "these shards have not finished (still running, killed and not retried, or never started): "
                + manifests.joined(separator: ", ") + "; wait for them or run them again, or merge with --partial"
        }
    }

    /// Merges every manifest in `.darkroom/shards` into `catalog`. Refuses when a shard has not
    /// finished, unless `partial` (then only its recorded work is taken, and its files are kept).
    public func merge(into catalog: CatalogStore, partial: Bool = false) throws -> Report {
        let folder = ShardManifest.folder(library: library)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".jsonl") }.sorted()
        var report = Report()
        var shardsOfSweep: [String: Int] = [:]
        var completions: [String: [(manifest: String, completion: UnitCompletion)]] = [:]
        var pending = Set<String>()
        var hashes: [FileFingerprint] = []
        var failures = Set<RunReport.Failure>()
        var unfinished: [String] = []
        var pipeline = ""
        for name in names {
            let contents = try ShardManifest.records(at: folder.appendingPathComponent(name))
            let torn = contents.unreadable + (contents.tornTail ? 1 : 0)
            report.unreadableLines += torn
            if torn > 0 { report.tornManifests.append(name) }
            var finished = true
            for record in contents.records {
                switch record {
                case .start(let file, let shard, _, _, _):
                    pipeline = file
                    shardsOfSweep[ShardManifest.sweep(ofManifest: name)] = shard.count
                    finished = false
                case .hashes(let list): hashes += list
                case .pending(let paths): pending.formUnion(paths)
                case .commit(let completion): completions[completion.subject, default: []].append((name, completion))
                case .finish(let result):
                    finished = true
                    failures.formUnion(result.failures)
                }
            }
            if !finished { unfinished.append(name) }
            report.manifests.append(name)
        }
        for (sweep, count) in shardsOfSweep {
            let present = Set(names.filter { ShardManifest.sweep(ofManifest: $0) == sweep })
            let expected = (0..<count).map { sweep.replacingOccurrences(of: ".of-\(count).jsonl", with: ".\($0)-of-\(count).jsonl") }
            unfinished += expected.filter { !present.contains($0) }.map { "\($0) (never started)" }
        }
        if !unfinished.isEmpty && !partial { throw UnfinishedShard(manifests: unfinished.sorted()) }

        let runID = try catalog.beginRun(pipeline: "merge of \(names.count) shard manifests: \(pipeline)")
        try catalog.rememberHashes(hashes)
        var recorded = Set<String>()
        for subject in completions.keys.sorted() {
            let parts = completions[subject]!
            var merged = UnitCompletion(subject: subject, units: [], outputs: [], asset: nil)
            var outputs: [String: PublishedOutput] = [:]
            var units: [String: String] = [:]
            for part in parts {
                for unit in part.completion.units { units[unit.step] = unit.key }
                for output in part.completion.outputs { outputs[output.path] = output }
                merged.asset = part.completion.asset ?? merged.asset
            }
            merged.outputs = outputs.values.filter { output in
                FileInfo(path: library.appendingPathComponent(output.path).path).map { $0.isRegularFile && $0.size == output.size } ?? false
            }.sorted { $0.path < $1.path }
            merged.units = units.sorted { $0.key < $1.key }.map { UnitCompletion.Unit(step: $0.key, key: $0.value) }
            if subject.hasPrefix("collection:") {
                report.collections += 1
                let sweeps = Set(parts.map { ShardManifest.sweep(ofManifest: $0.manifest) })
                let complete = sweeps.contains { sweep in
                    Set(parts.filter { ShardManifest.sweep(ofManifest: $0.manifest) == sweep }.map(\.manifest)).count == shardsOfSweep[sweep]
                }
                if !complete {
                    merged.units = []
                    report.incompleteCollections.append(subject)
                }
            } else {
                report.photos += 1
            }
            let stale = try catalog.commit(merged, run: runID)
            for path in stale { LibraryFiles.retract(path, library: library) }
            report.retracted += stale
            report.outputs += merged.outputs.count
            recorded.formUnion(merged.outputs.map(\.path))
        }
        if unfinished.isEmpty {
            for path in pending.sorted() where !recorded.contains(path) {
                // A replaced file's old bytes: not needed once the merge recorded the new file, else put back.
                if let replaced = LibraryFiles.replacedPath(ofKeptAside: path) {
                    if recorded.contains(replaced) { LibraryFiles.dropKeptAside(replaced, library: library) } else {
                        LibraryRecovery.undo(path, library: library, logger: nil)
                    }
                    continue
                }
                guard try catalog.output(at: path) == nil,
                      LibraryFiles.holdsFile(path, library: library) else { continue }
                LibraryFiles.retract(path, library: library)
                report.orphansRemoved.append(path)
            }
        }
        report.failures = failures.sorted { ($0.path, $0.step) < ($1.path, $1.step) }
        var summary = RunReport(pipeline: "merge", library: library.path)
        summary.processed = report.photos
        summary.failures = report.failures
        summary.published = Array(recorded).sorted()
        try catalog.finishRun(runID, report: summary)

        // One folder per merge, named by time and the merge's run id (two merges may fall in one second).
        let stamp = Timestamp.now().replacingOccurrences(of: ":", with: "")
        let done = folder.appendingPathComponent("merged/\(stamp)-run\(runID)", isDirectory: true)
        try FileManager.default.createDirectory(at: done, withIntermediateDirectories: true)
        for name in names where !unfinished.contains(name) {
            try FileManager.default.moveItem(at: folder.appendingPathComponent(name), to: done.appendingPathComponent(name))
        }
        return report
    }
}

extension ShardManifest {
    /// The sweep a manifest belongs to: its name without the shard index (`import.0-of-4.jsonl` → `import.of-4`).
    static func sweep(ofManifest name: String) -> String {
        name.replacingOccurrences(of: #"\.\d+-of-"#, with: ".of-", options: .regularExpression)
    }
}
