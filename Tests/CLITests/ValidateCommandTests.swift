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
}
