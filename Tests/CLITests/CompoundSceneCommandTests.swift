import Foundation
import TestSupport
import Testing

/// Bodies of several parts (`"shapes"`) through the command line: Scenes/hammers.json validates,
/// the plain-C build makes the same bodies (its own Chipmunk calls, same part order) and reaches
/// the same hash at every step, saved states continue bit for bit, a synctest and a record's
/// replay agree, and bad part lists are refused before any step.
@Suite(.timeLimit(.minutes(5)))
struct CompoundSceneCommandTests {
    static let scene = "Scenes/hammers.json"

    /// A compound body added by a line at step 50 and the hammer (body 3) removed at step 300.
    static let lines = """
        {"step": 50, "add": {"center": [450, 320], "shapes": [{"size": [60, 12], "mass": 3}, {"shape": "circle", "radius": 10, "offset": [30, 12], "mass": 2}]}}
        {"step": 300, "body": 3, "remove": true}

        """

    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("compound-\(UUID().uuidString)-\(name)").path
    }

    @Test func theHammersSceneValidatesWithoutWarnings() throws {
        let validated = try CLI.run(["validate", Self.scene])
        #expect(validated.status == 0 && validated.stdout == "\(Self.scene): ok (5 crates, 5 walls)\n" && validated.stderr.isEmpty,
                "\(validated.stderr)")
    }

    /// Every step of 600, alone and with a compound body added (and a body removed) by lines.
    @Test(arguments: [false, true])
    func everyStepEqualsThePlainCBuild(withLines: Bool) throws {
        let stream = withLines ? Self.temporary("add.jsonl") : nil
        if let stream { try Data(Self.lines.utf8).write(to: URL(fileURLWithPath: stream)) }
        defer { if let stream { try? FileManager.default.removeItem(atPath: stream) } }
        let (crateDrop, plainC) = try StructuralChangeBaselineTests.trails(scenePath: Self.scene, stream: stream, steps: 600)
        #expect(crateDrop.status == 0 && plainC.status == 0, "\(crateDrop.stderr) \(plainC.stderr)")
        #expect(crateDrop.stdout.split(separator: "\n").count == 600)
        #expect(crateDrop.stdout == plainC.stdout)
    }

    /// A spawner's bodies of parts (a turned polygon and a turned segment among them), scaled by
    /// their seeded factors, are made alike by the plain-C build at every step.
    @Test func aSpawnerOfBodiesOfPartsEqualsThePlainCBuild() throws {
        let scene = Self.temporary("spawn.json")
        defer { try? FileManager.default.removeItem(atPath: scene) }
        try Data(#"""
            {"name": "spawn-parts", "world": [300, 300], "gravity": [0, -1000], "bounds": {"radius": 2},
             "spawners": [{"at": [150, 250], "every": 0.25, "count": 12, "jitter": [80, 0], "scale": [0.7, 1.3], "seed": 3,
               "crate": {"angle": 0.3, "shapes": [{"size": [30, 8], "mass": 2},
                 {"shape": "polygon", "vertices": [[-4, 4], [4, 4], [0, 14]], "offset": [10, 0], "angle": 0.5, "mass": 1},
                 {"shape": "segment", "a": [-15, -6], "b": [15, -6], "radius": 2, "offset": [0, -1], "angle": 0.1, "mass": 0.5}]}}]}
            """#.utf8).write(to: URL(fileURLWithPath: scene))
        let (crateDrop, plainC) = try StructuralChangeBaselineTests.trails(scenePath: scene, stream: nil, steps: 900)
        #expect(crateDrop.status == 0 && plainC.status == 0, "\(crateDrop.stderr) \(plainC.stderr)")
        #expect(crateDrop.stdout.split(separator: "\n").count == 900 && crateDrop.stdout == plainC.stdout)
    }

    /// Saved at three steps (one before the add, two after it and the removal), each state
    /// continues bit for bit: its make-up log rebuilds the added compound body.
    @Test(.needsSavedStates(SavedStateCommandTests.portable))
    func aStateSavedAtThreeStepsContinuesBitForBit() throws {
        let stream = Self.temporary("add.jsonl"), directory = Self.temporary("states")
        try Data(Self.lines.utf8).write(to: URL(fileURLWithPath: stream))
        defer {
            try? FileManager.default.removeItem(atPath: stream)
            try? FileManager.default.removeItem(atPath: directory)
        }
        let straight = try CLI.run(["hash", Self.scene, "--gravity", stream, "--steps", "600", "--every", "1", "--save-every", "150", directory])
        #expect(straight.status == 0, "\(straight.stderr)")
        let expected = straight.stdout.split(separator: "\n")
        for step in [150, 300, 450] {
            let state = "\(directory)/step-\(String(repeating: "0", count: 9 - String(step).count))\(step).state"
            let continued = try CLI.run(["hash", state, "--gravity", stream, "--steps", String(600 - step), "--every", "1"])
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
        let record = Self.temporary("h.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        #expect(try CLI.run(["hash", Self.scene, "--steps", "600", "--record", record]).status == 0)
        let replay = try CLI.run(["replay", record, "--verify"])
        #expect(replay.status == 0 && replay.stdout.contains("\"verified\":true"), "\(replay.stdout) \(replay.stderr)")
    }

    /// A part's angle turns it with the Chipmunk library's cos and sin (musl's, in the portable
    /// backend), not the program's glibc, whose FMA variants (chosen by the CPU) round cos(1.31)
    /// and cos(-1.622) one bit apart from the plain ones: the same hashes with glibc's FMA variants
    /// and without them (GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA). With glibc's cos and sin the two
    /// runs parted. On a CPU without FMA both runs use the plain variants and this shows nothing;
    /// on Debian's library the library's maths is glibc's, so it runs on the portable backend only.
    @Test(.needsSavedStates(SavedStateCommandTests.portable))
    func aPartsAngleTurnsItAlikeWithAndWithoutGlibcsFMAVariants() throws {
        let noFMA = "GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA"
        let probe = ["python3", "-c", "import math; print(math.cos(1.31).hex())"]
        let withFMA = try CLI.tool("env", probe), withoutFMA = try CLI.tool("env", [noFMA] + probe)
        guard withFMA.status == 0, withoutFMA.status == 0, withFMA.stdout != withoutFMA.stdout else { return }
        let scene = Self.temporary("angles.json")
        defer { try? FileManager.default.removeItem(atPath: scene) }
        try Data(#"""
            {"world": [300, 300], "gravity": [0, -1000], "bounds": {"radius": 2},
             "crates": [{"center": [150, 150], "shapes": [{"size": [60, 10], "mass": 2},
               {"size": [40, 8], "offset": [0, 20], "angle": 1.31, "mass": 1},
               {"shape": "segment", "a": [-20, 0], "b": [20, 0], "radius": 2, "offset": [10, -20], "angle": 1.31, "mass": 1},
               {"shape": "polygon", "vertices": [[-8, -8], [8, -8], [0, 10]], "offset": [-20, 0], "angle": -1.622, "mass": 1}]}]}
            """#.utf8).write(to: URL(fileURLWithPath: scene))
        let plain = try CLI.run(["hash", scene, "--steps", "240", "--every", "1"])
        let tuned = try CLI.run(["hash", scene, "--steps", "240", "--every", "1"], environment: ["GLIBC_TUNABLES": "glibc.cpu.hwcaps=-FMA"])
        #expect(plain.status == 0 && tuned.status == 0, "\(plain.stderr) \(tuned.stderr)")
        #expect(plain.stdout.split(separator: "\n").count == 240 && plain.stdout == tuned.stdout)
    }

    /// Each bad part list is named by its path and line, exit 65, before any step.
    @Test(arguments: [
        (#""shapes": []"#, "crates[0].shapes: a body has 1 to 64 parts, got 0"),
        (#""shapes": [{"size": [10, 10], "mass": 0}, {"shape": "circle", "radius": 4, "offset": [20, 0], "mass": 0}]"#,
         "crates[0].shapes: the parts' masses add up to 0: a dynamic body needs a mass of at least 1e-6"),
        (#""shapes": [{"size": [10, 10], "mass": -1}]"#, "crates[0].shapes[0].mass: must be in 0...1000000000000, got -1"),
        (#""shapes": [{"size": [10, 10], "mass": 1}, {"shape": "compound", "mass": 1}]"#, "crates[0].shapes[1].shape: must be one of"),
        (#""shapes": [{"size": [10, 10]}]"#, "crates[0].shapes[0].mass: is missing"),
        (#""mass": 3, "shapes": [{"size": [10, 10], "mass": 1}]"#, "crates[0].mass: unknown key"),
        ("\"shapes\": [" + Array(repeating: #"{"size": [1, 1], "mass": 1}"#, count: 65).joined(separator: ", ") + "]",
         "crates[0].shapes: 65 parts; at most 64"),
    ])
    func aBadPartListIsRefusedWithItsPath(shapes: String, expected: String) throws {
        let path = Self.temporary("bad.json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("{\"world\": [300, 300], \"gravity\": [0, -1000],\n \"crates\": [{\"center\": [150, 150], \(shapes)}]}\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        let validated = try CLI.run(["validate", path])
        // `validate` lists a scene's problems on stdout.
        #expect(validated.status == 65 && validated.stdout.contains("\(path):2: \(expected)"), "\(validated.stdout)")
        let run = try CLI.run(["hash", path, "--steps", "1"])
        #expect(run.status == 65 && run.stdout.isEmpty)
    }

    /// Parts that share area are allowed, with a warning naming both.
    @Test func overlappingPartsWarn() throws {
        let path = Self.temporary("overlap.json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(#"{"world": [300, 300], "gravity": [0, -1000], "crates": [{"center": [150, 150], "shapes": [{"size": [40, 10], "mass": 1}, {"size": [10, 40], "mass": 1}]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let validated = try CLI.run(["validate", path])
        #expect(validated.status == 0 && validated.stderr.contains("warning: crates[0].shapes[1]: overlaps shapes[0] by 25 px"), "\(validated.stderr)")
    }
}
