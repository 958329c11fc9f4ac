/// Each body's shape by its id. Shapes never change for a body's life, so per-step snapshots
/// carry state only (no arrays of vertices to copy and reference-count every step); whatever
/// draws or writes bodies gets this table once, from the world (`World.bodyShapes`) or the scene
/// (`Scene.bodyShapes`), and looks each body up by id.
public struct BodyShapes: Sendable, Equatable {
    /// Ascending, as bodies are made.
    private var ids: [BodyID]
    private var shapes: [BodyShape]

    /// - Parameter bodies: ids and shapes, ids ascending (the world's creation order).
    public init(_ bodies: [(id: BodyID, shape: BodyShape)]) {
        ids = bodies.map { $0.id }
        shapes = bodies.map { $0.shape }
    }

    public static let none = BodyShapes([])

    public var count: Int { ids.count }

    /// The highest id in the table (the last made); nil when it is empty.
    public var highestID: BodyID? { ids.last }

    /// The shape of body `id`; nil for a body not in the table.
    public subscript(id: BodyID) -> BodyShape? {
        var low = 0, high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id ? shapes[low] : nil
    }

    /// The shape of the body at `index` of a snapshot taken from the same world: bodies and
    /// table share their order, so this is one comparison; else a search by id.
    public func shape(of body: BodyState, at index: Int) -> BodyShape? {
        index < ids.count && ids[index] == body.id ? shapes[index] : self[body.id]
    }
}

extension Scene {
    /// The shapes of the bodies the scene makes, by the ids a world built from it gives them
    /// (1, 2, ... in creation order).
    public var bodyShapes: BodyShapes {
        BodyShapes(allCrates().enumerated().map { (BodyID(UInt64($0.offset + 1)), $0.element.shape) })
    }
}
