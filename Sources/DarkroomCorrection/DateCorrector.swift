import Foundation
import Logging
import DarkroomCore
import DarkroomLibrary
import DarkroomReport
import DarkroomPhotoMetadata

/// Corrects photos' capture dates in a library (`darkroom catalog set-date`).
///
/// Each photo gets a date with source `user` (the date the files gave kept in `overrides`); every
/// output whose template uses the date moves to where that template puts it now, and every output
/// that carries the date inside (a HEIC's EXIF and XMP, an XMP sidecar) is rewritten with the new
/// one (without re-encoding; where it is when it does not move), through the publisher like any new
/// output:
///
///     stage ──▶ journal ──▶ publish ──▶ commit ──▶ retract
///       │          │           │           │          └ the old paths removed
///       │          │           │           └ the new date, the new paths and the same units, in one transaction
///       │          │           └ the new paths journalled, linked into place
///       │          └ the old paths journalled: killed after the commit, recovery removes them
///       └ a hard link to each output at a temp path (or a rewritten copy), its SHA-256 checked against the catalog
///
/// Killed at any moment, the library holds each photo's old state or its new one; the files a kill
/// leaves behind are journalled, and the next run or correction removes them. A file rewritten where
/// it is replaces the old one atomically (old or new, whole); killed before the commit, the catalog
/// still has the old file's SHA-256, and the next correction takes the rewritten file as done.
/// Originals are never touched. A Live Photo's video moves with its still (its units are keyed by the still's date).
public final class DateCorrector {
    /// The library corrected.
    public let library: URL
    let catalog: CorrectableCatalog
    let logger: Logger
    /// The steps that made the outputs, from the pipeline files.
    let steps: OutputSteps

    /// A corrector of `library`'s dates in `catalog`. `pipelines` are pipeline files given on the
    /// command line, which win over those runs recorded; `loadPipeline` reads a recorded one.
    public init(library: URL, catalog: CorrectableCatalog, pipelines: [Pipeline] = [],
                loadPipeline: @escaping (String) throws -> Pipeline, logger: Logger = Logger(label: "darkroom")) throws {
        self.library = library.standardizedFileURL
        self.catalog = catalog
        self.logger = logger
        steps = OutputSteps(library: self.library, given: pipelines, recorded: try catalog.recordedPipelines(), load: loadPipeline)
    }

    /// Takes the library as a run does (exclusively), removes what a killed run or correction left,
    /// then plans and applies the correction. `store` opens the catalog once the library is locked.
    /// Throws `PipelinesNotFound` (nothing changed) when a pipeline file that made an output is missing.
    public static func correct(_ request: DateCorrectionRequest, library: URL, pipelines: [Pipeline] = [],
                               loadPipeline: @escaping (String) throws -> Pipeline, logger: Logger = Logger(label: "darkroom"),
                               store: () throws -> CorrectableCatalog) throws -> DateCorrectionReport {
        let lock = try LibraryLock(library: library, shared: false)
        defer { withExtendedLifetime(lock) {} }
        let catalog = try store()
        try LibraryRecovery.recover(catalog, library: library, logger: logger)
        let corrector = try DateCorrector(library: library, catalog: catalog, pipelines: pipelines, loadPipeline: loadPipeline, logger: logger)
        let report = try corrector.apply(try corrector.plan(request))
        // The journalled old paths are gone now: clear their notes.
        try LibraryRecovery.removeOrphans(catalog, library: library, logger: logger)
        return report
    }

    // MARK: Applying

    /// Applies a plan; the caller holds the library exclusively and has recovered it.
    func apply(_ plan: DateCorrectionPlan) throws -> DateCorrectionReport {
        let run = try catalog.beginRun(pipeline: "catalog set-date")
        let publisher = try Publisher(library: library, catalog: catalog, run: run, temporaryFolder: Publisher.sharedTemporaryFolder(library: library))
        var report = DateCorrectionReport(failures: plan.failures, notes: plan.notes)
        for photo in plan.photos {
            guard report.stopped == nil else {
                report.failures.append(.init(target: photo.asset.originalPath, reason: "not tried: the correction stopped"))
                continue
            }
            do {
                try apply(photo, publisher: publisher)
                report.photos.append(photo)
            } catch {
                report.failures.append(.init(target: photo.asset.originalPath, reason: "\(error)"))
                if DiskSpace.isFull(error, library: library) { report.stopped = "the disk is full: stopped; free some space and run again to finish" }
            }
        }
        var record = RunReport(pipeline: "catalog set-date", library: library.path)
        record.processed = report.photos.filter { !$0.isCurrent }.count
        record.skipped = report.photos.count - record.processed
        record.failed = report.failures.count
        record.failures = report.failures.map { RunReport.Failure(path: $0.target, step: "set-date", reason: $0.reason) }
        record.published = report.photos.flatMap { $0.moves.map(\.to) }
        try catalog.finishRun(run, report: record)
        return report
    }

    /// Moves one photo's files and records its date. Every file is staged and checked before
    /// anything changes; then each subject (the photo, then its Live Photo videos) is published and
    /// committed on its own.
    private func apply(_ photo: DateCorrectionPlan.Photo, publisher: Publisher) throws {
        let subjects = photo.subjects.filter { !$0.isCurrent }
        // Files are named by the still's id (a Live Photo's video too).
        let stillID = photo.subjects.first?.asset.id
        let publications = subjects.map { publisher.publication(subject: $0.asset.contentHash, source: $0.asset.originalPath, pathID: stillID) }
        defer { for publication in publications { publication.discard() } }
        for (subject, publication) in zip(subjects, publications) {
            for move in subject.moves {
                if move.rewritesDate, let date = subject.asset.captureDate {
                    try publication.stageRewrite(of: move.output, to: move.to) { try LibraryFileDates.rewriting($0, path: move.from, to: date) }
                } else {
                    try publication.stageMove(of: move.output, to: move.to)
                }
            }
        }
        for (subject, publication) in zip(subjects, publications) {
            // The old paths are journalled too: once the commit has retracted them from the catalog,
            // a kill before they are removed leaves them to the next recovery.
            try catalog.markPending(subject.moves.map(\.from), run: publisher.run)
            try publication.publish()
            try publication.commit(units: subject.units, asset: subject.asset, unchanged: subject.unchanged, to: catalog)
            logger.debug("\(subject.asset.originalPath): \(subject.asset.captureDate?.description ?? "-"); moved \(subject.moves.count) files")
        }
    }
}
