import Foundation

/// What a run held in memory, freed on a thread of its own once the run is over. A run over
/// 100,000 photos holds millions of small objects (its survey, what it read of the catalog, its
/// records and report), and freeing them one by one takes seconds the run need not wait for: they
/// are freed while the report is shown, or not at all when the process exits first.
package final class Leftovers: @unchecked Sendable {
    /// Touched only by the thread that holds the leftovers, until they are given to `free`.
    private var held: [Any] = []

    package init() {}

    /// Keeps `values` until the leftovers are freed; the caller's own copies are released as
    /// usual (only the last reference frees, and this is it once they are gone).
    package func hold(_ values: Any...) {
        held += values
    }

    /// Frees what `leftovers` holds on a thread of its own. The caller gives up its reference here,
    /// before that thread starts, so that the last reference, and the freeing, is that thread's.
    /// With `givingBack`, that thread then hands the freed pages back to the system (`HeapTrim`): a
    /// run that goes on to other work frees what its workers made in their own arenas, where the
    /// main thread's allocations cannot reuse it, so it would otherwise stay resident beside them.
    package static func free(_ leftovers: consuming Leftovers, givingBack: Bool = false) {
        let owned = Unmanaged.passRetained(leftovers)
        _ = consume leftovers
        let thread = Thread {
            owned.release()
            if givingBack { HeapTrim.trim() }
        }
        thread.start()
    }
}
