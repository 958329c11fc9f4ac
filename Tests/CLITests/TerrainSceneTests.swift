import Foundation
import TestSupport
import Testing

/// Scenes/terrain.json, whose ground is traced from Scenes/terrain.png: its saved states continue
/// bit for bit, `--synctest 3` passes, its records verify, the plain-C build (given the traced
/// segments as walls) reaches the same hashes, and a changed picture is a changed world.
@Suite(.timeLimit(.minutes(5))) struct TerrainSceneTests {
    static let scene = "Scenes/terrain.json"

    @Test(.needsSavedStates(SavedStateCommandTests.portable), arguments: [1, 150, 400])
    func aStateSavedAtAnyStepContinuesAsTheStraightRun(step: Int) throws {
        let state = SavedStateCommandTests.temporary("terrain.state")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let saved = try CLI.run(["hash", Self.scene, "--steps", String(step), "--save-state", state])
        #expect(saved.status == 0, "\(saved.stderr)")
        let continued = try CLI.run(["hash", state, "--steps", "200", "--every", "1"])
        let straight = try CLI.run(["hash", Self.scene, "--steps", String(step + 200), "--every", "1"])
        #expect(continued.status == 0 && straight.status == 0, "\(continued.stderr)")
        #expect(continued.stdout.split(separator: "\n") == Array(straight.stdout.split(separator: "\n").dropFirst(step)))
    }

    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func synctestThreePrintsThePlainRunsHashes() throws {
        let plain = try CLI.run(["hash", Self.scene, "--steps", "600", "--every", "10"])
        let tested = try CLI.run(["hash", Self.scene, "--steps", "600", "--every", "10", "--synctest", "3"])
        #expect(plain.status == 0 && tested.status == 0, "\(tested.stderr)")
        #expect(tested.stdout == plain.stdout && plain.stdout.split(separator: "\n").count == 60)
    }

    @Test func aRecordedRunReplaysAndVerifies() throws {
        let record = SavedStateCommandTests.temporary("terrain.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        let run = try CLI.run(["hash", Self.scene, "--steps", "600", "--record", record])
        #expect(run.status == 0, "\(run.stderr)")
        let replay = try CLI.run(["replay", record, "--verify"])
        #expect(replay.status == 0 && replay.stdout.contains("\"verified\":true"), "\(replay.stdout)\(replay.stderr)")
    }

    @Test func everyStepEqualsThePlainCBuild() throws {
        let (crateDrop, plainC) = try StructuralChangeBaselineTests.trails(scenePath: Self.scene, stream: nil, steps: 600)
        #expect(crateDrop.status == 0 && plainC.status == 0, "\(crateDrop.stderr) \(plainC.stderr)")
        #expect(crateDrop.stdout.split(separator: "\n").count == 600)
        #expect(crateDrop.stdout == plainC.stdout)
    }

    /// The same pixels in other bytes (a text chunk added): a state of the old picture's world is
    /// refused, as a state of another scene is.
    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func aStateOfTheOldPictureIsRefusedOnceThePictureChanges() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("terrain-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: Repository.path(Self.scene), toPath: "\(folder)/terrain.json")
        let picture = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Repository.path("Scenes/terrain.png"))))
        try Data(picture).write(to: URL(fileURLWithPath: "\(folder)/terrain.png"))
        let state = "\(folder)/s.state"
        let saved = try CLI.run(["hash", "\(folder)/terrain.json", "--steps", "60", "--save-state", state])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(try CLI.run(["hash", state, "--steps", "10"]).status == 0)
        try Data(TestPicture.withComment(picture, "redrawn")).write(to: URL(fileURLWithPath: "\(folder)/terrain.png"))
        let sameWalls = try CLI.run(["validate", "\(folder)/terrain.json"])
        #expect(sameWalls.status == 0 && sameWalls.stdout.contains("50 walls"), "\(sameWalls.stdout)\(sameWalls.stderr)")
        let refused = try CLI.run(["hash", state, "--steps", "10"])
        #expect(refused.status == 65 && refused.stdout.isEmpty, "\(refused.stderr)")
        #expect(refused.stderr.contains("another make-up"), "\(refused.stderr)")
    }
}
