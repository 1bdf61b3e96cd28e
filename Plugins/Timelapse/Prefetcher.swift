import Foundation

/// Runs `produce` for each index on one background thread, at most `depth` results ahead of the
/// consumer, so decoding the next photo overlaps with encoding this one while memory stays bounded
/// (at most `depth` + 2 results alive: queued, being made, being consumed).
///
///     let frames = Prefetcher(count: photos.count, depth: 2) { index in render(photos[index]) }
///     defer { frames.cancel() }
///     while let (index, frame) = frames.next() { ... }
final class Prefetcher<Output>: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [(Int, Output)] = []
    private var producedAll = false
    private var cancelled = false
    private let finished = DispatchSemaphore(value: 0)
    private let depth: Int

    init(count: Int, depth: Int, produce: @escaping (Int) -> Output) {
        self.depth = max(1, depth)
        let thread = Thread { [self] in
            for index in 0..<count {
                condition.lock()
                while queue.count >= self.depth && !cancelled { condition.wait() }
                let stop = cancelled
                condition.unlock()
                if stop { break }
                let output = produce(index)
                condition.lock()
                queue.append((index, output))
                condition.broadcast()
                condition.unlock()
            }
            condition.lock()
            producedAll = true
            condition.broadcast()
            condition.unlock()
            finished.signal()
        }
        thread.stackSize = 8 << 20
        thread.name = "darkroom-prefetch"
        thread.start()
    }

    /// The next result in index order, waiting for it; nil when all were consumed or after `cancel()`.
    func next() -> (Int, Output)? {
        condition.lock(); defer { condition.unlock() }
        while queue.isEmpty && !producedAll && !cancelled { condition.wait() }
        guard !cancelled, !queue.isEmpty else { return nil }
        let first = queue.removeFirst()
        condition.broadcast()
        return first
    }

    /// Stops producing and waits for the background thread to end (safe to call more than once).
    func cancel() {
        condition.lock()
        let wasRunning = !cancelled
        cancelled = true
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
        if wasRunning { finished.wait() }
    }
}
