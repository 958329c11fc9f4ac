// Codable reports are native only: Embedded Swift (the wasm core) has no Codable.
#if !hasFeature(Embedded)
/// A JSON value placed inside a typed report (`OrderedJSONEncoder` keeps its fields' order).
extension JSONOutput: Encodable {
    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case let .bool(flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case let .integer(value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case let .unsigned(value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case let .number(value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case let .numberLiteral(literal):
            // A parsed literal reads back to the same double; its spelling is not kept here.
            var container = encoder.singleValueContainer()
            try container.encode(Double(literal) ?? .nan)
        case let .string(text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case let .array(items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case let .object(fields):
            var container = encoder.container(keyedBy: FieldName.self)
            for field in fields { try container.encode(field.value, forKey: FieldName(field.key)) }
        }
    }

    /// An object's key, whatever it is.
    private struct FieldName: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
#endif
