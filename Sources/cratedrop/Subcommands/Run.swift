#if canImport(Glibc)
import CLISupport
import Glibc
#endif
import ArgumentParser
import Physics
import Raster
import SceneModel
import Session

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Drives a scene through the fixed-timestep driver, renders frames, prints a JSON summary.",
        discussion: """
            Physics advances only in fixed steps of 1/step_rate s, fed by a frame clock: a virtual
            clock at --fps for offline runs (every owed step is taken, as fast as the machine
            allows), or the wall clock with --realtime (work per frame is capped and time that
            cannot be simulated is dropped and reported). With --out, frames are drawn and written
            on other threads while stepping goes on: into a directory (PPM, or PNG with --format png),
            as a PPM stream on stdout (--out -), or into a video file through ffmpeg (.mp4 and .mkv:
            H.264; .webm: VP9; .gif), exactly one video frame per frame at --fps. Prints one JSON
            line on stdout (stderr with --out -); warnings go to stderr. Ctrl-C ends the run at the
            next frame, finishes the frames in flight (and the video) and still prints the summary
            (exit 130; 143 for SIGTERM). A write error (disk full, closed pipe, ffmpeg failing)
            ends the run with exit 74; a malformed gravity line with exit 65, after the frames and
            summary of what ran. Missing ffmpeg: exit 69; an existing video without --force: 73.

            Examples:
              cratedrop run Scenes/book.json --seconds 10 --out crates.mp4
              cratedrop run Scenes/book.json --seconds 10 --out frames --format png
              cratedrop run Scenes/book.json --fps 25 --out crates.gif
              cratedrop run Scenes/book.json --out - | ffmpeg -y -f image2pipe \\
                -framerate 60 -c:v ppm -i - -c:v libx264 -pix_fmt yuv420p crates.mp4
              cratedrop run Scenes/pile-100.json --realtime --view
              cratedrop run Scenes/pile-5000.json --realtime --seconds 5
              cratedrop run Scenes/book.json --gravity Scenes/tilt.jsonl --out frames
              tilt-sensor | cratedrop run Scenes/book.json --realtime --gravity - \\
                --record tilt.rec
            """
    )

    @Argument(help: "Scene file (JSON), or a run record (made with --record) to run again.", completion: .file())
    var scene: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Simulated seconds to run (decimal; default 10, or a record's own length).", valueName: "S"))
    var seconds: String?

    @Flag(help: "With a run record as SCENE: check the run against the record's checkpoints as it goes and stop at the first difference (exit 3).")
    var verify = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Frames per second of the frame clock.", valueName: "F"))
    var fps: Int = 60

    @Flag(help: "Pace frames by the wall clock and guard against the death spiral.")
    var realtime = false

    @Flag(help: "Draw the state at the last step instead of interpolating between the last two.")
    var noInterpolation = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Most steps in one frame (real time).", valueName: "N"))
    var maxStepsPerFrame: Int = 8

    @Option(parsing: .unconditional, help: ArgumentHelp("Physics time budget per frame in milliseconds (real time; default: one frame interval).", valueName: "MS"))
    var budgetMs: Double?

    @OptionGroup var output: FrameOutputOptions

    @OptionGroup var gravityInput: GravityOptions

    @OptionGroup var data: DataOptions

    func validate() throws {
        try OutputChecks.check(inputs: [("the scene file", scene)] + gravityInput.inputs, outputs: gravityInput.outputs + data.outputs + (output.summary.map { [("--summary", $0)] } ?? []))
        if let seconds {
            guard let duration = DecimalSeconds(seconds), duration.scaled > 0 else {
                throw ValidationError("--seconds must be a decimal number of seconds > 0 such as 10 or 2.5 (at most 9 decimals, at most 1000000000 s), got '\(seconds)'")
            }
        }
        if !(1...10_000).contains(fps) { throw ValidationError("--fps must be in 1...10000, got \(fps)") }
        if !(1...1_000).contains(maxStepsPerFrame) { throw ValidationError("--max-steps-per-frame must be in 1...1000, got \(maxStepsPerFrame)") }
        if let budgetMs, !(budgetMs > 0 && budgetMs <= 60_000) { throw ValidationError("--budget-ms must be in (0, 60000], got \(budgetMs)") }
    }

    func run() throws {
        StopSignals.install()
        let source = try RunSource.open(self.scene, seconds: seconds, gravity: gravityInput.gravity)
        if verify, source.record == nil { throw ValidationError("--verify needs a run record as SCENE") }
        let scene = source.scene
        let world = try makeWorld(scene)
        let driven = try gravityInput.drivenWorld(world, scene: scene, sceneFile: source.sceneFile, sceneText: source.sceneText,
                                                  waitsForInput: !realtime, gravityPath: source.gravityPath)
        let verifier = verify ? VerifyingSimulation(driven.simulation, checkpoints: source.checkpointsToVerify) : nil
        let (width, height) = output.parsedSize ?? (scene.render.imageWidth, scene.render.imageHeight)
        let frames = output.destination(title: "cratedrop: \(scene.name)").map { RunSettings.Frames(destination: $0, width: width, height: height, every: output.every, view: output.parsedViewRect,
                               overlays: output.overlays) }
        var settings = RunSettings(duration: source.duration, fps: fps, realtime: realtime, interpolate: !noInterpolation,
                                   maxStepsPerFrame: maxStepsPerFrame, budgetNanoseconds: budgetMs.map { Int64($0 * 1e6) }, frames: frames)
        settings.data = data.settings
        let session: RunSession
        do {
            session = try RunSession(scene: scene, world: world, simulation: verifier ?? driven.simulation, settings: settings) { warning in
                printError("cratedrop: warning: \(warning)")
            }
        } catch {
            printError("cratedrop: \(error)")
            switch error {
            case .programMissing: throw ExitCodes.unavailable
            case .unsuitable: throw ExitCodes.usage
            case .exists, .cannotCreate: throw ExitCodes.cannotCreate
            }
        }
        // The step loop runs on this thread: for an offline video it gives way to the encoder as the
        // session's drawing thread does (measured: 2% shorter videos). The session's writing thread
        // and ffmpeg, started already, keep their priority.
        if settings.feedsOfflineEncoder { RenderPipeline.lowerThisThreadsPriority() }
        let progress = ProgressLine(total: frames == nil ? session.frameCount : session.framesToDraw, quiet: output.quiet)
        let outcome = session.run(shouldStop: { StopSignals.received != nil }) { loadWarning, done in
            if let loadWarning { printError("cratedrop: warning: \(loadWarning)") }
            if progress.enabled { progress.update(done: done) }
        }
        progress.finish(done: outcome.render?.framesWritten ?? outcome.result.counters.frames)
        try report(outcome, settings: settings, scene: scene, driven: driven, verifier: verifier)
    }

    /// Prints the summary (after finishing the record), then ends as the run did.
    private func report(_ outcome: RunOutcome, settings: RunSettings, scene: Scene, driven: DrivenWorld,
                        verifier: VerifyingSimulation?) throws {
        let interrupted = StopSignals.received
        let summary = RunReport(scene: scene.name, settings: settings, outcome: outcome, gravity: driven.scripted,
                                interrupted: interrupted.map(StopSignals.name))
        let inputFailure = GravityOptions.finish(driven)
        try SummaryOutput.emit(summary.json(), to: output)
        if let inputFailure { throw inputFailure }
        for failure in outcome.dataFailures { printError("cratedrop: \(failure)") }
        if !outcome.dataFailures.isEmpty { throw ExitCodes.ioError }
        if let divergence = verifier?.divergence {
            printError("cratedrop: the run parts from the record: \(divergence)")
            throw ExitCodes.diverged
        }
        if let render = outcome.render, let failure = render.failure, failure.stopsRun {
            printError("cratedrop: \(failure.reason) after \(render.framesWritten) frames; the run stopped there")
        } else if let render = outcome.render, let failure = render.failure {
            if case .video = settings.frames?.destination {
                printError("cratedrop: \(failure); no video was made (\(render.framesWritten) frames had gone to ffmpeg)")
            } else {
                printError("cratedrop: \(failure); \(render.framesWritten) complete frames were written before it")
            }
            throw ExitCodes.ioError
        }
        if let interrupted {
            printError("cratedrop: stopped by \(StopSignals.name(interrupted)) after \(outcome.result.counters.stepsTaken) steps")
            throw ExitCode(128 + interrupted)
        }
    }
}
