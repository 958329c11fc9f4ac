#if canImport(Glibc)
import Glibc
#endif
import Driver
import Foundation
import Physics
import Raster
import SceneModel

/// What to measure and how hard.
package struct BenchSettings: Sendable {
    /// Untimed steps before measuring, so piles have formed and caches are warm.
    package var warmupSteps: Int
    package var repetitions: Int
    /// Each repetition's stepping aims at about this much time per side.
    package var secondsPerRepetition: Double
    package var renderWidth = 1280
    package var renderHeight = 720
    package var renderRepetitions: Int

    package static let standard = BenchSettings(warmupSteps: 240, repetitions: 7, secondsPerRepetition: 0.25, renderRepetitions: 15)
    package static let quick = BenchSettings(warmupSteps: 10, repetitions: 3, secondsPerRepetition: 0.01, renderRepetitions: 3)
}

/// One scene's figures. Times are per step or per frame; spreads are over repetitions.
package struct SceneBenchmark: Sendable {
    package var scene: String
    package var crates: Int
    package var stepsPerRepetition: Int
    /// CrateDrop's `World.step()`, µs per step.
    package var swiftStep: Spread
    /// One snapshot copy out of the world, µs.
    package var snapshot: Spread
    /// Plain C `cpSpaceStep`, µs per step.
    package var cStep: Spread
    /// Both sides' state hashes after the same steps; equal when the comparison is like for like.
    package var swiftHash: StateHash
    package var cHash: StateHash
    /// The spawned crates CrateDrop's world refused (a heap where they appear), which the C
    /// baseline makes all the same, and the C world's crate count: when they are not 0 and
    /// `crates`, the hashes differ for that reason (`cbaseline_spawn`).
    package var refusedSpawns = 0
    package var cCrates = 0
    /// Drawing one frame at the render size, ms.
    package var draw: Spread
    /// Writing one frame file (temporary name, rename), ms.
    package var fileWrite: Spread
    /// Writing frames into a pipe that a reader drains, MB/s.
    package var streamThroughput: Spread

    package var hashesMatch: Bool { swiftHash == cHash }
    /// (step + snapshot) / C step, medians: the cost of going through CrateDrop.
    package var ratioWithSnapshot: Double { (swiftStep.median + snapshot.median) / cStep.median }
    package var ratioStepOnly: Double { swiftStep.median / cStep.median }
    /// The snapshot copy as a share of the step time.
    package var snapshotShare: Double { snapshot.median / swiftStep.median }
    package var stepsPerSecond: Double { 1e6 / swiftStep.median }
}

/// Measures scenes side by side: CrateDrop's world and the plain C baseline in the same process,
/// alternating repetitions so drift on a shared machine hits both alike.
package enum Benchmark {
    /// Measures one scene on both sides; both end on the same step count, so their hashes must agree.
    package static func run(scene: Scene, settings: BenchSettings) throws -> SceneBenchmark {
        let clock = MonotonicStopwatch()
        // The Swift world first: it silences Chipmunk's stdout banner for the whole process.
        let world = try World(scene: scene)
        let baseline = BaselineWorld(scene: scene)
        _ = measuredSwiftStepLoop(world, steps: settings.warmupSteps, snapshots: false)
        baseline.step(settings.warmupSteps)

        // Size repetitions from the C side's cost now.
        let probeStart = clock.nanoseconds()
        baseline.step(3)
        _ = measuredSwiftStepLoop(world, steps: 3, snapshots: false)
        let perStep = Double(clock.nanoseconds() - probeStart) / 6e9
        let steps = max(3, min(240, Int(settings.secondsPerRepetition / max(perStep, 1e-7))))

        var swift: [Double] = [], c: [Double] = [], snapshot: [Double] = []
        for _ in 0..<settings.repetitions {
            var start = clock.nanoseconds()
            _ = measuredSwiftStepLoop(world, steps: steps, snapshots: false)
            swift.append(Double(clock.nanoseconds() - start) / 1000 / Double(steps))
            start = clock.nanoseconds()
            baseline.step(steps)
            c.append(Double(clock.nanoseconds() - start) / 1000 / Double(steps))
            start = clock.nanoseconds()
            _ = measuredSnapshotLoop(world, count: steps)
            snapshot.append(Double(clock.nanoseconds() - start) / 1000 / Double(steps))
        }

        let render = try RenderBenchmark.run(scene: scene, world: world, settings: settings)
        return SceneBenchmark(
            scene: scene.name, crates: world.crates.count, stepsPerRepetition: steps,
            swiftStep: Spread(swift), snapshot: Spread(snapshot), cStep: Spread(c),
            swiftHash: world.stateHash, cHash: baseline.stateHash, refusedSpawns: world.refusedSpawnCount, cCrates: baseline.crateCount,
            draw: render.draw, fileWrite: render.fileWrite, streamThroughput: render.stream)
    }

    /// Peak resident memory of this process so far, in MiB.
    package static func peakMemoryMiB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}
