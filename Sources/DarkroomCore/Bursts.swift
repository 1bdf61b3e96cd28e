import Foundation
import DarkroomLibrary
import DarkroomModel
import DarkroomOptions
import DarkroomSimilarity

/// Which shots of a burst a collage, a time-lapse, a photo book or a gallery shows (`bursts`).
public enum BurstChoice: String, Codable, Sendable, CaseIterable {
    /// One photo a burst: the frame the camera marked as its primary, else the sharpest.
    case pick
    /// Every shot.
    case all

    /// The `bursts` option, as every stage that shows photos declares it (keyed only when not
    /// `pick`: collections made before bursts were known keep their work when they hold none).
    public static let option = StageOption.choice(
        "bursts", default: BurstChoice.pick,
        "pick: one photo a burst (the camera's primary, else the sharpest); all: every shot of a burst.")
        .keyedOnlyWhenNotDefault()
}

/// A collection stage that shows photos, with its `bursts` choice: the runner then tells it which
/// of its photos are frames of one burst (`ItemRecord.burst`).
public protocol ShowsBursts {
    /// How the stage shows bursts.
    var bursts: BurstChoice { get }
}

/// A photo's place in a burst (three or more shots of one camera within a second, or frames the
/// camera marked as one burst).
public struct BurstRole: Codable, Sendable, Hashable {
    /// The id of the frame the burst shows (its pick).
    public var pick: UUID
    /// How many frames the burst has among the collection's photos.
    public var frames: Int

    /// A frame of a burst of `frames` frames showing `pick`.
    public init(pick: UUID, frames: Int) {
        self.pick = pick
        self.frames = frames
    }
}

extension ItemRecord {
    /// Whether the photo is shown under `bursts: pick`: it is no burst's frame, or it is the pick.
    public var isShownAsPick: Bool { burst.map { $0.pick == id } ?? true }
}

extension Array where Element == ItemRecord {
    /// The photos a collection shows under `choice`: with `pick`, the frames of a burst other than
    /// its pick are left out.
    public func showing(_ choice: BurstChoice) -> [ItemRecord] {
        choice == .all ? self : filter(\.isShownAsPick)
    }
}

extension Runner {
    /// How many photos' burst facts `markingBursts` asks the catalog about in one lookup (a lookup's
    /// answers are held on each of the run's threads at once).
    static var burstFactsAtOnce: Int { 5_000 }

    /// `items` with their bursts marked, for a step that shows bursts' picks (others unchanged): their
    /// capture dates and what the catalog knows of each (the original's name, the camera, the
    /// camera's burst marks, the thumbnail's sharpness) grouped by `BurstGrouping`. Light reads of
    /// the catalog (no dates' JSON, no fingerprints), `burstFactsAtOnce` photos at a time, each made
    /// into its shot at once and kept only when it may be a burst's frame: a gallery runs this every
    /// time, and a run over 100,000 photos held all their answers at once, with a dictionary of them
    /// and a shot of each. The pieces are read on the run's threads, each while the ones before it
    /// are gathered (one after the other, they took 1.2 s of the gallery's run with nothing new over
    /// 100,000 photos, on one thread while the other waited).
    func markingBursts(_ items: [ItemRecord], for step: PipelineStep, catalog: CatalogStore?) throws -> [ItemRecord] {
        guard let catalog, (step.configured.stage as? any ShowsBursts)?.bursts == .pick, items.count >= 2 else { return items }
        let captured = items.map { $0.captureDate.map(CaptureInstant.init) }
        let instants = captured.compactMap { $0?.seconds }.sorted()
        let pieces = stride(from: 0, to: items.count, by: Self.burstFactsAtOnce).map { $0..<min($0 + Self.burstFactsAtOnce, items.count) }
        let read = Ahead(count: pieces.count, threads: settings.jobs) { position in
            Result { try Self.possibleFrames(of: items, in: pieces[position], captured: captured, amongInstants: instants, catalog: catalog) }
        }
        defer { read.stop() }
        var shots: [BurstShot] = []
        for _ in pieces { shots += try read.next().get() }
        var roles: [UUID: BurstRole] = [:]
        for burst in BurstGrouping.bursts(in: shots) {
            guard let pick = UUID(uuidString: burst.pick) else { continue }
            for member in burst.members {
                if let id = UUID(uuidString: member) { roles[id] = BurstRole(pick: pick, frames: burst.members.count) }
            }
        }
        guard !roles.isEmpty else { return items }
        return items.map { item in
            var item = item
            item.burst = roles[item.id]
            return item
        }
    }

    /// The shots of the photos at `positions` of `items` that may be a burst's frames, with what the
    /// catalog knows of them (`captured`: each item's instant; `instants`: all of them, sorted). A
    /// shot's id is written only for those kept: most photos of a library are no burst's.
    private static func possibleFrames(of items: [ItemRecord], in positions: Range<Int>, captured: [CaptureInstant?],
                                       amongInstants instants: [Double], catalog: CatalogStore) throws -> [BurstShot] {
        let facts = Dictionary(try catalog.burstFacts(contentHashes: items[positions].map(\.contentHash)).map { ($0.contentHash, $0) },
                               uniquingKeysWith: { first, _ in first })
        return positions.compactMap { index in
            let item = items[index], known = facts[item.contentHash]
            // The original's name and folder (a gallery's items are the library's HEICs); no fingerprint.
            var shot = SimilarPhoto(id: "", path: known?.originalPath ?? item.sourcePath, fingerprint: nil, pixelCount: 0,
                                    modifiedNanoseconds: 0, camera: known?.camera, captured: captured[index],
                                    burst: known?.burst, sharpness: known?.sharpness).shot
            guard BurstGrouping.mayBeFrame(shot, amongInstants: instants) else { return nil }
            shot.id = item.id.uuidString
            return shot
        }
    }
}

extension CollectionContext {
    /// The photos the step shows under `choice`, saying how many frames of bursts it leaves out.
    public func photosShown(_ items: [ItemRecord], bursts choice: BurstChoice) -> [ItemRecord] {
        let shown = items.showing(choice)
        let left = items.count - shown.count
        if left > 0 {
            let bursts = Set(items.compactMap(\.burst?.pick)).count
            logger.notice("\(step): \(left) \(left == 1 ? "frame" : "frames") of \(bursts) \(bursts == 1 ? "burst" : "bursts") shown by \(bursts == 1 ? "its pick" : "their picks") (bursts: all shows every shot)")
        }
        return shown
    }
}
