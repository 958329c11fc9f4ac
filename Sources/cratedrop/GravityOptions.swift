#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Driver
import Physics
import SceneModel
import SceneFile
import Session
import Script

extension AxisPreset: ExpressibleByArgument {}
extension GravityScriptedWorld.BadLinePolicy: ExpressibleByArgument {}

/// The options that feed gravity from a JSON Lines stream (README, "Gravity streams").
struct GravityOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Gravity changes as JSON Lines from FILE, '-' (stdin) or a named pipe.", valueName: "FILE"), completion: .file())
    var gravity: String?

    @Option(help: ArgumentHelp("How accel readings map to gravity: portrait or landscape (x and y swapped).", valueName: "PRESET"))
    var axes: AxisPreset = .portrait

    @Option(help: ArgumentHelp("Write a run record to FILE: the scene, every gravity change applied with its exact step, and state checkpoints (replay and verify with `cratedrop replay FILE --verify`).", valueName: "FILE"), completion: .file())
    var record: String?

    @Option(help: ArgumentHelp("On a malformed gravity line: stop (the default) or skip it with a warning.", valueName: "stop|skip"))
    var onBadLine: GravityScriptedWorld.BadLinePolicy = .stop

    /// The files this option group reads, for `OutputChecks`.
    var inputs: [(what: String, path: String)] { gravity.flatMap { $0 == "-" ? nil : [("the --gravity input", $0)] } ?? [] }

    /// The files this option group writes, for `OutputChecks`.
    var outputs: [(option: String, path: String)] { record.map { [("--record", $0)] } ?? [] }

    /// The world wrapped with the gravity stream and the record, as asked. Opens the stream and
    /// the record file now, so a missing file ends the command before any step.
    /// - Parameter gravityPath: the gravity input; default `--gravity` (a replayed record names itself).
    func drivenWorld(_ world: World, scene: Scene, sceneFile: String, sceneText: [UInt8], waitsForInput: Bool,
                     gravityPath: String? = nil) throws -> DrivenWorld {
        var recorder: RunRecorder?
        if let record {
            do {
                recorder = try RunRecorder(path: record, header: .thisProcess(sceneFile: sceneFile), sceneText: sceneText,
                                           schedule: TrailSchedule(bodies: world.crates.count, stepRate: scene.stepRate))
            } catch {
                printError("cratedrop: \(error)")
                throw ExitCodes.cannotCreate
            }
        }
        let scripted = try (gravityPath ?? gravity).map { path in
            try Self.scriptedWorld(world, path: path, scene: scene, axes: axes, policy: onBadLine, waitsForInput: waitsForInput,
                                   recorder: recorder)
        }
        let recording = recorder.map { RecordingSimulation(scripted ?? world, recorder: $0) }
        return DrivenWorld(world: world, scripted: scripted, recording: recording)
    }

    /// The world driven by the gravity stream at `path` ('-' for stdin); a record made in another
    /// determinism class gets one warning.
    static func scriptedWorld(_ world: World, path: String, scene: Scene, axes: AxisPreset, policy: GravityScriptedWorld.BadLinePolicy,
                              waitsForInput: Bool, recorder: RunRecorder?) throws -> GravityScriptedWorld {
        let source: GravityStream.Source
        do {
            source = try GravityStream.open(path: path)
        } catch {
            printError("cratedrop: \(error)")
            throw ExitCodes.noInput
        }
        if path != "-", let warning = RunRecord.header(atPath: path)?.crossClassWarning {
            printError("cratedrop: warning: \(path): \(warning)")
        }
        let parser = GravityLineParser(source: path == "-" ? "stdin" : path, stepRate: scene.stepRate,
                                       gravityMagnitude: scene.gravity.length, axes: axes)
        return GravityScriptedWorld(world: world, stream: GravityStream(source: source, parser: parser), waitsForInput: waitsForInput,
                                    policy: policy, recorder: recorder, shouldStop: { StopSignals.received != nil }) { error in
            printError("cratedrop: warning: skipped \(error)")
        }
    }

    /// Finishes the record (its end line) and reports how the inputs ended: the exit code for a
    /// bad line (65), a read error or a record that could not be written (74), with its message on
    /// stderr, or nil. Called before the command prints its results, so the record is complete
    /// whatever happens to stdout; the caller throws the code after printing.
    static func finish(_ driven: DrivenWorld) -> ExitCode? {
        let recordFailure = driven.recording?.finish()
        if let scripted = driven.scripted {
            if let failure = scripted.failure {
                printError("cratedrop: \(failure)")
                return ExitCodes.dataError
            }
            if let readError = scripted.readError {
                printError("cratedrop: \(scripted.source): \(readError)")
                return ExitCodes.ioError
            }
        }
        if let recordFailure {
            printError("cratedrop: \(recordFailure)")
            return ExitCodes.ioError
        }
        return nil
    }

    /// Every change of a gravity file with its step (timed lines only), or the command ends with
    /// the first bad line (exit 65) or an unreadable file (66).
    static func timedChanges(path: String, scene: Scene) throws -> [(step: Int, gravity: Vec2)] {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path: path, limit: RunRecord.maxFileSize)
        } catch {
            printError("cratedrop: \(path): \(error)")
            throw ExitCodes.noInput
        }
        var parser = GravityLineParser(source: path, stepRate: scene.stepRate, gravityMagnitude: scene.gravity.length, axes: .portrait)
        var changes: [(step: Int, gravity: Vec2)] = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let text = line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : Array(line)
            if text.isEmpty { continue }
            switch parser.read(text, line: index + 1) {
            case let .success(command?):
                guard case let .step(step) = command.when else {
                    printError("cratedrop: \(path):\(index + 1): an untimed line has no step")
                    throw ExitCodes.dataError
                }
                changes.append((step, command.gravity))
            case .success(nil):
                continue
            case let .failure(error):
                printError("cratedrop: \(error)")
                throw ExitCodes.dataError
            }
        }
        return changes
    }

    /// The summary's `gravity` object.
    static func summary(_ scripted: GravityScriptedWorld?) -> String {
        guard let scripted else { return "null" }
        let error = scripted.failure.map { RunSummary.quoted($0.description) } ?? "null"
        return "{\"source\":\(RunSummary.quoted(scripted.source)),\"changes_applied\":\(scripted.changesApplied),"
            + "\"lines_skipped\":\(scripted.linesSkipped),\"error\":\(error)}"
    }
}

/// The world as a command drives it: wrapped with the gravity stream and the record, as asked.
struct DrivenWorld {
    let world: World
    let scripted: GravityScriptedWorld?
    let recording: RecordingSimulation?

    /// What the driver steps: the outermost wrapper.
    var simulation: Simulation {
        if let recording { return recording }
        if let scripted { return scripted }
        return world
    }
}
