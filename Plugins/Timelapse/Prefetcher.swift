import DarkroomCore
import Foundation
import DarkroomModel

/// Runs `produce` for each index on one background thread, at most `depth` results ahead of the
/// consumer, so decoding the next photo overlaps with encoding this one while memory stays bounded
/// (at most `depth` + 2 results alive: queued, being made, being consumed).
///
///     let frames = Prefetcher(count: photos.count, depth: 2) { index in render(photos[index]) }
///     defer { frames.cancel() }
///     while let (index, frame) = frames.next() { ... }
final class Prefetcher<Output: Sendable>: Sendable {
    private let state = Monitor(State())
    private let finished = DispatchSemaphore(value: 0)

    /// What the producing thread and the consumer share.
    private struct State {
        /// Results made and not taken yet, in index order.
        var queue: [(Int, Output)] = []
        var producedAll = false
        var cancelled = false
    }

    init(count: Int, depth: Int, produce: @escaping @Sendable (Int) -> Output) {
        let depth = max(1, depth)
        let thread = Thread { [state, finished] in
            for index in 0..<count {
                let stop = state.wait(until: { $0.queue.count < depth || $0.cancelled }) { $0.cancelled }
                if stop { break }
                let output = produce(index)
                state.withLock { $0.queue.append((index, output)) }
            }
            state.withLock { $0.producedAll = true }
            finished.signal()
        }
        thread.stackSize = 8 << 20
        thread.name = "darkroom-prefetch"
        thread.start()
    }

    /// The next result in index order, waiting for it; nil when all were consumed or after `cancel()`.
    func next() -> (Int, Output)? {
        state.wait(until: { !$0.queue.isEmpty || $0.producedAll || $0.cancelled }) { state in
            guard !state.cancelled, !state.queue.isEmpty else { return nil }
            return state.queue.removeFirst()
        }
    }

    /// Stops producing and waits for the background thread to end (safe to call more than once).
    func cancel() {
        let wasRunning = state.withLock { state in
            defer { state.cancelled = true; state.queue.removeAll() }
            return !state.cancelled
        }
        if wasRunning { finished.wait() }
    }
}
