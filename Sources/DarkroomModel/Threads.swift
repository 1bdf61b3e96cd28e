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

/// Values made in order on one thread of its own, each while the caller works on the one before
/// (the next block's or month's catalog reads, while a run works on this one's photos): at most one
/// waits to be taken. One thread for all of them, not one each, so that what they allocate comes
/// from one of the C heap's arenas (a thread a value spread 100,000 photos' reads over a dozen
/// arenas, and a re-run held 200 MB more).
public final class Ahead<T: Sendable>: @unchecked Sendable {
    private let made = DispatchSemaphore(value: 0)
    private let taken = DispatchSemaphore(value: 1)
    private let stopped = Atomic<Bool>(false)
    // The value made and not taken yet: written by the thread before it signals `made`, and taken
    // by `next` before it signals `taken`, which the thread waits for before it writes again.
    private var waiting: T?

    /// Starts making `make(0)`, then each next value as soon as the one before is taken, up to `count`.
    public init(count: Int, _ make: @escaping @Sendable (Int) -> T) {
        guard count > 0 else { return }
        let thread = Thread { [self] in
            for index in 0..<count {
                taken.wait()
                if stopped.load(ordering: .relaxed) { break }
                waiting = make(index)
                made.signal()
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The next value, once made; ask at most `count` times.
    public func next() -> T {
        made.wait()
        defer { taken.signal() }
        let value = waiting!
        waiting = nil
        return value
    }

    /// Makes no more values after the one being made (for a caller that stops early).
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        taken.signal()
    }
}
