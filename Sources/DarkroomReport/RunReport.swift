import Foundation
import DarkroomModel

/// What a run did: counts, every failure with its reason, and what was published.
public struct RunReport: Codable, Sendable {
    /// A file (or collection step) that failed, or a file passed over, and why.
    public struct Failure: Codable, Sendable, Hashable {
        public var path: String
        public var step: String
        public var reason: String
        /// What is counted: for a failure, its kind (`truncated`, a `FailureKind` label; nil: an
        /// error of its step); for a file passed over, what it is (`.AAE edit sidecar`, `hidden file`).
        public var kind: String? = nil

        public init(path: String, step: String, reason: String, kind: String? = nil) {
            self.path = path; self.step = step; self.reason = reason; self.kind = kind
        }
    }

    /// A sidecar read with its photo (`of`), and how it was matched.
    public struct SidecarUse: Codable, Sendable, Hashable {
        public var path: String
        /// The photo or video it belongs to.
        public var of: String
        /// Its kind (`Google Takeout JSON`, `XMP sidecar`).
        public var kind: String
        /// How it was matched (`named after IMG_1.jpg with .supplemental-metadata`).
        public var reason: String

        public init(path: String, of: String, kind: String, reason: String) {
            self.path = path; self.of = of; self.kind = kind; self.reason = reason
        }
    }

    /// A photo dated this run with low confidence, and why (`from its file time`).
    public struct LowConfidenceDate: Codable, Sendable, Hashable {
        public var path: String
        /// Why the date is not trusted, completing "dated ..." (`from its file time`).
        public var why: String

        public init(path: String, why: String) {
            self.path = path; self.why = why
        }
    }

    /// An input that was the same photo as another input of this run.
    public struct Duplicate: Codable, Sendable, Hashable {
        public var path: String
        public var sameAs: String

        public init(path: String, sameAs: String) {
            self.path = path; self.sameAs = sameAs
        }
    }

    /// A RAW filed with the camera's JPEG or HEIC of the same shot (`sameAs`), and whether its bytes
    /// were kept in the library (`raw-originals: keep`).
    public struct RawOriginal: Codable, Sendable, Hashable {
        public var path: String
        public var sameAs: String
        public var kept: Bool

        public init(path: String, sameAs: String, kept: Bool) {
            self.path = path; self.sameAs = sameAs; self.kept = kept
        }
    }

    /// An input the run processed, or found already done, with what a person looking at the run
    /// wants to see of it: its id, its capture date (and where that came from), its library files.
    public struct File: Codable, Sendable, Hashable {
        /// Whether this run made its files or found them made.
        public enum Outcome: String, Codable, Sendable {
            case processed
            /// Its work was all done by an earlier run.
            case done
        }

        public var path: String
        /// The id in its library paths (`{id}`).
        public var id: String
        public var outcome: Outcome
        public var captureDate: CaptureDate?
        /// Library-relative paths of every file the catalog holds for it after the run.
        public var outputs: [String]

        public init(path: String, id: String, outcome: Outcome, captureDate: CaptureDate?, outputs: [String]) {
            self.path = path; self.id = id; self.outcome = outcome; self.captureDate = captureDate; self.outputs = outputs
        }
    }

    /// Figures a collection step found about one file it used (an aligned photo's shift, angle and
    /// scale), or in words why it has none (why a photo could not be aligned).
    public struct ItemFacts: Codable, Sendable, Hashable {
        public var path: String
        public var step: String
        /// What the figures are of (`alignment`).
        public var topic: String
        /// The figures by name (`shiftX`, `shiftY`, `angle`, `scale`); empty when there are none.
        public var figures: [String: Double]
        /// What the figures do not say: how they were found, or why there are none.
        public var note: String?

        public init(path: String, step: String, topic: String, figures: [String: Double], note: String? = nil) {
            self.path = path; self.step = step; self.topic = topic; self.figures = figures; self.note = note
        }
    }

    public var pipeline: String
    public var library: String
    /// Files found under the inputs: the pipeline's inputs and the files passed over.
    public var found = 0
    /// Photos that had work to do and completed it.
    public var processed = 0
    /// Photos whose work was all done already (no decoding).
    public var skipped = 0
    /// Inputs that are byte-identical to another input.
    public var duplicates = 0
    /// Photos or collection steps that failed.
    public var failed = 0
    /// Inputs never tried because the run stopped early.
    public var notAttempted = 0
    /// Why the run stopped before the end (a full disk), if it did.
    public var stopped: String?
    public var failures: [Failure] = []
    public var duplicateFiles: [Duplicate] = []
    /// Files passed over without being read (videos in a photo pipeline, sidecars, hidden files,
    /// symbolic links, unreadable folders), with the reason.
    public var passedOver: [Failure] = []
    /// Videos imported on their own by an earlier run, joined this run to their Live Photo's still
    /// (`sameAs`) as its motion part.
    public var joinedMotionParts: [Duplicate] = []
    /// Videos this run filed as a Live Photo's motion part, with their still (`sameAs`): counted
    /// with the other files, but filed with their still, not as videos of their own.
    public var livePhotoVideos: [Duplicate] = []
    /// RAWs this run filed as the RAW of a RAW+JPEG pair, with the camera's JPEG or HEIC of the shot
    /// (`sameAs`): kept byte for byte under its id, or not kept (`raw-originals: skip`). Nil in
    /// reports written before Darkroom paired RAWs, which still decode.
    public var rawOriginals: [RawOriginal]?
    /// RAWs beside a JPEG or HEIC of the same name that is not the same shot (another camera, another
    /// moment), imported as photos of their own, with why (listed with `--verbose`).
    public var unpairedRaws: [Failure]?
    /// Things a user should know about files that were still processed (a motion photo whose video
    /// is missing), with the step that noticed.
    public var warnings: [Failure] = []
    /// Figures collection steps found about the files they used, in the order reported (the time-lapse's
    /// and the then-and-now collage's alignment of each photo: `figures` shiftX, shiftY in output pixels,
    /// angle in degrees, scale; `note` how it was found or why it could not be). Nil when no step reported
    /// any (and in reports written before Darkroom recorded them, which still decode).
    public var itemFacts: [ItemFacts]?
    /// Sidecars read with their photos (Takeout JSON, XMP), each listed with its photo.
    public var sidecars: [SidecarUse] = []
    /// Photos without a sidecar of a kind others of the run have (a Takeout export's photo
    /// without its JSON), by kind: dated from their own metadata alone.
    public var withoutSidecar: [String: [String]] = [:]
    /// Photos dated this run with low confidence (file time, a day without a time, this machine's
    /// time zone), for `darkroom explain`.
    public var lowConfidenceDates: [LowConfidenceDate] = []
    /// Files published into the library this run (library-relative paths).
    public var published: [String] = []
    /// Every input processed or already done, with its id, date and files (nil in reports written
    /// before Darkroom recorded them, which still decode).
    public var files: [File]?
    public var seconds: Double = 0
    /// The shard this report is of (`I/N`), in a sharded sweep.
    public var shard: String?

    public init(pipeline: String, library: String) {
        self.pipeline = pipeline
        self.library = library
    }

    /// Whether everything that was tried succeeded.
    public var succeeded: Bool { failures.isEmpty && stopped == nil }

    /// The human summary printed at the end of a run, passed-over files counted by kind.
    public var summary: String { summary(listingPassedOver: false) }

    /// How many failures the summary lists before pointing at the full report.
    public static let listedFailures = 20

    /// The summary; with `listingPassedOver` (`--verbose`) every passed-over file and every failure
    /// is listed too.
    ///
    ///     9 found: 5 processed, 1 already done, 1 duplicate, 2 failed (2 truncated) (4.2 s); 10 files written
    public func summary(listingPassedOver: Bool) -> String {
        var counts = "\(found) found: \(processed) processed, \(skipped) already done, "
            + "\(English.count(duplicates, "duplicate")), \(failed) failed"
        if !failures.isEmpty { counts += " (" + RunReport.counted(failures.map { $0.kind ?? "\($0.step) error" }) + ")" }
        if !sidecars.isEmpty { counts += ", " + English.count(Set(sidecars.map(\.path)).count, "sidecar") + " read" }
        if !livePhotoVideos.isEmpty { counts += "; " + English.count(livePhotoVideos.count, "Live Photo video")
            + (livePhotoVideos.count == 1 ? " filed with its still" : " filed with their stills") }
        counts += rawOriginalCounts
        if !passedOver.isEmpty { counts += ", \(passedOver.count) passed over: " + RunReport.countedByKind(passedOver) }
        var lines = [(shard.map { "shard \($0): " } ?? "") + counts
                     + String(format: " (%.1f s); ", seconds) + English.count(published.count, "file") + " written"]
        if let stopped { lines.append("error: \(stopped); \(English.count(notAttempted, "file")) not tried") }
        let sortedFailures = failures.sorted(by: { $0.path < $1.path })
        let shown = listingPassedOver ? sortedFailures : Array(sortedFailures.prefix(Self.listedFailures))
        for failure in shown {
            lines.append("  failed: \(failure.path) [\(failure.step)]: \(failure.reason)")
        }
        if shown.count < sortedFailures.count {
            lines.append("  ... and \(sortedFailures.count - shown.count) more failures: --verbose lists them all, --report run.json keeps them")
        }
        for warning in warnings.sorted(by: { $0.path < $1.path }) {
            lines.append("  warning: \(warning.path) [\(warning.step)]: \(warning.reason)")
        }
        for duplicate in duplicateFiles.sorted(by: { $0.path < $1.path }) {
            lines.append("  duplicate: \(duplicate.path) is the same \(MediaKind(fileName: duplicate.path)) as \(duplicate.sameAs)")
        }
        for joined in joinedMotionParts.sorted(by: { $0.path < $1.path }) {
            lines.append("  joined: \(joined.path), imported earlier as a video, is the Live Photo video of \(joined.sameAs)")
        }
        for (kind, paths) in withoutSidecar.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(English.count(paths.count, filesAt: paths)) without a \(kind), dated from \(paths.count == 1 ? "its" : "their") own metadata:")
            let shown = listingPassedOver ? paths : Array(paths.prefix(Self.listedFailures))
            lines += shown.map { "    \($0)" }
            if shown.count < paths.count { lines.append("    ... and \(paths.count - shown.count) more: --verbose lists them all") }
        }
        if listingPassedOver {
            for sidecar in sidecars.sorted(by: { ($0.of, $0.path) < ($1.of, $1.path) }) {
                lines.append("  sidecar of \((sidecar.of as NSString).lastPathComponent): \(sidecar.path) (\(sidecar.reason))")
            }
            for video in livePhotoVideos.sorted(by: { $0.path < $1.path }) {
                lines.append("  Live Photo: \(video.path) is the video of \(video.sameAs)")
            }
            for raw in (rawOriginals ?? []).sorted(by: { $0.path < $1.path }) {
                lines.append("  RAW+JPEG: \(raw.path) is the RAW of \(raw.sameAs)\(raw.kept ? "" : " (not kept: raw-originals: skip)")")
            }
            for raw in (unpairedRaws ?? []).sorted(by: { $0.path < $1.path }) {
                lines.append("  not a RAW+JPEG pair: \(raw.path): \(raw.reason)")
            }
            for item in passedOver.sorted(by: { $0.path < $1.path }) {
                lines.append("  passed over: \(item.path): \(item.reason)")
            }
        }
        if let hint = lowConfidenceHint { lines.append(hint) }
        return lines.map(TerminalText.escaped).joined(separator: "\n")
    }

    /// "; 2 RAW originals kept with their JPEGs", "; 1 RAW of a RAW+JPEG pair not kept (raw-originals: skip)".
    private var rawOriginalCounts: String {
        let raws = rawOriginals ?? []
        let kept = raws.filter(\.kept).count, dropped = raws.count - kept
        var text = ""
        if kept > 0 { text += "; " + English.count(kept, "RAW original") + (kept == 1 ? " kept with its JPEG" : " kept with their JPEGs") }
        if dropped > 0 { text += "; " + (dropped == 1 ? "1 RAW of a RAW+JPEG pair" : "\(dropped) RAWs of RAW+JPEG pairs")
            + " not kept (raw-originals: skip)" }
        return text
    }

    /// The next useful command when some dates are low confidence: `3 photos dated from their file
    /// time (low confidence): darkroom explain PATH shows why`.
    package var lowConfidenceHint: String? {
        guard let first = lowConfidenceDates.min(by: { $0.path < $1.path }) else { return nil }
        let groups = Dictionary(grouping: lowConfidenceDates, by: \.why)
            .sorted { $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key }
        let parts = groups.enumerated().map { position, group in
            let count = group.value.count
            let why = count == 1 ? group.key.replacingOccurrences(of: "their", with: "its") : group.key
            return position == 0 ? "\(English.count(count, filesAt: group.value.map(\.path))) dated \(why)" : "\(count) \(why)"
        }
        return parts.joined(separator: ", ") + " (low confidence): darkroom explain \(RunReport.shellQuoted(first.path)) shows why"
    }

    /// A path as a shell reads it back: quoted when it holds anything but safe characters.
    package static func shellQuoted(_ path: String) -> String {
        let safe = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,:@%")
        guard path.unicodeScalars.contains(where: { !safe.contains($0) }) else { return path }
        return "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `9 truncated, 3 not a photo`: labels counted, the most common first.
    package static func counted(_ labels: [String]) -> String {
        let counts = Dictionary(grouping: labels, by: { $0 }).mapValues(\.count)
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }

    /// `2 .AAE edit sidecars, 1 .txt file`: the most common kind first.
    package static func countedByKind(_ items: [Failure]) -> String {
        let counts = Dictionary(grouping: items, by: { $0.kind ?? "other file" }).mapValues(\.count)
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.value) \($0.value == 1 ? $0.key : $0.key + "s")" }.joined(separator: ", ")
    }
}

/// What a run would do, without doing it (`--dry-run`).
public struct RunPlan: Codable, Sendable {
    /// One input and its fate.
    public struct Entry: Codable, Sendable, Hashable {
        public enum Action: String, Codable, Sendable {
            case process, skip, duplicate, unreadable
            /// A sidecar read with its photo; `note` says whose and how it was matched.
            case sidecar
            /// Not an input of this pipeline (a video, a sidecar, a hidden file); `note` says why.
            case passOver = "pass-over"
        }

        public var path: String
        public var id: String?
        public var action: Action
        /// Steps that would run (pending work and the steps it reads from).
        public var steps: [String]
        public var note: String?

        public init(path: String, id: String?, action: Action, steps: [String], note: String?) {
            self.path = path; self.id = id; self.action = action; self.steps = steps; self.note = note
        }
    }

    public var pipeline: String
    public var library: String
    public var entries: [Entry] = []
    /// Collection steps and whether they would run.
    public var collections: [Entry] = []
    /// Sidecars that would be read with their photos.
    public var sidecars: [Entry] = []
    /// Files that are not inputs of this pipeline, with the reason.
    public var passedOver: [Entry] = []

    public init(pipeline: String, library: String) {
        self.pipeline = pipeline
        self.library = library
    }

    /// The plan as lines for a terminal.
    public var text: String {
        var lines: [String] = []
        for entry in entries {
            var line = "\(entry.action.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(entry.path)"
            if !entry.steps.isEmpty { line += "  [\(entry.steps.joined(separator: ", "))]" }
            if let note = entry.note { line += "  (\(note))" }
            lines.append(line)
        }
        for entry in sidecars + passedOver {
            lines.append("\(entry.action.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(entry.path)  (\(entry.note ?? ""))")
        }
        for entry in collections {
            lines.append("\(entry.action.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(entry.path)")
        }
        let counts = Dictionary(grouping: entries, by: \.action).mapValues(\.count)
        lines.append("\(English.count(entries.count, "input")): \(counts[.process] ?? 0) to process, \(counts[.skip] ?? 0) already done, "
                     + "\(English.count(counts[.duplicate] ?? 0, "duplicate")), \(counts[.unreadable] ?? 0) unreadable"
                     + (sidecars.isEmpty ? "" : "; " + English.count(sidecars.count, "sidecar") + " read")
                     + (passedOver.isEmpty ? "" : "; \(passedOver.count) passed over"))
        return lines.map(TerminalText.escaped).joined(separator: "\n")
    }
}
