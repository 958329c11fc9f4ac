import FileIO
import SceneFile
import SceneModel

/// Writes contact events (`--events FILE`, .csv or .jsonl): one row per event, in the order a world
/// reports them (step by step; within a step by pair, then kind), with the columns
/// `step, time, event, a, b, wall, x, y, nx, ny, normal_impulse, tangent_impulse, joint` (docs/outputs.md,
/// "Data out"). `a` is a body's id; `b` the other body's, or 0 when the other is a wall, whose index
/// (`walls` in order, then a tumbler's four) is `wall` (-1 for two bodies, or a joint to the static
/// body); `joint` the id of a `joint_broke` event's joint (0 for contacts). The point and normal are
/// empty (null) for `end` and `sensor_exit`. Events are few, so rows are written from the step loop
/// through a 64 KiB buffer. Used by one thread at a time.
public final class EventsWriter {
    public let path: String
    public let format: DataFormat
    private let file: DataFile
    private let stepRate: Double

    /// The columns and their types in a `.npy` table (`event` as up to 12 bytes of text; a missing
    /// point or normal as NaN).
    static let table = NumPyTable(columns: [
        ("step", .int64), ("time", .float64), ("event", .bytes(12)), ("a", .uint64), ("b", .uint64), ("wall", .int64),
        ("x", .float64), ("y", .float64), ("nx", .float64), ("ny", .float64), ("normal_impulse", .float64), ("tangent_impulse", .float64),
        ("joint", .uint64),
    ])
    public static let columns = table.names

    /// - Throws: `OutputSetupError.unsuitable` without a format or an extension naming one,
    ///   `.cannotCreate` when the file cannot be created.
    public init(path: String, format: DataFormat? = nil, run: RunIdentity) throws(OutputSetupError) {
        guard let format = format ?? DataFormat(path: path) else {
            throw .unsuitable(path: path, reason: "contact events are written as .csv, .jsonl or .npy; name the file so")
        }
        self.path = path
        self.format = format
        stepRate = Double(run.stepRate)
        file = try DataFile(path: path, format: format, kind: "events", table: Self.table, run: run)
    }

    public func write(_ events: [ContactEvent]) {
        guard !events.isEmpty else { return }
        var text = ""
        var bytes: [UInt8] = []
        var rows = 0
        for event in events {
            let time = Double(event.step) / stepRate
            guard case let .body(a) = event.a else { continue }
            let (b, wall): (UInt64, Int) = switch event.b {
            case let .body(id): (id.rawValue, -1)
            case let .wall(index): (0, index)
            }
            switch format {
            case .csv:
                func cell(_ value: Double?) -> String { value.map { "\($0)" } ?? "" }
                text += "\(event.step),\(time),\(event.kind.rawValue),\(a.rawValue),\(b),\(wall),"
                text += "\(cell(event.point?.x)),\(cell(event.point?.y)),\(cell(event.normal?.x)),\(cell(event.normal?.y)),"
                text += "\(event.normalImpulse),\(event.tangentImpulse),\(event.joint?.rawValue ?? 0)\n"
            case .jsonl:
                func value(_ number: Double?) -> JSONOutput { number.map { .number($0) } ?? .null }
                let row: JSONOutput = [
                    "step": .integer(event.step), "time": .number(time), "event": .string(event.kind.rawValue),
                    "a": .unsigned(a.rawValue), "b": .unsigned(b), "wall": .integer(wall),
                    "x": value(event.point?.x), "y": value(event.point?.y), "nx": value(event.normal?.x), "ny": value(event.normal?.y),
                    "normal_impulse": .number(event.normalImpulse), "tangent_impulse": .number(event.tangentImpulse),
                    "joint": .unsigned(event.joint?.rawValue ?? 0),
                ]
                row.write(to: &text)
                text += "\n"
            case .npy:
                var row = NumPyRow(capacity: 116)
                row.int64(event.step)
                row.float64(time)
                row.text(event.kind.rawValue, width: 12)
                row.uint64(a.rawValue)
                row.uint64(b)
                row.int64(wall)
                for value in [event.point?.x, event.point?.y, event.normal?.x, event.normal?.y, event.normalImpulse, event.tangentImpulse] {
                    row.float64(value)
                }
                row.uint64(event.joint?.rawValue ?? 0)
                bytes += row.bytes
            }
            rows += 1
        }
        if format == .npy { file.append(rows: bytes, count: rows) } else { file.append(text) }
    }

    /// Closes the file.
    /// - Throws: the first write error (a full disk), naming the file.
    public func finish() throws(FrameWriteError) {
        try file.finish()
    }
}
