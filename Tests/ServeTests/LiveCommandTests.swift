import SceneModel
import Serve
import Testing

/// A page's messages are validated like gravity stream lines.
@Suite struct LiveCommandTests {
    @Test(arguments: [
        (#"{"gravity": [0, 1000]}"#, LiveCommand.gravity(Vec2(0, 1000))),
        (#"{"gravity": [-12.5, 3e2]}"#, .gravity(Vec2(-12.5, 300))),
        (#"{"command": "pause"}"#, .pause),
        (#"{"command": "resume"}"#, .resume),
        (#"{"command": "step"}"#, .step),
        (#"{"command": "restart"}"#, .restart),
    ])
    func goodMessagesParse(text: String, expected: LiveCommand) throws {
        #expect(try LiveCommand.parse(text).get() == expected)
    }

    @Test(arguments: [
        (#"{"gravity": [1e999, 0]}"#, "finite numbers"),
        (#"{"gravity": [2e6, 0]}"#, "within ±1000000 px/s²"),
        (#"{"gravity": [1]}"#, "gravity must be [x, y]"),
        (#"{"gravity": "down"}"#, "unknown field 'gravity' or wrong type"),
        (#"{"command": "fly"}"#, "unknown command 'fly'"),
        (#"{"tilt": [0, 1]}"#, "unknown field 'tilt'"),
        (#"{"command": "pause", "gravity": [0, 1]}"#, "expected one of"),
        (#"[1, 2]"#, "expected one of"),
        ("{", "not JSON"),
        (String(repeating: " ", count: 1025), "longer than 1024 bytes"),
    ])
    func badMessagesAreRefusedWithAReason(text: String, reason: String) {
        guard case let .failure(error) = LiveCommand.parse(text) else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(error.description.contains(reason), "\(error)")
    }
}

@Suite struct LiveMessagesTests {
    @Test func aFrameHoldsItsHeaderAndEachBodyIn16Bytes() {
        let bodies = [BodyState(id: BodyID(3), position: Vec2(1.5, -2), angle: 0.25, velocity: .zero, angularVelocity: 0,
                                shape: .box(size: Vec2(4, 4)))]
        let snapshot = WorldSnapshot(step: 7, bodies: bodies)
        let frame = LiveFrame(snapshot: snapshot, hash: StateHash(value: 0x0102_0304_0506_0708), stepMicroseconds: 12,
                              physicsLoad: 0.5, droppedSeconds: 0, paused: true, generation: 2)
        let bytes = LiveMessages.frame(frame)
        #expect(bytes.count == 56 + 16)
        #expect(Array(bytes[0..<4]) == Array("CDF1".utf8))
        #expect(bytes[4] == 1 && bytes[8] == 2 && bytes[12] == 1)
        #expect(Array(bytes[48..<56]) == [8, 7, 6, 5, 4, 3, 2, 1])
        #expect(bytes[56] == 3)
        let x = Float(bitPattern: UInt32(bytes[60]) | UInt32(bytes[61]) << 8 | UInt32(bytes[62]) << 16 | UInt32(bytes[63]) << 24)
        #expect(x == 1.5)
    }
}
