import ArgumentParser
import CLISupport
import Driver
import Physics
import SceneFile
import Session

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Runs a run record again; with --verify, checks it against the record step by step.",
        discussion: """
            A run record (made by `run` or `hash` with --record) holds the scene, every gravity change with its exact step, and checkpoints: the full state after each early step and the state hash after later ones (README, "Records"). `replay` re-runs it headless and prints one JSON line on stdout. With --verify it stops at the first checkpoint that differs and reports where the runs part: the step, and, where the record holds the full state, the first body and field that differ, both values and how many ULPs apart. A record made in another determinism class replays with a warning. With --out it renders as `cratedrop run RECORD --out ...` does. Exit codes: 0 same (or not verified), 3 the runs part, 65 bad record, 66 unreadable.

            Examples:
              cratedrop replay out/tilt.rec --verify
              cratedrop replay out/tilt.rec --out out/replay.mp4 --force
            """
    )

    @Argument(help: "Run record (from --record).", completion: .file())
    var record: String

    @Flag(help: "Check every checkpoint of the record; stop at the first difference (exit 3).")
    var verify = false

    @OptionGroup var output: FrameOutputOptions

    func validate() throws {
        let frames = OutputChecks.frameOutputs(output.out)
        try OutputChecks.check(inputs: [("the record", record)],
                               outputs: frames.files + (output.summary.map { [("--summary", $0)] } ?? []),
                               framesFolder: frames.framesFolder)
    }

    func run() throws {
        StopSignals.install()
        let start = try RunSource.record(record)
        if output.out != nil || output.view { return try render(start) }
        let recorded = start.record!.run
        var plan = RunPlan(start: start, length: .steps(recorded.steps), clock: .everyStep)
        if verify { plan.checkpoints = start.recordedCheckpoints }
        let outcome = RunExecution.run(try RunExecution.engine(plan))
        let final = outcome.result
        let check = outcome.check
        let interrupted: String? = StopSignals.received.map(StopSignals.name)
        let report: JSONOutput = [
            "record": .string(record), "scene": .string(start.scene.name),
            "steps": .integer(final.counters.stepsTaken), "state_hash": .string(final.stateHash.description),
            "recorded_class": .string(recorded.header.determinismClass),
            "determinism_class": .string(DeterminismClass.current.id),
            "verified": check.map { .bool($0.divergence == nil) } ?? .null,
            "checkpoints_verified": check.map { .integer($0.verified) } ?? .null,
            "divergence": check?.divergence?.jsonOutput ?? .null,
            "interrupted": .string(interrupted),
        ]
        try StandardOutput.print(report.text)
        try RunExecution.finish(outcome, plan: plan, checked: "\(record): the replay")
    }

    /// `--out` or `--view`: the record rendered as `run RECORD` renders it, with these output options.
    private func render(_ start: RunStart) throws {
        var plan = RunPlan(start: start, length: try RunSource.length(start, seconds: nil), clock: .virtual(fps: output.defaultFPS))
        plan.frames = output.frames(for: start.scene)
        plan.gravity = RunPlan.GravityInputPlan(.stream(path: record))
        if verify { plan.checkpoints = start.recordedCheckpoints }
        plan.threadPriority = .yieldToVideoEncoder
        try RunExecution.runWithSummary(plan, output: output)
    }
}
