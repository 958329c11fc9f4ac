import SceneFile
import SceneModel

/// Parses input stream lines (JSON Lines) into commands, checking each strictly:
///
///     {"t": 1.25, "gravity": [0, -1000]}   from simulated time 1.25 s on
///     {"step": 150, "gravity": [-1000, 0]} from step 150 on
///     {"t": 2, "accel": [0.1, -0.9, 0.2]}  accelerometer reading in g, mapped by `axes`
///     {"gravity": [0, 1000]}               when read (real-time runs only)
///     {"step": 60, "body": 3, "impulse": [0, 400], "at": [210, 95]}   a push (at a world point)
///     {"step": 60, "body": 3, "velocity": [120, 0]}                    a body's velocity set
///     {"step": 60, "body": 3, "angular_velocity": 2}
///     {"step": 60, "body": 3, "force": [0, 900], "torque": 50, "steps": 30}   held for 30 steps
///
/// `t` applies at the first step whose start time is >= t: step ceil(t × stepRate), computed
/// exactly from the decimal literal. Times and steps must not go backwards.
public struct GravityLineParser: Sendable {
    public let source: String
    public let stepRate: Int
    /// |scene gravity|, which `accel` readings in g are scaled by.
    public let gravityMagnitude: Double
    public let axes: AxisPreset
    private var lastStep = 0
    private var lastTime: DecimalSeconds?
    /// Line 1 was a run record's header: the record's own lines are passed over.
    public private(set) var isRecord = false

    /// - Parameters:
    ///   - source: the stream's name in messages (a path or "stdin").
    ///   - stepRate: the scene's steps per second, to turn `t` into a step.
    ///   - gravityMagnitude: the scene's gravity's length, px/s², which `accel` readings scale to.
    ///   - axes: how accelerometer readings map to the world's axes.
    public init(source: String, stepRate: Int, gravityMagnitude: Double, axes: AxisPreset) {
        self.source = source
        self.stepRate = stepRate
        self.gravityMagnitude = gravityMagnitude
        self.axes = axes
    }

    /// Parses one line; a failed line leaves the ordering state as it was.
    public mutating func parse(_ bytes: [UInt8], line: Int) -> Result<InputCommand, GravityLineError> {
        switch object(bytes, line: line) {
        case let .success(members): command(members, line: line)
        case let .failure(error): .failure(error)
        }
    }

    /// Parses one line of a gravity stream or of a run record (docs/determinism.md, "Records"): a record's own
    /// lines (its header, scene, checkpoints and end line) give nil. They are recognised only after
    /// a record header on line 1, so a plain stream stays strict.
    public mutating func read(_ bytes: [UInt8], line: Int) -> Result<InputCommand?, GravityLineError> {
        let members: [(key: String, value: JSONValue)]
        switch object(bytes, line: line) {
        case let .success(object): members = object
        case let .failure(error): return .failure(error)
        }
        if line == 1, members.contains(where: { $0.key == "record" && $0.value.kind == .string("cratedrop") }) {
            isRecord = true
            return .success(nil)
        }
        if isRecord, members.contains(where: { ["scene", "hash"].contains($0.key) }) { return .success(nil) }
        return command(members, line: line).map { $0 }
    }

    private func object(_ bytes: [UInt8], line: Int) -> Result<[(key: String, value: JSONValue)], GravityLineError> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, firstLine: line)
        } catch {
            if line == 1, SceneFileMistake.isScene(firstLine: bytes, members: nil) { return .failure(sceneGiven()) }
            return .failure(GravityLineError(source: source, line: line, message: "invalid JSON at column \(error.column): \(error.message)"))
        }
        guard case let .object(members) = value.kind else {
            return .failure(GravityLineError(source: source, line: line, message: "must be a JSON object, got \(value.typeName)"))
        }
        if line == 1, SceneFileMistake.isScene(firstLine: bytes, members: members) { return .failure(sceneGiven()) }
        return .success(members)
    }

    private func sceneGiven() -> GravityLineError {
        GravityLineError(source: source, line: 1, message: "this is a scene file, not an input stream: an input stream is JSON Lines, "
            + "one object a line such as {\"t\":0.5,\"gravity\":[0,-500]} (Scenes/tilt.jsonl is one)")
    }

    private mutating func command(_ members: [(key: String, value: JSONValue)], line: Int) -> Result<InputCommand, GravityLineError> {
        func fail(_ message: String) -> Result<InputCommand, GravityLineError> {
            .failure(GravityLineError(source: source, line: line, message: message))
        }
        let field = { (key: String) in members.first { $0.key == key }?.value }
        let action: InputAction
        if let changeKey = Self.changeKeys.first(where: { field($0) != nil }) ?? (field("body") == nil ? field("joint").map { _ in "joint" } : nil) {
            switch changeAction(changeKey, members, field) {
            case let .success(change): action = .change(change)
            case let .failure(message): return fail(message.text)
            }
        } else if field("body") != nil {
            switch bodyAction(members, field) {
            case let .success(bodyAction): action = bodyAction
            case let .failure(message): return fail(message.text)
            }
        } else {
            for (key, _) in members where !["t", "step", "gravity", "accel"].contains(key) {
                if key == "remove" { return fail("\"remove\" goes with \"body\": ID or \"joint\": ID") }
                let bodyKeys = ["impulse", "at", "velocity", "angular_velocity", "force", "torque", "steps"]
                return fail("unknown key \"\(key)\" (allowed: t, step, gravity, accel" + (bodyKeys.contains(key) ? "; with \"body\": \(bodyKeys.joined(separator: ", ")))" : ")"))
            }
            switch gravityAction(field) {
            case let .success(gravityAction): action = gravityAction
            case let .failure(message): return fail(message.text)
            }
        }

        switch (field("t"), field("step")) {
        case (.some, .some): return fail("give \"t\" or \"step\", not both")
        case (nil, nil): return .success(InputCommand(line: line, when: .whenRead, action: action))
        case let (.some(t), nil):
            guard case let .number(_, literal) = t.kind, let time = DecimalSeconds(literal) else {
                return fail("t must be a plain decimal number of seconds >= 0 (such as 1.25, at most 9 decimals, at most 1000000000), got \(Self.show(t))")
            }
            if let lastTime, time.isLess(than: lastTime) { return fail("t goes backwards: \(time) after \(lastTime)") }
            let step = time.stepsRoundedUp(atRate: stepRate)
            if step < lastStep { return fail("t \(time) is step \(step), before step \(lastStep) of an earlier line") }
            lastTime = time
            lastStep = step
            return .success(InputCommand(line: line, when: .step(step), action: action))
        case let (nil, .some(stepValue)):
            guard case let .number(_, literal) = stepValue.kind, let step = Int(literal) else {
                if case let .number(_, literal) = stepValue.kind, JSONValue.isOversizedInteger(literal) {
                    return fail("step is too large: must be a whole number within 0...\(Int.max), got \(Self.show(stepValue))")
                }
                return fail("step must be a whole number, got \(Self.show(stepValue))")
            }
            if step < 0 { return fail("step must be >= 0, got \(step)") }
            if step < lastStep { return fail("step goes backwards: \(step) after step \(lastStep)") }
            lastStep = step
            return .success(InputCommand(line: line, when: .step(step), action: action))
        }
    }

    /// Why a line's action could not be read.
    private struct Message: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }

    private func gravityAction(_ field: (String) -> JSONValue?) -> Result<InputAction, Message> {
        switch (field("gravity"), field("accel")) {
        case (nil, nil): return .failure(Message("needs \"gravity\": [x, y], \"accel\": [ax, ay, az] or \"body\": ID with what to do to it"))
        case (.some, .some): return .failure(Message("give \"gravity\" or \"accel\", not both"))
        case let (.some(vector), nil):
            guard let numbers = Self.numbers(vector, count: 2) else { return .failure(Message("gravity must be an array of two numbers [x, y]")) }
            guard numbers.allSatisfy({ $0.isFinite && abs($0) <= Limits.gravity }) else {
                return .failure(Message("gravity must be finite numbers within ±\(Int(Limits.gravity)), got [\(numbers.map { String($0) }.joined(separator: ", "))]"))
            }
            return .success(.gravity(Vec2(numbers[0], numbers[1])))
        case let (nil, .some(vector)):
            guard let numbers = Self.numbers(vector, count: 3) else { return .failure(Message("accel must be an array of three numbers [ax, ay, az] in g")) }
            guard numbers.allSatisfy({ $0.isFinite && abs($0) <= 100 }) else {
                return .failure(Message("accel must be finite numbers within ±100 g, got [\(numbers.map { String($0) }.joined(separator: ", "))]"))
            }
            let gravity = axes.gravity(accel: (numbers[0], numbers[1], numbers[2]), magnitude: gravityMagnitude)
            guard gravity.isFinite, abs(gravity.x) <= Limits.gravity, abs(gravity.y) <= Limits.gravity else {
                return .failure(Message("accel gives gravity beyond ±\(Int(Limits.gravity))"))
            }
            return .success(.gravity(gravity))
        }
    }

    /// A body's line: `"body": ID` and one of `"impulse"` (with an optional `"at"`), `"velocity"`,
    /// `"angular_velocity"`, a `"force"` and/or `"torque"` held for `"steps"` (a force with an
    /// optional `"at"`), or a drag: `"grab"` (with an optional `"max_force"`), `"drag_to"`, `"release": true`.
    private func bodyAction(_ members: [(key: String, value: JSONValue)], _ field: (String) -> JSONValue?) -> Result<InputAction, Message> {
        let allowed = ["t", "step", "body", "impulse", "at", "velocity", "angular_velocity", "force", "torque", "steps", "grab", "max_force",
                       "drag_to", "release", "remove"]
        for (key, _) in members where !allowed.contains(key) {
            return .failure(Message("unknown key \"\(key)\" (allowed with \"body\": \(allowed.joined(separator: ", ")))"))
        }
        guard case let .number(_, literal) = field("body")!.kind, let raw = UInt64(literal), raw >= 1 else {
            return .failure(Message("body must be a body's id, a whole number from 1 (crates are numbered from 1 in creation order, "
                + "as traces print them), got \(Self.show(field("body")!))"))
        }
        let kinds = ["impulse", "velocity", "angular_velocity", "force", "torque", "grab", "drag_to", "release", "remove"].filter { field($0) != nil }
        let held = kinds.allSatisfy { $0 == "force" || $0 == "torque" }
        guard !kinds.isEmpty, held || kinds.count == 1 else {
            return .failure(Message(kinds.isEmpty ? "says what to do to the body: \"impulse\", \"velocity\", \"angular_velocity\", \"force\" or \"torque\" with \"steps\", "
                                                    + "\"grab\", \"drag_to\", \"release\", or \"remove\": true"
                                                  : "give one of \(kinds.map { "\"\($0)\"" }.joined(separator: ", ")) a line (only a force and a torque go together)"))
        }
        func vector(_ key: String) -> Result<Vec2?, Message> {
            guard let value = field(key) else { return .success(nil) }
            guard let numbers = Self.numbers(value, count: 2) else { return .failure(Message("\(key) must be an array of two numbers [x, y]")) }
            return .success(Vec2(numbers[0], numbers[1]))
        }
        func number(_ key: String) -> Result<Double?, Message> {
            guard let value = field(key) else { return .success(nil) }
            guard case let .number(number, _) = value.kind else { return .failure(Message("\(key) must be a number, got \(Self.show(value))")) }
            return .success(number)
        }
        let input: BodyInput
        do {
            let at = try vector("at").get()
            if at != nil, !(field("impulse") != nil || field("force") != nil) {
                return .failure(Message("\"at\" goes with an impulse or a force"))
            }
            if field("steps") != nil, !held { return .failure(Message("\"steps\" goes with a force or a torque")) }
            if field("max_force") != nil, kinds[0] != "grab" { return .failure(Message("\"max_force\" goes with \"grab\"")) }
            switch kinds[0] {
            case "remove":
                guard case .bool(true) = field("remove")!.kind else { return .failure(Message("remove must be true, got \(Self.show(field("remove")!))")) }
                return .success(.change(.removeBody(BodyID(raw))))
            case "grab": input = .grab(at: try vector("grab").get()!, maxForce: try number("max_force").get())
            case "drag_to": input = .dragTo(try vector("drag_to").get()!)
            case "release":
                guard case .bool(true) = field("release")!.kind else { return .failure(Message("release must be true, got \(Self.show(field("release")!))")) }
                input = .release
            case "impulse": input = .impulse(try vector("impulse").get()!, at: at)
            case "velocity": input = .velocity(try vector("velocity").get()!)
            case "angular_velocity": input = .angularVelocity(try number("angular_velocity").get()!)
            default:
                guard let stepsValue = field("steps") else {
                    return .failure(Message("a force or torque is held for \"steps\": K steps (Chipmunk clears forces after each step)"))
                }
                guard case let .number(_, literal) = stepsValue.kind, let steps = Int(literal), Limits.heldSteps.contains(steps) else {
                    return .failure(Message("steps must be a whole number in \(Limits.heldSteps.lowerBound)...\(Limits.heldSteps.upperBound), got \(Self.show(stepsValue))"))
                }
                input = .hold(force: try vector("force").get() ?? .zero, at: at, torque: try number("torque").get() ?? 0, steps: steps)
            }
        } catch {
            return .failure(error)
        }
        if let problem = input.problems().first { return .failure(Message(problem.description)) }
        return .success(.body(BodyID(raw), input))
    }

    /// The keys that make a line a structural change (with `"joint": ID, "remove": true`).
    package static let changeKeys = ["add", "add_wall", "add_joint"]

    /// A structural change's line: `"add"` (a crate as a scene's crates are written), `"add_wall"`
    /// (a wall as a scene's), `"add_joint"` (a joint as a scene's, its ends `a` and `b` bodies by
    /// id from 1, or "static"), or `"joint": ID` with `"remove": true`.
    private func changeAction(_ key: String, _ members: [(key: String, value: JSONValue)], _ field: (String) -> JSONValue?) -> Result<StructuralChange, Message> {
        let allowed = ["t", "step", key] + (key == "joint" ? ["remove"] : [])
        for (other, _) in members where !allowed.contains(other) {
            return .failure(Message(Self.changeKeys.contains(other) || other == "body" || other == "joint"
                ? "give one change a line: \"\(key)\" and \"\(other)\" go on lines of their own"
                : "unknown key \"\(other)\" (allowed with \"\(key)\": \(allowed.joined(separator: ", ")))"))
        }
        let value = field(key)!
        func diagnostics(_ problems: ScenePart.PartProblems) -> Message {
            let problems = problems.all
            return Message(problems.prefix(5).map { "\($0.path): \($0.message)" }.joined(separator: "; ") + (problems.count > 5 ? "; \(problems.count - 5) more" : ""))
        }
        switch key {
        case "add":
            switch ScenePart.crate(value, file: source, path: "add") {
            case let .success(spec): return .success(.addCrate(spec))
            case let .failure(problems): return .failure(diagnostics(problems))
            }
        case "add_wall":
            switch ScenePart.wall(value, file: source, path: "add_wall") {
            case let .success(spec): return .success(.addWall(spec))
            case let .failure(problems): return .failure(diagnostics(problems))
            }
        case "add_joint":
            // In input lines a bare number names a body by id, from 1 (a scene's joints name crates by
            // index, from 0); {"id": N} and {"index": N} say which in both places.
            switch ScenePart.joint(value, file: source, path: "add_joint", bareEndsAreIDs: true) {
            case let .success(spec):
                func body(_ end: JointEnd, _ name: String) -> Result<BodyID?, Message> {
                    guard let index = end.crateIndex else { return .success(nil) }
                    guard index >= 1 else {
                        return .failure(Message("add_joint.\(name): a body's id, from 1 (input lines name bodies by id, as traces print them; a scene's joints name crates by index, from 0), {\"id\": N}, {\"index\": N} (from 0) or \"static\", got \(index)"))
                    }
                    return .success(BodyID(UInt64(index)))
                }
                switch (body(spec.a, "a"), body(spec.b, "b")) {
                case let (.success(a), .success(b)): return .success(.addJoint(spec.kind, a: a, b: b, settings: spec.settings))
                case let (.failure(message), _), let (_, .failure(message)): return .failure(message)
                }
            case let .failure(problems): return .failure(diagnostics(problems))
            }
        default:
            guard case let .number(_, literal) = value.kind, let raw = UInt64(literal), raw >= 1 else {
                return .failure(Message("joint must be a joint's id, a whole number from 1 (joints are numbered from 1 in the order they are made: the scene's, then those added), got \(Self.show(value))"))
            }
            guard let remove = field("remove") else { return .failure(Message("says what to do to the joint: \"remove\": true")) }
            guard case .bool(true) = remove.kind else { return .failure(Message("remove must be true, got \(Self.show(remove))")) }
            return .success(.removeJoint(JointID(raw)))
        }
    }

    private static func numbers(_ value: JSONValue, count: Int) -> [Double]? {
        guard case let .array(elements) = value.kind, elements.count == count else { return nil }
        var result: [Double] = []
        for element in elements {
            guard case let .number(number, _) = element.kind else { return nil }
            result.append(number)
        }
        return result
    }

    private static func show(_ value: JSONValue) -> String {
        if case let .number(_, literal) = value.kind { return JSONValue.excerpt(literal) }
        return value.typeName
    }
}
