import SceneModel

/// What the stages of a run report as it ends: each stage's typed part, found by its type (a
/// stage's file says which), and the problems they saw. The engine collects them without
/// knowing any stage; a caller reads the parts it knows.
public struct StageReports: Sendable {
    private var parts: [ObjectIdentifier: any Sendable] = [:]
    private var told: [RunProblem] = []

    public init() {}

    /// The part a stage of this type reported, if the run had one.
    public subscript<Part: Sendable>(_ type: Part.Type) -> Part? {
        get { parts[ObjectIdentifier(type)] as? Part }
        set { parts[ObjectIdentifier(type)] = newValue }
    }

    /// Notes a problem (`problems` orders them).
    public mutating func add(_ problem: RunProblem) {
        told.append(problem)
    }

    /// Every problem, in order of precedence (`RunProblem.Kind`), stages' order within a kind.
    public var problems: [RunProblem] {
        told.enumerated().sorted { ($0.element.kind, $0.offset) < ($1.element.kind, $1.offset) }.map(\.element)
    }
}

/// How a run ended, as each stage's `finish` is told.
public struct RunEnding {
    /// The world's state after the last step.
    public var final: WorldSnapshot
    /// The run reached its end: not stopped, halted or failed.
    public var completed: Bool
}
