/// What a bulk read of the catalog answered, by key: the values it found, and apart from them the
/// keys it was asked about and found nothing for. A first import asks about 100,000 files and
/// photos the catalog has nothing of; each of those costs an entry of a set of keys here, not a
/// dictionary's slot sized for an answer (an optional `RememberedFacts` is some 300 bytes, and
/// the dictionary never gives its slots back).
struct ReadAheadAnswers<Value: Sendable>: Sendable {
    private var found: [String: Value] = [:]
    private var absent: Set<String> = []

    /// The answer for `key`: nil when it was not asked, `.some(nil)` when the catalog has nothing.
    subscript(key: String) -> Value?? {
        if let value = found[key] { return .some(value) }
        return absent.contains(key) ? .some(nil) : nil
    }

    /// Takes in a bulk read's answers: `found`, and nothing for each other key of `asked`. The
    /// answers are taken as they are when nothing was known yet (100,000 entries are not inserted
    /// one by one).
    mutating func add(found read: [String: Value], asked: [String]) {
        if found.isEmpty { found = read } else { found.merge(read) { _, new in new } }
        if !absent.isEmpty { for key in read.keys { absent.remove(key) } }
        let missing = asked.lazy.filter { read[$0] == nil }
        if absent.isEmpty { absent = Set(missing) } else { absent.formUnion(missing) }
    }

    /// Forgets what is known of `key`: it is asked of the catalog again.
    mutating func forget(_ key: String) {
        found[key] = nil
        absent.remove(key)
    }

    /// Forgets everything.
    mutating func removeAll() {
        found = [:]
        absent = []
    }
}
