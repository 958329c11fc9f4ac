import Foundation
import TestSupport
import Testing

@Suite struct ProgressLineTests {
    /// Under a pseudo-terminal (util-linux `script`), stderr gets a progress line ending at the
    /// total; `--quiet` silences it. (Without a terminal there is none: the other CLI tests check
    /// stderr is empty.)
    @Test(arguments: [false, true])
    func progressLineShowsOnATerminalUnlessQuiet(quiet: Bool) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cratedrop-progress-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let command = "\(CLI.executable.path) run Scenes/book.json --seconds 0.5 --size 32x32 --out \(directory)"
            + (quiet ? " --quiet" : "") + " >/dev/null"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = Repository.root
        let terminal = Pipe()
        process.standardOutput = terminal
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        let text = String(decoding: terminal.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("frame 30/30") == !quiet)
        #expect(text.contains("fps  ETA") == !quiet)
    }
}
