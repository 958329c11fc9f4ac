import Physics
import SceneModel
import TestSupport
import Testing

/// Rules of contact (issue 45): one-way shapes and conveyors, decided in one place (the contact
/// hooks) with the contact events, and kept in saved states.
@Suite(.timeLimit(.minutes(3))) struct ContactRulesTests {
    /// A platform at y 100 (a segment wall, one-way up when `oneWay`), a box thrown up at it from
    /// below and a box dropped on it from above.
    static func platformScene(oneWay: Bool = true) -> Scene {
        var platform = WallSpec(from: Vec2(50, 100), to: Vec2(350, 100), radius: 3)
        if oneWay { platform.rules = ContactRules(oneWay: Vec2(0, 1)) }
        return Scene(name: "platform", worldSize: Vec2(400, 300), gravity: Vec2(0, -1000), walls: [platform], bounds: BoundsWalls(radius: 2),
                     crates: [CrateSpec(center: Vec2(100, 40), size: Vec2(20, 20), velocity: Vec2(0, 700), mass: 1),
                              CrateSpec(center: Vec2(250, 200), size: Vec2(20, 20), mass: 1)])
    }

    static func trail(_ world: World, steps: Int) -> [StateHash] {
        (0..<steps).map { _ in
            world.step()
            return world.stateHash
        }
    }

    /// The box thrown from below passes up through the one-way platform and comes to rest on it;
    /// the box dropped from above rests on it too. Without the rule the platform stops the first
    /// box from below.
    @Test func aOneWayPlatformLetsBodiesUpThroughAndHoldsThemFromAbove() throws {
        let world = try World(scene: Self.platformScene())
        for _ in 0..<240 { world.step() }
        let bodies = world.snapshot().bodies
        #expect(abs(bodies[0].position.y - 113) < 1, "the thrown box rests on the platform: y \(bodies[0].position.y)")
        #expect(abs(bodies[1].position.y - 113) < 1, "the dropped box rests on the platform: y \(bodies[1].position.y)")
        let solid = try World(scene: Self.platformScene(oneWay: false))
        for _ in 0..<240 { solid.step() }
        #expect(solid.snapshot().bodies[0].position.y < 100, "a plain platform stops the box from below")
    }

    /// The events writer is a link in the same chain as the rules: with `recordsContactEvents` on,
    /// the one-way platform acts exactly as with it off, step by step. (Were the events' handler to
    /// replace the rules', the box from below would bounce off the platform's underside.)
    @Test func aOneWayPlatformActsTheSameWithAndWithoutEvents() throws {
        let quiet = try World(scene: Self.platformScene()), noting = try World(scene: Self.platformScene())
        noting.recordsContactEvents = true
        let withoutEvents = Self.trail(quiet, steps: 300), withEvents = Self.trail(noting, steps: 300)
        let firstDifference = zip(withoutEvents, withEvents).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "parts at step \(firstDifference.map { $0 + 1 } ?? 0)")
        let solid = Self.trail(try World(scene: Self.platformScene(oneWay: false)), steps: 300)
        #expect(solid != withoutEvents, "the rule changes the run")
    }

    /// Events tell only what the rules let through: the box passing up through the platform makes
    /// no begin with it, its landing on top does (once), and the box dropped on it begins once.
    @Test func anIgnoredContactMakesNoEvents() throws {
        let world = try World(scene: Self.platformScene())
        world.recordsContactEvents = true
        var withPlatform: [(step: Int, kind: ContactEvent.Kind, body: UInt64)] = []
        for _ in 0..<240 {
            world.step()
            // The platform is the first wall after the four bounds: party −5, reported as wall index 4.
            for event in world.contactEvents where event.b == .wall(4) {
                if case let .body(id) = event.a { withPlatform.append((world.stepCount, event.kind, id.rawValue)) }
            }
        }
        let thrown = withPlatform.filter { $0.body == 1 }, dropped = withPlatform.filter { $0.body == 2 }
        #expect(thrown.map(\.kind) == [.begin], "\(thrown)")
        #expect(dropped.map(\.kind) == [.begin], "\(dropped)")
        // The thrown box reaches the platform's top only after rising above it (about 0.7 s).
        #expect((thrown.first?.step ?? 0) > 60)
    }

    /// A conveyor (a wall whose surface moves at −150 px/s) carries a box resting on it to the left;
    /// the same wall without a surface velocity holds it still.
    @Test func aConveyorCarriesWhatRestsOnIt() throws {
        func scene(surface: Vec2?) -> Scene {
            var belt = WallSpec(from: Vec2(20, 50), to: Vec2(380, 50), radius: 4, friction: 0.9)
            belt.rules = ContactRules(surfaceVelocity: surface)
            return Scene(name: "belt", worldSize: Vec2(400, 300), gravity: Vec2(0, -1000), walls: [belt],
                         crates: [CrateSpec(center: Vec2(300, 65), size: Vec2(20, 20), mass: 1, friction: 0.9)])
        }
        let moving = try World(scene: scene(surface: Vec2(-150, 0))), still = try World(scene: scene(surface: nil))
        for _ in 0..<120 {
            moving.step()
            still.step()
        }
        #expect(moving.snapshot().bodies[0].position.x < 200, "carried left: x \(moving.snapshot().bodies[0].position.x)")
        #expect(abs(still.snapshot().bodies[0].position.x - 300) < 1)
    }

    /// Saved while the thrown box is inside the platform (its contact ignored, which the arbiter
    /// remembers) and restored into a fresh world, with and without events: the same hash at
    /// every step after. Restoring the ignored contact as a live one would stop the box inside
    /// the platform.
    @Test(.needsSavedStates(World.canSaveState), arguments: [false, true])
    func aWorldSavedWhileABodyPassesThroughContinuesBitForBit(events: Bool) throws {
        let original = try World(scene: Self.platformScene())
        original.recordsContactEvents = events
        var insideAt: Int?
        for _ in 0..<120 where insideAt == nil {
            original.step()
            let y = original.snapshot().bodies[0].position.y
            if y > 95, y < 105 { insideAt = original.stepCount }
        }
        #expect(insideAt != nil, "the box passes through the platform")
        // Read back from its bytes, as from a file: every byte is checked (the ignored contact too).
        let state = try WorldState(bytes: try original.saveState().bytes)
        let copy = try World(scene: Self.platformScene())
        copy.recordsContactEvents = events
        try copy.restore(state)
        let straight = Self.trail(original, steps: 200), continued = Self.trail(copy, steps: 200)
        let firstDifference = zip(straight, continued).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "parts \(firstDifference.map { $0 + 1 } ?? 0) steps after the restore")
        #expect(try copy.saveState().bytes == original.saveState().bytes)
    }

    /// A crate and a wall added as the world runs keep their rules in the make-up log: a state
    /// saved after them restores into a world rebuilt from the scene and the log, bit for bit.
    @Test(.needsSavedStates(World.canSaveState)) func rulesAddedAsTheWorldRunsAreInSavedStates() throws {
        let world = try World(scene: Self.platformScene(oneWay: false))
        for _ in 0..<10 { world.step() }
        var ledge = WallSpec(from: Vec2(200, 180), to: Vec2(380, 180), radius: 3)
        ledge.rules = ContactRules(oneWay: Vec2(0, 1), surfaceVelocity: Vec2(50, 0))
        try world.apply(.addWall(ledge))
        var riser = CrateSpec(center: Vec2(300, 150), size: Vec2(16, 16), velocity: Vec2(0, 500), mass: 1)
        riser.rules = ContactRules(surfaceVelocity: Vec2(0, 10))
        try world.apply(.addCrate(riser))
        for _ in 0..<12 { world.step() }
        let state = try WorldState(bytes: try world.saveState().bytes)
        let copy = try World(scene: Self.platformScene(oneWay: false))
        try copy.restore(state)
        let straight = Self.trail(world, steps: 150), continued = Self.trail(copy, steps: 150)
        #expect(straight == continued)
        #expect(world.snapshot().bodies[2].position.y > 185, "the riser passed up through the ledge and rests on it")
    }

    /// Bad rules are refused with their field before anything reaches Chipmunk.
    @Test func badRulesAreRefusedByField() {
        func problems(_ rules: ContactRules) -> [String] {
            var crate = CrateSpec(center: Vec2(10, 10), size: Vec2(5, 5), mass: 1)
            crate.rules = rules
            return crate.problems().map(\.field)
        }
        #expect(problems(ContactRules(oneWay: Vec2(0, 0))) == ["one_way"])
        #expect(problems(ContactRules(oneWay: Vec2(.nan, 1))) == ["one_way"])
        #expect(problems(ContactRules(oneWay: Vec2(0, .infinity))) == ["one_way"])
        #expect(problems(ContactRules(surfaceVelocity: Vec2(.infinity, 0))) == ["surface_velocity[0]"])
        #expect(problems(ContactRules(surfaceVelocity: Vec2(0, 2e6))) == ["surface_velocity[1]"])
        #expect(problems(ContactRules(oneWay: Vec2(0, 1e-9), surfaceVelocity: Vec2(-1e6, 1e6))).isEmpty)
        var wall = WallSpec(from: Vec2(0, 0), to: Vec2(10, 0), radius: 1)
        wall.rules = ContactRules(oneWay: Vec2(0, 0))
        #expect(wall.problems().map(\.field) == ["one_way"])
        #expect(throws: PhysicsError.self) { _ = try World(gravity: .zero).addWall(wall) }
    }
}
