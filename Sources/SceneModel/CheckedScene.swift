/// A scene whose every value was checked, once: the proof that later layers (a world, a run)
/// take instead of checking again. Made by `init(_:)` (`Scene.problems()` finds nothing) or by the
/// scene file's loader, which checks the same rules as it reads, naming lines. It cannot change:
/// a changed scene is a new scene, checked anew.
public struct CheckedScene: Sendable {
    public let scene: Scene

    /// Checks `scene`.
    /// - Throws: `SceneProblems` naming every bad value.
    public init(_ scene: Scene) throws(SceneProblems) {
        let problems = scene.problems()
        guard problems.isEmpty else { throw SceneProblems(problems: problems) }
        self.scene = scene
    }

    /// A scene the scene file's decoder has just checked (every part's values and the scene's).
    package init(decoded scene: Scene) {
        self.scene = scene
    }
}

/// Why a scene is not a `CheckedScene`: every bad value, with paths in the scene file's terms.
public struct SceneProblems: Error, Sendable, Equatable {
    public var problems: [FieldProblem]
}
