import Driver

/// The wall clock at `fps`, stopped while a live run is paused: frame time counts only the time
/// the run was not paused, and a single step moves it on to the next step's time.
final class LiveFrameClock: FrameClock {
    let ticksPerSecond: Int64 = 1_000_000_000
    private let wall: WallFrameClock
    private let control: LiveControl
    private let stepRate: Int
    private var lastWall: Int64?
    private var active: Int64 = 0

    init(fps: Int, stepRate: Int, control: LiveControl, stopwatch: Stopwatch) {
        wall = WallFrameClock(fps: fps, stopwatch: stopwatch)
        self.control = control
        self.stepRate = stepRate
    }

    func nextFrame() -> Int64? {
        guard let now = wall.nextFrame() else { return nil }
        let elapsed = now - (lastWall ?? now)
        lastWall = now
        let (paused, stepOnce) = control.takeClockCommands()
        if !paused { active += elapsed }
        if paused, stepOnce { active = ticks(forStep: stepsDue(at: active) + 1) }
        return active
    }

    private func stepsDue(at ticks: Int64) -> Int {
        Int(Int128(ticks) * Int128(stepRate) / Int128(ticksPerSecond))
    }

    /// The first clock time at which `step` steps are due.
    private func ticks(forStep step: Int) -> Int64 {
        Int64((Int128(step) * Int128(ticksPerSecond) + Int128(stepRate) - 1) / Int128(stepRate))
    }
}
