extension Runner {
    /// What the workers of a run's per-item phases learn about each survey entry, by index: shared
    /// between them (in a `Mutex`), read once the phases are over.
    struct PhaseResults {
        var outcomes: [Outcome]
        var records: [ItemRecord?]
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
}
