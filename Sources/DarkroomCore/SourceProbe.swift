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
    /// The camera and moment of the shot, which tie a RAW to the camera's JPEG or HEIC of it (see
    /// `Runner.pairRawParts`); nil when the file does not name both.
    public var shot: CameraShot?

    /// A probe that found `pairingKey` and `shot`.
    public init(pairingKey: String? = nil, shot: CameraShot? = nil) {
        self.pairingKey = pairingKey
        self.shot = shot
    }
}

/// Which camera took a shot, and when by its clock: what a RAW and the camera's JPEG of the same
/// shot share (EXIF `Make`, `Model`, `DateTimeOriginal` and `SubSecTimeOriginal`).
public struct CameraShot: Sendable, Equatable {
    /// `Make Model`, as the file names them.
    public var camera: String
    /// The camera clock's wall-clock time of the shot, in seconds (with sub-seconds) since 1970 read as
    /// UTC: only differences between two shots of one camera mean anything.
    public var seconds: Double

    /// A shot by `camera` at `seconds`.
    public init(camera: String, seconds: Double) {
        self.camera = camera
        self.seconds = seconds
    }

    /// The shot of `make`/`model` at EXIF date `dateTimeOriginal` ("YYYY:MM:DD HH:MM:SS") and
    /// sub-second digits `subSeconds`; nil when the camera or the date is missing or malformed.
    public init?(make: String?, model: String?, dateTimeOriginal: String?, subSeconds: String?) {
        let camera = [make, model].compactMap { $0?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard camera.count == 2, let text = dateTimeOriginal else { return nil }
        let fields = text.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "-" || $0 == "T" }).compactMap { Int($0) }
        guard fields.count >= 6, fields[0] > 1900, (1...12).contains(fields[1]), (1...31).contains(fields[2]) else { return nil }
        var parts = DateComponents(year: fields[0], month: fields[1], day: fields[2], hour: fields[3], minute: fields[4], second: fields[5])
        parts.timeZone = TimeZone(secondsFromGMT: 0)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        guard let date = calendar.date(from: parts) else { return nil }
        let digits = (subSeconds ?? "").trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }
        let fraction = digits.isEmpty ? 0 : (Double("0." + digits) ?? 0)
        self.init(camera: camera.joined(separator: " "), seconds: date.timeIntervalSince1970 + fraction)
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
