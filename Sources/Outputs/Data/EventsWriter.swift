import FileIO
import Raster
import SceneFile
import SceneModel

/// Writes contact events (`--events FILE`, .csv or .jsonl): one row per event, in the order a world
/// reports them (step by step; within a step by pair, then kind), with the columns
/// `step, time, event, a, b, wall, x, y, nx, ny, normal_impulse, tangent_impulse` (docs/outputs.md,
/// "Data out"). `a` is a body's id; `b` the other body's, or 0 when the other is a wall, whose index
/// (`walls` in order, then a tumbler's four) is `wall` (-1 for two bodies). The point and normal are
/// empty (null) for `end` and `sensor_exit`. Events are few, so rows are written from the step loop
/// through a 64 KiB buffer. Used by one thread at a time.
public final class EventsWriter {
    public let path: String
    public let format: DataFormat
    private let file: BufferedTextFile
    private let stepRate: Double

    public static let columns = ["step", "time", "event", "a", "b", "wall", "x", "y", "nx", "ny", "normal_impulse", "tangent_impulse"]

    /// - Throws: `OutputSetupError.unsuitable` without a format or an extension naming one,
    ///   `.cannotCreate` when the file cannot be created.
    public init(path: String, format: DataFormat? = nil, run: RunIdentity) throws(OutputSetupError) {
        guard let format = format ?? DataFormat(path: path) else {
            throw .unsuitable(path: path, reason: "contact events are written as .csv or .jsonl; name the file so")
        }
        self.path = path
        self.format = format
        stepRate = Double(run.stepRate)
        do {
            file = try BufferedTextFile(path: path)
        } catch {
            throw .cannotCreate(FrameWriteError(target: path, cause: .during("cannot create it", error)))
        }
        switch format {
        case .csv:
            file.append("# cratedrop events: scene \(run.scene), step_rate \(run.stepRate), determinism_class \(run.determinismClass)\n")
            file.append(Self.columns.joined(separator: ",") + "\n")
        case .jsonl:
            file.append(run.jsonHeader(kind: "events"))
        }
    }

    public func write(_ events: [ContactEvent]) {
        guard !events.isEmpty else { return }
        var text = ""
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
                text += "\(event.normalImpulse),\(event.tangentImpulse)\n"
            case .jsonl:
                func value(_ number: Double?) -> JSONOutput { number.map { .number($0) } ?? .null }
                let row: JSONOutput = [
                    "step": .integer(event.step), "time": .number(time), "event": .string(event.kind.rawValue),
                    "a": .unsigned(a.rawValue), "b": .unsigned(b), "wall": .integer(wall),
                    "x": value(event.point?.x), "y": value(event.point?.y), "nx": value(event.normal?.x), "ny": value(event.normal?.y),
                    "normal_impulse": .number(event.normalImpulse), "tangent_impulse": .number(event.tangentImpulse),
                ]
                row.write(to: &text)
                text += "\n"
            }
        }
        file.append(text)
    }

    /// Closes the file.
    /// - Throws: the first write error (a full disk), naming the file.
    public func finish() throws(FrameWriteError) {
        do {
            try file.close()
        } catch {
            throw FrameWriteError(target: path, cause: .file(error))
        }
    }
}
