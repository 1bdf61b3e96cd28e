import Foundation
import Synchronization

/// A thread-safe counter.
package final class Counter: Sendable {
    private let value = Mutex(0)
    package init() {}
    /// Adds one and returns the new count.
    package func increment() -> Int { value.withLock { $0 += 1; return $0 } }
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
        let results = Mutex([T?](repeating: nil, count: count))
        forEach(count: count, jobs: jobs) { index in
            let result = transform(index)
            results.withLock { $0[index] = result }
        }
        return results.withLock { $0.map { $0! } }
    }
}
