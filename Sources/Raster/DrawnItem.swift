import SceneModel

/// One thing a frame draws over its renderer's static layer (a moving wall, a body, a joint), with
/// the values its drawing depends on. A frame's items, in drawing order, say what its pixels are:
/// two frames on one static layer differ only within the rectangles of the items whose looks
/// differ (`changes(from:to:)`), so a frame can be brought to another by drawing those again.
struct DrawnItem: Sendable, Equatable {
    /// Which item; ordered as items are drawn (moving walls, bodies by id, joints).
    enum Key: Sendable, Equatable, Comparable {
        case wall(Int)
        case body(BodyID)
        case joint(Int)

        private var rank: (Int, UInt64) {
            switch self {
            case let .wall(index): (0, UInt64(index))
            case let .body(id): (1, id.rawValue)
            case let .joint(index): (2, UInt64(index))
            }
        }

        static func < (a: Key, b: Key) -> Bool { a.rank < b.rank }
    }

    /// Everything the item's pixels depend on but its shape (which never changes for a body id).
    enum Look: Sendable, Equatable {
        case wall(WallState)
        case body(BodyPlacement)
        case joint(JointPlacement)
    }

    let key: Key
    var look: Look
    /// Every pixel the item may touch (a bound worked out without drawing); nil: none.
    var rect: PixelRect?
    /// Only for bodies.
    var shape: BodyShape?

    /// Rectangles holding every pixel where a frame whose items are `old` and one whose items are
    /// `new` (both drawn on one static layer) can differ.
    static func changes(from old: [DrawnItem], to new: [DrawnItem]) -> [PixelRect] {
        changes(from: old, to: new, atMost: Int.max) ?? []
    }

    /// `changes(from:to:)`, or nil once more than `limit` rectangles are found.
    static func changes(from old: [DrawnItem], to new: [DrawnItem], atMost limit: Int) -> [PixelRect]? {
        var rects: [PixelRect] = []
        func add(_ a: PixelRect?, _ b: PixelRect?) {
            switch (a, b) {
            case let (a?, b?): rects.append(a.union(b))
            case let (a?, nil), let (nil, a?): rects.append(a)
            case (nil, nil): break
            }
        }
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if j == new.count || (i < old.count && old[i].key < new[j].key) {
                add(old[i].rect, nil)
                i += 1
            } else if i == old.count || new[j].key < old[i].key {
                add(nil, new[j].rect)
                j += 1
            } else {
                if old[i].look != new[j].look { add(old[i].rect, new[j].rect) }
                i += 1
                j += 1
            }
            if rects.count > limit { return nil }
        }
        return rects
    }
}

/// Where and how a body is drawn.
struct BodyPlacement: Sendable, Equatable {
    /// World coordinates and radians, as in the snapshot.
    var position: Vec2
    var angle: Double
    var color: RGB
    /// Drawn as asleep (the `sleeping` overlay): every part in the sleeping colour.
    var asleep: Bool
}

/// A joint's lines in image pixels, as drawn.
struct JointPlacement: Sendable, Equatable {
    var a: Vec2
    var b: Vec2
    var grooveA: Vec2?
    var grooveB: Vec2?
    var hasAnchors: Bool
    var isSpring: Bool
}

extension DrawnRegions {
    /// Rectangles holding every pixel where a frame drawn with these regions can differ from one
    /// drawn with `earlier`; nil when that is not known (other static layers, or frames holding
    /// more than their items, such as overlays).
    public func changes(since earlier: DrawnRegions) -> [PixelRect]? {
        guard background == earlier.background, let items, let old = earlier.items else { return nil }
        return DrawnItem.changes(from: old, to: items)
    }
}
