import Foundation
import SceneFile
import SceneModel
import TestSupport
import Testing

@Suite struct HashCommandTests {
    @Test func stdoutCarriesOnlyHashLinesAndNoChipmunkBanner() throws {
        let result = try CLI.run(["hash", "Scenes/book.json", "--seconds", "10", "--every", "120"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 11 && lines.last == "")
        #expect(lines.dropLast().allSatisfy { $0.wholeMatch(of: /\d+ [0-9a-f]{16}/) != nil })
        #expect(lines.dropLast().map { String($0.split(separator: " ")[0]) } == (1...10).map { "\($0 * 120)" })
        #expect(!result.stdout.contains("Chipmunk"))
        #expect(result.stderr.isEmpty)
    }

    @Test func lastLineMatchesTheGoldenHashAndEveryPrintsTheLastStepToo() throws {
        let golden = try GoldenFile(directory: Repository.path("Tests/PhysicsTests/Golden"), determinismClass: CLI.determinismClass, name: "book-hashes.txt")
        let result = try CLI.run(["hash", "Scenes/book.json", "--steps", "1200", "--every", "500"])
        #expect(result.stdout.split(separator: "\n").map { String($0.prefix(4)) } == ["500 ", "1000", "1200"])
        #expect(result.stdout.hasSuffix("1200 \(golden.value("1200")!)\n"))
    }

    /// The dump holds the exact state: recomputing the documented hash from its numbers gives the printed hash.
    @Test func dumpRecomputesToThePrintedHash() throws {
        let result = try CLI.run(["hash", "Scenes/book.json", "--steps", "240", "--every", "120", "--dump"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            let value = try JSONParser.parse(String(line))
            guard case let .object(members) = value.kind,
                  case let .string(printed)? = members.first(where: { $0.key == "hash" })?.value.kind,
                  case .string(CLI.determinismClass)? = members.first(where: { $0.key == "class" })?.value.kind,
                  case let .array(bodies)? = members.first(where: { $0.key == "bodies" })?.value.kind
            else {
                Issue.record("unexpected dump line: \(line)")
                continue
            }
            var fnv = FNV1a64()
            for body in bodies {
                guard case let .object(fields) = body.kind else { continue }
                for key in ["x", "y", "angle", "vx", "vy", "angular_velocity"] {
                    guard case let .number(number, _)? = fields.first(where: { $0.key == key })?.value.kind else {
                        Issue.record("missing \(key)")
                        continue
                    }
                    fnv.combine(number)
                }
            }
            #expect(bodies.count == 5)
            #expect(StateHash(value: fnv.value).description == printed)
        }
    }

    /// The left-the-world warning reaches stderr from hash, run and replay alike, once, and stdout
    /// keeps only its results.
    @Test func aCrateLeavingTheWorldIsWarnedAboutOnceInEveryCommand() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("left-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scene = "\(directory)/thrown.json"
        try #"{"name": "thrown", "world": [400, 300], "gravity": [0, -100], "crates": [{"center": [200, 150], "size": [20, 20], "mass": 1, "velocity": [3000, 0]}]}"#
            .write(toFile: scene, atomically: true, encoding: .utf8)
        let hashed = try CLI.run(["hash", scene, "--seconds", "1", "--record", "\(directory)/thrown.rec"])
        #expect(hashed.status == 0 && hashed.stdout.hasPrefix("120 "))
        let warning = try #require(hashed.stderr.split(separator: "\n").first.map(String.init))
        #expect(hashed.stderr == warning + "\n")
        #expect(warning.hasPrefix("cratedrop: warning: body 1 left the world at step "), "\(warning)")
        let ran = try CLI.run(["run", scene, "--seconds", "1"])
        #expect(ran.status == 0 && ran.stderr == warning + "\n")
        let replayed = try CLI.run(["replay", "\(directory)/thrown.rec", "--verify"])
        #expect(replayed.status == 0 && replayed.stderr == warning + "\n")
        #expect(try CLI.run(["hash", "Scenes/book.json"]).stderr.isEmpty)
    }

    @Test func aMissingSceneExits66NamingTheFile() throws {
        let result = try CLI.run(["hash", "Scenes/nope.json"])
        #expect(result.status == 66)
        #expect(result.stderr == "cratedrop: Scenes/nope.json: No such file or directory\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func aBadSceneExits65NamingFileLineAndField() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cratedrop-bad-\(getpid()).json").path
        try #"{"world": [100, 100], "gravity": [0, -10],"# .appending("\n").appending(
            #""crates": [{"center": [5, 5], "size": [1, 1], "mass": -5, "friction": 0, "elasticity": 0}]}"#
        ).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLI.run(["hash", path])
        #expect(result.status == 65)
        #expect(result.stderr == "cratedrop: \(path):2: crates[0].mass: must be > 0, got -5\n")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [
        (["hash", "Scenes/book.json", "--seconds", "1", "--steps", "3"], "give --seconds or --steps, not both"),
        (["hash", "Scenes/book.json", "--seconds", "1e3"], "--seconds must be a decimal number of seconds"),
        (["hash", "Scenes/book.json", "--every", "0"], "--every must be >= 1, got 0"),
        (["hash"], "Missing expected argument '<scene>'"),
        (["frobnicate"], "cratedrop: unknown subcommand 'frobnicate'; the subcommands are run, hash"),
    ])
    func badUsageExits64(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message))
        #expect(result.stdout.isEmpty)
    }

    @Test func helpShowsAnExampleAndVersionPrints() throws {
        let help = try CLI.run(["hash", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("cratedrop hash Scenes/book.json --seconds 10 --every 120"))
        let version = try CLI.run(["--version"])
        #expect(version.stdout == "0.1.0\n")
    }
}
