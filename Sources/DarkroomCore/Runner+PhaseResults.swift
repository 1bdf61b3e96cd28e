extension Runner {
    /// What the workers of a run's per-item phases learn about each survey entry, by index: shared
    /// between them (in a `Mutex`), read once the phases are over.
    struct PhaseResults {
        var outcomes: [Outcome]
        /// The records kept of the entries worked on, by index: every photo's when the run needs
        /// them all after its phases, else only its stills' (see `RecordsKept`).
        var records: [KeptRecord?]
        /// Why the photos processed with a low-confidence date have it, by index (for the report,
        /// whether or not their records are kept).
        var lowConfidence: [Int: String] = [:]
        /// Why the run stopped early (a full disk), once it has.
        var stopReason: String?

        /// Room for `count` entries, none attempted yet.
        init(count: Int) {
            outcomes = Array(repeating: .skipped, count: count)
            records = Array(repeating: nil, count: count)
        }

        /// Makes room for `count` more entries (videos joined to this run's stills).
        mutating func extend(by count: Int) {
            outcomes += Array(repeating: .skipped, count: count)
            records += Array(repeating: nil, count: count)
        }
    }

    /// A record kept behind a reference: the phases have a slot for every entry, and a slot whose
    /// record is not kept costs a pointer, not a record's room (about 300 bytes).
    final class KeptRecord: Sendable {
        let record: ItemRecord
        init(_ record: ItemRecord) { self.record = record }
    }

    /// Which photos' records a run keeps once their work is done. Collections see every photo and a
    /// run report lists each one, so those keep them all; otherwise (an import) only a still's is
    /// kept, for its motion part or RAW to join it, and a first import of 100,000 photos does not
    /// hold a record a photo to its end.
    struct RecordsKept {
        let everyPhoto: Bool
        /// The stills of the run's motion parts and RAW+JPEG pairs.
        let stillHashes: Set<String>

        /// Whether to keep `record`: every photo's, a still's, or one with a Live Photo identifier
        /// (a video imported earlier on its own may join it).
        func keeps(_ record: ItemRecord) -> Bool {
            everyPhoto || record.contentIdentifier != nil || stillHashes.contains(record.contentHash)
        }
    }
}
