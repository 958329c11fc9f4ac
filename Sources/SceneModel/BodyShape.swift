/// The collision shape of a dynamic body, in the body's own frame (centred on its centre of
/// mass). Units: pixels.
///
/// A box is the only kind today. A new kind adds a case here and is handled where a switch over
/// `BodyShape` stops compiling: the scene decoder, Physics (the Chipmunk shape and moment), the
/// renderer and the C baseline.
public enum BodyShape: Sendable, Hashable, Codable {
    /// An axis-aligned rectangle in the body frame: `size` is its width and height.
    case box(size: Vec2)

    /// The shape kinds, by the names scene files and traces write.
    public enum Kind: String, Sendable, CaseIterable {
        case box
    }

    public var kind: Kind {
        switch self {
        case .box: .box
        }
    }

    /// Width and height of the smallest body-frame rectangle around the shape.
    public var boundingSize: Vec2 {
        switch self {
        case let .box(size): size
        }
    }
}
