import Dispatch
import PhotoCore
import Synchronization
import Testing

/// The daemon's change sink: a change is queued once, its publisher waits until the
/// subscriber delivered it (a `.picker` write returns only once the kernel forgot), a
/// library change counts as under way while it is made, and the epoch moves before that
/// count goes down; without a subscriber nothing is queued and nobody waits.
@Suite struct ChangeQueueTests {
    static let forget = ViewTreeChanges(invalidatedInodes: [42])

    @Test func aPublisherReturnsOnlyOnceItsChangeWasDelivered() {
        let queue = ChangeQueue(log: { _ in })
        queue.subscribe()
        let delivered = Mutex<[StateChange]>([])
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            while let batch = queue.take() {
                for entry in batch {
                    delivered.withLock { $0.append(entry.change) }
                    entry.delivered()
                }
            }
            drained.signal()
        }
        let before = queue.epoch
        queue.begin(.access)
        queue.end(.access, forgetting: Self.forget)
        #expect(delivered.withLock { $0 } == [StateChange(kind: .access, forget: Self.forget)])
        #expect(queue.epoch == before + 1)
        // Nothing changed: nothing published, the epoch stays.
        queue.begin(.access)
        queue.end(.access, forgetting: nil)
        #expect(queue.epoch == before + 1)
        queue.close()
        drained.wait()
        #expect(delivered.withLock { $0.count } == 1)
    }

    @Test func aLibraryChangeIsUnderWayUntilItsEpochMoved() {
        let queue = ChangeQueue(log: { _ in })
        let before = queue.epoch
        #expect(!queue.isChanging)
        // No subscriber: nothing is queued and the publisher does not wait.
        queue.begin(.library)
        #expect(queue.isChanging && queue.epoch == before)
        queue.end(.library, forgetting: Self.forget)
        #expect(!queue.isChanging)
        #expect(queue.epoch == before + 1)
        // A failed library change ends its bracket too, and moves nothing.
        queue.begin(.library)
        queue.end(.library, forgetting: nil)
        #expect(!queue.isChanging && queue.epoch == before + 1)
        queue.begin(.access)
        #expect(!queue.isChanging)
        queue.end(.access, forgetting: Self.forget)
    }
}
