import Foundation

/// A file made for the destination: bytes in memory (a JPEG, a sidecar) or a file on disk (an
/// original or library file copied as it is, or a HEIC or video rendered into a temporary file).
struct ExportedFile: Sendable {
    enum Content: Sendable {
        case data(Data)
        /// A file whose bytes are exported; `temporary` when it was made for this export (and is removed after).
        case file(URL, temporary: Bool)
    }

    /// Its name in the destination.
    var name: String
    var content: Content
    /// The modification time it gets (the photo's capture instant, else now).
    var modified: Date
}

/// Where an export writes: a folder or an archive. Used by one thread at a time.
protocol ExportTarget: AnyObject {
    /// What earlier exports recorded here, by photo.
    var records: [String: ExportRecord] { get }
    /// The names of every file already there, whoever made it.
    var existingNames: Set<String> { get }
    /// Where renders that libraries write to a path (HEIC, video) go first: beside the destination.
    var scratch: URL { get }
    /// Whether every file of `record` is still there.
    func isPresent(_ record: ExportRecord) -> Bool
    /// Called once before the first `publish`, with the photos whose earlier files are replaced.
    func begin(replacing subjects: Set<String>) throws
    /// Writes one photo's files, each complete or not at all, and records them. `ExportStop` when
    /// nothing more can be written (a full disk); another error is about this photo alone.
    func publish(_ files: [ExportedFile], record: ExportRecord) throws
    /// Completes the destination (an archive's central directory).
    func finish() throws
    /// Gives up: an unfinished archive is removed; a folder keeps the photos it received.
    func abandon()
}

/// Why an export stopped before its end: what could not be written, and why (a full disk).
public struct ExportStop: Error, CustomStringConvertible, Sendable {
    /// The file or archive concerned.
    public var path: String
    /// For a person: `disk full (ENOSPC)`.
    public var reason: String

    public var description: String { "\(path): \(reason)" }
}

/// Unique temporary names beside a destination, which `FolderTarget` removes when a run left them.
enum TemporaryName {
    /// What every temporary name of an export contains.
    static let marker = ".darkroom-partial-"

    /// `.NAME.darkroom-partial-XXXXXXXX` in `folder`.
    static func beside(_ name: String, in folder: URL) -> URL {
        folder.appendingPathComponent(".\(name)\(marker)\(UUID().uuidString.prefix(8))")
    }
}
