import SceneModel

/// Watches for bodies that leave the world: every `interval` steps, a body whose centre lies outside
/// the world's rectangle by more than its size (the larger side of its bounding box) has left it,
/// as a crate thrown out of a world without bounding walls does. Chipmunk keeps simulating it,
/// but nothing draws it and it falls for ever. The first such body is reported once, by id and
/// step, through `onWarning`; later ones are not, so a run warns at most once.
///
/// Looking costs a copy of the state when no other stage made one for the step: measured on a
/// debug build, `hash Scenes/pile-1000.json --seconds 4` took 1.05-1.14 s looking after every
/// step against 0.94-0.97 s without the stage. So it looks every 1/20 s of simulated time (6
/// steps at 120 Hz), which a body leaving at any sane speed cannot cross back in.
public final class LeftWorldStage: StepStage {
    private let worldSize: Vec2
    private var bodyShapes: BodyShapes
    private let onWarning: (String) -> Void
    /// Steps between looks: stepRate / 20, at least 1.
    public let interval: Int
    /// The first body seen outside, and the step it was seen at.
    public private(set) var departure: (body: BodyID, step: Int)?

    /// - Parameters:
    ///   - worldSize: the world's rectangle, from (0, 0) to this corner, in world pixels.
    ///   - onWarning: told once, on the stepping thread, of the first body that left.
    ///   - stepRate: the scene's steps per second, which sets `interval`.
    ///   - bodyShapes: the bodies' shapes, whose sizes set how far out a body has left.
    public init(worldSize: Vec2, stepRate: Int, bodyShapes: BodyShapes, onWarning: @escaping (String) -> Void) {
        self.worldSize = worldSize
        self.bodyShapes = bodyShapes
        interval = Self.interval(stepRate: stepRate)
        self.onWarning = onWarning
    }

    public func afterStep(_ state: StepState) {
        guard departure == nil, state.step % interval == 0 else { return }
        let snapshot = state.snapshot
        // An added body's shape comes with the parts of a world that changed.
        if let parts = snapshot.parts { bodyShapes = parts.bodyShapes }
        guard let index = snapshot.bodies.indices.first(where: { hasLeft(snapshot.bodies[$0], at: $0) }) else { return }
        let body = snapshot.bodies[index]
        departure = (body.id, snapshot.step)
        let centre = body.position
        onWarning("body \(body.id) left the world at step \(snapshot.step) (t = \(Self.seconds(snapshot.step, state.world.stepRate)) s): "
                  + "its centre (\(Self.rounded(centre.x)), \(Self.rounded(centre.y))) is outside the world (0...\(Self.rounded(worldSize.x)), "
                  + "0...\(Self.rounded(worldSize.y))) by more than its size; add walls to keep it in (later departures are not reported)")
    }

    /// Steps between looks at `stepRate`.
    public static func interval(stepRate: Int) -> Int { max(1, stepRate / 20) }

    /// Whether `body` (at `index` of its snapshot) has its centre outside the world by more than its size.
    func hasLeft(_ body: BodyState, at index: Int) -> Bool {
        let size = bodyShapes.shape(of: body, at: index)?.boundingSize ?? .zero
        let margin = max(size.x, size.y)
        let p = body.position
        return p.x < -margin || p.y < -margin || p.x > worldSize.x + margin || p.y > worldSize.y + margin
    }

    private static func rounded(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        return String((value * 10).rounded() / 10)
    }

    private static func seconds(_ step: Int, _ stepRate: Int) -> String {
        String(Double(step) / Double(stepRate))
    }
}

extension LeftWorldStage: PlannedStage {
    static var position: StepPipeline.Position { .watch }

    static func make(_ setup: StageSetup) -> LeftWorldStage? {
        guard setup.plan.watchesBodiesLeaving else { return nil }
        return LeftWorldStage(worldSize: setup.scene.worldSize, stepRate: setup.scene.stepRate, bodyShapes: setup.world.bodyShapes,
                              onWarning: setup.onWarning)
    }
}
