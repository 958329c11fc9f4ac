import Foundation
import TestSupport
import Testing

@Suite struct ValidateCommandTests {
    @Test func shippedScenesAreOK() throws {
        let result = try CLI.run(["validate", "Scenes/book.json", "Scenes/pile-100.json"])
        #expect(result.status == 0)
        #expect(result.stdout == "Scenes/book.json: ok (5 crates, 4 walls)\nScenes/pile-100.json: ok (100 crates, 4 walls)\n")
    }

    @Test func aMissingFileAmongGoodOnesExits66AndStillChecksTheRest() throws {
        let result = try CLI.run(["validate", "Scenes/missing.json", "Scenes/book.json"])
        #expect(result.status == 66)
        #expect(result.stdout == "Scenes/missing.json: No such file or directory\nScenes/book.json: ok (5 crates, 4 walls)\n")
    }

    @Test func aDirectoryIsNotAScene() throws {
        let result = try CLI.run(["validate", "Scenes"])
        #expect(result.status == 66)
        #expect(result.stdout == "Scenes: is a directory, expected a file\n")
    }

    @Test func theExampleScenesAreOKWithoutWarnings() throws {
        let result = try CLI.run(["validate", "Scenes/ramp.json", "Scenes/stack.json"])
        #expect(result.status == 0)
        #expect(result.stdout == "Scenes/ramp.json: ok (4 crates, 5 walls)\nScenes/stack.json: ok (9 crates, 4 walls)\n")
        #expect(result.stderr == "")
    }

    static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("validate-\(UUID().uuidString).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aCrateInAWallIsAWarningOnStderrAndStillOK() throws {
        let path = try Self.write("""
            {"world": [400, 300], "gravity": [0, -1000],
             "walls": [{"from": [0, 100], "to": [400, 100], "radius": 4}],
             "crates": [{"center": [200, 110], "size": [20, 20], "mass": 1}]}
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLI.run(["validate", path])
        #expect(result.status == 0)
        #expect(result.stdout == "\(path): ok (1 crates, 1 walls)\n")
        // Its bottom lies on the wall's centre line: 4 px (the radius) into the wall.
        #expect(result.stderr == "cratedrop: \(path):3: warning: crates[0]: starts overlapping walls[0] by 4 px\n")
    }

    @Test func errorsAndWarningsOfAFileComeInOneRun() throws {
        let path = try Self.write("""
            {"world": [400, 300], "gravity": [0, -1000],
             "walls": [{"from": [0, 100], "to": [400, 100], "radius": 4}],
             "crates": [{"center": [200, 110], "size": [20, 20], "mass": 1},
                        {"center": [100, 200], "size": [20, 20], "mas": 1, "frction": 0.2}]}
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLI.run(["validate", path])
        #expect(result.status == 65)
        #expect(result.stdout == """
            \(path):4: crates[1].mas: unknown key 'mas' (did you mean 'mass'?)
            \(path):4: crates[1].frction: unknown key 'frction' (did you mean 'friction'?)

            """)
        #expect(result.stderr == "cratedrop: \(path):3: warning: crates[0]: starts overlapping walls[0] by 4 px\n")
    }
}
