#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Driver
import Physics
import SceneModel
import Script

extension AxisPreset: ExpressibleByArgument {}
extension GravityScriptedWorld.BadLinePolicy: ExpressibleByArgument {}

/// The options that feed gravity from a JSON Lines stream (README, "Gravity streams").
struct GravityOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Gravity changes as JSON Lines from FILE, '-' (stdin) or a named pipe.", valueName: "FILE"))
    var gravity: String?

    @Option(help: ArgumentHelp("How accel readings map to gravity: portrait or landscape (x and y swapped).", valueName: "PRESET"))
    var axes: AxisPreset = .portrait

    @Option(help: ArgumentHelp("Write every gravity change applied, with its exact step, to FILE (replayable with --gravity).", valueName: "FILE"))
    var record: String?

    @Option(help: ArgumentHelp("On a malformed gravity line: stop (the default) or skip it with a warning.", valueName: "stop|skip"))
    var onBadLine: GravityScriptedWorld.BadLinePolicy = .stop

    func validate() throws {
        if gravity == nil, record != nil { throw ValidationError("--record needs --gravity") }
        if let gravity, let record, gravity != "-", Self.sameFile(gravity, record) {
            throw ValidationError("--record \(record) would overwrite the --gravity input it reads")
        }
    }

    /// Whether two paths name one existing file (so writing one would truncate the other).
    private static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// The world wrapped with the gravity stream, or nil without --gravity. Opens the stream and
    /// the record file now, so a missing file ends the command before any step.
    func scriptedWorld(_ world: World, scene: Scene, waitsForInput: Bool) throws -> GravityScriptedWorld? {
        guard let path = gravity else { return nil }
        let source: GravityStream.Source
        do {
            source = try GravityStream.open(path: path)
        } catch {
            printError("cratedrop: \(error)")
            throw ExitCodes.noInput
        }
        var recorder: GravityRecorder?
        if let record {
            do {
                recorder = try GravityRecorder(path: record)
            } catch {
                printError("cratedrop: \(error)")
                throw ExitCodes.cannotCreate
            }
        }
        let parser = GravityLineParser(source: path == "-" ? "stdin" : path, stepRate: scene.stepRate,
                                       gravityMagnitude: scene.gravity.length, axes: axes)
        return GravityScriptedWorld(world: world, stream: GravityStream(source: source, parser: parser), waitsForInput: waitsForInput,
                                    policy: onBadLine, recorder: recorder, shouldStop: { StopSignals.received != nil }) { error in
            printError("cratedrop: warning: skipped \(error)")
        }
    }

    /// Reports how the gravity input ended: throws the exit code for a bad line, a read error or a
    /// record that could not be written (after the caller has printed its results).
    static func finish(_ scripted: GravityScriptedWorld?) throws {
        guard let scripted else { return }
        let recordFailure = scripted.closeRecord()
        if let failure = scripted.failure {
            printError("cratedrop: \(failure)")
            throw ExitCodes.dataError
        }
        if let readError = scripted.readError {
            printError("cratedrop: \(scripted.source): \(readError)")
            throw ExitCodes.ioError
        }
        if let recordFailure {
            printError("cratedrop: \(recordFailure)")
            throw ExitCodes.ioError
        }
    }

    /// The summary's `gravity` object.
    static func summary(_ scripted: GravityScriptedWorld?) -> String {
        guard let scripted else { return "null" }
        let error = scripted.failure.map { RunSummary.quoted($0.description) } ?? "null"
        return "{\"source\":\(RunSummary.quoted(scripted.source)),\"changes_applied\":\(scripted.changesApplied),"
            + "\"lines_skipped\":\(scripted.linesSkipped),\"error\":\(error)}"
    }
}
