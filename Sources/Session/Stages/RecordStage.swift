import FileIO
import SceneModel
import Script

/// The record stage: after each step the record's schedule names, a checkpoint (the state hash,
/// and the full state early on). Gravity changes reach the same recorder through `GravityInput`.
public final class RecordStage: StepStage {
    public let recorder: RunRecorder

    /// - Parameter recorder: the open record; `finish(_:)` writes its end line and closes it.
    public init(recorder: RunRecorder) {
        self.recorder = recorder
    }

    public func afterStep(_ state: StepState) {
        if recorder.schedule.wantsHash(afterStep: state.step) { recorder.checkpoint(state.snapshot) }
    }

    /// Writes the end line (steps taken, final hash) and closes the record.
    /// - Throws: `RecordWriteError` when the record could not be written whole.
    public func finish(_ final: WorldSnapshot) throws(RecordWriteError) {
        recorder.finish(steps: final.step, hash: StateHash(final))
        do {
            try recorder.close()
        } catch {
            throw RecordWriteError(path: recorder.path, reason: error)
        }
    }
}

/// A run record that could not be written whole; `description` is `PATH: reason`.
public struct RecordWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: FileFailure
    public var description: String { "\(path): \(reason)" }
}
