import Driver
import SceneModel
import Testing

@Suite struct FixedStepDriverTests {
    /// 120 steps/s at 50 fps: due(k) = floor(120k/50) = 2, 4, 7, 9, 12; alpha = (120k mod 50)/50.
    @Test func stepsAndAlphaMatchHandComputedValues() {
        let clock = ManualClock()
        let simulation = CostlySimulation(clock: clock, stepCost: 0)
        let driver = FixedStepDriver(simulation: simulation, configuration: DriverConfiguration(stepRate: 120, fps: 50, guardEnabled: false),
                                     ticksPerSecond: 50, stopwatch: clock)
        let reports = (1...5).map { driver.advance(to: Int64($0)) }
        #expect(reports.map(\.stepsTaken) == [2, 2, 3, 2, 3])
        #expect(reports.map(\.alpha) == [0.4, 0.8, 0.2, 0.6, 0.0])
        #expect(driver.counters.stepsTaken == 12 && driver.counters.frames == 5)
        #expect(driver.current.step == 12 && driver.previous.step == 11)
    }

    @Test func aFrameThatOwesNothingStepsNothingAndKeepsItsSnapshots() {
        let clock = ManualClock()
        let simulation = CostlySimulation(clock: clock, stepCost: 0)
        let driver = FixedStepDriver(simulation: simulation, configuration: DriverConfiguration(stepRate: 120, fps: 1000, guardEnabled: false),
                                     ticksPerSecond: 1000, stopwatch: clock)
        let reports = (1...9).map { driver.advance(to: Int64($0)) }
        // due(k) = floor(120k/1000): 0,0,0,0,0,0,0,0,1
        #expect(reports.map(\.stepsTaken) == [0, 0, 0, 0, 0, 0, 0, 0, 1])
        #expect(reports[7].alpha == 0.96)
        #expect(driver.current.step == 1 && driver.previous.step == 0)
    }

    @Test func stepLimitCapsTheStepsOwed() {
        let clock = ManualClock()
        let simulation = CostlySimulation(clock: clock, stepCost: 0)
        let driver = FixedStepDriver(simulation: simulation, configuration: DriverConfiguration(stepRate: 120, fps: 1, guardEnabled: false),
                                     ticksPerSecond: 1, stopwatch: clock, stepLimit: 100)
        let report = driver.advance(to: 5)
        #expect(report.stepsTaken == 100 && report.alpha == 0)
    }

    @Test func stepCapEndsTheFrameAndTheExcessIsDroppedAndCounted() {
        let clock = ManualClock()
        let simulation = CostlySimulation(clock: clock, stepCost: 0)
        var configuration = DriverConfiguration(stepRate: 120, fps: 60, guardEnabled: true)
        configuration.maxStepsPerFrame = 4
        configuration.maxDebtSteps = 4
        let driver = FixedStepDriver(simulation: simulation, configuration: configuration, ticksPerSecond: 60, stopwatch: clock)
        // A hitch to frame time 10/60 s owes 20 steps: 4 taken, 4 carried as debt, 12 dropped.
        let report = driver.advance(to: 10)
        #expect(report.stepsTaken == 4 && report.cap == .steps && report.stepsDropped == 12)
        #expect(driver.counters.debtSteps == 4 && driver.counters.droppedSteps == 12)
        #expect(driver.droppedSeconds == 0.1)
        #expect(!driver.counters.runningSlowly)
        // The next frame owes 4 + 2: it takes 4, carries 2.
        let next = driver.advance(to: 11)
        #expect(next.stepsTaken == 4 && next.cap == .steps && next.stepsDropped == 0)
        #expect(driver.counters.debtSteps == 2)
        // Then 2 + 2 = 4: caught up.
        let third = driver.advance(to: 12)
        #expect(third.stepsTaken == 4 && third.cap == nil && driver.counters.debtSteps == 0)
    }

    @Test func budgetCapEndsTheFrameOnceStepsHaveUsedIt() {
        let clock = ManualClock()
        let simulation = CostlySimulation(clock: clock, stepCost: 3_000_000)
        var configuration = DriverConfiguration(stepRate: 120, fps: 60, guardEnabled: true)
        configuration.budgetNanoseconds = 10_000_000
        let driver = FixedStepDriver(simulation: simulation, configuration: configuration, ticksPerSecond: 1_000_000_000, stopwatch: clock)
        // 6 steps owed at 3 ms each: after 3 steps (9 ms) a fourth would end at 12 ms, past the
        // 10 ms budget, so it is not started.
        let report = driver.advance(to: 50_000_000)
        #expect(report.stepsTaken == 3 && report.cap == .budget)
        // The last step's "before" state was not copied (the cap came unforeseen): no blending.
        #expect(driver.previous == driver.current)
    }

    @Test func loadWarningFiresOnceAboveHalfTheSimulatedTime() {
        for (cost, expectWarning) in [(stepNanoseconds * 6 / 10, true), (stepNanoseconds * 4 / 10, false)] {
            let clock = ManualClock()
            let simulation = CostlySimulation(clock: clock, stepCost: cost)
            let driver = FixedStepDriver(simulation: simulation, configuration: DriverConfiguration(stepRate: 120, fps: 60, guardEnabled: false),
                                         ticksPerSecond: 60, stopwatch: clock, capturesSnapshots: false)
            let warnings = (1...600).compactMap { driver.advance(to: Int64($0)).loadWarning }
            #expect(warnings.count == (expectWarning ? 1 : 0))
            if let warning = warnings.first {
                #expect(abs(warning.ratio - 0.6) < 0.001)
                #expect(warning.description.hasPrefix("physics takes 60% of the simulated time it advances"))
            }
        }
    }
}
