import FileIO
import LiveProtocol
import Physics
import SceneModel
import Session
import Synchronization

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
    package var rewind: RewindState? { state.rewind }

    package init(state: LiveFrameState, generation: Int) {
        self.state = state
        self.generation = generation
    }

    package init(snapshot: WorldSnapshot, hash: StateHash, stepMicroseconds: Double, physicsLoad: Double, droppedSeconds: Double,
                paused: Bool, rewind: RewindState? = nil, generation: Int) {
        self.init(state: LiveFrameState(snapshot: snapshot, hash: hash, stepMicroseconds: stepMicroseconds, physicsLoad: physicsLoad,
                                        droppedSeconds: droppedSeconds, paused: paused, rewind: rewind),
                  generation: generation)
    }
}

/// The scene run live (`cratedrop serve`): the one run engine on the live clock (the wall clock
/// with the death-spiral guard, paused and stepped by pages), gravity from pages as its input,
/// recorded with their steps. A restart ends the run at a frame boundary and starts the scene
/// again, with a new record. Where saved states work, the run keeps its last 30 s
/// (`LiveHistory`) and pages may rewind it; the record then follows the branch the run is on.
/// `run` blocks its thread; `post` may be called from any thread.
package final class LiveRun: Sendable {
    /// The scene, checked once when it was read: every world of the run is built without checking it again.
    private let checkedScene: CheckedScene
    package var scene: Scene { checkedScene.scene }
    private let sceneText: [UInt8]
    private let sceneFile: String
    /// Where the record of the current world is written.
    package let recordPath: String
    private let control = LiveControl()
    /// Each body's mass by id − 1 (nil: kinematic), to turn a page's push into an impulse.
    private let masses: [Double?]
    /// Whether pages may rewind this run, or why not.
    package let rewind: Rewind
    /// The state of the world `init` was given, saved to check rewinds on it, and which world it
    /// was: the first run's set-up and history take it rather than save that world again.
    private let checkedState: (world: ObjectIdentifier, state: WorldState)?
    private let history: LiveHistory.Settings?
    /// Counts up each time the record is cut back or started again, so a download under way can
    /// tell that the file it reads is no longer the one it began.
    private let recordEpoch = RecordEpoch()
    /// The parts of the scene's world, as the scene message describes them: what a page knows
    /// when it connects, and what a world that has not changed (or was restarted) is made of.
    package let baseParts: LiveParts
    /// What a page's click on empty space drops.
    package let drop: DropTemplate
    /// Crates dropped so far (the palette is dealt out in turn).
    private let dropsMade = Mutex(0)
    /// The bodies of the newest frame, ascending id (nil before the first): which bodies a
    /// page may push, grab or remove now.
    /// With the bodies, their masses once the world has changed (`WorldParts.masses`): spawned and
    /// dropped crates have their own.
    private let present = Mutex<(bodies: [BodyState], changedMasses: [BodyID: Double]?)?>(nil)
    /// Structural changes pages may still make at once, and when the last was taken.
    private let changeAllowance = Mutex<(count: Double, last: ContinuousClock.Instant?)>((LiveRun.changesPerSecond, nil))

    /// Structural changes (drops and removals) pages may make, on average, a second, in bursts of
    /// up to as many: each drop is a body the world keeps stepping, so a page sending a thousand
    /// drops a second must not fill the world in a minute.
    package static let changesPerSecond = 10.0
    /// Bodies pages may add beyond the scene's: a drop is refused while the world holds this many
    /// more bodies than the scene makes.
    package static let maximumDroppedBodies = 1000

    /// Whether a live run can be rewound.
    package typealias Rewind = RewindOffer

    /// - Parameter history: how much past to keep for rewinds; nil: the default (30 s). Used only
    ///   where saved states work (the portable backend, a scene they cover) and the record is a
    ///   file that can be cut back; `rewind` says which.
    /// - Parameter world: the scene's world, built and not yet stepped, to check rewinds on (the
    ///   one the first run then steps, `run(fps:firstWorld:...)`); nil: one is built to check.
    package init(checked: CheckedScene, sceneText: [UInt8], sceneFile: String, recordPath: String, history: LiveHistory.Settings? = nil,
                 world: World? = nil) {
        let scene = checked.scene
        checkedScene = checked
        self.sceneText = sceneText
        self.sceneFile = sceneFile
        self.recordPath = recordPath
        masses = scene.allCrates().map { $0.bodyType == .dynamic ? $0.mass : nil }
        drop = DropTemplate(scene: scene)
        let built = world ?? (try? World(checked: checked))
        baseParts = built.map { LiveParts(world: $0, scene: scene) } ?? LiveParts(version: 0, bodies: [], walls: [], joints: [])
        var settings = history ?? LiveHistory.Settings()
        let availability = Self.rewindAvailability(scene: checked, world: built, recordPath: recordPath, seconds: settings.seconds)
        rewind = availability.rewind
        checkedState = world.flatMap { given in availability.state.map { (ObjectIdentifier(given), $0) } }
        if case .available = rewind {
            settings.onBranch = { [recordEpoch] in recordEpoch.advance() }
            self.history = settings
        } else {
            self.history = nil
        }
    }

    /// Whether this scene's world can be saved here, and its record cut back.
    /// A run of `scene`, checked here.
    package convenience init(scene: Scene, sceneText: [UInt8], sceneFile: String, recordPath: String,
                             history: LiveHistory.Settings? = nil) throws(SceneProblems) {
        self.init(checked: try CheckedScene(scene), sceneText: sceneText, sceneFile: sceneFile, recordPath: recordPath, history: history)
    }

    /// Whether `world` (or the scene's, built here) can be saved and the record cut back, with
    /// the state the trial save gave.
    private static func rewindAvailability(scene: CheckedScene, world: World?, recordPath: String,
                                           seconds: Int) -> (rewind: Rewind, state: WorldState?) {
        switch FileDescriptorIO.kind(of: recordPath) {
        case .regular, .missing: break
        default: return (.unavailable("the record (\(recordPath)) is not a regular file, and a branch cuts the record back"), nil)
        }
        let state: WorldState
        do {
            state = try (world ?? World(checked: scene)).saveState()
        } catch let error as StateError {
            return (.unavailable("rewind keeps saved states, and \(error)"), nil)
        } catch {
            return (.unavailable("rewind keeps saved states, and this world cannot be made: \(error)"), nil)
        }
        return (.available(seconds: seconds), state)
    }

    /// Hands a page's command to the run.
    /// - Returns: nil when taken, else why the run refuses it (a rewind outside the kept span,
    ///   or on a run that cannot rewind); nothing changes then.
    package func post(_ command: LiveCommand) -> String? {
        switch command {
        case let .gravity(gravity): control.tilt(gravity)
        case .pause: control.pause()
        case .resume: control.resume()
        case .step: control.step()
        case .restart: control.restart()
        case let .rewind(step):
            if case let .unavailable(reason) = rewind { return "cannot rewind: \(reason)" }
            if let refusal = control.rewind(toStep: step) { return "cannot rewind: \(refusal)" }
        case let .push(body, velocity, at):
            // A change of velocity, turned into the impulse that gives it (at the body's centre).
            let mass: Double
            switch dynamicMass(of: body) {
            case let .success(found): mass = found
            case let .failure(refusal): return "cannot push: \(refusal.reason)"
            }
            let impulse = velocity * mass
            if let problem = BodyInput.impulse(impulse, at: at).problems().first { return "cannot push: \(problem)" }
            if !control.push(body: body, impulse: impulse, at: at) { return "cannot push: \(LiveControl.maximumPendingPushes) pushes are waiting" }
        case let .grab(body, at):
            if case let .failure(refusal) = dynamicMass(of: body) { return "cannot grab: \(refusal.reason)" }
            if !control.post(.grab(at: at, maxForce: nil), to: body) { return "cannot grab: \(LiveControl.maximumPendingPushes) inputs are waiting" }
        case let .dragTo(body, at):
            if !control.post(.dragTo(at), to: body) { return "cannot drag: \(LiveControl.maximumPendingPushes) inputs are waiting" }
        case let .release(body):
            if !control.post(.release, to: body) { return "cannot release: \(LiveControl.maximumPendingPushes) inputs are waiting" }
        case let .drop(at):
            return postDrop(at: at).map { "cannot drop: \($0)" }
        case let .remove(body):
            if case let .failure(refusal) = presence(of: body) { return "cannot remove: \(refusal.reason)" }
            if !takeChange() { return "cannot remove: \(Self.changesRefusal)" }
            if !control.post(.removeBody(body)) { return "cannot remove: \(LiveControl.maximumPendingPushes) inputs are waiting" }
        }
        return nil
    }

    private static var changesRefusal: String { "pages may change the world at most \(Int(changesPerSecond)) times a second" }

    /// A crate of `drop`'s making at `at`, posted to the run; else why not.
    private func postDrop(at: Vec2) -> String? {
        let size = scene.worldSize
        guard (0...size.x).contains(at.x), (0...size.y).contains(at.y) else {
            return "(\(at.x), \(at.y)) is outside the world, 0...\(size.x) × 0...\(size.y)"
        }
        if let count = present.withLock({ $0?.bodies.count }), count >= masses.count + Self.maximumDroppedBodies {
            return "the world holds \(count) bodies: pages may add at most \(Self.maximumDroppedBodies) to the scene's \(masses.count)"
        }
        return dropsMade.withLock { made -> String? in
            let spec = drop.spec(at: at, index: made)
            // The template keeps within the limits; checked all the same, as an input line is.
            if let problem = StructuralChange.addCrate(spec).problems().first { return "\(problem)" }
            if !takeChange() { return Self.changesRefusal }
            if !control.post(.addCrate(spec)) { return "\(LiveControl.maximumPendingPushes) inputs are waiting" }
            made += 1
            return nil
        }
    }

    /// Takes one of the structural changes pages may make now (`changesPerSecond`).
    private func takeChange(now: ContinuousClock.Instant = .now) -> Bool {
        changeAllowance.withLock { allowance in
            if let last = allowance.last {
                let elapsed = now - last
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                allowance.count = min(Self.changesPerSecond, allowance.count + seconds * Self.changesPerSecond)
            }
            allowance.last = now
            guard allowance.count >= 1 else { return false }
            allowance.count -= 1
            return true
        }
    }

    /// Why a page cannot push, grab or remove `body`: not in the scene, or kinematic.
    private struct BodyRefusal: Error {
        var reason: String
    }

    /// Whether `body` is in the world as the newest frame shows it (before the first frame: a
    /// body of the scene), or why not.
    private func presence(of body: BodyID) -> Result<Void, BodyRefusal> {
        guard let bodies = present.withLock({ $0?.bodies }) else {
            guard body.rawValue >= 1, body.rawValue <= UInt64(masses.count) else {
                return .failure(BodyRefusal(reason: "body \(body) is not in the scene (its bodies are 1...\(masses.count))"))
            }
            return .success(())
        }
        // Ascending id: a binary search.
        var low = 0, high = bodies.count
        while low < high {
            let middle = (low + high) / 2
            if bodies[middle].id < body { low = middle + 1 } else { high = middle }
        }
        if low < bodies.count, bodies[low].id == body { return .success(()) }
        return .failure(BodyRefusal(reason: body.rawValue >= 1 && body.rawValue <= UInt64(masses.count)
            ? "body \(body) is not in the world any more (it was removed)"
            : "body \(body) is not in the scene (its bodies are 1...\(masses.count)) nor among the crates pages dropped and left in the world"))
    }

    /// The mass of `body`, a dynamic body in the world, or why a page cannot push or grab it: the
    /// scene's, or once the world has changed, the one its newest frame gives (a spawned crate's
    /// own, a drop's).
    private func dynamicMass(of body: BodyID) -> Result<Double, BodyRefusal> {
        if case let .failure(refusal) = presence(of: body) { return .failure(refusal) }
        let mass = present.withLock { $0?.changedMasses }.map { $0[body] }
            ?? (body.rawValue <= UInt64(masses.count) ? masses[Int(body.rawValue) - 1] : nil)
        guard let mass else { return .failure(BodyRefusal(reason: "body \(body) is kinematic")) }
        return .success(mass)
    }

    /// The record so far, to be streamed: its complete lines (the run flushes it every frame), or
    /// nil if it cannot be read.
    func openRecord() -> RecordDownload? {
        RecordDownload(path: recordPath, epoch: recordEpoch)
    }

    /// The plan of one world's run.
    private func plan(fps: Int, generation: Int, onFrame: @escaping @Sendable (LiveFrame) -> Void) -> RunPlan {
        var plan = RunPlan(start: .scene(checkedScene, file: sceneFile, text: sceneText), length: .never, clock: .live(fps: fps, control: control))
        // A page's drag that the world no longer has (a move after a restart or a rewind took the
        // grab away) is skipped with a warning, not the end of the run.
        plan.gravity = RunPlan.GravityInputPlan(.live(control), badLines: .skip)
        plan.recordPath = recordPath
        plan.rewind = history
        plan.liveFrames = { state in
            self.present.withLock { $0 = (state.snapshot.bodies, state.snapshot.parts?.masses) }
            onFrame(LiveFrame(state: state, generation: generation))
        }
        return plan
    }

    /// Runs until `shouldStop` says so, starting over at each restart; `onFrame` sees every frame
    /// (on this thread).
    /// - Parameter onWarning: told of a body leaving the world (once a world) and a rewind that failed.
    /// - Returns: the last run's outcome (its record finished).
    /// - Throws: `RunSetupError` when the world or the record cannot be set up.
    /// - Parameter firstWorld: the scene's world, built and not yet stepped, for the first run (the
    ///   one the scene message pages get was drawn from); nil: the run builds its own.
    package func run(fps: Int, firstWorld: World? = nil, shouldStop: @escaping @Sendable () -> Bool,
                     onWarning: @escaping @Sendable (String) -> Void = { _ in },
                     onFrame: @escaping @Sendable (LiveFrame) -> Void) throws(RunSetupError) -> RunOutcome {
        var generation = 0
        while true {
            // A new record replaces the file: a download of the last one must not read into it.
            if generation > 0 { recordEpoch.advance() }
            let plan = plan(fps: fps, generation: generation, onFrame: onFrame)
            let engine = if generation == 0, let firstWorld {
                // The world rewinds were checked on, saved then: not saved again.
                try RunEngine(plan: plan, freshWorld: firstWorld,
                              freshState: checkedState.flatMap { $0.world == ObjectIdentifier(firstWorld) ? $0.state : nil },
                              shouldStop: shouldStop, onWarning: onWarning)
            } else {
                try RunEngine(plan: plan, shouldStop: shouldStop, onWarning: onWarning)
            }
            control.beginRun()
            let outcome = engine.run(shouldStop: shouldStop)
            guard outcome.stop == .restart, outcome.recordFailure == nil else { return outcome }
            generation += 1
        }
    }
}
