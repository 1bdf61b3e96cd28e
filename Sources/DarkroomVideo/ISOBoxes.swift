import Foundation

/// The top-level boxes of an MPEG-4 / QuickTime file (`ftyp`, `moov`, `mdat`...), read from their
/// 8- or 16-byte headers only: a few small reads whatever the file's size, through the descriptor
/// the video is already open on.
struct ISOBoxes {
    /// The box types in file order.
    let types: [String]

    /// At most this many boxes are listed (a hostile file cannot make the scan long).
    static let limit = 64

    /// Scans the open `file`; nil when it does not start like an ISO base media file.
    init?(_ file: OpenedFile) {
        let size = UInt64(max(0, file.size))
        var offset: UInt64 = 0
        var types: [String] = []
        while offset + 8 <= size, types.count < ISOBoxes.limit {
            guard let header = file.read(at: Int64(offset), count: 16), header.count >= 8 else { break }
            var boxSize = header.prefix(4).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            guard type.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else { break }
            if boxSize == 1 {
                guard header.count == 16 else { break }
                boxSize = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            } else if boxSize == 0 {
                boxSize = size - offset
            }
            guard boxSize >= 8 else { break }
            types.append(type)
            let (next, overflow) = offset.addingReportingOverflow(boxSize)
            if overflow { break }
            offset = next
        }
        guard let first = types.first, ["ftyp", "moov", "mdat", "wide", "free", "skip", "uuid"].contains(first) else { return nil }
        self.types = types
    }

    /// Whether the file has a `moov` box at all.
    var hasMovie: Bool { types.contains("moov") }

    /// Whether `moov` comes before `mdat` (players can start before the whole file is read).
    var movieFirst: Bool {
        guard let movie = types.firstIndex(of: "moov") else { return false }
        return types.firstIndex(of: "mdat").map { movie < $0 } ?? true
    }
}
