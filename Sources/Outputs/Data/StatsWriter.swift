import FileIO
import SceneFile
import SceneModel

/// What one step did, for `--stats`.
public struct StepStats: Sendable, Equatable {
    /// Steps taken when it ended (the first step is 1).
    public var step: Int
    /// Wall time of the step, in microseconds.
    public var stepMicroseconds: Double
    /// Colliding shape pairs and their contact points after the step.
    public var contactPairs: Int
    public var contactPoints: Int
    /// Crates not asleep after the step.
    public var awakeBodies: Int
    /// ½·m·v² + ½·I·ω² over the crates after the step (mass units · px²/s²).
    public var kineticEnergy: Double
    /// Gravity during the step, px/s².
    public var gravity: Vec2

    public init(step: Int, stepMicroseconds: Double, contactPairs: Int, contactPoints: Int, awakeBodies: Int,
                kineticEnergy: Double, gravity: Vec2) {
        self.step = step
        self.stepMicroseconds = stepMicroseconds
        self.contactPairs = contactPairs
        self.contactPoints = contactPoints
        self.awakeBodies = awakeBodies
        self.kineticEnergy = kineticEnergy
        self.gravity = gravity
    }
}

/// Writes per-step statistics (`--stats FILE.jsonl`): one object per step, as Box2D's profile
/// files do, with what names the run in `FILE.meta.json` (`DataFile`; docs/outputs.md, "Data out"). Rows are small, so they are
/// written from the step loop through a 64 KiB buffer. Used by one thread at a time.
public final class StatsWriter {
    public let path: String
    private let file: DataFile

    /// - Throws: `OutputSetupError.unsuitable` unless the name ends in .jsonl, `.cannotCreate`
    ///   when the file cannot be created.
    public init(path: String, run: RunIdentity) throws(OutputSetupError) {
        guard DataFormat(path: path) == .jsonl else {
            throw .unsuitable(path: path, reason: "per-step statistics are written as JSON Lines; name the file .jsonl")
        }
        self.path = path
        file = try DataFile(path: path, format: .jsonl, kind: "stats", table: Self.table, run: run)
    }

    static let table = NumPyTable(columns: [
        ("step", .int64), ("step_us", .float64), ("contact_pairs", .int64), ("contact_points", .int64), ("awake_bodies", .int64),
        ("kinetic_energy", .float64), ("gravity_x", .float64), ("gravity_y", .float64),
    ])
    public static let columns = table.names

    public func write(_ stats: StepStats) {
        let row: JSONOutput = [
            "step": .integer(stats.step), "step_us": .number(stats.stepMicroseconds), "contact_pairs": .integer(stats.contactPairs),
            "contact_points": .integer(stats.contactPoints), "awake_bodies": .integer(stats.awakeBodies),
            "kinetic_energy": .number(stats.kineticEnergy), "gravity_x": .number(stats.gravity.x), "gravity_y": .number(stats.gravity.y),
        ]
        var line = row.text
        line += "\n"
        file.append(line)
    }

    /// Writes what is buffered and closes the file.
    /// - Throws: the first write error, naming the file.
    public func finish() throws(FrameWriteError) {
        try file.finish()
    }
}
