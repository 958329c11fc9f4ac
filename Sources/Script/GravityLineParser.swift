import SceneFile
import SceneModel

/// Parses gravity stream lines (JSON Lines) into commands, checking each strictly:
///
///     {"t": 1.25, "gravity": [0, -1000]}   from simulated time 1.25 s on
///     {"step": 150, "gravity": [-1000, 0]} from step 150 on
///     {"t": 2, "accel": [0.1, -0.9, 0.2]}  accelerometer reading in g, mapped by `axes`
///     {"gravity": [0, 1000]}               when read (real-time runs only)
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
    public mutating func parse(_ bytes: [UInt8], line: Int) -> Result<GravityCommand, GravityLineError> {
        switch object(bytes, line: line) {
        case let .success(members): command(members, line: line)
        case let .failure(error): .failure(error)
        }
    }

    /// Parses one line of a gravity stream or of a run record (docs/determinism.md, "Records"): a record's own
    /// lines (its header, scene, checkpoints and end line) give nil. They are recognised only after
    /// a record header on line 1, so a plain stream stays strict.
    public mutating func read(_ bytes: [UInt8], line: Int) -> Result<GravityCommand?, GravityLineError> {
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
            return .failure(GravityLineError(source: source, line: line, message: "invalid JSON at column \(error.column): \(error.message)"))
        }
        guard case let .object(members) = value.kind else {
            return .failure(GravityLineError(source: source, line: line, message: "must be a JSON object, got \(value.typeName)"))
        }
        return .success(members)
    }

    private mutating func command(_ members: [(key: String, value: JSONValue)], line: Int) -> Result<GravityCommand, GravityLineError> {
        func fail(_ message: String) -> Result<GravityCommand, GravityLineError> {
            .failure(GravityLineError(source: source, line: line, message: message))
        }
        for (key, _) in members where !["t", "step", "gravity", "accel"].contains(key) {
            return fail("unknown key \"\(key)\" (allowed: t, step, gravity, accel)")
        }
        let field = { (key: String) in members.first { $0.key == key }?.value }

        let gravity: Vec2
        switch (field("gravity"), field("accel")) {
        case (nil, nil): return fail("needs \"gravity\": [x, y] or \"accel\": [ax, ay, az]")
        case (.some, .some): return fail("give \"gravity\" or \"accel\", not both")
        case let (.some(vector), nil):
            guard let numbers = Self.numbers(vector, count: 2) else { return fail("gravity must be an array of two numbers [x, y]") }
            guard numbers.allSatisfy({ $0.isFinite && abs($0) <= Limits.gravity }) else {
                return fail("gravity must be finite numbers within ±\(Int(Limits.gravity)), got [\(numbers.map { String($0) }.joined(separator: ", "))]")
            }
            gravity = Vec2(numbers[0], numbers[1])
        case let (nil, .some(vector)):
            guard let numbers = Self.numbers(vector, count: 3) else { return fail("accel must be an array of three numbers [ax, ay, az] in g") }
            guard numbers.allSatisfy({ $0.isFinite && abs($0) <= 100 }) else {
                return fail("accel must be finite numbers within ±100 g, got [\(numbers.map { String($0) }.joined(separator: ", "))]")
            }
            gravity = axes.gravity(accel: (numbers[0], numbers[1], numbers[2]), magnitude: gravityMagnitude)
            guard gravity.isFinite, abs(gravity.x) <= Limits.gravity, abs(gravity.y) <= Limits.gravity else {
                return fail("accel gives gravity beyond ±\(Int(Limits.gravity))")
            }
        }

        switch (field("t"), field("step")) {
        case (.some, .some): return fail("give \"t\" or \"step\", not both")
        case (nil, nil): return .success(GravityCommand(line: line, when: .whenRead, gravity: gravity))
        case let (.some(t), nil):
            guard case let .number(_, literal) = t.kind, let time = DecimalSeconds(literal) else {
                return fail("t must be a plain decimal number of seconds >= 0 (such as 1.25, at most 9 decimals, at most 1000000000), got \(Self.show(t))")
            }
            if let lastTime, time.isLess(than: lastTime) { return fail("t goes backwards: \(time) after \(lastTime)") }
            let step = time.stepsRoundedUp(atRate: stepRate)
            if step < lastStep { return fail("t \(time) is step \(step), before step \(lastStep) of an earlier line") }
            lastTime = time
            lastStep = step
            return .success(GravityCommand(line: line, when: .step(step), gravity: gravity))
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
            return .success(GravityCommand(line: line, when: .step(step), gravity: gravity))
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
