#if canImport(Glibc)
import CLISupport
import Glibc
#endif
import ArgumentParser
import SceneModel
import Session

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Drives a scene through the fixed-timestep driver, renders frames, prints a JSON summary.",
        discussion: """
            Physics advances only in fixed steps of 1/step_rate s, fed by a frame clock: a virtual clock at --fps for offline runs (every owed step is taken, as fast as the machine allows), or the wall clock with --realtime (work per frame is capped and time that cannot be simulated is dropped and reported); both draw the same frames, at k/fps s for k = 1, 2, ... With --out, frames are drawn and written on other threads while stepping goes on: into a directory (PPM, or PNG with --format png), as a PPM stream on stdout (--out -), into a video file through ffmpeg (.mp4 and .mkv: H.264; .webm: VP9; .gif at 50 fps unless --fps says otherwise), exactly one video frame per frame at --fps, or as one still PNG image (the last frame, or the one at --at). An existing video or image, or a directory that is not empty, needs --force (exit 73 otherwise); --force on a directory removes its earlier frame files first. Prints one JSON line on stdout (stderr with --out -); warnings go to stderr. Ctrl-C ends the run at the next frame, finishes the frames in flight (and the video) and still prints the summary (exit 130; 143 for SIGTERM). A write error (disk full, closed pipe, ffmpeg failing) ends the run with exit 74; a malformed gravity line with exit 65, after the frames and summary of what ran. Missing ffmpeg, or --view without a display: exit 69.

            Examples:
              cratedrop run Scenes/book.json --seconds 10 --out out/crates.mp4
              cratedrop run Scenes/book.json --out out/frames --format png
              cratedrop run Scenes/book.json --out out/crates.gif
              cratedrop run Scenes/book.json --at 0.5 --out out/book-0.5s.png
              cratedrop run Scenes/book.json --out - | ffmpeg -y -f image2pipe \\
                -framerate 60 -c:v ppm -i - -c:v libx264 -pix_fmt yuv420p out/s.mp4
              cratedrop run Scenes/pile-100.json --realtime --view
              cratedrop run Scenes/pile-5000.json --realtime --seconds 5
              cratedrop run Scenes/book.json --gravity Scenes/tilt.jsonl --out out/tilt
              cat Scenes/tilt.jsonl | cratedrop run Scenes/book.json --realtime \\
                --gravity - --record out/tilt.rec
            """
    )

    @Argument(help: "Scene file (JSON), or a run record (made with --record) to run again.", completion: .file())
    var scene: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Simulated seconds to run (decimal; default 10, or a record's own length).", valueName: "S"))
    var seconds: String?

    @Flag(help: "With a run record as SCENE: check the run against the record's checkpoints as it goes and stop at the first difference (exit 3).")
    var verify = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Frames per second of the frame clock (default 60; 50 for a .gif, which plays whole hundredths of a second).", valueName: "F"))
    var fps: Int?

    /// `--fps`, else the output's default.
    private var frameRate: Int { fps ?? output.defaultFPS }

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

    @OptionGroup var states: StateOptions

    func validate() throws {
        let frames = OutputChecks.frameOutputs(output.out)
        try OutputChecks.check(inputs: [("the scene file", scene)] + gravityInput.inputs,
                               outputs: frames.files + gravityInput.outputs + data.outputs + states.outputs + (output.summary.map { [("--summary", $0)] } ?? []),
                               framesFolder: frames.framesFolder, masksFolder: output.masks)
        if let seconds {
            guard let duration = DecimalSeconds(seconds), duration.scaled > 0 else {
                throw ValidationError("--seconds must be a decimal number of seconds > 0 such as 10 or 2.5 (at most 9 decimals, at most 1000000000 s), got '\(seconds)'")
            }
        }
        if let fps, !(1...10_000).contains(fps) { throw ValidationError("--fps must be in 1...10000, got \(fps)") }
        if let at = output.at.flatMap(DecimalSeconds.init), let seconds = seconds.flatMap(DecimalSeconds.init), seconds.isLess(than: at) {
            throw ValidationError("--at \(at) is past the run's end (--seconds \(seconds))")
        }
        if output.at != nil, realtime { throw ValidationError("--at picks a frame by simulated time: drop --realtime") }
        if !(1...1_000).contains(maxStepsPerFrame) { throw ValidationError("--max-steps-per-frame must be in 1...1000, got \(maxStepsPerFrame)") }
        if let budgetMs, !(budgetMs > 0 && budgetMs <= 60_000) { throw ValidationError("--budget-ms must be in (0, 60000], got \(budgetMs)") }
    }

    func run() throws {
        StopSignals.install()
        try RunExecution.runWithSummary(try makePlan(), output: output)
    }

    /// The run these options ask for.
    private func makePlan() throws -> RunPlan {
        let start = try RunSource.open(scene, gravity: gravityInput.gravity)
        if verify, start.record == nil { throw ValidationError("--verify needs a run record as SCENE") }
        let clock: RunPlan.Clock = realtime
            ? .wall(fps: frameRate, guard: RunPlan.Guard(maxStepsPerFrame: maxStepsPerFrame, budgetNanoseconds: budgetMs.map { Int64($0 * 1e6) }))
            : .virtual(fps: frameRate)
        var plan = RunPlan(start: start, length: try RunSource.length(start, seconds: seconds), clock: clock)
        plan.interpolate = !noInterpolation
        plan.frames = output.frames(for: start.scene)
        plan.data = data.settings
        try states.apply(to: &plan)
        gravityInput.apply(to: &plan)
        if verify { plan.checkpoints = start.recordedCheckpoints }
        // The executable's choice: for an offline video the step loop and the drawing thread
        // give way to the encoder (measured: 2% shorter videos).
        plan.threadPriority = .yieldToVideoEncoder
        return plan
    }
}
