import DarkroomSimilarity
import Foundation

/// A small seeded generator (SplitMix64), so every run measures the same fingerprints.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A random hash as the hasher makes them: half the low `bits` bits set (31 of 63, 28 of 57).
func randomHash(bits: Int = 63, _ generator: inout SplitMix64) -> UInt64 {
    var positions = Array(0..<bits)
    positions.shuffle(using: &generator)
    return positions.prefix(bits / 2).reduce(UInt64(0)) { $0 | 1 << UInt64($1) }
}

/// A random framing: a random perceptual hash and detail hash.
func randomFraming(_ generator: inout SplitMix64) -> SimilarityFingerprint.Framing {
    SimilarityFingerprint.Framing(hash: PerceptualHash(bits: randomHash(&generator)), detail: PerceptualHash(bits: randomHash(bits: 57, &generator)))
}

/// `hash` with `pairs` set bits cleared and as many clear bits set (distance 2 * pairs, weight kept).
func moved(_ hash: UInt64, pairs: Int, bits: Int = 63, _ generator: inout SplitMix64) -> UInt64 {
    let ones = (0..<bits).filter { hash >> UInt64($0) & 1 == 1 }.shuffled(using: &generator)
    let zeros = (0..<bits).filter { hash >> UInt64($0) & 1 == 0 }.shuffled(using: &generator)
    var result = hash
    for index in 0..<pairs { result ^= 1 << UInt64(ones[index]) | 1 << UInt64(zeros[index]) }
    return result
}

/// A photo's fingerprint around `whole` (perceptual and detail hash): its crops 2 to 8 bits away, as measured on the corpus.
func makeFingerprint(_ whole: SimilarityFingerprint.Framing, brightness: UInt8, _ generator: inout SplitMix64) -> SimilarityFingerprint {
    let crops = (0..<SimilarityFingerprint.cropCount).map { _ in moved(whole, pairs: Int.random(in: 1...4, using: &generator), &generator) }
    return try! SimilarityFingerprint(whole: whole, crops: crops, brightness: brightness)
}

/// Both hashes of `framing` moved by `pairs` pairs of bits.
func moved(_ framing: SimilarityFingerprint.Framing, pairs: Int, _ generator: inout SplitMix64) -> SimilarityFingerprint.Framing {
    SimilarityFingerprint.Framing(hash: PerceptualHash(bits: moved(framing.hash.bits, pairs: pairs, &generator)),
                                  detail: PerceptualHash(bits: moved(framing.detail.bits, pairs: pairs, bits: 57, &generator)))
}

/// `count` photos: 90 % unrelated, 10 % copies of an earlier unrelated one (hashes 0 to 8 bits away, same brightness).
func syntheticPhotos(_ count: Int) -> (photos: [SimilarPhoto], planted: Set<[Int]>) {
    var generator = SplitMix64(state: 22)
    var photos: [SimilarPhoto] = []
    var planted = Set<[Int]>()
    for index in 0..<count {
        let fingerprint: SimilarityFingerprint
        if index >= 10, index % 10 == 0 {
            // A copy of an unrelated photo (not of another copy, whose own copy could be 16 bits away).
            var original = Int.random(in: 0..<index, using: &generator)
            while original >= 10 && original % 10 == 0 { original = Int.random(in: 0..<index, using: &generator) }
            let source = photos[original].fingerprint!
            fingerprint = makeFingerprint(moved(source.whole, pairs: Int.random(in: 0...4, using: &generator), &generator),
                                          brightness: source.brightness, &generator)
            planted.insert([original, index])
        } else {
            fingerprint = makeFingerprint(randomFraming(&generator), brightness: UInt8.random(in: 0...255, using: &generator), &generator)
        }
        photos.append(SimilarPhoto(id: String(index), path: "/library/\(index).jpg", fingerprint: fingerprint,
                                   pixelCount: 12_000_000, modifiedNanoseconds: Int64(index) * 1_000_000_000_000))
    }
    return (photos, planted)
}

/// CPU seconds (user and system) the process spent in `body`.
func cpuSeconds(_ body: () -> Void) -> Double {
    func now() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
    let start = now()
    body()
    return now() - start
}

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// The pairs within the limits, found by comparing every pair (the baseline the index must agree with).
func allPairs(_ photos: [SimilarPhoto]) -> Set<[Int]> {
    var pairs = Set<[Int]>()
    for a in photos.indices {
        for b in (a + 1)..<photos.count where photos[a].fingerprint!.nearDuplicateDistance(to: photos[b].fingerprint!) != nil {
            pairs.insert([a, b])
        }
    }
    return pairs
}

func runGrouping(photos count: Int, brute: Int, runs: Int) {
    let (photos, planted) = syntheticPhotos(count)
    print("photos: \(count)")
    print("planted_pairs: \(planted.count)")
    var report = SimilarityReport(groups: [])
    var times: [Double] = []
    for _ in 0..<max(1, runs) { times.append(seconds { report = SimilarityFinder.report(for: photos) }) }
    times.sort()
    let reportCPU = cpuSeconds { report = SimilarityFinder.report(for: photos) }
    printSteps(photos)
    print(String(format: "grouping_seconds_median: %.3f", times[times.count / 2]))
    print(String(format: "grouping_cpu_seconds: %.3f", reportCPU))
    print(String(format: "grouping_seconds_min: %.3f", times[0]))
    let grouped = Set(report.groups.flatMap { group in
        group.members.dropFirst().map { [min(Int(group.keep)!, Int($0.id)!), max(Int(group.keep)!, Int($0.id)!)] }
    })
    let inSameGroup = { (pair: [Int]) in
        report.groups.contains { group in group.members.contains { $0.id == String(pair[0]) } && group.members.contains { $0.id == String(pair[1]) } }
    }
    let found = planted.filter { grouped.contains($0) || inSameGroup($0) }.count
    print("planted_pairs_grouped: \(found)")
    print("groups: \(report.groups.count)")
    let index = NearDuplicateIndex(photos.map { (id: $0.id, fingerprint: $0.fingerprint!) })
    var pairs: [NearDuplicateIndex<String>.Pair] = []
    let query = seconds { pairs = index.pairs() }
    let cpu = cpuSeconds { _ = index.pairs() }
    print(String(format: "index_pairs_seconds: %.3f", query))
    print(String(format: "index_pairs_cpu_seconds: %.3f", cpu))
    print("index_pairs: \(pairs.count)")

    let subset = Array(photos.prefix(brute))
    var exhaustive = Set<[Int]>()
    let bruteTime = seconds { exhaustive = allPairs(subset) }
    var indexed = Set<[Int]>()
    let indexTime = seconds {
        let small = NearDuplicateIndex(subset.map { (id: $0.id, fingerprint: $0.fingerprint!) })
        indexed = Set(small.pairs().map { [$0.first, $0.second] })
    }
    print("brute_photos: \(subset.count)")
    print(String(format: "brute_all_pairs_seconds: %.3f", bruteTime))
    print(String(format: "brute_index_seconds: %.3f", indexTime))
    print("brute_pairs: \(exhaustive.count)")
    print("brute_index_agrees: \(exhaustive == indexed ? "yes" : "no (\(exhaustive.subtracting(indexed).count) missed, \(indexed.subtracting(exhaustive).count) extra)")")
}

/// Where the grouping's CPU time goes (for tuning; not printed by the script's summary).
func printSteps(_ photos: [SimilarPhoto]) {
    var shots: [BurstShot] = []
    print(String(format: "step_shots_cpu_seconds: %.3f", cpuSeconds { shots = photos.map(\.shot) }))
    print(String(format: "step_bursts_cpu_seconds: %.3f", cpuSeconds { _ = BurstGrouping.bursts(in: shots) }))
    let index = NearDuplicateIndex(photos.map { (id: $0.id, fingerprint: $0.fingerprint!) })
    print(String(format: "step_pairs_cpu_seconds: %.3f", cpuSeconds { _ = index.pairs() }))
}
