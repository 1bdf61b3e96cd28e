import Foundation
import DarkroomModel

/// Reads what is cheap and small in a file's header while the survey has the file open to hash it,
/// so that the file is not opened again for it: for now, the identifier that ties a still to its
/// video (Apple's Live Photo content identifier, in a still's maker note or a MOV's
/// `com.apple.quicktime.content.identifier`). A stage that publishes motion parts supplies one
/// (`Stage.prober`); the runner pairs files by what it reads before anything runs.
///
///     survey ──open──▶ hash every byte ──rewind──▶ prober.probe(file) ──▶ ProbedSource ──▶ Item.probe
///
/// Headers only: a prober decodes no pixel and no frame (a dry run decodes nothing), and keeps
/// nothing large (no EXIF blob: a survey of 100,000 files holds every `ProbedSource` at once).
public protocol SourceProber: Sendable {
    /// What the header of `file` says; empty when it says nothing or cannot be read (the step that
    /// reads the file says why).
    func probe(_ file: OpenSource) -> ProbedSource
}

/// A file the survey has open, lent to a `SourceProber` for one call.
public struct OpenSource: Sendable {
    /// The file (for its name, its extension and messages: read it through `descriptor`).
    public let url: URL
    /// A photo or a video.
    public let kind: MediaKind
    /// A descriptor open for reading on the file, at its first byte. Borrowed: the survey closes it
    /// when `probe` returns. Read it with positioned reads, or from where it is.
    public let descriptor: Int32

    /// The file at `url`, open at `descriptor`.
    public init(url: URL, kind: MediaKind, descriptor: Int32) {
        self.url = url
        self.kind = kind
        self.descriptor = descriptor
    }
}

/// What a file's header said when the survey read it (see `SourceProber`).
public struct ProbedSource: Sendable, Equatable {
    /// The identifier that pairs a still with its video, nil when the file has none.
    public var pairingKey: String?

    /// A probe that found `pairingKey`.
    public init(pairingKey: String? = nil) {
        self.pairingKey = pairingKey
    }
}

extension SourceProber {
    /// Opens `url` (once), probes it and closes it; nil when it cannot be opened.
    func probe(_ url: URL, kind: MediaKind) -> ProbedSource? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        return probe(OpenSource(url: url, kind: kind, descriptor: handle.fileDescriptor))
    }
}
