import Physics
import RecordLines
import SceneModel

/// The run's record, kept in memory from the load
/// (docs/serve.md, "The world in the page (WebAssembly)"): every action applied (through
/// `CoreRun.apply`, the one way in) with its step, the checkpoints after steps as the record's
/// schedule says, and an end line when it is asked for. The lines are the CLI's (`RecordLine`),
/// so `cratedrop replay --verify` checks a page's record natively.
final class PageRecord {
    /// The record while it can still be given; nil once a restore has ended it.
    var text: RecordText?
    /// Why the record cannot be given (a restore ended it).
    var refusal: String?

    init(_ text: RecordText) { self.text = text }
}

extension CoreRun {
    /// The record so far with an end line after the last step taken (the live record goes on).
    /// - Throws: after a restore: a record's steps count from its scene's start (as the CLI's
    ///   `--record` refuses a saved state as its start), so the page's record ends there.
    func recordText() throws(CoreError) -> [UInt8] {
        guard let text = record.text else {
            throw CoreError(code: .usage, message: record.refusal ?? "this world keeps no record")
        }
        return text.text()
    }

    /// Notes an action applied at the current step boundary (it acts on the next step).
    func recordApplied(_ action: InputAction) {
        record.text?.input(step: world.stepCount, action: action)
    }

    /// Notes a step taken: the checkpoint after it, if the schedule wants one.
    func recordStepped() {
        guard let text = record.text, text.stoppedAt == nil else { return }
        record.text?.afterStep(world.snapshot())
    }

    /// Stops keeping the record and lets it go: steps no longer take the checkpoints' snapshots
    /// (a few microseconds a step), and a long run no longer grows it (up to 64 MiB).
    func dropRecord() {
        guard record.text != nil else { return }
        record.text = nil
        record.refusal = "this world keeps no record: it was dropped at step \(world.stepCount) (cratedrop_world_drop_record)"
    }

    /// Ends the record at a restore: its lines no longer lead to the world's state.
    func endRecordAtRestore(step: Int) {
        guard record.text != nil else { return }
        record.text = nil
        record.refusal = "no record since a state was restored (at step \(step)): a record's steps count from its scene's start, "
            + "as `cratedrop run --record` refuses a saved state as its start; load the scene again to start a new record"
    }
}
