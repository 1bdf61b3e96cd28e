import DarkroomModel
import DarkroomSimilarity
import Foundation

/// A library's near-duplicate groups and bursts (the engine's `SimilarityReport`), with each
/// member's catalogue record and why the kept photo is kept: what the text, the JSON and the HTML
/// report show.
public struct DuplicateListing: Sendable {
    /// One group, its members as catalogued.
    public struct Group: Sendable {
        /// Near-duplicates or a burst.
        public var kind: SimilarityReport.Group.Kind
        /// Why the first member is the one kept ("largest (4032 x 3024)", "sharpest frame").
        public var reason: String
        /// Every member, the kept one first, with its distance to it (nil when either has no fingerprint).
        public var members: [(photo: CataloguedPhoto, distance: Int?)]

        /// The photo kept (the best copy, or the burst's pick).
        public var kept: CataloguedPhoto { members[0].photo }
        /// The members not kept.
        public var others: ArraySlice<(photo: CataloguedPhoto, distance: Int?)> { members.dropFirst() }
    }

    /// The engine's report, as `--json` prints it.
    public var report: SimilarityReport
    /// The same groups, in the same order, with their photos.
    public var groups: [Group]
    /// How many photos were compared (those with a fingerprint).
    public var compared: Int

    /// Finds the groups among `photos` (ids unique).
    public init(photos: [CataloguedPhoto]) {
        report = SimilarityFinder.report(for: photos.map(\.similar))
        let byID = Dictionary(photos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        groups = report.groups.map { group in
            let members = group.members.map { (photo: byID[$0.id]!, distance: $0.distance) }
            let photos = members.map(\.photo.similar)
            let reason = group.kind == .burst ? Self.burstReason(photos) : Self.keepReason(photos)
            return Group(kind: group.kind, reason: reason, members: members)
        }
        compared = photos.filter { $0.similar.fingerprint != nil }.count
    }

    /// Near-duplicate groups.
    public var nearDuplicates: [Group] { groups.filter { $0.kind == .nearDuplicate } }
    /// Bursts.
    public var bursts: [Group] { groups.filter { $0.kind == .burst } }

    /// `2 near-duplicate groups (3 copies), 1 burst (4 frames)`.
    public var summary: String {
        let copies = nearDuplicates.map { $0.members.count - 1 }.reduce(0, +)
        let frames = bursts.map(\.members.count).reduce(0, +)
        return "\(English.count(nearDuplicates.count, "near-duplicate group")) (\(copies == 1 ? "1 copy" : "\(copies) copies")), "
            + "\(English.count(bursts.count, "burst")) (\(English.count(frames, "frame")))"
    }

    /// Why `photos[0]` is kept over the others (`KeepRanking`): the first rule that sets it apart
    /// from the runner-up.
    static func keepReason(_ photos: [SimilarPhoto]) -> String {
        guard photos.count > 1 else { return "the only copy" }
        let order = KeepRanking.order(photos.map(\.keepCandidate))
        let kept = photos[0], runnerUp = photos[order.first { $0 != 0 } ?? 1]
        if kept.pixelCount > runnerUp.pixelCount { return "largest" }
        if runnerUp.modifiedNanoseconds - kept.modifiedNanoseconds >= KeepRanking.sameTime { return "earliest" }
        let (keptPath, otherPath) = (kept.path, runnerUp.path)
        if KeepRanking.isInCameraFolder(keptPath) && !KeepRanking.isInCameraFolder(otherPath) { return "in a camera folder" }
        let marked = { (path: String) in KeepRanking.hasCopyMarker((path as NSString).lastPathComponent) }
        if !marked(keptPath) && marked(otherPath) { return "no copy marker" }
        if keptPath.count < otherPath.count { return "shortest path" }
        return "first by path"
    }

    /// Why `photos[0]` is a burst's pick: the camera chose it (its mark, or a `COVER` name), or it is the sharpest.
    static func burstReason(_ photos: [SimilarPhoto]) -> String {
        let kept = photos[0]
        if kept.burst?.isPrimary == true || BurstFileName((kept.path as NSString).lastPathComponent)?.isPrimary == true {
            return "the camera's pick"
        }
        if let sharpness = kept.sharpness, photos.allSatisfy({ ($0.sharpness ?? 0) <= sharpness }) { return "sharpest frame" }
        return "earliest frame"
    }
}
