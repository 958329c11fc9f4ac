import ArgumentParser
import CLISupport
import SceneFile
import SceneModel

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Checks scene files and prints one line per problem.",
        discussion: """
            Prints `FILE: ok (...)` for a good scene, and `FILE:LINE: PATH: PROBLEM` for each problem.
            Exits 65 if any scene has problems, 66 if any file cannot be read.

            Example:
              cratedrop validate Scenes/*.json
            """
    )

    @Argument(help: "Scene files (JSON).", completion: .file())
    var scenes: [String] = []

    @Flag(help: "Print the scene format as a JSON Schema (what Scenes/scene.schema.json holds) and exit.")
    var schema = false

    func validate() throws {
        if scenes.isEmpty, !schema { throw ValidationError("give at least one scene file") }
    }

    func run() throws {
        if schema { return try StandardOutput.print(String(SceneSchema.text.dropLast())) }
        var worst: ExitCode = .success
        for path in scenes {
            let scene: Scene
            do {
                scene = try SceneLoader.load(path: path)
            } catch {
                try StandardOutput.print(error.description)
                switch error {
                case .unreadable: worst = ExitCodes.noInput
                case .invalid: if worst == .success { worst = ExitCodes.dataError }
                }
                continue
            }
            let crates = scene.crates.count + (scene.generator?.count ?? 0)
            try StandardOutput.print("\(path): ok (\(crates) crates, \(scene.allWalls().count) walls)")
        }
        if worst != .success { throw worst }
    }
}
