import DarkroomISOBMFF

/// The top-level boxes of an MPEG-4 / QuickTime file (`ftyp`, `moov`, `mdat`...), read from their
/// headers only by the shared ISO-BMFF reader through the descriptor the video is already open on:
/// a few small reads whatever the file's size.
struct MovieBoxes {
    /// The box types in file order.
    let types: [FourCC]

    /// At most this many boxes are listed (a hostile file cannot make the scan long).
    static let limit = 64
    /// The boxes a QuickTime or MP4 file starts with.
    static let firstBoxes: Set<FourCC> = ["ftyp", "moov", "mdat", "wide", "free", "skip", "uuid"]

    /// Scans the open `file`; nil when it cannot be read or does not start like an ISO base media file.
    init?(_ file: OpenedFile) {
        guard let boxes = try? ISOBox.topLevel(of: OpenedFileBytes(file: file), limit: Self.limit),
              let first = boxes.first, Self.firstBoxes.contains(first.type) else { return nil }
        types = boxes.map(\.type)
    }

    /// Whether the file has a `moov` box at all.
    var hasMovie: Bool { types.contains("moov") }

    /// Whether `moov` comes before `mdat` (players can start before the whole file is read).
    var movieFirst: Bool {
        guard let movie = types.firstIndex(of: "moov") else { return false }
        return types.firstIndex(of: "mdat").map { movie < $0 } ?? true
    }
}

/// An open video file as bytes the ISO-BMFF reader walks.
private struct OpenedFileBytes: ByteSource {
    let file: OpenedFile

    var size: UInt64 { UInt64(max(0, file.size)) }

    func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard offset < size, count > 0 else { return [] }
        guard let data = file.read(at: Int64(offset), count: min(count, ByteFile.maximumRead)) else {
            throw ISOBMFFError(path: file.path, reason: "cannot read at \(offset)")
        }
        return [UInt8](data)
    }
}
