import ArgumentParser
import CLISupport
import Physics
import SceneFile
import SceneModel

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Checks scene files and prints one line per problem.",
        discussion: """
            Prints `FILE: ok (...)` for a good scene, and `FILE:LINE: PATH: PROBLEM` for each problem, every problem of a file in one pass. Warnings (a crate placed overlapping a wall) go to stderr as `cratedrop: FILE:LINE: warning: PATH: ...` and do not fail the check. A saved state (from --save-state) is checked whole: its header and checksum, its embedded scene, and (on CrateDrop's Chipmunk) that it restores into a world of that scene. Exits 65 if any file has problems, 66 if any file cannot be read.

            Example:
              cratedrop validate Scenes/*.json
              cratedrop validate out/pile.state
              cratedrop validate --explain Scenes/letters.json
            """
    )

    @Argument(help: "Scene files (JSON) or saved states.", completion: .file())
    var scenes: [String] = []

    @Flag(help: "Print the scene format as a JSON Schema (what Scenes/schema/scene.schema.json holds) and exit.")
    var schema = false

    @Flag(help: "After a scene's ok line, list each body it builds: its parts (an outline's convex parts as decomposed), and the mass, centre of gravity (in the body's frame) and moment Chipmunk computed.")
    var explain = false

    func validate() throws {
        if scenes.isEmpty, !schema { throw ValidationError("give at least one scene file") }
    }

    func run() throws {
        if schema { return try StandardOutput.print(String(SceneSchema.text.dropLast())) }
        var worst: ExitCode = .success
        for path in scenes {
            if let result = try StateValidation.check(path) {
                try StandardOutput.print(result.line)
                if let code = result.exitCode, worst == .success || code == ExitCodes.noInput { worst = code }
                continue
            }
            let scene: Scene
            do {
                let checked = try SceneLoader.check(path: path)
                // The decoder checked it: --explain's world is built without checking it again.
                scene = checked.scene
                for warning in checked.warnings { printError("cratedrop: \(warning)") }
            } catch {
                switch error {
                case .unreadable:
                    try StandardOutput.print(error.description)
                    worst = ExitCodes.noInput
                case let .invalid(diagnostics):
                    // Errors are the command's result (stdout); warnings are diagnostics (stderr).
                    for diagnostic in diagnostics {
                        if diagnostic.severity == .warning { printError("cratedrop: \(diagnostic)") } else { try StandardOutput.print(diagnostic.description) }
                    }
                    if worst == .success { worst = ExitCodes.dataError }
                }
                continue
            }
            let crates = scene.crates.count + (scene.generator?.count ?? 0)
            let joints = scene.joints.isEmpty ? "" : ", \(scene.joints.count) joint" + (scene.joints.count == 1 ? "" : "s")
            let spawned = scene.spawners.reduce(0) { $0 + $1.count }
            let spawners = scene.spawners.isEmpty ? "" : ", \(spawned) from \(scene.spawners.count) spawner" + (scene.spawners.count == 1 ? "" : "s")
            try StandardOutput.print("\(path): ok (\(crates) crates\(spawners), \(scene.allWalls().count) walls\(joints))")
            if explain {
                DebugBanner.silence()
                let world = try World(checked: CheckedScene(decoded: scene))
                for line in BodyExplanation.lines(scene, world: world) { try StandardOutput.print(line) }
            }
        }
        if worst != .success { throw worst }
    }
}
