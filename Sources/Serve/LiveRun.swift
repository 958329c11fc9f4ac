import SceneModel
import Session

/// One frame of the live run, as the pages get it: the run's frame and the world's generation.
package struct LiveFrame: Sendable {
    package var state: LiveFrameState
    /// Counts up at every restart, so pages know to forget the old bodies.
    package var generation: Int

    package var snapshot: WorldSnapshot { state.snapshot }
    package var hash: StateHash { state.hash }
    package var stepMicroseconds: Double { state.stepMicroseconds }
    package var physicsLoad: Double { state.physicsLoad }
    package var droppedSeconds: Double { state.droppedSeconds }
    package var paused: Bool { state.paused }

    package init(state: LiveFrameState, generation: Int) {
        self.state = state
        self.generation = generation
    }

    package init(snapshot: WorldSnapshot, hash: StateHash, stepMicroseconds: Double, physicsLoad: Double, droppedSeconds: Double,
                paused: Bool, generation: Int) {
        self.init(state: LiveFrameState(snapshot: snapshot, hash: hash, stepMicroseconds: stepMicroseconds, physicsLoad: physicsLoad,
                                        droppedSeconds: droppedSeconds, paused: paused),
                  generation: generation)
    }
}

/// The scene run live (`cratedrop serve`): the one run engine on the live clock (the wall clock
/// with the death-spiral guard, paused and stepped by pages), gravity from pages as its input,
/// recorded with their steps. A restart ends the run at a frame boundary and starts the scene
/// again, with a new record. `run` blocks its thread; `post` may be called from any thread.
package final class LiveRun: Sendable {
    package let scene: Scene
    private let sceneText: [UInt8]
    private let sceneFile: String
    /// Where the record of the current world is written.
    package let recordPath: String
    private let control = LiveControl()

    package init(scene: Scene, sceneText: [UInt8], sceneFile: String, recordPath: String) {
        self.scene = scene
        self.sceneText = sceneText
        self.sceneFile = sceneFile
        self.recordPath = recordPath
    }

    /// Hands a page's command to the run.
    package func post(_ command: LiveCommand) {
        switch command {
        case let .gravity(gravity): control.tilt(gravity)
        case .pause: control.pause()
        case .resume: control.resume()
        case .step: control.step()
        case .restart: control.restart()
        }
    }

    /// The record so far, to be streamed: its complete lines (the run flushes it every frame), or
    /// nil if it cannot be read.
    func openRecord() -> RecordDownload? {
        RecordDownload(path: recordPath)
    }

    /// The plan of one world's run.
    private func plan(fps: Int, generation: Int, onFrame: @escaping @Sendable (LiveFrame) -> Void) -> RunPlan {
        var plan = RunPlan(start: .scene(scene, file: sceneFile, text: sceneText), length: .never, clock: .live(fps: fps, control: control))
        plan.gravity = RunPlan.GravityInputPlan(.live(control))
        plan.recordPath = recordPath
        plan.liveFrames = { onFrame(LiveFrame(state: $0, generation: generation)) }
        return plan
    }

    /// Runs until `shouldStop` says so, starting over at each restart; `onFrame` sees every frame
    /// (on this thread).
    /// - Returns: the last run's outcome (its record finished).
    /// - Throws: `RunSetupError` when the world or the record cannot be set up.
    package func run(fps: Int, shouldStop: @escaping @Sendable () -> Bool,
                    onFrame: @escaping @Sendable (LiveFrame) -> Void) throws(RunSetupError) -> RunOutcome {
        var generation = 0
        while true {
            let engine = try RunEngine(plan: plan(fps: fps, generation: generation, onFrame: onFrame), shouldStop: shouldStop)
            control.beginRun()
            let outcome = engine.run(shouldStop: shouldStop)
            guard outcome.stop == .restart, outcome.recordFailure == nil else { return outcome }
            generation += 1
        }
    }
}
