import SceneFile

/// Reads typed values out of a parsed spec, collecting every problem with its JSON path and line
/// (as scene files report them) rather than stopping at the first.
struct SpecReader {
    let file: String
    /// The problems found: the first `maxListed`, then a line saying how many more.
    var problems: [SceneDiagnostic] {
        listed + (unlisted > 0 ? [SceneDiagnostic(file: file, line: nil, path: "", message: "\(unlisted) more problems (the first \(Self.maxListed) are listed)")] : [])
    }
    /// As a scene file's: a list of a million refused values is fixed from its first ones.
    static let maxListed = 200
    private var listed: [SceneDiagnostic] = []
    private var unlisted = 0

    init(file: String) { self.file = file }

    /// An object's members, with its path.
    struct Fields {
        let members: [(key: String, value: JSONValue)]
        let path: String
        let line: Int

        func childPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
        func value(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
    }

    mutating func report(_ path: String, line: Int, _ message: String) {
        if listed.count < Self.maxListed {
            listed.append(SceneDiagnostic(file: file, line: line, path: path, message: message))
        } else {
            unlisted += 1
        }
    }

    mutating func object(_ value: JSONValue, path: String) -> Fields? {
        guard case let .object(members) = value.kind else {
            report(path, line: value.line, "must be an object, got \(value.typeName)")
            return nil
        }
        return Fields(members: members, path: path, line: value.line)
    }

    /// Reports keys of `fields` outside `allowed`, suggesting the closest allowed key.
    mutating func onlyKeys(_ fields: Fields, _ allowed: [String]) {
        for (key, value) in fields.members where !allowed.contains(key) {
            let path = fields.childPath(key)
            if let near = KeySuggestion.closest(to: key, among: allowed) {
                report(path, line: value.line, "unknown key '\(TerminalText.escaped(key))' (did you mean '\(near)'?)")
            } else {
                report(path, line: value.line, "unknown key (allowed: \(allowed.joined(separator: ", ")))")
            }
        }
    }

    mutating func required(_ fields: Fields, _ key: String) -> JSONValue? {
        guard let value = fields.value(key) else {
            report(fields.childPath(key), line: fields.line, "is missing")
            return nil
        }
        return value
    }

    mutating func string(_ value: JSONValue, path: String) -> String? {
        guard case let .string(text) = value.kind else {
            report(path, line: value.line, "must be a string, got \(value.typeName)")
            return nil
        }
        return text
    }

    mutating func bool(_ value: JSONValue, path: String) -> Bool? {
        guard case let .bool(flag) = value.kind else {
            report(path, line: value.line, "must be true or false, got \(value.typeName)")
            return nil
        }
        return flag
    }

    mutating func number(_ value: JSONValue, path: String) -> Double? {
        guard case let .number(number, literal) = value.kind else {
            report(path, line: value.line, "must be a number, got \(value.typeName)")
            return nil
        }
        guard number.isFinite else {
            report(path, line: value.line, "must be a finite number, got \(JSONValue.excerpt(literal))")
            return nil
        }
        return number
    }

    /// A whole number in `range`, read from its literal (never through a double, so no large
    /// value is rounded and no overflow reaches arithmetic).
    mutating func integer(_ value: JSONValue, path: String, in range: ClosedRange<Int64>) -> Int64? {
        guard case let .number(_, literal) = value.kind else {
            report(path, line: value.line, "must be a whole number, got \(value.typeName)")
            return nil
        }
        guard let integer = Int64(literal), range.contains(integer) else {
            report(path, line: value.line, "must be a whole number in \(range.lowerBound)...\(range.upperBound), got \(JSONValue.excerpt(literal))")
            return nil
        }
        return integer
    }

    mutating func unsigned(_ value: JSONValue, path: String) -> UInt64? {
        guard case let .number(_, literal) = value.kind, let result = UInt64(literal) else {
            report(path, line: value.line, "must be a whole number in 0...\(UInt64.max)")
            return nil
        }
        return result
    }

    mutating func array(_ value: JSONValue, path: String) -> [JSONValue]? {
        guard case let .array(elements) = value.kind else {
            report(path, line: value.line, "must be an array, got \(value.typeName)")
            return nil
        }
        return elements
    }
}
