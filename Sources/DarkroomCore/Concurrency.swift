import Foundation

/// Outputs a collection step published, in order.
final class CollectedOutputs: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [PublishedOutput] = []
    private var problemCount = 0
    func append(_ output: PublishedOutput) { lock.lock(); list.append(output); lock.unlock() }
    var outputs: [PublishedOutput] { lock.lock(); defer { lock.unlock() }; return list }
    /// Counts an output (a group's collage) the stage could not make.
    func addProblem() { lock.lock(); problemCount += 1; lock.unlock() }
    /// How many outputs the stage could not make.
    var problems: Int { lock.lock(); defer { lock.unlock() }; return problemCount }
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
