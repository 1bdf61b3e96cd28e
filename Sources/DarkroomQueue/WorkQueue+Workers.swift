import Foundation
import PostgresNIO

/// What the `workers` table records of a worker: who it is and the folder it stages files in.
public struct WorkerRegistration: Sendable, Hashable {
    /// The worker's id (the `lease_owner` of the jobs it claims).
    public var id: String
    /// The machine it runs on.
    public var host: String
    /// Its process id on that machine.
    public var pid: Int32
    /// The folder it stages files in ("" while it has none), which is removed once the worker is stale.
    public var temporaryFolder: String

    /// A worker's registration.
    public init(id: String, host: String, pid: Int32, temporaryFolder: String) {
        self.id = id; self.host = host; self.pid = pid; self.temporaryFolder = temporaryFolder
    }
}

extension WorkQueue {
    /// Records a worker (again, when the id is known: it starts afresh) with the folder it stages files in.
    public func registerWorker(id: String, host: String, pid: Int32, temporaryFolder: String) throws {
        try session.execute("""
            INSERT INTO workers (id, host, pid, temp_folder) VALUES (\(id), \(host), \(Int(pid)), \(temporaryFolder))
            ON CONFLICT (id) DO UPDATE SET host = EXCLUDED.host, pid = EXCLUDED.pid, temp_folder = EXCLUDED.temp_folder,
                started_at = now(), heartbeat_at = now()
            """)
    }

    /// Records a worker (see `registerWorker(id:host:pid:temporaryFolder:)`).
    public func register(_ worker: WorkerRegistration) throws {
        try registerWorker(id: worker.id, host: worker.host, pid: worker.pid, temporaryFolder: worker.temporaryFolder)
    }

    /// Notes that the worker is alive; false when it is not registered (another worker found it
    /// stale and removed it), when it should register again.
    @discardableResult
    public func heartbeat(worker: String) throws -> Bool {
        try session.execute("UPDATE workers SET heartbeat_at = now() WHERE id = \(worker)") == 1
    }

    /// Notes that the worker is alive, registering it again when another worker had found it stale
    /// and removed it. Returns true when it had to register again: its temporary folder may have
    /// been deleted meanwhile, and the caller should create it again.
    @discardableResult
    public func keepAlive(_ worker: WorkerRegistration) throws -> Bool {
        if try heartbeat(worker: worker.id) { return false }
        try register(worker)
        return true
    }

    /// Forgets a worker (when it stops, or once its stale temporary folder is deleted).
    public func unregisterWorker(id: String) throws {
        try session.execute("DELETE FROM workers WHERE id = \(id)")
    }

    /// Workers that hold no live lease and whose last heartbeat is more than `olderThan` seconds old,
    /// with their temporary folders: the caller deletes the folders, then unregisters the workers.
    /// A worker busy with a long job keeps renewing its lease, so it is never stale, whatever its
    /// heartbeat says.
    public func staleWorkers(olderThan: TimeInterval) throws -> [(id: String, temporaryFolder: String)] {
        try session.query("""
            SELECT w.id, w.temp_folder FROM workers w
            WHERE w.heartbeat_at < now() - make_interval(secs => \(olderThan))
              AND NOT EXISTS (SELECT 1 FROM jobs j
                              WHERE j.lease_owner = w.id AND j.state = 'running' AND j.lease_expires > now())
            ORDER BY w.id
            """).map {
            let (id, folder) = try $0.decode((String, String).self)
            return (id, folder)
        }
    }
}
