import Driver
import SceneModel
import Testing

/// A world whose step costs twice the time it simulates, on a 60 fps display whose frames come
/// 1/60 s after the previous frame's work ends.
@Suite struct DeathSpiralTests {
    static let frameGap: Int64 = 1_000_000_000 / 60

    static func make(guardEnabled: Bool) -> (ManualClock, CostlySimulation, FixedStepDriver) {
        let clock = ManualClock(frameGap: frameGap)
        let simulation = CostlySimulation(clock: clock, stepCost: 2 * stepNanoseconds)
        let driver = FixedStepDriver(simulation: simulation, configuration: DriverConfiguration(stepRate: 120, fps: 60, guardEnabled: guardEnabled),
                                     ticksPerSecond: clock.ticksPerSecond, stopwatch: clock)
        return (clock, simulation, driver)
    }

    @Test func withoutTheGuardStepsPerFrameGrowFrameAfterFrame() {
        let (clock, _, driver) = Self.make(guardEnabled: false)
        var perFrame: [Int] = []
        for _ in 0..<8 { perFrame.append(driver.advance(to: clock.nextFrame()!).stepsTaken) }
        #expect(zip(perFrame, perFrame.dropFirst()).allSatisfy { $0 < $1 })
        #expect(perFrame.last! > 100)
    }

    @Test func withTheGuardWorkIsCappedAndDroppedTimeIsCountedExactly() {
        let (clock, simulation, driver) = Self.make(guardEnabled: true)
        var flagSeenAt: Int?
        var firstCappedFrame: Int?
        for frame in 1...120 {
            let t = clock.nextFrame()!
            let report = driver.advance(to: t)
            #expect(report.stepsTaken <= driver.configuration.maxStepsPerFrame)
            // Every owed step is taken, dropped or still owed: none is lost or invented.
            let c = driver.counters
            #expect(c.stepsTaken + c.droppedSteps + c.debtSteps == driver.stepsDue(at: t))
            if report.cap != nil, firstCappedFrame == nil { firstCappedFrame = frame }
            if c.runningSlowly, flagSeenAt == nil { flagSeenAt = frame }
        }
        // Not on the first capped frame: after three capped frames in a row.
        #expect(firstCappedFrame != nil && flagSeenAt == firstCappedFrame! + 2)
        #expect(driver.counters.droppedSteps > 0)
        #expect(driver.droppedSeconds == Double(driver.counters.droppedSteps) / 120)
        #expect(simulation.steps == driver.counters.stepsTaken)

        // Steps get cheap again: the driver catches up within the cap and the flag clears.
        simulation.stepCost = stepNanoseconds / 10
        let droppedBefore = driver.counters.droppedSteps
        var framesToRecover = 0
        while driver.counters.runningSlowly {
            let report = driver.advance(to: clock.nextFrame()!)
            #expect(report.stepsTaken <= driver.configuration.maxStepsPerFrame)
            framesToRecover += 1
            if framesToRecover > 10 { break }
        }
        #expect(!driver.counters.runningSlowly && driver.counters.debtSteps == 0)
        #expect(framesToRecover <= 3)
        #expect(driver.counters.droppedSteps == droppedBefore)
        #expect(driver.counters.everRanSlowly)
    }

    @Test func runningSlowlyNeedsSeveralCappedFramesInARow() {
        let clock = ManualClock()
        let simulation = CostlySimulation(clock: clock, stepCost: 0)
        var configuration = DriverConfiguration(stepRate: 120, fps: 60, guardEnabled: true)
        configuration.maxStepsPerFrame = 2
        let driver = FixedStepDriver(simulation: simulation, configuration: configuration, ticksPerSecond: 120, stopwatch: clock)
        // Owes 3 per frame, 2 allowed: capped every frame; the flag comes on at the third.
        _ = driver.advance(to: 3)
        _ = driver.advance(to: 6)
        #expect(!driver.counters.runningSlowly)
        _ = driver.advance(to: 9)
        #expect(driver.counters.runningSlowly)
    }
}
