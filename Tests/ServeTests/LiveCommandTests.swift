import LiveProtocol
import Physics
import SceneModel
import Serve
import Session
import TestSupport
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
        (#"{"rewind": 0}"#, .rewind(step: 0)),
        (#"{"rewind": 1234}"#, .rewind(step: 1234)),
        (#"{"push": {"body": 3, "velocity": [0, 900], "at": [40.5, 20]}}"#, .push(body: BodyID(3), velocity: Vec2(0, 900), at: Vec2(40.5, 20))),
        (#"{"grab": {"body": 3, "at": [40.5, 20]}}"#, .grab(body: BodyID(3), at: Vec2(40.5, 20))),
        (#"{"drag_to": {"at": [-1, 2e2], "body": 3}}"#, .dragTo(body: BodyID(3), at: Vec2(-1, 200))),
        (#"{"release": {"body": 3}}"#, .release(body: BodyID(3))),
        (#"{"drop": {"at": [120.5, 2e2]}}"#, .drop(at: Vec2(120.5, 200))),
        (#"{"remove": {"body": 7}}"#, .remove(body: BodyID(7))),
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
        (#"{"rewind": -1}"#, "rewind takes a step: a whole number from 0"),
        (#"{"rewind": 1.5}"#, "got 1.5"),
        (#"{"rewind": 1e3}"#, "got 1e3"),
        (#"{"rewind": 99999999999999999999}"#, "whole number from 0 to 9007199254740992"),
        // Read as a double it was 2^53, another step (issue 35).
        (#"{"rewind": 9007199254740993}"#, "got 9007199254740993"),
        (#"{"rewind": "10"}"#, "unknown field 'rewind' or wrong type"),
        (#"{"rewind": [10]}"#, "unknown field 'rewind' or wrong type"),
        (#"{"push": {"body": 0, "velocity": [0, 1], "at": [1, 1]}}"#, "push must be {\"body\": ID"),
        (#"{"push": {"body": 2, "velocity": [0, 1e7], "at": [1, 1]}}"#, "within ±1000000 px/s"),
        (#"{"push": {"body": 2, "velocity": [0, 1]}}"#, "push must be"),
        (#"{"push": {"body": 2, "velocity": [0, 1], "at": [1, 1], "spin": 3}}"#, "push must be"),
        (#"{"push": [2]}"#, "unknown field 'push' or wrong type"),
        (#"{"grab": {"body": 0, "at": [1, 1]}}"#, "grab must be {\"body\": ID, \"at\": [x, y]}"),
        (#"{"grab": {"body": 2, "at": [2e6, 1]}}"#, "within ±1000000 px"),
        (#"{"drag_to": {"body": 2}}"#, "drag_to must be"),
        (#"{"drag_to": {"body": 2, "at": [1, 1], "at2": [1, 1]}}"#, "drag_to must be"),
        (#"{"release": {"body": 2, "at": [1, 1]}}"#, "release must be {\"body\": ID}"),
        (#"{"release": 2}"#, "unknown field 'release' or wrong type"),
        (#"{"drop": {"at": [1e999, 0]}}"#, "drop must be {\"at\": [x, y]}: a point within ±1000000 px"),
        (#"{"drop": {"at": [2e6, 0]}}"#, "drop must be {\"at\": [x, y]}"),
        (#"{"drop": {"at": [1, 2], "size": [30, 30]}}"#, "drop must be {\"at\": [x, y]}"),
        (#"{"drop": {"at": "here"}}"#, "drop must be {\"at\": [x, y]}"),
        (#"{"drop": [1, 2]}"#, "unknown field 'drop' or wrong type"),
        (#"{"remove": {"body": 0}}"#, "remove must be {\"body\": ID}: a body's id from 1"),
        (#"{"remove": {"body": 1.5}}"#, "remove must be {\"body\": ID}"),
        (#"{"remove": {"body": 2, "at": [1, 1]}}"#, "remove must be {\"body\": ID}"),
        (#"{"remove": true}"#, "unknown field 'remove' or wrong type"),
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
        let bodies = [BodyState(id: BodyID(3), position: Vec2(1.5, -2), angle: 0.25, velocity: .zero, angularVelocity: 0)]
        let snapshot = WorldSnapshot(step: 7, bodies: bodies)
        let frame = LiveFrame(snapshot: snapshot, hash: StateHash(value: 0x0102_0304_0506_0708), stepMicroseconds: 12,
                              physicsLoad: 0.5, droppedSeconds: 0, paused: true, generation: 2)
        let bytes = LiveMessages.frame(frame)
        #expect(bytes.count == 76 + 16 && LiveMessages.frameHeaderBytes == 76)
        #expect(Array(bytes[0..<4]) == Array("CDF2".utf8))
        #expect(bytes[4] == 1 && bytes[8] == 2 && bytes[12] == 1)
        #expect(Array(bytes[48..<56]) == [8, 7, 6, 5, 4, 3, 2, 1])
        // No history: -1 for both ends of the span, no rewinds.
        #expect(Self.double(bytes, at: 56) == -1 && Self.double(bytes, at: 64) == -1 && bytes[72..<76].allSatisfy { $0 == 0 })
        #expect(bytes[76] == 3)
        let x = Float(bitPattern: UInt32(bytes[80]) | UInt32(bytes[81]) << 8 | UInt32(bytes[82]) << 16 | UInt32(bytes[83]) << 24)
        #expect(x == 1.5)
    }

    static func double(_ bytes: [UInt8], at offset: Int) -> Double {
        Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) })
    }

    @Test func aFrameCarriesTheRewindSpan() {
        let frame = LiveFrame(snapshot: WorldSnapshot(step: 500, bodies: []), hash: StateHash(value: 1), stepMicroseconds: 1, physicsLoad: 0,
                              droppedSeconds: 0, paused: false, rewind: RewindState(earliest: 120, latest: 3720, rewinds: 5), generation: 0)
        let bytes = LiveMessages.frame(frame)
        #expect(Self.double(bytes, at: 56) == 120 && Self.double(bytes, at: 64) == 3720 && bytes[72] == 5 && bytes.count == 76)
    }

    @Test func theSceneMessageSaysWhetherPagesMayRewind() throws {
        let scene = try Repository.scene("book")
        let world = try World(scene: scene)
        #expect(LiveMessages.scene(scene, world: world, rewind: .available(seconds: 30)).hasSuffix(#","rewind":{"seconds":30}}"#))
        #expect(LiveMessages.scene(scene, world: world, rewind: .unavailable("no")).hasSuffix(#","rewind":{"unavailable":"no"}}"#))
        #expect(LiveMessages.refusal("cannot rewind: \"x\"") == #"{"type":"refused","reason":"cannot rewind: \"x\""}"#)
    }
}
