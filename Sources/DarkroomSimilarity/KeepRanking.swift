import Foundation

/// Which of several copies of one photo to keep, as a person would choose: the largest (most
/// pixels), then the earliest modified (a copy made later has a later time, unless the tool kept
/// it; times closer than a minute count as equal), then the one in a camera's folder (`DCIM`,
/// `100CANON`) over a backup, then a name without a copy marker (`copy`, `(1)`), then the shorter
/// path, then path order.
///
/// It takes plain values, so the byte-identical duplicates of `DarkroomCore.DuplicateRanking` can
/// be ranked by the same rule (every candidate with the same pixel count).
public enum KeepRanking {
    /// One file to rank.
    public struct Candidate: Hashable, Sendable {
        /// The file's path (its folders and name are read).
        public var path: String
        /// Width times height of the photo as stored (0 when unknown).
        public var pixelCount: Int
        /// The file's modification time, nanoseconds since 1970.
        public var modifiedNanoseconds: Int64

        /// A file at `path` of `pixelCount` pixels, modified at `modifiedNanoseconds`.
        public init(path: String, pixelCount: Int, modifiedNanoseconds: Int64) {
            self.path = path
            self.pixelCount = pixelCount
            self.modifiedNanoseconds = modifiedNanoseconds
        }
    }

    /// Modification times closer than this count as equal (a checkout, or a copy that kept times).
    public static let sameTime: Int64 = 60 * 1_000_000_000

    /// The index of the one to keep among `candidates` (not empty).
    public static func best(among candidates: [Candidate]) -> Int {
        order(candidates)[0]
    }

    /// The indices of `candidates`, the one to keep first.
    public static func order(_ candidates: [Candidate]) -> [Int] {
        let earliest = candidates.map(\.modifiedNanoseconds).min() ?? 0
        // Size and time settle most cases; the path is read only to break their ties.
        let coarse = candidates.map { [-$0.pixelCount, $0.modifiedNanoseconds - earliest >= sameTime ? 1 : 0] }
        var fine: [Int: [Int]] = [:]
        func pathRank(_ index: Int) -> [Int] {
            if let rank = fine[index] { return rank }
            let path = candidates[index].path
            let rank = [isInCameraFolder(path) ? 0 : 1, hasCopyMarker((path as NSString).lastPathComponent) ? 1 : 0, path.count]
            fine[index] = rank
            return rank
        }
        return candidates.indices.sorted { a, b in
            if coarse[a] != coarse[b] { return coarse[a].lexicographicallyPrecedes(coarse[b]) }
            let (x, y) = (pathRank(a), pathRank(b))
            return x != y ? x.lexicographicallyPrecedes(y) : candidates[a].path < candidates[b].path
        }
    }

    /// `DCIM` or a DCF folder such as `100CANON`, `101APPLE`, `100_PANA` anywhere in the path.
    public static func isInCameraFolder(_ path: String) -> Bool {
        path.split(separator: "/").contains { component in
            component.uppercased() == "DCIM" || matches(dcfFolder, String(component))
        }
    }

    /// `IMG_1 (copy).JPG`, `IMG_1 copy.jpg`, `IMG_1 - Copy.jpg`, `IMG_1(1).jpg`, `IMG_1 (2).jpg`, `Kopie van`, `copia de`.
    public static func hasCopyMarker(_ name: String) -> Bool {
        matches(copyMarker, (name as NSString).deletingPathExtension)
    }

    private static let dcfFolder = try! NSRegularExpression(pattern: #"^[1-9][0-9]{2}[A-Z0-9_]{5}$"#)
    private static let copyMarker = try! NSRegularExpression(pattern: #"(?i)(\bcopy\b|\bkopie\b|\bcopia\b|\bcopie\b|\(\d+\)\s*$)"#)

    private static func matches(_ expression: NSRegularExpression, _ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
