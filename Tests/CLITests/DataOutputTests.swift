import Foundation
import SceneModel
import TestSupport
import Testing

/// `--trace` and `--stats` from the command line.
@Suite struct DataOutputTests {
    static func temporaryPath(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("data-\(UUID().uuidString)\(suffix)").path
    }

    /// The last step's rows read back to the exact doubles: their hash is the run's state hash.
    @Test(arguments: [".csv", ".jsonl"])
    func theLastTracedStepRecomputesTheStateHash(suffix: String) throws {
        let path = Self.temporaryPath(suffix)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLI.run(["run", "Scenes/pile-100.json", "--seconds", "2", "--trace", path])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try JSONFields(result.stdout.trimmingCharacters(in: .newlines))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        // A CSV names its run in a first `#` line; JSON Lines beside the rows, in NAME.meta.json.
        let metadata = String(path.dropLast(suffix.count)) + ".meta.json"
        defer { try? FileManager.default.removeItem(atPath: metadata) }
        let first = suffix == ".csv" ? lines.removeFirst() : try String(contentsOfFile: metadata, encoding: .utf8)
        #expect(first.contains("pile-100") && first.contains(CLI.determinismClass))
        #expect(FileManager.default.fileExists(atPath: metadata) == (suffix == ".jsonl"))
        var rows: [[String: String]]
        if suffix == ".csv" {
            let header = lines.removeFirst().split(separator: ",").map(String.init)
            #expect(header == ["step", "time", "id", "shape", "width", "height", "x", "y", "angle", "vx", "vy", "angular_velocity", "sleeping"])
            rows = lines.map { Dictionary(uniqueKeysWithValues: zip(header, $0.split(separator: ",").map(String.init))) }
        } else {
            rows = try lines.map { line in
                let fields = try JSONFields(line)
                return Dictionary(uniqueKeysWithValues: fields.members.map { ($0.key, String(line[line.range(of: "\"\($0.key)\":")!.upperBound...]
                    .prefix { $0 != "," && $0 != "}" }).replacingOccurrences(of: "\"", with: "")) })
            }
        }
        // Once per frame: 120 frames of 100 crates, at steps 2, 4, ... 240.
        #expect(rows.count == 120 * 100)
        #expect(Set(rows.map { $0["step"]! }).count == 120 && rows.last?["step"] == "240" && rows.last?["time"] == "2.0")
        let last = rows.suffix(100)
        let bodies = last.map { row in
            BodyState(id: BodyID(UInt64(row["id"]!)!), position: Vec2(Double(row["x"]!)!, Double(row["y"]!)!), angle: Double(row["angle"]!)!,
                      velocity: Vec2(Double(row["vx"]!)!, Double(row["vy"]!)!), angularVelocity: Double(row["angular_velocity"]!)!)
        }
        #expect(StateHash(WorldSnapshot(step: 240, bodies: bodies)).description == summary.string("state_hash"))
        #expect(try summary.object("trace").number("steps") == 120)
    }

    @Test func hashTracesEveryStepOrEveryKAndStatsEveryStep() throws {
        let trace = Self.temporaryPath(".csv"), stats = Self.temporaryPath(".jsonl")
        defer {
            try? FileManager.default.removeItem(atPath: trace)
            try? FileManager.default.removeItem(atPath: stats)
            try? FileManager.default.removeItem(atPath: String(stats.dropLast(".jsonl".count)) + ".meta.json")
        }
        let result = try CLI.run(["hash", "Scenes/book.json", "--steps", "30", "--trace", trace, "--trace-every", "10", "--stats", stats])
        #expect(result.status == 0, "\(result.stderr)")
        let traced = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").dropFirst(2)
        #expect(traced.count == 3 * 5 && Set(traced.map { $0.split(separator: ",")[0] }) == ["10", "20", "30"])
        let statLines = try String(contentsOfFile: stats, encoding: .utf8).split(separator: "\n")
        #expect(statLines.count == 30)
        let firstStep = try JSONFields(String(statLines[0]))
        // The book scene starts with its crates packed together and against the top and left walls.
        #expect(firstStep.number("step") == 1 && firstStep.number("contact_pairs") == 12 && firstStep.number("awake_bodies") == 5)
        #expect((firstStep.number("kinetic_energy") ?? 0) > 0 && (firstStep.number("step_us") ?? -1) >= 0)
    }

    @Test(arguments: [
        (["--trace", "t.txt"], 64, "--trace t.txt: a trace is written as .csv, .jsonl or .npy"),
        (["--stats", "s.csv"], 64, "--stats s.csv: per-step statistics are written as JSON Lines"),
        (["--trace-every", "2"], 64, "--trace-every needs --trace"),
        (["--trace-format", "csv"], 64, "--trace-format needs --trace"),
        (["--trace", "t.csv", "--trace-every", "0"], 64, "--trace-every must be >= 1, got 0"),
        (["--trace", "/nonexistent/t.csv"], 73, "/nonexistent/t.csv: cannot create it: No such file or directory"),
        (["--trace", "x.jsonl", "--stats", "x.jsonl"], 64, "--trace and --stats name the same file"),
        // Two tables whose metadata would go to one file.
        (["--trace", "out/x.jsonl", "--events", "out/x.npy"], 64, "--events's metadata out/x.meta.json and --trace's metadata out/x.meta.json name the same file"),
        (["--trace", "/dev/null", "--trace-format", "npy"], 64, "/dev/null: a .npy table goes to a regular file"),
    ] as [([String], Int32, String)])
    func badDataOutputsAreRefusedBeforeAnyStep(arguments: [String], status: Int32, message: String) throws {
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "1"] + arguments)
        #expect(result.status == status)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// A full disk under the trace: the run still finishes, prints its summary with the error, exit 74.
    @Test func aTraceToAFullDiskIsExit74WithTheSummary() throws {
        let result = try CLI.run(["run", "Scenes/pile-100.json", "--seconds", "2", "--trace", "/dev/full", "--trace-format", "csv"])
        #expect(result.status == 74)
        #expect(result.stderr.contains("cratedrop: /dev/full: No space left on device"), "\(result.stderr)")
        let summary = try JSONFields(result.stdout.trimmingCharacters(in: .newlines))
        #expect(summary.number("steps") == 240)
        #expect(try summary.object("trace").string("error") == "/dev/full: No space left on device")
    }

    /// Two things go wrong: each is told, and the bad line (65) decides over the full disk (74).
    @Test func aBadLineAndAFullDiskAreBothToldAndTheBadLineDecides() throws {
        let input = Data("{\"t\": 0.5, \"gravity\": [-1000, 0]}\n{\"t\": 1, \"gravity\": \"down\"}\n".utf8)
        let result = try CLI.run(["run", "Scenes/pile-100.json", "--seconds", "2", "--gravity", "-", "--trace", "/dev/full", "--trace-format", "csv"],
                                 input: input)
        #expect(result.status == 65)
        #expect(result.stderr.contains("cratedrop: /dev/full: No space left on device"), "\(result.stderr)")
        #expect(result.stderr.contains("cratedrop: stdin:2:"), "\(result.stderr)")
    }
}
