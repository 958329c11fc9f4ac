#if canImport(Glibc)
import Glibc
#endif
import SceneFile
import FileIO
import SceneModel

/// Writes a run record (docs/determinism.md, "Records"): a header line, the scene, every gravity change
/// applied with its exact step, checkpoints after the steps `schedule` names and an end line.
///
/// Gravity lines are the stream format itself (`{"step":N,"gravity":[x,y]}`), so a record also
/// replays as `--gravity` input; numbers print as the shortest decimal that reads back to the
/// same double. The first write error is kept and thrown by `close()`.
public final class RunRecorder {
    public let path: String
    /// The record's first line; `keyframeEvery` says whether checkpoints carry keyframes.
    public let header: RunRecord.Header
    public let schedule: TrailSchedule
    private let file: UnsafeMutablePointer<FILE>
    private var failure: FileFailure?
    private var isClosed = false
    /// Bytes of the record so far (written or buffered): where the next line starts.
    public private(set) var length: Int64 = 0

    /// Creates the record file and writes its header and scene lines.
    /// - Throws: `RecordCreateError` naming the path and the reason if the file cannot be created.
    public init(path: String, header: RunRecord.Header, sceneText: [UInt8], schedule: TrailSchedule) throws(RecordCreateError) {
        let fd: Int32
        do {
            fd = try FileDescriptorIO.openForWriting(path)
        } catch {
            throw RecordCreateError(path: path, reason: error)
        }
        guard let file = fdopen(fd, "w") else {
            let failure = FileFailure.fromErrno()
            Glibc.close(fd)
            throw RecordCreateError(path: path, reason: failure)
        }
        self.path = path
        self.header = header
        self.file = file
        self.schedule = schedule
        write(line: header.jsonLine(stateRows: schedule.stateRows))
        write(["scene": .string(String(decoding: sceneText, as: UTF8.self))])
    }

    deinit { try? close() }

    /// Appends one applied change: it acts on step `step` (counted from 0).
    public func record(step: Int, gravity: Vec2) {
        write(["step": .integer(step), "gravity": .numbers([gravity.x, gravity.y])])
    }

    /// Appends one applied input, as the input stream writes it: it acts on step `step`.
    public func record(step: Int, action: InputAction) {
        switch action {
        case let .gravity(gravity): record(step: step, gravity: gravity)
        case let .body(id, input):
            var fields: [(key: String, value: JSONOutput)] = [("step", .integer(step)), ("body", .unsigned(id.rawValue))]
            switch input {
            case let .impulse(impulse, at):
                fields.append(("impulse", .numbers([impulse.x, impulse.y])))
                if let at { fields.append(("at", .numbers([at.x, at.y]))) }
            case let .velocity(velocity): fields.append(("velocity", .numbers([velocity.x, velocity.y])))
            case let .angularVelocity(rate): fields.append(("angular_velocity", .number(rate)))
            case let .hold(force, at, torque, steps):
                fields.append(("force", .numbers([force.x, force.y])))
                if let at { fields.append(("at", .numbers([at.x, at.y]))) }
                if torque != 0 { fields.append(("torque", .number(torque))) }
                fields.append(("steps", .integer(steps)))
            case let .grab(at, maxForce):
                fields.append(("grab", .numbers([at.x, at.y])))
                if let maxForce { fields.append(("max_force", .number(maxForce))) }
            case let .dragTo(target): fields.append(("drag_to", .numbers([target.x, target.y])))
            case .release: fields.append(("release", true))
            }
            write(.object(fields))
        case let .change(change):
            write(.object([("step", .integer(step))] + Self.fields(change)))
        }
    }

    /// A structural change's keys as an input line writes them (`GravityLineParser` reads them back).
    package static func fields(_ change: StructuralChange) -> [(key: String, value: JSONOutput)] {
        switch change {
        case let .addCrate(spec): [("add", ScenePart.json(spec))]
        case let .addWall(spec): [("add_wall", ScenePart.json(spec))]
        case let .addJoint(kind, a, b, settings):
            [("add_joint", ScenePart.json(kind, a: a.map { .unsigned($0.rawValue) } ?? "static", b: b.map { .unsigned($0.rawValue) } ?? "static",
                                          settings: settings))]
        case let .removeBody(id): [("body", .unsigned(id.rawValue)), ("remove", true)]
        case let .removeJoint(id): [("joint", .unsigned(id.rawValue)), ("remove", true)]
        }
    }

    /// Appends the checkpoint after `snapshot.step` steps, if the schedule wants one or a
    /// keyframe is given (which goes on the same line: `RecordKeyframe`).
    /// - Parameters:
    ///   - snapshot: the state after `snapshot.step` steps.
    ///   - keyframe: the world's saved state after those steps, if the record keeps one there.
    public func checkpoint(_ snapshot: WorldSnapshot, keyframe: SavedStateFile? = nil) {
        let step = snapshot.step
        guard keyframe != nil || schedule.wantsHash(afterStep: step) else { return }
        var fields: [(key: String, value: JSONOutput)] = [("step", .integer(step)), ("hash", .string(StateHash(snapshot).description))]
        if schedule.wantsState(afterStep: step) {
            // Plain loops with reserved room, not `map`: up to 100,000 rows a record, and a debug
            // build (the live page's) pays for every generic call.
            var rows: [JSONOutput] = []
            rows.reserveCapacity(snapshot.bodies.count)
            for body in snapshot.bodies {
                let values = BodyValues(body).values
                var row: [JSONOutput] = [.unsigned(body.id.rawValue)]
                row.reserveCapacity(values.count + 1)
                for value in values { row.append(.number(value)) }
                rows.append(.array(row))
            }
            fields.append(("state", .array(rows)))
        }
        if let keyframe { fields.append(("keyframe", .string(RecordKeyframe.text(of: keyframe)))) }
        write(.object(fields))
    }

    /// Appends the end line: how many steps the run took and the final state hash.
    public func finish(steps: Int, hash: StateHash) {
        write(["end": true, "steps": .integer(steps), "hash": .string(hash.description)])
    }

    /// Writes what is buffered to the file, so a reader (a download) sees every line so far.
    public func flush() {
        guard failure == nil, !isClosed else { return }
        if fflush(file) != 0 { failure = .fromErrno() }
    }

    /// Whether a write or flush has failed (`close()` then throws the reason).
    public var hasFailed: Bool { failure != nil }

    /// Flushes and closes (once; later calls only repeat the answer).
    /// - Throws: the first write error of the record's life, if any.
    public func close() throws(FileFailure) {
        if !isClosed {
            isClosed = true
            if failure == nil, fflush(file) != 0 { failure = .fromErrno() }
            if fclose(file) != 0, failure == nil { failure = .fromErrno() }
        }
        if let failure { throw failure }
    }

    /// Cuts the record back to its first `length` bytes (a length it had, at a line's end) and
    /// writes on from there: a live rewind's branch (docs/serve.md, "Rewind and branch"). The
    /// lines cut are the history the new branch replaces.
    public func truncate(to length: Int64) {
        precondition(length >= 0 && length <= self.length, "a record is cut back to a length it had")
        guard failure == nil, !isClosed else { return }
        if fflush(file) != 0 || ftruncate(fileno(file), off_t(length)) != 0 || fseeko(file, off_t(length), SEEK_SET) != 0 {
            failure = .fromErrno()
            return
        }
        self.length = length
    }

    private func write(_ line: JSONOutput) { write(line: line.text) }

    private func write(line: String) {
        guard failure == nil, !isClosed else { return }
        let text = line + "\n"
        if fputs(text, file) < 0 {
            failure = .fromErrno()
            return
        }
        length += Int64(text.utf8.count)
    }
}

/// A run record that cannot be created; `description` is `PATH: reason`.
public struct RecordCreateError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: FileFailure
    public var description: String { "\(path): \(reason)" }

    public init(path: String, reason: FileFailure) {
        self.path = path
        self.reason = reason
    }
}
