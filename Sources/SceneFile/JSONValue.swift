import SceneModel

/// A parsed JSON value that remembers the line it started on, so errors can name it.
///
/// The project parses JSON itself rather than through Foundation so that numbers are read by
/// `Double(String)` (correctly rounded, bit-exact on every platform), duplicate keys are caught,
/// and objects keep their key order.
public struct JSONValue: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case null
        case bool(Bool)
        /// The number and its literal text (to tell `3` from `3.0` and to report it as written).
        case number(Double, literal: String)
        case string(String)
        case array([JSONValue])
        case object([(key: String, value: JSONValue)])

        public static func == (a: Kind, b: Kind) -> Bool {
            switch (a, b) {
            case (.null, .null): true
            case let (.bool(x), .bool(y)): x == y
            case let (.number(x, _), .number(y, _)): x == y
            case let (.string(x), .string(y)): x == y
            case let (.array(x), .array(y)): x == y
            case let (.object(x), .object(y)): x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            default: false
            }
        }
    }

    public var kind: Kind
    /// 1-based line of the value's first character.
    public var line: Int

    public init(_ kind: Kind, line: Int) {
        self.kind = kind
        self.line = line
    }

    /// What the value is, for messages: "a number", "a string", ...
    public var typeName: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue {
    /// Echoed input is cut to this many characters (Unicode scalars) in messages.
    public static let excerptLength = 40

    /// `text` as a message may echo it: whole if short, else its start and how long it was.
    public static func excerpt(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > excerptLength else { return text }
        var start = String.UnicodeScalarView()
        start.append(contentsOf: scalars.prefix(excerptLength))
        return "\(String(start))… (\(scalars.count) characters)"
    }

    /// Whether `literal` is a JSON integer (digits, optional minus) that is simply too large for `Int`.
    public static func isOversizedInteger(_ literal: String) -> Bool {
        let digits = literal.utf8.first == UInt8(ascii: "-") ? literal.utf8.dropFirst() : literal.utf8[...]
        return !digits.isEmpty && digits.allSatisfy(isASCIIDigit) && Int(literal) == nil
    }
}

/// A JSON syntax error at a line and column.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "\(line):\(column): invalid JSON: \(message)" }
}
