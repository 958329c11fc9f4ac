import Physics
import SceneModel
import Script

/// Where a run starts: a scene, or a run record (which brings its scene, its gravity changes, its
/// length and its checkpoints).
public struct RunStart: Sendable {
    /// The scene, checked or not yet.
    private enum SceneValue: Sendable {
        case checked(CheckedScene)
        case unchecked(Scene)
    }

    private let sceneValue: SceneValue
    public var scene: Scene {
        switch sceneValue {
        case let .checked(checked): checked.scene
        case let .unchecked(scene): scene
        }
    }

    /// The scene as checked once when it was read: the world is built from it without checking
    /// again. nil: a scene given as a value, checked when the world is built.
    public var checkedScene: CheckedScene? {
        if case let .checked(checked) = sceneValue { checked } else { nil }
    }

    /// The scene's path, as the record's header names it.
    public var sceneFile: String
    /// The scene file's bytes, embedded in a record the run writes.
    public var sceneText: [UInt8]
    /// The record replayed, and its path, when the run starts from one.
    public var record: (run: RunRecord, path: String)?
    /// The saved state the run continues, when it starts from one (its scene is `scene`).
    public var state: WorldState?
    /// Where `state` comes from, for messages (`FILE:LINE: the keyframe after step N`).
    public var stateOrigin: String?
    /// The state hash the world must have once `state` is restored (a keyframe's checkpoint).
    public var stateHash: StateHash?
    /// The step the run's outputs start at (`replay --from`): the engine first steps the world
    /// from `step` to here with only its inputs and its check (no frames, data or hash trail).
    /// nil: at `step`.
    public var catchUpTo: Int?

    private init(_ scene: SceneValue, sceneFile: String, sceneText: [UInt8], record: (run: RunRecord, path: String)?, state: WorldState?) {
        sceneValue = scene
        self.sceneFile = sceneFile
        self.sceneText = sceneText
        self.record = record
        self.state = state
    }

    /// A run of the checked `scene`, read from `sceneFile` whose bytes are `sceneText`.
    public static func scene(_ scene: CheckedScene, file sceneFile: String, text sceneText: [UInt8]) -> RunStart {
        RunStart(.checked(scene), sceneFile: sceneFile, sceneText: sceneText, record: nil, state: nil)
    }

    /// A run of `scene`, checked when its world is built.
    public static func scene(_ scene: Scene, file sceneFile: String, text sceneText: [UInt8]) -> RunStart {
        RunStart(.unchecked(scene), sceneFile: sceneFile, sceneText: sceneText, record: nil, state: nil)
    }

    /// A continuation of a saved state whose checked scene (read from the state's own text) is `scene`.
    public static func state(_ file: SavedStateFile, scene: CheckedScene) -> RunStart {
        RunStart(.checked(scene), sceneFile: file.sceneFile, sceneText: file.sceneText, record: nil, state: file.state)
    }

    /// A continuation of a saved state whose scene is `scene`, checked when its world is built.
    public static func state(_ file: SavedStateFile, scene: Scene) -> RunStart {
        RunStart(.unchecked(scene), sceneFile: file.sceneFile, sceneText: file.sceneText, record: nil, state: file.state)
    }

    /// The step the world starts at: 0, or a saved state's step.
    public var step: Int { state?.step ?? 0 }

    /// The step the run's outputs start at: `catchUpTo`, else `step`.
    public var outputStep: Int { catchUpTo ?? step }

    /// A run of the record at `path`: its scene, driven by its own gravity changes.
    public static func record(_ record: RunRecord, path: String) -> RunStart {
        RunStart(.checked(record.checkedScene), sceneFile: record.header.sceneFile, sceneText: record.sceneText, record: (record, path), state: nil)
    }

    /// The stretch of the record at `path` from step `from` on (`replay --from`): the world
    /// restored from the record's keyframe (`record.keyframe`, the last at or before `from`,
    /// when this backend can restore states), else built from the scene at step 0, then stepped
    /// to `from` with the record's own gravity changes before the run's outputs begin.
    /// - Precondition: `from` is in 0...record.steps.
    public static func record(_ record: RunRecord, path: String, from: Int) -> RunStart {
        precondition(from >= 0 && from <= record.steps, "a stretch of a record starts within it")
        var start = RunStart.record(record, path: path)
        start.catchUpTo = from
        if let keyframe = record.keyframe, keyframe.step <= from, World.canSaveState {
            start.state = keyframe.file.state
            start.stateOrigin = "\(path):\(keyframe.line): the keyframe after step \(keyframe.step)"
            start.stateHash = keyframe.hash
        }
        return start
    }

    /// The keyframes a replay is verified against (their digests).
    public var recordedKeyframes: [KeyframeDigest] { record?.run.keyframeDigests ?? [] }

    /// The checkpoints a replay is verified against: the record's, and its end line's hash.
    public var recordedCheckpoints: [Checkpoint] {
        guard let record = record?.run else { return [] }
        var checkpoints = record.checkpoints
        if let end = record.end, checkpoints.last.map({ $0.step < end.steps }) ?? (end.steps > 0) {
            checkpoints.append(Checkpoint(step: end.steps, hash: end.hash, state: nil))
        }
        return checkpoints
    }
}
