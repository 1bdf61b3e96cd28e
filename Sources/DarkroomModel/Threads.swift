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

/// Values made in order on threads of their own (`threads`, one by default), each while the caller
/// works on the ones before (the next block's or months' catalog reads, while a run works on this
/// one's photos): each thread makes every `threads`-th value, and at most one of its values waits
/// to be taken. A few threads for all of them, not one each, so that what they allocate comes from
/// a few of the C heap's arenas (a thread a value spread 100,000 photos' reads over a dozen arenas,
/// and a re-run held 200 MB more).
public final class Ahead<T: Sendable>: @unchecked Sendable {
    /// One thread's hand-over: the value it made and not taken yet, written by the thread before it
    /// signals `made`, and taken by `next` before it signals `taken`, which the thread waits for
    /// before it writes again.
    private final class Slot: @unchecked Sendable {
        let made = DispatchSemaphore(value: 0)
        // Made at 0 and signalled once for the first value: libdispatch stops the process when a
        // semaphore goes away below the value it was made with, as this one does when a caller
        // stops early and its thread leaves waiting.
        let taken = DispatchSemaphore(value: 0)
        var waiting: T?

        init() { taken.signal() }
    }

    private let slots: [Slot]
    private let stopped = Atomic<Bool>(false)
    /// How many values `next` has handed out (the caller's thread only).
    private var handedOut = 0

    /// Starts making `make(0)`, `make(1)` ... up to `count` on `threads` threads, each making its
    /// next value as soon as the one before it is taken.
    public init(count: Int, threads: Int = 1, _ make: @escaping @Sendable (Int) -> T) {
        slots = (0..<max(0, min(threads, count))).map { _ in Slot() }
        for (first, slot) in slots.enumerated() {
            let thread = Thread { [self, slots] in
                for index in stride(from: first, to: count, by: slots.count) {
                    slot.taken.wait()
                    if stopped.load(ordering: .relaxed) { break }
                    slot.waiting = make(index)
                    slot.made.signal()
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// The next value, once made; ask at most `count` times, from one thread.
    public func next() -> T {
        let slot = slots[handedOut % slots.count]
        handedOut += 1
        slot.made.wait()
        defer { slot.taken.signal() }
        let value = slot.waiting!
        slot.waiting = nil
        return value
    }

    /// Makes no more values after the ones being made (for a caller that stops early).
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        for slot in slots { slot.taken.signal() }
    }
}
