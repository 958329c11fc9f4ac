import Driver
import Physics
import SceneModel
import Session
import TestSupport
import Testing

/// Offline runs take every owed step, so the frame rate and frame timing never change the result:
/// the same step count and state hash as `cratedrop hash --seconds 10` (the golden 1200-step hash).
@Suite struct FrameRateInvarianceTests {
    static func goldenHashAfter10Seconds() throws -> String {
        try #require(GoldenFile(directory: Repository.path("Tests/PhysicsTests/Golden"), determinismClass: DeterminismClass.current.id, name: "book-hashes.txt").value("1200"))
    }

    static func runBook(clock: FrameClock) throws -> RunResult {
        let scene = try Repository.scene("book")
        let world = try World(scene: scene)
        let configuration = DriverConfiguration(stepRate: scene.stepRate, fps: 60, guardEnabled: false)
        let loop = RunLoop(simulation: world, configuration: configuration, clock: clock, stopwatch: MonotonicStopwatch(),
                           duration: DecimalSeconds("10")!, capturesSnapshots: true)
        return loop.run(shouldStop: { false })
    }

    @Test(arguments: [24, 30, 60, 144, 1000, 7])
    func bookSceneGivesTheSameHashAtAnyFrameRate(fps: Int) throws {
        let result = try Self.runBook(clock: VirtualFrameClock(fps: fps))
        #expect(result.counters.stepsTaken == 1200)
        #expect(result.counters.frames == 10 * fps)
        #expect(result.counters.droppedSteps == 0)
        #expect(result.stateHash.description == (try Self.goldenHashAfter10Seconds()))
    }

    /// Frames 1 to 40 ms apart, with a 1-second hitch every ~2 s, ending at exactly 10 s.
    @Test func jitteredTraceWithHitchesGivesTheSameHash() throws {
        var random = SplitMix64(seed: 99)
        var times: [Int64] = []
        var t: Int64 = 0
        while true {
            let hitch = random.next() % 120 == 0
            t += hitch ? 1_000_000_000 : Int64(1_000_000 + random.next() % 39_000_000)
            if t >= 10_000_000_000 { break }
            times.append(t)
        }
        times.append(10_000_000_000)
        #expect(zip(times, times.dropFirst()).contains { $1 - $0 == 1_000_000_000 })
        let result = try Self.runBook(clock: TraceFrameClock(nanoseconds: times))
        #expect(result.counters.stepsTaken == 1200)
        #expect(result.counters.frames == times.count)
        #expect(result.stateHash.description == (try Self.goldenHashAfter10Seconds()))
    }

    /// 24 simulated hours end on the exact step count, even at 7 fps where 1/7 s is no finite binary fraction.
    @Test(arguments: [7, 24])
    func twentyFourHoursEndOnTheExactStepCount(fps: Int) {
        let clock = ManualClock()
        let simulation = CostlySimulation(clock: clock, stepCost: 0)
        let configuration = DriverConfiguration(stepRate: 120, fps: fps, guardEnabled: false)
        let loop = RunLoop(simulation: simulation, configuration: configuration, clock: VirtualFrameClock(fps: fps),
                           stopwatch: clock, duration: DecimalSeconds("86400")!, capturesSnapshots: false)
        let result = loop.run(shouldStop: { false })
        #expect(result.counters.stepsTaken == 10_368_000)
        #expect(simulation.steps == 10_368_000)
        #expect(result.counters.frames == 86_400 * fps)
    }

    @Test func durationThatIsNotAWholeNumberOfFramesStopsOnTheExactStep() {
        // 0.1 s at 7 fps: the first frame (1/7 s) is already past the end; 12 steps, not 17.
        let clock = ManualClock()
        let simulation = CostlySimulation(clock: clock, stepCost: 0)
        let loop = RunLoop(simulation: simulation, configuration: DriverConfiguration(stepRate: 120, fps: 7, guardEnabled: false),
                           clock: VirtualFrameClock(fps: 7), stopwatch: clock, duration: DecimalSeconds("0.1")!, capturesSnapshots: false)
        let result = loop.run(shouldStop: { false })
        #expect(result.counters.stepsTaken == 12)
        #expect(result.counters.frames == 1)
    }
}
