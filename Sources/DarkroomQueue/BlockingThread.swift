import Foundation

/// Blocking work (a queue worker's loop, its database calls) on a thread of its own, awaited from
/// async code without holding a thread of Swift's cooperative pool.
enum BlockingThread {
    /// Starts `body` on a new thread (with an 8 MiB stack, as the runner's threads have).
    static func start<T>(_ body: @escaping () throws -> T) -> PendingResult<T> {
        let result = PendingResult<T>()
        let thread = Thread { result.finish(Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
        return result
    }

    /// Runs `body` on a new thread and returns what it returns.
    static func run<T>(_ body: @escaping () throws -> T) async throws -> T {
        try await start(body).value
    }
}

/// A result that one thread or task produces and another awaits (from async code) or waits for
/// (blocking a plain thread): what a `BlockingThread` returns, or how a `ServiceGroup` ended.
final class PendingResult<T>: @unchecked Sendable {
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<T, Error>?
    private var waiter: CheckedContinuation<T, Error>?
    private var cancelled = false

    /// Records the outcome (the first one only) and wakes whoever waits for it.
    func finish(_ outcome: Result<T, Error>) {
        lock.lock()
        guard result == nil else { return lock.unlock() }
        result = outcome
        let waiting = waiter
        waiter = nil
        lock.unlock()
        done.signal()
        waiting?.resume(with: outcome)
    }

    /// Blocks the calling thread until the outcome is known, and returns it (or throws it).
    func wait() throws -> T {
        done.wait()
        done.signal()  // for any other waiter
        lock.lock()
        defer { lock.unlock() }
        return try result!.get()
    }

    /// The outcome, awaited. Cancelling the awaiting task stops the wait with
    /// `CancellationError`; the thread itself runs on to its end.
    var value: T {
        get async throws {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                    lock.lock()
                    if let result {
                        lock.unlock()
                        continuation.resume(with: result)
                    } else if cancelled {
                        lock.unlock()
                        continuation.resume(throwing: CancellationError())
                    } else {
                        waiter = continuation
                        lock.unlock()
                    }
                }
            } onCancel: {
                lock.lock()
                cancelled = true
                let waiting = waiter
                waiter = nil
                lock.unlock()
                waiting?.resume(throwing: CancellationError())
            }
        }
    }
}
