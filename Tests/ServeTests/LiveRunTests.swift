#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Physics
import SceneFile
import SceneModel
@testable import Serve
import Session
import Synchronization
import TestSupport
import Testing

/// `LiveRun`'s rewind, as pages reach it: offered only where saved states work and the record can
/// be cut back, refused with a reason otherwise, and a download under way when the record is cut
/// back (a branch) is cut off rather than mixing the two branches.
@Suite struct LiveRunTests {
    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)-\(name)").path
    }

    static func live(record: String) throws -> LiveRun {
        let text = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Repository.path("Scenes/book.json"))))
        return try LiveRun(scene: try Repository.scene("book"), sceneText: text, sceneFile: "Scenes/book.json", recordPath: record)
    }

    @Test func rewindIsOfferedOnlyWhereStatesCanBeSavedAndOtherwiseRefusedWithTheReason() throws {
        let live = try Self.live(record: Self.temporary("a.rec"))
        guard World.canSaveState else {
            guard case let .unavailable(reason) = live.rewind else {
                Issue.record("rewind offered on Debian's library")
                return
            }
            #expect(reason.contains("portable physics backend"))
            #expect(live.post(.rewind(step: 0)) == "cannot rewind: \(reason)")
            return
        }
        #expect(live.rewind == .available(seconds: 30))
        // Before the run has begun it keeps nothing yet.
        #expect(live.post(.rewind(step: 0)) == "cannot rewind: this run keeps no history to rewind")
        #expect(live.post(.pause) == nil)
    }

    /// Serve builds one world: the scene message is drawn from it, rewinds are checked on it, and
    /// the first run steps that very world.
    @Test(.timeLimit(.minutes(3))) func theFirstRunStepsTheWorldItWasGiven() throws {
        let scene = try Repository.scene("book")
        let world = try World(scene: scene)
        let text = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Repository.path("Scenes/book.json"))))
        let record = Self.temporary("first.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        let live = LiveRun(checked: try CheckedScene(scene), sceneText: text, sceneFile: "Scenes/book.json", recordPath: record, world: world)
        let frames = Atomic<Int>(0)
        let outcome = try live.run(fps: 240, firstWorld: world, shouldStop: { frames.load(ordering: .relaxed) >= 5 }) { _ in
            frames.add(1, ordering: .relaxed)
        }
        #expect(world.stepCount > 0 && world.stepCount == outcome.result.finalSnapshot.step)
    }

    /// Serve saves its world once as it starts (issue 49): the save that checks rewinds work on
    /// it is also the run's trial save and its history's first state (it was saved three times).
    @Test(.timeLimit(.minutes(3)), .needsSavedStates(World.canSaveState)) func serveSavesItsWorldOnceAsItStarts() throws {
        let scene = try Repository.scene("book")
        let world = try World(scene: scene)
        let text = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Repository.path("Scenes/book.json"))))
        let record = Self.temporary("once.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        // States kept far apart: a save while the run steps would be the history's, not the start's.
        let live = LiveRun(checked: try CheckedScene(scene), sceneText: text, sceneFile: "Scenes/book.json", recordPath: record,
                           history: LiveHistory.Settings(seconds: 30, interval: 1_000_000), world: world)
        #expect(live.rewind == .available(seconds: 30) && world.statesSaved == 1)
        let frames = Atomic<Int>(0)
        let outcome = try live.run(fps: 240, firstWorld: world, shouldStop: { frames.load(ordering: .relaxed) >= 5 }) { _ in
            frames.add(1, ordering: .relaxed)
        }
        #expect(outcome.result.finalSnapshot.step > 0 && outcome.recordFailure == nil)
        #expect(world.statesSaved == 1, "saved \(world.statesSaved) times")
    }

    @Test func aPushOrGrabNamingNoBodyOrAKinematicOneIsRefused() throws {
        let live = try Self.live(record: Self.temporary("push.rec"))
        #expect(live.post(.push(body: BodyID(99), velocity: Vec2(0, 1), at: .zero)) == "cannot push: body 99 is not in the scene (its bodies are 1...5)")
        #expect(live.post(.push(body: BodyID(2), velocity: Vec2(0, 1), at: Vec2(10, 10))) == nil)
        for _ in 1..<LiveControl.maximumPendingPushes { _ = live.post(.push(body: BodyID(2), velocity: Vec2(0, 1), at: Vec2(10, 10))) }
        #expect(live.post(.push(body: BodyID(2), velocity: Vec2(0, 1), at: Vec2(10, 10))) == "cannot push: 16 pushes are waiting")
        #expect(live.post(.grab(body: BodyID(99), at: .zero)) == "cannot grab: body 99 is not in the scene (its bodies are 1...5)")
        #expect(live.post(.grab(body: BodyID(2), at: .zero)) == "cannot grab: 16 inputs are waiting")
    }

    /// A world saved states do not cover (sleeping bodies) keeps no history: rewind is off with
    /// the reason, and a plan asking for one anyway is refused before its record is made.
    @Test func aSceneWithSleepingBodiesTurnsRewindOff() throws {
        var text = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Repository.path("Scenes/book.json"))))
        text.insert(contentsOf: Array(#""sleep_time": 0.5, "#.utf8), at: text.firstIndex(of: UInt8(ascii: "{"))! + 1)
        let scene = try SceneLoader.parse(text, file: "sleepy.json")
        let record = Self.temporary("sleepy.rec")
        let live = try LiveRun(scene: scene, sceneText: text, sceneFile: "sleepy.json", recordPath: record)
        guard case let .unavailable(reason) = live.rewind else {
            Issue.record("rewind offered for sleeping bodies")
            return
        }
        #expect(reason.contains(World.canSaveState ? "sleeping bodies (sleep_time)" : "portable physics backend"), "\(reason)")
        var plan = RunPlan(start: .scene(scene, file: "sleepy.json", text: text), length: .never, clock: .live(fps: 60, control: LiveControl()))
        plan.recordPath = record
        plan.rewind = LiveHistory.Settings()
        #expect(throws: RunSetupError.self) { try RunEngine(plan: plan) }
        #expect(!FileManager.default.fileExists(atPath: record))
    }

    /// A record that goes to a named pipe cannot be cut back at a branch: no rewind there.
    @Test func aRecordThatIsNotARegularFileTurnsRewindOff() throws {
        let fifo = Self.temporary("pipe")
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let live = try Self.live(record: fifo)
        guard case let .unavailable(reason) = live.rewind else {
            Issue.record("rewind offered with a record to a pipe")
            return
        }
        #expect(reason.contains("is not a regular file") || !World.canSaveState)
    }

    /// A pause a page asks for shows in the run's next frame, which takes no step, and a resume
    /// in the frame after it: the paused flag goes out with every frame, also with those that take
    /// no step (a page turns its pause button to "resume" on that flag; the browser test waits for it).
    @Test(.timeLimit(.minutes(3)))
    func aPauseAndAResumeShowInTheNextFrame() async throws {
        let record = Self.temporary("p.rec")
        defer { unlink(record) }
        let live = try Self.live(record: record)
        let frames = Mutex<[LiveFrame]>([])
        // Asked for from the run's thread right after frames 10 and 14, as a page's message
        // would be taken between two frames.
        let (pauseAfter, resumeAfter) = (10, 14)
        let outcome = await withCheckedContinuation { (done: CheckedContinuation<RunOutcome?, Never>) in
            Thread {
                let run = try? live.run(fps: 240, shouldStop: {
                    // Until the resumed run has stepped on from where it stood.
                    frames.withLock { $0.count > resumeAfter && $0.last!.snapshot.step > $0[pauseAfter - 1].snapshot.step }
                }) { frame in
                    let count = frames.withLock { $0.append(frame); return $0.count }
                    if count == pauseAfter { _ = live.post(.pause) }
                    if count == resumeAfter { _ = live.post(.resume) }
                }
                done.resume(returning: run)
            }.start()
        }
        #expect(outcome != nil)
        let seen = frames.withLock { $0 }
        let stoodAt = seen[pauseAfter - 1].snapshot.step
        #expect(!seen[pauseAfter - 1].paused)
        for frame in seen[pauseAfter..<resumeAfter] {
            #expect(frame.paused && frame.snapshot.step == stoodAt, "a frame after the pause: paused \(frame.paused), step \(frame.snapshot.step)")
        }
        #expect(!seen[resumeAfter].paused)
    }

    /// What the test's page does on the run's thread, frame by frame.
    final class Page: @unchecked Sendable {
        let live: LiveRun
        var phase = 0
        var download: RecordDownload?
        var target = 0
        var refusal: String?
        var frames: [LiveFrame] = []
        var done = false

        init(live: LiveRun) { self.live = live }

        func frame(_ frame: LiveFrame) {
            frames.append(frame)
            let step = frame.snapshot.step
            switch phase {
            case 0 where step >= 200:
                _ = live.post(.pause)
                phase = 1
            case 1 where frame.paused && frames.dropLast().last?.snapshot.step == step:
                download = live.openRecord()
                target = step - 90
                refusal = live.post(.rewind(step: step + 10))
                _ = live.post(.rewind(step: target))
                phase = 2
            case 2 where step == target:
                _ = live.post(.resume)
                phase = 3
            case 3 where step >= target + 30:
                done = true
            default: break
            }
        }
    }

    @Test(.needsSavedStates(World.canSaveState), .timeLimit(.minutes(3)))
    func aBranchCutsOffADownloadUnderWayAndTheNextDownloadIsTheNewBranch() async throws {
        let record = Self.temporary("b.rec")
        defer { unlink(record) }
        let live = try Self.live(record: record)
        let page = Page(live: live)
        // The run blocks its thread, as in `serve`.
        let outcome = await withCheckedContinuation { (done: CheckedContinuation<RunOutcome?, Never>) in
            Thread { done.resume(returning: try? live.run(fps: 240, shouldStop: { page.done }) { page.frame($0) }) }.start()
        }
        let result = try #require(outcome)
        #expect(page.done && result.recordFailure == nil)
        #expect(page.refusal?.hasPrefix("cannot rewind: step ") == true, "\(page.refusal ?? "")")
        // Every frame after the rewind was taken says so; the span's newest step went back at the branch.
        let rewound = try #require(page.frames.firstIndex { $0.rewind?.rewinds == 1 })
        #expect(page.frames[rewound].snapshot.step == page.target)
        #expect(page.frames.last?.rewind?.latest == page.frames.last?.snapshot.step)
        let old = try #require(page.download)
        await #expect(throws: RecordDownload.Truncated.self) { _ = try await old.chunk(at: 0) }
        let fresh = try #require(live.openRecord())
        let chunk = try await fresh.chunk(at: 0)
        #expect(Int64(chunk.readableBytes) == fresh.length && fresh.isCurrent)
    }
}
