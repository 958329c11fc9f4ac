import InputLines
import RecordLines
import SceneModel
import Testing

/// A record's lines as `RecordLine` makes them: every input kind reads back through the input
/// grammar as the action written; a record kept in memory (`RecordText`) ends after its last whole
/// step and, at its bound, stops there.
@Suite struct RecordLinesTests {
    static let header = RecordHeader(sceneFile: "s.json", determinismClass: "0bc573c17466", backend: "portable", architecture: "wasm32",
                                     libc: "wasi-libc, musl 1.2.3 maths")

    static func snapshot(step: Int, y: Double) -> WorldSnapshot {
        WorldSnapshot(step: step, bodies: [BodyState(id: BodyID(1), position: Vec2(10, y), angle: 0, velocity: Vec2(0, -1), angularVelocity: 0)])
    }

    static func lines(_ bytes: [UInt8]) -> [String] { String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init) }

    @Test(arguments: [
        InputAction.gravity(Vec2(400, -600.5)),
        .body(BodyID(2), .impulse(Vec2(0, 30000), at: Vec2(1, 2))),
        .body(BodyID(2), .velocity(Vec2(3, 4))),
        .body(BodyID(2), .angularVelocity(0.25)),
        .body(BodyID(3), .hold(force: Vec2(5, 6), at: nil, torque: 7, steps: 30)),
        .body(BodyID(3), .grab(at: Vec2(96.125, 268), maxForce: nil)),
        .body(BodyID(3), .grab(at: Vec2(96, 268), maxForce: 5000)),
        .body(BodyID(3), .dragTo(Vec2(100.1, 271.3))),
        .body(BodyID(3), .release),
        .change(.addCrate(CrateSpec(center: Vec2(150, 250), size: Vec2(20, 20), mass: 4))),
        .change(.removeBody(BodyID(4))),
    ])
    func everyInputReadsBackAsWritten(action: InputAction) {
        var parser = GravityLineParser(source: "r", stepRate: 120, gravityMagnitude: 1000, axes: .portrait)
        let line = RecordLine.input(step: 17, action: action)
        guard case let .success(command) = parser.parse(Array(line.utf8), line: 1) else {
            Issue.record("\(line) does not read back")
            return
        }
        #expect(command.when == .step(17))
        #expect(command.action == action, "\(line)")
    }

    /// The end line is after the last step: an input given since acts on the next step and waits.
    @Test func theTextEndsAfterTheLastWholeStep() {
        let schedule = TrailSchedule(bodies: 1, stepRate: 120)
        var record = RecordText(header: Self.header, sceneText: Array("{}".utf8), schedule: schedule, start: StateHash(Self.snapshot(step: 0, y: 100)))
        #expect(Self.lines(record.text()).last == #"{"end":true,"steps":0,"hash":"\#(StateHash(Self.snapshot(step: 0, y: 100)))"}"#)
        record.input(step: 0, action: .gravity(Vec2(0, -500)))
        record.afterStep(Self.snapshot(step: 1, y: 99))
        record.input(step: 1, action: .gravity(Vec2(0, -400)))
        let lines = Self.lines(record.text())
        #expect(lines.count == 5)
        #expect(lines[0] == #"{"record":"cratedrop","version":1,"scene_file":"s.json","determinism_class":"0bc573c17466","backend":"portable","architecture":"wasm32","libc":"wasi-libc, musl 1.2.3 maths","state_rows":100000}"#)
        #expect(lines[1] == #"{"scene":"{}"}"#)
        #expect(lines[2] == #"{"step":0,"gravity":[0.0,-500.0]}"#)
        #expect(lines[3].hasPrefix(#"{"step":1,"hash":""#))
        #expect(lines[4] == #"{"end":true,"steps":1,"hash":"\#(StateHash(Self.snapshot(step: 1, y: 99)))"}"#)
        #expect(record.steps == 1)
    }

    /// At the bound the record is cut back to its last whole step and stays there; it still ends
    /// with that step's hash, and the world's later steps add nothing.
    @Test func atItsBoundTheRecordStopsAtItsLastWholeStep() {
        let schedule = TrailSchedule(bodies: 1, stepRate: 120)
        var record = RecordText(header: Self.header, sceneText: Array("{}".utf8), schedule: schedule, start: StateHash(Self.snapshot(step: 0, y: 100)),
                                limit: 1000)
        var step = 0
        while record.stoppedAt == nil {
            record.input(step: step, action: .body(BodyID(1), .dragTo(Vec2(Double(step), 1))))
            step += 1
            record.afterStep(Self.snapshot(step: step, y: 100 - Double(step)))
        }
        let stopped = record.stoppedAt!
        #expect(stopped > 0 && stopped < step)
        #expect(record.steps == stopped)
        let text = record.text()
        let lines = Self.lines(text)
        #expect(lines.last == #"{"end":true,"steps":\#(stopped),"hash":"\#(StateHash(Self.snapshot(step: stopped, y: 100 - Double(stopped))))"}"#)
        #expect(lines[lines.count - 2].hasPrefix(#"{"step":\#(stopped),"hash":"#))
        #expect(record.count <= 1000 + lines[0].utf8.count + lines[1].utf8.count + 2)
        record.afterStep(Self.snapshot(step: step + 1, y: 0))
        #expect(record.text() == text)
    }
}
