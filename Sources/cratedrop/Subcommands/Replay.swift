import ArgumentParser
import CLISupport
import Driver
import Outputs
import Physics
import SceneFile
import Session

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Runs a run record again; with --verify, checks it against the record step by step.",
        discussion: """
            A run record (made by `run` or `hash` with --record) holds the scene, every gravity change with its exact step, and checkpoints: the full state after each early step and the state hash after later ones (docs/determinism.md, "Records"). `replay` re-runs it headless and prints one JSON line on stdout. With --verify it stops at the first checkpoint that differs and reports where the runs part: the step, and, where the record holds the full state, the first body and field that differ, both values and how many ULPs apart; at each keyframe's step it compares a save of the replayed world with the keyframe, byte for byte. A record made in another determinism class replays with a warning. With --out it renders as `cratedrop run RECORD --out ...` does. With --from STEP only the stretch from STEP on is run, rendered or printed: the world is restored from the record's last keyframe at or before STEP (a record made with --keyframes K, on CrateDrop's Chipmunk) and stepped to STEP; without one it steps from 0, with a warning. With --hash-every K it prints `STEP HASH` lines as `hash --every K` does, and the JSON line goes to stderr. Exit codes: 0 same (or not verified), 3 the runs part, 64 --from past the record's end, 65 bad record (a corrupt keyframe too), 66 unreadable.

            Examples:
              cratedrop replay out/tilt.rec --verify
              cratedrop replay out/tilt.rec --out out/replay.mp4 --force
              cratedrop replay out/tilt.rec --from 60 --hash-every 30
            """
    )

    @Argument(help: "Run record (from --record).", completion: .file())
    var record: String

    @Flag(help: "Check every checkpoint of the record (with --from: after the keyframe it starts from); stop at the first difference (exit 3).")
    var verify = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Run only the stretch from step STEP on, started from the record's last keyframe at or before it.", valueName: "STEP"))
    var from: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Print `STEP HASH` every K steps (and after the last) on stdout, as `hash --every K` does; the JSON line goes to stderr.", valueName: "K"))
    var hashEvery: Int?

    @OptionGroup var output: FrameOutputOptions

    @Option(help: ArgumentHelp("Write every contact event of the replay to FILE (.csv, .jsonl or .npy), as `run --events` does.", valueName: "FILE"), completion: .file())
    var events: String?

    func validate() throws {
        let frames = OutputChecks.frameOutputs(output.out)
        if let events, DataFormat(path: events) == nil {
            throw ValidationError("--events \(events): contact events are written as .csv, .jsonl or .npy; name the file so")
        }
        try OutputChecks.check(inputs: [("the record", record)],
                               outputs: frames.files + (output.summary.map { [("--summary", $0)] } ?? [])
                                   + (events.map { DataOutputSettings.files(option: "--events", path: $0) } ?? []),
                               framesFolder: frames.framesFolder, masksFolder: output.masks)
        if let from, from < 0 { throw ValidationError("--from must be >= 0, got \(from)") }
        if let hashEvery {
            if hashEvery < 1 { throw ValidationError("--hash-every must be >= 1, got \(hashEvery)") }
            if output.out != nil || output.view { throw ValidationError("--hash-every prints the hash trail of a headless replay: drop --out and --view") }
        }
    }

    func run() throws {
        StopSignals.install()
        let start = try from.map { from in try RunSource.record(record, from: from) } ?? RunSource.record(record)
        if output.out != nil || output.view { return try render(start) }
        let recorded = start.record!.run
        if recorded.end == nil {
            printError("cratedrop: warning: \(record) has no end line: the run that wrote it stopped before finishing the file; "
                + "replaying \(verify ? "and checking " : "")up to its last checkpoint (step \(recorded.steps))")
        }
        var plan = RunPlan(start: start, length: .steps(recorded.steps - start.outputStep), clock: .everyStep)
        plan.data = DataOutputSettings(eventsPath: events)
        if verify {
            plan.checkpoints = start.recordedCheckpoints
            plan.keyframeChecks = start.recordedKeyframes
            plan.checkedRun = "\(record): the replay"
        }
        let trail = HashTrailOutput(dump: false)
        if let hashEvery { plan.hashTrail = RunPlan.HashTrail(every: hashEvery, emit: trail.emit) }
        let outcome = RunExecution.run(try RunExecution.engine(plan))
        if let failure = trail.failure { throw StandardOutput.exitCode(for: failure) }
        let report = ReplayReport(record: record, start: start, outcome: outcome, interrupted: StopSignals.received.map(StopSignals.name)).json()
        // With --hash-every, stdout is the trail's (`diff` reads it); the JSON line goes to stderr.
        if hashEvery != nil { printError(report) } else { try StandardOutput.print(report) }
        try RunExecution.finish(outcome)
    }

    /// `--out` or `--view`: the record rendered as `run RECORD` renders it, with these output options.
    private func render(_ start: RunStart) throws {
        let length = start.catchUpTo == nil ? try RunSource.length(start, seconds: nil) : .steps(start.record!.run.steps - start.outputStep)
        var plan = RunPlan(start: start, length: length, clock: .virtual(fps: output.defaultFPS))
        plan.frames = output.frames(for: start.scene)
        plan.gravity = RunPlan.GravityInputPlan(.stream(path: record))
        plan.data = DataOutputSettings(eventsPath: events)
        if verify {
            plan.checkpoints = start.recordedCheckpoints
            plan.keyframeChecks = start.recordedKeyframes
        }
        plan.threadPriority = .yieldToVideoEncoder
        try RunExecution.runWithSummary(plan, output: output)
    }
}
