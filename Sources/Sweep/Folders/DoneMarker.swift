import SceneFile
import SceneModel

/// A sample's `done.json`: written last into its folder, before the folder takes its final name.
/// It says how the sample was made (parameters, steps, the sweep's fingerprint), what it gave
/// (the final state hash, summary figures, wall time) and where (determinism class, backend,
/// architecture, CrateDrop's version), so the sample can be re-run and checked anywhere.
public struct DoneMarker: Sendable, Equatable {
    public var sample: Int
    /// The parameters as a JSON object, in the spec's axis order.
    package var parameters: JSONOutput
    /// The parameters as a JSON object's text, in the spec's axis order: `{"generator.seed": 2}`.
    public var parametersJSON: String { parameters.spacedText }
    /// The step the sample started at (a saved state's, when branching) and the steps it ran.
    public var startStep: Int
    public var steps: Int
    public var hash: StateHash
    /// `hashes.txt`'s interval, if the sample wrote one.
    public var hashEvery: Int?

    /// What of the marker is outside what a spec can ask (`steps`, `outputs.hash_every`) or a
    /// state can start at, as `KEY: PROBLEM`, or nil: a marker is outside input to what runs it
    /// again (`sweep verify`), which would trap on a negative count or run for ever on a huge one.
    public var outOfBounds: String? {
        let counts = 0...Int(Int32.max)
        if !(0...Int(WorldState.maxStep)).contains(startStep) { return "start_step: must be in 0...\(WorldState.maxStep), got \(startStep)" }
        if !counts.contains(steps) { return "steps: must be in \(counts) (a spec's bounds), got \(steps)" }
        if let hashEvery, !(1...counts.upperBound).contains(hashEvery) {
            return "hash_every: must be in 1...\(counts.upperBound) (a spec's bounds), got \(hashEvery)"
        }
        return nil
    }
    public var determinismClass: String
    public var backend: String
    public var architecture: String
    public var version: String
    /// The sweep's fingerprint (`sweep.json`).
    public var sweep: String
    /// Files in the folder besides this one.
    public var files: [String]
    public var wallSeconds: Double
    /// CPU time of the thread that ran it (setup and steps), seconds.
    public var cpuSeconds: Double
    /// Summary figures of the final state.
    public var summary: Summary
    /// Warnings the run gave (a body that left the world).
    public var warnings: [String]

    /// Figures of the final state, for a first look at a sweep without opening its files.
    public struct Summary: Sendable, Equatable {
        public var bodies: Int
        /// Mean height of the bodies' centres, px.
        public var meanY: Double
        /// The fastest body's speed, px/s.
        public var maxSpeed: Double
        /// Bodies faster than 1 px/s.
        public var moving: Int

        public init(_ snapshot: WorldSnapshot) {
            bodies = snapshot.bodies.count
            meanY = snapshot.bodies.isEmpty ? 0 : snapshot.bodies.map(\.position.y).reduce(0, +) / Double(snapshot.bodies.count)
            let speeds = snapshot.bodies.map { $0.velocity.length }
            maxSpeed = speeds.max() ?? 0
            moving = speeds.filter { $0 > 1 }.count
        }

        init(bodies: Int, meanY: Double, maxSpeed: Double, moving: Int) {
            self.bodies = bodies
            self.meanY = meanY
            self.maxSpeed = maxSpeed
            self.moving = moving
        }
    }

    public static let fileName = "done.json"
    /// The largest done marker read.
    static let maxBytes = 1 << 20

    /// One line of JSON; the manifest's rows are these with the folder's path added.
    public func json(path: String? = nil) -> String {
        var fields: [(key: String, value: JSONOutput)] = [("sample", .integer(sample))]
        if let path { fields.append(("path", .string(path))) }
        let figures: JSONOutput = ["bodies": .integer(summary.bodies), "mean_y": .number(summary.meanY),
                                   "max_speed": .number(summary.maxSpeed), "moving": .integer(summary.moving)]
        fields += [
            ("parameters", parameters),
            ("start_step", .integer(startStep)), ("steps", .integer(steps)),
            ("hash", .string(hash.description)),
            ("hash_every", hashEvery.map(JSONOutput.integer) ?? .null),
            ("determinism_class", .string(determinismClass)),
            ("backend", .string(backend)), ("architecture", .string(architecture)),
            ("cratedrop", .string(version)), ("sweep", .string(sweep)),
            ("files", .array(files.map { .string($0) })),
            ("wall_seconds", .number(wallSeconds)), ("cpu_seconds", .number(cpuSeconds)),
            ("summary", figures),
            ("warnings", .array(warnings.map { .string($0) })),
        ]
        return JSONOutput.object(fields).text
    }

    /// Reads a done marker back; nil when the text is not one (a folder cut short is not done).
    public init?(json bytes: [UInt8]) {
        guard let root = try? JSONParser.parse(bytes), case let .object(members) = root.kind else { return nil }
        func value(_ key: String) -> JSONValue.Kind? { members.first { $0.key == key }?.value.kind }
        func integer(_ key: String) -> Int? { if case let .number(_, literal)? = value(key) { Int(literal) } else { nil } }
        func double(_ key: String, in kind: JSONValue.Kind?) -> Double? {
            guard case let .object(fields)? = kind, case let .number(number, _)? = fields.first(where: { $0.key == key })?.value.kind else { return nil }
            return number
        }
        func string(_ key: String) -> String? { if case let .string(text)? = value(key) { text } else { nil } }
        guard let sample = integer("sample"), let parameters = members.first(where: { $0.key == "parameters" })?.value,
              let startStep = integer("start_step"), let steps = integer("steps"),
              let hash = string("hash").flatMap(StateHash.init(hex:)), let determinismClass = string("determinism_class"),
              let backend = string("backend"), let architecture = string("architecture"), let version = string("cratedrop"),
              let sweep = string("sweep"), case let .array(files)? = value("files"),
              case let .number(wallSeconds, _)? = value("wall_seconds"), case let .number(cpuSeconds, _)? = value("cpu_seconds"),
              let summaryKind = value("summary"), case let .object(summaryFields) = summaryKind,
              case let .array(warnings)? = value("warnings")
        else { return nil }
        func summaryInteger(_ key: String) -> Int? {
            if case let .number(_, literal)? = summaryFields.first(where: { $0.key == key })?.value.kind { Int(literal) } else { nil }
        }
        guard let bodies = summaryInteger("bodies"), let moving = summaryInteger("moving"),
              let meanY = double("mean_y", in: summaryKind), let maxSpeed = double("max_speed", in: summaryKind) else { return nil }
        self.sample = sample
        self.parameters = JSONOutput(parameters)
        self.startStep = startStep
        self.steps = steps
        self.hash = hash
        self.hashEvery = integer("hash_every")
        self.determinismClass = determinismClass
        self.backend = backend
        self.architecture = architecture
        self.version = version
        self.sweep = sweep
        self.files = files.compactMap { if case let .string(name) = $0.kind { name } else { nil } }
        self.wallSeconds = wallSeconds
        self.cpuSeconds = cpuSeconds
        self.summary = Summary(bodies: bodies, meanY: meanY, maxSpeed: maxSpeed, moving: moving)
        self.warnings = warnings.compactMap { if case let .string(text) = $0.kind { text } else { nil } }
    }

    package init(sample: Int, parameters: JSONOutput, startStep: Int, steps: Int, hash: StateHash, hashEvery: Int?,
                determinismClass: String, backend: String, architecture: String, version: String, sweep: String,
                files: [String], wallSeconds: Double, cpuSeconds: Double, summary: Summary, warnings: [String]) {
        self.cpuSeconds = cpuSeconds
        self.sample = sample
        self.parameters = parameters
        self.startStep = startStep
        self.steps = steps
        self.hash = hash
        self.hashEvery = hashEvery
        self.determinismClass = determinismClass
        self.backend = backend
        self.architecture = architecture
        self.version = version
        self.sweep = sweep
        self.files = files
        self.wallSeconds = wallSeconds
        self.summary = summary
        self.warnings = warnings
    }
}
