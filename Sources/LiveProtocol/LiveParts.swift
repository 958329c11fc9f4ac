import Physics
import SceneModel

/// What a page is told of the world's parts: each body's shape and colour, the walls and the
/// joints. The scene message describes the scene's world (`LiveParts(world:scene:)`); once the
/// world changes as it runs, each frame's parts (`WorldSnapshot.parts`) are described the same
/// way, and a page gets the difference from what it was last told (`LiveMessages.parts`).
///
/// Never changed once made, so the server hands the one value to every page and a page that
/// already holds it sends nothing.
package final class LiveParts: Sendable {
    /// A body as the page draws it.
    package struct Body: Sendable, Equatable {
        package var id: BodyID
        package var shape: BodyShape
        /// nil: the scene's crate colour.
        package var color: RGB?

        package init(id: BodyID, shape: BodyShape, color: RGB?) {
            self.id = id
            self.shape = shape
            self.color = color
        }
    }

    /// The world's structural version (`WorldParts.changes`, the changes made so far; 0 for the
    /// scene's own make-up).
    package let version: Int
    /// Ascending id.
    package let bodies: [Body]
    package let walls: [WallState]
    package let joints: [JointLink]

    package init(version: Int, bodies: [Body], walls: [WallState], joints: [JointLink]) {
        self.version = version
        self.bodies = bodies
        self.walls = walls
        self.joints = joints
    }

    /// The parts of `world`, built from `scene` and not yet changed: what the scene message says.
    package convenience init(world: World, scene: Scene) {
        let colors = scene.crateColors(in: world)
        let bodies = world.crates.compactMap { crate in crate.id.map { Body(id: $0, shape: crate.shape, color: colors[$0]) } }
        self.init(version: 0, bodies: bodies, walls: world.wallStates(), joints: world.jointLinks)
    }

    /// The parts of a world that changed, as a snapshot of it carries them: its bodies (ascending
    /// id) with the shapes and colours `parts` gives them.
    package convenience init(parts: WorldParts, bodies: [BodyState]) {
        let described = bodies.enumerated().compactMap { index, body in
            parts.bodyShapes.shape(of: body, at: index).map { Body(id: body.id, shape: $0, color: parts.bodyColors[body.id]) }
        }
        self.init(version: parts.changes, bodies: described, walls: parts.walls, joints: parts.joints)
    }

    /// Whether `other` describes the same parts (the version aside).
    package func sameParts(as other: LiveParts) -> Bool {
        other === self || (bodies == other.bodies && walls == other.walls && joints == other.joints)
    }

    /// What a page that knows `old` must be told to know these: the bodies that are new or
    /// differ (an id made again after a rewind, in another colour), ascending; the ids gone,
    /// ascending; and whether the walls or the joints differ.
    package func changes(since old: LiveParts) -> (added: [Body], removed: [BodyID], wallsChanged: Bool, jointsChanged: Bool) {
        var added: [Body] = [], removed: [BodyID] = []
        var i = 0, j = 0
        // Both lists ascend by id: one merge.
        while i < old.bodies.count || j < bodies.count {
            if j == bodies.count || (i < old.bodies.count && old.bodies[i].id < bodies[j].id) {
                removed.append(old.bodies[i].id)
                i += 1
            } else if i == old.bodies.count || bodies[j].id < old.bodies[i].id {
                added.append(bodies[j])
                j += 1
            } else {
                if bodies[j] != old.bodies[i] { added.append(bodies[j]) }
                i += 1
                j += 1
            }
        }
        return (added, removed, walls != old.walls, joints != old.joints)
    }
}
