import Foundation
import Synchronization
import SystemPackage

/// A moment in putting files into the library where a test may make the operation fail, or kill
/// the process, to check that the library survives it. Nothing happens at these points unless a
/// test installs a handler (`FaultInjection.install`): off by default.
package enum FaultPoint: Sendable, Hashable, CustomStringConvertible {
    /// The old file at this library path was linked aside (under `.darkroom/replaced`) before a new
    /// one replaces it.
    case keptAside(String)
    /// A file was linked or renamed into place at this library path.
    case placed(String)
    /// A file or folder (absolute path) is about to be fsynced.
    case syncing(String)
    /// A line is about to be appended to the shard manifest at this absolute path.
    case appending(String)

    package var description: String {
        switch self {
        case .keptAside(let path): "kept-aside \(path)"
        case .placed(let path): "placed \(path)"
        case .syncing(let path): "syncing \(path)"
        case .appending(let path): "appending \(path)"
        }
    }
}

/// What happens at a fault point.
package enum FaultAction: Sendable, Equatable {
    /// Nothing: the operation goes on.
    case proceed
    /// The operation fails with this error number (`EIO`, `ENOSPC`...).
    case fail(Errno)
    /// A write stops after this many bytes, as on a full disk: what follows fails with `ENOSPC`.
    case shortWrite(Int)
    /// The process is killed here (SIGKILL: no cleanup runs), as by a power cut or the OOM killer.
    case kill
    /// A write stops after this many bytes and the process is killed (a torn write).
    case killAfterWriting(Int)
}

/// The test seam of the publisher and the shard manifest writer: a process-wide handler that
/// decides what happens at each `FaultPoint`. Without a handler every point proceeds.
package enum FaultInjection {
    private static let handler = Mutex<(@Sendable (FaultPoint) -> FaultAction)?>(nil)

    /// Installs `handler` for every later point in this process (nil removes it).
    package static func install(_ handler: (@Sendable (FaultPoint) -> FaultAction)?) {
        self.handler.withLock { $0 = handler }
    }

    /// What the installed handler wants at `point` (`.proceed` without one).
    package static func action(at point: FaultPoint) -> FaultAction {
        guard let handler = handler.withLock({ $0 }) else { return .proceed }
        return handler(point)
    }

    /// Passes `point`: kills the process or throws when the handler says so.
    package static func pass(_ point: FaultPoint) throws {
        switch action(at: point) {
        case .proceed, .shortWrite: return
        case .fail(let errno): throw SystemCallError(action: "\(point) (injected fault)", errno: errno)
        case .kill, .killAfterWriting: killThisProcess()
        }
    }

    /// Ends the process at once, as SIGKILL from outside would.
    package static func killThisProcess() -> Never {
        kill(getpid(), SIGKILL)
        // SIGKILL to oneself is delivered before kill returns; this is never reached.
        abort()
    }
}
