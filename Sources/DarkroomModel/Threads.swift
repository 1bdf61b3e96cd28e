import Foundation
import Synchronization

/// A thread-safe counter: an atomic integer (workers taking the next of 100,000 indices do not wait
/// on a lock for it).
package final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    package init() {}
    /// Adds one and returns the new count.
    package func increment() -> Int { value.wrappingAdd(1, ordering: .relaxed).newValue }
}

/// A bounded pool for blocking native work (libvips, libheif and x265 block for seconds; they
/// must not sit on Swift's cooperative pool).
public enum DarkroomThreads {
    /// Calls `body` for every index in `0..<count`, at most `jobs` at once, and returns when all are done.
    public static func forEach(count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let workers = max(1, min(jobs, count))
        let next = Counter()
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let thread = Thread {
                while true {
                    let index = next.increment() - 1
                    guard index < count else { break }
                    body(index)
                }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
    }

    /// Calls `transform` for every index in `0..<count`, at most `jobs` at once, and returns what
    /// it returned, in index order.
    public static func map<T: Sendable>(count: Int, jobs: Int, _ transform: @escaping @Sendable (Int) -> T) -> [T] {
        let results = Slots<T>(count: count)
        forEach(count: count, jobs: jobs) { index in results.fill(index, with: transform(index)) }
        return results.values()
    }

    /// Where `map` keeps what its workers return: one slot an index, each filled by the one worker
    /// that took that index, so no lock is taken for it (one was, 100,000 times for a re-run's
    /// hashes, with the workers waiting on each other); read once every worker is done.
    private final class Slots<T>: @unchecked Sendable {
        private let slots: UnsafeMutableBufferPointer<T?>

        init(count: Int) {
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil)
        }

        deinit {
            slots.deinitialize()
            slots.deallocate()
        }

        /// Fills slot `index`; only the worker given `index` calls this.
        func fill(_ index: Int, with value: T) { slots[index] = value }

        /// Every slot's value, in index order, once all are filled.
        func values() -> [T] { slots.map { $0! } }
    }
}
