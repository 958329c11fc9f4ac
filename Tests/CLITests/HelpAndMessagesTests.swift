import Foundation
import TestSupport
import Testing

/// The help as a user reads it at 80 columns, and the one `cratedrop:` prefix of every message.
@Suite struct HelpAndMessagesTests {
    static let subcommands = ["run", "hash", "replay", "diff", "validate", "platform", "serve", "page", "bench"]

    /// Every place the help and the messages send a reader to (`docs/outputs.md, "Video"`,
    /// `README, "Determinism"`) exists: the page, and a heading of that name on it. The help sent
    /// readers to README sections that had moved to docs/ (issue 35, "Tried as a new user would").
    /// `cratedrop --help` lists every exit code docs/command-line.md's table documents.
    @Test func theHelpListsEveryDocumentedExitCode() throws {
        let page = try String(contentsOfFile: Repository.path("docs/command-line.md"), encoding: .utf8)
        let table = page.components(separatedBy: "## Exit codes\n\n").last?.components(separatedBy: "\n\n").first ?? ""
        let codes = table.split(separator: "\n").dropFirst(2).flatMap { row in
            row.split(separator: "|").first.map { $0.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } } ?? []
        }
        #expect(codes.count >= 13, "\(codes)")
        let help = try CLI.run(["--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
        for code in codes { #expect(help.contains(" \(code) ") || help.contains("\(code)/") || help.contains("/\(code)"), "exit code \(code)") }
    }

    @Test func everySectionTheHelpAndMessagesNameExists() throws {
        var texts: [(String, String)] = []
        for subcommand in Self.subcommands + ["", "sweep plan", "sweep run", "sweep merge", "sweep verify"] {
            let words = subcommand.split(separator: " ").map(String.init)
            texts.append(("cratedrop help \(subcommand)", try CLI.run(["help"] + words, environment: ["COLUMNS": "1000"]).stdout))
        }
        let sources = try FileManager.default.subpathsOfDirectory(atPath: Repository.path("Sources")).filter { $0.hasSuffix(".swift") }
        for file in sources {
            texts.append((file, try String(contentsOfFile: Repository.path("Sources/\(file)"), encoding: .utf8).replacingOccurrences(of: "\\\"", with: "\"")))
        }
        let reference = try Regex(#"(README|docs/[a-z-]+\.md), "([^"]+)""#)
        var checked = 0
        for (origin, text) in texts {
            for match in text.matches(of: reference) {
                let page = String(match.output[1].substring!) == "README" ? "README.md" : String(match.output[1].substring!)
                let section = String(match.output[2].substring!)
                let headings = ((try? String(contentsOfFile: Repository.path(page), encoding: .utf8)) ?? "")
                    .split(separator: "\n").filter { $0.hasPrefix("#") }.map { $0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces) }
                #expect(headings.contains(section), "\(origin) names \(page), \"\(section)\", which has no such heading")
                checked += 1
            }
        }
        #expect(checked > 10)
    }

    /// Paragraphs are single lines in the source that the help re-wraps: a line under 40
    /// characters ends its paragraph (a blank line, a new option or the end follows), or belongs
    /// to an Examples block, or labels an option or a section. Nothing runs past 80 columns
    /// except the usage line, which the parser lays out.
    @Test(arguments: subcommands + [""])
    func helpWrapsCleanlyAt80Columns(subcommand: String) throws {
        let result = try CLI.run(["help"] + (subcommand.isEmpty ? [] : [subcommand]), environment: ["COLUMNS": "80"])
        #expect(result.status == 0)
        let lines = result.stdout.components(separatedBy: "\n")
        var inExamples = false
        for (index, line) in lines.enumerated() {
            let next = index + 1 < lines.count ? lines[index + 1] : ""
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !line.hasPrefix("USAGE:") { #expect(line.count <= 80, "cratedrop help \(subcommand): \(line)") }
            if trimmed == "Example:" || trimmed == "Examples:" { inExamples = true; continue }
            if trimmed.isEmpty { inExamples = false; continue }
            if inExamples || line.count >= 40 || next.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            if trimmed.hasSuffix(":") || trimmed.hasPrefix("-") || trimmed.hasPrefix("<") { continue }
            let helpColumn = String(repeating: " ", count: 26)
            if line.hasPrefix(helpColumn), !next.hasPrefix(helpColumn) { continue }
            Issue.record("cratedrop help \(subcommand): a short line inside a paragraph: '\(line)'")
        }
    }

    @Test func helpSaysOnlyWhatIsTrue() throws {
        let replay = try CLI.run(["help", "replay"]).stdout
        #expect(!replay.contains("with --realtime,") || replay.contains("with run --realtime"))
        let bench = try CLI.run(["help", "bench"]).stdout + (try CLI.run(["bench", "--help"]).stdout)
        #expect(!bench.contains("--size"))
        let validate = try CLI.run(["help", "validate"]).stdout
        #expect(validate.contains("Scenes/schema/scene.schema.json"))
        #expect(FileManager.default.fileExists(atPath: Repository.path("Scenes/schema/scene.schema.json")))
        let run = try CLI.run(["help", "run"]).stdout
        #expect(!run.contains("tilt-sensor"))
    }

    /// The examples of `run --help` and `replay --help`, in order in a fresh folder (renders cut to
    /// 1 s), each exits 0 and writes only under out/. The window and the 5000-crate pile are left
    /// to RecipeTests and the benchmark.
    @Test(.timeLimit(.minutes(3)))
    func runAndReplayExamplesRunInOrder() throws {
        let directory = try RecipeTests.workDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var commands: [String] = []
        for subcommand in ["run", "replay"] {
            let help = try CLI.run([subcommand, "--help"]).stdout
            let block = try #require(help.components(separatedBy: "Examples:\n").last).components(separatedBy: "\n\n")[0]
            var current = ""
            for line in block.components(separatedBy: "\n") {
                current += current.isEmpty ? line.trimmingCharacters(in: .whitespaces) : " " + line.trimmingCharacters(in: .whitespaces)
                if current.hasSuffix("\\") { current.removeLast(); current = current.trimmingCharacters(in: .whitespaces); continue }
                commands.append(current)
                current = ""
            }
        }
        #expect(commands.contains("cat Scenes/tilt.jsonl | cratedrop run Scenes/book.json --realtime --gravity - --record out/tilt.rec"))
        for command in commands where !command.contains("--view") && !command.contains("pile-5000") {
            let result = try CLI.recipe(RecipeTests.shortened(command), in: directory)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(left == ["Scenes", "Sweeps", "out"])
    }

    @Test(arguments: [
        ("rn", "cratedrop: unknown subcommand 'rn' (did you mean 'run'?)\n"),
        ("hsah", "cratedrop: unknown subcommand 'hsah' (did you mean 'hash'?)\n"),
        ("valdate", "cratedrop: unknown subcommand 'valdate' (did you mean 'validate'?)\n"),
        ("xyzzy", "cratedrop: unknown subcommand 'xyzzy'; the subcommands are run, hash, replay, diff, validate, platform, serve, page, bench, sweep (cratedrop --help)\n"),
    ])
    func aMistypedSubcommandGetsASuggestion(typed: String, message: String) throws {
        let result = try CLI.run([typed, "Scenes/book.json"])
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(result.stderr == message)
    }

    /// Usage errors from the parser and from validation, scene problems and setup failures: every
    /// stderr line that is a message begins `cratedrop: `; the usage lines follow a usage error.
    @Test(arguments: [
        (["run"], Int32(64), "cratedrop: Missing expected argument '<scene>'"),
        (["run", "Scenes/book.json", "--fps", "0"], 64, "cratedrop: --fps must be in 1...10000, got 0"),
        (["run", "Scenes/book.json", "--no-such-option"], 64, "cratedrop: Unknown option '--no-such-option'"),
        (["hash", "Scenes/book.json", "--seconds", "1", "--steps", "2"], 64, "cratedrop: give --seconds or --steps, not both"),
    ] as [([String], Int32, String)])
    func usageErrorsCarryTheOnePrefixAndTheUsage(arguments: [String], status: Int32, first: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == status)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == first, "\(result.stderr)")
        #expect(!result.stderr.contains("Error:"))
        #expect(lines.contains { $0.hasPrefix("Usage: cratedrop \(arguments[0])") })
    }

    @Test func sceneProblemsCarryThePrefixOnEveryLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString).json").path
        try Data("{}".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLI.run(["run", path])
        #expect(result.status == 65)
        let lines = result.stderr.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("cratedrop: \(path):") }, "\(result.stderr)")
    }
}
