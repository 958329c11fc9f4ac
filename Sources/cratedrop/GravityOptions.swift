#if canImport(Glibc)
import CLISupport
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

    /// The world wrapped with the gravity stream and the record, as asked; a file that cannot be
    /// opened or created ends the command (66, 73) before any step.
    /// - Parameter gravityPath: the gravity input; default `--gravity` (a replayed record names itself).
    func drivenWorld(_ world: World, scene: Scene, sceneFile: String, sceneText: [UInt8], waitsForInput: Bool,
                     gravityPath: String? = nil) throws -> DrivenWorld {
        let inputs = RunInputs(gravityPath: gravityPath ?? gravity, axes: axes, badLines: onBadLine, recordPath: record)
        return try Self.open(world, scene: scene, sceneFile: sceneFile, sceneText: sceneText, inputs: inputs, waitsForInput: waitsForInput)
    }

    /// Opens a run's inputs for a command: warnings to stderr, setup failures as exit codes.
    static func open(_ world: World, scene: Scene, sceneFile: String, sceneText: [UInt8], inputs: RunInputs,
                     waitsForInput: Bool) throws -> DrivenWorld {
        do {
            return try DrivenWorld(world: world, scene: scene, sceneFile: sceneFile, sceneText: sceneText, inputs: inputs,
                                   waitsForInput: waitsForInput, shouldStop: { StopSignals.received != nil }) { warning in
                printError("cratedrop: warning: \(warning)")
            }
        } catch {
            printError("cratedrop: \(error)")
            switch error {
            case .gravityUnreadable: throw ExitCodes.noInput
            case .recordNotCreated: throw ExitCodes.cannotCreate
            }
        }
    }

    /// Finishes the record and reports how the inputs ended: the exit code for a bad line (65), a
    /// read error or a record that could not be written (74), with its message on stderr, or nil.
    /// The caller prints its results, then throws the code.
    static func finish(_ driven: DrivenWorld) -> ExitCode? {
        switch driven.finish() {
        case .complete: return nil
        case let .badLine(error):
            printError("cratedrop: \(error)")
            return ExitCodes.dataError
        case let .readError(text), let .recordNotWritten(text):
            printError("cratedrop: \(text)")
            return ExitCodes.ioError
        }
    }
}
