import Foundation
import TestSupport
import Testing

/// At most 10,000 walls in a world, the bounds' four among them (issue 49, audit finding 5): each
/// wall Chipmunk's tree takes in costs more the more it holds (100,000 along a line took 53 s, and
/// 400,000 fourteen minutes, deaf to signals), and every add relabelled every wall before.
@Suite struct WallLimitTests {
    static func scene(walls: Int, bounds: Bool) -> String {
        let list = (0..<walls).map { #"{"from": [\#(Double($0) * 0.1), 1], "to": [\#(Double($0) * 0.1 + 0.05), 2], "radius": 0.001}"# }
        return #"{"world": [2000, 2000], "gravity": [0, -10], \#(bounds ? #""bounds": {"radius": 1},"# : "") "walls": [\#(list.joined(separator: ", "))]}"#
    }

    @Test(.timeLimit(.minutes(3))) func aSceneOverTheWallLimitIsRefusedAndOneAtItBuilds() throws {
        let (over, at) = (SavedStateCommandTests.temporary("walls-over.json"), SavedStateCommandTests.temporary("walls-at.json"))
        defer { for path in [over, at] { try? FileManager.default.removeItem(atPath: path) } }
        try Self.scene(walls: 9997, bounds: true).write(toFile: over, atomically: true, encoding: .utf8)
        try Self.scene(walls: 9996, bounds: true).write(toFile: at, atomically: true, encoding: .utf8)
        let refused = try CLI.run(["validate", over])
        #expect(refused.status == 65 && refused.stdout.contains("walls: 9997 walls; at most 9996"), "\(refused.stdout)")
        let built = try CLI.run(["hash", at, "--steps", "1"])
        #expect(built.status == 0, "\(built.stderr)")
        // One more wall from an input line is refused as it applies.
        let stream = SavedStateCommandTests.temporary("one-more.jsonl")
        defer { try? FileManager.default.removeItem(atPath: stream) }
        try #"{"step": 0, "add_wall": {"from": [0, 5], "to": [1, 5], "radius": 1}}"#.write(toFile: stream, atomically: true, encoding: .utf8)
        let added = try CLI.run(["hash", at, "--steps", "1", "--gravity", stream])
        #expect(added.status == 65 && added.stderr.contains("walls: the world holds 10000 walls, the most it may"), "\(added.stderr)")
    }

    /// Masks tell 4,096 walls apart (ids 61440 and up): a world with more is refused masks, named
    /// (audit finding 10: later walls all got id 65535, without a word).
    @Test(.timeLimit(.minutes(3))) func masksOfMoreWallsThanTheyTellApartAreRefused() throws {
        let scene = SavedStateCommandTests.temporary("walls-masks.json"), out = SavedStateCommandTests.temporary("walls-frames")
        defer { for path in [scene, out, out + "-masks"] { try? FileManager.default.removeItem(atPath: path) } }
        try Self.scene(walls: 4093, bounds: true).write(toFile: scene, atomically: true, encoding: .utf8)
        let run = try CLI.run(["run", scene, "--seconds", "0.1", "--out", out, "--format", "png", "--masks", out + "-masks", "--quiet"])
        #expect(run.status != 0 && run.stderr.contains("the world has 4097 walls; a 16-bit mask tells 4096 apart"), "\(run.status) \(run.stderr)")
    }

    /// Walls and bodies added while a run draws masks, past what a 16-bit mask tells apart, are
    /// told once each (the run goes on: later walls share the last id, such bodies are left out).
    @Test(.timeLimit(.minutes(3))) func masksThatAWorldOutgrowsWhileItRunsAreTold() throws {
        let (inputs, out) = (SavedStateCommandTests.temporary("outgrown.jsonl"), SavedStateCommandTests.temporary("outgrown-frames"))
        defer { for path in [inputs, out, out + "-masks"] { try? FileManager.default.removeItem(atPath: path) } }
        // The book's 4 bounds walls and 4,093 added: 4,097. Then bodies up to id 61,440 (0xEFFF + 1), far from the box.
        // Each is told with the step of the first frame that holds it (a line at step 3 applies before the fourth step).
        var lines = (0..<4093).map { #"{"step": 3, "add_wall": {"from": [\#(2000 + $0 * 3), -500], "to": [\#(2001 + $0 * 3), -500], "radius": 1}}"# }
        lines += (0..<(0xF000 - 5)).map { #"{"step": 6, "add": {"center": [\#(-5000 - $0 % 300 * 3), \#(1000 + $0 / 300 * 3)], "size": [1, 1], "mass": 1}}"# }
        try (lines.joined(separator: "\n") + "\n").write(toFile: inputs, atomically: true, encoding: .utf8)
        let run = try CLI.run(["run", "Scenes/book.json", "--seconds", "0.1", "--fps", "120", "--gravity", inputs, "--out", out, "--format", "png",
                               "--masks", out + "-masks", "--quiet"])
        #expect(run.status == 0, "\(run.stderr.suffix(500))")
        let told = run.stderr.split(separator: "\n").filter { $0.contains("-masks: at step") }
        #expect(told.count == 2, "\(run.stderr.suffix(1000))")
        #expect(told.first?.contains("at step 4, the world has 4097 walls; a 16-bit mask tells 4096 apart") == true, "\(told)")
        #expect(told.last?.contains("at step 7, body 61440 is past the highest id a 16-bit mask holds for a body (61439") == true, "\(told)")
    }
}
