import Driver
import Physics
import SceneModel
import Script

/// The recent past of a live run, kept so pages can rewind it and branch (`cratedrop serve`,
/// docs/serve.md "Rewind and branch"). A stage at the head of the pipeline (before the gravity
/// input) that keeps:
/// - the world's saved state every `interval` steps (`StateRing`), back to `seconds` of simulated
///   time before the newest step, and within `maxBytes`;
/// - the gravity each of those steps was taken under (its changes);
/// - the record's length after each of those steps.
///
/// A rewind to step T (`rewind(to:)`, at a frame boundary) restores the newest state at or
/// before T and steps on to T under the gravity each step had: exactly the world the run had
/// after T steps. Nothing is dropped yet, so while the run stands still another rewind may go
/// forward again, up to the newest step. The first step after a rewind makes the branch: the
/// history after T is dropped and the record is cut back to its length after T steps, then the
/// run writes on, so the record is always the history of the current branch from step 0 and
/// replays bit for bit.
///
/// Owns nothing of Chipmunk's but uses the world: not `Sendable`; the run's thread only.
public final class LiveHistory: StepStage {
    /// How much past a live run keeps.
    public struct Settings: Sendable {
        /// Simulated seconds before the newest step that a rewind can reach.
        public var seconds: Int
        /// Steps between kept states; nil: half a second's steps (a rewind steps at most
        /// this many minus one steps on from the state it restores).
        public var interval: Int?
        /// The most bytes of kept states; past it the oldest go, and the span shortens.
        public var maxBytes: Int
        /// Told on the run's thread just before a branch cuts the record back (a download of
        /// the record under way must not mix the two branches).
        public var onBranch: @Sendable () -> Void

        public init(seconds: Int = 30, interval: Int? = nil, maxBytes: Int = 128 << 20, onBranch: @escaping @Sendable () -> Void = {}) {
            precondition(seconds >= 0 && (interval ?? 1) >= 1 && maxBytes >= 0, "a history keeps a span of 0 s or more, states at least 1 step apart")
            self.seconds = seconds
            self.interval = interval
            self.maxBytes = maxBytes
            self.onBranch = onBranch
        }

        /// The interval at `stepRate`: `interval`, or half a second's steps (at least 1).
        public func interval(atRate stepRate: Int) -> Int { interval ?? max(1, stepRate / 2) }
    }

    private let world: World
    private let control: LiveControl
    private let recorder: RunRecorder?
    private let settings: Settings
    private let spanSteps: Int
    private let interval: Int
    private var ring: StateRing
    /// Gravity changes from the oldest kept state on: the gravity step `step` (counted from 0)
    /// was taken under, where it differed from the step before.
    private var gravityChanges: [(step: Int, gravity: Vec2)] = []
    /// Bodies' inputs (a page's pushes) and structural changes from the oldest kept state on,
    /// with the step (counted from 0) they were applied before.
    private var bodyInputs: [(step: Int, action: InputAction)] = []
    /// The gravity the newest step was taken under.
    private var lastGravity: Vec2
    /// The record's length after each step from the oldest kept state's on.
    private var recordLengths: [Int64] = []
    private var recordLengthsFrom: Int
    /// The newest step reached; after a rewind, until the run steps again, the world is behind it.
    public private(set) var newestStep: Int
    /// Rewinds done so far.
    public private(set) var rewinds = 0
    private let onWarning: (String) -> Void
    /// Ends a rewind's steps early: the run is ending.
    private let shouldStop: () -> Bool

    /// Keeps the world's state now as the history's first.
    /// - Throws: `StateError` when the world cannot be saved (Debian's library, sleeping bodies).
    public init(world: World, control: LiveControl, recorder: RunRecorder?, stepRate: Int, settings: Settings,
                shouldStop: @escaping () -> Bool = { false }, onWarning: @escaping (String) -> Void = { _ in }) throws(StateError) {
        self.world = world
        self.control = control
        self.shouldStop = shouldStop
        self.recorder = recorder
        self.settings = settings
        self.onWarning = onWarning
        spanSteps = settings.seconds * stepRate
        interval = settings.interval(atRate: stepRate)
        ring = StateRing()
        // States kept for 30 s go without their restore aid: a rewind is not worth half as much
        // memory again.
        ring.append(try world.saveState().withoutRestoreAid)
        newestStep = world.stepCount
        recordLengthsFrom = world.stepCount
        lastGravity = world.gravity
        publish()
    }

    /// The steps a rewind can reach now.
    public var span: ClosedRange<Int> { max(ring.oldestStep, newestStep - spanSteps)...newestStep }
    /// Bytes of saved states kept now.
    public var bytesKept: Int { ring.bytes }
    /// Saved states kept now.
    public var statesKept: Int { ring.count }

    /// Before a step: a rewound world that steps again makes the branch; then the record's
    /// length now is its length after this many steps.
    public func beforeStep(_ state: StepState) -> Bool {
        let step = world.stepCount
        if step < newestStep { branch(at: step) }
        if let recorder {
            let index = step - recordLengthsFrom
            if index == recordLengths.count { recordLengths.append(recorder.length) } else { recordLengths[index] = recorder.length }
        }
        return true
    }

    /// After a step: the gravity it was taken under, and every `interval` steps the world's state.
    public func afterStep(_ state: StepState) {
        let step = world.stepCount
        newestStep = step
        // Nothing after the pipeline's head changes gravity within a step: it is the step's.
        if world.gravity != lastGravity {
            lastGravity = world.gravity
            gravityChanges.append((step - 1, lastGravity))
        }
        for action in world.inputsOfLastStep { bodyInputs.append((step - 1, action)) }
        if step % interval == 0 {
            do {
                ring.append(try world.saveState().withoutRestoreAid)
            } catch {
                // Checked when the history began; a world that stops being savable keeps the
                // states it has, and the span stops growing.
                onWarning("rewind: the state after step \(step) could not be kept: \(error)")
            }
        }
        control.updateHistory { pending in
            forget(keepingAtOrBefore: pending ?? Int.max)
            return rewindState
        }
    }

    /// At a frame boundary: the rewind a page asked for, so the frame shows the world it went back
    /// to (paused or not). A failed rewind is told as a warning; the run goes on.
    public func atFrame(_ report: FrameReport, driver: FixedStepDriver) {
        guard let target = control.takeRewind() else { return }
        do {
            // Steps back to the target check for a stop request too: Ctrl-C ends a long rewind.
            try rewind(to: target, shouldStop: shouldStop)
            driver.restartInterpolation()
        } catch {
            onWarning("rewind to step \(target): \(error)")
        }
    }

    /// Puts the world back to its state after `target` steps, at a frame boundary: the newest
    /// kept state at or before it, stepped on under the gravity each step had.
    /// - Throws: `RewindRefusal.outside` when no kept state is at or before `target` or it is
    ///   past the newest step (a target accepted from `span` stays reachable until it is taken);
    ///   `StateError` if the state cannot be restored (the world is then as it was).
    /// - Parameters:
    ///   - target: the step to go back to.
    ///   - shouldStop: checked before each step on to the target; when it says stop, the rewind
    ///     ends where it is (the run is ending).
    public func rewind(to target: Int, shouldStop: () -> Bool = { false }) throws {
        guard ring.oldestStep <= target, target <= newestStep else {
            throw RewindRefusal.outside(step: target, RewindState(earliest: span.lowerBound, latest: span.upperBound, rewinds: rewinds))
        }
        guard target != world.stepCount else { return }
        let base = ring.newest(atOrBefore: target)!
        try world.restore(base)
        var changes = gravityChanges.drop { $0.step < base.step }
        var inputs = bodyInputs.drop { $0.step < base.step }
        for step in base.step..<target {
            if shouldStop() { return }
            if let change = changes.first, change.step == step {
                // Every kept gravity was set once before, so this cannot throw.
                try world.setGravity(change.gravity)
                changes = changes.dropFirst()
            }
            while let input = inputs.first, input.step == step {
                // Applied once before to this world's bodies: cannot throw.
                switch input.action {
                case let .body(id, bodyInput): try world.apply(bodyInput, to: id)
                case let .change(change): try world.apply(change)
                case let .gravity(gravity): try world.setGravity(gravity)
                }
                inputs = inputs.dropFirst()
            }
            world.step()
        }
        rewinds += 1
        publish()
    }

    /// The run stepped on from `step`, behind the newest step: the history after it is the
    /// old branch's, and goes, and the record is cut back to its length after `step` steps.
    private func branch(at step: Int) {
        ring.dropNewer(than: step)
        gravityChanges.removeAll { $0.step >= step }
        bodyInputs.removeAll { $0.step >= step }
        lastGravity = world.gravity
        if let recorder {
            let index = step - recordLengthsFrom
            settings.onBranch()
            recorder.truncate(to: recordLengths[index])
            recordLengths.removeSubrange((index + 1)...)
        }
        newestStep = step
    }

    /// Drops what no rewind can need: states before the span's first (keeping one at or before
    /// it), past the byte limit the oldest, never the one a rewind asked for and not yet taken
    /// (`pending`) needs.
    private func forget(keepingAtOrBefore pending: Int) {
        ring.dropOlder(keepingAtOrBefore: min(newestStep - spanSteps, pending))
        ring.fit(bytes: settings.maxBytes, keepingAtOrBefore: pending)
        let oldest = ring.oldestStep
        if oldest > recordLengthsFrom {
            if recorder != nil { recordLengths.removeFirst(min(recordLengths.count, oldest - recordLengthsFrom)) }
            recordLengthsFrom = oldest
        }
        if let first = gravityChanges.first, first.step < oldest { gravityChanges.removeAll { $0.step < oldest } }
        if let first = bodyInputs.first, first.step < oldest { bodyInputs.removeAll { $0.step < oldest } }
    }

    private var rewindState: RewindState { RewindState(earliest: span.lowerBound, latest: span.upperBound, rewinds: rewinds) }

    private func publish() {
        control.publish(rewindState)
    }
}

extension LiveHistory: PlannedStage {
    /// At the head of the pipeline: a rewound run that steps again branches before a tilt is recorded.
    static var position: StepPipeline.Position { .rewind }

    /// Only a live run keeps a history, of a world that can be saved.
    static func prepare(_ setup: StageSetup) throws(RunSetupError) {
        guard setup.plan.rewind != nil else { return }
        guard case .live = setup.plan.clock else { throw .unsupported("only a live run keeps a history to rewind") }
        guard World.canSaveState else { throw .state(.unsupportedBackend) }
        if case let .failure(error) = setup.trialSave { throw .state(error) }
    }

    static func make(_ setup: StageSetup) throws(RunSetupError) -> LiveHistory? {
        guard let settings = setup.plan.rewind, case let .live(_, control) = setup.plan.clock else { return nil }
        let history: LiveHistory
        do {
            history = try LiveHistory(world: setup.world, control: control, recorder: setup.recorder, stepRate: setup.scene.stepRate,
                                      settings: settings, shouldStop: setup.shouldStop, onWarning: setup.onWarning)
        } catch {
            throw .state(error)
        }
        return history
    }
}
