import SceneModel

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
    /// A number exactly as an input file wrote it (a parsed value's literal: `3` stays `3`, not
    /// `3.0`), which reads back to the same double.
    case numberLiteral(String)
    case string(String)
    case array([JSONOutput])
    case object([(key: String, value: JSONOutput)])

    /// A string, or `null` for nil.
    package static func string(_ text: String?) -> JSONOutput { text.map { .string($0) } ?? .null }

    /// An array of numbers.
    package static func numbers(_ values: [Double]) -> JSONOutput { .array(values.map { .number($0) }) }

    /// A parsed value as it was written: fields in their order, numbers by their literal.
    package init(_ value: JSONValue) {
        switch value.kind {
        case .null: self = .null
        case let .bool(flag): self = .bool(flag)
        case let .number(_, literal): self = .numberLiteral(literal)
        case let .string(text): self = .string(text)
        case let .array(items): self = .array(items.map(JSONOutput.init))
        case let .object(fields): self = .object(fields.map { (key: $0.key, value: JSONOutput($0.value)) })
        }
    }

    /// The JSON text: one line, no spaces.
    package var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// The JSON text on one line with a space after every `,` and `:`, as a person writes it
    /// (a sweep's parameters, the lines of a gravity script).
    package var spacedText: String {
        var out = ""
        write(to: &out, spaced: true)
        return out
    }

    /// An object's fields one per line, indented by two spaces, each value spaced: a scene file
    /// as a sweep writes it. Anything else: `spacedText`.
    package var documentText: String {
        guard case let .object(fields) = self, !fields.isEmpty else { return spacedText }
        var out = "{\n"
        for (index, field) in fields.enumerated() {
            if index > 0 { out += ",\n" }
            out += "  "
            Self.write(string: field.key, to: &out)
            out += ": "
            field.value.write(to: &out, spaced: true)
        }
        return out + "\n}"
    }

    /// Appends the JSON text to `out`.
    /// - Parameter spaced: a space after every `,` and `:` (`spacedText`).
    package func write(to out: inout String, spaced: Bool = false) {
        let (comma, colon) = spaced ? (", ", ": ") : (",", ":")
        switch self {
        case .null: out += "null"
        case let .bool(value): out += value ? "true" : "false"
        case let .integer(value): out += String(value)
        case let .unsigned(value): out += String(value)
        case let .number(value):
            if value.isFinite { value.write(to: &out) } else { out += "null" }
        case let .numberLiteral(literal): out += literal
        case let .string(text): Self.write(string: text, to: &out)
        case let .array(items):
            // Index loops, not `enumerated()`: records write 5000-body states a step, and the
            // generic iterator costs a debug build (the live page's) several times as much.
            out += "["
            for index in items.indices {
                if index > 0 { out += comma }
                items[index].write(to: &out, spaced: spaced)
            }
            out += "]"
        case let .object(fields):
            out += "{"
            for index in fields.indices {
                if index > 0 { out += comma }
                Self.write(string: fields[index].key, to: &out)
                out += colon
                fields[index].value.write(to: &out, spaced: spaced)
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
                out += "\\u" + hex.zeroPadded(toWidth: 4)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSONOutput: Equatable {
    /// Two values are equal when they write the same text.
    package static func == (a: JSONOutput, b: JSONOutput) -> Bool { a.text == b.text }
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
