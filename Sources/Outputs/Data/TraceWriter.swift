import FileIO
import Foundation
import Queues
import Raster
import SceneFile
import SceneModel

/// Writes body trajectories (`--trace`): one row per body per traced step, with the columns
/// `step, time, id, shape, width, height, x, y, angle, vx, vy, angular_velocity, sleeping`
/// (docs/outputs.md, "Data out"); with `boxes`, also `frame, box_x0, box_y0, box_x1, box_y1`: the
/// frame's number and the body's bounding box in its pixels (a sweep's frames). Numbers print as the shortest decimal that reads back to the same
/// double, so the rows recover the exact state (and its hash).
///
/// Formatting happens on a thread of its own, fed through a bounded queue: the step loop hands
/// over snapshots (values) and waits only when the writer is 8 snapshots behind, so memory stays
/// flat however long the run. Call `finish()` once at the end.
///
/// `@unchecked Sendable`: `file` is used by the writer thread alone until it leaves `done`, and by
/// `finish()` only after waiting for that.
public final class TraceWriter: @unchecked Sendable {
    public let path: String
    public let format: DataFormat
    private let snapshots = BoundedQueue<(snapshot: WorldSnapshot, frame: Int)>(capacity: 8)
    private let done = DispatchGroup()
    private let file: DataFile

    /// The columns and their types in a `.npy` table (`shape` as up to 8 bytes of text).
    static let table = NumPyTable(columns: [
        ("step", .int64), ("time", .float64), ("id", .uint64), ("shape", .bytes(8)), ("width", .float64), ("height", .float64),
        ("x", .float64), ("y", .float64), ("angle", .float64), ("vx", .float64), ("vy", .float64), ("angular_velocity", .float64),
        ("sleeping", .bool),
    ])
    public static let columns = table.names
    /// With bounding boxes: the frame's number, then each body's box in the frame's pixels.
    static let boxesTable = NumPyTable(columns: table.columns + [
        ("frame", .int64), ("box_x0", .float64), ("box_y0", .float64), ("box_x1", .float64), ("box_y1", .float64),
    ])

    /// Creates the file and writes its first lines.
    /// - Parameters:
    ///   - path: the file to create (or truncate).
    ///   - format: the format; nil: told by the extension.
    ///   - run: what the first line says about the run.
    ///   - bodyShapes: the bodies' shapes, whose kind and bounding size fill the shape columns.
    ///   - boxes: the frames' viewport: each row also gets its frame's number and the body's
    ///     bounding box in the frame's pixels, through the transform the frames are drawn with.
    /// - Throws: `OutputSetupError.unsuitable` without a format or an extension naming one,
    ///   `.cannotCreate` when the file cannot be created.
    public init(path: String, format: DataFormat? = nil, run: RunIdentity, bodyShapes: BodyShapes,
                boxes: Viewport? = nil) throws(OutputSetupError) {
        guard let format = format ?? DataFormat(path: path) else {
            throw .unsuitable(path: path, reason: "a trace is written as .csv, .jsonl or .npy; name the file so")
        }
        self.path = path
        self.format = format
        file = try DataFile(path: path, format: format, kind: "trace", table: boxes == nil ? Self.table : Self.boxesTable, run: run)
        let stepRate = Double(run.stepRate)
        done.enter()
        Thread { [self] in
            while let traced = snapshots.take() {
                Self.append(traced.snapshot, frame: traced.frame, boxes: boxes, stepRate: stepRate, format: format, shapes: bodyShapes, to: file)
            }
            done.leave()
        }.start()
    }

    /// Hands over the rows of `snapshot`'s step (drawn as frame `frame`, when the trace has
    /// boxes); waits only while the writer is far behind.
    public func write(_ snapshot: WorldSnapshot, frame: Int = 0) {
        snapshots.put((snapshot, frame))
    }

    /// Writes what is queued and closes the file.
    /// - Throws: the first write error (a full disk), naming the file.
    public func finish() throws(FrameWriteError) {
        snapshots.close()
        done.wait()
        try file.finish()
    }

    private static func append(_ snapshot: WorldSnapshot, frame: Int, boxes: Viewport?, stepRate: Double, format: DataFormat,
                               shapes: BodyShapes, to file: DataFile) {
        let step = snapshot.step
        let time = Double(step) / stepRate
        // A world whose make-up changed as it ran carries its bodies' shapes (an added body's too).
        let shapes = snapshot.parts?.bodyShapes ?? shapes
        var text = ""
        text.reserveCapacity(format == .npy ? 0 : snapshot.bodies.count * 200)
        var bytes: [UInt8] = []
        for (index, body) in snapshot.bodies.enumerated() {
            let shape = shapes.shape(of: body, at: index)
            let size = shape?.boundingSize ?? .zero, kind = shape?.kind.rawValue ?? ""
            let box = boxes.map { $0.pixelBox(of: shape, at: body) }
            switch format {
            case .csv:
                text += "\(step),\(time),\(body.id.rawValue),\(kind),\(size.x),\(size.y),"
                text += "\(body.position.x),\(body.position.y),\(body.angle),\(body.velocity.x),\(body.velocity.y),"
                text += "\(body.angularVelocity),\(body.sleeping ? 1 : 0)"
                if let box { text += ",\(frame),\(box.minX),\(box.minY),\(box.maxX),\(box.maxY)" }
                text += "\n"
            case .jsonl:
                var fields: [(key: String, value: JSONOutput)] = [
                    ("step", .integer(step)), ("time", .number(time)), ("id", .unsigned(body.id.rawValue)), ("shape", .string(kind)),
                    ("width", .number(size.x)), ("height", .number(size.y)), ("x", .number(body.position.x)), ("y", .number(body.position.y)),
                    ("angle", .number(body.angle)), ("vx", .number(body.velocity.x)), ("vy", .number(body.velocity.y)),
                    ("angular_velocity", .number(body.angularVelocity)), ("sleeping", .bool(body.sleeping)),
                ]
                if let box {
                    fields += [("frame", .integer(frame)), ("box_x0", .number(box.minX)), ("box_y0", .number(box.minY)),
                               ("box_x1", .number(box.maxX)), ("box_y1", .number(box.maxY))]
                }
                JSONOutput.object(fields).write(to: &text)
                text += "\n"
            case .npy:
                var row = NumPyRow(capacity: boxes == nil ? 97 : 137)
                row.int64(step)
                row.float64(time)
                row.uint64(body.id.rawValue)
                row.text(kind, width: 8)
                for value in [size.x, size.y, body.position.x, body.position.y, body.angle, body.velocity.x, body.velocity.y, body.angularVelocity] {
                    row.float64(value)
                }
                row.bool(body.sleeping)
                if let box {
                    row.int64(frame)
                    for value in [box.minX, box.minY, box.maxX, box.maxY] { row.float64(value) }
                }
                bytes += row.bytes
            }
        }
        if format == .npy { file.append(rows: bytes, count: snapshot.bodies.count) } else { file.append(text) }
    }
}
