import DarkroomModel

/// Finds the shots of one burst, from the most trusted evidence to the least: Apple's maker-note
/// burst identifier, Google Camera's XMP `GCamera:BurstID`, phone burst file names (within one
/// folder), and otherwise three or more shots of one camera each within a second of the next, at
/// three different instants (copies of one photo carry its instant).
/// A shot placed by stronger evidence is not considered again by weaker evidence; a shot with a
/// camera-written identifier is only ever grouped by it.
///
/// The pick is the frame the camera named primary (`GCamera:BurstPrimary`, a `COVER` file name),
/// else the sharpest (`BurstShot.sharpness`), ties going to the earliest.
public enum BurstGrouping {
    /// Shots at most this far apart (seconds, both with sub-seconds) chain into one burst.
    public static let maximumGap = 1.0
    /// A burst found by timing alone needs at least this many shots.
    public static let minimumTimedShots = 3

    /// The bursts among `shots`, ordered by their first frame's capture time (then id).
    public static func bursts(in shots: [BurstShot]) -> [Burst] {
        var bursts: [Burst] = []
        var placed = Set<String>()

        // Camera-written identifiers: a group of at least two frames.
        // Grouped by who wrote the identifier and the identifier, not by the primary flag.
        let marked = shots.filter { $0.burst != nil }
        let identified = Dictionary(grouping: marked) { MarkKey(source: $0.burst!.source, identifier: $0.burst!.identifier) }
        for (key, frames) in identified where frames.count >= 2 {
            let evidence: Burst.Evidence = key.source == .apple ? .appleBurstID(key.identifier) : .googleBurstID(key.identifier)
            bursts.append(make(frames, evidence: evidence))
        }
        placed.formUnion(marked.map(\.id))

        // File names, within one folder.
        let named = shots.filter { !placed.contains($0.id) }.compactMap { shot in BurstFileName(shot.fileName).map { (shot, $0) } }
        let byName = Dictionary(grouping: named) { NameKey(folder: $0.0.folder, pattern: $0.1.pattern, key: $0.1.key) }
        for (key, frames) in byName where frames.count >= 2 {
            let primaries = Set(frames.filter { $0.1.isPrimary }.map(\.0.id))
            bursts.append(make(frames.map(\.0), evidence: .fileName(key.pattern, key: key.key), namedPrimaries: primaries))
            placed.formUnion(frames.map(\.0.id))
        }

        // Timing: per camera, chains of shots each within a second of the next.
        let timed = shots.filter { !placed.contains($0.id) && $0.camera != nil && $0.captured != nil }
        for (_, cameraShots) in Dictionary(grouping: timed, by: { $0.camera! }) {
            for run in chains(cameraShots.sorted(by: captureOrder)) {
                let frames = framesWithoutCopies(run)
                if frames.count >= minimumTimedShots { bursts.append(make(frames, evidence: .timing)) }
            }
        }
        let firsts = Set(bursts.map { $0.members[0] })
        let byID = Dictionary(shots.filter { firsts.contains($0.id) }.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return bursts.sorted { captureOrder(byID[$0.members[0]]!, byID[$1.members[0]]!) }
    }

    /// Whether `shot` may be a frame of a burst `bursts(in:)` finds among shots taken at `instants`
    /// (every shot's `captured.seconds`, sorted; the shot's own among them): it has a camera's burst
    /// mark or a burst's file name, or a camera and another shot within `maximumGap` of it. Leaving
    /// out the shots that may not changes no burst, and a library of 100,000 photos, few of them in
    /// bursts, then groups a few shots rather than one of every photo.
    public static func mayBeFrame(_ shot: BurstShot, amongInstants instants: [Double]) -> Bool {
        if shot.burst != nil || BurstFileName(shot.fileName) != nil { return true }
        guard shot.camera != nil, let seconds = shot.captured?.seconds else { return false }
        /// The first position of `instants` from which `isPast` holds (it holds from some position on).
        func firstIndex(where isPast: (Double) -> Bool) -> Int {
            var (low, high) = (0, instants.count)
            while low < high {
                let middle = (low + high) / 2
                if isPast(instants[middle]) { high = middle } else { low = middle + 1 }
            }
            return low
        }
        // The instants within the gap either side: the shot's own, and at least one more.
        let near = firstIndex { $0 > seconds + maximumGap } - firstIndex { $0 >= seconds - maximumGap }
        return near >= 2
    }

    struct MarkKey: Hashable {
        var source: BurstMark.Source
        var identifier: String
    }

    struct NameKey: Hashable {
        var folder: String
        var pattern: BurstFileName.Pattern
        var key: String
    }

    /// Whether two consecutive shots of one camera belong to one burst.
    static func linked(_ earlier: CaptureInstant, _ later: CaptureInstant) -> Bool {
        let gap = later.seconds - earlier.seconds
        if earlier.hasSubseconds && later.hasSubseconds { return gap <= maximumGap }
        // Whole seconds only: only shots stamped with the same second are surely within one.
        return earlier.seconds.rounded(.down) == later.seconds.rounded(.down)
    }

    /// Runs of consecutive `sorted` shots, each linked to the next.
    static func chains(_ sorted: [BurstShot]) -> [[BurstShot]] {
        var runs: [[BurstShot]] = []
        for shot in sorted {
            if let last = runs.last?.last, linked(last.captured!, shot.captured!) {
                runs[runs.count - 1].append(shot)
            } else {
                runs.append([shot])
            }
        }
        return runs
    }

    /// A chain's frames without the copies of a frame: re-saved, resized or backed-up copies keep the
    /// photo's EXIF, so shots stamped with the very same instant are one shot, not frames of a burst
    /// (a camera never stamps two frames with one sub-second). Of each instant the shot in the folder
    /// most of the chain is in is the frame (ties: the first in capture order); the others are left to
    /// near-duplicate detection. So shots without sub-seconds, all stamped with one second, make no
    /// burst by timing: they cannot be told from copies of one photo.
    static func framesWithoutCopies(_ run: [BurstShot]) -> [BurstShot] {
        let shotsInFolder = Dictionary(run.map { ($0.folder, 1) }, uniquingKeysWith: +)
        var frameAt: [CaptureInstant: BurstShot] = [:]
        var instants: [CaptureInstant] = []
        for shot in run {
            let instant = shot.captured!
            if let frame = frameAt[instant] {
                if shotsInFolder[shot.folder]! > shotsInFolder[frame.folder]! { frameAt[instant] = shot }
            } else {
                frameAt[instant] = shot
                instants.append(instant)
            }
        }
        return instants.map { frameAt[$0]! }
    }

    static func captureOrder(_ a: BurstShot, _ b: BurstShot) -> Bool {
        let (x, y) = (a.captured?.seconds ?? .infinity, b.captured?.seconds ?? .infinity)
        if x != y { return x < y }
        return (a.fileName, a.id) < (b.fileName, b.id)
    }

    /// A burst of `frames`: ordered by capture, the pick chosen among the camera's primaries when
    /// there are any, else among all frames, by sharpness.
    static func make(_ frames: [BurstShot], evidence: Burst.Evidence, namedPrimaries: Set<String> = []) -> Burst {
        let ordered = frames.sorted(by: captureOrder)
        let primaries = ordered.filter { $0.isPrimary || namedPrimaries.contains($0.id) }
        let candidates = primaries.isEmpty ? ordered : primaries
        // The sharpest; `max(by:)` keeps the first of equals, so ties go to the earliest.
        let pick = candidates.max { ($0.sharpness ?? -1) < ($1.sharpness ?? -1) }!
        return Burst(evidence: evidence, members: ordered.map(\.id), pick: pick.id, pickIsCameraPrimary: !primaries.isEmpty)
    }
}
