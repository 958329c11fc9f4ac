import ArgumentParser
import CLISupport
import Driver
import Outputs
import Session

/// Starts a plan and turns what happened into messages and an exit code: the one place where
/// every command's run meets the process (stop signals, stderr, exit codes).
enum RunExecution {
    /// Sets the plan up, or ends the command with the setup error's exit code (64, 65, 66, 69, 73).
    static func engine(_ plan: RunPlan) throws -> RunEngine {
        do {
            return try RunEngine(plan: plan, shouldStop: { StopSignals.received != nil }) { warning in
                printError("cratedrop: warning: \(warning)")
            }
        } catch {
            printError("cratedrop: \(error)")
            switch error {
            case .world: throw ExitCodes.dataError
            case .gravityUnreadable: throw ExitCodes.noInput
            case .recordNotCreated: throw ExitCodes.cannotCreate
            case .output(.programMissing), .output(.noDisplay): throw ExitCodes.unavailable
            case .output(.unsuitable): throw ExitCodes.usage
            case .output(.exists), .output(.notEmpty), .output(.cannotCreate): throw ExitCodes.cannotCreate
            case .state(.unsupportedBackend): throw ExitCodes.unavailable
            case .state: throw ExitCodes.dataError
            case .unsupported: throw ExitCodes.usage
            case .statesFolder: throw ExitCodes.cannotCreate
            }
        }
    }

    /// Runs the engine until its end or a stop signal.
    static func run(_ engine: RunEngine, onFrame: (_ loadWarning: LoadWarning?, _ framesDone: Int) -> Void = { _, _ in }) -> RunOutcome {
        engine.run(shouldStop: { StopSignals.received != nil }, onFrame: onFrame)
    }

    /// A run that prints its summary (`run`, and `replay` with frames): a progress line on
    /// stderr while it goes, then the JSON summary, then the exit code of its outcome.
    static func runWithSummary(_ plan: RunPlan, output: FrameOutputOptions) throws {
        let engine = try Self.engine(plan)
        let progress = ProgressLine(total: plan.frames == nil ? plan.frameCount : plan.framesToDraw, quiet: output.quiet)
        let outcome = run(engine) { loadWarning, done in
            if let loadWarning { printError("cratedrop: warning: \(loadWarning)") }
            if progress.enabled { progress.update(done: done) }
        }
        progress.finish(done: outcome.render?.framesWritten ?? outcome.result.counters.frames)
        let summary = RunReport(plan: plan, outcome: outcome, interrupted: StopSignals.received.map(StopSignals.name))
        try SummaryOutput.emit(summary.json(), to: output)
        try finish(outcome, plan: plan)
    }

    /// Ends the command as the run ended, after its results were printed: each failure's message
    /// on stderr and its exit code, in order of precedence (a bad gravity line 65, an input or
    /// record that could not be read or written 74, a data file 74, a check that parted 3, the
    /// frame output 74), else the stop signal's 128 + N, else success.
    /// - Parameter checked: what parts from the record, in the message (`the run`, `FILE: the replay`).
    static func finish(_ outcome: RunOutcome, plan: RunPlan, checked: String = "the run") throws {
        if let gravity = outcome.gravity, let failure = gravity.failure {
            printError("cratedrop: \(failure)")
            throw ExitCodes.dataError
        }
        if let gravity = outcome.gravity, let readError = gravity.readError {
            printError("cratedrop: \(gravity.source): \(readError)")
            throw ExitCodes.ioError
        }
        if let recordFailure = outcome.recordFailure {
            printError("cratedrop: \(recordFailure)")
            throw ExitCodes.ioError
        }
        if let saveStateFailure = outcome.saveStateFailure {
            printError("cratedrop: \(saveStateFailure)")
            switch saveStateFailure {
            case .cannotSave(_, .unsupportedBackend): throw ExitCodes.unavailable
            case .cannotSave: throw ExitCodes.usage
            case .notWritten: throw ExitCodes.ioError
            }
        }
        for failure in outcome.dataFailures { printError("cratedrop: \(failure)") }
        if !outcome.dataFailures.isEmpty { throw ExitCodes.ioError }
        if let divergence = outcome.check?.divergence {
            printError("cratedrop: \(checked) parts from the record: \(divergence)")
            throw ExitCodes.diverged
        }
        if let failure = outcome.synctest?.failure {
            printError("cratedrop: \(failure)")
            switch failure {
            case .differs: throw ExitCodes.diverged
            case .cannotSave(_, .unsupportedBackend), .cannotRestore(_, .unsupportedBackend): throw ExitCodes.unavailable
            case .cannotSave, .cannotRestore: throw ExitCodes.usage
            }
        }
        if let render = outcome.render, let failure = render.failure {
            if failure.programFailed {
                printError("cratedrop: \(failure)")
                printError("cratedrop: to see the run without a window, write a video (--out out/run.mp4) or watch it in a browser (cratedrop serve SCENE)")
                throw ExitCodes.unavailable
            }
            if failure.stopsRun {
                printError("cratedrop: \(failure.reason) after \(render.framesWritten) frames; the run stopped there")
            } else {
                if case .video = plan.frames?.destination {
                    printError("cratedrop: \(failure); no video was made (\(render.framesWritten) frames had gone to ffmpeg)")
                } else {
                    printError("cratedrop: \(failure); \(render.framesWritten) complete frames were written before it")
                }
                throw ExitCodes.ioError
            }
        }
        if let signal = StopSignals.received, outcome.stop == .requested {
            printError("cratedrop: stopped by \(StopSignals.name(signal)) after \(outcome.result.counters.stepsTaken) steps")
            throw ExitCode(128 + signal)
        }
    }
}
