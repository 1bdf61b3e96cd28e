import Foundation

/// Receives progress from a run (the CLI draws a line on a terminal). Called from worker threads.
public protocol RunProgress: AnyObject, Sendable {
    /// A per-item step starts on an input (`path` relative to its input folder).
    func stepStarted(_ step: String, on path: String)
    /// An input is finished: `finished` of `total` so far; `bytes` is its size (a rate for videos).
    func inputFinished(_ path: String, finished: Int, total: Int, bytes: Int64)
    /// A collection step starts, over `items` photos.
    func collectionStarted(_ step: String, items: Int)
    /// A collection step's own progress: `done` of `total` `unit` (frames encoded, collages made).
    func collectionProgress(_ step: String, done: Int, total: Int, unit: String)
}
