import DarkroomModel
import DarkroomReport
import Foundation

/// What an export did: the photos written with their files, those already there, those that
/// failed (each with its file and the reason), and why it stopped, if it did.
public struct ExportReport: Sendable, Codable {
    /// One photo written.
    public struct Exported: Sendable, Codable, Hashable {
        /// The photo's content id.
        public var id: String
        /// The original it was imported from.
        public var original: String
        /// Its files in the destination.
        public var files: [String]
    }

    /// The folder or archive.
    public var destination: String
    /// Photos and videos selected.
    public var selected: Int
    public var exported: [Exported] = []
    /// Photos already exported with the same settings: nothing written for them.
    public var alreadyExported: Int
    public var failures: [ExportFailure] = []
    /// Why the export stopped before its end (a full disk), with what was being written.
    public var stopped: String?
    /// Wall-clock seconds.
    public var seconds: Double = 0

    /// Files written (photos, motion parts, sidecars).
    public var filesWritten: Int { exported.reduce(0) { $0 + $1.files.count } }

    /// Whether every photo selected is in the destination.
    public var succeeded: Bool { failures.isEmpty && stopped == nil }

    /// `9 selected: 8 exported, 1 already exported, 0 failed; 8 files written to /x (2.1 s)`, then
    /// each failure and the reason the export stopped.
    public var text: String {
        var lines = ["\(selected) selected: \(exported.count) exported, \(alreadyExported) already exported, \(failures.count) failed; "
                     + "\(filesWritten) \(filesWritten == 1 ? "file" : "files") written to \(destination) (\(String(format: "%.1f", seconds)) s)"]
        lines += failures.map { "  failed: \($0.path): \($0.reason)" }
        if let stopped { lines.append("stopped: \(stopped)") }
        return lines.map(TerminalText.escaped).joined(separator: "\n")
    }
}
