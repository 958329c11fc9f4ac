import ArgumentParser
import CLISupport
import Sweep

struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Runs many samples of a scene from one sweep spec, sharded over machines.",
        discussion: """
            A sweep spec (JSON, Sweeps/ has examples, Scenes/schema/sweep.schema.json its schema) names a scene (or a saved state) and the axes to vary, as a grid or a seeded random sample. `plan` shows the samples without running; `run` runs a shard of them into one folder per sample, crash-safe and resumable; `merge` writes the manifest and names missing and failed samples; `verify` runs samples again and compares bit for bit; `pack` makes WebDataset shards. See docs/sweeps.md.

            Example:
              cratedrop sweep plan Sweeps/pile-seeds.json
              cratedrop sweep run Sweeps/pile-seeds.json --out out/seeds --shard 0/4
            """,
        subcommands: [SweepPlanCommand.self, SweepRunCommand.self, SweepMergeCommand.self, SweepVerifyCommand.self, SweepPackCommand.self]
    )
}

/// Loads a sweep spec or ends the command: 66 unreadable, 65 invalid, 69 unavailable here.
func loadSweepSpecOrExit(_ path: String) throws -> SweepSpec {
    do {
        return try SweepSpecLoader.load(path: path)
    } catch {
        for line in error.description.split(separator: "\n") { printError("cratedrop: \(line)") }
        switch error {
        case .unreadable: throw ExitCodes.noInput
        case .invalid: throw ExitCodes.dataError
        case .unavailable: throw ExitCodes.unavailable
        }
    }
}

/// Ends the command for a sweep folder that cannot be used: 73 (cannot create, another sweep's), 66 (not a sweep folder).
func sweepFolderFailure(_ error: SweepFolder.FolderError) -> ExitCode {
    printError("cratedrop: \(error)")
    switch error {
    case .cannotCreate, .otherSweep: return ExitCodes.cannotCreate
    case .notASweep: return ExitCodes.noInput
    }
}
