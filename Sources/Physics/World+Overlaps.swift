import SceneModel

/// A shape a body overlaps (`World.overlaps(of:)`), and how deep.
public struct ShapeOverlap: Sendable, Equatable {
    public var party: ContactParty
    /// How far the two shapes reach into each other, in pixels (Chipmunk's deepest contact).
    public var depth: Double

    public init(party: ContactParty, depth: Double) {
        self.party = party
        self.depth = depth
    }
}

extension World {
    /// Overlaps no deeper than Chipmunk's collision slop (0.1 px, what shapes at rest keep) are
    /// left out of `overlaps(of:)`, as scene validation leaves them out.
    public static let overlapSlop = WallOverlaps.slop

    /// The bodies and walls body `id` overlaps now by more than `overlapSlop`, between shapes that
    /// push each other (no sensor, filters that let them meet): deepest first, then by party.
    /// Chipmunk pushes such shapes apart at the next step, which an add placed there by mistake
    /// shows as a jump; input lines that add a body warn of it.
    ///
    /// ```swift
    /// let made = try world.apply(.addCrate(spec))
    /// for overlap in world.overlaps(of: BodyID(made.made!)) { print(overlap.party, overlap.depth) }
    /// ```
    /// - Returns: nothing for an id not in the world.
    public func overlaps(of id: BodyID) -> [ShapeOverlap] {
        guard let crate = crate(id), !crate.collision.sensor else { return [] }
        // A compound body's parts: each other body or wall once, at the deepest part's depth.
        var deepest: [ContactParty: Double] = [:]
        for shape in crate.shapes {
            for row in Chipmunk.query(space, .shape(shape)) {
                let party = Self.party(row[0])
                guard party != .body(id), row[1] > Self.overlapSlop, crate.collision.pushes(collision(of: party)) else { continue }
                deepest[party] = max(deepest[party] ?? 0, row[1])
            }
        }
        return deepest.map { ShapeOverlap(party: $0.key, depth: $0.value) }.sorted { ($1.depth, $0.party) < ($0.depth, $1.party) }
    }

    /// The collision settings of a body's or wall's shape (a tumbler's walls have the defaults).
    private func collision(of party: ContactParty) -> CollisionSettings {
        switch party {
        case let .body(id): crate(id)?.collision ?? .standard
        case let .wall(index): index < walls.count ? walls[index].spec.collision : .standard
        }
    }
}
