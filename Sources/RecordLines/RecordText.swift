import SceneModel

/// A run record kept in memory as it is made (the page's own engine: CoreABI's `CoreRun`), its
/// lines made by `RecordLine`, within a bound on its bytes.
///
/// `text()` gives the record so far with an end line after the last step taken: input lines
/// applied since that step (they act on the next, not yet taken) are left out, so the end's hash
/// is the one a replay of the lines reaches. At the bound (`limit` bytes beyond the header and
/// scene lines) the record stops growing: it is cut back to the end of the last whole step before
/// it and keeps those steps (`stoppedAt` says which), so what it gives is still a record that
/// verifies, only shorter than the run.
public struct RecordText: Sendable {
    /// 64 MiB beyond the scene: hours of a page's run (a checkpoint line a simulated second after
    /// the first 2,400 steps; a drag held at 60 moves a second adds about 16 MB an hour).
    public static let defaultLimit = 64 << 20

    public let header: RecordHeader
    public let schedule: TrailSchedule
    /// The most bytes the lines after the header and scene may take.
    public let limit: Int
    private var bytes: [UInt8] = []
    /// Where the lines after the scene begin.
    private var base = 0
    /// The end of the last whole step: its length, step and state hash.
    private var stepped: (length: Int, step: Int, hash: StateHash)
    /// The step the record stopped at when it reached its bound, or nil while it grows.
    public private(set) var stoppedAt: Int?

    /// Starts a record with its header and scene lines, the world at step 0 hashing to `start`.
    public init(header: RecordHeader, sceneText: [UInt8], schedule: TrailSchedule, start: StateHash, limit: Int = RecordText.defaultLimit) {
        precondition(limit >= 0, "a record's bound is at least 0 bytes")
        self.header = header
        self.schedule = schedule
        self.limit = limit
        stepped = (0, 0, start)
        append(RecordLine.header(header, stateRows: schedule.stateRows))
        append(RecordLine.scene(sceneText))
        base = bytes.count
        stepped.length = base
    }

    /// Bytes kept so far (without the end line `text()` adds).
    public var count: Int { bytes.count }

    /// Steps the record covers: the last whole step's (where `text()` ends).
    public var steps: Int { stepped.step }

    /// Appends an applied input, acting on step `step`.
    public mutating func input(step: Int, action: InputAction) {
        add(RecordLine.input(step: step, action: action))
    }

    /// Marks the end of a step: its checkpoint line if the schedule wants one (`snapshot` is the
    /// state after it).
    public mutating func afterStep(_ snapshot: WorldSnapshot) {
        guard stoppedAt == nil else { return }
        if let line = RecordLine.checkpoint(snapshot, schedule: schedule) {
            add(line)
            guard stoppedAt == nil else { return }
        }
        stepped = (bytes.count, snapshot.step, StateHash(snapshot))
    }

    /// The record's bytes up to the last whole step, and the end line there.
    public func text() -> [UInt8] {
        var text = Array(bytes[..<stepped.length])
        text.append(contentsOf: (RecordLine.end(steps: stepped.step, hash: stepped.hash) + "\n").utf8)
        return text
    }

    /// Appends a line after the scene, unless that passes the bound: then the record is cut back
    /// to the last whole step and stops there.
    private mutating func add(_ line: String) {
        guard stoppedAt == nil else { return }
        if bytes.count + line.utf8.count + 1 - base > limit {
            bytes.removeSubrange(stepped.length...)
            stoppedAt = stepped.step
            return
        }
        append(line)
    }

    private mutating func append(_ line: String) {
        bytes.append(contentsOf: line.utf8)
        bytes.append(UInt8(ascii: "\n"))
    }
}
