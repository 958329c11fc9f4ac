import Physics
import SceneFile
import Script

/// The summary `cratedrop replay` prints: one JSON object, keys in the order docs/determinism.md
/// gives them, every key present (`null` when it does not apply).
public struct ReplayReport: Encodable, Sendable {
    public var record: String
    public var scene: String
    public var steps: Int
    public var stateHash: String
    /// The step the replay's output starts at (`--from`), and the keyframe it was restored from.
    public var from: Int
    public var keyframe: Int?
    /// The determinism class the record was made in, and this process's.
    public var recordedClass: String
    /// Whether the record has its end line.
    public var complete: Bool
    public var determinismClass: String
    /// With `--verify`: whether every checkpoint matched, how many did, and where the runs part.
    public var verified: Bool?
    public var checkpointsVerified: Int?
    public var divergence: TrailDivergence?
    /// The signal that stopped the replay, if one did.
    public var interrupted: String?

    enum CodingKeys: String, CodingKey {
        case record, scene, steps, stateHash = "state_hash", from, keyframe, recordedClass = "recorded_class", complete
        case determinismClass = "determinism_class", verified, checkpointsVerified = "checkpoints_verified", divergence, interrupted
    }

    /// The report of a finished replay.
    /// - Parameters:
    ///   - record: the record's path.
    ///   - start: where it started (the record, and the keyframe restored).
    ///   - outcome: what it did.
    ///   - interrupted: the name of the signal that stopped it, if one did.
    public init(record: String, start: RunStart, outcome: RunOutcome, interrupted: String?) {
        let recorded = start.record?.run
        self.record = record
        scene = start.scene.name
        steps = outcome.result.counters.stepsTaken
        stateHash = outcome.result.stateHash.description
        from = start.outputStep
        keyframe = start.state?.step
        recordedClass = recorded?.header.determinismClass ?? DeterminismClass.current.id
        complete = recorded?.end != nil
        determinismClass = DeterminismClass.current.id
        verified = outcome.check.map { $0.divergence == nil }
        checkpointsVerified = outcome.check?.verified
        divergence = outcome.check?.divergence
        self.interrupted = interrupted
    }

    /// The report as one line of JSON, keys in the documented order.
    public func json() -> String {
        // Encoding plain values into OrderedJSONEncoder cannot fail.
        (try? OrderedJSONEncoder().encode(self)) ?? "{}"
    }
}
