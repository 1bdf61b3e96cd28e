import Foundation
import PostgresNIO

extension WorkQueue {
    /// Records a worker (again, when the id is known: it starts afresh) with the folder it stages files in.
    public func registerWorker(id: String, host: String, pid: Int32, temporaryFolder: String) throws {
        try session.execute("""
            INSERT INTO workers (id, host, pid, temp_folder) VALUES (\(id), \(host), \(Int(pid)), \(temporaryFolder))
            ON CONFLICT (id) DO UPDATE SET host = EXCLUDED.host, pid = EXCLUDED.pid, temp_folder = EXCLUDED.temp_folder,
                started_at = now(), heartbeat_at = now()
            """)
    }

    /// Notes that the worker is alive; false when it is not registered (another worker found it
    /// stale and removed it), when it should register again.
    @discardableResult
    public func heartbeat(worker: String) throws -> Bool {
        try session.execute("UPDATE workers SET heartbeat_at = now() WHERE id = \(worker)") == 1
    }

    /// Forgets a worker (when it stops, or once its stale temporary folder is deleted).
    public func unregisterWorker(id: String) throws {
        try session.execute("DELETE FROM workers WHERE id = \(id)")
    }

    /// Workers whose last heartbeat is more than `olderThan` seconds old, with their temporary
    /// folders: the caller deletes the folders, then unregisters the workers.
    public func staleWorkers(olderThan: TimeInterval) throws -> [(id: String, temporaryFolder: String)] {
        try session.query("""
            SELECT id, temp_folder FROM workers WHERE heartbeat_at < now() - make_interval(secs => \(olderThan)) ORDER BY id
            """).map {
            let (id, folder) = try $0.decode((String, String).self)
            return (id, folder)
        }
    }
}
