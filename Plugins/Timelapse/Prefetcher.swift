import DarkroomCore
import Foundation
import DarkroomModel

/// Runs `produce` for each index on `workers` background threads, at most `depth` results ahead of
/// the consumer, and hands the results over in index order: decoding the next photos overlaps with
/// encoding (or aligning) this one while memory stays bounded (at most `depth` + `workers` + 1
/// results alive: waiting, being made, being consumed).
///
///     let frames = Prefetcher(count: photos.count, depth: 2) { index in render(photos[index]) }
///     defer { frames.cancel() }
///     while let (index, frame) = frames.next() { ... }
final class Prefetcher<Output: Sendable>: Sendable {
    private let state: Monitor<State>
    private let finished: DispatchSemaphore
    private let workers: Int
    private let count: Int

    /// What the producing threads and the consumer share.
    private struct State {
        /// Results made and not taken yet, by index.
        var made: [Int: Output] = [:]
        /// The next index a worker takes, and the next the consumer takes.
        var nextToMake = 0
        var nextToTake = 0
        var cancelled = false
    }

    init(count: Int, depth: Int, workers: Int = 1, produce: @escaping @Sendable (Int) -> Output) {
        let depth = max(1, depth)
        let state = Monitor(State())
        let finished = DispatchSemaphore(value: 0)
        (self.state, self.finished, self.workers, self.count) = (state, finished, max(1, workers), count)
        for number in 0..<self.workers {
            let thread = Thread {
                while true {
                    let index: Int? = state.wait(until: { $0.cancelled || $0.nextToMake >= count || $0.nextToMake < $0.nextToTake + depth }) { state in
                        guard !state.cancelled, state.nextToMake < count else { return nil }
                        defer { state.nextToMake += 1 }
                        return state.nextToMake
                    }
                    guard let index else { break }
                    let output = produce(index)
                    state.withLock { $0.made[index] = output }
                }
                finished.signal()
            }
            thread.stackSize = 8 << 20
            thread.name = "darkroom-prefetch-\(number)"
            thread.start()
        }
    }

    /// The next result in index order, waiting for it; nil when all were consumed or after `cancel()`.
    func next() -> (Int, Output)? {
        let count = self.count
        return state.wait(until: { $0.cancelled || $0.nextToTake >= count || $0.made[$0.nextToTake] != nil }) { state in
            guard !state.cancelled, let output = state.made.removeValue(forKey: state.nextToTake) else { return nil }
            defer { state.nextToTake += 1 }
            return (state.nextToTake, output)
        }
    }

    /// Stops producing and waits for the background threads to end (safe to call more than once).
    func cancel() {
        let wasRunning = state.withLock { state in
            defer { state.cancelled = true; state.made.removeAll() }
            return !state.cancelled
        }
        if wasRunning { for _ in 0..<workers { finished.wait() } }
    }
}
