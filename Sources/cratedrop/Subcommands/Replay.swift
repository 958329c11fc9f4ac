import ArgumentParser
import CLISupport
import Driver
import Physics
import SceneFile
import SceneModel
import Script
import Session

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Runs a run record again; with --verify, checks it against the record step by step.",
        discussion: """
            A run record (made by `run` or `hash` with --record) holds the scene, every gravity
            change with its exact step, and checkpoints: the full state after each early step and
            the state hash after later ones (README, "Records"). `replay` re-runs it headless and
            prints one JSON line on stdout. With --verify it stops at the first checkpoint that
            differs and reports where the runs part: the step, and, where the record holds the
            full state, the first body and field that differ, both values and how many ULPs apart.
            A record made in another determinism class replays with a warning. With --out it
            renders as `cratedrop run RECORD --out ...` does.
            Exit codes: 0 same (or not verified), 3 the runs part, 65 bad record, 66 unreadable.

            Examples:
              cratedrop replay tilt.rec --verify
              cratedrop replay tilt.rec --out frames
            """
    )

    @Argument(help: "Run record (from --record).", completion: .file())
    var record: String

    @Flag(help: "Check every checkpoint of the record; stop at the first difference (exit 3).")
    var verify = false

    @OptionGroup var output: FrameOutputOptions

    func run() throws {
        if output.out != nil || output.view { return try render() }
        let source = try RunSource.record(record)
        let world = try makeWorld(source.scene)
        let driven = try GravityOptions.open(world, scene: source.scene, sceneFile: source.sceneFile, sceneText: source.sceneText,
                                             inputs: RunInputs(gravityPath: record), waitsForInput: true)
        let scripted = driven.simulation
        let verifier = verify ? VerifyingSimulation(scripted, checkpoints: source.checkpointsToVerify) : nil
        let simulation: Simulation = verifier ?? scripted
        let steps = source.record!.steps
        for _ in 0..<steps {
            if !simulation.prepareStep() { break }
            simulation.step()
        }
        let header = source.record!.header
        try StandardOutput.print(JSONText.object([
            "record": JSONText.string(record), "scene": JSONText.string(source.scene.name),
            "steps": String(world.stepCount), "state_hash": JSONText.string(world.stateHash.description),
            "recorded_class": JSONText.string(header.determinismClass),
            "determinism_class": JSONText.string(DeterminismClass.current.id),
            "verified": verifier.map { String($0.divergence == nil) } ?? "null",
            "checkpoints_verified": verifier.map { String($0.verified) } ?? "null",
            "divergence": verifier?.divergence?.json ?? "null",
        ]))
        if let inputFailure = GravityOptions.finish(driven) { throw inputFailure }
        if let divergence = verifier?.divergence {
            printError("cratedrop: \(record): the replay parts from the record: \(divergence)")
            throw ExitCodes.diverged
        }
    }

    /// `--out` or `--view`: the record rendered by `run`, with the same output options.
    private func render() throws {
        _ = try RunSource.record(record)
        var run = try Run.parse([record])
        run.output = output
        run.verify = verify
        try run.run()
    }
}
