/// The driver's running totals.
public struct DriverCounters: Sendable, Equatable {
    public var frames = 0
    public var stepsTaken = 0
    /// Steps never simulated because the guard dropped them.
    public var droppedSteps = 0
    /// Steps owed and carried into the next frame.
    public var debtSteps = 0
    /// Frames whose stepping ended at a cap with steps still owed.
    public var framesCapped = 0
    public var consecutiveCappedFrames = 0
    /// On after `cappedFramesToRunSlowly` capped frames in a row, off once the debt is zero.
    public var runningSlowly = false
    /// Whether `runningSlowly` was ever on during the run.
    public var everRanSlowly = false
    /// The highest physics load (step time / simulated time) over any measurement window.
    public var peakLoad = 0.0
    /// The one load warning of the run, if it fired.
    public var loadWarning: LoadWarning?
}

/// What one frame did.
public struct FrameReport: Sendable, Equatable {
    public enum Cap: String, Sendable { case steps, budget }

    public var frame: Int
    public var stepsTaken: Int
    public var stepsDropped: Int
    /// Which limit ended the frame's stepping with steps still owed, if any.
    public var cap: Cap?
    /// Fraction of a step elapsed past the current state, in [0, 1): the interpolation weight.
    public var alpha: Double
    /// Set on the one frame where the load warning fires.
    public var loadWarning: LoadWarning?
}

/// The rule of thumb from the design: physics above 50% of its time budget needs a bigger step or
/// a simpler scene.
public struct LoadWarning: Sendable, Equatable, CustomStringConvertible {
    public var ratio: Double
    public var windowSteps: Int
    public var stepRate: Int

    public var description: String {
        let percent = Int((ratio * 100).rounded())
        return "physics takes \(percent)% of the simulated time it advances (measured over \(windowSteps) steps of "
            + "1/\(stepRate) s); above 50% a real-time run falls behind: lower step_rate (a bigger step) or simplify the scene"
    }
}
