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
extension GravityInput.BadLinePolicy: ExpressibleByArgument {}

/// The options that feed inputs (gravity, and pushes, velocities and forces on bodies) from a
/// JSON Lines stream (docs/command-line.md).
struct GravityOptions: ParsableArguments {
    @Option(name: [.customLong("inputs"), .customLong("gravity")],
            help: ArgumentHelp("Inputs as JSON Lines from FILE, '-' (stdin) or a named pipe: gravity changes, and bodies' impulses, velocities and held forces (--gravity is the same option).", valueName: "FILE"), completion: .file())
    var gravity: String?

    @Option(help: ArgumentHelp("How accel readings map to gravity: portrait or landscape (x and y swapped).", valueName: "PRESET"))
    var axes: AxisPreset = .portrait

    @Option(help: ArgumentHelp("Write a run record to FILE: the scene, every input applied with its exact step, and state checkpoints (replay and verify with `cratedrop replay FILE --verify`).", valueName: "FILE"), completion: .file())
    var record: String?

    @Option(help: ArgumentHelp("On a malformed or inapplicable input line: stop (the default) or skip it with a warning.", valueName: "stop|skip"))
    var onBadLine: GravityInput.BadLinePolicy = .stop

    @Option(parsing: .unconditional, help: ArgumentHelp("With --record: keep the world's saved state in the record every K steps, so `replay --from STEP` starts near STEP (CrateDrop's Chipmunk).", valueName: "K"))
    var keyframes: Int?

    func validate() throws {
        if let keyframes {
            guard keyframes >= 1 else { throw ValidationError("--keyframes must be >= 1, got \(keyframes)") }
            guard record != nil else { throw ValidationError("--keyframes needs --record FILE: keyframes are kept in a run record") }
        }
    }

    /// The files this option group reads, for `OutputChecks`.
    var inputs: [(what: String, path: String)] { gravity.flatMap { $0 == "-" ? nil : [("the --gravity input", $0)] } ?? [] }

    /// The files this option group writes, for `OutputChecks`.
    var outputs: [(option: String, path: String)] { record.map { [("--record", $0)] } ?? [] }

    /// Puts the gravity input (unless the run replays a record, which is its own) and the record into `plan`.
    func apply(to plan: inout RunPlan) {
        if let path = gravity ?? plan.start.record?.path {
            plan.gravity = RunPlan.GravityInputPlan(.stream(path: path, axes: axes), badLines: onBadLine)
        }
        plan.recordPath = record
        plan.keyframeEvery = keyframes
    }
}
