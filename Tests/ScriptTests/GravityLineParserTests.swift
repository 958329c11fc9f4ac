import SceneModel
import Script
import Testing

@Suite struct GravityLineParserTests {
    static let sceneGiven = #"tilt.jsonl:1: this is a scene file, not an input stream: an input stream is JSON Lines, one object a line such as {"t":0.5,"gravity":[0,-500]} (Scenes/tilt.jsonl is one)"#

    static func parser(axes: AxisPreset = .portrait) -> GravityLineParser {
        GravityLineParser(source: "tilt.jsonl", stepRate: 120, gravityMagnitude: 1000, axes: axes)
    }

    static func parse(_ lines: [String], axes: AxisPreset = .portrait) -> [Result<InputCommand, GravityLineError>] {
        var parser = parser(axes: axes)
        return lines.enumerated().map { parser.parse(Array($0.element.utf8), line: $0.offset + 1) }
    }

    @Test(arguments: [
        (#"{"t": 1.25, "gravity": [0, -1000]}"#, InputCommand.When.step(150), Vec2(0, -1000)),
        (#"{"t": 0, "gravity": [1, 2]}"#, .step(0), Vec2(1, 2)),
        // 0.001 s is inside step 0 (0 to 1/120 s): it applies from step 1, the first to start at or after it.
        (#"{"t": 0.001, "gravity": [1, 2]}"#, .step(1), Vec2(1, 2)),
        (#"{"t": 0.1, "gravity": [1, 2]}"#, .step(12), Vec2(1, 2)),
        (#"{"step": 150, "gravity": [-1000, 0]}"#, .step(150), Vec2(-1000, 0)),
        (#"{"gravity": [0, 1000]}"#, .whenRead, Vec2(0, 1000)),
        (#"{"t": 2, "accel": [0.5, -1, 0.2]}"#, .step(240), Vec2(500, -1000)),
    ])
    func validLinesBecomeCommands(line: String, when: InputCommand.When, gravity: Vec2) throws {
        let command = try Self.parse([line])[0].get()
        #expect(command == InputCommand(line: 1, when: when, gravity: gravity))
    }

    @Test func landscapeSwapsXAndYAsTheOriginalDemo() throws {
        let command = try Self.parse([#"{"accel": [0.5, -1, 0.2]}"#], axes: .landscape)[0].get()
        #expect(command.gravity == Vec2(-1000, 500))
    }

    @Test(arguments: [
        ("oops", "tilt.jsonl:1: invalid JSON at column 1: unexpected 'o', expected a value"),
        // A scene file: its first line alone (`{`), or the whole scene on one line.
        ("{", sceneGiven),
        (#"{"world": [400, 300], "gravity": [0, -500]}"#, sceneGiven),
        ("[1, 2]", "tilt.jsonl:1: must be a JSON object, got an array"),
        (#"{"t": 1}"#, "tilt.jsonl:1: needs \"gravity\": [x, y], \"accel\": [ax, ay, az] or \"body\": ID with what to do to it"),
        (#"{"t": 1, "gravity": "down"}"#, "tilt.jsonl:1: gravity must be an array of two numbers [x, y]"),
        (#"{"t": 1, "gravity": [0, 1e999]}"#, "tilt.jsonl:1: gravity must be finite numbers within ±1000000, got [0.0, inf]"),
        (#"{"t": 1, "gravity": [0, -1], "accel": [0, 0, 1]}"#, "tilt.jsonl:1: give \"gravity\" or \"accel\", not both"),
        (#"{"t": 1, "step": 3, "gravity": [0, -1]}"#, "tilt.jsonl:1: give \"t\" or \"step\", not both"),
        (#"{"t": -1, "gravity": [0, -1]}"#, "tilt.jsonl:1: t must be a plain decimal number of seconds >= 0 (such as 1.25, at most 9 decimals, at most 1000000000), got -1"),
        (#"{"t": 1e2, "gravity": [0, -1]}"#, "tilt.jsonl:1: t must be a plain decimal number of seconds >= 0 (such as 1.25, at most 9 decimals, at most 1000000000), got 1e2"),
        (#"{"step": -5, "gravity": [0, -1]}"#, "tilt.jsonl:1: step must be >= 0, got -5"),
        (#"{"step": 1.5, "gravity": [0, -1]}"#, "tilt.jsonl:1: step must be a whole number, got 1.5"),
        (#"{"t": 1, "gravity": [0, -1], "g": 2}"#, "tilt.jsonl:1: unknown key \"g\" (allowed: t, step, gravity, accel)"),
        (#"{"accel": [0, "x", 0]}"#, "tilt.jsonl:1: accel must be an array of three numbers [ax, ay, az] in g"),
    ])
    func malformedLinesAreRefusedWithReasons(line: String, expected: String) {
        guard case let .failure(error) = Self.parse([line])[0] else {
            Issue.record("accepted: \(line)")
            return
        }
        #expect(error.description == expected)
    }

    @Test func timeAndStepsMustNotGoBackwards() throws {
        let results = Self.parse([
            #"{"t": 2.5, "gravity": [0, -1]}"#,
            #"{"t": 1, "gravity": [0, -1]}"#,
            #"{"step": 100, "gravity": [0, -1]}"#,
            #"{"step": 300, "gravity": [0, -1]}"#,
            #"{"t": 2.51, "gravity": [0, -1]}"#,
        ])
        let errors = results.compactMap { result -> String? in
            if case let .failure(error) = result { return error.description }
            return nil
        }
        // Line 4 (step 300, equal) and line 5 (t 2.51 -> step 302) move forward again and are fine.
        #expect(errors == ["tilt.jsonl:2: t goes backwards: 1 after 2.5", "tilt.jsonl:3: step goes backwards: 100 after step 300"])
        #expect(try results[4].get().when == .step(302))
    }
}
