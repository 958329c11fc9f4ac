import SceneModel

/// One line of an input stream: a gravity change, or something done to one body.
public struct InputCommand: Sendable, Equatable {
    public enum When: Sendable, Equatable {
        /// Before step k is taken, i.e. once k steps have been taken (step 0 is the first).
        case step(Int)
        /// At the next step after the line is read (real-time runs only).
        case whenRead
    }

    /// 1-based line number in the stream.
    public var line: Int
    public var when: When
    public var action: InputAction

    public init(line: Int, when: When, action: InputAction) {
        self.line = line
        self.when = when
        self.action = action
    }

    /// A gravity change.
    public init(line: Int, when: When, gravity: Vec2) {
        self.init(line: line, when: when, action: .gravity(gravity))
    }

    /// The gravity it sets; nil for a body's input.
    public var gravity: Vec2? {
        if case let .gravity(gravity) = action { gravity } else { nil }
    }
}


/// A line of a gravity stream that could not be used: `SOURCE:LINE: reason`.
public struct GravityLineError: Error, Sendable, Equatable, CustomStringConvertible {
    public var source: String
    public var line: Int
    public var message: String

    public init(source: String, line: Int, message: String) {
        self.source = source
        self.line = line
        self.message = message
    }

    public var description: String { "\(source):\(line): \(message)" }
}

/// How accelerometer readings (`accel`, in g) map onto world gravity.
public enum AxisPreset: String, Sendable, CaseIterable {
    /// gravity = (ax, ay) × |scene gravity|: a phone held upright reads (0, −1, 0), gravity down.
    case portrait
    /// gravity = (ay, ax) × |scene gravity|: x and y swapped, as the original demo did for a
    /// landscape device.
    case landscape

    public func gravity(accel: (x: Double, y: Double, z: Double), magnitude: Double) -> Vec2 {
        switch self {
        case .portrait: Vec2(accel.x * magnitude, accel.y * magnitude)
        case .landscape: Vec2(accel.y * magnitude, accel.x * magnitude)
        }
    }
}
