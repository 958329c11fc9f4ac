import Physics
import SceneModel

/// Tells of spawned crates the world could not make where they appear (a heap there, the body
/// limit): the first as it happens, with its step and why, and how many in all when the run ends.
/// Present when the scene has spawners.
public final class RefusedSpawnStage: StepStage {
    private let onWarning: (String) -> Void
    /// Refusals told so far (the first, as it happened).
    private var told = 0
    private var refusedInAll = 0

    public init(onWarning: @escaping (String) -> Void) {
        self.onWarning = onWarning
    }

    public func afterStep(_ state: StepState) {
        let world = state.world
        refusedInAll = world.refusedSpawnCount
        guard told == 0, let first = world.refusedSpawns.first else { return }
        told = 1
        onWarning("spawners[\(first.spawner)]'s crate \(first.crate) was not made at step \(first.step): \(first.reason)"
                  + " (later ones are counted when the run ends)")
    }

    public func finish(_ ending: RunEnding, into reports: inout StageReports) {
        if refusedInAll > told { onWarning("\(refusedInAll) spawned crates were not made in all") }
    }
}

extension RefusedSpawnStage: PlannedStage {
    static var position: StepPipeline.Position { .watch }

    static func make(_ setup: StageSetup) -> RefusedSpawnStage? {
        setup.world.spawners.isEmpty ? nil : RefusedSpawnStage(onWarning: setup.onWarning)
    }
}
