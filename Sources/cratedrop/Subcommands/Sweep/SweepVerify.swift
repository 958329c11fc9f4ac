import ArgumentParser
import Foundation
import CLISupport
import SceneFile
import Sweep

struct SweepVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Runs sweep samples again here and compares them bit for bit.",
        discussion: """
            Writes each sample again from the spec that made the sweep (the one its sweep.json names, or --spec), in a private temporary folder, and compares every file of the sample with it byte for byte: scene.json and gravity.jsonl, hashes.txt, traces, events and stats in every format, frames and masks, meta.json, run.rec, end.state, branch.state, and done.json (its timings and build aside); a video's bytes and stats.jsonl's step_us, which a run measures, are not compared. Once merged, the sample's row of manifest.jsonl must be its done.json, and manifest.npy the table of manifest.jsonl. Prints one JSON line per sample: result "identical", "differs" (naming the file and the first differing key, line, row or byte), or "other-class" for a sample made in another determinism class, whose hashes are not promised to match here (not a failure). Exits 3 if any differs, 65 for a spec that did not make the sweep or a done.json no spec can write, 66 if a sample asked for is not complete or the spec cannot be read.

            Example:
              cratedrop sweep verify out/seeds --sample 5
              cratedrop sweep verify out/seeds --random 3 --seed 7
            """
    )

    @Argument(help: "The sweep's folder.", completion: .directory)
    var dir: String

    @Option(help: ArgumentHelp("The sweep's spec (default: the path its sweep.json names, as `sweep run` was given it).", valueName: "SPEC"),
            completion: .file())
    var spec: String?

    @Option(help: ArgumentHelp("Verify this sample.", valueName: "I"))
    var sample: Int?

    @Option(help: ArgumentHelp("Verify K complete samples chosen at random.", valueName: "K"))
    var random: Int?

    @Option(help: ArgumentHelp("Seed of the random choice (default 0).", valueName: "S"))
    var seed: UInt64 = 0

    func validate() throws {
        if (sample == nil) == (random == nil) { throw ValidationError("give --sample I or --random K") }
        if let sample, sample < 0 { throw ValidationError("--sample must be >= 0, got \(sample)") }
        if let random, random < 1 { throw ValidationError("--random must be >= 1, got \(random)") }
    }

    func run() throws {
        let sweepSpec: SweepSpec
        do {
            let path = try spec ?? SweepVerify.specPath(of: dir)
            if spec == nil, !FileManager.default.fileExists(atPath: path) {
                printError("cratedrop: \(dir): its spec \(path) (as sweep run was given it) cannot be found from here: give --spec SPEC")
                throw ExitCodes.noInput
            }
            sweepSpec = try loadSweepSpecOrExit(path)
            if let mismatch = try SweepVerify.check(sweepSpec, made: dir) {
                printError("cratedrop: \(mismatch)")
                throw ExitCodes.dataError
            }
        } catch let error as SweepFolder.FolderError {
            throw sweepFolderFailure(error)
        }
        var indices: [Int] = []
        if let sample {
            indices = [sample]
        } else {
            do {
                indices = try SweepVerify.randomSamples(dir, count: random!, seed: seed)
            } catch {
                throw sweepFolderFailure(error)
            }
        }
        var differs = false, incomplete = false, badData = false
        for index in indices {
            let verdict: SweepVerify.Verdict
            do {
                verdict = try SweepVerify.verify(dir, index: index, spec: sweepSpec)
            } catch {
                throw sweepFolderFailure(error)
            }
            var fields: [(key: String, value: JSONOutput)] = [("sample", .integer(index))]
            switch verdict {
            case let .identical(hash, manifestRow):
                fields += [("result", .string("identical")), ("hash", .string(hash.description)),
                           ("manifest_row", manifestRow.map(JSONOutput.integer) ?? .null)]
            case let .differs(expected, got, detail):
                differs = true
                fields += [("result", .string("differs")), ("hash", .string(expected.description)),
                           ("now", .string(got.description)), ("where", .string(detail))]
                printError("cratedrop: \(dir): sample \(index) differs: \(detail)")
            case let .otherClass(madeIn, here):
                fields += [("result", .string("other-class")), ("made_in", .string(madeIn)), ("here", .string(here))]
                printError("cratedrop: \(dir): sample \(index) was made in determinism class \(madeIn); this machine is class \(here): not compared (bit-exact results are promised within one class)")
            case .notComplete:
                incomplete = true
                fields += [("result", .string("not-complete"))]
                printError("cratedrop: \(dir): sample \(index) is not complete in this sweep")
            case let .unusable(reason):
                incomplete = true
                fields += [("result", .string("unusable")), ("reason", .string(reason))]
                printError("cratedrop: \(dir): sample \(index): \(reason)")
            case let .badMarker(reason):
                badData = true
                fields += [("result", .string("bad-marker")), ("reason", .string(reason))]
                printError("cratedrop: \(reason)")
            }
            try StandardOutput.print(JSONOutput.object(fields).text)
        }
        if differs { throw ExitCodes.diverged }
        if badData { throw ExitCodes.dataError }
        if incomplete { throw ExitCodes.noInput }
    }
}
