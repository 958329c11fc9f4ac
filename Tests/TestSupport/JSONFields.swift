import SceneFile

/// Reads top-level fields of a one-line JSON object printed by the CLI.
public struct JSONFields {
    public struct NotAnObject: Error {
        public init() {}
    }

    public let members: [(key: String, value: JSONValue)]

    public init(_ text: String) throws {
        try self.init(members: JSONParser.parse(text))
    }

    /// The fields of a JSON object value (for example one nested in a report).
    public init(members value: JSONValue) throws {
        guard case let .object(members) = value.kind else { throw NotAnObject() }
        self.members = members
    }

    public var keys: [String] { members.map(\.key) }

    /// The object under `key`, if that field is one.
    public func object(_ key: String) throws -> JSONFields {
        guard let value = members.first(where: { $0.key == key })?.value else { throw NotAnObject() }
        return try JSONFields(members: value)
    }

    public func number(_ key: String) -> Double? {
        guard case let .number(value, _)? = members.first(where: { $0.key == key })?.value.kind else { return nil }
        return value
    }

    public func string(_ key: String) -> String? {
        guard case let .string(value)? = members.first(where: { $0.key == key })?.value.kind else { return nil }
        return value
    }

    public func bool(_ key: String) -> Bool? {
        guard case let .bool(value)? = members.first(where: { $0.key == key })?.value.kind else { return nil }
        return value
    }

    public func isNull(_ key: String) -> Bool {
        members.first(where: { $0.key == key })?.value.kind == .null
    }
}
