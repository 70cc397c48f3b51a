import LifeSignalDelivery
import Testing

/// `WorkSignal` and `Latch`, the two waits the worker parks on: who is woken, who returns at
/// once, and that a cancelled waiter leaves without waking or losing the others.
@Suite(.timeLimit(.minutes(1)))
struct ParkedTasksTests {
    @Test func aSignalWithNobodyWaitingMakesTheNextWaitReturnAtOnceAndOnlyThatOne() async {
        let signal = WorkSignal()
        signal.signal()
        await signal.wait()
        // The signal was used up: the next waiter parks until the next signal.
        let waiter = Task { await signal.wait() }
        await signal.waitUntilWaitedOn()
        signal.signal()
        await waiter.value
    }

    @Test func aCancelledWaiterReturnsAndTheOthersStillWaitForTheSignal() async {
        let signal = WorkSignal()
        let cancelled = Task { await signal.wait() }
        await signal.waitUntilWaitedOn()
        let staying = Task { await signal.wait() }
        cancelled.cancel()
        await cancelled.value
        // The one left is still parked: a signal now wakes it (and is not stored for later).
        await signal.waitUntilWaitedOn()
        signal.signal()
        await staying.value
        let late = Task { await signal.wait() }
        late.cancel()
        await late.value
    }

    @Test func aLatchReleasesItsWaitersOnceAndStaysOpen() async {
        let latch = Latch()
        #expect(!latch.isOpen)
        let waiter = Task { await latch.wait() }
        latch.open()
        await waiter.value
        #expect(latch.isOpen)
        // Open stays open: a later wait returns at once.
        await latch.wait()
    }

    @Test func aCancelledLatchWaiterReturnsWhileTheLatchStaysShut() async {
        let latch = Latch()
        let waiter = Task { await latch.wait() }
        waiter.cancel()
        await waiter.value
        #expect(!latch.isOpen)
    }
}
