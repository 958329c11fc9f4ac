import Physics
import SceneModel

/// A rollback session, as fighting games and GGPO run them: every step's inputs (local ones on
/// time, remote ones when they arrive) and the world's saved state before every recent step. An
/// input that arrives for a step already simulated rolls the world back to that step's state and
/// simulates forward again with it: the world then is exactly the one it would have been had the
/// input come on time (CrateDrop's saved states continue bit for bit).
public final class RollbackSession {
    public let world: World
    /// Inputs by the step they act on (applied after that many steps, before the next).
    private var inputs: [Int: [(body: BodyID, input: BodyInput)]] = [:]
    /// The world's state before each of the last `window` steps.
    private var states: [Int: WorldState] = [:]
    public let window: Int
    /// Rollbacks done, and steps simulated again because of them.
    public private(set) var rollbacks = 0
    public private(set) var resimulatedSteps = 0

    public init(world: World, window: Int = 120) {
        self.world = world
        self.window = window
    }

    /// An input for `step`: applied when that step comes, or, if it has passed (a late remote
    /// input), by rolling back to it.
    /// - Throws: `StateError` when the step is older than the window keeps; `PhysicsError` for a bad input.
    public func receive(_ input: BodyInput, for body: BodyID, at step: Int) throws {
        inputs[step, default: []].append((body, input))
        guard step < world.stepCount else { return }
        guard let state = states[step] else { throw StateError.malformed("step \(step) is older than the \(window) steps kept") }
        let present = world.stepCount
        try world.restore(state)
        rollbacks += 1
        while world.stepCount < present {
            try advance()
            resimulatedSteps += 1
        }
    }

    /// Takes one step: keeps the state before it, applies the step's inputs, steps.
    public func advance() throws {
        let step = world.stepCount
        states[step] = try world.saveState()
        states[step - window] = nil
        for (body, input) in inputs[step] ?? [] { try world.apply(input, to: body) }
        world.step()
    }
}

/// The arena: a floor and two walls, a player box (id 1) and a ball (id 2) it can push.
public func makeArena() throws -> World {
    let world = try World(gravity: Vec2(0, -1000))
    for (from, to) in [(Vec2(0, 0), Vec2(600, 0)), (Vec2(0, 0), Vec2(0, 400)), (Vec2(600, 0), Vec2(600, 400))] {
        try world.addWall(WallSpec(from: from, to: to, radius: 2, friction: 0.8))
    }
    try world.addCrate(CrateSpec(center: Vec2(100, 22), size: Vec2(40, 40), mass: 5, friction: 0.8))
    try world.addCrate(CrateSpec(center: Vec2(300, 22), shape: .circle(radius: 20), mass: 1, friction: 0.8, elasticity: 0.5))
    return world
}
