import Foundation
import TestSupport
import Testing

/// Structural changes (issue 44) made by the plain-C build (`Sources/CBaseline`: `cratedrop-bench
/// --step-loop --side c --inputs`) with its own Chipmunk calls, in the order docs/determinism.md
/// ("A world that changes") fixes: every step's hash equals CrateDrop's. The streams are shared
/// with scripts/cross-arch, which runs them on amd64, arm64 and i386.
@Suite struct StructuralChangeBaselineTests {
    /// The book scene's stream: crates of every shape added (one kinematic, one filtered), two
    /// walls, a pin and a pivot at a point added after their bodies moved, a spring, a ratchet and
    /// a motor, bodies removed with their joints (one grabbed, one with a force held on it), a
    /// joint removed, and pushes between, on bodies of the scene and added ones.
    static let bookChanges = "Tests/CrossArch/book-changes.jsonl"

    /// The bridge with joints added that break: at step 10 a spring from the load (body 13) to a
    /// point above it, breaking past an impulse of 70 (at step 68, as it swings down); at step 30
    /// a heavy crate over planks 3 and 4; at step 31 a pin between planks 3 and 9, breaking past a
    /// force of 20000 (at step 48, as the crate lands).
    static let bridgeBreaks = "Tests/CrossArch/bridge-breaks.jsonl"

    /// CrateDrop's and the plain-C build's every-step lines for `scene` with `stream` (300 steps).
    static func trails(scene: String, stream: String) throws -> (crateDrop: CLI.Result, plainC: CLI.Result) {
        try trails(scenePath: "Scenes/\(scene).json", stream: stream, steps: 300)
    }

    /// CrateDrop's and the plain-C build's every-step lines for the scene at `scenePath` with
    /// `stream` (nil: none) over `steps` steps.
    static func trails(scenePath: String, stream: String?, steps: Int) throws -> (crateDrop: CLI.Result, plainC: CLI.Result) {
        // The C build prints every step's hash when given a stream: an empty one stands for none.
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-empty-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: empty) }
        try Data().write(to: URL(fileURLWithPath: empty))
        let crateDrop = try CLI.run(["hash", scenePath, "--every", "1", "--steps", String(steps)] + (stream.map { ["--gravity", $0] } ?? []))
        let plainC = try CLI.shell("'\(BodyInputCommandTests.bench)' '\(scenePath)' --step-loop --side c --gravity '\(stream ?? empty)' --warmup 0 --steps \(steps)")
        return (crateDrop, plainC)
    }

    /// The book with every kind of change, and the bridge losing a plank (two scene joints go
    /// with it) and later its last joint.
    @Test(arguments: [("book", bookChanges), ("bridge", "Tests/CrossArch/bridge-plank.jsonl")])
    func everyStepEqualsThePlainCBuild(scene: String, stream: String) throws {
        let (crateDrop, plainC) = try Self.trails(scene: scene, stream: stream)
        #expect(crateDrop.status == 0 && plainC.status == 0, "\(crateDrop.stderr) \(plainC.stderr)")
        #expect(crateDrop.stdout.split(separator: "\n").count == 300)
        #expect(crateDrop.stdout == plainC.stdout)
        let without = try CLI.run(["hash", "Scenes/\(scene).json", "--steps", "300"])
        #expect(!crateDrop.stdout.hasSuffix(without.stdout), "the changes change the run")
    }

    /// Each line of the book's stream is made by the plain-C build at its step: given the stream
    /// without it, the C build keeps CrateDrop's hashes up to that step and parts from them after.
    @Test func theCBuildMakesEveryLineAtItsStep() throws {
        let crateDrop = try CLI.run(["hash", "Scenes/book.json", "--every", "1", "--steps", "300", "--gravity", Self.bookChanges])
        let expected = crateDrop.stdout.split(separator: "\n")
        let lines = try String(contentsOfFile: Repository.root.appendingPathComponent(Self.bookChanges).path, encoding: .utf8)
            .split(separator: "\n")
        #expect(lines.count > 20)
        let shorter = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-changes-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: shorter) }
        for (index, line) in lines.enumerated() {
            var others = lines
            others.remove(at: index)
            try Data((others.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: shorter))
            let (_, plainC) = try Self.trails(scene: "book", stream: shorter)
            let step = Int(line.split(separator: ",")[0].split(separator: ":")[1].trimmingCharacters(in: .whitespaces))!
            let got = plainC.stdout.split(separator: "\n")
            #expect(plainC.status == 0 && got.count == 300, "\(plainC.stderr)")
            #expect(got.prefix(step) == expected.prefix(step) && got != expected, "without line \(index + 1): \(line)")
        }
    }

    /// The spec the cross-architecture harness reads holds each change as a line at its step,
    /// bodies and joints by index (id less one; -1 the static body).
    @Test func theBaselineSpecWritesChangeLines() throws {
        let spec = try CLI.shell("'\(BodyInputCommandTests.bench)' --baseline-spec Scenes/book.json --gravity \(Self.bookChanges)")
        #expect(spec.status == 0, "\(spec.stderr)")
        let lines = spec.stdout.split(separator: "\n")
        for prefix in ["addbody 20 0 0 ", "addbody 20 2 0 ", "addbody 25 1 0 ", "addbody 25 3 0 ", "addbody 30 0 1 ", "addwall 40 3 ", "addwall 40 2 ",
                       "addjoint 60 0 5 -1 ", "addjoint 60 2 6 7 ", "addjoint 62 10 -1 8 ", "removebody 100 5", "removejoint 120 3",
                       "input 151 1 10 "] {
            #expect(lines.contains { $0.hasPrefix(prefix) }, "\(prefix)")
        }
        let stream = try String(contentsOfFile: Repository.root.appendingPathComponent(Self.bookChanges).path, encoding: .utf8)
        let changes = stream.split(separator: "\n").filter { $0.contains(#""add"#) || $0.contains(#""remove""#) }
        #expect(lines.filter { $0.hasPrefix("add") || $0.hasPrefix("remove") }.count == changes.count)
    }

    /// Joints that break (`break_impulse`, `break_force`), broken by the plain-C build as
    /// CrateDrop's world breaks them (`cbaseline_step`: after the step, all found first, then
    /// removed in ascending joint id): Scenes/breaking-bridge.json, whose plank joint 4 breaks at
    /// step 92, and the bridge with added joints that break, the first at step 48. Every step
    /// equals CrateDrop's; the same joints without their thresholds keep the C build's hashes up
    /// to that step and part from them at the next, so the C build breaks them there.
    @Test(arguments: [("breaking-bridge", nil, 92), ("bridge", bridgeBreaks, 48)] as [(String, String?, Int)])
    func jointsBreakInThePlainCBuildAtCrateDropsStep(scene: String, stream: String?, firstBreak: Int) throws {
        let (crateDrop, plainC) = try Self.trails(scenePath: "Scenes/\(scene).json", stream: stream, steps: 400)
        #expect(crateDrop.status == 0 && plainC.status == 0, "\(crateDrop.stderr) \(plainC.stderr)")
        #expect(crateDrop.stdout.split(separator: "\n").count == 400)
        #expect(crateDrop.stdout == plainC.stdout)

        // The same scene and stream with every threshold taken out.
        let unbreaking = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-unbreaking-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: unbreaking + ".json") }
        defer { try? FileManager.default.removeItem(atPath: unbreaking + ".jsonl") }
        func withoutThresholds(_ path: String) throws -> String {
            try String(contentsOfFile: Repository.root.appendingPathComponent(path).path, encoding: .utf8)
                .replacingOccurrences(of: #", "break_(impulse|force)": [0-9]+"#, with: "", options: .regularExpression)
        }
        var scenePath = "Scenes/\(scene).json", streamPath: String?
        if let stream {
            streamPath = unbreaking + ".jsonl"
            try withoutThresholds(stream).write(toFile: unbreaking + ".jsonl", atomically: true, encoding: .utf8)
        } else {
            try withoutThresholds(scenePath).write(toFile: unbreaking + ".json", atomically: true, encoding: .utf8)
            scenePath = unbreaking + ".json"
        }
        let (_, unbroken) = try Self.trails(scenePath: scenePath, stream: streamPath, steps: 400)
        let expected = plainC.stdout.split(separator: "\n"), got = unbroken.stdout.split(separator: "\n")
        #expect(unbroken.status == 0 && got.count == 400, "\(unbroken.stderr)")
        #expect(got.prefix(firstBreak) == expected.prefix(firstBreak) && got[firstBreak] != expected[firstBreak],
                "the C build breaks a joint at step \(firstBreak)")
    }

    /// The spec the cross-architecture harness reads gives each joint's thresholds at the end of
    /// its line (a scene's and an added one's; NaN: none).
    @Test func theBaselineSpecWritesBreakThresholds() throws {
        let scene = try CLI.shell("'\(BodyInputCommandTests.bench)' --baseline-spec Scenes/breaking-bridge.json")
        #expect(scene.status == 0, "\(scene.stderr)")
        let joints = scene.stdout.split(separator: "\n").filter { $0.hasPrefix("joint ") }
        // 2500 as its bit pattern, then no break force.
        #expect(joints.count == 13 && joints.allSatisfy { $0.hasSuffix(" 0 40a3880000000000 7ff8000000000000") }, "\(joints)")
        let added = try CLI.shell("'\(BodyInputCommandTests.bench)' --baseline-spec Scenes/bridge.json --gravity \(Self.bridgeBreaks)")
        let lines = added.stdout.split(separator: "\n")
        // A spring breaking past an impulse of 70; a pin breaking past a force of 20000.
        #expect(lines.contains { $0.hasPrefix("addjoint 10 5 12 -1 ") && $0.hasSuffix(" 4051800000000000 7ff8000000000000") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("addjoint 31 0 2 8 ") && $0.hasSuffix(" 7ff8000000000000 40d3880000000000") }, "\(lines)")
    }
}
