import SceneModel

extension World {
    /// Takes hold of crate `id` at the world point `point` (`BodyInput.grab`), replacing a drag it
    /// has: a pivot joint from the static body at `point` to that point in the crate's frame.
    func grab(_ id: BodyID, crate: Crate, at point: Vec2, maxForce: Double?) {
        release(id)
        let drag = Drag(body: id, anchor: Chipmunk.bodyWorldToLocal(crate.body, point), target: point,
                        maxForce: maxForce ?? crate.mass * Drag.defaultPull)
        let index = drags.firstIndex { $0.body > id } ?? drags.count
        drags.insert(drag, at: index)
        dragJoints.insert(makeDragJoint(drag, crate: crate), at: index)
        dragsChanged()
    }

    /// Moves the target of crate `id`'s drag; false when it has none.
    func dragTo(_ id: BodyID, _ target: Vec2) -> Bool {
        guard let index = drags.firstIndex(where: { $0.body == id }) else { return false }
        drags[index].target = target
        Chipmunk.pivotSetAnchorA(dragJoints[index].constraint, target)
        return true
    }

    /// Lets go of crate `id`; false when it had no drag.
    @discardableResult
    func release(_ id: BodyID) -> Bool {
        guard let index = drags.firstIndex(where: { $0.body == id }) else { return false }
        Chipmunk.spaceRemoveConstraint(space, dragJoints[index].constraint)
        drags.remove(at: index)
        dragJoints.remove(at: index)
        dragsChanged()
        return true
    }

    /// Puts the drags `wanted` in place of the world's (a restore's), unless they are the same;
    /// each new joint starts with no impulse, which the restored physics then sets.
    func replaceDrags(with wanted: [Drag]) {
        guard wanted != drags else { return }
        for joint in dragJoints { Chipmunk.spaceRemoveConstraint(space, joint.constraint) }
        dragJoints = wanted.map { makeDragJoint($0, crate: crate($0.body)!) }
        drags = wanted
        dragsChanged()
    }

    /// The joint of `drag`, added to the space. The order the plain-C builds follow for joints:
    /// made, its settings, added.
    private func makeDragJoint(_ drag: Drag, crate: Crate) -> Joint {
        let joint = Joint(.pivotAnchors(anchorA: drag.target, anchorB: drag.anchor), a: nil, b: crate,
                          settings: JointSettings(maxForce: drag.maxForce), staticBody: Chipmunk.spaceStaticBody(space))
        Chipmunk.spaceAddConstraint(space, joint.constraint)
        return joint
    }

    /// A saved state names drags' joints after the world's joints, in ascending body id.
    private func dragsChanged() {
        stateMakeupCache?.constraints = joints.map { $0.constraint } + dragJoints.map { $0.constraint }
    }
}
