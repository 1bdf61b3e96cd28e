import Foundation
import PostgresNIO
import Synchronization

/// A connection a `PostgresClient` pool lends to a plain (not async) thread until `release()`.
///
/// postgres-nio lends a connection only for the duration of an async closure, so `lease(from:)`
/// starts a task that borrows one and then stays suspended, holding it, until `release()`. The
/// borrowing thread blocks on a semaphore meanwhile (while the pool makes a connection, or waits for
/// one to be free); the task only awaits, so it never occupies a thread of Swift's cooperative
/// pool, and the connection's I/O runs on its NIO event loop, which the borrower reaches through
/// `EventLoopFuture`s and never blocks.
final class PooledLease: Sendable {
    /// The connection, the borrower's alone until `release()`.
    let connection: PostgresConnection
    private let returned: CheckedContinuation<Void, Never>
    private let released = Mutex(false)

    private init(connection: PostgresConnection, returned: CheckedContinuation<Void, Never>) {
        self.connection = connection
        self.returned = returned
    }

    /// Borrows a connection from `client`, blocking the calling thread until one is free (or the
    /// pool fails: its error is thrown).
    static func lease(from client: PostgresClient) throws -> PooledLease {
        let handoff = Handoff()
        Task {
            do {
                try await client.withConnection { connection in
                    await withCheckedContinuation { returned in
                        handoff.deliver(.success(PooledLease(connection: connection, returned: returned)))
                    }
                }
            } catch {
                handoff.deliver(.failure(error))
            }
        }
        return try handoff.wait()
    }

    /// Gives the connection back to the pool. Safe to call twice.
    func release() {
        let first = released.withLock { released in
            defer { released = true }
            return !released
        }
        if first { returned.resume() }
    }
}

/// Hands the lease (or the pool's error) from the borrowing task to the waiting thread, once.
private final class Handoff: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let result = Mutex<Result<PooledLease, Error>?>(nil)

    /// Hands over `outcome`, unless one was handed over already.
    func deliver(_ outcome: Result<PooledLease, Error>) {
        let first = result.withLock { result in
            guard result == nil else { return false }
            result = outcome
            return true
        }
        if first { semaphore.signal() }
    }

    /// Waits for the outcome, and returns (or throws) it.
    func wait() throws -> PooledLease {
        semaphore.wait()
        return try result.withLock { $0! }.get()
    }
}
