import Foundation

/// The outputs a collection step could not make, counted from any thread.
final class ProblemCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    /// Counts an output (a group's collage) the stage could not make.
    func increment() { lock.lock(); count += 1; lock.unlock() }
    /// How many outputs the stage could not make.
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}

/// A bounded pool for blocking native work (libvips, libheif and x265 block for seconds; they
/// must not sit on Swift's cooperative pool).
public enum DarkroomThreads {
    /// Calls `body` for every index in `0..<count`, at most `jobs` at once, and returns when all are done.
    public static func forEach(count: Int, jobs: Int, _ body: @escaping (Int) -> Void) {
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
}
