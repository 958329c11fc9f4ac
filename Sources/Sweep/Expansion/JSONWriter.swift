import SceneFile

/// Writes a parsed JSON document back as text: numbers as their literals (so every value reads
/// back to the same bits), keys in their order; an object's members one per line at the top level.
enum JSONWriter {
    /// `value` on one line.
    static func compact(_ value: JSONValue) -> String {
        switch value.kind {
        case .null: "null"
        case let .bool(flag): flag ? "true" : "false"
        case let .number(_, literal): literal
        case let .string(text): JSONText.string(text)
        case let .array(elements): "[" + elements.map(compact).joined(separator: ", ") + "]"
        case let .object(members): "{" + members.map { JSONText.string($0.key) + ": " + compact($0.value) }.joined(separator: ", ") + "}"
        }
    }

    /// A document with its top-level members one per line, as scene files are written.
    static func document(_ value: JSONValue) -> String {
        guard case let .object(members) = value.kind, !members.isEmpty else { return compact(value) + "\n" }
        return "{\n" + members.map { "  " + JSONText.string($0.key) + ": " + compact($0.value) }.joined(separator: ",\n") + "\n}\n"
    }
}
