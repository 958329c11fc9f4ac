import Driver
import Physics
import SceneModel

/// A page's frames: the fixed-step driver of docs/driver.md, with its accumulator and death-spiral
/// guard, fed the display's frame times. A frame takes the steps its time owes (at most 8, within
/// one frame's budget; time owed beyond the debt limit is dropped and counted), and the bodies are
/// drawn between the last two states by the fraction of a step the frame is past the last.
final class PageFrames {
    let driver: FixedStepDriver
    /// The first frame's time: frame times count from it.
    let origin: Int64
    /// The last frame's time, from `origin`: a frame before it is refused (the driver's count of
    /// steps owed never goes back).
    var last: Int64 = 0
    /// The last frame's fraction of a step past the current state.
    var alpha = 0.0
    /// Why stepping stopped (a line that could not apply), once it has.
    var failure: CoreError?

    init(driver: FixedStepDriver, origin: Int64) {
        self.driver = driver
        self.origin = origin
    }
}

extension CoreRun: Simulation {
    public func prepareStep() -> Bool {
        do throws(CoreError) {
            try applyDue()
            return true
        } catch {
            frames?.failure = error
            return false
        }
    }

    public func step() { stepOnce() }

    public func snapshot() -> WorldSnapshot { world.snapshot() }
}

extension CoreRun {
    /// Advances to the display's frame at `nanoseconds` (any fixed origin, never going back):
    /// returns the steps taken.
    /// - Throws: a line that could not apply, or the world going non-finite, as `step(_:)` does.
    func frame(at nanoseconds: Int64, stopwatch: Stopwatch) throws(CoreError) -> Int {
        let frames = self.frames ?? PageFrames(
            driver: FixedStepDriver(simulation: self, configuration: DriverConfiguration(stepRate: world.stepRate, fps: 60, guardEnabled: true),
                                    ticksPerSecond: 1_000_000_000, stopwatch: stopwatch),
            origin: nanoseconds)
        self.frames = frames
        if let failure = frames.failure { throw failure }
        let ticks = nanoseconds &- frames.origin
        guard nanoseconds >= frames.origin, ticks >= frames.last else {
            throw CoreError(code: .usage, message: "frame times must not go back (the last frame was at \(frames.origin &+ frames.last) ns, this one at \(nanoseconds) ns)")
        }
        // The driver counts steps in Int, 32 bits on wasm32: 2^31 steps is 207 days at 120 Hz.
        guard Int128(ticks) * Int128(world.stepRate) / 1_000_000_000 < Int128(Int.max) else {
            throw CoreError(code: .usage, message: "the frames have run for more steps than this build counts")
        }
        frames.last = ticks
        let report = frames.driver.advance(to: ticks)
        frames.alpha = report.alpha
        if let failure = frames.failure { throw failure }
        if let nonFinite = world.nonFinite { throw CoreError(code: .software, message: nonFinite.description) }
        return report.stepsTaken
    }

    /// The bodies as the last frame shows them: between the driver's last two states by its alpha.
    var frameSnapshot: WorldSnapshot {
        guard let frames else { return world.snapshot() }
        return WorldSnapshot.interpolated(from: frames.driver.previous, to: frames.driver.current, alpha: frames.alpha)
    }
}
