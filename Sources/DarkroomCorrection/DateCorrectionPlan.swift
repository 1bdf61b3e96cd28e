import Foundation
import DarkroomLibrary
import DarkroomModel

/// Which photos `darkroom catalog set-date` corrects, and how.
///
/// The photos are those the targets name, narrowed to a camera and a folder when those are given
/// (with no target, every photo of that camera or folder). A Live Photo's video is corrected with
/// its still.
public struct DateCorrectionRequest: Sendable, Hashable {
    /// Content ids, content hashes, originals' paths, or paths of the library's outputs.
    public var targets: [String]
    /// Only photos taken with this camera (`Make Model` as the catalog records it; case-insensitive).
    public var camera: String?
    /// Only photos whose original is under this folder.
    public var folder: String?
    /// The new date, or the shift.
    public var change: DateChange

    /// A request for the photos `targets` name (or all of `camera` and/or `folder`), changed by `change`.
    public init(targets: [String] = [], camera: String? = nil, folder: String? = nil, change: DateChange) {
        self.targets = targets
        self.camera = camera
        self.folder = folder
        self.change = change
    }
}

/// What a date correction does: for each photo its new date and the files that move, worked out
/// from the catalog and the pipelines' templates before anything changes.
public struct DateCorrectionPlan: Sendable {
    /// An output that moves to where its step's template puts it at the new date, or that carries
    /// the date inside (a HEIC's EXIF and XMP, an XMP sidecar) and is rewritten with the new one
    /// (where it is, when its place does not change).
    public struct Move: Sendable, Hashable {
        /// The catalog step that made it (`import-camera-roll/heic-encode`).
        public var step: String { output.step }
        /// Where it is.
        public var from: String { output.path }
        /// Where it goes (`from` when it only has its date rewritten).
        public var to: String
        /// Whether the date it carries inside is rewritten.
        public var rewritesDate: Bool
        /// The catalog's record of it (size and SHA-256, checked before it moves).
        let output: CatalogOutput
        /// Whether it changes place.
        public var moves: Bool { from != to }
    }

    /// One catalog subject re-dated: a photo or video, or a Live Photo's video moving with its still.
    public struct Subject: Sendable {
        /// The asset as it will be recorded, with its new date.
        public var asset: AssetFacts
        /// Its date before.
        public var previous: CaptureDate?
        /// Its outputs that move.
        public var moves: [Move]
        /// The units committed again (unchanged, or for a motion part, keyed by the new date).
        var units: [UnitCompletion.Unit]
        /// Outputs of those units that stay where they are.
        var unchanged: [PublishedOutput]
        /// Whether it already has the date and its files their places (a correction run again).
        public var isCurrent: Bool
    }

    /// A photo (or video) to correct, with its Live Photo videos.
    public struct Photo: Sendable {
        /// The photo first, then its Live Photo videos.
        public var subjects: [Subject]
        /// The photo as it will be recorded.
        public var asset: AssetFacts { subjects[0].asset }
        /// Its date before.
        public var previous: CaptureDate? { subjects[0].previous }
        /// Every file that moves.
        public var moves: [Move] { subjects.flatMap(\.moves) }
        /// Whether nothing is left to do for it.
        public var isCurrent: Bool { subjects.allSatisfy(\.isCurrent) }
    }

    /// Something named on the command line, or a file, and what is wrong with it.
    public struct Problem: Sendable, Hashable, Codable {
        /// The target as given, a selector (`--camera ...`), an original's or an output's path.
        public var target: String
        /// Why it failed or was left alone.
        public var reason: String
    }

    /// The photos to correct, each with its Live Photo videos.
    public var photos: [Photo] = []
    /// Targets that name no photo, photos that cannot take the change.
    public var failures: [Problem] = []
    /// Outputs that stay where they are though their template uses the date, with why.
    public var notes: [Problem] = []

    /// What would be done, for `--dry-run`.
    public var text: String {
        DateCorrectionPlan.lines(photos: photos, failures: failures, notes: notes, done: false).joined(separator: "\n")
    }

    /// One line per photo (with its moves), note and failure, then a summary; `done` says whether it was done.
    static func lines(photos: [Photo], failures: [Problem], notes: [Problem], done: Bool) -> [String] {
        var lines: [String] = []
        for photo in photos {
            guard !photo.isCurrent else {
                lines.append("\(photo.asset.originalPath): already \(photo.asset.captureDate?.stamp ?? "-") (user)")
                continue
            }
            let before = photo.previous.map { "\($0.stamp) (\($0.source.rawValue))" } ?? "no date"
            lines.append("\(photo.asset.originalPath): \(before) -> \(photo.asset.captureDate?.stamp ?? "-")")
            for subject in photo.subjects.dropFirst() where !subject.moves.isEmpty {
                // A still's parts: Live Photo videos, and the RAW of a RAW+JPEG pair (a photo).
                let part = subject.asset.mediaKind == .video ? "Live Photo video" : "RAW"
                lines.append("  with its \(part) \(subject.asset.originalPath)")
            }
            lines += photo.moves.map { $0.moves ? "  \($0.from) -> \($0.to)" : "  \($0.from): its date set inside the file" }
        }
        lines += notes.map { "note: \($0.target): \($0.reason)" }
        lines += failures.map { "failed: \($0.target): \($0.reason)" }
        let changing = photos.filter { !$0.isCurrent }
        let files = changing.reduce(0) { $0 + $1.moves.filter(\.moves).count }
        lines.append((done ? "" : "dry run: ") + English.count(changing.count, "photo") + (done ? " re-dated, " : " to re-date, ")
                     + "\(photos.count - changing.count) already so, \(failures.count) failed; "
                     + English.count(files, "file") + (done ? " moved" : " to move"))
        return lines
    }
}

/// What a date correction did.
public struct DateCorrectionReport: Sendable {
    /// The photos re-dated, and those that already had the date.
    public var photos: [DateCorrectionPlan.Photo] = []
    /// Targets and photos that failed, with the reason; the others were corrected.
    public var failures: [DateCorrectionPlan.Problem] = []
    /// Outputs left where they were though their template uses the date.
    public var notes: [DateCorrectionPlan.Problem] = []
    /// Why it stopped before the end (a full disk), if it did.
    public var stopped: String?

    /// Whether every photo named was corrected.
    public var succeeded: Bool { failures.isEmpty && stopped == nil }

    /// What was done, for a terminal.
    public var text: String {
        var lines = DateCorrectionPlan.lines(photos: photos, failures: failures, notes: notes, done: true)
        if let stopped { lines.append("error: \(stopped)") }
        return lines.joined(separator: "\n")
    }
}
