import Dispatch
import Synchronization

/// The multi-index hash join behind `NearDuplicateIndex` (multi-index hashing: Norouzi, Punjani and
/// Fleet, "Fast search in Hamming space with multi-index hashing", 2012).
///
/// The 63 hash bits are cut into four chunks (16, 16, 16 and 15 bits). Two hashes within `radius`
/// bits agree closely in some chunk: with `radius = 4 r + a` (8 = 4 x 2 + 0), one of the first
/// `a + 1` chunks differs in at most `r` bits or another in at most `r - 1` (pigeonhole: otherwise
/// they would differ in more). So for each chunk the photos' whole-frame hashes (the queries) and
/// all their hashes (the entries) are sorted into buckets by that chunk's bits, and every bucket of
/// entries is compared with the buckets of queries whose key is within those bits of its own:
/// bucket after bucket, so both sides are read in order rather than probed at random (probing was
/// twenty times slower, a cache miss a probe).
struct HashTables {
    /// A chunk of the hash bits: where, how wide, and the key differences searched.
    struct Chunk {
        var shift: UInt64
        var width: Int
        var masks: [UInt32]

        var keys: Int { 1 << width }
        func key(_ hash: UInt64) -> Int { Int((hash >> shift) & UInt64((1 << width) - 1)) }
    }

    /// Hashes sorted into buckets by a chunk's key: bucket `k` is `hashes[starts[k]..<starts[k + 1]]`,
    /// owned by the photos at the same positions of `owners`.
    struct Buckets {
        var starts: [Int32]
        var hashes: [UInt64]
        var owners: [Int32]

        init(_ chunk: Chunk, _ items: [(hash: UInt64, owner: Int32)]) {
            var counts = [Int32](repeating: 0, count: chunk.keys + 1)
            for item in items { counts[chunk.key(item.hash) + 1] += 1 }
            for index in 1..<counts.count { counts[index] += counts[index - 1] }
            var next = Array(counts.dropLast())
            hashes = [UInt64](repeating: 0, count: items.count)
            owners = [Int32](repeating: 0, count: items.count)
            for item in items {
                let key = chunk.key(item.hash)
                hashes[Int(next[key])] = item.hash
                owners[Int(next[key])] = item.owner
                next[key] += 1
            }
            starts = counts
        }
    }

    static let chunkCount = 4

    /// The chunks for `radius`: with `radius = chunkCount * r + a`, the first `a + 1` chunks are
    /// searched within `r` bits, the others within `r - 1`.
    static func chunks(radius: Int) -> [Chunk] {
        let (perChunk, extra) = (radius / chunkCount, radius % chunkCount)
        var chunks: [Chunk] = [], shift = 0
        for index in 0..<chunkCount {
            let width = 63 / chunkCount + (index < 63 % chunkCount ? 1 : 0)
            let reach = index <= extra ? perChunk : perChunk - 1
            chunks.append(Chunk(shift: UInt64(shift), width: width, masks: (0..<UInt32(1 << width)).filter { $0.nonzeroBitCount <= reach }))
            shift += width
        }
        return chunks
    }

    /// Every (query owner, entry owner) with a query hash within `radius` bits of an entry hash,
    /// owners different, as `query << 32 | entry`, in no set order and possibly more than once
    /// (found in several chunks, or through several of a photo's hashes). Runs in parallel: each
    /// chunk's keys are cut into slices of about equal work (a chunk searched within 2 bits has
    /// eight times the work of one searched within 1).
    static func join(queries: [(hash: UInt64, owner: Int32)], entries: [(hash: UInt64, owner: Int32)], radius: Int) -> [UInt64] {
        let chunks = chunks(radius: radius)
        let tables = Mutex<[(queries: Buckets, entries: Buckets)?]>(Array(repeating: nil, count: chunks.count))
        DispatchQueue.concurrentPerform(iterations: chunks.count) { index in
            let built = (queries: Buckets(chunks[index], queries), entries: Buckets(chunks[index], entries))
            tables.withLock { $0[index] = built }
        }
        let buckets = tables.withLock { $0.map { $0! } }
        let work = chunks.enumerated().flatMap { index, chunk in
            let slices = max(1, chunk.masks.count / 2)
            let step = (chunk.keys + slices - 1) / slices
            return stride(from: 0, to: chunk.keys, by: step).map { (chunk: index, keys: $0..<min(chunk.keys, $0 + step)) }
        }
        let found = Mutex<[UInt64]>([])
        DispatchQueue.concurrentPerform(iterations: work.count) { item in
            let (index, keys) = work[item]
            let hits = matches(buckets[index].queries, buckets[index].entries, chunk: chunks[index], keys: keys, radius: radius)
            if !hits.isEmpty { found.withLock { $0 += hits } }
        }
        return found.withLock { $0 }
    }

    /// The hits of one chunk's `keys`: each entry bucket against the query buckets within the chunk's masks.
    static func matches(_ queries: Buckets, _ entries: Buckets, chunk: Chunk, keys: Range<Int>, radius: Int) -> [UInt64] {
        var hits: [UInt64] = []
        queries.starts.withUnsafeBufferPointer { queryStarts in
            queries.hashes.withUnsafeBufferPointer { queryHashes in
                entries.starts.withUnsafeBufferPointer { entryStarts in
                    entries.hashes.withUnsafeBufferPointer { entryHashes in
                        for key in keys {
                            let entryRange = Int(entryStarts[key])..<Int(entryStarts[key + 1])
                            if entryRange.isEmpty { continue }
                            for mask in chunk.masks {
                                let near = key ^ Int(mask)
                                let queryRange = Int(queryStarts[near])..<Int(queryStarts[near + 1])
                                for query in queryRange {
                                    let hash = queryHashes[query]
                                    for entry in entryRange where (hash ^ entryHashes[entry]).nonzeroBitCount <= radius {
                                        let (from, to) = (queries.owners[query], entries.owners[entry])
                                        if from != to { hits.append(UInt64(UInt32(from)) << 32 | UInt64(UInt32(to))) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return hits
    }
}
