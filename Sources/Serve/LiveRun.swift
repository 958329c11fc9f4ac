#if canImport(Glibc)
import Glibc
#endif
import Driver
import Foundation
import Physics
import SceneModel
import Script
import Session
import Synchronization

/// One frame of the live run, as the pages get it.
public struct LiveFrame: Sendable {
    public var snapshot: WorldSnapshot
    public var hash: StateHash
    public var stepMicroseconds: Double
    /// Step time over simulated time, over the last frames (1 = physics uses all its real time).
    public var physicsLoad: Double
    public var droppedSeconds: Double
    public var paused: Bool
    /// Counts up at every restart, so pages know to forget the old bodies.
    public var generation: Int

    public init(snapshot: WorldSnapshot, hash: StateHash, stepMicroseconds: Double, physicsLoad: Double, droppedSeconds: Double,
                paused: Bool, generation: Int) {
        self.snapshot = snapshot
        self.hash = hash
        self.stepMicroseconds = stepMicroseconds
        self.physicsLoad = physicsLoad
        self.droppedSeconds = droppedSeconds
        self.paused = paused
        self.generation = generation
    }
}

/// The scene run live in real time (`cratedrop serve`): the fixed-step driver with its
/// death-spiral guard on a wall clock at `fps`, gravity from pages applied at step boundaries and
/// recorded with their steps, pause, single step and restart. `run` blocks its thread; `post`
/// may be called from any thread.
public final class LiveRun: Sendable {
    public let scene: Scene
    private let sceneText: [UInt8]
    private let sceneFile: String
    /// Where the record of the current world is written.
    public let recordPath: String
    private let inbox = Mutex<[LiveCommand]>([])

    public init(scene: Scene, sceneText: [UInt8], sceneFile: String, recordPath: String) {
        self.scene = scene
        self.sceneText = sceneText
        self.sceneFile = sceneFile
        self.recordPath = recordPath
    }

    public func post(_ command: LiveCommand) { inbox.withLock { $0.append(command) } }

    /// The record so far: its complete lines (the loop flushes it every frame), or nil if it
    /// cannot be read.
    public func recordBytes() -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: recordPath) else { return nil }
        let bytes = [UInt8](data)
        guard let lastNewline = bytes.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        return Array(bytes[...lastNewline])
    }

    /// Runs until `shouldStop` says so; `onFrame` sees every frame (on this thread).
    /// - Throws: `RunRecorder`'s error when the record cannot be created.
    public func run(fps: Int, shouldStop: () -> Bool, onFrame: (LiveFrame) -> Void) throws {
        var generation = 0
        var session = try Session(scene: scene, sceneText: sceneText, sceneFile: sceneFile, recordPath: recordPath, fps: fps)
        let stopwatch = MonotonicStopwatch()
        let frameNanoseconds = Int64(1_000_000_000 / fps)
        var paused = false
        var nextFrame = stopwatch.nanoseconds()
        var last = nextFrame
        while !shouldStop() {
            let now = stopwatch.nanoseconds()
            var stepOnce = false
            for command in inbox.withLock({ commands in defer { commands.removeAll() }; return commands }) {
                switch command {
                case let .gravity(gravity): session.tilt.pending = gravity
                case .pause: paused = true
                case .resume: paused = false
                case .step: stepOnce = paused
                case .restart:
                    session.finish()
                    generation += 1
                    session = try Session(scene: scene, sceneText: sceneText, sceneFile: sceneFile, recordPath: recordPath, fps: fps)
                }
            }
            if !paused { session.activeTicks += now - last }
            last = now
            if stepOnce { session.activeTicks = session.ticks(forStep: session.driver.counters.stepsTaken + session.driver.counters.droppedSteps + 1) }
            _ = session.driver.advance(to: session.activeTicks)
            session.recording.recorder.flush()
            let snapshot = session.driver.current
            let times = session.driver.stepTimes
            onFrame(LiveFrame(snapshot: snapshot, hash: StateHash(snapshot), stepMicroseconds: Double(times.percentile(0.5)) / 1000,
                              physicsLoad: session.driver.counters.peakLoad, droppedSeconds: session.driver.droppedSeconds,
                              paused: paused, generation: generation))
            nextFrame += frameNanoseconds
            let wait = nextFrame - stopwatch.nanoseconds()
            if wait > 0 { usleep(useconds_t(wait / 1000)) } else { nextFrame = stopwatch.nanoseconds() }
        }
        session.finish()
    }

    /// One world's run: the world, its tilt input, its record and its driver.
    private struct Session {
        let world: World
        let tilt: TiltInput
        let recording: RecordingSimulation
        let driver: FixedStepDriver
        var activeTicks: Int64 = 0
        let stepRate: Int

        init(scene: Scene, sceneText: [UInt8], sceneFile: String, recordPath: String, fps: Int) throws {
            world = try World(scene: scene)
            let recorder = try RunRecorder(path: recordPath, header: .thisProcess(sceneFile: sceneFile), sceneText: sceneText,
                                           schedule: TrailSchedule(bodies: world.crates.count, stepRate: scene.stepRate))
            tilt = TiltInput(world: world, recorder: recorder)
            recording = RecordingSimulation(tilt, recorder: recorder)
            var configuration = DriverConfiguration(stepRate: scene.stepRate, fps: fps, guardEnabled: true)
            configuration.maxDebtSteps = configuration.maxStepsPerFrame
            driver = FixedStepDriver(simulation: recording, configuration: configuration, ticksPerSecond: 1_000_000_000,
                                     stopwatch: MonotonicStopwatch())
            stepRate = scene.stepRate
        }

        /// The first clock time at which `step` steps are due.
        func ticks(forStep step: Int) -> Int64 {
            Int64((Int128(step) * 1_000_000_000 + Int128(stepRate) - 1) / Int128(stepRate))
        }

        func finish() {
            try? recording.finish()
        }
    }
}

/// The world with gravity from pages: a change waits in `pending` and applies before the next
/// step, recorded with that step, exactly like an untimed gravity line.
final class TiltInput: Simulation {
    let world: World
    let recorder: RunRecorder
    var pending: Vec2?

    init(world: World, recorder: RunRecorder) {
        self.world = world
        self.recorder = recorder
    }

    func prepareStep() -> Bool {
        if let gravity = pending {
            pending = nil
            // Pages' values are validated against the same limits World checks.
            if (try? world.setGravity(gravity)) != nil { recorder.record(step: world.stepCount, gravity: gravity) }
        }
        return true
    }

    func step() { world.step() }
    func snapshot() -> WorldSnapshot { world.snapshot() }
}
