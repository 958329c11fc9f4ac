import ArgumentParser
import CLISupport
import Sweep

struct SweepMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Writes a sweep's manifest and names its missing and failed samples.",
        discussion: """
            Writes DIR/manifest.jsonl: one JSON line per complete sample, in index order (its done.json with its folder's path). Prints one JSON line: the counts, the missing and failed samples as index ranges, the temporary folders left and the determinism classes the samples were made in. Exits 0 when every sample is complete, 75 when some are missing or failed (the manifest holds the rest; rerun the shards, or `sweep run --samples LIST`).

            Example:
              cratedrop sweep merge out/seeds
            """
    )

    @Argument(help: "The sweep's folder.", completion: .directory)
    var dir: String

    func run() throws {
        let report: SweepMerge.Report
        do {
            report = try SweepMerge.merge(dir)
        } catch {
            throw sweepFolderFailure(error)
        }
        try StandardOutput.print(report.json)
        if !report.missing.isEmpty { printError("cratedrop: \(dir): \(report.missingCount) samples missing: \(IndexRanges.text(ranges: report.missing))") }
        for failure in report.failed { printError("cratedrop: \(dir): sample \(failure.index) failed: \(failure.reason)") }
        if !report.temporaries.isEmpty {
            printError("cratedrop: \(dir): \(report.temporaries.count) temporary sample folders in samples/ (in flight, or left by a killed shard; a rerun removes its own)")
        }
        if !report.isComplete { throw ExitCodes.incomplete }
    }
}
