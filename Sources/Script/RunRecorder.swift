#if canImport(Glibc)
import Glibc
#endif
import SceneFile
import FileIO
import SceneModel

/// Writes a run record (README, "Records"): a header line, the scene, every gravity change
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
    private var failure: FileDescriptorIO.OutputFailure?
    private var isClosed = false
    /// Bytes of the record so far (written or buffered): where the next line starts.
    public private(set) var length: Int64 = 0

    /// Creates the record file and writes its header and scene lines.
    /// - Throws: the reason if the file cannot be created.
    public init(path: String, header: RunRecord.Header, sceneText: [UInt8], schedule: TrailSchedule) throws(GravityOpenError) {
        let fd: Int32
        do {
            fd = try FileDescriptorIO.openForWriting(path)
        } catch {
            throw GravityOpenError(path: path, reason: error.text)
        }
        guard let file = fdopen(fd, "w") else {
            Glibc.close(fd)
            throw GravityOpenError(path: path, reason: FileBytes.errnoText())
        }
        self.path = path
        self.header = header
        self.file = file
        self.schedule = schedule
        write(header.jsonLine(stateRows: schedule.stateRows))
        write(JSONText.object(["scene": JSONText.string(String(decoding: sceneText, as: UTF8.self))]))
    }

    deinit { try? close() }

    /// Appends one applied change: it acts on step `step` (counted from 0).
    public func record(step: Int, gravity: Vec2) {
        write("{\"step\":\(step),\"gravity\":[\(gravity.x),\(gravity.y)]}")
    }

    /// Appends the checkpoint after `snapshot.step` steps, if the schedule wants one or a
    /// keyframe is given (which goes on the same line: `RecordKeyframe`).
    /// - Parameters:
    ///   - snapshot: the state after `snapshot.step` steps.
    ///   - keyframe: the world's saved state after those steps, if the record keeps one there.
    public func checkpoint(_ snapshot: WorldSnapshot, keyframe: SavedStateFile? = nil) {
        let step = snapshot.step
        guard keyframe != nil || schedule.wantsHash(afterStep: step) else { return }
        var line = "{\"step\":\(step),\"hash\":\"\(StateHash(snapshot))\""
        if schedule.wantsState(afterStep: step) {
            line += ",\"state\":["
            for (index, body) in snapshot.bodies.enumerated() {
                if index > 0 { line += "," }
                let values = BodyValues(body).values.map { JSONText.number($0) }
                line += "[\(body.id)," + values.joined(separator: ",") + "]"
            }
            line += "]"
        }
        // Base64 needs no JSON escaping.
        if let keyframe { line += ",\"keyframe\":\"" + RecordKeyframe.text(of: keyframe) + "\"" }
        write(line + "}")
    }

    /// Appends the end line: how many steps the run took and the final state hash.
    public func finish(steps: Int, hash: StateHash) {
        write("{\"end\":true,\"steps\":\(steps),\"hash\":\"\(hash)\"}")
    }

    /// Writes what is buffered to the file, so a reader (a download) sees every line so far.
    public func flush() {
        guard failure == nil, !isClosed else { return }
        if fflush(file) != 0 { failure = .init(text: FileBytes.errnoText()) }
    }

    /// Whether a write or flush has failed (`close()` then throws the reason).
    public var hasFailed: Bool { failure != nil }

    /// Flushes and closes (once; later calls only repeat the answer).
    /// - Throws: the first write error of the record's life, if any.
    public func close() throws(FileDescriptorIO.OutputFailure) {
        if !isClosed {
            isClosed = true
            if failure == nil, fflush(file) != 0 { failure = .init(text: FileBytes.errnoText()) }
            if fclose(file) != 0, failure == nil { failure = .init(text: FileBytes.errnoText()) }
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
            failure = .init(text: FileBytes.errnoText())
            return
        }
        self.length = length
    }

    private func write(_ line: String) {
        guard failure == nil, !isClosed else { return }
        let text = line + "\n"
        if fputs(text, file) < 0 {
            failure = .init(text: FileBytes.errnoText())
            return
        }
        length += Int64(text.utf8.count)
    }
}
