import SceneModel

/// When a run ends, besides a stop request or a clock out of frames.
public enum RunEnd: Sendable, Equatable {
    /// At the first frame at or past this simulated time; at most floor(duration × stepRate) steps.
    case duration(DecimalSeconds)
    /// At the first frame by which this many steps are due (taken or dropped); no more are taken.
    case steps(Int)
    /// Only when stopped (a live run).
    case never

    /// The most steps the run may take, if it has a limit.
    public func stepLimit(atRate stepRate: Int) -> Int? {
        switch self {
        case let .duration(duration): duration.steps(atRate: stepRate)
        case let .steps(steps): steps
        case .never: nil
        }
    }
}

/// Drives a simulation frame by frame until its end: the one outer loop of every run (`run`,
/// `hash`, `replay`, `serve`). Frames come from `clock`; the run ends at its `RunEnd`, when the
/// clock runs out of frames, when the simulation halts (its input failed, a check parted), or at
/// the first frame boundary after `shouldStop` says so (Ctrl-C).
public final class RunLoop {
    public let driver: FixedStepDriver
    private let simulation: Simulation
    private let clock: FrameClock
    private let stopwatch: Stopwatch
    private let end: RunEnd

    /// - Parameters:
    ///   - simulation: what is stepped.
    ///   - configuration: step rate, frame rate and the guard's caps.
    ///   - clock: where frames come from (virtual offline, the wall clock in real time).
    ///   - stopwatch: measures step costs, frame intervals and wall time.
    ///   - duration: simulated time to run; no more than floor(duration × stepRate) steps are taken.
    ///   - capturesSnapshots: copy snapshots out every frame (when frames are drawn).
    public convenience init(simulation: Simulation, configuration: DriverConfiguration, clock: FrameClock,
                            stopwatch: Stopwatch, duration: DecimalSeconds, capturesSnapshots: Bool) {
        self.init(simulation: simulation, configuration: configuration, clock: clock, stopwatch: stopwatch, end: .duration(duration),
                  capturesSnapshots: capturesSnapshots)
    }

    /// - Parameters:
    ///   - simulation: what is stepped.
    ///   - configuration: step rate, frame rate and the guard's caps.
    ///   - clock: where frames come from (virtual offline, the wall clock in real time).
    ///   - stopwatch: measures step costs, frame intervals and wall time.
    ///   - end: when the run ends (a duration, a step count, or only when stopped).
    ///   - capturesSnapshots: copy snapshots out every frame (when frames are drawn).
    public init(simulation: Simulation, configuration: DriverConfiguration, clock: FrameClock,
                stopwatch: Stopwatch, end: RunEnd, capturesSnapshots: Bool) {
        self.simulation = simulation
        self.clock = clock
        self.stopwatch = stopwatch
        self.end = end
        driver = FixedStepDriver(simulation: simulation, configuration: configuration, ticksPerSecond: clock.ticksPerSecond,
                                 stopwatch: stopwatch, stepLimit: end.stepLimit(atRate: configuration.stepRate),
                                 capturesSnapshots: capturesSnapshots)
    }

    /// Whether frame time `ticks` is at or past the end, in integers: ticks / ticksPerSecond >=
    /// duration, or the steps due have reached the limit.
    func isAtEnd(_ ticks: Int64) -> Bool {
        switch end {
        case let .duration(duration):
            var scale: Int128 = 1
            for _ in 0..<duration.fractionDigits { scale *= 10 }
            return Int128(ticks) * scale >= Int128(duration.scaled) * Int128(clock.ticksPerSecond)
        case let .steps(steps):
            return driver.stepsDue(at: ticks) >= steps
        case .never:
            return false
        }
    }

    /// Runs to the end and returns what happened. `onFrame` sees each frame after its steps.
    public func run(shouldStop: () -> Bool, onFrame: (FrameReport, FixedStepDriver) -> Void = { _, _ in }) -> RunResult {
        let start = stopwatch.nanoseconds()
        var frameIntervals = LatencyHistogram()
        var lastFrameEnd: Int64?
        var stoppedEarly = false
        var first = true
        while true {
            if shouldStop() {
                stoppedEarly = true
                break
            }
            guard let ticks = clock.nextFrame() else { break }
            // A wall clock's first frame is its start, time 0: no step is due and an offline run
            // has no frame there (its frames are at k/fps, k >= 1). Counting it made a real-time
            // run of 10 s at 60 fps one frame longer (601) than the same run offline (600).
            if first {
                first = false
                if ticks == 0 { continue }
            }
            let report = driver.advance(to: ticks)
            onFrame(report, driver)
            let now = stopwatch.nanoseconds()
            if let lastFrameEnd { frameIntervals.record(now - lastFrameEnd) }
            lastFrameEnd = now
            if isAtEnd(ticks) || driver.halted { break }
        }
        let final = simulation.snapshot()
        return RunResult(counters: driver.counters, stepRate: driver.configuration.stepRate,
                         stepTimes: driver.stepTimes, frameIntervals: frameIntervals,
                         wallNanoseconds: stopwatch.nanoseconds() - start, stoppedEarly: stoppedEarly,
                         finalSnapshot: final, stateHash: StateHash(final))
    }
}

/// What a run did, for the summary.
public struct RunResult: Sendable {
    public var counters: DriverCounters
    public var stepRate: Int
    public var stepTimes: LatencyHistogram
    /// Stopwatch time between the ends of consecutive frames.
    public var frameIntervals: LatencyHistogram
    public var wallNanoseconds: Int64
    /// The run was asked to stop before its end.
    public var stoppedEarly: Bool
    public var finalSnapshot: WorldSnapshot
    public var stateHash: StateHash

    public var simulatedSeconds: Double { Double(counters.stepsTaken) / Double(stepRate) }
    public var droppedSeconds: Double { Double(counters.droppedSteps) / Double(stepRate) }
}
