import Foundation
import TestSupport
import Testing

/// `cratedrop sweep`: plan, run (shards, environment, signals), merge and verify as a user runs
/// them, with their messages and exit codes.
@Suite struct SweepCommandTests {
    static func temporary() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func spec(_ folder: String, seconds: String = "0.25", samples: Int = 8, outputs: String = #"{ "hash_every": 10 }"#) throws -> String {
        let path = "\(folder)/spec.json"
        try """
            {
              "scene": "\(Repository.path("Scenes/pile-100.json"))",
              "seconds": \(seconds),
              "axes": [{ "field": "generator.seed", "range": { "from": 1, "to": \(samples) } }],
              "outputs": \(outputs)
            }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func completeSamples(_ out: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "\(out)/samples")) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func planPrintsTheSamplesAndRefusesBadSpecs() throws {
        let folder = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plan = try CLI.run(["sweep", "plan", try Self.spec(folder), "--show", "2"])
        #expect(plan.status == 0, "\(plan.stderr)")
        let fields = try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as! [String: Any]
        #expect(fields["samples"] as? Int == 8 && fields["checked"] as? Int == 8)
        #expect((fields["first"] as? [[String: Any]])?.map { $0["steps"] as? Int } == [30, 30])
        #expect(plan.stderr.isEmpty)
        try #"{ "scene": "x.json", "axes": 3 }"#.write(toFile: "\(folder)/bad.json", atomically: true, encoding: .utf8)
        let missing = try CLI.run(["sweep", "plan", "\(folder)/bad.json"])
        #expect(missing.status == 66 && missing.stderr.hasPrefix("cratedrop: \(folder)/x.json: "))
        try #"{ "scene": "\#(Repository.path("Scenes/book.json"))", "axes": 3 }"#.write(toFile: "\(folder)/bad.json", atomically: true, encoding: .utf8)
        let bad = try CLI.run(["sweep", "plan", "\(folder)/bad.json"])
        #expect(bad.status == 65 && bad.stdout.isEmpty)
        #expect(bad.stderr == "cratedrop: \(folder)/bad.json:1: axes: must be an array, got a number\n")
    }

    /// A value given twice on one axis (here `0.5` and `0.50`) is refused at `plan` (65), naming
    /// both: it made two samples of one scene (audit round 4, smaller findings).
    @Test func anAxisRepeatingAValueIsRefused() throws {
        let folder = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            {
              "scene": "\(Repository.path("Scenes/pile-100.json"))",
              "seconds": 0.25,
              "axes": [{ "field": "generator.friction", "values": [0.3, 0.5, 0.50] }]
            }
            """.write(toFile: "\(folder)/spec.json", atomically: true, encoding: .utf8)
        let plan = try CLI.run(["sweep", "plan", "\(folder)/spec.json"])
        #expect(plan.status == 65 && plan.stdout.isEmpty)
        #expect(plan.stderr.contains("axes[0].values[2]: repeats values[1]: each value makes its own samples"), "\(plan.stderr)")
    }

    /// A long list of scene values costs `plan` its first 1000 values and its smallest and largest
    /// number, each checked alone at its line as a range's ends are (1.5 M values took 375 s,
    /// every one building its scene; audit round 4): 200,000 values plan within the time limit,
    /// and a value out of range past the first 1000, the largest, is still named at its index.
    @Test(.timeLimit(.minutes(3)))
    func aLongValueListIsCheckedAtItsFirstValuesAndExtremes() throws {
        let folder = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func plan(_ values: [String]) throws -> CLI.Result {
            let spec = #"{"scene": ""# + Repository.path("Scenes/pile-100.json") + #"", "seconds": 0.25, "axes": [{"field": "generator.friction", "values": ["#
                + values.joined(separator: ", ") + "]}]}"
            try spec.write(toFile: "\(folder)/spec.json", atomically: true, encoding: .utf8)
            return try CLI.run(["sweep", "plan", "\(folder)/spec.json"])
        }
        let long = try plan((0..<200_000).map { String(Double($0) / 1e6) })
        #expect(long.status == 0, "\(long.stderr)")
        #expect(long.stdout.contains(#""samples":200000"#), "\(long.stdout)")
        var values = (0..<2000).map { String(Double($0) / 1e4) }
        values[1500] = "5000"
        let refused = try plan(values)
        #expect(refused.status == 65 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("axes[0].values[1500]: the scene refuses it: generator.friction"), "\(refused.stderr)")
    }

    /// A spec's problems are listed as a scene's are: the first 200, then how many more.
    @Test func aSpecsProblemsAreListedUpTo200() throws {
        let folder = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let values = (0..<300).map { "-\($0 + 1)" }.joined(separator: ", ")
        let spec = #"{"scene": ""# + Repository.path("Scenes/pile-100.json") + #"", "seconds": 0.25, "axes": [{"field": "generator.friction", "values": ["#
            + values + "]}]}"
        try spec.write(toFile: "\(folder)/spec.json", atomically: true, encoding: .utf8)
        let plan = try CLI.run(["sweep", "plan", "\(folder)/spec.json"])
        let lines = plan.stderr.split(separator: "\n")
        #expect(plan.status == 65 && lines.count == 201, "\(lines.count) lines")
        #expect(lines.last == "cratedrop: \(folder)/spec.json: 100 more problems (the first 200 are listed)")
    }

    /// `sweep verify` reads a sample's done marker as outside input: a step count or hash interval
    /// no spec can ask for is bad data (65) naming the file and key, not a trap (a negative count,
    /// an interval of 0) or a run for ever (10^12 steps) (audit round 4, finding 6).
    @Test func verifyRefusesADoneMarkerOutsideASpecsBounds() throws {
        let folder = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = "\(folder)/out"
        #expect(try CLI.run(["sweep", "run", try Self.spec(folder, samples: 1), "--out", out]).status == 0)
        let marker = "\(out)/samples/000000/done.json"
        let original = try String(contentsOfFile: marker, encoding: .utf8)
        for (key, value, message) in [("steps", "-1", "steps: must be in 0...2147483647 (a spec's bounds), got -1"),
                                      ("steps", "1000000000000", "steps: must be in 0...2147483647 (a spec's bounds), got 1000000000000"),
                                      ("hash_every", "0", "hash_every: must be in 1...2147483647 (a spec's bounds), got 0")] {
            let edited = original.replacingOccurrences(of: #""\#(key)":\s*[0-9]+"#, with: "\"\(key)\": \(value)", options: .regularExpression)
            #expect(edited != original)
            try edited.write(toFile: marker, atomically: true, encoding: .utf8)
            let verify = try CLI.run(["sweep", "verify", out, "--sample", "0"])
            #expect(verify.status == 65 && verify.stderr == "cratedrop: \(out)/samples/000000/done.json: \(message)\n", "\(verify.stderr)")
            #expect(verify.stdout.contains(#""result":"bad-marker""#))
        }
    }

    /// `sweep verify` checks the manifest row people analyse against the done marker it has just
    /// checked against a new run: an edited row (a hash, a parameter) differs (exit 3), naming the
    /// line and the key; the untouched row is reported as checked (audit round 4, finding 9).
    @Test func verifyChecksTheSamplesManifestRow() throws {
        let folder = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = "\(folder)/out"
        #expect(try CLI.run(["sweep", "run", try Self.spec(folder, samples: 3), "--out", out]).status == 0)
        let unmerged = try CLI.run(["sweep", "verify", out, "--sample", "1"])
        #expect(unmerged.status == 0 && unmerged.stdout.contains(#""manifest_row":null"#), "\(unmerged.stdout)")
        #expect(try CLI.run(["sweep", "merge", out]).status == 0)
        let merged = try CLI.run(["sweep", "verify", out, "--sample", "1"])
        #expect(merged.status == 0 && merged.stdout.contains(#""manifest_row":2"#), "\(merged.stdout)")
        let manifest = "\(out)/manifest.jsonl"
        let original = try String(contentsOfFile: manifest, encoding: .utf8)
        var rows = original.split(separator: "\n").map(String.init)
        for (key, pattern, replacement) in [("hash", #""hash":"[0-9a-f]{16}""#, #""hash":"0123456789abcdef""#),
                                            ("parameters", #""generator.seed":2"#, #""generator.seed":7"#)] {
            rows = original.split(separator: "\n").map(String.init)
            let edited = rows[1].replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
            #expect(edited != rows[1], "\(rows[1])")
            rows[1] = edited
            try (rows.joined(separator: "\n") + "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
            let verify = try CLI.run(["sweep", "verify", out, "--sample", "1"])
            #expect(verify.status == 3, "\(key): \(verify.stdout) \(verify.stderr)")
            #expect(verify.stderr.contains("\(manifest):2: sample 1's row differs from its done.json (at \"\(key)\")"), "\(verify.stderr)")
        }
        // Another sample's row is not this one's: sample 0 still verifies.
        #expect(try CLI.run(["sweep", "verify", out, "--sample", "0"]).status == 0)
    }

    /// A sample whose output cannot be written as it runs (here a file-size limit, as a full
    /// disk does) ends `sweep run` with 74, the folder's fault, not 65, which says the sample's
    /// values are bad and makes a scheduler give up (audit round 4, finding 10); and the process
    /// is not killed by SIGXFSZ (finding 11): it prints its report and leaves no temporary.
    @Test func anOutputThatCannotBeWrittenIsAnIOError() throws {
        let folder = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let spec = try Self.spec(folder, seconds: "2", samples: 1, outputs: #"{ "stats": true }"#)
        let out = "\(folder)/out"
        let result = try CLI.shell("ulimit -f 16; $CRATEDROP sweep run \(spec) --out \(out)")
        #expect(result.status == 74, "\(result.status): \(result.stderr)")
        #expect(result.stdout.contains(#""failed": 1"#) || result.stdout.contains(#""failed":1"#), "\(result.stdout)")
        #expect(result.stderr.contains("1 samples failed: 0"), "\(result.stderr)")
        #expect(Self.completeSamples(out).isEmpty)
    }

    /// A sweep of 10^9 samples: `--samples 0-1` runs two at once (a list of the shard's indices
    /// took 26 s and 8 GB; audit round 4, finding 7), and `merge` and `verify --random` read what
    /// `samples/` and `failed/` hold, not every index: missing ones as a count and ranges
    /// (finding 8: hours); a count no spec can have (10^15) is a damaged sweep.json.
    @Test(.timeLimit(.minutes(3)))
    func aSweepOfABillionSamplesCostsWhatItHolds() throws {
        let folder = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let spec = try Self.spec(folder, samples: 1_000_000_000)
        let out = "\(folder)/out"
        let ran = try CLI.run(["sweep", "run", spec, "--out", out, "--samples", "0-1"])
        #expect(ran.status == 0 && ran.stdout.contains(#""samples": 2, "ran": 2"#), "\(ran.stdout) \(ran.stderr)")
        let identity = "\(out)/sweep.json"
        let original = try String(contentsOfFile: identity, encoding: .utf8)
        let merged = try CLI.run(["sweep", "merge", out])
        #expect(merged.status == 75 && merged.stdout.contains(#""complete":2"#) && merged.stdout.contains(#""missing":"2-999999999""#), "\(merged.stdout)")
        #expect(merged.stderr.contains("999999998 samples missing: 2-999999999"), "\(merged.stderr)")
        let verified = try CLI.run(["sweep", "verify", out, "--random", "2", "--seed", "1"])
        #expect(verified.status == 0 && verified.stdout.split(separator: "\n").count == 2, "\(verified.stderr)")
        let huge = original.replacingOccurrences(of: #""samples":1000000000"#, with: #""samples":1000000000000000"#)
        #expect(huge != original)
        try huge.write(toFile: identity, atomically: true, encoding: .utf8)
        let refused = try CLI.run(["sweep", "merge", out])
        #expect(refused.status != 0 && refused.stderr.contains("sweep.json is damaged"), "\(refused.stderr)")
    }

    /// `merge` takes only a sample's own folder as complete: not a link out of `samples/` to a
    /// folder made elsewhere, not a done marker naming another sample, not one of another sweep
    /// (audit round 4, finding 9); each is reported as failed, with why, and the merge exits 75.
    @Test func mergeTakesOnlyASamplesOwnFolder() throws {
        let folder = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = "\(folder)/out"
        #expect(try CLI.run(["sweep", "run", try Self.spec(folder, samples: 4), "--out", out]).status == 0)
        let samples = "\(out)/samples"
        let manager = FileManager.default
        // Sample 1's marker replaced by sample 0's; sample 2's marked with another sweep's fingerprint.
        try manager.removeItem(atPath: "\(samples)/000001/done.json")
        try manager.copyItem(atPath: "\(samples)/000000/done.json", toPath: "\(samples)/000001/done.json")
        let marker = try String(contentsOfFile: "\(samples)/000002/done.json", encoding: .utf8)
        let foreign = marker.replacingOccurrences(of: #""sweep":\s*"[0-9a-f]+""#, with: #""sweep": "0000000000000000""#, options: .regularExpression)
        #expect(foreign != marker)
        try foreign.write(toFile: "\(samples)/000002/done.json", atomically: true, encoding: .utf8)
        // Sample 3's folder moved out of the sweep and linked back in.
        try manager.moveItem(atPath: "\(samples)/000003", toPath: "\(folder)/forged")
        try manager.createSymbolicLink(atPath: "\(samples)/000003", withDestinationPath: "\(folder)/forged")
        let merged = try CLI.run(["sweep", "merge", out])
        #expect(merged.status == 75 && merged.stdout.contains(#""complete":1"#) && merged.stdout.contains(#""failed":"1-3""#), "\(merged.stdout)")
        #expect(merged.stderr.contains("sample 1 failed: samples/000001 is not this sample's own complete folder"), "\(merged.stderr)")
        #expect(merged.stderr.contains("sample 2 failed: samples/000002 was made by another sweep (fingerprint 0000000000000000"), "\(merged.stderr)")
        #expect(merged.stderr.contains("sample 3 failed: samples/000003 is not this sample's own complete folder"), "\(merged.stderr)")
    }

    @Test func shardsFromOptionsAndEnvironmentMergeIntoOneSweep() throws {
        let folder = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let spec = try Self.spec(folder)
        let whole = "\(folder)/whole", sharded = "\(folder)/sharded"
        #expect(try CLI.run(["sweep", "run", spec, "--out", whole, "--jobs", "2"]).status == 0)
        #expect(try CLI.run(["sweep", "run", spec, "--out", sharded, "--shard", "0/4"]).stdout.contains(#""samples": 2, "ran": 2"#))
        #expect(try CLI.run(["sweep", "run", spec, "--out", sharded], environment: ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4"]).status == 0)
        let incomplete = try CLI.run(["sweep", "merge", sharded])
        #expect(incomplete.status == 75 && incomplete.stdout.contains(#""missing":"2-3, 6-7""#))
        #expect(incomplete.stderr.contains("4 samples missing: 2-3, 6-7"))
        #expect(try CLI.run(["sweep", "run", spec, "--out", sharded, "--shard-count", "4"], environment: ["JOB_COMPLETION_INDEX": "2"]).status == 0)
        #expect(try CLI.run(["sweep", "run", spec, "--out", sharded], environment: ["JOB_COMPLETION_INDEX": "3", "CRATEDROP_SHARD_COUNT": "4"]).status == 0)
        #expect(try CLI.run(["sweep", "merge", sharded]).status == 0)
        #expect(try CLI.run(["sweep", "merge", whole]).status == 0)
        #expect(try String(contentsOfFile: "\(whole)/manifest.jsonl", encoding: .utf8).split(separator: "\n").map(Self.hashOf)
            == String(contentsOfFile: "\(sharded)/manifest.jsonl", encoding: .utf8).split(separator: "\n").map(Self.hashOf))
        let verify = try CLI.run(["sweep", "verify", sharded, "--random", "2", "--seed", "3"])
        #expect(verify.status == 0 && verify.stdout.split(separator: "\n").allSatisfy { $0.contains(#""result":"identical""#) })
        #expect(try CLI.run(["sweep", "run", spec, "--out", sharded, "--shard", "4/4"]).status == 64)
        let noCount = try CLI.run(["sweep", "run", spec, "--out", sharded], environment: ["JOB_COMPLETION_INDEX": "1"])
        #expect(noCount.status == 64 && noCount.stderr.contains("--shard-count"))
    }

    static func hashOf(_ line: Substring) -> String {
        let row = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
        return "\(row["sample"]!) \(row["hash"]!)"
    }

    /// SIGTERM abandons the samples in flight (exit 143), SIGUSR1 finishes them (exit 138), and
    /// a SIGTERM after a SIGUSR1 abandons them after all, and says so (143: it exited 138, as if
    /// the samples had been finished; issue 35); only whole samples stay, and a rerun completes
    /// the rest without redoing any.
    @Test(arguments: [("TERM", 143, "TERM"), ("USR1", 138, "USR1"), ("USR1 TERM", 143, "TERM")])
    func aStoppedShardResumesWithoutRedoingCompleteSamples(signals: String, code: Int32, deciding: String) throws {
        let folder = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let spec = try Self.spec(folder, seconds: "2", samples: 24)
        let out = "\(folder)/out"
        let stopped = try CLI.shell("""
            "$CRATEDROP" sweep run '\(spec)' --out '\(out)' --jobs 2 > '\(folder)/report.json' &
            pid=$!
            # Wait (at most 60 s) for two complete samples, then signal.
            for _ in $(seq 600); do
              [ "$(find '\(out)/samples' -mindepth 1 -maxdepth 1 -name '[0-9]*' 2>/dev/null | wc -l)" -ge 2 ] && break
              sleep 0.1
            done
            for signal in \(signals); do kill -$signal $pid; done
            wait $pid
            """)
        #expect(stopped.status == code, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("stopped by SIG\(deciding)"), "\(stopped.stderr)")
        let done = Self.completeSamples(out)
        #expect(done.count >= 2 && done.count < 24)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: "\(out)/samples")).contains { $0.hasPrefix(".") })
        for name in done { #expect(FileManager.default.fileExists(atPath: "\(out)/samples/\(name)/done.json")) }
        let rerun = try CLI.run(["sweep", "run", spec, "--out", out, "--jobs", "2"])
        #expect(rerun.status == 0)
        #expect(rerun.stdout.contains(#""ran": \#(24 - done.count), "skipped": \#(done.count), "failed": 0"#), "\(rerun.stdout)")
    }

    /// A spec that starts from a saved state: on the portable backend every sample continues it
    /// (a tilt-free branch equals the straight run); on Debian's library, refused at plan (69).
    @Test func aBranchingSweepContinuesOneSavedState() throws {
        let folder = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let saved = try CLI.run(["hash", "Scenes/pile-100.json", "--steps", "240", "--save-state", "\(folder)/settled.state"])
        try """
            { "start_state": "settled.state", "steps": 60,
              "axes": [{ "field": "gravity_script", "values": [[{ "step": 240, "gravity": [-500, -866] }], [], [{ "step": 270, "gravity": [500, -866] }]] }] }
            """.write(toFile: "\(folder)/branch.json", atomically: true, encoding: .utf8)
        let plan = try CLI.run(["sweep", "plan", "\(folder)/branch.json"])
        guard saved.status == 0 else {
            #expect(saved.status == 69)
            try Data("CDSTATE\n".utf8).write(to: URL(fileURLWithPath: "\(folder)/settled.state"))
            let refused = try CLI.run(["sweep", "plan", "\(folder)/branch.json"])
            #expect(refused.status == 69 && refused.stderr.contains("branch.json:1: start_state: saved states need CrateDrop's Chipmunk (the portable physics backend)"))
            return
        }
        #expect(plan.status == 0 && plan.stdout.contains(#""starts_at_step":240"#))
        let out = "\(folder)/out"
        #expect(try CLI.run(["sweep", "run", "\(folder)/branch.json", "--out", out]).status == 0)
        let straight = try CLI.run(["hash", "Scenes/pile-100.json", "--steps", "300"])
        let done = try String(contentsOfFile: "\(out)/samples/000001/done.json", encoding: .utf8)
        #expect(done.contains(#""start_step":240,"steps":60,"hash":"\#(straight.stdout.split(separator: " ")[1].dropLast())""#), "\(done)")
        let tilted = try [0, 2].map { try String(contentsOfFile: "\(out)/samples/00000\($0)/done.json", encoding: .utf8) }
        #expect(!tilted.contains { $0.contains(straight.stdout.split(separator: " ")[1].dropLast()) })
        #expect(try CLI.run(["sweep", "verify", out, "--sample", "2"]).stdout.contains("identical"))
    }
}
