import Foundation

/// What an export wrote for one photo, kept in the destination (`.darkroom-export.jsonl` in a
/// folder, the same entry in an archive) so that the next export over the same selection writes
/// nothing new: the photo (its content hash), the settings it was exported with, and its files.
///
/// One JSON object a line, appended before the files appear (a folder export killed in between
/// leaves a line whose files are missing, and the photo is exported again under the same names);
/// a later line for the same photo replaces an earlier one.
public struct ExportRecord: Codable, Sendable, Hashable {
    /// The photo's content hash.
    public var subject: String
    /// `ExportSettings.key` of the export that wrote the files.
    public var settings: String
    /// The files' names in the destination: the photo, then its motion part and sidecar.
    public var files: [String]

    /// The record's file (a folder) or entry (an archive).
    public static let name = ".darkroom-export.jsonl"

    /// The record as one line of the journal.
    var line: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(self)) ?? Data()) + Data("\n".utf8)
    }

    /// The records of a journal, the last line for a photo winning; lines that do not read (a
    /// line cut short by a crash) are skipped.
    static func read(_ journal: Data) -> [String: ExportRecord] {
        var records: [String: ExportRecord] = [:]
        let decoder = JSONDecoder()
        for line in journal.split(separator: UInt8(ascii: "\n")) {
            guard let record = try? decoder.decode(ExportRecord.self, from: Data(line)) else { continue }
            records[record.subject] = record
        }
        return records
    }

    /// The journal of `records`, one line each, in a stable order.
    static func journal(_ records: [String: ExportRecord]) -> Data {
        records.keys.sorted().reduce(into: Data()) { $0 += records[$1]!.line }
    }
}
