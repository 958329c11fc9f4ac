import Driver
import FileIO
import Physics
import SceneModel
import Script

/// The record stage: after each step the record's schedule names, a checkpoint (the state hash,
/// and the full state early on), and with keyframes every K steps the world's saved state on that
/// step's checkpoint line (`RecordKeyframe`). It creates the record and hands it to the run's
/// inputs (`RunInputs`), the record's one writer: inputs, checkpoints and the end line alike.
public final class RecordStage: StepStage {
    /// The record, read here (its header, schedule, failures), written through `inputs`.
    public var recorder: RunRecorder { inputs.record! }
    private let inputs: RunInputs
    /// A keyframe that could not be saved: the run ends there, and `finish` reports it.
    private var keyframeFailure: (step: Int, error: StateError)?
    /// A live run's record is flushed every frame, so a write failure shows at once.
    private let flushesEachFrame: Bool

    /// - Parameter inputs: the run's inputs, holding the open record; `finish(_:)` writes its end
    ///   line and closes it. When its header names keyframes (`keyframeEvery`), the world is saved
    ///   into the record after every multiple of that many steps; the caller has checked that this
    ///   world can be saved.
    /// - Parameter flushesEachFrame: flush after every frame (a live run), and end the run at
    ///   the first frame whose flush failed rather than go on with a record already lost.
    public init(inputs: RunInputs, flushesEachFrame: Bool = false) {
        precondition(inputs.record != nil, "a record stage has a record")
        precondition(inputs.record?.header.keyframeEvery.map { $0 >= 1 } ?? true, "keyframes are at least 1 step apart")
        self.inputs = inputs
        self.flushesEachFrame = flushesEachFrame
    }

    public func atFrame(_ report: FrameReport, driver: FixedStepDriver) {
        if flushesEachFrame { recorder.flush() }
    }

    public var endsRunAtFrame: Bool { flushesEachFrame && recorder.hasFailed }

    public var haltsRun: Bool { keyframeFailure != nil }

    public func afterStep(_ state: StepState) {
        let step = state.step
        let keyframeDue = recorder.header.keyframeEvery.map { step % $0 == 0 } ?? false
        guard keyframeDue || recorder.schedule.wantsHash(afterStep: step) else { return }
        var keyframe: SavedStateFile?
        if keyframeDue {
            do {
                keyframe = SavedStateFile(keyframe: try state.world.saveState(), header: recorder.header)
            } catch {
                keyframeFailure = (step, error)
                return
            }
        }
        inputs.checkpoint(state.snapshot, keyframe: keyframe)
    }

    /// Writes the end line and closes the record; its part (`RunOutcome.recordFailure`) and a
    /// record not written whole as an output failure.
    public func finish(_ ending: RunEnding, into reports: inout StageReports) {
        do {
            try finish(ending.final)
            reports[RunOutcome.RecordResult.self] = RunOutcome.RecordResult(failure: nil)
        } catch {
            reports[RunOutcome.RecordResult.self] = RunOutcome.RecordResult(failure: error)
            reports.add(RunProblem(.inputOutput, error, message: "\(error); the record was not kept whole"))
        }
    }

    /// Writes the end line (steps taken, final hash) and closes the record.
    /// - Throws: `RecordWriteError` when the record could not be written whole, or a keyframe
    ///   could not be saved (the run stopped there).
    func finish(_ final: WorldSnapshot) throws(RecordWriteError) {
        inputs.endRecord(steps: final.step, hash: StateHash(final))
        do {
            try recorder.close()
        } catch {
            throw RecordWriteError(path: recorder.path, cause: .file(error))
        }
        if let (step, error) = keyframeFailure {
            throw RecordWriteError(path: recorder.path, cause: .keyframeNotSaved(step: step, error))
        }
    }
}

extension RecordStage: PlannedStage {
    static var position: StepPipeline.Position { .record }

    /// A record names its steps from 0, so it starts from a scene; keyframes go into a record,
    /// at least 1 step apart, from a world that can be saved (69 on Debian's library).
    static func prepare(_ setup: StageSetup) throws(RunSetupError) {
        let plan = setup.plan
        if let every = plan.keyframeEvery {
            guard every >= 1 else { throw .unsupported("keyframes are at least 1 step apart, got \(every)") }
            guard plan.recordPath != nil else { throw .unsupported("keyframes go into a run record: give --record FILE") }
            try setup.requireSavedStates(for: "keyframes")
        }
        if plan.recordPath != nil, plan.start.state != nil {
            throw .unsupported("a run record starts from a scene: record the run that made the state, or save states with --save-state")
        }
    }

    static func make(_ setup: StageSetup) throws(RunSetupError) -> RecordStage? {
        guard let path = setup.plan.recordPath else { return nil }
        var header = RunRecord.Header.thisProcess(sceneFile: setup.plan.start.sceneFile)
        header.keyframeEvery = setup.plan.keyframeEvery
        let recorder: RunRecorder
        do {
            recorder = try RunRecorder(path: path, header: header, sceneText: setup.plan.start.sceneText,
                                       schedule: TrailSchedule(bodies: setup.world.crates.count, stepRate: setup.scene.stepRate))
        } catch {
            throw .recordNotCreated(error)
        }
        setup.inputs.keep(record: recorder)
        var flushesEachFrame = false
        if case .live = setup.plan.clock { flushesEachFrame = true }
        return RecordStage(inputs: setup.inputs, flushesEachFrame: flushesEachFrame)
    }
}

extension RunOutcome {
    /// How the record ended.
    public struct RecordResult: Sendable {
        /// Why the record is not whole, if it is not.
        public var failure: RecordWriteError?
    }

    /// The record could not be written whole.
    public var recordFailure: RecordWriteError? { stages[RecordResult.self]?.failure }
}

/// A run record that could not be written whole; `description` is `PATH: reason`.
public struct RecordWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var cause: Cause

    /// Why the record is not whole.
    public enum Cause: Sendable, Equatable, CustomStringConvertible {
        /// Writing, flushing or closing the file failed.
        case file(FileFailure)
        /// The world could not be saved for the keyframe after `step`: the run stopped there.
        case keyframeNotSaved(step: Int, StateError)

        public var description: String {
            switch self {
            case let .file(failure): failure.description
            case let .keyframeNotSaved(step, error): "the keyframe after step \(step) could not be saved (\(error)); the run stopped there"
            }
        }
    }

    /// The cause as users read it.
    public var reason: String { cause.description }
    public var description: String { "\(path): \(reason)" }
}
