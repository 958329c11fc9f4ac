#if canImport(Glibc)
import Glibc
#elseif canImport(WASILibc)
import WASILibc
#endif

extension JointSpec {
    /// Problems with this joint's own values, named by their scene-file keys; whether its ends
    /// name bodies that exist, and where those bodies are, is the scene's business
    /// (`Scene.jointProblems`).
    public func problems() -> [FieldProblem] {
        var list = ProblemList()
        if case let .crate(index) = a, index < 0 { list.add("a", "must be a crate's index (0 or more) or \"static\", got \(index)") }
        if case let .crate(index) = b, index < 0 { list.add("b", "must be a crate's index (0 or more) or \"static\", got \(index)") }
        if a == b {
            list.add("b", a == .world ? "both ends are the static body: a joint needs a moving body at one end at least"
                                      : "joins crate \(a.crateIndex ?? 0) to itself: a joint needs two bodies")
        }
        switch kind {
        case let .pin(anchorA, anchorB), let .pivotAnchors(anchorA, anchorB):
            list.check("anchor_a", anchorA, magnitude: Limits.coordinate)
            list.check("anchor_b", anchorB, magnitude: Limits.coordinate)
        case let .slide(anchorA, anchorB, min, max):
            list.check("anchor_a", anchorA, magnitude: Limits.coordinate)
            list.check("anchor_b", anchorB, magnitude: Limits.coordinate)
            list.check("min", min, in: Limits.jointLength)
            list.check("max", max, in: Limits.jointLength)
            if min.isFinite, max.isFinite, min > max { list.add("max", "must be at least min (\(show(min))), got \(show(max))") }
        case let .pivot(point):
            list.check("pivot", point, magnitude: Limits.coordinate)
        case let .groove(grooveA, grooveB, anchorB):
            list.check("groove_a", grooveA, magnitude: Limits.coordinate)
            list.check("groove_b", grooveB, magnitude: Limits.coordinate)
            list.check("anchor_b", anchorB, magnitude: Limits.coordinate)
            if grooveA == grooveB { list.add("groove_b", "must differ from groove_a: a groove needs a length") }
        case let .dampedSpring(anchorA, anchorB, restLength, stiffness, damping):
            list.check("anchor_a", anchorA, magnitude: Limits.coordinate)
            list.check("anchor_b", anchorB, magnitude: Limits.coordinate)
            list.check("rest_length", restLength, in: Limits.jointLength)
            list.check("stiffness", stiffness, in: Limits.springConstant)
            list.check("damping", damping, in: Limits.springConstant)
        case let .dampedRotarySpring(restAngle, stiffness, damping):
            list.check("rest_angle", restAngle, magnitude: Limits.angle)
            list.check("stiffness", stiffness, in: Limits.springConstant)
            list.check("damping", damping, in: Limits.springConstant)
        case let .rotaryLimit(min, max):
            list.check("min", min, magnitude: Limits.angle)
            list.check("max", max, magnitude: Limits.angle)
            if min.isFinite, max.isFinite, min > max { list.add("max", "must be at least min (\(show(min))), got \(show(max))") }
        case let .ratchet(phase, ratchet):
            list.check("phase", phase, magnitude: Limits.angle)
            list.checkNonZero("ratchet", ratchet, magnitude: Limits.jointRatio)
        case let .gear(phase, ratio):
            list.check("phase", phase, magnitude: Limits.angle)
            list.checkNonZero("ratio", ratio, magnitude: Limits.jointRatio)
        case let .simpleMotor(rate):
            list.check("rate", rate, magnitude: Limits.angularSpeed)
        }
        if let maxForce = settings.maxForce { list.check("max_force", maxForce, in: Limits.jointForce) }
        if let maxBias = settings.maxBias { list.check("max_bias", maxBias, in: Limits.jointBias) }
        if let errorBias = settings.errorBias { list.check("error_bias", errorBias, in: Limits.errorBias) }
        if let breakImpulse = settings.breakImpulse, !(breakImpulse.isFinite && breakImpulse > 0 && breakImpulse <= Limits.impulse) {
            list.add("break_impulse", "must be a finite number > 0 (at most \(show(Limits.impulse))), got \(show(breakImpulse))")
        }
        if let breakForce = settings.breakForce, !(breakForce.isFinite && breakForce > 0 && breakForce <= Limits.jointForce.upperBound) {
            list.add("break_force", "must be a finite number > 0 (at most \(show(Limits.jointForce.upperBound))), got \(show(breakForce))")
        }
        return list.problems
    }

    /// Where a pin joint's anchors are in the world when it is made, its bodies placed as `placeOf`
    /// says (an end → its centre and angle); nil for other kinds. A pin of length zero is refused
    /// (Chipmunk warns, and a pivot does the job); `cpPinJointNew` measures it the same way.
    public func anchorsInWorld(_ placeOf: (JointEnd) -> (center: Vec2, angle: Double)) -> (Vec2, Vec2)? {
        guard case let .pin(anchorA, anchorB) = kind else { return nil }
        func world(_ end: JointEnd, _ anchor: Vec2) -> Vec2 {
            let (center, angle) = placeOf(end)
            let c = cos(angle), s = sin(angle)
            return Vec2(center.x + c * anchor.x - s * anchor.y, center.y + s * anchor.x + c * anchor.y)
        }
        return (world(a, anchorA), world(b, anchorB))
    }
}

extension JointSpec {
    /// Why a joint between two bodies neither of which is dynamic is refused.
    public static let noDynamicEnd = "neither end is a dynamic body: Chipmunk cannot solve a joint between bodies that forces do not move "
        + "(static or kinematic)"
}

extension ProblemList {
    /// A value that must be non-zero, its size within `magnitude`, either sign.
    mutating func checkNonZero(_ field: String, _ value: Double, magnitude: ClosedRange<Double>) {
        if !value.isFinite {
            add(field, "must be a finite number, got \(value)")
        } else if !magnitude.contains(abs(value)) {
            add(field, "must be within ±\(show(magnitude.lowerBound))...\(show(magnitude.upperBound)) (either sign, not 0), got \(show(value))")
        }
    }
}

extension Scene {
    /// Problems of the joints against the scene's bodies: ends past the last crate, pins of length
    /// zero, too many joints. `crates` are every crate in creation order whose own values are
    /// valid (nil where a crate is not, so a joint to it is not checked further), `crateCount` the
    /// number of crates in all; `jointIndices` name joints as the file numbers them.
    public func jointProblems(crates: [CrateSpec?], crateCount: Int, jointIndices: [Int]? = nil) -> [FieldProblem] {
        var found: [FieldProblem] = []
        if joints.count > Limits.joints.upperBound {
            found.append(FieldProblem("joints", "\(joints.count) joints; at most \(Limits.joints.upperBound)"))
        }
        for (i, joint) in joints.enumerated() where joint.problems().isEmpty {
            let name = "joints[\(jointIndices?[i] ?? i)]"
            var endsExist = true
            for (field, end) in [("a", joint.a), ("b", joint.b)] {
                guard let index = end.crateIndex, index >= crateCount else { continue }
                // One past the last is most often a body's id (from 1, as input lines and traces
                // name bodies) written where the index (from 0) goes: say how to write the id.
                let hint = index == crateCount && index >= 1 ? "; if you meant the body of id \(index) (ids count from 1, as input lines and traces name bodies), write {\"id\": \(index)}" : ""
                found.append(FieldProblem("\(name).\(field)", "crate \(index) does not exist: the scene has \(crateCount) crate"
                    + (crateCount == 1 ? "" : "s") + " (indices from 0, `crates` first, then generated ones)" + hint))
                endsExist = false
            }
            guard endsExist else { continue }
            func isDynamic(_ end: JointEnd) -> Bool? {
                guard let index = end.crateIndex else { return false }
                return index < crates.count ? crates[index].map { $0.bodyType == .dynamic } : nil
            }
            if isDynamic(joint.a) == false, isDynamic(joint.b) == false {
                found.append(FieldProblem("\(name).b", JointSpec.noDynamicEnd))
                continue
            }
            func place(_ end: JointEnd) -> (center: Vec2, angle: Double)? {
                guard let index = end.crateIndex else { return (.zero, 0) }
                return index < crates.count ? crates[index].map { ($0.center, $0.angle) } : nil
            }
            guard place(joint.a) != nil, place(joint.b) != nil,
                  let (pointA, pointB) = joint.anchorsInWorld({ place($0)! }) else { continue }
            if pointA == pointB {
                found.append(FieldProblem("\(name).anchor_b", "the anchors start at the same point [\(show(pointA.x)), \(show(pointA.y))]: "
                    + "a pin of length 0 cannot keep a direction; use a pivot joint"))
            }
        }
        return found
    }
}
