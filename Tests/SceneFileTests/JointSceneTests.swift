import SceneFile
import SceneModel
import Testing

/// Joints in scene files: every kind read with pymunk's names, and every bad joint refused with
/// its line, path and reason before anything reaches Chipmunk.
@Suite struct JointSceneTests {
    static func parse(_ text: String) throws -> Scene { try SceneLoader.parse(Array(text.utf8), file: "Scenes/x.json") }

    /// A scene of two crates (crates[0] at [30, 50], crates[1] at [70, 50]) and `joint` on line 4.
    static func diagnostics(_ joint: String) -> [String] {
        SceneValidationTests.diagnostics("""
            {"world": [100, 100], "gravity": [0, -10],
              "crates": [{"center": [30, 50], "size": [10, 10], "mass": 1}, {"center": [70, 50], "size": [10, 10], "mass": 1}],
              "joints": [
                \(joint)
              ]
            }
            """)
    }

    @Test func everyKindIsReadAsWritten() throws {
        let scene = try Self.parse("""
            {"world": [100, 100], "gravity": [0, -10],
             "crates": [{"center": [30, 50], "size": [10, 10], "mass": 1}, {"center": [70, 50], "size": [10, 10], "mass": 1}],
             "joints": [
               {"kind": "pin", "a": 0, "b": 1, "anchor_a": [5, 0]},
               {"kind": "slide", "a": 0, "b": "static", "anchor_b": [30, 90], "min": 10, "max": 50, "max_force": 1000},
               {"kind": "pivot", "a": "static", "b": 1, "pivot": [70, 60], "collide_bodies": false},
               {"kind": "pivot", "a": 0, "b": 1, "anchor_a": [20, 0], "anchor_b": [-20, 0], "max_bias": 50, "error_bias": 0.01},
               {"kind": "groove", "a": "static", "b": 0, "groove_a": [0, 50], "groove_b": [100, 50], "anchor_b": [0, 0]},
               {"kind": "damped_spring", "a": 0, "b": 1, "rest_length": 30, "stiffness": 20, "damping": 0.5},
               {"kind": "damped_rotary_spring", "a": 0, "b": 1, "rest_angle": 0.5, "stiffness": 20, "damping": 0.5},
               {"kind": "rotary_limit", "a": 0, "b": 1, "min": -1, "max": 1},
               {"kind": "ratchet", "a": 0, "b": 1, "ratchet": 0.25},
               {"kind": "gear", "a": 0, "b": 1, "phase": 0.1, "ratio": 3},
               {"kind": "simple_motor", "a": "static", "b": 0, "rate": 2}
             ]}
            """)
        let kinds = scene.joints.map(\.kind)
        #expect(kinds == [
            .pin(anchorA: Vec2(5, 0), anchorB: .zero),
            .slide(anchorA: .zero, anchorB: Vec2(30, 90), min: 10, max: 50),
            .pivot(point: Vec2(70, 60)),
            .pivotAnchors(anchorA: Vec2(20, 0), anchorB: Vec2(-20, 0)),
            .groove(grooveA: Vec2(0, 50), grooveB: Vec2(100, 50), anchorB: .zero),
            .dampedSpring(anchorA: .zero, anchorB: .zero, restLength: 30, stiffness: 20, damping: 0.5),
            .dampedRotarySpring(restAngle: 0.5, stiffness: 20, damping: 0.5),
            .rotaryLimit(min: -1, max: 1),
            .ratchet(phase: 0, ratchet: 0.25),
            .gear(phase: 0.1, ratio: 3),
            .simpleMotor(rate: 2),
        ])
        #expect(scene.joints[1].b == .world && scene.joints[1].settings.maxForce == 1000)
        #expect(scene.joints[2].a == .world && !scene.joints[2].settings.collideBodies)
        #expect(scene.joints[3].settings == JointSettings(maxBias: 50, errorBias: 0.01))
        #expect(scene.joints[0].settings == .standard)
    }

    @Test(arguments: [
        (#"{"kind": "hinge", "a": 0, "b": 1}"#,
         #"Scenes/x.json:4: joints[0].kind: must be one of "pin", "slide", "pivot", "groove", "damped_spring", "damped_rotary_spring", "rotary_limit", "ratchet", "gear", "simple_motor", got "hinge""#),
        (#"{"kind": "pivto", "a": 0, "b": 1, "pivot": [50, 50]}"#, #"(did you mean "pivot"?)"#),
        (#"{"a": 0, "b": 1}"#, "Scenes/x.json:4: joints[0].kind: is missing"),
        (#"{"kind": "pin", "a": 0, "b": 2}"#,
         "Scenes/x.json:4: joints[0].b: crate 2 does not exist: the scene has 2 crates (indices from 0, `crates` first, then generated ones)"),
        (#"{"kind": "pin", "a": -1, "b": 1}"#, #"Scenes/x.json:4: joints[0].a: must be a crate's index (0 or more) or "static", got -1"#),
        (#"{"kind": "pin", "a": "ground", "b": 1}"#,
         #"Scenes/x.json:4: joints[0].a: must be a crate's index (from 0), {"index": N}, {"id": N} (a body's id, from 1) or "static", got "ground""#),
        (#"{"kind": "pin", "a": 1, "b": 1, "anchor_a": [1, 0]}"#, "Scenes/x.json:4: joints[0].b: joins crate 1 to itself: a joint needs two bodies"),
        (#"{"kind": "pivot", "a": "static", "b": "static", "pivot": [1, 1]}"#,
         "Scenes/x.json:4: joints[0].b: both ends are the static body: a joint needs a moving body at one end at least"),
        (#"{"kind": "pin", "a": "static", "b": 0, "anchor_a": [30, 50]}"#,
         "Scenes/x.json:4: joints[0].anchor_b: the anchors start at the same point [30, 50]: a pin of length 0 cannot keep a direction; use a pivot joint"),
        (#"{"kind": "pivot", "a": 0, "b": 1, "pivot": [50, 50], "anchor_a": [1, 1]}"#,
         #"Scenes/x.json:4: joints[0].anchor_a: a pivot joint takes either "pivot" (a world point) or "anchor_a" and "anchor_b", not both"#),
        (#"{"kind": "slide", "a": 0, "b": 1, "min": 5}"#, "Scenes/x.json:4: joints[0].max: is missing"),
        (#"{"kind": "slide", "a": 0, "b": 1, "min": 5, "max": 2}"#, "Scenes/x.json:4: joints[0].max: must be at least min (5), got 2"),
        (#"{"kind": "gear", "a": 0, "b": 1, "ratio": 0}"#,
         "Scenes/x.json:4: joints[0].ratio: must be within ±1e-6...1000000 (either sign, not 0), got 0"),
        (#"{"kind": "ratchet", "a": 0, "b": 1, "ratchet": 1e300}"#, "Scenes/x.json:4: joints[0].ratchet: must be within"),
        (#"{"kind": "damped_spring", "a": 0, "b": 1, "rest_length": 1, "stiffness": -2, "damping": 0}"#,
         "Scenes/x.json:4: joints[0].stiffness: must be in 0...1000000000000000, got -2"),
        (#"{"kind": "simple_motor", "a": 0, "b": 1, "rate": 2, "max_force": -1}"#,
         "Scenes/x.json:4: joints[0].max_force: must be in 0...1000000000000000000, got -1"),
        (#"{"kind": "simple_motor", "a": 0, "b": 1, "rate": 2, "error_bias": 1.5}"#,
         "Scenes/x.json:4: joints[0].error_bias: must be in 0...1, got 1.5"),
        (#"{"kind": "simple_motor", "a": 0, "b": 1, "rate": 2, "collide_bodies": "no"}"#,
         "Scenes/x.json:4: joints[0].collide_bodies: must be true or false, got a string"),
        (#"{"kind": "gear", "a": 0, "b": 1, "ratio": 2, "rate": 3}"#,
         "Scenes/x.json:4: joints[0].rate: unknown key (allowed: a, b, max_force, max_bias, error_bias, break_impulse, break_force, collide_bodies, kind, phase, ratio)"),
        (#"{"kind": "groove", "a": "static", "b": 0, "groove_a": [1, 1], "groove_b": [1, 1], "anchor_b": [0, 0]}"#,
         "Scenes/x.json:4: joints[0].groove_b: must differ from groove_a: a groove needs a length"),
    ])
    func badJointsAreRefusedWithTheirLineAndReason(joint: String, expected: String) {
        let found = Self.diagnostics(joint)
        #expect(found.contains { $0.contains(expected) }, "\(found)")
    }

    /// A joint's end says which numbering it uses: `{"index": N}` from 0, `{"id": N}` from 1 (as
    /// input lines and traces name bodies); a bare number stays an index.
    @Test func endsWrittenByIndexOrByIDNameTheSameCrates() throws {
        let scene = try Self.parse("""
            {"world": [100, 100], "gravity": [0, -10],
             "crates": [{"center": [30, 50], "size": [10, 10], "mass": 1}, {"center": [70, 50], "size": [10, 10], "mass": 1}],
             "joints": [
               {"kind": "pin", "a": {"index": 0}, "b": {"id": 2}},
               {"kind": "pin", "a": {"id": 1}, "b": 1},
               {"kind": "slide", "a": {"index": 1}, "b": "static", "anchor_b": [30, 90], "min": 10, "max": 50}
             ]}
            """)
        #expect(scene.joints.map(\.a) == [.crate(0), .crate(0), .crate(1)])
        #expect(scene.joints.map(\.b) == [.crate(1), .crate(1), .world])
    }

    /// The likely mistake, a body's id (from 1) written where an index (from 0) goes, is refused
    /// where it lands past the last crate, saying how to write the id; the written forms refuse
    /// the other numbering's first value.
    @Test(arguments: [
        (#"{"kind": "pin", "a": 1, "b": 2}"#,
         #"Scenes/x.json:4: joints[0].b: crate 2 does not exist: the scene has 2 crates (indices from 0, `crates` first, then generated ones); if you meant the body of id 2 (ids count from 1, as input lines and traces name bodies), write {"id": 2}"#),
        (#"{"kind": "pin", "a": {"id": 0}, "b": 1}"#, "Scenes/x.json:4: joints[0].a.id: a body's id counts from 1 (crates[0] is id 1, as traces print it), got 0"),
        (#"{"kind": "pin", "a": {"index": -1}, "b": 1}"#, "Scenes/x.json:4: joints[0].a.index: a crate's index counts from 0"),
        (#"{"kind": "pin", "a": {"index": 0, "id": 1}, "b": 1}"#,
         #"Scenes/x.json:4: joints[0].a: names its body by "index" (a crate's, from 0) or by "id" (a body's, from 1): one of the two"#),
        (#"{"kind": "pin", "a": {"crate": 0}, "b": 1}"#, "joints[0].a.crate: unknown key"),
        (#"{"kind": "pin", "a": {"id": 3}, "b": 0}"#, "Scenes/x.json:4: joints[0].a: crate 2 does not exist"),
    ])
    func idsAndIndicesAreNotConfused(joint: String, expected: String) {
        let found = Self.diagnostics(joint)
        #expect(found.contains { $0.contains(expected) }, "\(found)")
    }

    @Test func jointsMayNameGeneratedCrates() throws {
        let scene = try Self.parse("""
            {"world": [200, 200], "gravity": [0, -10],
             "crates": [{"center": [30, 150], "size": [10, 10], "mass": 1}],
             "generator": {"count": 2, "seed": 1, "size": [10, 12], "density": 0.01},
             "joints": [{"kind": "damped_spring", "a": 0, "b": 2, "rest_length": 20, "stiffness": 5, "damping": 0.1}]}
            """)
        #expect(scene.joints[0].b == .crate(2))
        #expect(SceneValidationTests.diagnostics("""
            {"world": [200, 200], "gravity": [0, -10],
             "crates": [{"center": [30, 150], "size": [10, 10], "mass": 1}],
             "generator": {"count": 2, "seed": 1, "size": [10, 12], "density": 0.01},
             "joints": [{"kind": "gear", "a": 0, "b": 3, "ratio": 1}]}
            """).contains { $0.contains("joints[0].b: crate 3 does not exist: the scene has 3 crates") })
    }
}

/// Kinematic bodies in scene files: `"body_type": "kinematic"`, without a mass.
@Suite struct KinematicSceneTests {
    @Test func aKinematicBodyIsReadWithoutAMass() throws {
        let scene = try JointSceneTests.parse("""
            {"world": [100, 100], "gravity": [0, -10],
             "crates": [{"body_type": "kinematic", "center": [50, 10], "size": [80, 5], "velocity": [0, 20], "angular_velocity": 0.1}]}
            """)
        #expect(scene.crates[0] == .kinematic(center: Vec2(50, 10), shape: .box(size: Vec2(80, 5)), velocity: Vec2(0, 20), angularVelocity: 0.1))
    }

    @Test(arguments: [
        (#"{"body_type": "kinematic", "center": [50, 10], "size": [80, 5], "mass": 3}"#,
         "Scenes/x.json:3: crates[0].mass: a kinematic body has no mass: it moves only by its velocity and angular_velocity"),
        (#"{"body_type": "kinematc", "center": [50, 10], "size": [80, 5]}"#,
         #"Scenes/x.json:3: crates[0].body_type: must be one of "dynamic", "kinematic", got "kinematc" (did you mean "kinematic"?)"#),
        (#"{"body_type": "dynamic", "center": [50, 10], "size": [80, 5]}"#, "Scenes/x.json:3: crates[0].mass: is missing"),
    ])
    func badKinematicBodiesAreRefused(crate: String, expected: String) {
        let found = ShapeSceneTests.diagnostics(crate: crate)
        #expect(found.contains { $0.contains(expected) }, "\(found)")
    }

    @Test func aJointBetweenAKinematicBodyAndTheStaticOneIsRefused() {
        let found = SceneValidationTests.diagnostics("""
            {"world": [100, 100], "gravity": [0, -10],
              "crates": [{"body_type": "kinematic", "center": [50, 10], "size": [80, 5]}],
              "joints": [{"kind": "pivot", "a": "static", "b": 0, "pivot": [50, 10]}]
            }
            """)
        #expect(found.contains { $0.contains("Scenes/x.json:3: joints[0].b: neither end is a dynamic body") }, "\(found)")
    }
}
