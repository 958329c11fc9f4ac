import ArgumentParser
import CLISupport
import Sweep

struct SweepPlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Checks a sweep spec and prints its samples without running them.",
        discussion: """
            Prints one JSON object: the sample count, how many samples' scenes were checked (up to 1000), an estimate of the bytes each sample writes and of the whole sweep's disk, and the first samples expanded (index, parameters, steps, bodies). A value the scene refuses is reported at its line in the spec (65).

            Example:
              cratedrop sweep plan Sweeps/pile-seeds.json
            """
    )

    @Argument(help: "Sweep spec (JSON).", completion: .file())
    var spec: String

    @Option(help: ArgumentHelp("Samples to show expanded.", valueName: "K"))
    var show = 3

    func validate() throws {
        if show < 0 { throw ValidationError("--show must be >= 0, got \(show)") }
    }

    func run() throws {
        let spec = try loadSweepSpecOrExit(self.spec)
        let summary = SweepPlanSummary(spec: spec, show: show)
        if let problem = summary.firstProblem {
            printError("cratedrop: \(spec.file): \(problem)")
            throw ExitCodes.dataError
        }
        try StandardOutput.print(summary.json)
    }
}
