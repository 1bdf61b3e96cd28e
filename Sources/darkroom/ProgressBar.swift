import DarkroomCore
import Foundation
import Synchronization
import DarkroomModel

/// One progress line on a terminal's standard error, redrawn at most ten times a second:
///
///     [########..........] 15/24 photos  3.1/s  0:05 elapsed  ~0:03 left  heic-encode IMG_0014.jpg
///     timelapse: 120/270 frames  45/s  ~0:03 left
///
/// The rate is in files a second, or MB a second while videos are being read; the estimate comes
/// from the rate so far. Only for terminals: the CLI leaves it out when standard error is not one.
final class ProgressBar: RunProgress, Sendable {
    private let started = Date()
    /// What the line shows; a line is drawn while it is held, so that lines never interleave.
    private let state = Mutex(State())
    /// Where the line goes (standard error; a test gives a pipe).
    private let output: FileHandle

    /// What the bar has seen so far.
    private struct State {
        var lastDraw = Date.distantPast
        var step: (name: String, path: String)?
        var bytes: Int64 = 0
        var collection: (name: String, started: Date)?

        /// Whether to redraw now: at most ten times a second, and always for the last one.
        mutating func due(_ last: Bool) -> Bool {
            guard last || Date().timeIntervalSince(lastDraw) > 0.1 else { return false }
            lastDraw = Date()
            return true
        }
    }

    init(output: FileHandle = .standardError) {
        self.output = output
    }

    func stepStarted(_ step: String, on path: String) {
        state.withLock { $0.step = (step, path) }
    }

    func inputFinished(_ path: String, finished: Int, total: Int, bytes: Int64) {
        state.withLock { state in
            state.bytes += bytes
            guard state.due(finished == total) else { return }
            let elapsed = Date().timeIntervalSince(started)
            let video = MediaKind(fileName: path) == .video
            let rate = video ? Double(state.bytes) / 1_000_000 / max(elapsed, 0.001) : Double(finished) / max(elapsed, 0.001)
            var line = "\(ProgressBar.bar(finished, of: total)) \(finished)/\(total) files  "
                + (video ? String(format: "%.1f MB/s", rate) : String(format: "%.1f/s", rate))
                + "  \(ProgressBar.clock(elapsed)) elapsed"
            if finished > 0 && finished < total {
                line += "  ~\(ProgressBar.clock(elapsed / Double(finished) * Double(total - finished))) left"
            }
            if let step = state.step, finished < total { line += "  \(step.name) \(ProgressBar.shortened(step.path))" }
            draw(line)
        }
    }

    func collectionStarted(_ step: String, items: Int) {
        state.withLock { state in
            state.collection = (step, Date())
            draw("\(step): \(items) photos...")
            state.lastDraw = .distantPast
        }
    }

    func collectionProgress(_ step: String, done: Int, total: Int, unit: String) {
        state.withLock { state in
            guard state.due(done == total) else { return }
            let elapsed = Date().timeIntervalSince(state.collection?.started ?? started)
            var line = "\(step): \(ProgressBar.bar(done, of: total)) \(done)/\(total) \(unit)  "
                + String(format: "%.0f/s", Double(done) / max(elapsed, 0.001))
            if done > 0 && done < total { line += "  ~\(ProgressBar.clock(elapsed / Double(done) * Double(total - done))) left" }
            draw(line)
        }
    }

    /// Clears the line (before the summary is printed).
    func clear() {
        state.withLock { _ in output.write(Data("\r\u{1B}[K".utf8)) }
    }

    private func draw(_ line: String) {
        output.write(Data("\r\u{1B}[K\(line)".utf8))
    }

    /// `[#####.....]`, 20 wide.
    static func bar(_ done: Int, of total: Int) -> String {
        let width = 20
        let filled = total == 0 ? width : min(width, width * done / total)
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
    }

    /// `0:05`, `12:40`, `1:02:03`.
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, secs) = (total / 3600, total % 3600 / 60, total % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, secs) : String(format: "%d:%02d", minutes, secs)
    }

    private static func shortened(_ path: String) -> String {
        path.count > 40 ? "..." + path.suffix(37) : path
    }
}
