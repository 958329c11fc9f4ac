import SceneModel
import Script
import Session
import Testing

/// What pages post to a live run waits bounded: a drag's move replaces its body's move not yet
/// taken, where that one waits (a pointer sends one a frame); everything else queues up to the cap, in order.
@Suite struct LiveControlTests {
    static func taken(_ control: LiveControl) -> [InputAction] {
        var actions: [InputAction] = []
        while case let .command(command)? = control.next(wait: false, giveUp: { true }) { actions.append(command.action) }
        return actions
    }

    @Test func aDragsMovesCoalesceAndKeepTheirOrderWithTheGrabAndRelease() {
        let control = LiveControl()
        #expect(control.post(.grab(at: Vec2(1, 1), maxForce: nil), to: BodyID(2)))
        for x in 0..<100 { #expect(control.post(.dragTo(Vec2(Double(x), 5)), to: BodyID(2))) }
        #expect(control.post(.dragTo(Vec2(7, 7)), to: BodyID(3)))
        #expect(control.post(.dragTo(Vec2(8, 8)), to: BodyID(2)))
        #expect(control.post(.release, to: BodyID(2)))
        // Body 2's newest move takes the place of its move waiting (before body 3's); the
        // release, not a move, queues after them.
        #expect(Self.taken(control) == [
            .body(BodyID(2), .grab(at: Vec2(1, 1), maxForce: nil)),
            .body(BodyID(2), .dragTo(Vec2(8, 8))),
            .body(BodyID(3), .dragTo(Vec2(7, 7))),
            .body(BodyID(2), .release),
        ])
    }

    @Test func otherInputsQueueUpToTheCap() {
        let control = LiveControl()
        for n in 0..<LiveControl.maximumPendingPushes { #expect(control.post(.velocity(Vec2(Double(n), 0)), to: BodyID(1))) }
        #expect(!control.post(.release, to: BodyID(1)))
        #expect(Self.taken(control).count == LiveControl.maximumPendingPushes)
        #expect(control.post(.release, to: BodyID(1)))
    }
}
