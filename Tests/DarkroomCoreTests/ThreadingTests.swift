import DarkroomCore
import Foundation
import Synchronization
import XCTest
import DarkroomModel

/// The runner's threads (`DarkroomThreads`, `Ahead`) and the state threads wait on (`Monitor`).
final class ThreadingTests: XCTestCase {
    func testMapReturnsEveryResultInIndexOrderWithAtMostJobsAtOnce() {
        let running = Mutex((now: 0, most: 0))
        let squares = DarkroomThreads.map(count: 40, jobs: 3) { index in
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            Thread.sleep(forTimeInterval: 0.002)
            running.withLock { $0.now -= 1 }
            return index * index
        }
        XCTAssertEqual(squares, (0..<40).map { $0 * $0 })
        let most = running.withLock { $0.most }
        XCTAssertLessThanOrEqual(most, 3, "never more than jobs at once")
        XCTAssertGreaterThan(most, 1, "the work ran on several threads")
    }

    func testAtMostCountComputeInSlotsWhileOthersWaitOutside() {
        let slots = ComputeSlots(2)
        let running = Mutex((computing: 0, mostComputing: 0, busy: 0, mostBusy: 0))
        DarkroomThreads.forEach(count: 24, jobs: slots.threads) { _ in
            running.withLock { $0.busy += 1; $0.mostBusy = max($0.mostBusy, $0.busy) }
            slots.withSlot {
                running.withLock { $0.computing += 1; $0.mostComputing = max($0.mostComputing, $0.computing) }
                Thread.sleep(forTimeInterval: 0.002)
                running.withLock { $0.computing -= 1 }
            }
            // What a photo does out of its slot: waiting on the disk.
            Thread.sleep(forTimeInterval: 0.004)
            running.withLock { $0.busy -= 1 }
        }
        let seen = running.withLock { $0 }
        XCTAssertEqual(slots.threads, 4)
        XCTAssertEqual(seen.mostComputing, 2, "never more than the slots computing, and both used")
        XCTAssertGreaterThan(seen.mostBusy, 2, "other photos went on while some waited outside their slots")
    }

    func testValuesMadeAheadOnTwoThreadsComeInOrderWithAtMostTwoWaiting() {
        let made = Mutex((count: 0, taken: 0, most: 0, threads: Set<String>()))
        let ahead = Ahead(count: 9, threads: 2) { index in
            made.withLock { $0.count += 1; $0.most = max($0.most, $0.count - $0.taken); $0.threads.insert("\(Thread.current)") }
            return index * 10
        }
        var values: [Int] = []
        for _ in 0..<9 {
            values.append(ahead.next())
            made.withLock { $0.taken += 1 }
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTAssertEqual(values, (0..<9).map { $0 * 10 }, "in order, whichever thread made each")
        let seen = made.withLock { $0 }
        XCTAssertEqual(seen.count, 9)
        XCTAssertLessThanOrEqual(seen.most, 3, "each thread makes one value ahead of the one being taken")
        XCTAssertEqual(seen.threads.count, 2)
    }

    func testValuesMadeAheadStopWhenAsked() {
        let made = Mutex(0)
        let ahead = Ahead(count: 100, threads: 2) { index in
            made.withLock { $0 += 1 }
            return index
        }
        XCTAssertEqual(ahead.next(), 0)
        ahead.stop()
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertLessThanOrEqual(made.withLock { $0 }, 4, "no more values after the ones being made")
    }

    func testMapOfNothingReturnsNothing() {
        XCTAssertEqual(DarkroomThreads.map(count: 0, jobs: 4) { $0 }, [])
    }

    func testAWaiterWakesWhenAnotherThreadChangesTheState() {
        let ready = Monitor(false)
        Thread {
            Thread.sleep(forTimeInterval: 0.05)
            ready.withLock { $0 = true }
        }.start()
        let started = Date()
        XCTAssertTrue(ready.wait(until: { $0 }, deadline: Date().addingTimeInterval(30)) { $0 })
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "it woke at the change, not at the deadline")
    }

    func testAWaitEndsAtItsDeadlineAndStillRunsItsBody() {
        let count = Monitor(0)
        let started = Date()
        let seen = count.wait(until: { $0 > 0 }, deadline: Date().addingTimeInterval(0.1)) { (state: inout Int) -> Int in
            state += 10
            return state
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.09, "it waited for the deadline")
        XCTAssertEqual(seen, 10)
        XCTAssertEqual(count.withLock { $0 }, 10, "the body changed the state")
    }
}
