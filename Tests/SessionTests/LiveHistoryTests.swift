import Foundation
import Physics
import SceneModel
import Script
@testable import Session
import Synchronization
import TestSupport
import Testing

/// A live run's history (`LiveHistory`): its ring of saved states stays within its span and
/// its bytes, a rewind puts back exactly the world the run had at that step, and the record,
/// cut back at the branch, replays bit for bit through the rewind. Saved states need the
/// portable backend: on Debian's library a run that asks for a history is refused before any step.
@Suite struct LiveHistoryTests {
    static func state(_ step: Int, bytes: Int) -> WorldState {
        WorldState(step: step, gravity: Vec2(0, -1000), fingerprint: 1, physics: [UInt8](repeating: 0, count: bytes))
    }

    @Test func theRingKeepsOneStateAtOrBeforeWhatItMustReachAndFitsItsBytes() {
        var ring = StateRing()
        for step in stride(from: 0, through: 100, by: 10) { ring.append(Self.state(step, bytes: 100)) }
        #expect(ring.count == 11 && ring.bytes == 1100 && ring.oldestStep == 0)
        ring.dropOlder(keepingAtOrBefore: 35)
        // 30 is the newest at or before 35: it stays, the ones before it go.
        #expect(ring.oldestStep == 30 && ring.count == 8 && ring.bytes == 800)
        #expect(ring.newest(atOrBefore: 47)?.step == 40 && ring.newest(atOrBefore: 29) == nil)
        ring.fit(bytes: 350, keepingAtOrBefore: 60)
        #expect(ring.oldestStep == 60 && ring.bytes == 500, "a state a pending rewind needs stays, whatever the bytes")
        ring.fit(bytes: 350, keepingAtOrBefore: .max)
        #expect(ring.count == 3 && ring.bytes == 300 && ring.oldestStep == 80)
        ring.dropNewer(than: 85)
        #expect(ring.count == 1 && ring.newest(atOrBefore: .max)?.step == 80)
        ring.append(Self.state(90, bytes: 100))
        ring.fit(bytes: 0, keepingAtOrBefore: .max)
        #expect(ring.count == 1, "the newest state always stays")
    }

    /// Rewinds are taken at most one per `minimumRestartInterval`; a later request replaces a
    /// waiting one; a rewind stops stepping on to its target when the run is asked to stop (a
    /// flood of 1,700 rewinds a second starved another page's frames and delayed Ctrl-C: audit
    /// round 4, finding 13).
    @Test(.needsSavedStates(World.canSaveState)) func rewindsAreRateLimitedAndStopWithTheRun() throws {
        let world = try World(scene: Repository.scene("book"))
        let control = LiveControl()
        let history = try LiveHistory(inputs: RunInputs(world: world), control: control, stepRate: 120,
                                      settings: LiveHistory.Settings(seconds: 2, interval: 60))
        Self.step(StepPipeline(world: world, stages: [(.input, history)]), 200)
        let start = ContinuousClock.now
        #expect(control.rewind(toStep: 150) == nil && control.takeRewind(now: start) == 150)
        #expect(control.rewind(toStep: 140) == nil && control.rewind(toStep: 130) == nil)
        #expect(control.takeRewind(now: start + .milliseconds(100)) == nil, "too soon after the last")
        #expect(control.takeRewind(now: start + LiveControl.minimumRestartInterval) == 130, "the newest request, once the interval is over")
        #expect(control.takeRewind(now: start + .seconds(10)) == nil, "nothing left waiting")
        // A stop request ends the steps on to the target: back at the kept state, not at 179.
        var checks = 0
        try history.rewind(to: 179) {
            checks += 1
            return checks > 5
        }
        #expect(world.stepCount == 125, "the kept state at 120 and the five steps taken before the stop")
    }

    /// Steps a world through a pipeline holding only the history, `steps` times.
    static func step(_ pipeline: StepPipeline, _ steps: Int) {
        for _ in 0..<steps {
            #expect(pipeline.prepareStep())
            pipeline.step()
        }
    }

    @Test func theHistoryKeepsItsSpanAndItsBytesAndRefusesWhatIsOutside() throws {
        let world = try World(scene: Repository.scene("book"))
        let control = LiveControl()
        let settings = LiveHistory.Settings(seconds: 1, interval: 10)
        guard World.canSaveState else {
            #expect(throws: StateError.unsupportedBackend) { try LiveHistory(inputs: RunInputs(world: world), control: control, stepRate: 120, settings: settings) }
            return
        }
        let history = try LiveHistory(inputs: RunInputs(world: world), control: control, stepRate: 120, settings: settings)
        let pipeline = StepPipeline(world: world, stages: [(.input, history)])
        Self.step(pipeline, 500)
        // One second at 120 steps/s: steps 380...500, from the states at 380, 390, ..., 500.
        #expect(history.span == 380...500 && history.statesKept == 13)
        #expect(control.rewindState == RewindState(earliest: 380, latest: 500, rewinds: 0))
        #expect(control.rewind(toStep: 379) == .outside(step: 379, RewindState(earliest: 380, latest: 500, rewinds: 0)))
        #expect(control.rewind(toStep: 501) != nil && control.takeRewind() == nil, "a refused rewind is not kept")
        #expect(throws: RewindRefusal.self) { try history.rewind(to: 370) }
        #expect(world.stepCount == 500, "a refused rewind changes nothing")

        // Past the byte limit the oldest go, and the span shortens.
        let limit = 7 * history.bytesKept / history.statesKept / 2
        let leanWorld = try World(scene: Repository.scene("book"))
        let leanHistory = try LiveHistory(inputs: RunInputs(world: leanWorld), control: LiveControl(), stepRate: 120,
                                          settings: LiveHistory.Settings(seconds: 30, interval: 10, maxBytes: limit))
        Self.step(StepPipeline(world: leanWorld, stages: [(.input, leanHistory)]), 200)
        let kept = leanHistory.statesKept
        #expect(leanHistory.bytesKept <= limit && (2..<21).contains(kept) && leanHistory.span == (200 - 10 * (kept - 1))...200,
                "\(kept) states, \(leanHistory.bytesKept) bytes of \(limit), \(leanHistory.span)")
    }

    /// A rewind steps on from the kept state before its target under the gravity each step had:
    /// the world it gives is the one the run had, bit for bit, and going forward again while the
    /// run stands still gives the newer states back.
    @Test(.needsSavedStates(World.canSaveState)) func aRewindGivesBackTheWorldTheRunHadAtThatStep() throws {
        let world = try World(scene: Repository.scene("pile-100"))
        let control = LiveControl()
        let inputs = RunInputs(world: world)
        let history = try LiveHistory(inputs: inputs, control: control, stepRate: world.stepRate,
                                      settings: LiveHistory.Settings(seconds: 30))
        let pipeline = StepPipeline(world: world, stages: [(.input, history)])
        var seen: [Int: WorldSnapshot] = [:]
        for step in 0..<300 {
            // Gravity changes between kept states, applied as the run applies inputs: the rewind
            // must step under each one.
            if step == 70 || step == 131 { try inputs.apply(.gravity(Vec2(step == 70 ? 400 : -250, -800))) }
            // So do pages' pushes, and a force held across a kept state.
            if step == 95 { try inputs.apply(.body(BodyID(17), .impulse(Vec2(0, 300), at: nil))) }
            if step == 118 { try inputs.apply(.body(BodyID(40), .hold(force: Vec2(5000, 0), at: nil, torque: 0, steps: 20))) }
            Self.step(pipeline, 1)
            seen[world.stepCount] = world.snapshot()
        }
        for target in [137, 96, 95, 130, 71, 60, 299, 200, 1] {
            try history.rewind(to: target)
            #expect(world.stepCount == target && world.snapshot() == seen[target], "at \(target)")
        }
        #expect(history.rewinds == 9 && control.rewindState?.latest == 300)
        // Stepping on from step 1 is a branch: what came after it is gone.
        Self.step(pipeline, 1)
        #expect(history.span == 0...2 && history.statesKept == 1)
    }

    /// What the live test's pages do, frame by frame, on the run's thread.
    final class Script: @unchecked Sendable {
        let control: LiveControl
        var seen: [Int: StateHash] = [:]
        var phase = 0
        var target = 0, forward = 0
        var checks: [(String, Bool)] = []
        var done = false

        init(control: LiveControl) { self.control = control }

        func frame(_ frame: LiveFrameState) {
            let step = frame.snapshot.step
            switch phase {
            case 0:
                seen[step] = frame.hash
                if step >= 40, control.rewindState?.latest ?? 0 >= 40, seen.count > 3, frame.rewind != nil {
                    control.tilt(Vec2(350, -700))
                    phase = 1
                }
            case 1:
                seen[step] = frame.hash
                if step >= 260 {
                    control.pause()
                    phase = 2
                }
            case 2:
                // Paused: the step stands still. Back to a step seen while running (not a kept state's).
                seen[step] = frame.hash
                guard control.isPaused, frame.snapshot.step == seen.keys.max() else { return }
                target = seen.keys.filter { $0 > 100 && $0 % 60 != 0 }.min()!
                forward = seen.keys.filter { $0 > target + 30 && $0 < step }.min()!
                checks.append(("rewind accepted", control.rewind(toStep: target) == nil))
                checks.append(("a step not kept is refused", control.rewind(toStep: step + 1) != nil))
                phase = 3
            case 3:
                guard step != seen.keys.max() else { return }
                checks.append(("back at \(target): \(step) \(frame.hash) \(seen[target]!)", step == target && frame.hash == seen[target]))
                checks.append(("the span still reaches the newest step", frame.rewind?.latest == seen.keys.max() && frame.rewind?.rewinds == 1))
                // Forward again, while the run stands still: the old line is still there.
                _ = control.rewind(toStep: forward)
                phase = 4
            case 4:
                guard step == forward else { return }
                checks.append(("forward at \(forward)", frame.hash == seen[forward]))
                _ = control.rewind(toStep: target)
                phase = 5
            case 5:
                guard step == target else { return }
                // Branch here: a tilt, then the run goes on.
                control.tilt(Vec2(-500, -500))
                control.resume()
                phase = 6
            case 6:
                if step >= target + 120 {
                    checks.append(("the branch's newest step is its own", frame.rewind?.latest == step))
                    done = true
                }
            default: break
            }
        }
    }

    /// Through the engine on the live clock, as `serve` runs it: a rewind at a frame boundary
    /// while paused gives back the frame the run showed at that step, forward and back again;
    /// the run then branches, and its record (cut back at the branch) verifies with
    /// `cratedrop replay --verify`.
    @Test(.timeLimit(.minutes(3)))
    func aRewoundLiveRunBranchesAndItsRecordReplaysBitForBit() throws {
        let control = LiveControl()
        let scenePath = "Scenes/book.json"
        let scene = try Repository.scene("book")
        let text = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Repository.path(scenePath))))
        let record = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-\(UUID().uuidString).rec").path
        defer { try? FileManager.default.removeItem(atPath: record) }
        var plan = RunPlan(start: .scene(scene, file: scenePath, text: text), length: .never, clock: .live(fps: 240, control: control))
        plan.gravity = .init(.live(control))
        plan.recordPath = record
        let branches = Mutex(0)
        plan.rewind = LiveHistory.Settings(onBranch: { branches.withLock { $0 += 1 } })
        guard World.canSaveState else {
            #expect(throws: RunSetupError.self) { try RunEngine(plan: plan) }
            #expect(!FileManager.default.fileExists(atPath: record), "refused before the record is made")
            return
        }
        let script = Script(control: control)
        plan.liveFrames = { script.frame($0) }
        let outcome = try RunEngine(plan: plan).run(shouldStop: { script.done })
        for (what, passed) in script.checks { #expect(passed, "\(what)") }
        #expect(script.done && branches.withLock { $0 } == 1)
        let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
        let gravity = lines.filter { $0.contains("\"gravity\"") && !$0.contains("\"scene\"") }
        #expect(gravity.count == 2 && gravity[1].hasPrefix("{\"step\":\(script.target),"), "the first branch's future is gone: \(gravity)")
        let replay = try CLI.run(["replay", record, "--verify"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let hash = try CLI.run(["hash", scenePath, "--gravity", record, "--steps", String(outcome.result.finalSnapshot.step)])
        #expect(hash.stdout.split(separator: " ").last.map(String.init) == outcome.result.stateHash.description + "\n")
    }
}
