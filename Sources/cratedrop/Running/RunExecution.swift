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
            throw exitCode(for: error)
        }
    }

    /// The exit code of a run that could not be set up.
    static func exitCode(for error: RunSetupError) -> ExitCode {
        switch error {
        case .world: ExitCodes.dataError
        case .gravityUnreadable: ExitCodes.noInput
        case .recordNotCreated: ExitCodes.cannotCreate
        case .output(.programMissing), .output(.noDisplay): ExitCodes.unavailable
        case .output(.unsuitable): ExitCodes.usage
        case .output(.exists), .output(.notEmpty), .output(.cannotCreate): ExitCodes.cannotCreate
        case .state(.unsupportedBackend): ExitCodes.unavailable
        case .state: ExitCodes.dataError
        case .unsupported: ExitCodes.usage
        case .statesFolder: ExitCodes.cannotCreate
        }
    }

    /// The exit code of a run's problem, by its kind (a notice: none).
    static func exitCode(for kind: RunProblem.Kind) -> ExitCode? {
        switch kind {
        case .badValues: ExitCodes.dataError
        case .inputOutput: ExitCodes.ioError
        case .diverged: ExitCodes.diverged
        case .unavailable: ExitCodes.unavailable
        case .unsupported: ExitCodes.usage
        case .notice: nil
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
        // Physics slower than the time it simulates holds back only a real-time run; an offline
        // run's summary still says so (`load_warning`).
        let outcome = run(engine) { loadWarning, done in
            if let loadWarning, plan.clock.isRealTime { printError("cratedrop: warning: \(loadWarning)") }
            if progress.enabled { progress.update(done: done) }
        }
        progress.finish(done: outcome.render?.framesWritten ?? outcome.result.counters.frames)
        let summary = RunReport(plan: plan, outcome: outcome, interrupted: StopSignals.received.map(StopSignals.name))
        try SummaryOutput.emit(summary.json(), to: output)
        try finish(outcome)
    }

    /// Ends the command as the run ended, after its results were printed: every problem's
    /// message on stderr, in order of precedence (`RunProblem.Kind`), and the exit code of the
    /// first that is not a notice; else the stop signal's 128 + N; else success.
    static func finish(_ outcome: RunOutcome) throws {
        for problem in outcome.problems {
            printError("cratedrop: \(problem)")
            if let advice = problem.advice { printError("cratedrop: \(advice)") }
        }
        if let failure = outcome.failure, let code = exitCode(for: failure.kind) { throw code }
        if let signal = StopSignals.received, outcome.stop == .requested {
            printError("cratedrop: stopped by \(StopSignals.name(signal)) after \(outcome.result.counters.stepsTaken) steps")
            throw ExitCode(128 + signal)
        }
    }
}
