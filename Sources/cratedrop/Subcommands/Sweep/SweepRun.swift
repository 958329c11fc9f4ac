#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CLISupport
import Sweep

struct SweepRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Runs a sweep's samples (or one shard of them) into a folder.",
        discussion: """
            Each sample is written to DIR/samples/NNNNNN under a temporary name and renamed when complete, with done.json (parameters, hash, determinism class, versions). Samples already complete are skipped; partial ones are redone. The shard is --shard K/N, else SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT (a Slurm job array), else JOB_COMPLETION_INDEX of --shard-count or CRATEDROP_SHARD_COUNT (a Kubernetes Indexed Job), else the whole sweep. Prints one JSON line: samples, ran, skipped, failed, not_run.

            SIGUSR1 finishes the samples in flight and starts no more; SIGTERM, SIGINT and SIGHUP abandon those in flight, even after a SIGUSR1. Both exit 128 + the signal that decided (138 for SIGUSR1, 143 for SIGTERM); a rerun does what is left. Failed samples: 65 (their values; DIR/failed/ says why), 74 (the folder could not be written).

            Example:
              cratedrop sweep run Sweeps/pile-seeds.json --out out/seeds --shard 0/4 --jobs 2
            """
    )

    @Argument(help: "Sweep spec (JSON).", completion: .file())
    var spec: String

    @Option(help: ArgumentHelp("The sweep's folder (created if its parent exists; shared by all shards).", valueName: "DIR"), completion: .directory)
    var out: String

    @Option(help: ArgumentHelp("Run shard K of N: samples K, K+N, K+2N, ...", valueName: "K/N"))
    var shard: String?

    @Option(help: ArgumentHelp("Shards in all, with JOB_COMPLETION_INDEX (or SLURM_ARRAY_TASK_ID) naming this one.", valueName: "N"))
    var shardCount: Int?

    @Option(help: ArgumentHelp("Samples run at once, one world per thread (default 1).", valueName: "J"))
    var jobs = 1

    @Option(help: ArgumentHelp("Run only these samples of the shard, e.g. 3-5,17 (as merge lists missing ones).", valueName: "LIST"))
    var samples: String?

    @Flag(help: "Flush each sample's files to the disk before it is renamed, so a power cut too leaves only whole samples (a killed process always does); costs milliseconds per sample.")
    var sync = false

    func validate() throws {
        if jobs < 1 || jobs > 1024 { throw ValidationError("--jobs must be in 1...1024, got \(jobs)") }
        if let shardCount, shardCount < 1 { throw ValidationError("--shard-count must be >= 1, got \(shardCount)") }
        if let shard {
            do {
                _ = try Shard(parsing: shard)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    func run() throws {
        SweepSignals.install()
        let shard: Shard
        do {
            shard = try self.shard.map { try Shard(parsing: $0) }
                ?? Shard.fromEnvironment(ProcessEnvironment.variables, countOverride: shardCount) ?? .all
        } catch {
            printError("cratedrop: \(error)")
            throw ExitCodes.usage
        }
        let spec = try loadSweepSpecOrExit(self.spec)
        var only: [ClosedRange<Int>]?
        if let samples {
            guard let list = IndexRanges.parse(samples, count: spec.sampleCount) else {
                printError("cratedrop: --samples must be indices or ranges of 0...\(spec.sampleCount - 1) such as 3-5,17, got '\(samples)'")
                throw ExitCodes.usage
            }
            only = list
        }
        let runner = SweepRunner(spec: spec, folder: SweepFolder(path: out, sampleCount: spec.sampleCount),
                                 configuration: .init(shard: shard, jobs: jobs, sync: sync, version: CrateDrop.version, only: only))
        do {
            try runner.prepare()
        } catch {
            throw sweepFolderFailure(error)
        }
        let report = runner.run(drain: { SweepSignals.draining }, abandon: { SweepSignals.abandoning }) { index, reason in
            printError("cratedrop: \(spec.file): sample \(index) failed: \(reason)")
        }
        try StandardOutput.print(report.json)
        if let signal = SweepSignals.received {
            printError("cratedrop: stopped by \(SweepSignals.name(signal)): \(report.ran) samples completed, \(report.notRun) left for a rerun")
            throw ExitCode(128 + signal)
        }
        if !report.failed.isEmpty {
            printError("cratedrop: \(report.failed.count) samples failed: \(IndexRanges.text(report.failed.map(\.index))) (reasons in \(out)/failed/)")
            throw report.ioFailed ? ExitCodes.ioError : ExitCodes.dataError
        }
    }
}

/// The process's environment variables.
enum ProcessEnvironment {
    static var variables: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}
