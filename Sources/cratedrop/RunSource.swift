import ArgumentParser
import CLISupport
import SceneModel
import Script

/// What `run` and `replay` drive: a scene file, or a run record (README, "Records"), which
/// brings its own scene, gravity changes, step count and checkpoints.
struct RunSource {
    var scene: Scene
    var sceneFile: String
    var sceneText: [UInt8]
    var duration: DecimalSeconds
    /// The gravity input: `--gravity`, or the record itself.
    var gravityPath: String?
    var record: RunRecord?

    /// Opens `path` as a record when its first line is a record header, else as a scene file. (A
    /// record made in another class is warned about when it is opened as the gravity input.)
    /// - Parameters:
    ///   - seconds: `--seconds`; default 10 for a scene, the record's own steps for a record.
    ///   - gravity: `--gravity`, which a record refuses (it carries its own).
    static func open(_ path: String, seconds: String?, gravity: String?) throws -> RunSource {
        guard RunRecord.header(atPath: path) != nil else {
            let (scene, text) = try loadSceneWithTextOrExit(path)
            return RunSource(scene: scene, sceneFile: path, sceneText: text, duration: DecimalSeconds(seconds ?? "10")!,
                             gravityPath: gravity, record: nil)
        }
        if gravity != nil {
            printError("cratedrop: \(path) is a run record, which carries its own gravity changes: drop --gravity")
            throw ExitCodes.usage
        }
        return try record(path, seconds: seconds)
    }

    /// Opens the run record at `path` (which must be one).
    static func record(_ path: String, seconds: String? = nil) throws -> RunSource {
        let record = try loadRecordOrExit(path)
        guard let duration = seconds.flatMap(DecimalSeconds.init)
            ?? DecimalSeconds.covering(steps: record.steps, atRate: record.scene.stepRate) else {
            printError("cratedrop: \(path): \(record.steps) steps is longer than CrateDrop runs (10^9 s)")
            throw ExitCodes.dataError
        }
        return RunSource(scene: record.scene, sceneFile: record.header.sceneFile, sceneText: record.sceneText,
                         duration: duration, gravityPath: path, record: record)
    }

    /// The checkpoints a replay is verified against: the record's, and its end line's hash.
    var checkpointsToVerify: [Checkpoint] {
        guard let record else { return [] }
        var checkpoints = record.checkpoints
        if let end = record.end, checkpoints.last.map({ $0.step < end.steps }) ?? (end.steps > 0) {
            checkpoints.append(Checkpoint(step: end.steps, hash: end.hash, state: nil))
        }
        return checkpoints
    }
}
