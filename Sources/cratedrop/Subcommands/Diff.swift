import ArgumentParser
import CLISupport
import SceneFile
import Script

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Reports where two runs of a scene part, from their dumps, trails or records.",
        discussion: """
            Each file may be a run record (--record), a dump (`hash --dump`) or a trail (the `STEP HASH` lines `hash` prints). The steps both files hold are compared in order; the first that differs is reported with the last one that agrees, and, where both hold the full state (dumps; a record's early steps), the first body and field that differ, both values and how many ULPs apart. Prints one JSON line on stdout. Both files are read as streams, every line checked, so memory stays flat whatever their size (lines up to 128 MiB). Exit codes: 0 the same on every common step, 3 they part, 65 bad file or no step in common, 66 unreadable.

            Examples:
              cratedrop hash Scenes/pile-100.json --steps 200 --every 1 --dump \\
                > out/here.jsonl
              cratedrop diff out/here.jsonl out/there.jsonl
              cratedrop diff out/a.rec out/b.rec
            """
    )

    @Argument(help: "The first run's file (its values are the 'expected' ones).", completion: .file())
    var first: String

    @Argument(help: "The second run's file.", completion: .file())
    var second: String

    func run() throws {
        let expected = try open(first), actual = try open(second)
        let (divergence, compared) = try recordFileOrExit { () throws(RecordError) in
            let result = try TrailDivergence.compare(expected: expected.next, actual: actual.next)
            // The rest of both files is still checked: the verdict never depends on where they part.
            while try expected.next() != nil {}
            while try actual.next() != nil {}
            return result
        }
        if divergence == nil, compared == 0 {
            printError("cratedrop: \(first) and \(second) have no step in common")
            throw ExitCodes.dataError
        }
        let report: JSONOutput = [
            "first": .string(first), "second": .string(second),
            "steps_compared": .integer(compared), "same": .bool(divergence == nil),
            "divergence": divergence?.jsonOutput ?? .null,
        ]
        try StandardOutput.print(report.text)
        if let divergence {
            printError("cratedrop: \(first) and \(second) part: \(divergence)")
            throw ExitCodes.diverged
        }
    }

    private func open(_ path: String) throws -> CheckpointFile {
        try recordFileOrExit { () throws(RecordError) in try CheckpointFile(path: path) }
    }
}
