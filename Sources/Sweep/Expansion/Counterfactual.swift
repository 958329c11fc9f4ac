import SceneFile
import SceneModel

/// A `counterfactual` axis value (docs/sweeps.md, "Counterfactual pairs"): `null`, the run as it
/// happens, or one change to one body at a step: `{"step": 120, "body": 3, "remove": true}`,
/// `{"step": 120, "body": 3, "position": [200, 150]}`, `{"step": 120, "body": 3, "velocity":
/// [0, 400]}`, or a crate added: `{"step": 120, "add": {<a crate, as a scene's crates are written>}}`.
/// Samples that differ only in it share every step before `step` bit for bit.
enum Counterfactual {
    static let keys = ["step", "body", "remove", "position", "velocity", "add"]
    static let changes = ["remove", "position", "velocity", "add"]

    /// The edit a value asks for (nil for `null`), or its problems, each as `KEY: PROBLEM`.
    static func edit(_ json: JSONValue) -> Result<WorldEdit?, Problems> {
        if case .null = json.kind { return .success(nil) }
        guard case let .object(members) = json.kind else {
            return .failure(Problems(["must be null (the run as it happens) or an object such as {\"step\": 120, \"body\": 3, \"remove\": true}, got \(json.typeName)"]))
        }
        var problems: [String] = []
        for member in members where !keys.contains(member.key) {
            problems.append("\(member.key): unknown key (allowed: \(keys.joined(separator: ", ")))")
        }
        func field(_ key: String) -> JSONValue.Kind? { members.first { $0.key == key }?.value.kind }
        func whole(_ key: String, in range: ClosedRange<Int>) -> Int? {
            guard case let .number(_, literal)? = field(key), let number = Int(literal), range.contains(number) else {
                problems.append("\(key): must be a whole number in \(range.lowerBound)...\(range.upperBound)")
                return nil
            }
            return number
        }
        func point(_ key: String) -> Vec2? {
            guard case let .array(items)? = field(key), items.count == 2, case let .number(x, _) = items[0].kind, case let .number(y, _) = items[1].kind else {
                problems.append("\(key): must be [x, y], two numbers")
                return nil
            }
            return Vec2(x, y)
        }
        let step = whole("step", in: 0...Int(WorldState.maxStep))
        let given = changes.filter { field($0) != nil }
        // An added crate gets the next id: it names no body.
        let adds = given == ["add"]
        if adds, field("body") != nil { problems.append("body: an added crate gets the next id: give no body") }
        let body = adds ? 0 : whole("body", in: 1...Int(Int32.max))
        var change: WorldEdit.Change?
        if given.count != 1 {
            problems.append("needs one change: remove, position, velocity or add\(given.isEmpty ? "" : ", not \(given.joined(separator: " and "))")")
        } else {
            switch given[0] {
            case "add":
                switch ScenePart.crate(members.first { $0.key == "add" }!.value, file: "counterfactual", path: "add") {
                case let .success(spec): change = .add(spec)
                case let .failure(found): problems += found.all.map { "\($0.path): \($0.message)" }
                }
            case "remove":
                if case .bool(true)? = field("remove") { change = .remove } else { problems.append("remove: must be true") }
            case "position": change = point("position").map { .position($0) }
            default: change = point("velocity").map { .velocity($0) }
            }
        }
        guard problems.isEmpty, let step, let body, let change else { return .failure(Problems(problems)) }
        let edit = WorldEdit(step: step, body: BodyID(UInt64(body)), change: change)
        let ranges = edit.problems.map { "\($0.field): \($0.message)" }
        return ranges.isEmpty ? .success(edit) : .failure(Problems(ranges))
    }

    /// Why `edit` cannot apply to a sample of `bodies` bodies that runs from `startStep` for
    /// `steps` steps, if it cannot.
    static func problem(_ edit: WorldEdit, bodies: Int, startStep: Int, steps: Int) -> String? {
        let adds: Bool = if case .add = edit.change { true } else { false }
        if !adds, edit.body.rawValue > UInt64(bodies) {
            return "counterfactual.body: body \(edit.body) is not in the sample's world (its bodies are 1...\(bodies))"
        }
        if edit.step < startStep || edit.step >= startStep + steps {
            return "counterfactual.step: \(edit.step) is not a step the sample changes (it runs from step \(startStep) to \(startStep + steps)); a change takes effect from the next step"
        }
        return nil
    }

    /// Whether an axis value sets a body's position (which no input line can say).
    static func setsPosition(_ value: JSONValue) -> Bool {
        guard case let .object(members) = value.kind else { return false }
        return members.contains { $0.key == "position" }
    }

    struct Problems: Error {
        var all: [String]
        init(_ all: [String]) { self.all = all }
    }
}
