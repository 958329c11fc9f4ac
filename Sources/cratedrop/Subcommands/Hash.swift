import ArgumentParser
import CLISupport
import SceneFile
import SceneModel
import Script
import Session
import Synchronization

struct Hash: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Steps a scene and prints its state hash.",
        discussion: """
            Prints `STEP HASH` lines on stdout, every K steps and always after the last step, and nothing else. The hash is FNV-1a 64 over the IEEE-754 bits of every crate's state (see docs/determinism.md, "State hash"). With --dump, prints instead one JSON object per line holding the exact state behind each hash.

            Example:
              cratedrop hash Scenes/book.json --seconds 10 --every 120
              cratedrop hash Scenes/book.json --gravity Scenes/tilt.jsonl --seconds 8
            """
    )

    @Argument(help: "Scene file (JSON), or a saved state (from --save-state) to continue.", completion: .file())
    var scene: String

    @Option(parsing: .unconditional, help: ArgumentHelp("At every step save the state, step K ahead, restore, and check the steps after the restore reach the same states bit for bit; exit 3 at the first that differs (CrateDrop's Chipmunk).", valueName: "K"))
    var synctest: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Simulated seconds to run (decimal, e.g. 2.5).", valueName: "S"))
    var seconds: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Steps to run.", valueName: "N"))
    var steps: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Print a hash every K steps (and after the last).", valueName: "K"))
    var every: Int?

    @Flag(help: "Print the exact per-crate state behind each hash as JSON Lines.")
    var dump = false

    @OptionGroup var gravityInput: GravityOptions

    @OptionGroup var data: DataOptions

    @OptionGroup var states: StateOptions

    func validate() throws {
        try OutputChecks.check(inputs: [("the scene file", scene)] + gravityInput.inputs,
                               outputs: gravityInput.outputs + data.outputs + states.outputs)
        if seconds != nil, steps != nil { throw ValidationError("give --seconds or --steps, not both") }
        if let seconds, DecimalSeconds(seconds) == nil {
            throw ValidationError("--seconds must be a decimal number of seconds such as 10 or 2.5 (at most 9 decimals, at most 1000000000 s), got '\(seconds)'")
        }
        if let steps, steps < 0 { throw ValidationError("--steps must be >= 0, got \(steps)") }
        if let steps, Int64(steps) > WorldState.maxStep {
            throw ValidationError("--steps must be from 0 to 2^53 (\(WorldState.maxStep)), got \(steps)")
        }
        if let every, every < 1 { throw ValidationError("--every must be >= 1, got \(every)") }
        if let synctest, !(1...RunPlan.maxSyncTestDepth).contains(synctest) {
            throw ValidationError("--synctest must be from 1 to \(RunPlan.maxSyncTestDepth) steps, got \(synctest)")
        }
    }

    func run() throws {
        StopSignals.install()
        let input = RunInput.read(scene)
        if case .record? = input {
            printError("cratedrop: \(TerminalText.escaped(scene)) is a run record: `cratedrop replay \(TerminalText.escaped(scene)) --hash-every K` "
                + "prints its hash trail (and --verify checks it)")
            throw ExitCodes.usage
        }
        let start = try RunSource.sceneOrState(self.scene, input)
        let total = steps ?? DecimalSeconds(seconds ?? "10")!.steps(atRate: start.scene.stepRate)
        var plan = RunPlan(start: start, length: .steps(total), clock: .everyStep)
        try states.apply(to: &plan)
        plan.synctest = synctest
        let trail = HashTrailOutput(dump: dump)
        plan.hashTrail = RunPlan.HashTrail(every: every ?? max(total, 1), emit: trail.emit)
        plan.data = data.settings
        gravityInput.apply(to: &plan)
        let outcome = RunExecution.run(try RunExecution.engine(plan))
        if let failure = trail.failure { throw StandardOutput.exitCode(for: failure) }
        try RunExecution.finish(outcome)
    }
}
