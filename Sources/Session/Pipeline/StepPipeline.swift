import Driver
import Physics
import SceneModel

/// The one ordered step pipeline every run goes through, as the driver's `Simulation`:
/// a live history's branch and inputs applied at the step boundary → synctest (a look-ahead from
/// a saved state, restored) → step → record → check → watch (bodies leaving the world) → data
/// rows → hash trail → saved states; after each frame's steps, the frame drawn. Which stages are
/// present is the plan's business; their order is this type's.
public final class StepPipeline: Simulation {
    /// The stage kinds, in the order they run.
    public enum Position: Int, Comparable, Sendable {
        case rewind, input, synctest, record, check, watch, data, hashTrail, savedStates, frames
        public static func < (a: Position, b: Position) -> Bool { a.rawValue < b.rawValue }
    }

    public let world: World
    private let state: StepState
    /// The stages present, in the order they run.
    let stages: [StepStage]

    /// - Parameters:
    ///   - world: the world each step advances.
    ///   - stages: the stages present, each at its position (sorted here, stably).
    public init(world: World, stages: [(Position, StepStage)]) {
        self.world = world
        state = StepState(world: world)
        self.stages = stages.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
    }

    public func prepareStep() -> Bool {
        // A stage that ended the run is seen before any input applies a change that no step would follow;
        // so is a world that went non-finite.
        if world.nonFinite != nil || stages.contains(where: \.haltsRun) { return false }
        return stages.allSatisfy { $0.beforeStep(state) }
    }

    /// Steps the world; after a step that left it non-finite no stage sees it (nothing records,
    /// writes or draws NaN), and the run ends (`RunEngine` reports `World.nonFinite`).
    public func step() {
        world.step()
        guard world.nonFinite == nil else { return }
        for stage in stages { stage.afterStep(state) }
    }

    public func snapshot() -> WorldSnapshot { state.snapshot }
}
