// Codable reports are native only: Embedded Swift (the wasm core) has no Codable.
#if !hasFeature(Embedded)
/// Encodes an `Encodable` value as one line of JSON with object keys in the order the value
/// encodes them (for synthesized conformances: the order of `CodingKeys`), and with `null` for an
/// absent optional instead of leaving the key out: a documented field order and a fixed set of
/// keys, which Foundation's `JSONEncoder` keeps neither of. The text is written by ``JSONOutput``,
/// so doubles read back to the same bits and non-finite ones print as `null`.
package struct OrderedJSONEncoder {
    package init() {}

    /// The JSON text of `value`.
    /// - Throws: whatever `value.encode(to:)` throws.
    package func encode<Value: Encodable>(_ value: Value) throws -> String {
        try output(value).text
    }

    /// `value` as a ``JSONOutput``, to write or to place inside another value.
    /// - Throws: whatever `value.encode(to:)` throws.
    package func output<Value: Encodable>(_ value: Value) throws -> JSONOutput {
        let root = JSONNode()
        try value.encode(to: NodeEncoder(node: root, codingPath: []))
        return root.output
    }
}

/// One JSON value being built: a leaf, or an object's or array's children in order.
private final class JSONNode {
    enum Content {
        case empty
        case leaf(JSONOutput)
        case object([(key: String, value: JSONNode)])
        case array([JSONNode])
    }

    var content = Content.empty

    var output: JSONOutput {
        switch content {
        case .empty: .null
        case let .leaf(value): value
        case let .object(fields): .object(fields.map { (key: $0.key, value: $0.value.output) })
        case let .array(items): .array(items.map { $0.output })
        }
    }

    /// Makes this node an object if it is not one yet, and adds a child under `key`.
    func child(forKey key: String) -> JSONNode {
        let node = JSONNode()
        if case var .object(fields) = content {
            fields.append((key, node))
            content = .object(fields)
        } else {
            content = .object([(key, node)])
        }
        return node
    }

    /// Makes this node an array if it is not one yet, and appends a child.
    func appendedChild() -> JSONNode {
        let node = JSONNode()
        if case var .array(items) = content {
            items.append(node)
            content = .array(items)
        } else {
            content = .array([node])
        }
        return node
    }

    var count: Int {
        switch content {
        case let .array(items): items.count
        case let .object(fields): fields.count
        default: 0
        }
    }
}

private struct NodeEncoder: Encoder {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .empty = node.content { node.content = .object([]) }
        return KeyedEncodingContainer(KeyedNodeContainer(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .empty = node.content { node.content = .array([]) }
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleNodeContainer(node: node, codingPath: codingPath) }
}

/// Leaf values for the primitive types, shared by the three container kinds.
private enum Leaf {
    static func integer<T: BinaryInteger>(_ value: T) -> JSONOutput {
        if let value = Int(exactly: value) { .integer(value) } else { .unsigned(UInt64(value)) }
    }
    static func number(_ value: Double) -> JSONOutput { .number(value) }
    static func string(_ value: String) -> JSONOutput { .string(value) }
    static func bool(_ value: Bool) -> JSONOutput { .bool(value) }

    static func encode<T: Encodable>(_ value: T, into node: JSONNode, codingPath: [any CodingKey]) throws {
        switch value {
        case let value as String: node.content = .leaf(string(value))
        case let value as Double: node.content = .leaf(number(value))
        case let value as Float: node.content = .leaf(number(Double(value)))
        case let value as Bool: node.content = .leaf(bool(value))
        default: try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
        }
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    let codingPath: [any CodingKey]

    private func put(_ value: JSONOutput, _ key: Key) { node.child(forKey: key.stringValue).content = .leaf(value) }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(Leaf.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(Leaf.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(Leaf.number(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(Leaf.number(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(Leaf.integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(Leaf.integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(Leaf.integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(Leaf.integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(Leaf.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(Leaf.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(Leaf.integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(Leaf.integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(Leaf.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(Leaf.integer(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try Leaf.encode(value, into: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }

    // Absent optionals print as null, so every report carries the same keys.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOrNull(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOrNull(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOrNull(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOrNull(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOrNull(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOrNull(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOrNull(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOrNull(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOrNull(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOrNull(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOrNull(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOrNull(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOrNull(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOrNull(value, key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try encodeOrNull(value, key) }

    private mutating func encodeOrNull<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.child(forKey: "super"), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]) }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer, LeafPutting {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    func put(_ value: JSONOutput) { node.appendedChild().content = .leaf(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try Leaf.encode(value, into: node.appendedChild(), codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.appendedChild(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.appendedChild(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.appendedChild(), codingPath: codingPath) }
}

private struct SingleNodeContainer: SingleValueEncodingContainer, LeafPutting {
    let node: JSONNode
    let codingPath: [any CodingKey]

    func put(_ value: JSONOutput) { node.content = .leaf(value) }

    mutating func encode<T: Encodable>(_ value: T) throws { try Leaf.encode(value, into: node, codingPath: codingPath) }
}

/// The primitive encodes of the unkeyed and single-value containers: each writes one leaf.
private protocol LeafPutting {
    func put(_ value: JSONOutput)
}

extension LeafPutting {
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(Leaf.bool(value)) }
    mutating func encode(_ value: String) throws { put(Leaf.string(value)) }
    mutating func encode(_ value: Double) throws { put(Leaf.number(value)) }
    mutating func encode(_ value: Float) throws { put(Leaf.number(Double(value))) }
    mutating func encode(_ value: Int) throws { put(Leaf.integer(value)) }
    mutating func encode(_ value: Int8) throws { put(Leaf.integer(value)) }
    mutating func encode(_ value: Int16) throws { put(Leaf.integer(value)) }
    mutating func encode(_ value: Int32) throws { put(Leaf.integer(value)) }
    mutating func encode(_ value: Int64) throws { put(Leaf.integer(value)) }
    mutating func encode(_ value: UInt) throws { put(Leaf.integer(value)) }
    mutating func encode(_ value: UInt8) throws { put(Leaf.integer(value)) }
    mutating func encode(_ value: UInt16) throws { put(Leaf.integer(value)) }
    mutating func encode(_ value: UInt32) throws { put(Leaf.integer(value)) }
    mutating func encode(_ value: UInt64) throws { put(Leaf.integer(value)) }
}
#endif
