import SceneFile

/// A path to a value in a scene file: keys and array indices, written `generator.seed`,
/// `gravity`, `crates[0].mass` (the paths scene messages use).
public struct SceneFieldPath: Sendable, Equatable, CustomStringConvertible {
    public enum Component: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    /// Parses `text`; nil unless it is keys (letters, digits, `_`) joined by `.`, each optionally
    /// followed by `[N]` indices, starting with a key.
    public init?(_ text: String) {
        var components: [Component] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            let keyEnd = rest.firstIndex(of: "[") ?? rest.endIndex
            let key = rest[..<keyEnd]
            guard !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else { return nil }
            components.append(.key(String(key)))
            rest = rest[keyEnd...]
            while !rest.isEmpty {
                guard rest.first == "[", let close = rest.firstIndex(of: "]") else { return nil }
                let digits = rest[rest.index(after: rest.startIndex)..<close]
                guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int(digits) else { return nil }
                components.append(.index(index))
                rest = rest[rest.index(after: close)...]
            }
        }
        self.components = components
    }

    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case let .key(key): text += text.isEmpty ? key : ".\(key)"
            case let .index(index): text += "[\(index)]"
            }
        }
        return text
    }

    /// Whether a scene message's path (`generator.count`, `crates[3].mass`) is this path or inside it.
    public func covers(_ messagePath: String) -> Bool {
        let own = description
        return messagePath == own || messagePath.hasPrefix(own + ".") || messagePath.hasPrefix(own + "[")
    }

    /// `document` with the value at this path replaced by `value`. Missing keys are added (and
    /// missing objects on the way created), so a sweep can set what the scene leaves at its
    /// default; the scene decoder then refuses keys that a scene does not have.
    /// - Throws: `SetError` when the path runs into a value that is not an object or array, or an
    ///   index past an array's end.
    public func setting(_ value: JSONValue, in document: JSONValue) throws(SetError) -> JSONValue {
        try Self.set(value, at: components[...], in: document, done: "")
    }

    /// Why a path could not be set.
    public struct SetError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    private static func set(_ value: JSONValue, at path: ArraySlice<Component>, in node: JSONValue,
                            done: String) throws(SetError) -> JSONValue {
        guard let first = path.first else { return value }
        let rest = path.dropFirst()
        switch (first, node.kind) {
        case let (.key(key), .object(members)):
            var members = members
            let name = done.isEmpty ? key : "\(done).\(key)"
            if let position = members.firstIndex(where: { $0.key == key }) {
                members[position].value = try set(value, at: rest, in: members[position].value, done: name)
            } else {
                let empty = JSONValue(rest.first.map { if case .index = $0 { .array([]) } else { .object([]) } } ?? .null, line: node.line)
                members.append((key, try set(value, at: rest, in: empty, done: name)))
            }
            return JSONValue(.object(members), line: node.line)
        case let (.index(index), .array(elements)):
            let name = "\(done)[\(index)]"
            guard index < elements.count else {
                throw SetError(description: "\(name) is past the end of \(done) (\(elements.count) elements)")
            }
            var elements = elements
            elements[index] = try set(value, at: rest, in: elements[index], done: name)
            return JSONValue(.array(elements), line: node.line)
        case (.key, _):
            throw SetError(description: "\(done.isEmpty ? "the scene" : done) is \(node.typeName), not an object")
        case (.index, _):
            throw SetError(description: "\(done) is \(node.typeName), not an array")
        }
    }
}
