import Physics
import SceneModel

/// The contact events the run keeps for its caller between reads (`cratedrop_world_events`):
/// every step's, whoever took the step (`step(_:)`, the frames' driver).
extension CoreRun {
    /// Unread events beyond this many drop the oldest (a caller that keeps events and never reads
    /// them must not grow without bound): about 90 MB of rows.
    static let maxKeptEvents = 1 << 20

    func keepEvents(_ on: Bool) {
        world.recordsContactEvents = on
        events.kept = on ? [] : nil
        events.dropped = 0
    }

    func keepStepEvents() {
        guard events.kept != nil else { return }
        events.kept!.append(contentsOf: world.contactEvents)
        let over = events.kept!.count - Self.maxKeptEvents
        if over > 0 {
            events.kept!.removeFirst(over)
            events.dropped += Int64(over)
        }
    }

    func takeEvents() -> [ContactEvent] {
        guard let kept = events.kept else { return [] }
        events.kept = []
        return kept
    }

    var droppedEvents: Int64 { events.dropped }
}

/// Events kept (nil: not keeping) and how many were dropped unread.
struct KeptEvents {
    var kept: [ContactEvent]?
    var dropped: Int64 = 0
}
