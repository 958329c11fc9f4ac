/// Builds JSON text in a fixed field order, for everything CrateDrop prints or writes as JSON.
///
/// Doubles print as Swift's shortest decimal that reads back to the same bits, so a reader in any
/// language recovers them exactly; non-finite doubles (which JSON cannot carry) print as `null`.
public enum JSONText {
    /// A JSON string literal: quotes, backslashes and control characters escaped.
    public static func string(_ text: String) -> String {
        var out = "\""
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
        return out + "\""
    }

    /// A string literal, or `null` for nil.
    public static func string(_ text: String?) -> String { text.map { string($0) } ?? "null" }

    /// A number that reads back to the same double; `null` if not finite.
    public static func number(_ value: Double) -> String { value.isFinite ? "\(value)" : "null" }

    /// An object with `fields` in the given order; each value is already JSON text.
    public static func object(_ fields: KeyValuePairs<String, String>) -> String {
        object(fields.map { ($0.key, $0.value) })
    }

    /// An object with `fields` in the given order; each value is already JSON text.
    public static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// An array of values that are already JSON text.
    public static func array(_ values: [String]) -> String { "[" + values.joined(separator: ",") + "]" }
}
