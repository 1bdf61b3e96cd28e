import Foundation
import Synchronization

/// State shared between threads that a thread can also wait on until another changes it: a
/// `Mutex` with the condition variable Synchronization does not have. Every `withLock` wakes the
/// waiting threads, which look again.
///
///     let stop = Monitor(false)
///     stop.withLock { $0 = true }                                          // one thread
///     stop.wait(until: { $0 }, deadline: Date() + 5) { $0 }               // another: true once it is
public final class Monitor<State: Sendable>: Sendable {
    /// What waiting threads sleep on; held whenever `state` is reached.
    private let condition = NSCondition()
    /// The state, locked inside `condition` (never contended: it only makes the sharing checkable).
    private let state: Mutex<State>

    /// A monitor of `state`.
    public init(_ state: State) {
        self.state = Mutex(state)
    }

    /// Runs `body` on the state, then wakes the waiting threads.
    public func withLock<Result: Sendable, E: Error>(_ body: (inout State) throws(E) -> Result) throws(E) -> Result {
        condition.lock()
        defer { condition.broadcast(); condition.unlock() }
        return try state.withLock { (state: inout State) throws(E) -> Result in try body(&state) }
    }

    /// Waits until `isReady` holds of the state (or `deadline`, if any, has passed), then runs `body`
    /// on it before any other thread can change it, and wakes the waiting threads.
    public func wait<Result: Sendable, E: Error>(until isReady: (State) -> Bool, deadline: Date? = nil,
                                                 then body: (inout State) throws(E) -> Result) throws(E) -> Result {
        condition.lock()
        defer { condition.broadcast(); condition.unlock() }
        while !state.withLock({ isReady($0) }) {
            if let deadline {
                guard condition.wait(until: deadline) else { break }
            } else {
                condition.wait()
            }
        }
        return try state.withLock { (state: inout State) throws(E) -> Result in try body(&state) }
    }
}
