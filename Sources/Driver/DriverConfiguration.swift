/// The driver's knobs, with the defaults `cratedrop run` uses.
public struct DriverConfiguration: Sendable, Equatable {
    /// Fixed steps per simulated second (the scene's `step_rate`).
    public var stepRate: Int
    /// Whether the death-spiral guard is on. Off, every owed step is taken (offline runs); on,
    /// work per frame is capped and time beyond the debt limit is dropped (real-time runs).
    public var guardEnabled: Bool
    /// At most this many steps in one frame (guard on).
    public var maxStepsPerFrame: Int
    /// Stop stepping in a frame once its steps have taken this many nanoseconds (guard on).
    public var budgetNanoseconds: Int64
    /// Owed steps carried to the next frame at most; owed time beyond it is dropped (guard on).
    public var maxDebtSteps: Int
    /// Consecutive capped frames after which `runningSlowly` turns on; it turns off at zero debt.
    public var cappedFramesToRunSlowly: Int
    /// The slow warning fires once when stepping costs more than this share of the simulated time
    /// it advances, measured over windows of `loadWindowSteps` steps.
    public var loadWarningThreshold: Double
    public var loadWindowSteps: Int

    /// Defaults for a run at `fps` frames per second: cap 8 steps, budget one frame interval,
    /// debt at most one frame's cap, running slowly after 3 capped frames, warn above 50% load.
    public init(stepRate: Int, fps: Int, guardEnabled: Bool) {
        self.stepRate = stepRate
        self.guardEnabled = guardEnabled
        maxStepsPerFrame = 8
        budgetNanoseconds = 1_000_000_000 / Int64(max(fps, 1))
        maxDebtSteps = 8
        cappedFramesToRunSlowly = 3
        loadWarningThreshold = 0.5
        loadWindowSteps = stepRate
    }
}
