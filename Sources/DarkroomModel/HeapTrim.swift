internal import CLinux

/// Hands the heap's free pages back to the system after every `interval` photos of real work.
///
/// A run decodes and encodes photos on several threads, each with glibc's own arena; x265, libvips and
/// libheif free tens of megabytes a photo, and the freed pages stay in the arenas around the few small
/// blocks that live on, so the run's resident memory grew with the number of photos far faster than
/// what it holds (heaptrack of a 3,000-photo import: 23 MB live at the peak; 186 MB resident, with
/// heaptrack's own share). `malloc_trim(0)` releases every wholly free page of every arena; once in
/// `interval` photos (or videos) it costs 1-2 ms (a 2,000-photo import: 7 trims of 1.1 to 2.2 ms).
/// Photos with nothing to do are not counted, so a re-run that does no work never trims (its memory
/// is the catalog's rows, live until the run ends).
package final class HeapTrim: Sendable {
    private let interval: Int
    private let worked = Counter()

    /// Trims after every `interval` photos that did work.
    package init(every interval: Int = 256) { self.interval = max(1, interval) }

    /// Counts one photo that did work; trims the heap when it is the `interval`-th since the last trim.
    package func photoWorked() {
        guard worked.increment() % interval == 0 else { return }
        Self.trim()
    }

    /// Hands every arena's wholly free pages back to the system now.
    package static func trim() {
        _ = malloc_trim(0)
    }
}
