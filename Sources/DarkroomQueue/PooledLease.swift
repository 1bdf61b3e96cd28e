import Foundation
import PostgresNIO

/// A connection a `PostgresClient` pool lends to a plain (not async) thread until `release()`.
///
/// postgres-nio lends a connection only for the duration of an async closure, so `lease(from:)`
/// starts a task that borrows one and then stays suspended, holding it, until `release()`. The
/// borrowing thread blocks on a semaphore meanwhile (while the pool makes a connection, or waits for
/// one to be free); the task only awaits, so it never occupies a thread of Swift's cooperative
/// pool, and the connection's I/O runs on its NIO event loop, which the borrower reaches through
/// `EventLoopFuture`s and never blocks.
final class PooledLease: @unchecked Sendable {
    /// The connection, the borrower's alone until `release()`.
    let connection: PostgresConnection
    private let returned: CheckedContinuation<Void, Never>
    private let lock = NSLock()
    private var released = false

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
        lock.lock()
        let first = !released
        released = true
        lock.unlock()
        if first { returned.resume() }
    }
}

/// Hands the lease (or the pool's error) from the borrowing task to the waiting thread, once.
private final class Handoff: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var result: Result<PooledLease, Error>?

    func deliver(_ outcome: Result<PooledLease, Error>) {
        lock.lock()
        let first = result == nil
        if first { result = outcome }
        lock.unlock()
        if first { semaphore.signal() }
    }

    func wait() throws -> PooledLease {
        semaphore.wait()
        lock.lock()
        defer { lock.unlock() }
        return try result!.get()
    }
}
