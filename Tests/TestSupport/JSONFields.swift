import SceneFile

/// Reads top-level fields of a one-line JSON object printed by the CLI.
public struct JSONFields {
    public struct NotAnObject: Error {}

    public let members: [(key: String, value: JSONValue)]

    public init(_ text: String) throws {
        guard case let .object(members) = try JSONParser.parse(text).kind else {
            throw NotAnObject()
        }
        self.members = members
    }

    public var keys: [String] { members.map(\.key) }

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
