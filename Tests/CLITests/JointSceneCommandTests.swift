import Foundation
import TestSupport
import Testing

/// The shipped scenes of joints, through the command line: each validates, hashes alike in two
/// processes and as the plain C baseline builds it, continues bit for bit from a state saved
/// mid-motion, passes the synctest, and draws its joints.
@Suite struct JointSceneCommandTests {
    static let scenes = ["newton-cradle", "bridge", "car"]

    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("joints-\(UUID().uuidString)-\(name)").path
    }

    @Test(arguments: zip(scenes, ["5 crates, 1 walls, 5 joints", "13 crates, 6 walls, 13 joints", "4 crates, 5 walls, 4 joints"]))
    func eachSceneValidatesAndHashesAlikeInTwoProcesses(name: String, counts: String) throws {
        let validated = try CLI.run(["validate", "Scenes/\(name).json"])
        #expect(validated.status == 0 && validated.stdout == "Scenes/\(name).json: ok (\(counts))\n" && validated.stderr.isEmpty,
                "\(validated.stdout)\(validated.stderr)")
        let first = try CLI.run(["hash", "Scenes/\(name).json", "--steps", "600", "--every", "100"])
        let second = try CLI.run(["hash", "Scenes/\(name).json", "--steps", "600", "--every", "100"])
        #expect(first.status == 0 && first.stdout.split(separator: "\n").count == 6 && first.stdout == second.stdout)
    }

    /// The C baseline makes every joint with its own calls, in the documented construction order,
    /// and reaches the same hash (on Debian's library too: the Debian pass runs this suite).
    @Test func theCBaselineReachesTheSameHashes() throws {
        let result = try CLI.run(["bench", "--quick", "--json"] + Self.scenes.map { "Scenes/\($0).json" })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "\"hashes_match\":true").count == Self.scenes.count + 1)
        #expect(!result.stdout.contains("\"hashes_match\":false"))
    }

    /// The most joints a scene may hold, all between one crate and the world's static body: `hash`
    /// ends on a 2 MB stack. Dropping the world unlinked the oldest joint from the static body's
    /// list in a recursion as deep as the joints after it, and segfaulted there (audit round 5,
    /// finding 4; patch 0008 makes it a loop, docs/determinism.md).
    @Test(.enabled(if: SavedStateCommandTests.portable, "Debian's libchipmunk7 still unlinks a joint in a recursion (docs/determinism.md)"),
          .timeLimit(.minutes(3)))
    func theMostJointsOnOneBodyEndOnA2MBStack() throws {
        let scene = Self.temporary("most-joints.json")
        defer { try? FileManager.default.removeItem(atPath: scene) }
        let pin = #"{"kind": "pin", "a": "static", "b": 0, "anchor_a": [100, 200]}"#
        try #"{"world": [400, 400], "gravity": [0, -1000], "crates": [{"center": [100, 100], "size": [10, 10], "mass": 1}], "joints": ["#
            .appending(Array(repeating: pin, count: 100_000).joined(separator: ",")).appending("]}")
            .write(toFile: scene, atomically: true, encoding: .utf8)
        let result = try CLI.shell(#"ulimit -s 2048 && "$CRATEDROP" hash "# + "'\(scene)' --steps 1")
        #expect(result.status == 0 && result.stdout.hasPrefix("1 "), "\(result.status) \(result.stderr.prefix(300))")
    }

    @Test(.needsSavedStates(SavedStateCommandTests.portable), arguments: zip(scenes, [157, 211, 301]))
    func aStateSavedMidMotionContinuesBitForBit(name: String, step: Int) throws {
        let state = Self.temporary("s.state")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let scene = "Scenes/\(name).json"
        #expect(try CLI.run(["hash", scene, "--steps", String(step), "--save-state", state]).status == 0)
        let continued = try CLI.run(["hash", state, "--steps", "300", "--every", "1"])
        let straight = try CLI.run(["hash", scene, "--steps", String(step + 300), "--every", "1"])
        #expect(continued.status == 0 && straight.status == 0, "\(continued.stderr)")
        #expect(continued.stdout.split(separator: "\n") == Array(straight.stdout.split(separator: "\n").dropFirst(step)))
    }

    @Test(.needsSavedStates(SavedStateCommandTests.portable), arguments: scenes)
    func theSynctestPasses(name: String) throws {
        let synced = try CLI.run(["hash", "Scenes/\(name).json", "--steps", "360", "--synctest", "2"])
        let straight = try CLI.run(["hash", "Scenes/\(name).json", "--steps", "360"])
        #expect(synced.status == 0 && synced.stdout == straight.stdout, "\(synced.stderr)")
    }

    /// The cradle's first frame: each ball hangs from the bar on a drawn line, so the pixels
    /// midway between an anchor and its ball are the joint's colour, not the background.
    @Test func theCradlesPinsAreDrawn() throws {
        let directory = Self.temporary("cradle")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try CLI.run(["run", "Scenes/newton-cradle.json", "--seconds", "0.05", "--out", directory, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let image = try PPMImage.readFile([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(directory)/frame-00001.ppm"))))
        // 640×480 frames of the 640×480 world: the third ball hangs from (320, 450) to (320, 200).
        func pixel(_ x: Int, _ worldY: Int) -> (UInt8, UInt8, UInt8) {
            let i = ((image.height - worldY) * image.width + x) * 3
            return (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2])
        }
        func brightness(_ p: (UInt8, UInt8, UInt8)) -> Int { Int(p.0) + Int(p.1) + Int(p.2) }
        // The line is thin and anti-aliased: the darkest pixel across it.
        let line = (318...322).map { brightness(pixel($0, 325)) }.min()!, beside = brightness(pixel(330, 325))
        #expect(beside > 600, "the background beside it")
        #expect(line + 250 < beside, "the pin is drawn, darker than the background: \(line) against \(beside)")
    }
}
