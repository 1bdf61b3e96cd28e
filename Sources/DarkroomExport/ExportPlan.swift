import DarkroomLibrary
import DarkroomModel
import DarkroomReport
import Foundation

/// What an export will do: each photo picked, its files' names, and whether it is written, written
/// again (its earlier export had other settings, or lost a file) or already there. What
/// `--dry-run` prints.
public struct ExportPlan: Sendable {
    /// What becomes of one photo.
    public enum Action: String, Sendable, Codable {
        /// Written for the first time.
        case export
        /// Written again over its earlier export's files (other settings, or a file gone).
        case replace
        /// Already exported with these settings; nothing is written.
        case skip
    }

    /// One photo or video and its files.
    public struct Item: Sendable {
        public var candidate: ExportCandidate
        public var action: Action
        /// The photo's (or video's) own file.
        public var mainFile: String
        /// Its motion part, with `--motion`.
        public var motionFile: String?
        /// The sidecar of an original.
        public var sidecarFile: String?

        /// Every file's name, the photo's first.
        public var files: [String] { [mainFile] + [motionFile, sidecarFile].compactMap { $0 } }
    }

    public var destination: ExportDestination
    public var settings: ExportSettings
    public var items: [Item]
    /// Names given that pick no photo, with why.
    public var unmatched: [ExportFailure]

    /// The photos that will be written.
    public var work: [Item] { items.filter { $0.action != .skip } }

    /// One line per photo (`export`, `replace`, `skip`), then the counts.
    public var text: String {
        var lines = items.map { item in
            let note = item.action == .skip ? "  (already exported)" : ""
            return "\(item.action.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))"
                + "\(item.files.joined(separator: ", "))  <- \(item.candidate.asset.originalPath)\(note)"
        }
        lines += unmatched.map { "failed: \($0.path): \($0.reason)" }
        let skipped = items.count - work.count
        lines.append("\(items.count) selected: \(work.count) to export, \(skipped) already exported"
                     + (unmatched.isEmpty ? "" : ", \(unmatched.count) not found") + " (to \(destination.url.path))")
        return lines.map(TerminalText.escaped).joined(separator: "\n")
    }
}

extension ExportPlan: Encodable {
    private enum CodingKeys: String, CodingKey { case destination, settings, items, unmatched }
    private struct Entry: Encodable {
        var action: Action, id: String, original: String, libraryFile: String?, files: [String]
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(destination.url.path, forKey: .destination)
        try container.encode(settings.key, forKey: .settings)
        try container.encode(items.map { item in
            Entry(action: item.action, id: item.candidate.asset.id.uuidString.lowercased(), original: item.candidate.asset.originalPath,
                  libraryFile: item.candidate.libraryFile, files: item.files)
        }, forKey: .items)
        try container.encode(unmatched, forKey: .unmatched)
    }
}
