import Foundation
import TestSupport
import Testing

/// A command's input file is read once: told apart (record, saved state, scene) and parsed from
/// the same bytes, not sniffed twice and loaded a third time. Counted with strace: the opens of
/// the input's path by the process and its threads.
@Suite struct InputReadOnceTests {
    /// How many times `cratedrop ARGUMENTS` opens `input` (as the arguments name it).
    static func opens(of input: String, _ arguments: [String]) throws -> Int {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("opens-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let result = try CLI.tool("strace", ["-f", "-qq", "-e", "trace=open,openat", "-o", log, CLI.executable.path] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        return lines.filter { $0.contains("open") && $0.contains("\"\(input)\"") }.count
    }

    @Test(.timeLimit(.minutes(3)), arguments: [["hash", "Scenes/book.json", "--steps", "1"],
                                                ["run", "Scenes/book.json", "--seconds", "0.1"]])
    func aSceneIsOpenedOnce(arguments: [String]) throws {
        #expect(try Self.opens(of: "Scenes/book.json", arguments) == 1)
    }

    @Test(.timeLimit(.minutes(3)))
    func aSavedStateIsOpenedOnce() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("once-\(UUID().uuidString).state").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let saved = try CLI.run(["hash", "Scenes/book.json", "--steps", "10", "--save-state", state])
        // Debian's library cannot save states: there the scene case stands alone.
        guard saved.status == 0 else {
            #expect(saved.status == 69, "\(saved.stderr)")
            return
        }
        #expect(try Self.opens(of: state, ["hash", state, "--steps", "1"]) == 1)
    }

    /// A saved state longer than the first read that then cannot be read whole is told as a
    /// state that cannot be read (66), not handed to the scene loader as if it were a scene.
    /// A sparse file past the states' 1 GiB limit, refused before a byte of it is read.
    @Test(.timeLimit(.minutes(3)), arguments: [["hash", "STATE", "--steps", "1"], ["run", "STATE", "--seconds", "0.1"]])
    func aStateTooLargeToReadIsToldAsAState(arguments: [String]) throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID().uuidString).state").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        #expect(FileManager.default.createFile(atPath: state, contents: Data("CDSTATE\n".utf8)))
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: state))
        try file.truncate(atOffset: (1 << 30) + 1)
        try file.close()
        let result = try CLI.run(arguments.map { $0 == "STATE" ? state : $0 })
        #expect(result.status == 66 && result.stderr.contains("cannot read the saved state: larger than 1024 MiB"), "\(result.status) \(result.stderr)")
        #expect(!result.stderr.contains("scene"), "\(result.stderr)")
    }

    /// `validate` tells it the same way, on its line of stdout.
    @Test(.timeLimit(.minutes(3)))
    func validateTellsAStateTooLargeToReadAsAState() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID().uuidString).state").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        #expect(FileManager.default.createFile(atPath: state, contents: Data("CDSTATE\n".utf8)))
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: state))
        try file.truncate(atOffset: (1 << 30) + 1)
        try file.close()
        let result = try CLI.run(["validate", state])
        #expect(result.status == 66 && result.stdout == "\(state): cannot read the saved state: larger than 1024 MiB\n", "\(result.status) \(result.stdout)")
    }
}
