import DarkroomCore
import Foundation

/// A one-line progress bar on standard error.
final class ProgressBar: RunProgress, @unchecked Sendable {
    private let lock = NSLock()
    private var lastDraw = Date.distantPast

    func update(finished: Int, total: Int, current: String) {
        lock.lock(); defer { lock.unlock() }
        guard finished == total || Date().timeIntervalSince(lastDraw) > 0.1 else { return }
        lastDraw = Date()
        let width = 30
        let filled = total == 0 ? width : width * finished / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let name = current.count > 40 ? "..." + current.suffix(37) : current
        FileHandle.standardError.write(Data("\r\u{1B}[K[\(bar)] \(finished)/\(total) \(name)".utf8))
    }

    func collectionStarted(_ step: String, items: Int) {
        lock.lock(); defer { lock.unlock() }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(step): \(items) photos...".utf8))
    }
}
