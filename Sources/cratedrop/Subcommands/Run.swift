#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Driver
import Physics
import SceneModel

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Drives a scene through the fixed-timestep driver and prints a JSON summary.",
        discussion: """
            Physics advances only in fixed steps of 1/step_rate s, fed by a frame clock: a virtual
            clock at --fps for offline runs (every owed step is taken, as fast as the machine
            allows), or the wall clock with --realtime (work per frame is capped and time that
            cannot be simulated is dropped and reported). Prints one JSON line on stdout; warnings
            go to stderr. Ctrl-C ends the run at the next frame and still prints the summary
            (exit 130; 143 for SIGTERM).

            Examples:
              cratedrop run Scenes/book.json --seconds 10 --fps 60
              cratedrop run Scenes/pile-5000.json --realtime --seconds 5
            """
    )

    @Argument(help: "Scene file (JSON).")
    var scene: String

    @Option(help: ArgumentHelp("Simulated seconds to run (decimal).", valueName: "S"))
    var seconds: String = "10"

    @Option(help: ArgumentHelp("Frames per second of the frame clock.", valueName: "F"))
    var fps: Int = 60

    @Flag(help: "Pace frames by the wall clock and guard against the death spiral.")
    var realtime = false

    @Flag(help: "Draw the state at the last step instead of interpolating between the last two.")
    var noInterpolation = false

    @Option(help: ArgumentHelp("Most steps in one frame (real time).", valueName: "N"))
    var maxStepsPerFrame: Int = 8

    @Option(help: ArgumentHelp("Physics time budget per frame in milliseconds (real time; default: one frame interval).", valueName: "MS"))
    var budgetMs: Double?

    func validate() throws {
        guard let duration = DecimalSeconds(seconds), duration.scaled > 0 else {
            throw ValidationError("--seconds must be a decimal number of seconds > 0 such as 10 or 2.5, got '\(seconds)'")
        }
        if !(1...10_000).contains(fps) { throw ValidationError("--fps must be in 1...10000, got \(fps)") }
        if !(1...1_000).contains(maxStepsPerFrame) { throw ValidationError("--max-steps-per-frame must be in 1...1000, got \(maxStepsPerFrame)") }
        if let budgetMs, !(budgetMs > 0 && budgetMs <= 60_000) { throw ValidationError("--budget-ms must be in (0, 60000], got \(budgetMs)") }
    }

    func run() throws {
        let scene = try loadSceneOrExit(self.scene)
        let world = try makeWorld(scene)
        var configuration = DriverConfiguration(stepRate: scene.stepRate, fps: fps, guardEnabled: realtime)
        configuration.maxStepsPerFrame = maxStepsPerFrame
        configuration.maxDebtSteps = maxStepsPerFrame
        if let budgetMs { configuration.budgetNanoseconds = Int64(budgetMs * 1e6) }
        let stopwatch = MonotonicStopwatch()
        let clock: FrameClock = realtime ? WallFrameClock(fps: fps, stopwatch: stopwatch) : VirtualFrameClock(fps: fps)
        let loop = RunLoop(simulation: world, configuration: configuration, clock: clock, stopwatch: stopwatch,
                           duration: DecimalSeconds(seconds)!, capturesSnapshots: false)

        StopSignals.install()
        let result = loop.run(shouldStop: { StopSignals.received != nil }) { report, _ in
            if let warning = report.loadWarning { printError("cratedrop: warning: \(warning)") }
        }
        let interrupted = StopSignals.received
        print(RunSummary.json(scene: scene.name, mode: realtime ? "realtime" : "offline", fps: fps,
                              interpolation: !noInterpolation, result: result, interrupted: interrupted.map(StopSignals.name)))
        if let interrupted {
            printError("cratedrop: stopped by \(StopSignals.name(interrupted)) after \(result.counters.stepsTaken) steps")
            throw ExitCode(128 + interrupted)
        }
    }
}
