import ArgumentParser
import Session

/// `--save-state FILE` and `--save-every STEPS DIR`: saved states out of `run` and `hash`
/// (docs/determinism.md, "Saved states"; portable backend).
struct StateOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Save the world's state at the end to FILE; `cratedrop hash FILE` or `cratedrop run FILE` continues it exactly (CrateDrop's Chipmunk).", valueName: "FILE"), completion: .file())
    var saveState: String?

    @Option(name: .customLong("save-every"), parsing: .upToNextOption,
            help: ArgumentHelp("Save the state every STEPS steps (counted from the scene's start) as DIR/step-NNNNNNNNN.state; DIR is created if missing (CrateDrop's Chipmunk).", valueName: "STEPS DIR"))
    var saveEvery: [String] = []

    /// The file these options write, for `OutputChecks` (the folder is checked when it is made).
    var outputs: [(option: String, path: String)] {
        saveState.map { [("--save-state", $0)] } ?? []
    }

    func validate() throws {
        _ = try periodicStates
    }

    /// `--save-every`'s values, checked.
    private var periodicStates: RunPlan.PeriodicStates? {
        get throws {
            guard !saveEvery.isEmpty else { return nil }
            guard saveEvery.count == 2 else {
                throw ValidationError("--save-every takes two values, STEPS and DIR (e.g. --save-every 120 out/states), got \(saveEvery.count)")
            }
            guard let every = Int(saveEvery[0]), every >= 1 else {
                throw ValidationError("--save-every STEPS must be a whole number of steps >= 1, got '\(saveEvery[0])'")
            }
            return RunPlan.PeriodicStates(every: every, directory: saveEvery[1])
        }
    }

    func apply(to plan: inout RunPlan) throws {
        plan.saveStatePath = saveState
        plan.periodicStates = try periodicStates
    }
}
