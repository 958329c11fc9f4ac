import SceneFile
import SceneModel
import Script

extension SweepSpecLoader {
    /// A value as text that two equal values share, whatever their spelling (`0.5` and `0.50`,
    /// keys in any order).
    static func canonical(_ value: JSONValue) -> String {
        switch value.kind {
        case .null: "null"
        case let .bool(flag): flag ? "true" : "false"
        // Whole numbers by their exact value (seeds beyond 2^53 differ though their doubles agree).
        case let .number(number, literal): Int64(literal).map { "i\($0)" } ?? UInt64(literal).map { "i\($0)" }
            ?? (number == number.rounded() && abs(number) < 0x1p53 ? "i\(Int64(number))" : "n\(number)")
        case let .string(text): "s\(text.debugDescription)"
        case let .array(items): "[" + items.map(canonical).joined(separator: ",") + "]"
        case let .object(members): "{" + members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\(canonical($0.value))" }
                .joined(separator: ",") + "}"
        }
    }

    /// Most values one `spaced` axis may take.
    public static let maxSpacedCount = 1_000_000

    /// One axis, its values checked against the scene (each alone): a value the scene refuses is
    /// reported at the value's line in the spec, with the scene's message.
    static func readAxis(_ value: JSONValue, path: String, base: SweepSpec.Base?, branches: Bool, sampling: SweepSpec.Sampling, file: String,
                         reader: inout SpecReader, scripts: inout [String: [UInt8]],
                         fingerprint: inout FNV1a64) throws(SweepSpecError) -> SweepAxis? {
        guard let fields = reader.object(value, path: path) else { return nil }
        reader.onlyKeys(fields, axisKeys)
        guard let fieldValue = reader.required(fields, "field"), let name = reader.string(fieldValue, path: "\(path).field") else { return nil }
        let field: SweepField
        switch name {
        case "seconds": field = .seconds
        case "gravity_script": field = .gravityScript
        case "counterfactual": field = .counterfactual
        default:
            guard let scenePath = SceneFieldPath(name) else {
                reader.report("\(path).field", line: fieldValue.line,
                              "must be seconds, gravity_script, counterfactual or a path in the scene such as generator.seed or crates[0].mass, got \(JSONOutput.string(name).text)")
                return nil
            }
            if branches {
                reader.report("\(path).field", line: fieldValue.line,
                              "a sweep from a saved state varies only what happens next (seconds, gravity_script, counterfactual): the state fixes the scene")
                return nil
            }
            field = .scene(scenePath)
        }
        let kinds = ["values", "range", "spaced", "between"].filter { fields.value($0) != nil }
        guard kinds.count == 1 else {
            reader.report(path, line: fields.line, kinds.isEmpty ? "needs its values: one of values, range, spaced, between"
                          : "give one of \(kinds.joined(separator: ", ")), not \(kinds.count)")
            return nil
        }
        let kind = kinds[0], domainValue = fields.value(kind)!, domainPath = "\(path).\(kind)"
        if case .gravityScript = field, kind != "values" {
            reader.report(domainPath, line: domainValue.line, "gravity_script takes values: script paths or arrays of input lines")
            return nil
        }
        if case .counterfactual = field, kind != "values" {
            reader.report(domainPath, line: domainValue.line, "counterfactual takes values: null, or changes such as {\"step\": 120, \"body\": 3, \"remove\": true}")
            return nil
        }
        if case .seconds = field, kind == "spaced" || kind == "between" {
            reader.report(domainPath, line: domainValue.line, "seconds takes values or range (exact decimal seconds)")
            return nil
        }
        let domain: SweepAxis.Domain
        switch kind {
        case "values":
            guard let values = reader.array(domainValue, path: domainPath) else { return nil }
            guard !values.isEmpty else {
                reader.report(domainPath, line: domainValue.line, "must hold at least one value")
                return nil
            }
            // A value given twice makes two samples of one scene: refused, as a second axis on one field is.
            var seen: [String: Int] = [:]
            for (index, item) in values.enumerated() {
                let key = Self.canonical(item)
                if let first = seen[key] {
                    reader.report("\(domainPath)[\(index)]", line: item.line, "repeats values[\(first)]: each value makes its own samples")
                    return nil
                }
                seen[key] = index
            }
            for index in checkedAlone(values, field: field) {
                try checkValue(values[index], field: field, origin: "\(domainPath)[\(index)]", base: base, file: file,
                               reader: &reader, scripts: &scripts, fingerprint: &fingerprint)
            }
            domain = .values(values)
        case "range":
            guard let range = reader.object(domainValue, path: domainPath) else { return nil }
            reader.onlyKeys(range, rangeKeys)
            let limits = Int64.min / 2...Int64.max / 2
            let from = reader.required(range, "from").flatMap { reader.integer($0, path: "\(domainPath).from", in: limits) }
            let to = reader.required(range, "to").flatMap { reader.integer($0, path: "\(domainPath).to", in: limits) }
            let step = range.value("step").map { reader.integer($0, path: "\(domainPath).step", in: 1...Int64.max / 2) } ?? 1
            guard let from, let to, let step else { return nil }
            guard to >= from else {
                reader.report("\(domainPath).to", line: range.value("to")!.line, "must be >= from (\(from)), got \(to)")
                return nil
            }
            domain = .range(from: from, to: to, step: step)
            for end in [from, to] {
                try checkValue(JSONValue(.number(Double(end), literal: String(end)), line: domainValue.line), field: field, origin: domainPath,
                               base: base, file: file, reader: &reader, scripts: &scripts, fingerprint: &fingerprint)
            }
        case "spaced":
            guard let spaced = reader.object(domainValue, path: domainPath) else { return nil }
            reader.onlyKeys(spaced, spacedKeys)
            let from = reader.required(spaced, "from").flatMap { reader.number($0, path: "\(domainPath).from") }
            let to = reader.required(spaced, "to").flatMap { reader.number($0, path: "\(domainPath).to") }
            let count = reader.required(spaced, "count").flatMap { reader.integer($0, path: "\(domainPath).count", in: 1...Int64(maxSpacedCount)) }
            guard let from, let to, let count else { return nil }
            domain = .spaced(from: from, to: to, count: Int(count))
            for end in [from, to] {
                try checkValue(JSONValue(.number(end, literal: "\(end)"), line: domainValue.line), field: field, origin: domainPath,
                               base: base, file: file, reader: &reader, scripts: &scripts, fingerprint: &fingerprint)
            }
        default:
            guard let pair = reader.array(domainValue, path: domainPath) else { return nil }
            guard pair.count == 2, let low = reader.number(pair[0], path: "\(domainPath)[0]"),
                  let high = reader.number(pair[1], path: "\(domainPath)[1]") else {
                if pair.count != 2 { reader.report(domainPath, line: domainValue.line, "must be [low, high], got \(pair.count) values") }
                return nil
            }
            guard low < high else {
                reader.report(domainPath, line: domainValue.line, "must be [low, high] with low < high, got [\(low), \(high)]")
                return nil
            }
            guard case .random = sampling else {
                reader.report(domainPath, line: domainValue.line, "between draws at random: use it with \"sample\": {\"kind\": \"random\", ...}, or give values, range or spaced for a grid")
                return nil
            }
            domain = .between(low: low, high: high)
            for end in [low, high] {
                try checkValue(JSONValue(.number(end, literal: "\(end)"), line: domainValue.line), field: field, origin: domainPath,
                               base: base, file: file, reader: &reader, scripts: &scripts, fingerprint: &fingerprint)
            }
        }
        return SweepAxis(field: field, domain: domain, path: path, line: fields.line)
    }

    /// Scene values whose check builds the scene anew, each checked alone at its line: a list's
    /// first `valuesCheckedAlone`, then, as a range's ends are, its smallest and largest number.
    /// A 1.5 M-value list took `plan` (and every shard's `run`) 375 s at 250 µs a pile-100 scene
    /// (audit round 4); a value past those that the scene refuses fails its own samples (65).
    /// Every other field's values are cheap and all checked.
    static let valuesCheckedAlone = 1000

    private static func checkedAlone(_ values: [JSONValue], field: SweepField) -> [Int] {
        guard case .scene = field, values.count > valuesCheckedAlone else { return Array(values.indices) }
        var indices = Array(0..<valuesCheckedAlone)
        let numbers = values.indices.dropFirst(valuesCheckedAlone).compactMap { index -> (Int, Double)? in
            if case let .number(number, _) = values[index].kind { (index, number) } else { nil }
        }
        if let smallest = numbers.min(by: { $0.1 < $1.1 }) { indices.append(smallest.0) }
        if let largest = numbers.max(by: { $0.1 < $1.1 }), !indices.contains(largest.0) { indices.append(largest.0) }
        return indices
    }

    /// Checks one value of an axis: seconds must be exact decimals, a gravity script must read and
    /// parse, a scene value must give a valid scene when set alone.
    private static func checkValue(_ value: JSONValue, field: SweepField, origin: String, base: SweepSpec.Base?, file: String,
                                   reader: inout SpecReader, scripts: inout [String: [UInt8]],
                                   fingerprint: inout FNV1a64) throws(SweepSpecError) {
        switch field {
        case .seconds:
            _ = seconds(value, path: origin, reader: &reader)
        case .gravityScript:
            guard let scene = base?.scene else { return }
            switch value.kind {
            case let .string(relative):
                if scripts[relative] == nil {
                    let bytes = try read(resolve(relative, besideSpec: file), limit: maxFileSize)
                    fingerprint.combine(bytes: bytes)
                    scripts[relative] = bytes
                }
                for problem in GravityScript.problems(scripts[relative]!, source: relative, scene: scene) {
                    reader.report(origin, line: value.line, problem)
                }
            case let .array(lines):
                guard lines.allSatisfy({ if case .object = $0.kind { true } else { false } }) else {
                    reader.report(origin, line: value.line, "must be a script's path or an array of gravity lines (objects such as {\"t\": 1, \"gravity\": [0, -1000]})")
                    return
                }
                for problem in GravityScript.problems(GravityScript.text(lines), source: origin, scene: scene) {
                    reader.report(origin, line: value.line, problem)
                }
            default:
                reader.report(origin, line: value.line, "must be a script's path or an array of gravity lines, got \(value.typeName)")
            }
        case .counterfactual:
            switch Counterfactual.edit(value) {
            case let .success(edit?):
                if let scene = base?.scene, edit.body.rawValue > UInt64(scene.allCrates().count) {
                    reader.report("\(origin).body", line: value.line, "body \(edit.body) is not in the scene (its bodies are 1...\(scene.allCrates().count))")
                }
            case .success(nil): break
            case let .failure(problems):
                for problem in problems.all { reader.report(origin, line: value.line, problem) }
            }
        case let .scene(path):
            guard case let .scene(basePath, _, document, _) = base else { return }
            if let problem = SampleScene.problem(setting: [(path, value)], in: document, imagesBeside: basePath) {
                reader.report(origin, line: value.line, problem)
            }
        }
    }
}

extension SweepSpec.Base {
    /// The scene every sample starts from (a saved state's own scene when branching).
    public var scene: Scene {
        switch self {
        case let .scene(_, _, _, scene): scene
        case let .state(_, _, _, checked): checked.scene
        }
    }
}
