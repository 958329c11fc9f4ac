import FileIO
import SceneFile
import SceneModel

/// A run record read back: everything needed to re-run a run elsewhere and check it (README,
/// "Records"). Line by line:
///
///     {"record":"cratedrop","version":1,"scene_file":…,"determinism_class":…,"backend":…,"architecture":…,"libc":…,"state_rows":…[,"keyframes":K]}
///     {"scene":"…the scene file's text…"}
///     {"step":N,"gravity":[x,y]}                      a change acting on step N (counted from 0)
///     {"step":N,"body":ID,"impulse":[x,y],…}          a body's input acting on step N (the input stream's lines)
///     {"step":N,"hash":"…"[,"state":[[id,x,y,angle,vx,vy,w],…]][,"keyframe":"BASE64"]}   after N steps
///     {"end":true,"steps":N,"hash":"…"}
///
/// Keyframes (`RecordKeyframe`) are optional and new keys on lines old readers already read, so
/// the format version stays 1 both ways: records with keyframes read in older CrateDrops, and
/// records without them read here.
public struct RunRecord: Sendable {
    /// Where and how the record was made: its first line (`RecordHeader`, RecordLines, where
    /// the record's lines are made).
    public typealias Header = RecordHeader

    public var header: Header
    /// The embedded scene, checked as it was read.
    public let checkedScene: CheckedScene
    public var scene: Scene { checkedScene.scene }
    /// The scene file's text, as embedded.
    public var sceneText: [UInt8]
    /// The changes applied, in order; each `.step(n)`.
    public var gravityChanges: [InputCommand]
    public var checkpoints: [Checkpoint]
    /// Steps taken and the final hash; nil if the run that wrote it never finished the file.
    public var end: (steps: Int, hash: StateHash)?
    /// A digest of each keyframe, in order (each one checked as read), for `replay --verify` to
    /// compare with a save of the replayed world at its step (the keyframes themselves are not
    /// kept: memory stays flat).
    public var keyframeDigests: [KeyframeDigest] = []
    /// The steps after which the record holds a keyframe, in order.
    public var keyframeSteps: [Int] { keyframeDigests.map(\.step) }
    /// The keyframe kept when the record was loaded (`load(path:keyframeAtOrBefore:)`): the last
    /// at or before the step asked for. Only one is kept, so memory does not grow with the record.
    public var keyframe: RecordKeyframe?

    /// Steps to replay: those the run took, else up to the last checkpoint.
    public var steps: Int { end?.steps ?? checkpoints.last?.step ?? 0 }

    /// Records up to this size are read (1 GiB), each line up to `maxLineLength`.
    public static let maxFileSize = 1 << 30

    /// The longest line a record (or a file `diff` reads) may have: 128 MiB, room for a scene
    /// file of the largest size accepted (64 MiB) with every byte escaped twice over, and for
    /// full states far beyond the 100,000 rows a record holds (about 11 MB).
    public static let maxLineLength = 128 << 20

    /// Reads the record at `path`, line by line: each line is checked as it is read, so a bad
    /// line stops the read there, and memory holds what the record says, not its bytes.
    /// - Parameters:
    ///   - path: the record file.
    ///   - step: keep the last keyframe at or before this step, if any (`keyframe`).
    /// - Throws: `RecordError` naming the file and line of the first problem.
    public static func load(path: String, keyframeAtOrBefore step: Int? = nil) throws(RecordError) -> RunRecord {
        var reader = Reader(source: path)
        reader.keepsKeyframeAtOrBefore = step
        var checkpoints: [Checkpoint] = []
        let lines: FileLines
        do {
            lines = try FileLines(path: path, maxLineLength: maxLineLength, maxFileSize: maxFileSize)
        } catch {
            throw .unreadable("\(path): \(error.description)")
        }
        while true {
            let line: [UInt8]?
            do {
                line = try lines.next()
            } catch {
                throw RecordError(error, path: path)
            }
            guard let line else { break }
            if line.isEmpty { continue }
            if let checkpoint = try reader.read(line, number: lines.lineNumber) { checkpoints.append(checkpoint) }
        }
        return try reader.finish(checkpoints: checkpoints)
    }

    /// Whether the first line of `bytes` is a record header (rather than a plain gravity stream).
    public static func startsWithHeader(_ bytes: [UInt8]) -> Bool {
        guard case let .object(members)? = try? JSONParser.parse(firstLine(bytes)).kind else { return false }
        return members.contains { $0.key == "record" && $0.value.kind == .string("cratedrop") }
    }

    /// The bytes before the first newline.
    static func firstLine(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.prefix { $0 != UInt8(ascii: "\n") }) }

    public static func parse(_ bytes: [UInt8], source: String) throws(RecordError) -> RunRecord {
        var reader = Reader(source: source)
        var checkpoints: [Checkpoint] = []
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var line = Array(bytes[start..<end])
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            lineNumber += 1
            start = end + 1
            if line.isEmpty { continue }
            if let checkpoint = try reader.read(line, number: lineNumber) { checkpoints.append(checkpoint) }
        }
        return try reader.finish(checkpoints: checkpoints)
    }
}

/// A record's checkpoints read one at a time, each line checked as it comes (`cratedrop diff`):
/// memory holds one line, however long the record.
final class RecordCheckpoints {
    private var reader: Reader
    private let lines: FileLines

    init(lines: FileLines) {
        self.lines = lines
        reader = Reader(source: lines.path)
        // Checked, not kept: memory stays flat however many changes the record holds.
        reader.keepsGravityChanges = false
    }

    /// Takes in the header line, already read from `lines`.
    func take(first: [UInt8]) throws(RecordError) {
        try reader.read(first, number: lines.lineNumber)
    }

    /// The next checkpoint, or nil at the end of the record.
    func next() throws(RecordError) -> Checkpoint? {
        while true {
            let line: [UInt8]?
            do {
                line = try lines.next()
            } catch {
                throw RecordError(error, path: lines.path)
            }
            guard let line else {
                _ = try reader.finish(checkpoints: [])
                return nil
            }
            if line.isEmpty { continue }
            if let checkpoint = try reader.read(line, number: lines.lineNumber) { return checkpoint }
        }
    }
}

/// A record that cannot be read or used: `FILE:LINE: reason`, or an unreadable file.
public enum RecordError: Error, Sendable, CustomStringConvertible {
    case unreadable(String)
    case invalid(String)

    public var description: String {
        switch self {
        case let .unreadable(text), let .invalid(text): text
        }
    }

    /// A read that stopped: unreadable (66) for a read error, invalid (65) past a size limit.
    init(_ failure: FileLines.Failure, path: String) {
        switch failure {
        case let .unreadable(text): self = .unreadable("\(path): \(text)")
        case let .tooLarge(text): self = .invalid("\(path): \(text)")
        }
    }
}

/// Reads a record's lines in order, checking each.
private struct Reader {
    let source: String
    var header: RunRecord.Header?
    var scene: CheckedScene?
    var sceneText: [UInt8] = []
    var gravityParser: GravityLineParser?
    var gravityChanges: [InputCommand] = []
    var keepsGravityChanges = true
    /// The last checkpoint read, to check the next one and the end line against.
    var lastCheckpoint: Checkpoint?
    var end: (steps: Int, hash: StateHash)?
    var keyframeDigests: [KeyframeDigest] = []
    /// Keep the last keyframe at or before this step; nil: keep none (each is still checked).
    var keepsKeyframeAtOrBefore: Int?
    var keyframe: RecordKeyframe?
    /// The bodies the scene makes (ids 1...bodyCount).
    var bodyCount = 0
    /// The bodies the world holds after the lines read so far (the scene's, with the record's
    /// structural changes made), ascending: what a full state names.
    var bodyIDs: [BodyID] = []
    var nextBodyID: UInt64 = 1
    /// Whether the scene's spawners add bodies as it runs (which the ids listed then follow).
    var hasSpawners = false

    init(source: String) { self.source = source }

    /// Checks one line (numbered from 1) and takes in what it says.
    /// - Returns: the checkpoint the line holds, if it is one.
    @discardableResult
    mutating func read(_ bytes: [UInt8], number: Int) throws(RecordError) -> Checkpoint? {
        func fail(_ message: String) -> RecordError { .invalid("\(source):\(number): \(message)") }
        let value: JSONValue
        let sceneGiven = "this is a scene file, not a run record: replay takes a record made by `cratedrop run SCENE --record FILE`, "
            + "and a scene runs with `cratedrop run \(source)`"
        do {
            value = try JSONParser.parse(bytes, firstLine: number)
        } catch {
            if number == 1, SceneFileMistake.isScene(firstLine: bytes, members: nil) { throw fail(sceneGiven) }
            throw fail("invalid JSON at column \(error.column): \(error.message)")
        }
        guard case let .object(members) = value.kind else { throw fail("must be a JSON object, got \(value.typeName)") }
        if number == 1, header == nil, SceneFileMistake.isScene(firstLine: bytes, members: members) { throw fail(sceneGiven) }
        let field = { (key: String) in members.first { $0.key == key }?.value.kind }

        guard let header else {
            guard case .string("cratedrop")? = field("record") else {
                throw fail("not a CrateDrop record (no {\"record\":\"cratedrop\",…} header line); a gravity-only record "
                    + "replays with `cratedrop hash SCENE --gravity \(source) --steps N`")
            }
            guard case let .number(version, _)? = field("version"), version == Double(RunRecord.Header.formatVersion) else {
                let found = if case let .number(_, literal)? = field("version") { "version \(JSONValue.excerpt(literal))" } else { "no version" }
                throw fail("a run record of \(found), which this cratedrop does not read: it reads record format version "
                    + "\(RunRecord.Header.formatVersion) (a record made by another CrateDrop replays with that one)")
            }
            func text(_ key: String) throws(RecordError) -> String {
                guard case let .string(value)? = field(key) else { throw fail("header needs \"\(key)\" (a string)") }
                return value
            }
            var keyframeEvery: Int?
            if let every = field("keyframes") {
                guard let value = Self.count(every), value >= 1 else { throw fail("\"keyframes\" must be a whole number >= 1") }
                keyframeEvery = value
            }
            self.header = RunRecord.Header(sceneFile: try text("scene_file"), determinismClass: try text("determinism_class"),
                                           backend: try text("backend"), architecture: try text("architecture"),
                                           libc: try text("libc"), keyframeEvery: keyframeEvery)
            return nil
        }
        guard scene != nil else {
            guard case let .string(text)? = field("scene") else { throw fail("expected the {\"scene\":\"…\"} line after the header") }
            sceneText = Array(text.utf8)
            do {
                // The name goes into messages: shown escaped (it is file text).
                let checked = try SceneLoader.parseChecked(sceneText, file: TerminalText.escaped(header.sceneFile), imagesBeside: header.sceneFile)
                self.scene = checked
                let parsed = checked.scene
                bodyCount = parsed.crates.count + (parsed.generator?.count ?? 0)
                bodyIDs = (0..<bodyCount).map { BodyID(UInt64($0 + 1)) }
                hasSpawners = !parsed.spawners.isEmpty
                nextBodyID = UInt64(bodyCount + 1)
                gravityParser = GravityLineParser(source: source, stepRate: parsed.stepRate,
                                                  gravityMagnitude: parsed.gravity.length, axes: .portrait)
            } catch {
                throw fail("embedded scene: \(error.description)")
            }
            return nil
        }
        if end != nil { throw fail("nothing may follow the end line") }
        if field("gravity") != nil || field("body") != nil || field("joint") != nil || GravityLineParser.changeKeys.contains(where: { field($0) != nil }) {
            switch gravityParser!.parse(bytes, line: number) {
            case let .success(command):
                guard case .step = command.when else { throw fail("a recorded input needs \"step\"") }
                if keepsGravityChanges { gravityChanges.append(command) }
                // The bodies the world holds from here on, which checkpoints' states list.
                switch command.action {
                case .change(.addCrate):
                    bodyIDs.append(BodyID(nextBodyID))
                    nextBodyID += 1
                case let .change(.removeBody(id)):
                    // A scene's spawners add bodies the lines do not say: only their replay can tell.
                    if let index = bodyIDs.firstIndex(of: id) {
                        bodyIDs.remove(at: index)
                    } else if !hasSpawners {
                        throw fail("removes body \(id), which the world does not hold then")
                    }
                default: break
                }
            case let .failure(error):
                throw .invalid(error.description)
            }
            return nil
        }
        guard case let .string(hashText)? = field("hash"), let hash = StateHash(hex: hashText) else {
            throw fail("expected an input (gravity or a body's), a checkpoint {\"step\":N,\"hash\":\"…\"} or the end line")
        }
        if case .bool(true)? = field("end") {
            guard let steps = Self.count(field("steps")) else { throw fail("end line needs \"steps\" (a whole number >= 0)") }
            // A record that contradicts itself is bad data, not a run that parts from it.
            if let last = lastCheckpoint {
                if steps < last.step { throw fail("the end line says \(steps) steps, but a checkpoint comes after step \(last.step)") }
                if steps == last.step, hash != last.hash {
                    throw fail("the end line's hash \(hash) contradicts the checkpoint after step \(steps) (hash \(last.hash)): "
                        + "the record contradicts itself")
                }
            }
            end = (steps, hash)
            return nil
        }
        guard let step = Self.count(field("step")), step >= 1 else { throw fail("checkpoint needs \"step\" (a whole number >= 1)") }
        if let last = lastCheckpoint, step <= last.step { throw fail("checkpoint step \(step) is not after step \(last.step)") }
        var state: [BodyValues]?
        if let rows = field("state") {
            guard case let .array(values) = rows, let bodies = Self.bodies(values) else {
                throw fail("state must be an array of [id, x, y, angle, vx, vy, angular_velocity] rows")
            }
            // The hash covers the values, not the ids: an id the world lacks is bad data, named here.
            // A scene's spawners add bodies as it runs, some perhaps refused where they would
            // heap: then only the ids' order is checked.
            if hasSpawners {
                if let stray = zip(bodies, bodies.dropFirst()).first(where: { $0.0.id >= $0.1.id }) {
                    throw fail("the state after step \(step) lists body \(stray.1.id) out of order (rows go by ascending id)")
                }
            } else if let stray = bodies.enumerated().first(where: { $0.offset >= bodyIDs.count || $0.element.id != bodyIDs[$0.offset] }) {
                let id = stray.element.id
                throw fail(!bodyIDs.contains(id)
                    ? "the state after step \(step) names body \(id), which the world does not hold then (" + (bodyIDs.isEmpty ? "it holds none)" : "its bodies are \(bodyIDs.first!)...\(bodyIDs.last!))")
                    : "the state after step \(step) lists body \(id) out of order (rows go by ascending id)")
            }
            if !hasSpawners, bodies.count != bodyIDs.count {
                throw fail("the state after step \(step) holds \(bodies.count) bodies; the world holds \(bodyIDs.count) then")
            }
            let stateHash = StateHash(rows: bodies)
            guard stateHash == hash else {
                throw fail("the state after step \(step) hashes to \(stateHash), not to the hash \(hash) written beside it: "
                    + "the record contradicts itself")
            }
            state = bodies
        }
        if let text = field("keyframe") {
            guard case let .string(text) = text else { throw fail("keyframe must be base64 text (RFC 4648, padded, no spaces)") }
            let file: SavedStateFile
            do {
                file = try RecordKeyframe.check(text, step: step, header: header)
            } catch {
                throw fail(error.reason)
            }
            keyframeDigests.append(KeyframeDigest(step: step, line: number, state: file.state))
            if let limit = keepsKeyframeAtOrBefore, step <= limit {
                keyframe = RecordKeyframe(step: step, line: number, hash: hash, file: file)
            }
        }
        let checkpoint = Checkpoint(step: step, hash: hash, state: state)
        lastCheckpoint = checkpoint
        return checkpoint
    }

    func finish(checkpoints: [Checkpoint]) throws(RecordError) -> RunRecord {
        guard let header, let scene else { throw .invalid("\(source): incomplete record: no header and scene lines") }
        return RunRecord(header: header, checkedScene: scene, sceneText: sceneText, gravityChanges: gravityChanges,
                         checkpoints: checkpoints, end: end, keyframeDigests: keyframeDigests,
                         keyframe: keyframe)
    }

    private static func count(_ kind: JSONValue.Kind?) -> Int? {
        guard case let .number(_, literal)? = kind, let value = Int(literal), value >= 0 else { return nil }
        return value
    }

    private static func bodies(_ rows: [JSONValue]) -> [BodyValues]? {
        var result: [BodyValues] = []
        for row in rows {
            guard case let .array(cells) = row.kind, cells.count == 7,
                  case let .number(_, idLiteral) = cells[0].kind, let id = UInt64(idLiteral) else { return nil }
            var values: [Double] = []
            for cell in cells.dropFirst() {
                guard case let .number(value, _) = cell.kind else { return nil }
                values.append(value)
            }
            result.append(BodyValues(id: BodyID(id), values: values))
        }
        return result
    }
}

extension RunRecord {
    /// Whether the file at `path` begins with a CrateDrop record's header line, of any format
    /// version (`{"record":"cratedrop",…}`), so that one this CrateDrop cannot read is refused as
    /// a record rather than read as a scene.
    public static func isRecord(atPath path: String) -> Bool {
        guard let bytes = try? FileBytes.readPrefix(path: path, limit: 1 << 16) else { return false }
        return startsAsRecord(bytes)
    }

    /// Whether `bytes` (a file's first bytes: its first line at least) begin with a record's header line.
    public static func startsAsRecord(_ bytes: [UInt8]) -> Bool {
        guard let value = try? JSONParser.parse(firstLine(bytes), firstLine: 1), case let .object(members) = value.kind else { return false }
        return members.contains { $0.key == "record" && $0.value.kind == .string("cratedrop") }
    }

    /// The header of the record at `path` if it is a regular file that starts with one (a plain
    /// gravity stream, a pipe or an unreadable file give nil). Reads only the first line.
    public static func header(atPath path: String) -> Header? {
        guard let bytes = try? FileBytes.readPrefix(path: path, limit: 1 << 16) else { return nil }
        var reader = Reader(source: path)
        do {
            try reader.read(firstLine(bytes), number: 1)
        } catch {
            return nil
        }
        return reader.header
    }
}

extension StateHash {
    /// The hash of a state given as rows of `[x, y, angle, vx, vy, angular_velocity]` in body
    /// order, as a record's and a dump's full states hold it: the same bytes `init(_: WorldSnapshot)` hashes.
    init(rows: [BodyValues]) {
        var hasher = FNV1a64()
        for row in rows {
            for value in row.values { hasher.combine(value) }
        }
        self.init(value: hasher.value)
    }
}
