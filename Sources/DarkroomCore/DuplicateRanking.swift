import Foundation

/// Which of several byte-identical files is the original, as a person would say: the one modified
/// first (a copy made later has a later time, unless the tool kept it), then the one in a camera's
/// folder (`DCIM/100CANON`) over a backup, then a name without a copy marker (`copy`, `(1)`), then
/// the shorter path, then path order.
public enum DuplicateRanking {
    /// Modification times closer than this count as equal (a checkout, or a copy that kept times).
    public static let sameTime: Int64 = 60 * 1_000_000_000

    /// The index of the original among `files` (not empty).
    public static func original(among files: [Discovery.Found]) -> Int {
        let earliest = files.map(\.modificationNanoseconds).min() ?? 0
        return files.indices.min { a, b in
            let (x, y) = (rank(files[a], earliest: earliest), rank(files[b], earliest: earliest))
            return x != y ? x.lexicographicallyPrecedes(y) : files[a].path < files[b].path
        }!
    }

    /// Lower is more original: [modified later than the earliest, not in a camera folder, has a copy marker, path length].
    static func rank(_ file: Discovery.Found, earliest: Int64) -> [Int] {
        let path = file.path
        return [file.modificationNanoseconds - earliest >= sameTime ? 1 : 0,
                isInCameraFolder(path) ? 0 : 1,
                hasCopyMarker(file.name) ? 1 : 0,
                path.count]
    }

    /// `DCIM` or a DCF folder such as `100CANON`, `101APPLE`, `100_PANA` anywhere in the path.
    static func isInCameraFolder(_ path: String) -> Bool {
        path.split(separator: "/").contains { component in
            component.uppercased() == "DCIM" || component.range(of: #"^[1-9][0-9]{2}[A-Z0-9_]{5}$"#, options: .regularExpression) != nil
        }
    }

    /// `IMG_1 (copy).JPG`, `IMG_1 copy.jpg`, `IMG_1 - Copy.jpg`, `IMG_1(1).jpg`, `IMG_1 (2).jpg`, `Kopie van`, `copia de`.
    static func hasCopyMarker(_ name: String) -> Bool {
        let stem = (name as NSString).deletingPathExtension
        return stem.range(of: #"(?i)(\bcopy\b|\bkopie\b|\bcopia\b|\bcopie\b|\(\d+\)\s*$)"#, options: .regularExpression) != nil
    }
}
