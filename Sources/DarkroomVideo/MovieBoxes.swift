import DarkroomISOBMFF

/// The top-level boxes of an MPEG-4 / QuickTime file (`ftyp`, `moov`, `mdat`...), read from their
/// headers only by the shared ISO-BMFF reader: a few small reads whatever the file's size.
struct MovieBoxes {
    /// The box types in file order.
    let types: [FourCC]

    /// At most this many boxes are listed (a hostile file cannot make the scan long).
    static let limit = 64
    /// The boxes a QuickTime or MP4 file starts with.
    static let firstBoxes: Set<FourCC> = ["ftyp", "moov", "mdat", "wide", "free", "skip", "uuid"]

    /// Scans `path`; nil when it cannot be read or does not start like an ISO base media file.
    init?(path: String) {
        guard let file = try? ByteFile(path: path), let boxes = try? ISOBox.topLevel(of: file, limit: Self.limit),
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
