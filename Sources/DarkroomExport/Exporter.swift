import DarkroomCore
import DarkroomLibrary
import DarkroomModel
import DarkroomRuntime
import DarkroomVips
import Foundation

/// `darkroom export`: the photos a selection picks in a library, written to a folder or an
/// archive for people (JPEG), as HEIC, or as their originals with what the library knows.
///
///     let exporter = Exporter(library: library, catalog: catalog, settings: ExportSettings())
///     let plan = try exporter.plan(ExportSelection(days: try ExportSelection.month("2024-05")), to: .folder(out))
///     let report = try exporter.run(plan)
///
/// Photos are rendered `jobs` at a time on threads of their own (libvips' threads divided between
/// them) and written one at a time, in capture order, by the thread whose turn it is: an archive's
/// entries come out in order and at most `jobs` rendered photos wait in memory. A photo that fails
/// (its library file missing or damaged) is reported with its file and the reason and the others
/// go on; a full disk stops the export, leaving no partial file (and no partial archive).
public struct Exporter: Sendable {
    public let library: URL
    public let catalog: CorrectableCatalog
    public let settings: ExportSettings
    private let metadata = PhotoMetadataReader()

    /// An exporter of `library`, whose catalog is `catalog`.
    public init(library: URL, catalog: CorrectableCatalog, settings: ExportSettings) {
        self.library = library.standardizedFileURL
        self.catalog = catalog
        self.settings = settings
    }

    /// Starts the native libraries (libvips, FFmpeg, libheif) on the calling thread and gives each
    /// photo in flight its share of the cores. Call it before `plan` and `run`.
    public static func prepare(jobs: Int) throws {
        try NativeRuntime.start(threadsPerOperation: threadsPerPhoto(jobs: jobs))
    }

    /// Cores divided by the photos in flight, at least one.
    static func threadsPerPhoto(jobs: Int) -> Int { max(1, ProcessInfo.processInfo.activeProcessorCount / max(1, jobs)) }

    // MARK: Planning

    /// What exporting `selection` to `destination` would do, reading the destination's record of
    /// earlier exports; writes nothing.
    public func plan(_ selection: ExportSelection, to destination: ExportDestination) throws -> ExportPlan {
        try plan(selection, target: try Self.target(destination), destination: destination)
    }

    private func plan(_ selection: ExportSelection, target: ExportTarget, destination: ExportDestination) throws -> ExportPlan {
        var (candidates, unmatched) = try ExportCandidates(catalog: catalog, library: library).select(selection)
        if selection.needsDescription {
            let reader = metadata, library = self.library, undescribed = candidates
            let described = DarkroomThreads.map(count: undescribed.count, jobs: settings.jobs) { index -> ExportCandidate in
                var candidate = undescribed[index]
                candidate.description = reader.read(libraryFile: candidate.libraryFile.map { library.appendingPathComponent($0) },
                                                    original: URL(fileURLWithPath: candidate.asset.originalPath)).description
                return candidate
            }
            candidates = described.filter { selection.accepts($0.description ?? PhotoDescription()) }
        }
        let recordedNames = target.records.values.flatMap(\.files)
        var namer = ExportNamer(naming: settings.naming, taken: target.existingNames.union(recordedNames), count: candidates.count)
        var items: [ExportPlan.Item] = []
        for candidate in candidates {
            let extensions = fileExtensions(candidate)
            let record = target.records[candidate.asset.contentHash]
            if let record, record.settings == settings.key, record.files.count == extensions.count, target.isPresent(record) {
                items.append(item(candidate, .skip, names: record.files))
                continue
            }
            // Written again (other settings, a file gone): under its earlier name where the extensions allow.
            let earlier = record.flatMap { $0.files.first }.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
            let base = namer.name(for: candidate.asset, extensions: extensions, preferring: earlier, ownNames: record?.files ?? [])
            items.append(item(candidate, record == nil ? .export : .replace, names: extensions.map { "\(base).\($0)" }))
        }
        return ExportPlan(destination: destination, settings: settings, items: items, unmatched: unmatched)
    }

    /// The extensions of a candidate's files: its own, its motion part's, its sidecar's.
    private func fileExtensions(_ candidate: ExportCandidate) -> [String] {
        let own = candidate.isVideo ? (settings.format == .original ? Self.originalExtension(candidate) : "mp4")
                                    : settings.photoExtension(original: candidate.asset.originalPath)
        var extensions = [own]
        if settings.motion, let motion = candidate.motion {
            extensions.append(URL(fileURLWithPath: motion.originalPath ?? motion.libraryFile).pathExtension.lowercased())
        }
        if settings.format == .original { extensions.append("\(own).xmp") }
        return extensions
    }

    private static func originalExtension(_ candidate: ExportCandidate) -> String {
        URL(fileURLWithPath: candidate.asset.originalPath).pathExtension.lowercased()
    }

    private func item(_ candidate: ExportCandidate, _ action: ExportPlan.Action, names: [String]) -> ExportPlan.Item {
        var rest = names.dropFirst()
        let motion = settings.motion && candidate.motion != nil ? rest.popFirst() : nil
        let sidecar = settings.format == .original ? rest.popFirst() : nil
        return ExportPlan.Item(candidate: candidate, action: action, mainFile: names[0], motionFile: motion, sidecarFile: sidecar)
    }

    // MARK: Running

    /// Exports what `plan` says. Throws only when the export cannot start (the destination cannot
    /// be made or read); failures of photos and a full disk are in the report.
    public func run(_ plan: ExportPlan, progress: RunProgress? = nil) throws -> ExportReport {
        let started = Date()
        let work = plan.work
        var report = ExportReport(destination: plan.destination.url.path, selected: plan.items.count,
                                  alreadyExported: plan.items.count - work.count, failures: plan.unmatched)
        guard !work.isEmpty else {
            report.seconds = Date().timeIntervalSince(started)
            return report
        }
        let target = try Self.target(plan.destination)
        do {
            try target.begin(replacing: Set(work.filter { $0.action == .replace }.map(\.candidate.asset.contentHash)))
        } catch let stop as ExportStop {
            report.stopped = stop.description
            return report
        }
        let outcome = publishAll(work, to: target, progress: progress)
        report.exported = outcome.exported
        report.failures += outcome.failures
        if let stop = outcome.stop {
            target.abandon()
            let missing = work.count - outcome.exported.count - outcome.failures.count
            report.stopped = "\(stop)" + (missing > 0 ? "; \(missing) \(missing == 1 ? "photo" : "photos") not exported" : "")
            if case .zip = plan.destination { report.exported = [] }
        } else {
            do { try target.finish() } catch {
                target.abandon()
                report.stopped = "\(error)"
                if case .zip = plan.destination { report.exported = [] }
            }
        }
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// What the workers share: whose turn it is to write, and what has been written.
    private struct Progress: Sendable {
        var turn = 0
        var exported: [ExportReport.Exported] = []
        var failures: [ExportFailure] = []
        var stop: ExportStop?
    }

    /// Renders `work` on `jobs` threads and writes each photo's files in order.
    private func publishAll(_ work: [ExportPlan.Item], to target: ExportTarget,
                            progress: RunProgress?) -> (exported: [ExportReport.Exported], failures: [ExportFailure], stop: ExportStop?) {
        let state = Monitor(Progress())
        let renderer = PhotoRenderer(library: library, settings: settings, metadata: metadata,
                                     threadsPerPhoto: Self.threadsPerPhoto(jobs: settings.jobs))
        let box = UncheckedTarget(target)
        let scratch = target.scratch
        let library = self.library
        DarkroomThreads.forEach(count: work.count, jobs: settings.jobs) { index in
            let item = work[index]
            let source = Self.source(of: item.candidate, library: library, format: renderer.settings.format)
            progress?.stepStarted("export", on: source)
            var rendered: Result<[ExportedFile], Error> = .failure(CancellationError())
            if state.withLock({ $0.stop == nil }) {
                rendered = Result { try renderer.files(for: item, scratch: scratch) }
            }
            state.wait(until: { $0.turn == index }) { _ in }
            let stopped = state.withLock { $0.stop != nil }
            var outcome: Result<Void, Error> = .success(())
            switch rendered {
            case .success(let files) where !stopped:
                let record = ExportRecord(subject: item.candidate.asset.contentHash, settings: renderer.settings.key, files: item.files)
                outcome = Result { try box.target.publish(files, record: record) }
                Self.removeTemporaries(files)
            case .success(let files):
                Self.removeTemporaries(files)
            case .failure(let error):
                outcome = .failure(error)
            }
            state.withLock { progressState in
                defer { progressState.turn += 1 }
                guard progressState.stop == nil else { return }
                switch outcome {
                case .success:
                    progressState.exported.append(ExportReport.Exported(id: item.candidate.asset.id.uuidString.lowercased(),
                                                                        original: item.candidate.asset.originalPath, files: item.files))
                case .failure(let stop as ExportStop):
                    progressState.stop = stop
                case .failure(let error) where DiskSpace.isFull(error, library: scratch):
                    progressState.stop = ExportStop(path: scratch.path, reason: "disk full while writing \(item.mainFile) (\(error)): the export stopped")
                case .failure(let error as ExportFileError):
                    progressState.failures.append(ExportFailure(path: error.path, reason: error.reason))
                case .failure(let error):
                    progressState.failures.append(ExportFailure(path: source, reason: "\(error)"))
                }
            }
            progress?.inputFinished(source, finished: index + 1, total: work.count, bytes: 0)
        }
        return state.withLock { ($0.exported, $0.failures, $0.stop) }
    }

    /// The file a photo is exported from: its library file, else (or for `--format original`) its original.
    static func source(of candidate: ExportCandidate, library: URL, format: ExportFormat) -> String {
        if format == .original { return candidate.asset.originalPath }
        return candidate.libraryFile.map { library.appendingPathComponent($0).path } ?? candidate.asset.originalPath
    }

    private static func removeTemporaries(_ files: [ExportedFile]) {
        for file in files {
            if case .file(let url, temporary: true) = file.content { unlink(url.path) }
        }
    }

    /// The folder or archive of a destination.
    static func target(_ destination: ExportDestination) throws -> ExportTarget {
        switch destination {
        case .folder(let url): return try FolderTarget(folder: url)
        case .zip(let url): return try ZipTarget(archive: url)
        }
    }
}

/// The destination, handed to the worker whose turn it is to write (one at a time: `Monitor`'s
/// turn orders them), so its non-Sendable state is never touched by two threads at once.
private final class UncheckedTarget: @unchecked Sendable {
    let target: ExportTarget
    init(_ target: ExportTarget) { self.target = target }
}
