import Driver
import SceneModel

/// Hand-driven time in nanoseconds: the test's stopwatch and, as a frame clock, a display whose
/// next frame comes `frameGap` after the previous one's work ends.
final class ManualClock: Stopwatch, FrameClock {
    let ticksPerSecond: Int64 = 1_000_000_000
    var now: Int64 = 0
    var frameGap: Int64

    init(frameGap: Int64 = 0) { self.frameGap = frameGap }

    func nanoseconds() -> Int64 { now }

    func nextFrame() -> Int64? {
        now += frameGap
        return now
    }
}

/// A world whose every step costs `stepCost` nanoseconds of `clock` time: the spiral's cause made
/// controllable. Its single body's x is the number of steps taken.
final class CostlySimulation: Simulation {
    let clock: ManualClock
    var stepCost: Int64
    private(set) var steps = 0

    init(clock: ManualClock, stepCost: Int64) {
        self.clock = clock
        self.stepCost = stepCost
    }

    func step() {
        clock.now += stepCost
        steps += 1
    }

    func snapshot() -> WorldSnapshot {
        WorldSnapshot(step: steps, bodies: [BodyState(id: BodyID(1), position: Vec2(Double(steps), 0), angle: 0,
                                                      velocity: .zero, angularVelocity: 0)])
    }
}

/// One step of 1/120 s in nanoseconds.
let stepNanoseconds: Int64 = 1_000_000_000 / 120
