import ArgumentParser
import CLISupport
import Driver
import Session
import Physics
import SceneModel

struct Hash: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Steps a scene and prints its state hash.",
        discussion: """
            Prints `STEP HASH` lines on stdout, every K steps and always after the last step, and
            nothing else. The hash is FNV-1a 64 over the IEEE-754 bits of every crate's state (see
            README, "State hash"). With --dump, prints instead one JSON object per line holding the
            exact state behind each hash.

            Example:
              cratedrop hash Scenes/book.json --seconds 10 --every 120
              cratedrop hash Scenes/book.json --gravity Scenes/tilt.jsonl --seconds 8
            """
    )

    @Argument(help: "Scene file (JSON).", completion: .file())
    var scene: String

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

    func validate() throws {
        try OutputChecks.check(inputs: [("the scene file", scene)] + gravityInput.inputs, outputs: gravityInput.outputs + data.outputs)
        if seconds != nil, steps != nil { throw ValidationError("give --seconds or --steps, not both") }
        if let seconds, DecimalSeconds(seconds) == nil {
            throw ValidationError("--seconds must be a decimal number of seconds such as 10 or 2.5 (at most 9 decimals, at most 1000000000 s), got '\(seconds)'")
        }
        if let steps, steps < 0 { throw ValidationError("--steps must be >= 0, got \(steps)") }
        if let every, every < 1 { throw ValidationError("--every must be >= 1, got \(every)") }
    }

    func run() throws {
        StopSignals.install()
        let (scene, sceneText) = try loadSceneWithTextOrExit(self.scene)
        let total = steps ?? DecimalSeconds(seconds ?? "10")!.steps(atRate: scene.stepRate)
        let world = try makeWorld(scene)
        let driven = try gravityInput.drivenWorld(world, scene: scene, sceneFile: self.scene, sceneText: sceneText,
                                                  waitsForInput: true)
        let recorder: DataRecorder?
        do {
            recorder = data.settings.isEmpty ? nil
                : try DataRecorder(driven.simulation, world: world, scene: scene, settings: data.settings, tracesFrames: false)
        } catch {
            printError("cratedrop: \(error)")
            throw ExitCodes.cannotCreate
        }
        let simulation: Simulation = recorder ?? driven.simulation
        let interval = every ?? max(total, 1)
        var outputFailure: StandardOutput.Failure?
        while world.stepCount < total, outputFailure == nil, StopSignals.received == nil {
            if !simulation.prepareStep() { break }
            simulation.step()
            if world.stepCount % interval == 0, world.stepCount != total { outputFailure = report(world) }
        }
        if outputFailure == nil { outputFailure = report(world) }
        // The record and data files are finished whatever happened to stdout: nothing already done is lost.
        let inputFailure = GravityOptions.finish(driven)
        let dataFailures = recorder?.finish() ?? []
        for failure in dataFailures { printError("cratedrop: \(failure)") }
        if let outputFailure { throw StandardOutput.exitCode(for: outputFailure) }
        if let inputFailure { throw inputFailure }
        if !dataFailures.isEmpty { throw ExitCodes.ioError }
        if let interrupted = StopSignals.received {
            printError("cratedrop: stopped by \(StopSignals.name(interrupted)) after \(world.stepCount) steps")
            throw ExitCode(128 + interrupted)
        }
    }

    /// Prints the hash (or the dump) of the state now; returns why stdout failed, if it did.
    private func report(_ world: World) -> StandardOutput.Failure? {
        let snapshot = world.snapshot()
        let hash = StateHash(snapshot)
        do {
            try StandardOutput.write(dump ? StateDump.json(snapshot, hash: hash) : "\(snapshot.step) \(hash)")
            return nil
        } catch {
            return error
        }
    }
}
