import DarkroomCore
import DarkroomImaging
import DarkroomVips
import Foundation
import DarkroomModel

/// Brightness normalisation across neighbouring photos: each photo's mean brightness is measured
/// on a tiny shrink-on-load decode (a first, cheap pass that keeps nothing but one number a photo),
/// and each photo is then scaled toward the centred moving average of its neighbours' means.
/// Slow changes (seasons, a plant growing) stay; day-to-day exposure jumps go.
enum Deflicker {
    /// The side of the decode used for measuring.
    static let measureSize = 64
    /// Gains are kept within this range, so a nearly black or white photo is not blown out.
    static let gainRange = 0.5...2.0

    /// The mean brightness (0...255) of each photo, nil for one that cannot be decoded.
    static func means(of photos: [ItemRecord], renderer: PhotoRenderer, jobs: Int) -> [Double?] {
        DarkroomThreads.map(count: photos.count, jobs: jobs) { index in
            try? renderer.decode(photos[index], width: measureSize, height: measureSize).average()
        }
    }

    /// The factor for each photo: the mean of the known means within `window` photos centred on it,
    /// divided by the photo's own mean (1 when unknown or black).
    static func gains(means: [Double?], window: Int) -> [Double] {
        let half = window / 2
        return means.indices.map { index in
            guard let own = means[index], own > 1 else { return 1 }
            let neighbours = means[max(0, index - half)...min(means.count - 1, index + half)].compactMap { $0 }
            let target = neighbours.reduce(0, +) / Double(neighbours.count)
            return min(max(target / own, gainRange.lowerBound), gainRange.upperBound)
        }
    }
}
