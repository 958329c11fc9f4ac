/// A JSON value to write: the one way CrateDrop writes JSON (records, hash trails, statistics,
/// traces, summaries, reports, the schema, the live page's scene message).
///
/// Objects keep their fields in the order given, so every file has a documented field order.
/// Doubles print as Swift's shortest decimal that reads back to the same bits, so a reader in any
/// language recovers them exactly; non-finite doubles (which JSON cannot carry) print as `null`.
/// ``OrderedJSONEncoder`` turns an `Encodable` value into one of these.
package enum JSONOutput: Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    /// An unsigned integer that may not fit in `Int`.
    case unsigned(UInt64)
    case number(Double)
    case string(String)
    case array([JSONOutput])
    case object([(key: String, value: JSONOutput)])

    /// A string, or `null` for nil.
    package static func string(_ text: String?) -> JSONOutput { text.map { .string($0) } ?? .null }

    /// An array of numbers.
    package static func numbers(_ values: [Double]) -> JSONOutput { .array(values.map { .number($0) }) }

    /// The JSON text: one line, no spaces.
    package var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Appends the JSON text to `out`.
    package func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(value): out += value ? "true" : "false"
        case let .integer(value): out += String(value)
        case let .unsigned(value): out += String(value)
        case let .number(value):
            if value.isFinite { value.write(to: &out) } else { out += "null" }
        case let .string(text): Self.write(string: text, to: &out)
        case let .array(items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case let .object(fields):
            out += "{"
            for (index, field) in fields.enumerated() {
                if index > 0 { out += "," }
                Self.write(string: field.key, to: &out)
                out += ":"
                field.value.write(to: &out)
            }
            out += "}"
        }
    }

    /// The JSON text indented by two spaces a level, one field or item to a line (the schema file).
    package var indentedText: String {
        var out = ""
        writeIndented(to: &out, depth: 0)
        return out
    }

    private func writeIndented(to out: inout String, depth: Int) {
        func newline(_ depth: Int) { out += "\n" + String(repeating: "  ", count: depth) }
        switch self {
        case let .array(items):
            out += "["
            newline(depth + 1)
            for (index, item) in items.enumerated() {
                if index > 0 { out += ","; newline(depth + 1) }
                item.writeIndented(to: &out, depth: depth + 1)
            }
            newline(depth)
            out += "]"
        case let .object(fields):
            out += "{"
            newline(depth + 1)
            for (index, field) in fields.enumerated() {
                if index > 0 { out += ","; newline(depth + 1) }
                Self.write(string: field.key, to: &out)
                out += ": "
                field.value.writeIndented(to: &out, depth: depth + 1)
            }
            newline(depth)
            out += "}"
        default: write(to: &out)
        }
    }

    /// A string literal: quotes, backslashes and control characters escaped.
    private static func write(string text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSONOutput: ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral {
    /// An object whose fields keep the literal's order.
    package init(dictionaryLiteral fields: (String, JSONOutput)...) { self = .object(fields.map { (key: $0.0, value: $0.1) }) }
    package init(arrayLiteral items: JSONOutput...) { self = .array(items) }
    package init(stringLiteral text: String) { self = .string(text) }
    package init(integerLiteral value: Int) { self = .integer(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(nilLiteral: ()) { self = .null }
}
