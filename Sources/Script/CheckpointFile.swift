import SceneFile
import SceneModel

/// Reads the checkpoints in a file `cratedrop diff` compares, whichever of three kinds it is:
/// - a run record (its checkpoints: hashes, and full states for its first steps),
/// - a dump (`cratedrop hash --dump`: one `{"step":…,"hash":…,"bodies":[…]}` object a line),
/// - a trail (`cratedrop hash`: `STEP HASH` lines).
///
/// The file is read as a stream, one checkpoint at a time, each line checked as it comes: memory
/// holds one line (at most `RunRecord.maxLineLength`), whatever the file's size.
public final class CheckpointFile {
    private enum Kind {
        case record(RecordCheckpoints)
        case lines(previousStep: Int?)
    }

    public let path: String
    private let lines: FileLines
    private var kind: Kind
    /// A line read to tell the kind, not yet taken.
    private var pending: [UInt8]?
    private var count = 0

    /// Opens `path` and tells its kind from its first line.
    /// - Throws: `RecordError`: unreadable (not a regular file, a read error) or invalid.
    public init(path: String) throws(RecordError) {
        self.path = path
        do {
            lines = try FileLines(path: path, maxLineLength: RunRecord.maxLineLength)
        } catch {
            throw .unreadable("\(path): \(error.description)")
        }
        let first: [UInt8]?
        do {
            first = try lines.next()
        } catch {
            throw RecordError(error, path: path)
        }
        if let first, RunRecord.startsWithHeader(first) {
            let records = RecordCheckpoints(lines: lines)
            try records.take(first: first)
            kind = .record(records)
        } else {
            kind = .lines(previousStep: nil)
            pending = first
        }
    }

    /// Reads the whole file at `path` (tests, small files).
    /// - Throws: `RecordError` naming the file and line of the first problem.
    public static func load(path: String) throws(RecordError) -> [Checkpoint] {
        let file = try CheckpointFile(path: path)
        var checkpoints: [Checkpoint] = []
        while let checkpoint = try file.next() { checkpoints.append(checkpoint) }
        return checkpoints
    }

    /// The next checkpoint, or nil at the end of the file.
    /// - Throws: `RecordError` naming the file and line of the problem; a dump or trail without
    ///   any checkpoint is invalid at its end.
    public func next() throws(RecordError) -> Checkpoint? {
        switch kind {
        case let .record(records):
            return try records.next()
        case let .lines(previousStep):
            while true {
                let line: [UInt8]?
                if let pending {
                    line = pending
                    self.pending = nil
                } else {
                    do {
                        line = try lines.next()
                    } catch {
                        throw RecordError(error, path: path)
                    }
                }
                guard let line else {
                    if count == 0 { throw .invalid("\(path): no checkpoints (expected a record, `hash --dump` lines or `STEP HASH` lines)") }
                    return nil
                }
                if line.isEmpty { continue }
                let number = lines.lineNumber
                let checkpoint = line.first == UInt8(ascii: "{")
                    ? try Self.dumpLine(line, source: path, number: number) : try Self.trailLine(line, source: path, number: number)
                if let previousStep, checkpoint.step <= previousStep {
                    throw .invalid("\(path):\(number): step \(checkpoint.step) is not after step \(previousStep)")
                }
                kind = .lines(previousStep: checkpoint.step)
                count += 1
                return checkpoint
            }
        }
    }

    private static func trailLine(_ line: [UInt8], source: String, number: Int) throws(RecordError) -> Checkpoint {
        // Read from the bytes: a trail may hold tens of millions of lines.
        var step = 0, hash: UInt64 = 0, index = 0, valid = true
        while index < line.count, line[index] != UInt8(ascii: " ") {
            let digit = Int(line[index]) - Int(UInt8(ascii: "0"))
            let (times, overflowA) = step.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times.addingReportingOverflow(digit)
            if !(0...9).contains(digit) || overflowA || overflowB { valid = false; break }
            step = sum
            index += 1
        }
        valid = valid && index > 0 && line.count == index + 17
        if valid {
            for byte in line[(index + 1)...] {
                let value: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte - UInt8(ascii: "A") + 10
                default: valid = false; value = 0
                }
                hash = hash << 4 | UInt64(value)
            }
        }
        guard valid else {
            throw .invalid("\(source):\(number): expected `STEP HASH` (as `cratedrop hash` prints) or a JSON object")
        }
        return Checkpoint(step: step, hash: StateHash(value: hash), state: nil)
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
