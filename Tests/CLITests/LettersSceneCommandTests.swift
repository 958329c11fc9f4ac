import Foundation
import Physics
import SceneModel
import TestSupport
import Testing

/// Concave outlines through the command line: Scenes/letters.json (the letters of CRATE, each an
/// outline decomposed into convex parts, falling into a tray that is a concave wall outline)
/// validates, `validate --explain` lists the parts and Chipmunk's mass properties, the plain-C
/// build (given the decomposed parts as polygon parts) reaches the same hash at every step, saved
/// states continue bit for bit, a synctest and a record's replay agree, and a bad outline is
/// refused before any step.
@Suite(.timeLimit(.minutes(5)))
struct LettersSceneCommandTests {
    static let scene = "Scenes/letters.json"

    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("letters-\(UUID().uuidString)-\(name)").path
    }

    @Test func theLettersSceneValidatesWithoutWarnings() throws {
        // The tray's outline is 3 convex walls, beside the bounds' 4.
        let validated = try CLI.run(["validate", Self.scene])
        #expect(validated.status == 0 && validated.stdout == "\(Self.scene): ok (5 crates, 7 walls)\n" && validated.stderr.isEmpty,
                "\(validated.stderr)")
    }

    /// `--explain` lists every body's parts as decomposed and Chipmunk's mass, centre of gravity
    /// and moment. The T (body 4: a 14×50 stem under a 48×14 bar, 1,372 px², mass 20) is checked
    /// against the two rectangles worked out here (the parallel-axis theorem), and its three parts'
    /// masses add up to its mass.
    @Test func explainListsEachBodysPartsAndMassProperties() throws {
        let explained = try CLI.run(["validate", "--explain", Self.scene])
        #expect(explained.status == 0, "\(explained.stderr)")
        let lines = explained.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(Self.scene): ok (5 crates, 7 walls)")
        #expect(lines.filter { $0.hasPrefix("  crates[") }.count == 5)
        let prefix = "  crates[3] (body 4): 3 parts, mass "
        guard let t = lines.firstIndex(where: { $0.hasPrefix(prefix) }) else {
            Issue.record("no line for the T: \(explained.stdout)")
            return
        }
        // "mass M, centre of gravity [X, Y], moment I"
        let numbers = lines[t].dropFirst(prefix.count).split(whereSeparator: { ", []".contains($0) })
            .compactMap { Double($0) }
        #expect(numbers.count == 4, "\(lines[t])")
        guard numbers.count == 4 else { return }
        let rects: [(area: Double, w: Double, h: Double, y: Double)] = [(700, 14, 50, -7), (672, 48, 14, 25)]
        let cogY = (700 * -7.0 + 672 * 25.0) / 1372
        let moment = rects.reduce(0.0) { sum, r in
            let m = 20 * r.area / 1372, d = r.y - cogY
            return sum + m * (r.w * r.w + r.h * r.h) / 12 + m * d * d
        }
        #expect(abs(numbers[0] - 20) < 1e-12 && abs(numbers[1]) < 1e-12 && abs(numbers[2] - cogY) < 1e-12, "\(lines[t])")
        #expect(abs(numbers[3] - moment) < 1e-9 * moment, "\(numbers[3]) vs \(moment)")
        let parts = lines[(t + 1)...].prefix { $0.hasPrefix("    ") }
        #expect(parts.count == 3 && parts.enumerated().allSatisfy { $1.hasPrefix("    vertices (outline part \($0)): polygon [[") }, "\(parts)")
        let partMasses = parts.compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
        #expect(partMasses.count == 3 && abs(partMasses.reduce(0, +) - numbers[0]) < 1e-12, "\(partMasses)")
    }

    /// The tray, a `walls` entry written as an outline, is listed after the bodies: its convex
    /// pieces as the world's walls 4-6 (after the four bounds), each piece the polygon the world got.
    @Test func explainListsAWallOutlinesPieces() throws {
        let explained = try CLI.run(["validate", "--explain", Self.scene])
        #expect(explained.status == 0, "\(explained.stderr)")
        let lines = explained.stdout.split(separator: "\n").map(String.init)
        guard let tray = lines.firstIndex(of: "  walls[0]: outline of 3 convex pieces, walls 4-6") else {
            Issue.record("no line for the tray: \(explained.stdout)")
            return
        }
        #expect(!lines[(tray + 1)...].contains { $0.hasPrefix("  crates[") }, "the walls come after the bodies")
        let world = try World(scene: try Repository.scene("letters"))
        let pieces = Array(lines[(tray + 1)...].prefix { $0.hasPrefix("    ") })
        #expect(pieces.count == 3)
        for (k, line) in pieces.enumerated() {
            guard case let .polygon(vertices) = world.wallStates()[4 + k].geometry else {
                Issue.record("wall \(4 + k) is not a polygon")
                continue
            }
            let written = vertices.map { "[\(Self.number($0.x)), \(Self.number($0.y))]" }.joined(separator: ", ")
            #expect(line == "    outline part \(k): polygon [\(written)]")
        }
    }

    /// As `--explain` writes a number: a whole one without a point, else Swift's shortest decimal.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    @Test func everyStepEqualsThePlainCBuild() throws {
        let (crateDrop, plainC) = try StructuralChangeBaselineTests.trails(scenePath: Self.scene, stream: nil, steps: 600)
        #expect(crateDrop.status == 0 && plainC.status == 0, "\(crateDrop.stderr) \(plainC.stderr)")
        #expect(crateDrop.stdout.split(separator: "\n").count == 600)
        #expect(crateDrop.stdout == plainC.stdout)
    }

    @Test(.needsSavedStates(SavedStateCommandTests.portable))
    func aStateSavedAtThreeStepsContinuesBitForBit() throws {
        let directory = Self.temporary("states")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let straight = try CLI.run(["hash", Self.scene, "--steps", "600", "--every", "1", "--save-every", "150", directory])
        #expect(straight.status == 0, "\(straight.stderr)")
        let expected = straight.stdout.split(separator: "\n")
        for step in [150, 300, 450] {
            let state = "\(directory)/step-\(String(repeating: "0", count: 9 - String(step).count))\(step).state"
            let continued = try CLI.run(["hash", state, "--steps", String(600 - step), "--every", "1"])
            #expect(continued.status == 0, "\(continued.stderr)")
            #expect(continued.stdout.split(separator: "\n") == Array(expected.dropFirst(step)), "from step \(step)")
        }
    }

    @Test(.needsSavedStates(SavedStateCommandTests.portable))
    func aSynctestOfThreeStepsFindsEveryRestoreExact() throws {
        let result = try CLI.run(["hash", Self.scene, "--steps", "600", "--synctest", "3"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func aRecordReplaysAndVerifies() throws {
        let record = Self.temporary("l.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        #expect(try CLI.run(["hash", Self.scene, "--steps", "600", "--record", record]).status == 0)
        let replay = try CLI.run(["replay", record, "--verify"])
        #expect(replay.status == 0 && replay.stdout.contains("\"verified\":true"), "\(replay.stdout) \(replay.stderr)")
    }

    /// A bad outline is named by its path and line, exit 65, and nothing is stepped.
    @Test(arguments: [
        (#"[[0, 0], [20, 20], [20, 0], [0, 20]]"#,
         "crates[0].vertices[2]: the outline crosses itself: the side from vertex 0 to 1 meets the side from vertex 2 to 3"),
        (#"[[0, 0], [20, 20]]"#, "crates[0].vertices: an outline needs 3...64 vertices, got 2"),
        (#"[[0, 0], [0.001, 0], [0, 0.001]]"#, "crates[0].vertices: the outline's area is 5e-7 px²; at least 0.0001"),
        (#"[[0, 0], [10, 0], [20, 0], [0, 20]]"#, "crates[0].vertices[1]: lies on the line through its neighbours"),
    ])
    func aBadOutlineIsRefusedBeforeAnyStep(vertices: String, expected: String) throws {
        let path = Self.temporary("bad.json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(("{\"world\": [300, 300], \"gravity\": [0, -1000],\n"
            + #""crates": [{"shape": "outline", "center": [150, 150], "mass": 1, "vertices": "# + vertices + "}]}").utf8)
            .write(to: URL(fileURLWithPath: path))
        let validated = try CLI.run(["validate", path])
        #expect(validated.status == 65 && validated.stdout.contains("\(path):2: \(expected)"), "\(validated.stdout)")
        let run = try CLI.run(["hash", path, "--steps", "1"])
        #expect(run.status == 65 && run.stdout.isEmpty)
    }
}
