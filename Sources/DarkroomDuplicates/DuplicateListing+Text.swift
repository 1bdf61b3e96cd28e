import DarkroomSimilarity
import Foundation

extension DuplicateListing {
    /// The listing for a terminal: a block a group (its kind, the photo kept and why, then each other
    /// member with its distance and original path), then the summary line.
    ///
    ///     near-duplicate: keep /roll/IMG_1.jpg (largest, 4032 x 3024)
    ///       distance  2  /roll/IMG_1 copy.jpg (2016 x 1512)
    ///
    ///     2 near-duplicate groups (3 copies), 1 burst (4 frames)
    public var text: String {
        var blocks = groups.map { group in
            var lines = ["\(group.kind.rawValue): keep \(group.kept.asset.originalPath) (\(group.reason)\(sizeText(group.kept)))"]
            for (photo, distance) in group.others {
                lines.append("  distance \(distance.map { String($0) } ?? "-")  \(photo.asset.originalPath)\(sizeText(photo, parenthesised: true))"
                             + (photo.isOutOfLibrary ? ", moved out of the library" : ""))
            }
            return lines.joined(separator: "\n")
        }
        blocks.append(summary)
        return blocks.joined(separator: "\n\n")
    }

    private func sizeText(_ photo: CataloguedPhoto, parenthesised: Bool = false) -> String {
        guard let size = photo.pixelSize else { return "" }
        return parenthesised ? " (\(size))" : ", \(size)"
    }
}
