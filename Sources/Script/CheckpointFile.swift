import SceneFile
import SceneModel

/// Reads the checkpoints in a file `cratedrop diff` compares, whichever of three kinds it is:
/// - a run record (its checkpoints: hashes, and full states for its first steps),
/// - a dump (`cratedrop hash --dump`: one `{"step":…,"hash":…,"bodies":[…]}` object a line),
/// - a trail (`cratedrop hash`: `STEP HASH` lines).
public enum CheckpointFile {
    /// Files up to this size are read.
    public static let maxFileSize = 1 << 30

    /// - Throws: `RecordError` naming the file and line of the first problem.
    public static func load(path: String) throws(RecordError) -> [Checkpoint] {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path: path, limit: maxFileSize)
        } catch {
            throw .unreadable("\(path): \(error.description)")
        }
        if RunRecord.startsWithHeader(bytes) { return try RunRecord.parse(bytes, source: path).checkpoints }
        var checkpoints: [Checkpoint] = []
        var number = 0
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            var line = Array(rawLine)
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if line.isEmpty { continue }
            let checkpoint = line.first == UInt8(ascii: "{")
                ? try dumpLine(line, source: path, number: number) : try trailLine(line, source: path, number: number)
            if let last = checkpoints.last, checkpoint.step <= last.step {
                throw .invalid("\(path):\(number): step \(checkpoint.step) is not after step \(last.step)")
            }
            checkpoints.append(checkpoint)
        }
        if checkpoints.isEmpty { throw .invalid("\(path): no checkpoints (expected a record, `hash --dump` lines or `STEP HASH` lines)") }
        return checkpoints
    }

    private static func trailLine(_ line: [UInt8], source: String, number: Int) throws(RecordError) -> Checkpoint {
        let parts = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard parts.count == 2, let step = Int(parts[0]), step >= 0, parts[0].allSatisfy(\.isNumber),
              let hash = StateHash(hex: String(parts[1])) else {
            throw .invalid("\(source):\(number): expected `STEP HASH` (as `cratedrop hash` prints) or a JSON object")
        }
        return Checkpoint(step: step, hash: hash, state: nil)
    }

    private static func dumpLine(_ line: [UInt8], source: String, number: Int) throws(RecordError) -> Checkpoint {
        func fail(_ message: String) -> RecordError { .invalid("\(source):\(number): \(message)") }
        guard case let .object(members)? = try? JSONParser.parse(line, firstLine: number).kind else {
            throw fail("expected a `cratedrop hash --dump` line (a JSON object)")
        }
        let field = { (key: String) in members.first { $0.key == key }?.value.kind }
        guard case let .number(_, stepText)? = field("step"), let step = Int(stepText), step >= 0,
              case let .string(hashText)? = field("hash"), let hash = StateHash(hex: hashText),
              case let .array(bodies)? = field("bodies") else {
            throw fail("a dump line needs \"step\", \"hash\" and \"bodies\"")
        }
        var state: [BodyValues] = []
        for body in bodies {
            guard case let .object(values) = body.kind else { throw fail("each body must be an object") }
            let value = { (key: String) in values.first { $0.key == key }?.value.kind }
            guard case let .number(_, idText)? = value("id"), let id = UInt64(idText) else { throw fail("each body needs an \"id\"") }
            var numbers: [Double] = []
            for name in StateDivergence.fieldNames {
                guard case let .number(number, _)? = value(name) else { throw fail("body \(id) needs \"\(name)\"") }
                numbers.append(number)
            }
            state.append(BodyValues(id: BodyID(id), values: numbers))
        }
        return Checkpoint(step: step, hash: hash, state: state)
    }
}
