import SceneModel
import Script
import Testing

/// Bodies' input lines in the input stream: each kind read as written, each bad line refused
/// with its line and reason (nothing reaches the world unchecked).
@Suite struct BodyInputLineTests {
    static func parse(_ line: String) -> Result<InputCommand, GravityLineError> { GravityLineParserTests.parse([line])[0] }

    @Test(arguments: [
        (#"{"step": 60, "body": 3, "impulse": [0, 400], "at": [210, 95]}"#, BodyInput.impulse(Vec2(0, 400), at: Vec2(210, 95))),
        (#"{"step": 60, "body": 3, "impulse": [-5, 1.5]}"#, .impulse(Vec2(-5, 1.5), at: nil)),
        (#"{"step": 60, "body": 3, "velocity": [120, 0]}"#, .velocity(Vec2(120, 0))),
        (#"{"step": 60, "body": 3, "angular_velocity": -2.5}"#, .angularVelocity(-2.5)),
        (#"{"step": 60, "body": 3, "force": [0, 900], "torque": 50, "steps": 30}"#, .hold(force: Vec2(0, 900), at: nil, torque: 50, steps: 30)),
        (#"{"step": 60, "body": 3, "force": [1, 2], "at": [5, 6], "steps": 1}"#, .hold(force: Vec2(1, 2), at: Vec2(5, 6), torque: 0, steps: 1)),
        (#"{"step": 60, "body": 3, "torque": 7, "steps": 2}"#, .hold(force: .zero, at: nil, torque: 7, steps: 2)),
        (#"{"step": 60, "body": 3, "grab": [90, 60]}"#, .grab(at: Vec2(90, 60), maxForce: nil)),
        (#"{"step": 60, "body": 3, "grab": [90, 60], "max_force": 5e5}"#, .grab(at: Vec2(90, 60), maxForce: 500_000)),
        (#"{"step": 60, "body": 3, "drag_to": [-4.5, 2]}"#, .dragTo(Vec2(-4.5, 2))),
        (#"{"step": 60, "body": 3, "release": true}"#, .release),
    ])
    func eachKindIsReadAsWritten(line: String, input: BodyInput) throws {
        let command = try Self.parse(line).get()
        #expect(command == InputCommand(line: 1, when: .step(60), action: .body(BodyID(3), input)))
    }

    /// `add_joint` names bodies by id (from 1) as every input line does; `{"id": N}` says so, and
    /// `{"index": N}` (from 0, as a scene's joints count) is the body of id N + 1.
    @Test func anAddedJointsEndsAreIDsWhicheverWayWritten() throws {
        let pin = JointKind.pin(anchorA: .zero, anchorB: .zero)
        for (ends, a, b) in [(#""a": 1, "b": 2"#, BodyID(1), BodyID(2)), (#""a": {"id": 1}, "b": {"index": 1}"#, BodyID(1), BodyID(2)),
                             (#""a": {"index": 0}, "b": 2"#, BodyID(1), BodyID(2))] {
            let command = try Self.parse(#"{"step": 5, "add_joint": {"kind": "pin", "# + ends + "}}").get()
            #expect(command.action == .change(.addJoint(pin, a: a, b: b, settings: .standard)), "\(ends)")
        }
        let refused = Self.parse(#"{"step": 5, "add_joint": {"kind": "pin", "a": 0, "b": 2}}"#)
        #expect(throws: GravityLineError.self) { try refused.get() }
        if case let .failure(error) = refused {
            #expect("\(error)".contains(#"add_joint.a: a body's id, from 1 (input lines name bodies by id, as traces print them; a scene's joints name crates by index, from 0), {"id": N}, {"index": N} (from 0) or "static", got 0"#), "\(error)")
        }
    }

    @Test func anUntimedLineAppliesWhenRead() throws {
        #expect(try Self.parse(#"{"body": 1, "velocity": [1, 2]}"#).get().when == .whenRead)
    }

    @Test(arguments: [
        (#"{"step": 1, "body": 0, "impulse": [0, 1]}"#, "tilt.jsonl:1: body must be a body's id, a whole number from 1"),
        (#"{"step": 1, "body": "crate", "impulse": [0, 1]}"#, "tilt.jsonl:1: body must be a body's id"),
        (#"{"step": 1, "body": 2}"#, #"tilt.jsonl:1: says what to do to the body: "impulse", "velocity", "angular_velocity", "force" or "torque" with "steps", "grab", "drag_to", "release", or "remove": true"#),
        (#"{"step": 1, "body": 2, "grab": [0, 1], "drag_to": [1, 1]}"#, #"give one of "grab", "drag_to" a line"#),
        (#"{"step": 1, "body": 2, "release": false}"#, "tilt.jsonl:1: release must be true, got a boolean"),
        (#"{"step": 1, "body": 2, "drag_to": [0, 1], "max_force": 10}"#, #"tilt.jsonl:1: "max_force" goes with "grab""#),
        (#"{"step": 1, "body": 2, "grab": [0, 1], "max_force": -1}"#, "tilt.jsonl:1: max_force: must be in 0..."),
        (#"{"step": 1, "body": 2, "drag_to": [2e6, 1]}"#, "tilt.jsonl:1: drag_to[0]: must be in -1000000...1000000"),
        (#"{"step": 1, "body": 2, "impulse": [0, 1], "velocity": [1, 1]}"#, #"give one of "impulse", "velocity" a line"#),
        (#"{"step": 1, "body": 2, "force": [0, 1]}"#, #"tilt.jsonl:1: a force or torque is held for "steps": K steps"#),
        (#"{"step": 1, "body": 2, "force": [0, 1], "steps": -3}"#, "tilt.jsonl:1: steps must be a whole number in 1...10368000, got -3"),
        (#"{"step": 1, "body": 2, "force": [0, 1], "steps": 0}"#, "tilt.jsonl:1: steps must be a whole number in 1...10368000, got 0"),
        (#"{"step": 1, "body": 2, "impulse": [0, 1], "steps": 3}"#, #"tilt.jsonl:1: "steps" goes with a force or a torque"#),
        (#"{"step": 1, "body": 2, "velocity": [0, 1], "at": [3, 3]}"#, #"tilt.jsonl:1: "at" goes with an impulse or a force"#),
        (#"{"step": 1, "body": 2, "impulse": [0, 1e20]}"#, "tilt.jsonl:1: impulse[1]: must be in -1000000000000000...1000000000000000, got 1e20"),
        (#"{"step": 1, "body": 2, "velocity": [0, 2e6]}"#, "tilt.jsonl:1: velocity[1]: must be in -1000000...1000000, got 2000000"),
        (#"{"step": 1, "body": 2, "impulse": [0, 1], "at": [1e7, 0]}"#, "tilt.jsonl:1: at[0]: must be in -1000000...1000000"),
        (#"{"step": 1, "body": 2, "impulse": [0]}"#, "tilt.jsonl:1: impulse must be an array of two numbers [x, y]"),
        (#"{"step": 1, "body": 2, "push": [0, 1]}"#, #"tilt.jsonl:1: unknown key "push" (allowed with "body": t, step, body, impulse"#),
        (#"{"step": 1, "impulse": [0, 1]}"#, #"tilt.jsonl:1: unknown key "impulse" (allowed: t, step, gravity, accel; with "body": impulse"#),
        (#"{"step": 1, "body": 2, "impulse": [0, 1], "gravity": [0, 1]}"#, #"unknown key "gravity" (allowed with "body""#),
    ])
    func badLinesAreRefusedWithTheirReason(line: String, expected: String) {
        guard case let .failure(error) = Self.parse(line) else {
            Issue.record("\(line) was accepted")
            return
        }
        #expect(error.description.contains(expected), "\(error.description)")
    }
}
