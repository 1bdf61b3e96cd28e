import DarkroomCore
import DarkroomLibrary
import DarkroomModel
import DarkroomReport
import Foundation

/// What `darkroom explain` prints: the decision the pipeline's date step makes for a file now, where
/// its outputs go, and (for a library photo) what the library recorded when it was imported.
public struct ExplainReport: Encodable, Sendable {
    /// A library output and whether it is on disk.
    public struct Output: Encodable, Sendable {
        public var path: String
        public var step: String
        public var present: Bool
    }

    /// What the catalog holds for the photo.
    public struct Recorded: Encodable, Sendable {
        public var id: String
        public var captureDate: CaptureDate?
        public var outputs: [Output]
        /// For a still: its parts (a Live Photo's video, the RAW of a RAW+JPEG pair).
        public var parts: [Part] = []
        /// For a part: the still it is filed with.
        public var partOf: Part?
        /// What the import measured for near-duplicates and bursts, when anything.
        public var similarity: Similarity?
    }

    /// A file recorded as one photo with another: a still and its Live Photo video or RAW.
    public struct Part: Encodable, Sendable {
        /// The original file.
        public var path: String
        /// What it is: `still`, `RAW` (of a RAW+JPEG pair) or `Live Photo video`.
        public var role: String
        /// Its library files (none for a RAW not kept, `raw-originals: skip`).
        public var outputs: [String]
    }

    /// The original file.
    public var file: String
    /// The photo's id (from its content), when the file could be read.
    public var id: String?
    /// The decision for the file as it is now; nil when the original is gone or unreadable.
    public var explanation: (any CaptureDateExplanation)?
    /// Why there is no decision (the original is gone or unreadable).
    public var unreadable: String?
    /// The wall-clock time of the chosen date and the folder it files the photo in.
    public var localTime: String?
    public var folder: String?
    /// Where the pipeline's steps would publish it.
    public var plannedOutputs: [String] = []
    /// What the library recorded, for a library photo.
    public var recorded: Recorded?

    /// A report on the file at `file`, before anything is decided.
    public init(file: String) {
        self.file = file
    }

    /// Whether a date was decided for the import (the command exits 1 when none was, or the file
    /// cannot be imported).
    public var decided: Bool { unreadable == nil && explanation?.chosen != nil }

    private enum Key: String, CodingKey {
        case file, id, explanation, unreadable, localTime, folder, plannedOutputs, recorded
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(file, forKey: .file)
        try container.encodeIfPresent(id, forKey: .id)
        if let explanation { try explanation.encode(to: container.superEncoder(forKey: .explanation)) }
        try container.encodeIfPresent(unreadable, forKey: .unreadable)
        try container.encodeIfPresent(localTime, forKey: .localTime)
        try container.encodeIfPresent(folder, forKey: .folder)
        try container.encode(plannedOutputs, forKey: .plannedOutputs)
        try container.encodeIfPresent(recorded, forKey: .recorded)
    }

    /// Makes the decision of `pipeline`'s date step (`exif-date`) for the file, with the pipeline's
    /// options and output templates. Throws when the pipeline has no step that decides dates.
    public mutating func decide(pipeline: Pipeline, settings: RunSettings) throws {
        let url = URL(fileURLWithPath: file)
        guard let info = FileInfo(path: url.path, followLinks: true), info.isRegularFile else {
            unreadable = "the original \(file) is gone"
            return
        }
        let hash = try ContentHash.ofFile(url)
        id = ContentHash.uuid(fromHex: hash).uuidString.lowercased()
        let item = Item(source: url, relativePath: url.lastPathComponent, contentHash: hash, fileSize: info.size,
                        modificationDate: info.modificationDate)
        let steps = pipeline.itemSteps.filter { $0.configured.media.contains(item.mediaKind) }
        guard let decider = steps.lazy.compactMap({ $0.configured.stage as? any CaptureDateExplaining }).first else {
            throw RunError("the pipeline \(pipeline.file) has no step that decides capture dates for \(item.mediaKind.plural) (exif-date)")
        }
        try pipeline.prepare(settings)
        let discovery = Discovery(spec: pipeline.inputs, takes: pipeline.discovers, sidecars: pipeline.sidecars)
        if let reason = discovery.reasonToPassOver(file: url) {
            unreadable = "the pipeline passes it over: \(reason)"
            explanation = decider.explainRecordedCaptureDate(ofFailing: item, settings: settings)
            return
        }
        item.sidecars = discovery.sidecars(ofFile: url)
        let explanation: any CaptureDateExplanation
        do {
            explanation = try decider.explainCaptureDate(of: item, settings: settings)
        } catch {
            unreadable = "\(error)"
            // What the file records all the same (a RAW cut short): shown, though nothing is filed by it.
            self.explanation = decider.explainRecordedCaptureDate(ofFailing: item, settings: settings)
            return
        }
        self.explanation = explanation
        guard let date = explanation.chosen else { return }
        item.captureDate = date
        localTime = date.local.description
        plannedOutputs = steps.flatMap { $0.configured.plannedOutputs(for: item, settings: settings) }
        folder = plannedOutputs.first.map { ($0 as NSString).deletingLastPathComponent }
        // A still's part is filed with the still, under its id: it has no outputs of its own to plan.
        if recorded?.partOf != nil { plannedOutputs = []; folder = nil }
    }

    /// The report for a terminal (names shown with control characters escaped).
    public var text: String {
        var lines = [TerminalText.escaped(file)]
        if let id { lines.append("  id:         \(id)") }
        if let unreadable {
            lines.append("  cannot decide: \(TerminalText.escaped(unreadable))")
            if explanation != nil { lines.append("  its own metadata says (nothing is filed by it while the pipeline cannot take it):") }
        }
        if let explanation { lines += explanation.lines.map(TerminalText.escaped) }
        if let localTime {
            lines.append("  local time: \(localTime)" + (folder.map { ", folder \($0)" } ?? ""))
        }
        if !plannedOutputs.isEmpty {
            lines.append("  outputs:    " + plannedOutputs.joined(separator: "\n              ") + (recorded == nil ? "  (would go here)" : ""))
        }
        if let recorded {
            lines.append("  recorded:   id \(recorded.id), " + (recorded.captureDate.map { "\($0)" } ?? "no capture date"))
            if let then = recorded.captureDate, then.source == .user {
                lines.append("  user date:  set with darkroom catalog set-date: the import keeps it over every candidate above")
            } else if recorded.partOf == nil, let now = explanation?.chosen, let then = recorded.captureDate,
                      now.local != then.local || now.source != then.source {
                // A part is not refiled by its own date: it is filed by its still's.
                lines.append("  changed:    exif-date now decides \(now); run the import again to refile it")
            }
            for output in recorded.outputs {
                lines.append("  in library: \(output.path) [\(output.step)]" + (output.present ? "" : " (missing)"))
            }
            if let similarity = recorded.similarity { lines.append("  similarity: " + TerminalText.escaped(similarity.text)) }
            if let still = recorded.partOf {
                lines.append("  part of:    \(TerminalText.escaped(still.path)) (the \(still.role) it is filed with, under its id)")
            }
            for part in recorded.parts {
                let label = part.role == "RAW" ? "RAW+JPEG:   " : "with:       "
                lines.append("  \(label)\(TerminalText.escaped(part.path)) (its \(part.role), "
                             + (part.outputs.isEmpty ? "not kept in the library)" : "kept as \(part.outputs.joined(separator: ", ")))"))
            }
        }
        return lines.joined(separator: "\n")
    }
}
