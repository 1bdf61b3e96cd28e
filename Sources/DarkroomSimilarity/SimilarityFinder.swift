/// Finds a library's bursts and near-duplicate groups (`darkroom duplicates`).
///
/// Bursts first (`BurstGrouping`). Then near-duplicates: the index's pairs (perceptual and detail
/// hashes and brightness within the limits), less pairs of frames of one burst, joined into
/// connected components; each component is then split into stars around a photo to keep: its best
/// copy by `KeepRanking` takes every member that is a near-duplicate of it (at most one frame of
/// any burst), and the rest is split again (quadratic in a component's size; components are a
/// photo's copies, a handful). Components alone would chain: A near B near C puts A and C
/// together however far apart they are, and a series of similar shots could join one group; a
/// star guarantees that every member is a near-duplicate of the photo kept, which is what the
/// report says. A burst's frames are never reported as near-duplicates of each other; a copy of a
/// frame is a near-duplicate of that frame (of the nearest frame, when it is near several).
public enum SimilarityFinder {
    /// The report for `photos` (ids must be unique).
    public static func report(for photos: [SimilarPhoto]) -> SimilarityReport {
        let bursts = BurstGrouping.bursts(in: photos.map(\.shot))
        var burstOf: [String: Int] = [:]
        for (index, burst) in bursts.enumerated() { for member in burst.members { burstOf[member] = index } }
        let byID = Dictionary(photos.filter { burstOf[$0.id] != nil }.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

        var groups = bursts.map { burst in
            let pick = byID[burst.pick]!
            return group(.burst, keep: pick, others: burst.members.filter { $0 != burst.pick }.map { byID[$0]! })
        }
        groups += nearDuplicateGroups(photos, burstOf: burstOf, picks: Set(bursts.map(\.pick)))
        groups.sort { a, b in (a.members[0].path, a.kind.rawValue) < (b.members[0].path, b.kind.rawValue) }
        return SimilarityReport(groups: groups)
    }

    /// The near-duplicate groups among `photos`; `burstOf` gives each burst frame's burst, `picks` the bursts' picks.
    static func nearDuplicateGroups(_ photos: [SimilarPhoto], burstOf: [String: Int], picks: Set<String>) -> [SimilarityReport.Group] {
        let hashed = photos.filter { $0.fingerprint != nil }
        let index = NearDuplicateIndex(hashed.map { (id: $0.id, fingerprint: $0.fingerprint!) })
        // A photo near several frames of one burst (a copy of one frame is near its neighbours too)
        // keeps only its edge to the nearest frame (by distance, then whole frame against whole
        // frame, perceptual then detail hash, then the burst's pick, which is what gets shared);
        // edges between frames of one burst are dropped.
        var nearestFrame: [BurstEdgeKey: (pair: NearDuplicateIndex<String>.Pair, rank: [Int])] = [:]
        var components = UnionFind(count: hashed.count)
        for pair in index.pairs() {
            let (a, b) = (hashed[pair.first].id, hashed[pair.second].id)
            switch (burstOf[a], burstOf[b]) {
            case let (x?, y?) where x == y:
                continue
            case (nil, nil):
                components.union(pair.first, pair.second)
            case let (x, y):
                let (mine, theirs) = (hashed[pair.first].fingerprint!.whole, hashed[pair.second].fingerprint!.whole)
                let pickEdge = picks.contains(a) || picks.contains(b)
                let rank = [pair.distance, mine.hash.distance(to: theirs.hash), mine.detail.distance(to: theirs.detail), pickEdge ? 0 : 1]
                for (photo, burst) in [(pair.first, y), (pair.second, x)] {
                    guard let burst else { continue }
                    let key = BurstEdgeKey(photo: photo, burst: burst)
                    if let best = nearestFrame[key], !rank.lexicographicallyPrecedes(best.rank) { continue }
                    nearestFrame[key] = (pair, rank)
                }
            }
        }
        for (pair, _) in nearestFrame.values { components.union(pair.first, pair.second) }
        var groups: [SimilarityReport.Group] = []
        for members in components.groups() {
            var remaining = members.map { hashed[$0] }
            remaining = KeepRanking.order(remaining.map(\.keepCandidate)).map { remaining[$0] }
            while remaining.count > 1 {
                let keep = remaining.removeFirst()
                var burstsTaken = Set(burstOf[keep.id].map { [$0] } ?? [])
                var taken: [SimilarPhoto] = [], left: [SimilarPhoto] = []
                for photo in remaining {
                    let burst = burstOf[photo.id]
                    if keep.fingerprint!.nearDuplicateDistance(to: photo.fingerprint!) != nil, burst.map({ !burstsTaken.contains($0) }) ?? true {
                        taken.append(photo)
                        if let burst { burstsTaken.insert(burst) }
                    } else {
                        left.append(photo)
                    }
                }
                if !taken.isEmpty { groups.append(group(.nearDuplicate, keep: keep, others: taken)) }
                remaining = left
            }
        }
        return groups
    }

    /// A group kept by `keep`: it first, then `others` by distance to it and path.
    static func group(_ kind: SimilarityReport.Group.Kind, keep: SimilarPhoto, others: [SimilarPhoto]) -> SimilarityReport.Group {
        let distance = { (photo: SimilarPhoto) -> Int? in
            guard let mine = keep.fingerprint, let theirs = photo.fingerprint else { return nil }
            return mine.distance(to: theirs)
        }
        let members = others.map { SimilarityReport.Member(id: $0.id, path: $0.path, distance: distance($0)) }
            .sorted { ($0.distance ?? Int.max, $0.path) < ($1.distance ?? Int.max, $1.path) }
        return SimilarityReport.Group(kind: kind, keep: keep.id,
                                      members: [SimilarityReport.Member(id: keep.id, path: keep.path, distance: keep.fingerprint == nil ? nil : 0)] + members)
    }
}

/// A photo and a burst it has near-duplicate edges to.
struct BurstEdgeKey: Hashable {
    var photo: Int
    var burst: Int
}

/// Disjoint sets of positions 0..<count (union by size, path halving).
struct UnionFind {
    private var parent: [Int]
    private var size: [Int]

    init(count: Int) {
        parent = Array(0..<count)
        size = Array(repeating: 1, count: count)
    }

    mutating func find(_ x: Int) -> Int {
        var x = x
        while parent[x] != x {
            parent[x] = parent[parent[x]]
            x = parent[x]
        }
        return x
    }

    mutating func union(_ a: Int, _ b: Int) {
        var (a, b) = (find(a), find(b))
        guard a != b else { return }
        if size[a] < size[b] { swap(&a, &b) }
        parent[b] = a
        size[a] += size[b]
    }

    /// The sets of more than one member, each in increasing order, ordered by their smallest member.
    mutating func groups() -> [[Int]] {
        var slot = [Int](repeating: -1, count: parent.count)
        var groups: [[Int]] = []
        for x in parent.indices {
            let root = find(x)
            guard size[root] > 1 else { continue }
            if slot[root] < 0 {
                slot[root] = groups.count
                groups.append([])
            }
            groups[slot[root]].append(x)
        }
        return groups
    }
}
