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

    /// CrateDrop's and the plain-C build's every-step lines for `scene` with `stream` (300 steps).
    static func trails(scene: String, stream: String) throws -> (crateDrop: CLI.Result, plainC: CLI.Result) {
        let crateDrop = try CLI.run(["hash", "Scenes/\(scene).json", "--every", "1", "--steps", "300", "--gravity", stream])
        let plainC = try CLI.shell("'\(BodyInputCommandTests.bench)' Scenes/\(scene).json --step-loop --side c --gravity '\(stream)' --warmup 0 --steps 300")
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

    /// The C build breaks no joints: an added joint with a breaking threshold is refused (69)
    /// rather than left unbroken on the C side.
    @Test func aBreakableJointIsRefusedByThePlainCBuild() throws {
        let stream = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-breaks-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: stream) }
        try Data(#"{"step": 5, "add_joint": {"kind": "pin", "a": 1, "b": 2, "break_impulse": 10}}"#.utf8 + [10]).write(to: URL(fileURLWithPath: stream))
        let (_, plainC) = try Self.trails(scene: "book", stream: stream)
        #expect(plainC.status == 69 && plainC.stdout.isEmpty && plainC.stderr.contains("breaks no joints"), "\(plainC.stderr)")
    }
}
