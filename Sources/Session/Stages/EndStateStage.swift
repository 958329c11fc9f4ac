import Physics

/// `--save-state FILE`: the world's state at the end of the run, whatever ended it, saved also
/// after a periodic save failed (it may be another disk).
final class EndStateStage: StepStage {
    private let path: String
    private let writer: StateFileWriter
    private let world: World

    init(path: String, writer: StateFileWriter, world: World) {
        self.path = path
        self.writer = writer
        self.world = world
    }

    func finish(_ ending: RunEnding, into reports: inout StageReports) {
        if let failure = writer.write(world, to: path) { reports.add(failure.problem) }
    }
}

extension EndStateStage: PlannedStage {
    static var position: StepPipeline.Position { .savedStates }

    static func prepare(_ setup: StageSetup) throws(RunSetupError) {
        if setup.plan.saveStatePath != nil { try setup.requireSavedStates(for: "--save-state") }
    }

    static func make(_ setup: StageSetup) -> EndStateStage? {
        setup.plan.saveStatePath.map { EndStateStage(path: $0, writer: setup.stateWriter, world: setup.world) }
    }
}
