import Driver
import Physics
import SceneModel
import Script

/// The recent past of a live run, kept so pages can rewind it and branch (`cratedrop serve`,
/// docs/serve.md "Rewind and branch"). A stage at the head of the pipeline (before the gravity
/// input) that keeps:
/// - the world's saved state every `interval` steps (`StateRing`), back to `seconds` of simulated
///   time before the newest step, and within `maxBytes`;
/// - the record's length after each of those steps;
/// and reads the inputs applied since the oldest kept state from the run's inputs (`RunInputs`,
/// which keeps them for it, and is the record's one writer).
///
/// A rewind to step T (`rewind(to:)`, at a frame boundary) restores the newest state at or
/// before T and steps on to T with the inputs each step had: exactly the world the run had
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
    /// The run's inputs and record: what a rewind applies again, and what a branch cuts back.
    private let inputs: RunInputs
    private let settings: Settings
    private let spanSteps: Int
    private let interval: Int
    private var ring: StateRing
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
    /// - Parameter inputs: the run's inputs (its world, its record if any); from now on they keep
    ///   what is applied, for the history's rewinds.
    /// - Parameter control: the live run's controls, whose rewind requests the history answers.
    /// - Parameter stepRate: steps a second, to turn the settings' seconds into steps.
    /// - Parameter settings: how far back rewinds reach, how often a state is kept, and their byte budget.
    /// - Parameter saved: the world's state now, if already saved (the run's trial save): kept
    ///   as the first state rather than saving the world again.
    /// - Parameter shouldStop: ends a rewind's steps early when the run is ending.
    /// - Parameter onWarning: told, in words for a person, a state the history could not keep or a rewind it could not do.
    public init(inputs: RunInputs, control: LiveControl, stepRate: Int, settings: Settings, saved: WorldState? = nil,
                shouldStop: @escaping () -> Bool = { false }, onWarning: @escaping (String) -> Void = { _ in }) throws(StateError) {
        world = inputs.world
        self.control = control
        self.shouldStop = shouldStop
        self.inputs = inputs
        self.settings = settings
        self.onWarning = onWarning
        spanSteps = settings.seconds * stepRate
        interval = settings.interval(atRate: stepRate)
        ring = StateRing()
        // States kept for 30 s go without their restore aid: a rewind is not worth half as much
        // memory again.
        let world = inputs.world
        precondition(saved.map { $0.step == world.stepCount } ?? true, "the world's state now")
        let first: WorldState
        if let saved { first = saved } else { first = try world.saveState() }
        ring.append(first.withoutRestoreAid)
        newestStep = world.stepCount
        recordLengthsFrom = world.stepCount
        inputs.keepInputs()
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
        if let record = inputs.record {
            let index = step - recordLengthsFrom
            if index == recordLengths.count { recordLengths.append(record.length) } else { recordLengths[index] = record.length }
        }
        return true
    }

    /// After a step: every `interval` steps the world's state.
    public func afterStep(_ state: StepState) {
        let step = world.stepCount
        newestStep = step
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
    /// kept state at or before it, stepped on with the inputs each step had.
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
        var applied = inputs.inputs(from: base.step)
        for step in base.step..<target {
            if shouldStop() { return }
            while let input = applied.first, input.step == step {
                // Applied once before to this world, in this order: cannot throw. Applied to the
                // world alone: the record has them already.
                try world.apply(input.action)
                applied = applied.dropFirst()
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
        var recordLength: Int64?
        if inputs.record != nil {
            let index = step - recordLengthsFrom
            settings.onBranch()
            recordLength = recordLengths[index]
            recordLengths.removeSubrange((index + 1)...)
        }
        inputs.branch(at: step, recordLength: recordLength)
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
            if inputs.record != nil { recordLengths.removeFirst(min(recordLengths.count, oldest - recordLengthsFrom)) }
            recordLengthsFrom = oldest
        }
        inputs.forgetInputs(before: oldest)
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
            // The trial save is of the world as set up: its state now unless a start state was restored.
            let saved = setup.plan.start.state == nil ? try? setup.trialSave.get() : nil
            history = try LiveHistory(inputs: setup.inputs, control: control, stepRate: setup.scene.stepRate,
                                      settings: settings, saved: saved, shouldStop: setup.shouldStop, onWarning: setup.onWarning)
        } catch {
            throw .state(error)
        }
        return history
    }
}
