import DarkroomModel
import Foundation

/// A lock on a library for the length of a run. A single-machine run holds it alone, so two runs
/// cannot interleave; shards and queue workers share it with each other, but not with such a run.
public final class LibraryLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock (exclusive, or `shared`) or throws at once, naming the process that holds it.
    public init(library: URL, shared: Bool = false) throws {
        let folder = library.appendingPathComponent(".darkroom", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("lock").path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw RunError("cannot open \(path): \(LibraryFiles.errnoText())") }
        guard flock(descriptor, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            close(descriptor)
            let who = shared ? "a single-machine darkroom run" : "another darkroom run"
            throw RunError("\(who)\(holder.isEmpty ? "" : " (pid \(holder))") is using the library \(library.path); try again when it has finished")
        }
        if shared { return }
        ftruncate(descriptor, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { write(descriptor, $0, strlen($0)) }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
