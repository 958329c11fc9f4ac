import FileIO
import Physics
import SceneModel
import Script

/// The record stage: after each step the record's schedule names, a checkpoint (the state hash,
/// and the full state early on), and with keyframes every K steps the world's saved state on that
/// step's checkpoint line (`RecordKeyframe`). Gravity changes reach the same recorder through
/// `GravityInput`.
public final class RecordStage: StepStage {
    public let recorder: RunRecorder
    /// A keyframe that could not be saved: the run ends there, and `finish` reports it.
    private var keyframeFailure: (step: Int, error: StateError)?

    /// - Parameter recorder: the open record; `finish(_:)` writes its end line and closes it. When
    ///   its header names keyframes (`keyframeEvery`), the world is saved into the record after
    ///   every multiple of that many steps; the caller has checked that this world can be saved.
    public init(recorder: RunRecorder) {
        precondition(recorder.header.keyframeEvery.map { $0 >= 1 } ?? true, "keyframes are at least 1 step apart")
        self.recorder = recorder
    }

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
        recorder.checkpoint(state.snapshot, keyframe: keyframe)
    }

    /// Writes the end line (steps taken, final hash) and closes the record.
    /// - Throws: `RecordWriteError` when the record could not be written whole, or a keyframe
    ///   could not be saved (the run stopped there).
    public func finish(_ final: WorldSnapshot) throws(RecordWriteError) {
        recorder.finish(steps: final.step, hash: StateHash(final))
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
