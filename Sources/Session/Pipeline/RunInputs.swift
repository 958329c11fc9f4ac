import Physics
import SceneModel
import Script

/// The one owner of a run's inputs and of its record. Every input the run applies to its world
/// (a stream's or a page's line through `GravityInput`, a sweep's edit through `WorldEditStage`)
/// comes through `apply`, which applies it, writes its line into the record and, for a live
/// history, keeps it with its step; the record's checkpoints, its end line and a branch's cut go
/// through here too. Stages read the record (its length, header, schedule) and the kept inputs;
/// none writes them. The wasm core's counterpart is `CoreRun.apply(_:)` (CoreABI).
///
/// Uses the world: not `Sendable`; the run's thread only.
public final class RunInputs {
    public let world: World
    /// The run's record, once `RecordStage` has created it; read it, write through this type.
    public private(set) var record: RunRecorder?
    /// Inputs applied from the oldest step a live history still needs, with the step (counted
    /// from 0) they were applied before; nil while no history keeps them.
    private var kept: [(step: Int, action: InputAction)]?

    public init(world: World, record: RunRecorder? = nil) {
        self.world = world
        self.record = record
    }

    /// Takes the run's record: every input applied from now on is written into it.
    func keep(record: RunRecorder) {
        precondition(self.record == nil, "a run has one record")
        self.record = record
    }

    // MARK: Inputs

    /// Applies `action` to the world now, between steps, and notes it: its line in the record
    /// (it acts on the step about to be taken) and, for a live history, kept with that step.
    /// - Returns: the make-up log's new entry, for a structural change.
    /// - Throws: what `World.apply(_:)` throws; a refused action is neither recorded nor kept.
    @discardableResult
    public func apply(_ action: InputAction) throws(PhysicsError) -> MakeupChange? {
        let entry = try world.apply(action)
        note(action)
        return entry
    }

    /// Applies a sweep's edit (`World.apply(_: WorldEdit)`) and notes it as the input line that
    /// says it (`WorldEdit.inputAction`; a position set has none and goes unrecorded).
    /// - Throws: what `World.apply(_: WorldEdit)` throws; nothing is noted then.
    func apply(_ edit: WorldEdit) throws(PhysicsError) {
        try world.apply(edit)
        if let action = edit.inputAction { note(action) }
    }

    private func note(_ action: InputAction) {
        let step = world.stepCount
        record?.record(step: step, action: action)
        kept?.append((step, action))
    }

    // MARK: The record's other lines

    /// Writes the checkpoint after `snapshot.step` steps, if the record's schedule wants one or a
    /// keyframe is given (`RunRecorder.checkpoint`).
    func checkpoint(_ snapshot: WorldSnapshot, keyframe: SavedStateFile?) {
        record?.checkpoint(snapshot, keyframe: keyframe)
    }

    /// Writes the record's end line: the steps taken and the final hash.
    func endRecord(steps: Int, hash: StateHash) {
        record?.finish(steps: steps, hash: hash)
    }

    // MARK: A live history's view

    /// Starts keeping the inputs applied from now on, for a live history that steps a restored
    /// state on again under them.
    func keepInputs() {
        if kept == nil { kept = [] }
    }

    /// The inputs kept from `step` on, in the order they were applied.
    func inputs(from step: Int) -> ArraySlice<(step: Int, action: InputAction)> {
        guard let kept else { return [] }
        return kept[(kept.firstIndex { $0.step >= step } ?? kept.endIndex)...]
    }

    /// Forgets the inputs kept before `step`: no rewind can need them.
    func forgetInputs(before step: Int) {
        guard let first = kept?.first, first.step < step else { return }
        kept?.removeAll { $0.step < step }
    }

    /// The run goes on from `step` on a new branch: the inputs kept from `step` on are the old
    /// branch's, and go, and the record is cut back to `recordLength` (its length after `step`
    /// steps), so it stays the history of the current branch from step 0.
    func branch(at step: Int, recordLength: Int64?) {
        kept?.removeAll { $0.step >= step }
        if let recordLength { record?.truncate(to: recordLength) }
    }
}
