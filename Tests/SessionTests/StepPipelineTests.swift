import Foundation
import Physics
import SceneModel
import Script
import Session
import Synchronization
import TestSupport
import Testing

/// The one step pipeline and the plans every command turns into.
@Suite struct StepPipelineTests {
    /// A stage that notes when it is asked.
    final class NotingStage: StepStage {
        let name: String
        let log: Log
        init(_ name: String, log: Log) {
            self.name = name
            self.log = log
        }
        func beforeStep(_ state: StepState) -> Bool {
            log.entries.append("\(name) before \(state.step)")
            return true
        }
        func afterStep(_ state: StepState) { log.entries.append("\(name) after \(state.step)") }
    }

    final class Log { var entries: [String] = [] }

    @Test func stagesRunInThePipelinesOrderWhateverOrderTheyAreGivenIn() throws {
        let world = try World(scene: Repository.scene("book"))
        let log = Log()
        let stages: [(StepPipeline.Position, StepStage)] = [(.hashTrail, NotingStage("hash", log: log)), (.data, NotingStage("data", log: log)),
                                                             (.check, NotingStage("check", log: log)), (.record, NotingStage("record", log: log)),
                                                             (.input, NotingStage("input", log: log))]
        let pipeline = StepPipeline(world: world, stages: stages)
        #expect(pipeline.prepareStep())
        pipeline.step()
        #expect(log.entries == ["input before 0", "record before 0", "check before 0", "data before 0", "hash before 0",
                                "input after 1", "record after 1", "check after 1", "data after 1", "hash after 1"])
    }

    /// A check that parted stops the run before any input applies a change for a step that never comes.
    @Test func aStageThatHaltsIsSeenBeforeAnyInputApplies() throws {
        final class Halting: StepStage { var haltsRun: Bool { true } }
        let world = try World(scene: Repository.scene("book"))
        let log = Log()
        let pipeline = StepPipeline(world: world, stages: [(.input, NotingStage("input", log: log)), (.check, Halting())])
        #expect(!pipeline.prepareStep())
        #expect(log.entries.isEmpty)
    }

    /// `hash`'s plan: one frame per step, a hash every K steps and after the last, the golden values.
    @Test func aHashTrailPlanPrintsTheGoldenHashes() throws {
        let scene = try Repository.scene("book")
        var plan = RunPlan(start: .scene(scene, file: "Scenes/book.json", text: []), length: .steps(1200), clock: .everyStep)
        let lines = Mutex<[String]>([])
        plan.hashTrail = RunPlan.HashTrail(every: 120) { snapshot in
            lines.withLock { $0.append("\(snapshot.step) \(StateHash(snapshot))") }
            return true
        }
        let outcome = try RunEngine(plan: plan).run(shouldStop: { false })
        let printed = lines.withLock { $0 }
        #expect(printed.count == 10 && printed.first?.hasPrefix("120 ") == true)
        #expect(printed.last == "1200 \(try RunEngineTests.golden1200())")
        #expect(outcome.result.counters.stepsTaken == 1200 && outcome.result.counters.frames == 1200)
    }

    /// A record written by one plan verifies under another (`replay --verify`'s plan), every checkpoint.
    @Test func aRecordedRunVerifiesUnderAReplayPlan() throws {
        let record = FileManager.default.temporaryDirectory.appendingPathComponent("plan-\(UUID().uuidString).rec").path
        defer { try? FileManager.default.removeItem(atPath: record) }
        var plan = try RunEngineTests.bookPlan(seconds: "3")
        plan.gravity = .init(.stream(path: Repository.path("Scenes/tilt.jsonl")))
        plan.recordPath = record
        let recorded = try RunEngine(plan: plan).run(shouldStop: { false })
        #expect(recorded.recordFailure == nil)
        let start = RunStart.record(try RunRecord.load(path: record), path: record)
        var replay = RunPlan(start: start, length: .steps(start.record!.run.steps), clock: .everyStep)
        replay.checkpoints = start.recordedCheckpoints
        let outcome = try RunEngine(plan: replay).run(shouldStop: { false })
        #expect(outcome.check?.divergence == nil && outcome.check?.verified == start.recordedCheckpoints.count)
        #expect(outcome.result.stateHash == recorded.result.stateHash && (outcome.gravity?.changesApplied ?? 0) > 0)
    }

    /// `serve`'s plan: the live clock stands still while paused, and a single step moves it by one step.
    @Test(.timeLimit(.minutes(3)))
    func aPausedLiveRunTakesOnlyTheStepsAskedFor() throws {
        let control = LiveControl()
        control.pause()
        control.step()
        let scene = try Repository.scene("book")
        var plan = RunPlan(start: .scene(scene, file: "Scenes/book.json", text: []), length: .never, clock: .live(fps: 240, control: control))
        plan.gravity = .init(.live(control))
        control.tilt(Vec2(300, 0))
        let frames = Mutex(0)
        plan.liveFrames = { _ in frames.withLock { $0 += 1 } }
        let engine = try RunEngine(plan: plan)
        let outcome = engine.run(shouldStop: { frames.withLock { $0 } >= 6 })
        #expect(outcome.result.counters.stepsTaken == 1 && outcome.stop == .requested)
        #expect(engine.world.gravity == Vec2(300, 0) && outcome.gravity?.changesApplied == 1)
    }

    /// A restart asked of a live run ends it at the next frame, saying so.
    @Test(.timeLimit(.minutes(3)))
    func aRestartEndsTheLiveRunAtAFrameBoundary() throws {
        let control = LiveControl()
        let scene = try Repository.scene("book")
        var plan = RunPlan(start: .scene(scene, file: "Scenes/book.json", text: []), length: .never, clock: .live(fps: 240, control: control))
        plan.liveFrames = { frame in if frame.snapshot.step >= 2 { control.restart() } }
        let outcome = try RunEngine(plan: plan).run(shouldStop: { false })
        #expect(outcome.stop == .restart && outcome.result.counters.stepsTaken >= 2)
    }
}
