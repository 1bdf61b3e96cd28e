import Foundation
import Synchronization

/// Blocking work (a queue worker's loop, its database calls) on a thread of its own, awaited from
/// async code without holding a thread of Swift's cooperative pool.
enum BlockingThread {
    /// Starts `body` on a new thread (with an 8 MiB stack, as the runner's threads have).
    static func start<T: Sendable>(_ body: @escaping @Sendable () throws -> T) -> PendingResult<T> {
        let result = PendingResult<T>()
        let thread = Thread { result.finish(Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
        return result
    }

    /// Runs `body` on a new thread and returns what it returns.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await start(body).value
    }
}

/// A result that one thread or task produces and another awaits (from async code) or waits for
/// (blocking a plain thread): what a `BlockingThread` returns, or how a `ServiceGroup` ended.
final class PendingResult<T: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let state = Mutex(State())

    /// The outcome once known, and who awaits it meanwhile.
    private struct State {
        var result: Result<T, Error>?
        var waiter: CheckedContinuation<T, Error>?
        var cancelled = false
    }

    /// Records the outcome (the first one only) and wakes whoever waits for it.
    func finish(_ outcome: Result<T, Error>) {
        let (first, waiting) = state.withLock { state -> (Bool, CheckedContinuation<T, Error>?) in
            guard state.result == nil else { return (false, nil) }
            state.result = outcome
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        guard first else { return }
        done.signal()
        waiting?.resume(with: outcome)
    }

    /// Blocks the calling thread until the outcome is known, and returns it (or throws it).
    func wait() throws -> T {
        done.wait()
        done.signal()  // for any other waiter
        return try state.withLock { $0.result! }.get()
    }

    /// The outcome, awaited. Cancelling the awaiting task stops the wait with
    /// `CancellationError`; the thread itself runs on to its end.
    var value: T {
        get async throws {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                    let known: Result<T, Error>? = state.withLock { state in
                        if let result = state.result { return result }
                        if state.cancelled { return .failure(CancellationError()) }
                        state.waiter = continuation
                        return nil
                    }
                    if let known { continuation.resume(with: known) }
                }
            } onCancel: {
                let waiting = state.withLock { state in
                    state.cancelled = true
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiting?.resume(throwing: CancellationError())
            }
        }
    }
}
