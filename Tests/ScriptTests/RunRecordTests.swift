import SceneModel
import Script
import Testing

@Suite struct RunRecordTests {
    static let header = #"{"record":"cratedrop","version":1,"scene_file":"s.json","determinism_class":"0123456789ab","backend":"portable","architecture":"arm64","libc":"glibc 2.36","state_rows":100000}"#
    static let scene = #"{"scene":"{\"world\": [100, 100], \"gravity\": [0, -10], \"crates\": [{\"center\": [50, 50], \"size\": [10, 10], \"mass\": 1, \"friction\": 0.5, \"elasticity\": 0}]}"}"#

    static func parse(_ lines: [String]) throws(RecordError) -> RunRecord {
        try RunRecord.parse(Array(lines.joined(separator: "\n").utf8), source: "r.rec")
    }

    @Test func aWellFormedRecordReadsBack() throws {
        let record = try Self.parse([
            Self.header, Self.scene, #"{"step":0,"gravity":[1.5,-10.0]}"#,
            #"{"step":1,"hash":"3d1308bd65df95eb","state":[[1,50.0,49.9,0.0,0.0,-0.1,0.0]]}"#,
            #"{"step":2,"hash":"00000000000000fe"}"#, #"{"end":true,"steps":2,"hash":"00000000000000fe"}"#,
        ])
        #expect(record.header.determinismClass == "0123456789ab" && record.header.architecture == "arm64")
        #expect(record.scene.crates.count == 1 && record.steps == 2)
        #expect(record.gravityChanges.map(\.gravity) == [Vec2(1.5, -10)])
        #expect(record.checkpoints.map(\.step) == [1, 2])
        #expect(record.checkpoints[0].state == [BodyValues(id: BodyID(1), values: [50, 49.9, 0, 0, -0.1, 0])])
        #expect(record.checkpoints[1].state == nil && record.end?.hash == StateHash(value: 0xfe))
    }

    @Test(arguments: [
        ([#"{"step":0,"gravity":[0,0]}"#], "r.rec:1: not a CrateDrop record"),
        (["{", #"  "world": [400, 300]"#, "}"], "r.rec:1: this is a scene file, not a run record"),
        ([#"{"world": [400, 300], "gravity": [0, -500]}"#], "r.rec:1: this is a scene file, not a run record"),
        ([header.replacingOccurrences(of: #""version":1"#, with: #""version":2"#)], "r.rec:1: a run record of version 2, which this cratedrop does not read: it reads record format version 1"),
        ([header, #"{"step":1,"hash":"00000000000000ff"}"#], "r.rec:2: expected the {\"scene\":\"…\"} line after the header"),
        ([header, scene, #"{"step":1,"hash":"xyz"}"#], "r.rec:3: expected an input (gravity or a body's), a checkpoint"),
        ([header, scene, #"{"step":1,"hash":"00000000000000ff","state":[[1,2,3]]}"#], "r.rec:3: state must be an array of [id, x, y, angle, vx, vy, angular_velocity] rows"),
        ([header, scene, #"{"step":2,"hash":"00000000000000ff"}"#, #"{"step":2,"hash":"00000000000000ff"}"#], "r.rec:4: checkpoint step 2 is not after step 2"),
        ([header, scene, #"{"step":-1,"gravity":[0,0]}"#], "r.rec:3: step must be >= 0, got -1"),
        ([header, scene, #"{"end":true,"steps":1,"hash":"00000000000000ff"}"#, #"{"step":0,"gravity":[0,0]}"#], "r.rec:4: nothing may follow the end line"),
        // A record that contradicts itself is bad data, not a divergence.
        ([header, scene, #"{"step":1,"hash":"00000000000000ff","state":[[1,50.0,49.9,0.0,0.0,-0.1,0.0]]}"#],
         "r.rec:3: the state after step 1 hashes to 3d1308bd65df95eb, not to the hash 00000000000000ff written beside it: the record contradicts itself"),
        ([header, scene, #"{"step":2,"hash":"00000000000000fe"}"#, #"{"end":true,"steps":2,"hash":"00000000000000ff"}"#],
         "r.rec:4: the end line's hash 00000000000000ff contradicts the checkpoint after step 2 (hash 00000000000000fe): the record contradicts itself"),
        ([header, scene, #"{"step":2,"hash":"00000000000000fe"}"#, #"{"end":true,"steps":1,"hash":"00000000000000fe"}"#],
         "r.rec:4: the end line says 1 steps, but a checkpoint comes after step 2"),
        // The hash covers the values, not the ids: an id the scene lacks is named (audit round 4, finding 15).
        ([header, scene, #"{"step":1,"hash":"3d1308bd65df95eb","state":[[7,50.0,49.9,0.0,0.0,-0.1,0.0]]}"#],
         "r.rec:3: the state after step 1 names body 7, which the world does not hold then (its bodies are 1...1)"),
        ([header, scene, #"{"step":1,"hash":"00000000000000ff","state":[]}"#], "r.rec:3: the state after step 1 holds 0 bodies; the world holds 1 then"),
    ])
    func malformedRecordsNameTheFileAndLine(lines: [String], message: String) {
        #expect(throws: RecordError.self) { try Self.parse(lines) }
        do {
            _ = try Self.parse(lines)
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test func aRecordsOwnLinesAreNotGravityChangesWhenReadAsAStream() {
        var parser = GravityLineParser(source: "r.rec", stepRate: 120, gravityMagnitude: 10, axes: .portrait)
        let lines = [Self.header, Self.scene, #"{"step":3,"gravity":[1,2]}"#, #"{"step":4,"hash":"00000000000000ff"}"#,
                     #"{"end":true,"steps":4,"hash":"00000000000000ff"}"#]
        let results = lines.enumerated().map { parser.read(Array($0.element.utf8), line: $0.offset + 1) }
        let commands = results.compactMap { try? $0.get() }
        #expect(commands == [InputCommand(line: 3, when: .step(3), gravity: Vec2(1, 2))])
        #expect(results.allSatisfy { (try? $0.get()) != nil || (try? $0.get()) == .some(nil) })
    }

    @Test func aPlainStreamStaysStrictAboutRecordLines() {
        var parser = GravityLineParser(source: "g.jsonl", stepRate: 120, gravityMagnitude: 10, axes: .portrait)
        let result = parser.read(Array(#"{"step":4,"hash":"00000000000000ff"}"#.utf8), line: 1)
        guard case let .failure(error) = result else {
            Issue.record("a hash line in a plain stream was accepted")
            return
        }
        #expect(error.description == #"g.jsonl:1: unknown key "hash" (allowed: t, step, gravity, accel)"#)
    }

    @Test(arguments: [(5, 120, 20_000, 20_000), (100, 120, 1000, 2400), (1000, 120, 100, 2400), (0, 60, 100_000, 100_000)])
    func trailScheduleKeepsFullStatesWithinTheRowBudget(bodies: Int, rate: Int, stateSteps: Int, denseSteps: Int) {
        let schedule = TrailSchedule(bodies: bodies, stepRate: rate)
        #expect(schedule.stateSteps == stateSteps && schedule.denseSteps == denseSteps)
        #expect(schedule.wantsState(afterStep: stateSteps) && !schedule.wantsState(afterStep: stateSteps + 1))
        #expect(schedule.wantsHash(afterStep: denseSteps) && !schedule.wantsHash(afterStep: denseSteps + 1))
        let sparse = (denseSteps / rate + 1) * rate
        #expect(schedule.wantsHash(afterStep: sparse) && !schedule.wantsHash(afterStep: sparse + 1))
        #expect(!schedule.wantsHash(afterStep: 0))
    }
}
