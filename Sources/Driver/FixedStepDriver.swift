import SceneModel

/// Advances a simulation in fixed steps of 1/stepRate s, fed by frame times.
///
/// Each frame, the steps owed are floor(t × stepRate / ticksPerSecond) minus the steps already
/// taken or dropped, computed in integers so no time is gained or lost to rounding. With the
/// guard on, a frame takes at most `maxStepsPerFrame` steps and stops once its steps have used
/// `budgetNanoseconds` (it never starts a step that recent step costs say would overrun the
/// budget, so frames leave on time); owed steps beyond `maxDebtSteps` are dropped and counted, never silently
/// lost. With the guard off (offline runs), every owed step is taken.
///
///     frame time t ──► owed = due(t) − taken − dropped
///                        │
///                        ▼
///            ┌── step while owed, < cap, < budget ──┐
///            │                                      │
///            ▼                                      ▼
///     debt = owed − stepped              alpha = fraction of the next step elapsed
///     drop debt beyond maxDebtSteps      previous/current snapshots for interpolation
public final class FixedStepDriver {
    public let configuration: DriverConfiguration
    private let simulation: Simulation
    private let ticksPerSecond: Int64
    private let stopwatch: Stopwatch
    /// No more steps than this are ever due (the end of a run of fixed length).
    private let stepLimit: Int?
    /// Whether to copy snapshots out each frame (for drawing); a headless run only needs the last.
    private let capturesSnapshots: Bool

    public private(set) var counters = DriverCounters()
    public private(set) var stepTimes = LatencyHistogram()
    /// The state before the last step taken, and after it: the two ends the renderer interpolates.
    public private(set) var previous: WorldSnapshot
    public private(set) var current: WorldSnapshot
    /// The simulation refused a step (its input failed); no more steps will be taken.
    public private(set) var halted = false

    /// What the next step is expected to cost: a peak of recent step costs.
    private var predictedStepCost: Int64 = 0
    private var loadWindowSteps = 0
    private var loadWindowNanoseconds: Int64 = 0

    /// - Parameters:
    ///   - simulation: what is stepped; the driver holds it strongly.
    ///   - configuration: step rate, frame rate and the guard's caps.
    ///   - ticksPerSecond: the frame clock's tick rate.
    ///   - stopwatch: measures step costs and the per-frame budget.
    ///   - stepLimit: no step beyond this count is ever owed.
    ///   - capturesSnapshots: copy `previous`/`current` out every frame.
    public init(simulation: Simulation, configuration: DriverConfiguration, ticksPerSecond: Int64,
                stopwatch: Stopwatch, stepLimit: Int? = nil, capturesSnapshots: Bool = true) {
        precondition(configuration.stepRate > 0 && ticksPerSecond > 0, "step rate and tick rate must be > 0")
        precondition(configuration.maxStepsPerFrame > 0 && configuration.maxDebtSteps >= 0, "caps must be positive")
        self.simulation = simulation
        self.configuration = configuration
        self.ticksPerSecond = ticksPerSecond
        self.stopwatch = stopwatch
        self.stepLimit = stepLimit
        self.capturesSnapshots = capturesSnapshots
        current = capturesSnapshots ? simulation.snapshot() : WorldSnapshot(step: 0, bodies: [])
        previous = current
    }

    /// The simulation's state was put back between frames (a live rewind): the next frame shows
    /// it as it is, with no blend from the state before. Time owed and counters are unchanged.
    public func restartInterpolation() {
        guard capturesSnapshots else { return }
        current = simulation.snapshot()
        previous = current
    }

    /// Steps due by frame time `ticks`: floor(ticks × stepRate / ticksPerSecond), capped at the limit.
    public func stepsDue(at ticks: Int64) -> Int {
        let due = Int(Int128(ticks) * Int128(configuration.stepRate) / Int128(ticksPerSecond))
        return stepLimit.map { min(due, $0) } ?? due
    }

    /// Advances to frame time `ticks` (non-decreasing from frame to frame) and reports the frame.
    public func advance(to ticks: Int64) -> FrameReport {
        let due = stepsDue(at: ticks)
        let owed = due - counters.stepsTaken - counters.droppedSteps
        precondition(owed >= 0, "frame times must not go backwards")
        let frameStart = stopwatch.nanoseconds()
        var stepped = 0
        var cap: FrameReport.Cap?
        while stepped < owed, !halted {
            if configuration.guardEnabled {
                if stepped >= configuration.maxStepsPerFrame { cap = .steps; break }
                // A step predicted to end past the budget is not started.
                if stepped > 0, stopwatch.nanoseconds() - frameStart + predictedStepCost > configuration.budgetNanoseconds {
                    cap = .budget
                    break
                }
            }
            // Copy out the state before the step foreseen as the frame's last: interpolation's start.
            if capturesSnapshots, stepped == owed - 1 || (configuration.guardEnabled && stepped == configuration.maxStepsPerFrame - 1) {
                previous = simulation.snapshot()
            }
            guard simulation.prepareStep() else {
                halted = true
                break
            }
            let before = stopwatch.nanoseconds()
            simulation.step()
            let cost = stopwatch.nanoseconds() - before
            // A decaying peak: quick to follow a costlier step, slow to trust a cheap one.
            predictedStepCost = max(cost, predictedStepCost - predictedStepCost / 16)
            stepped += 1
            counters.stepsTaken += 1
            stepTimes.record(cost)
            loadWindowSteps += 1
            loadWindowNanoseconds += cost
        }
        if stepped > 0, capturesSnapshots {
            current = simulation.snapshot()
            // A budget cap can end stepping before the step foreseen as last; then there is no
            // state one step back, and the frame shows the current state as it is.
            if previous.step != current.step - 1 { previous = current }
        }

        var debt = owed - stepped
        var dropped = 0
        if configuration.guardEnabled, debt > configuration.maxDebtSteps {
            dropped = debt - configuration.maxDebtSteps
            counters.droppedSteps += dropped
            debt = configuration.maxDebtSteps
        }
        counters.debtSteps = debt
        counters.frames += 1
        updateRunningSlowly(capped: cap != nil)
        let warning = checkLoad()

        // Fraction of the next step already elapsed: (ticks × rate mod ticksPerSecond) / ticksPerSecond.
        let remainder = Int128(ticks) * Int128(configuration.stepRate) % Int128(ticksPerSecond)
        let atLimit = stepLimit.map { due >= $0 } ?? false
        let alpha = atLimit ? 0 : Double(remainder) / Double(ticksPerSecond)
        return FrameReport(frame: counters.frames, stepsTaken: stepped, stepsDropped: dropped, cap: cap,
                           alpha: alpha, loadWarning: warning)
    }

    /// Seconds of simulated time dropped so far: exactly droppedSteps / stepRate.
    public var droppedSeconds: Double { Double(counters.droppedSteps) / Double(configuration.stepRate) }

    private func updateRunningSlowly(capped: Bool) {
        if capped {
            counters.framesCapped += 1
            counters.consecutiveCappedFrames += 1
            if counters.consecutiveCappedFrames >= configuration.cappedFramesToRunSlowly {
                counters.runningSlowly = true
                counters.everRanSlowly = true
            }
        } else {
            counters.consecutiveCappedFrames = 0
        }
        if counters.debtSteps == 0 { counters.runningSlowly = false }
    }

    /// Once per run: stepping cost more than the threshold share of the simulated time it advanced.
    private func checkLoad() -> LoadWarning? {
        guard loadWindowSteps >= configuration.loadWindowSteps else { return nil }
        let simulated = Double(loadWindowSteps) * 1e9 / Double(configuration.stepRate)
        let ratio = Double(loadWindowNanoseconds) / simulated
        let steps = loadWindowSteps
        loadWindowSteps = 0
        loadWindowNanoseconds = 0
        counters.peakLoad = max(counters.peakLoad, ratio)
        guard ratio > configuration.loadWarningThreshold, counters.loadWarning == nil else { return nil }
        let warning = LoadWarning(ratio: ratio, windowSteps: steps, stepRate: configuration.stepRate)
        counters.loadWarning = warning
        return warning
    }
}
