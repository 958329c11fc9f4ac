import Physics
import SceneModel
import TestSupport
import Testing

/// A world that changes while it runs (issue 44): bodies, walls and joints added and removed
/// between steps, logged as the world's make-up; ids never used again; saved states that carry
/// the log and restore into a world built from the scene, continuing bit for bit.
@Suite struct WorldChangeTests {
    /// A schedule of changes by step, the same for a straight run and a continued one.
    static let schedule: [(step: Int, change: StructuralChange)] = [
        (40, .addCrate(CrateSpec(center: Vec2(400, 420), size: Vec2(30, 30), mass: 4))),
        (60, .removeBody(BodyID(3))),
        (75, .addJoint(.pin(anchorA: .zero, anchorB: Vec2(400, 480)), a: BodyID(23), b: nil, settings: .standard)),
        (90, .addWall(WallSpec(from: Vec2(500, 300), to: Vec2(700, 260), radius: 3))),
        (100, .removeJoint(JointID(1))),
        (110, .addCrate(CrateSpec(center: Vec2(600, 400), shape: .circle(radius: 14), mass: 2, color: RGB(200, 0, 0)))),
        (130, .removeBody(BodyID(7))),
    ]

    /// Steps `world` to `end`, making the schedule's changes due on the way.
    static func run(_ world: World, to end: Int, trail: inout [StateHash]) throws {
        while world.stepCount < end {
            for (step, change) in schedule where step == world.stepCount { try world.apply(change) }
            world.step()
            trail.append(world.stateHash)
        }
    }

    @Test func addedBodiesTakeTheNextIDsAndRemovedOnesStayRetired() throws {
        let world = try World(scene: Repository.scene("book"))
        let added = try world.apply(.addCrate(CrateSpec(center: Vec2(150, 250), size: Vec2(20, 20), mass: 1)))
        #expect(added.made == 6 && added.step == 0)
        world.step()
        try world.apply(.removeBody(BodyID(2)))
        #expect(world.snapshot().bodies.map(\.id.rawValue) == [1, 3, 4, 5, 6])
        #expect(try world.apply(.addCrate(CrateSpec(center: Vec2(200, 250), size: Vec2(20, 20), mass: 1))).made == 7)
        #expect(world.makeup.map(\.step) == [0, 1, 1])
        for (change, says) in [(StructuralChange.removeBody(BodyID(2)), "body 2 is not a body of this world: it left the world at step 1"),
                               (.removeBody(BodyID(99)), "no body 99 was made (the world's bodies so far are 1...7)"),
                               (.addJoint(.pivot(point: Vec2(100, 100)), a: BodyID(2), b: nil, settings: .standard), "add_joint.a: body 2"),
                               (.removeJoint(JointID(1)), "no joint 1 was made (the world has made none)"),
                               (.addCrate(CrateSpec(center: Vec2(1, 1), size: Vec2(-1, 1), mass: 1)), "add.size")] {
            #expect(throws: PhysicsError.self, "\(change)") { try world.apply(change) }
            do {
                try world.apply(change)
            } catch {
                #expect(error.description.contains(says), "\(error)")
            }
        }
        // Refused changes change nothing.
        #expect(world.makeup.count == 3 && world.snapshot().bodies.count == 6)
    }

    @Test func aRemovedBodyTakesItsJointsFirstInAscendingOrder() throws {
        let world = try World(scene: Repository.scene("bridge"))
        let before = world.joints.count
        // The bridge's second plank hangs on joints 2 and 3 (to the first and third planks).
        let held = world.joints.filter { $0.a?.id == BodyID(2) || $0.b?.id == BodyID(2) }.compactMap(\.id)
        #expect(held.count >= 2)
        let entry = try world.apply(.removeBody(BodyID(2)))
        #expect(entry.jointsRemoved == held.sorted() && world.joints.count == before - held.count)
        #expect(world.crate(BodyID(2)) == nil)
        // A joint added later takes the next id, never a removed one.
        let joint = try world.apply(.addJoint(.pivot(point: Vec2(300, 300)), a: BodyID(4), b: BodyID(5), settings: .standard))
        #expect(joint.made == UInt64(before + 1))
        world.step()
    }

    /// Saved before, between and after the changes, each state restored into a world built from
    /// the scene (its log replayed) continues the straight run's every hash.
    @Test(.needsSavedStates(World.canSaveState), arguments: [20, 40, 41, 95, 130, 150])
    func aStateSavedAroundChangesContinuesFromTheScene(at step: Int) throws {
        let scene = try Repository.scene("pile-100")
        var straight: [StateHash] = []
        let world = try World(scene: scene)
        try Self.run(world, to: step, trail: &straight)
        let state = try world.saveState()
        try Self.run(world, to: 200, trail: &straight)
        let fresh = try World(scene: scene)
        try fresh.restore(state)
        #expect(fresh.makeup == state.makeup && fresh.stepCount == step)
        var continued = Array(straight.prefix(step))
        try Self.run(fresh, to: 200, trail: &continued)
        let first = zip(straight, continued).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(first == nil, "parts at step \(first.map { $0 + 1 } ?? 0)")
        // Through its bytes, as a file carries it.
        let reread = try WorldState(bytes: state.bytes)
        #expect(reread == state && reread.makeup.count == Self.schedule.filter { $0.step < step }.count)
    }

    /// A world rewound past its changes (restored to a state of an earlier make-up) goes on as
    /// it did; so does a copy of a changed world.
    @Test(.needsSavedStates(World.canSaveState)) func aChangedWorldRewindsAndCopiesExactly() throws {
        let world = try World(scene: Repository.scene("pile-100"))
        var trail: [StateHash] = []
        try Self.run(world, to: 30, trail: &trail)
        let early = try world.saveState()
        try Self.run(world, to: 120, trail: &trail)
        let copy = try world.copy()
        var fromCopy = trail
        try Self.run(copy, to: 200, trail: &fromCopy)
        try Self.run(world, to: 200, trail: &trail)
        #expect(fromCopy == trail)
        try world.restore(early)
        #expect(world.makeup.isEmpty && world.stepCount == 30)
        var again = Array(trail.prefix(30))
        try Self.run(world, to: 200, trail: &again)
        #expect(again == trail)
    }

    /// A state's log that does not replay as written is refused, and the world is left as it was.
    @Test(.needsSavedStates(World.canSaveState)) func aStateWithAnInconsistentLogIsRefused() throws {
        let scene = try Repository.scene("pile-100")
        let world = try World(scene: scene)
        var trail: [StateHash] = []
        try Self.run(world, to: 140, trail: &trail)
        let state = try world.saveState()
        var edits: [(String, (inout WorldState) -> Void)] = [
            ("a removal of a body never made", { $0.makeup[1].change = .removeBody(BodyID(999)) }),
            ("ids out of order", { $0.makeup[0].made = 77 }),
            ("a change after the state's step", { $0.makeup[6].step = 150 }),
            ("a joint to a body removed earlier", { $0.makeup[2].change = .addJoint(.pivot(point: .zero), a: BodyID(3), b: nil, settings: .standard) }),
        ]
        edits.append(("changes out of order", { $0.makeup.swapAt(0, 1) }))
        for (what, edit) in edits {
            var bad = state
            edit(&bad)
            let target = try World(scene: scene)
            let before = target.stateHash
            #expect(throws: StateError.self, "\(what)") { try target.restore(bad) }
            #expect(target.makeup.isEmpty && target.stepCount == 0 && target.stateHash == before, "\(what)")
            // Through bytes too (a file's): refused when read, or when restored.
            if let reread = try? WorldState(bytes: bad.bytes) {
                #expect(throws: StateError.self, "\(what), from bytes") { try target.restore(reread) }
            }
        }
    }

    /// Every kind of change, with every shape and joint kind, survives the state's bytes.
    @Test func theLogsBytesHoldEveryKindOfChange() throws {
        let kinds: [JointKind] = [.pin(anchorA: Vec2(1, 2), anchorB: .zero), .slide(anchorA: .zero, anchorB: Vec2(1, 0), min: 1, max: 3),
                                  .pivot(point: Vec2(5, 6)), .pivotAnchors(anchorA: Vec2(1, 1), anchorB: Vec2(-1, 0)),
                                  .groove(grooveA: .zero, grooveB: Vec2(9, 0), anchorB: Vec2(0, 1)),
                                  .dampedSpring(anchorA: .zero, anchorB: .zero, restLength: 10, stiffness: 50, damping: 2),
                                  .dampedRotarySpring(restAngle: 0.5, stiffness: 3, damping: 1), .rotaryLimit(min: -1, max: 1),
                                  .ratchet(phase: 0.1, ratchet: 0.3), .gear(phase: 0, ratio: 2), .simpleMotor(rate: 3)]
        var changes: [StructuralChange] = kinds.map { .addJoint($0, a: BodyID(1), b: nil, settings: JointSettings(maxForce: 5, errorBias: 0.5, collideBodies: false)) }
        changes += [.addCrate(CrateSpec(center: Vec2(1, 2), shape: .polygon(vertices: [.zero, Vec2(10, 0), Vec2(0, 10)], radius: 1), angle: 0.3,
                                        velocity: Vec2(4, 5), angularVelocity: 1, mass: 2, friction: 0.1, elasticity: 0.2,
                                        collision: CollisionSettings(filter: ShapeFilter(group: 3, categories: 5, mask: 7), sensor: true),
                                        color: RGB(1, 2, 3))),
                    .addCrate(.kinematic(center: .zero, shape: .segment(a: .zero, b: Vec2(20, 0), radius: 2), velocity: Vec2(1, 0))),
                    .addWall(WallSpec(geometry: .polygon(vertices: [.zero, Vec2(5, 0), Vec2(0, 5)]), radius: 0.5)),
                    .removeBody(BodyID(4)), .removeJoint(JointID(9))]
        var state = WorldState(step: 100, gravity: Vec2(0, -10), fingerprint: 7, physics: [1, 2, 3])
        state.makeup = changes.enumerated().map { MakeupChange(step: $0.offset, change: $0.element, made: UInt64($0.offset + 1),
                                                               jointsRemoved: [JointID(2)], madeValues: [1.5]) }
        #expect(try WorldState(bytes: state.bytes) == state)
    }

    /// A pin added once its body has moved, whose anchors met where the body started: a replay of
    /// the log (its bodies at their scene places) takes the pin's length from the log and makes no
    /// check of where the anchors are now (review of stop 45: such states were refused).
    @Test(.needsSavedStates(World.canSaveState)) func aPinAddedAfterItsBodyMovedReplaysFromItsMadeValues() throws {
        let scene = try Repository.scene("book")
        let world = try World(scene: scene)
        for _ in 0..<60 { world.step() }
        // Body 1 starts at (16, 284); by step 60 it has fallen.
        try world.apply(.addJoint(.pin(anchorA: .zero, anchorB: Vec2(16, 284)), a: BodyID(1), b: nil, settings: .standard))
        for _ in 0..<40 { world.step() }
        let state = try world.saveState()
        var straight: [StateHash] = []
        for _ in 0..<100 { world.step(); straight.append(world.stateHash) }
        let fresh = try World(scene: scene)
        try fresh.restore(state)
        var continued: [StateHash] = []
        for _ in 0..<100 { fresh.step(); continued.append(fresh.stateHash) }
        #expect(continued == straight)
    }

    /// `overlaps(of:)` gives the depth of each overlap of shapes that push each other, worked out
    /// here from the geometry: a 10 px box centred on the book's floor (a segment of radius 1 along
    /// y = 0) reaches 5 + 1 = 6 px into it; two 10 px boxes 2 px apart overlap by 8. A sensor, or a
    /// pair a filter keeps apart, overlaps nothing; an overlap within the slop is left out.
    @Test func anAddedBodysOverlapsAreMeasured() throws {
        let world = try World(scene: Repository.scene("book"))
        let onFloor = try #require(try world.apply(.addCrate(CrateSpec(center: Vec2(150, 0), size: Vec2(10, 10), mass: 1))).made)
        let overlaps = world.overlaps(of: BodyID(onFloor))
        #expect(overlaps.map(\.party) == [.wall(0)] && abs(overlaps[0].depth - 6) < 1e-9, "\(overlaps)")
        let first = try #require(try world.apply(.addCrate(CrateSpec(center: Vec2(150, 150), size: Vec2(10, 10), mass: 1))).made)
        let second = try #require(try world.apply(.addCrate(CrateSpec(center: Vec2(152, 150), size: Vec2(10, 10), mass: 1))).made)
        let pair = world.overlaps(of: BodyID(second))
        #expect(pair.map(\.party) == [.body(BodyID(first))] && abs(pair[0].depth - 8) < 1e-9, "\(pair)")
        let sensor = try #require(try world.apply(.addCrate(CrateSpec(center: Vec2(151, 150), size: Vec2(10, 10), mass: 1,
                                                                      collision: CollisionSettings(sensor: true)))).made)
        #expect(world.overlaps(of: BodyID(sensor)).isEmpty)
        #expect(world.overlaps(of: BodyID(first)).map(\.party) == [.body(BodyID(second))], "the sensor is not counted")
        let grouped = CollisionSettings(filter: ShapeFilter(group: 7))
        let a = try #require(try world.apply(.addCrate(CrateSpec(center: Vec2(80, 150), size: Vec2(10, 10), mass: 1, collision: grouped))).made)
        _ = try world.apply(.addCrate(CrateSpec(center: Vec2(84, 150), size: Vec2(10, 10), mass: 1, collision: grouped)))
        #expect(world.overlaps(of: BodyID(a)).isEmpty)
        let touching = try #require(try world.apply(.addCrate(CrateSpec(center: Vec2(220, 150.05 + 10), size: Vec2(10, 10), mass: 1))).made)
        _ = try world.apply(.addCrate(CrateSpec(center: Vec2(220, 150.05), size: Vec2(10, 10), mass: 1)))
        #expect(world.overlaps(of: BodyID(touching)).isEmpty, "0.05 px is within Chipmunk's slop")
        #expect(world.overlaps(of: BodyID(999)).isEmpty)
    }

    /// A restore back before a change gives snapshots the scene's parts again, under a new
    /// version; a different change made after it gets another version again (a renderer that
    /// keeps parts by version drew the first change's shape for the second's body).
    @Test(.needsSavedStates(World.canSaveState)) func partsVersionsNeverRepeatAcrossARewind() throws {
        let world = try World(scene: Repository.scene("book"))
        world.step()
        let before = try world.saveState()
        #expect(world.snapshot().parts == nil)
        try world.apply(.addCrate(CrateSpec(center: Vec2(150, 150), size: Vec2(20, 20), mass: 1)))
        let box = try #require(world.snapshot().parts)
        #expect(box.bodyShapes[BodyID(6)] == .box(size: Vec2(20, 20)))
        try world.restore(before)
        let rewound = try #require(world.snapshot().parts, "the parts changed back: snapshots say so")
        #expect(rewound.version > box.version && rewound.bodyShapes[BodyID(6)] == nil)
        try world.apply(.addCrate(CrateSpec(center: Vec2(150, 150), shape: .circle(radius: 9), mass: 1)))
        let circle = try #require(world.snapshot().parts)
        #expect(circle.version > rewound.version && circle.bodyShapes[BodyID(6)] == .circle(radius: 9))
    }

    /// A flood of sensors added on one spot (they never push, so no overlap is deep) stops once a
    /// new one's bounding box would meet more than 200 bodies (the 202nd): Chipmunk's broadphase keeps each
    /// such pair and collides a sensor's every step (audit round 5, finding 2).
    @Test func aFloodOfSensorsOnOneSpotIsRefused() throws {
        let world = try World(scene: Repository.scene("book"))
        let sensor = CrateSpec(center: Vec2(150, 150), size: Vec2(10, 10), mass: 1, collision: CollisionSettings(sensor: true))
        for _ in 0..<201 { try world.apply(.addCrate(sensor)) }
        #expect(throws: PhysicsError.self) { try world.apply(.addCrate(sensor)) }
        do {
            try world.apply(.addCrate(sensor))
        } catch {
            #expect(error.description.contains("its bounding box would meet 201 bodies'"), "\(error)")
        }
        // Away from the heap, a sensor is added as before.
        try world.apply(.addCrate(CrateSpec(center: Vec2(50, 50), size: Vec2(10, 10), mass: 1, collision: CollisionSettings(sensor: true))))
        #expect(world.crates.count == 5 + 202)
    }
}
