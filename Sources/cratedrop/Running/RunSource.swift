import FileIO
import ArgumentParser
import CLISupport
import Driver
import Physics
import SceneFile
import SceneModel
import Script
import Session

/// Where `run`, `hash` and `replay` start: a scene file, or a run record (docs/determinism.md, "Records"),
/// which brings its own scene, gravity changes, length and checkpoints. Files that cannot be
/// read or parsed end the command here (66, 65), before any run is set up.
enum RunSource {
    /// Opens `path` as a record when its first line is a record header, else as a saved state or
    /// a scene file: the file is read once (`RunInput`).
    /// - Parameter gravity: `--gravity`, which a record refuses (it carries its own).
    static func open(_ path: String, gravity: String?) throws -> RunStart {
        let input = RunInput.read(path)
        guard case .record? = input else { return try sceneOrState(path, input) }
        if gravity != nil {
            printError("cratedrop: \(path) is a run record, which carries its own gravity changes: drop --gravity")
            throw ExitCodes.usage
        }
        return try record(path)
    }

    /// Opens `path`, read as `input`, as a saved state when it begins as one, else as a scene
    /// file. A malformed state or embedded scene ends the command (65).
    static func sceneOrState(_ path: String, _ input: RunInput?) throws -> RunStart {
        let bytes: [UInt8]
        switch input {
        case nil, .record?:
            // Unreadable (or a record where a scene is wanted): the loader says why in its words.
            let (scene, text) = try loadCheckedSceneOrExit(path)
            return .scene(scene, file: path, text: text)
        case let .scene(text)?:
            return .scene(try parseCheckedSceneOrExit(text, file: path), file: path, text: text)
        case let .state(read)?:
            bytes = read
        case let .unreadableState(failure)?:
            // Told as what it is, not handed to the scene loader as if it were a scene.
            printError("cratedrop: \(TerminalText.escaped(path)): cannot read the saved state: \(failure)")
            throw ExitCodes.noInput
        }
        do {
            let file = try SavedStateFile.parse(bytes)
            let scene = try SavedStateInput.checkedScene(of: file, at: path)
            if let warning = SavedStateInput.otherClassWarning(file, at: path) { printError("cratedrop: warning: \(warning)") }
            return .state(file, scene: scene)
        } catch let error as SavedStateFile.FormatError {
            printError("cratedrop: \(TerminalText.escaped(path)): \(error)")
            throw ExitCodes.dataError
        } catch {
            printError("cratedrop: \(error)")
            throw ExitCodes.dataError
        }
    }

    /// Opens the run record at `path` (which must be one).
    static func record(_ path: String) throws -> RunStart {
        .record(try loadRecordOrExit(path), path: path)
    }

    /// The stretch of the run record at `path` from step `from` on (`replay --from`), started from
    /// its last keyframe at or before `from`. Without one (a record made without --keyframes, or
    /// Debian's library, which cannot restore states) it steps from 0 and says so on stderr: the
    /// results are the same, only slower, so refusing would help no one.
    static func record(_ path: String, from: Int) throws -> RunStart {
        let record = try recordFileOrExit { () throws(RecordError) in try RunRecord.load(path: path, keyframeAtOrBefore: from) }
        guard from <= record.steps else {
            printError("cratedrop: --from \(from) is past the end of \(path) (\(record.steps) steps)")
            throw ExitCodes.usage
        }
        let start = RunStart.record(record, path: path, from: from)
        if start.state == nil, from > 0 {
            let why = if let first = record.keyframeSteps.first, record.keyframe == nil { "its first keyframe is after step \(first)" }
                else if record.keyframe == nil { "it holds no keyframes (record with --keyframes K to have them)" }
                else { "its keyframes need CrateDrop's Chipmunk (this cratedrop runs on Debian's libchipmunk7)" }
            printError("cratedrop: warning: \(path): \(why): stepping from step 0 to step \(from)")
        }
        return start
    }

    /// The run's length: `--seconds`, else a record's own length, else 10 s.
    static func length(_ start: RunStart, seconds: String?) throws -> RunEnd {
        if let seconds = seconds.flatMap(DecimalSeconds.init) { return .duration(seconds) }
        guard let record = start.record else { return .duration(DecimalSeconds("10")!) }
        guard let duration = DecimalSeconds.covering(steps: record.run.steps, atRate: record.run.scene.stepRate) else {
            printError("cratedrop: \(record.path): \(record.run.steps) steps is longer than CrateDrop runs (10^9 s)")
            throw ExitCodes.dataError
        }
        return .duration(duration)
    }
}
