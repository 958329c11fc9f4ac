import SceneFile
import SceneModel

/// One axis of a sweep: what it changes and the values it takes.
public struct SweepAxis: Sendable {
    /// What the axis changes.
    public var field: SweepField
    /// The values it takes.
    public var domain: Domain
    /// Where the axis is in the spec (`axes[2]`), and its line, for messages.
    public var path: String
    public var line: Int

    public init(field: SweepField, domain: Domain, path: String, line: Int) {
        self.field = field
        self.domain = domain
        self.path = path
        self.line = line
    }

    /// The values of an axis.
    public enum Domain: Sendable {
        /// These values, as written (numbers keep their literal text, so they read back exactly).
        case values([JSONValue])
        /// Whole numbers from `from` to `to` (both included) by `step`.
        case range(from: Int64, to: Int64, step: Int64)
        /// `count` numbers evenly spaced from `from` to `to` (both included).
        case spaced(from: Double, to: Double, count: Int)
        /// Uniform in [low, high): a random sample only.
        case between(low: Double, high: Double)
    }

    /// How many values a grid takes from this axis; nil for `between` (no grid) or past Int.max.
    public var gridCount: Int? {
        switch domain {
        case let .values(values): return values.count
        case let .range(from, to, step):
            let span = (Int128(to) - Int128(from)) / Int128(step) + 1
            return span <= Int128(Int.max) ? Int(span) : nil
        case let .spaced(_, _, count): return count
        case .between: return nil
        }
    }

    /// The value at grid position `position` (0 ..< gridCount), with its origin in the spec.
    public func gridValue(_ position: Int) -> (value: JSONValue, origin: String) {
        switch domain {
        case let .values(values):
            return (values[position], "\(path).values[\(position)]")
        case let .range(from, _, step):
            let value = Int64(Int128(from) + Int128(position) * Int128(step))
            return (JSONValue(.number(Double(value), literal: String(value)), line: line), "\(path).range")
        case let .spaced(from, to, count):
            let value = count == 1 ? from : (position == count - 1 ? to : from + (to - from) * Double(position) / Double(count - 1))
            return (JSONValue(.number(value, literal: "\(value)"), line: line), "\(path).spaced")
        case .between:
            preconditionFailure("a between axis has no grid values; the decoder refuses it in a grid")
        }
    }

    /// A value drawn from `random` for a random sample.
    public func randomValue(_ random: inout SplitMix64) -> (value: JSONValue, origin: String) {
        switch domain {
        case let .values(values):
            let position = Int(random.next(below: UInt64(values.count)))
            return (values[position], "\(path).values[\(position)]")
        case let .range(from, to, step):
            let count = UInt64((Int128(to) - Int128(from)) / Int128(step) + 1)
            let value = Int64(Int128(from) + Int128(random.next(below: count)) * Int128(step))
            return (JSONValue(.number(Double(value), literal: String(value)), line: line), "\(path).range")
        case let .spaced(_, _, count):
            return gridValue(Int(random.next(below: UInt64(count))))
        case let .between(low, high):
            let value = low + (high - low) * random.nextUnit()
            return (JSONValue(.number(value, literal: "\(value)"), line: line), "\(path).between")
        }
    }
}

/// What an axis changes: a value in the scene file, or how the run goes.
public enum SweepField: Sendable, Equatable, CustomStringConvertible {
    /// A value in the scene file, by its path (`generator.seed`, `gravity`, `crates[0].mass`).
    case scene(SceneFieldPath)
    /// The run's length in seconds (`seconds`).
    case seconds
    /// The gravity changes during the run (`gravity_script`): a JSON Lines file's path, relative
    /// to the spec, or the lines themselves as an array of objects.
    case gravityScript
    /// One change to one body at a step (`counterfactual`), or none (`null`): `Counterfactual`.
    case counterfactual

    /// The names of the run fields, which are not scene paths.
    public static let runFields = ["seconds", "gravity_script", "counterfactual"]

    /// Whether the two write the same value: the same field, or one a part of the other
    /// (`gravity` and `gravity[0]`, `crates[0]` and `crates[0].mass`).
    public func overlaps(_ other: SweepField) -> Bool {
        let (a, b) = (description, other.description)
        func contains(_ whole: String, _ part: String) -> Bool { part.hasPrefix(whole + ".") || part.hasPrefix(whole + "[") }
        return a == b || contains(a, b) || contains(b, a)
    }

    public var description: String {
        switch self {
        case let .scene(path): path.description
        case .seconds: "seconds"
        case .gravityScript: "gravity_script"
        case .counterfactual: "counterfactual"
        }
    }
}
