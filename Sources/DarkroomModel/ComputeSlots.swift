import Dispatch

/// At most `count` photos computing at once, while more threads may be waiting on the disk.
///
/// A photo holds a slot while its steps decode and encode, and gives it back before its outputs are
/// made durable and recorded: those fsyncs and catalog commits leave a core idle while they wait, so
/// another photo's steps take the core meanwhile. `--jobs` counts slots, not threads. (Sendable: its
/// only state is a `DispatchSemaphore`, which threads share by design.)
package final class ComputeSlots: @unchecked Sendable {
    /// How many photos compute at once.
    package let count: Int
    private let semaphore: DispatchSemaphore

    package init(_ count: Int) {
        self.count = max(1, count)
        semaphore = DispatchSemaphore(value: self.count)
    }

    /// Threads enough for `count` photos computing while as many again wait on the disk.
    package var threads: Int { 2 * count }

    /// Runs `body` in a slot, waiting for one to be free.
    package func withSlot<T>(_ body: () throws -> T) rethrows -> T {
        semaphore.wait()
        defer { semaphore.signal() }
        return try body()
    }
}
