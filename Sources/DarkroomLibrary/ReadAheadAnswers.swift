/// What a bulk read of the catalog answered, by key: the values it found, and apart from them the
/// keys it was asked about and found nothing for. A first import asks about 100,000 files and
/// photos the catalog has nothing of; each of those costs an entry of a set of keys here, not a
/// slot sized for an answer. The values found are kept in an array, each key with its position: a
/// dictionary's slots are the size of its values (an optional `RememberedFacts` is some 300 bytes),
/// and one of 100,000 keys has 262,144 of them (at most three quarters full, and never given back).
struct ReadAheadAnswers<Value: Sendable>: Sendable {
    private var positions: [String: Int] = [:]
    private var values: [Value] = []
    private var absent: Set<String> = []

    /// The answer for `key`: nil when it was not asked, `.some(nil)` when the catalog has nothing.
    subscript(key: String) -> Value?? {
        if let position = positions[key] { return .some(values[position]) }
        return absent.contains(key) ? .some(nil) : nil
    }

    /// Takes in a bulk read's answers: `found`, and nothing for each other key of `asked`. Each key is
    /// kept as it was asked, the caller's own string, not the copy the catalog's row gave: the answers
    /// about 100,000 photos then hold no second copy of their hashes.
    mutating func add(found read: [String: Value], asked: [String]) {
        if values.isEmpty {
            values.reserveCapacity(read.count)
            positions.reserveCapacity(read.count)
        }
        for key in asked {
            guard let value = read[key] else { absent.insert(key); continue }
            if !absent.isEmpty { absent.remove(key) }
            if let position = positions[key] { values[position] = value; continue }
            positions[key] = values.count
            values.append(value)
        }
    }

    /// Makes room for `count` answers found in all, before they are added.
    mutating func reserveCapacity(_ count: Int) {
        values.reserveCapacity(count)
        positions.reserveCapacity(count)
    }

    /// Forgets what is known of `key`: it is asked of the catalog again.
    mutating func forget(_ key: String) {
        positions[key] = nil
        absent.remove(key)
    }

    /// Forgets everything.
    mutating func removeAll() {
        self = ReadAheadAnswers()
    }

    /// Forgets everything, and returns it, for the caller to free outside a lock.
    mutating func takeAll() -> ReadAheadAnswers {
        let all = self
        self = ReadAheadAnswers()
        return all
    }
}
