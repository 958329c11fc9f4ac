#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Physics
import SceneFile
import SceneModel
import Script
import FileIO

/// sysexits(3) codes the CLI promises (see `cratedrop --help`).
package enum ExitCodes {
    package static let usage = ExitCode(64)
    package static let dataError = ExitCode(65)
    package static let noInput = ExitCode(66)
    /// A program CrateDrop runs (ffmpeg) is not installed.
    package static let unavailable = ExitCode(69)
    package static let cannotCreate = ExitCode(73)
    package static let ioError = ExitCode(74)
    /// `replay --verify` and `diff`: the two runs part (like cmp's 1, but distinct from any error).
    package static let diverged = ExitCode(3)
    /// `sweep merge`: some samples are missing or failed (sysexits' EX_TEMPFAIL: run them again).
    package static let incomplete = ExitCode(75)
}

/// Writes a line to stderr, unbuffered, so diagnostics never mix into stdout's results. Control
/// characters in it (from a file's text) are shown escaped (`TerminalText.lines`), so no file
/// can send escape sequences to the terminal; `\n` still separates lines.
package func printError(_ message: String) {
    // Nothing is left to tell a failure to: stderr is where failures go.
    try? FileDescriptorIO.writeAll(STDERR_FILENO, Array((TerminalText.lines(message) + "\n").utf8))
}

/// Loads a scene or ends the command with its problems on stderr and the matching exit code.
package func loadSceneOrExit(_ path: String) throws -> Scene {
    try loadSceneWithTextOrExit(path).scene
}

/// Loads a scene and the file's bytes (for a run record), or ends the command as `loadSceneOrExit`.
package func loadSceneWithTextOrExit(_ path: String) throws -> (scene: Scene, text: [UInt8]) {
    try sceneOrExit { () throws(SceneLoadError) in try SceneLoader.loadWithText(path: path) }
}

/// The checked scene at `path` (a world is built from it without checking again) and its bytes,
/// or ends the command as `loadSceneWithTextOrExit` does.
package func loadCheckedSceneOrExit(_ path: String) throws -> (scene: CheckedScene, text: [UInt8]) {
    try sceneOrExit { () throws(SceneLoadError) in try SceneLoader.loadChecked(path: path) }
}

/// Parses and checks `bytes`, read from the scene file `path`, or ends the command as
/// `loadSceneWithTextOrExit` does.
package func parseCheckedSceneOrExit(_ bytes: [UInt8], file path: String) throws -> CheckedScene {
    try sceneOrExit { () throws(SceneLoadError) in try SceneLoader.parseChecked(bytes, file: path) }
}

/// Loads a scene with `load`, or ends the command: 66 if it cannot be read, 65 if it is invalid,
/// every problem on stderr.
package func sceneOrExit<Value>(_ load: () throws(SceneLoadError) -> Value) throws -> Value {
    do {
        return try load()
    } catch {
        // One prefix for every message: each problem line of the file gets it.
        for line in error.description.split(separator: "\n") { printError("cratedrop: \(line)") }
        switch error {
        case .unreadable: throw ExitCodes.noInput
        case .invalid: throw ExitCodes.dataError
        }
    }
}

/// Builds the world for a validated scene. A failure here is a bug: the loader checks the same rules.
package func makeWorld(_ scene: Scene) throws -> World {
    try worldOrExit { () throws(PhysicsError) in try World(scene: scene) }
}

/// Builds the world for a checked scene, not checking it again.
package func makeWorld(_ scene: CheckedScene) throws -> World {
    try worldOrExit { () throws(PhysicsError) in try World(checked: scene) }
}

/// The world `build` makes, or ends the command with 65 and the reason.
private func worldOrExit(_ build: () throws(PhysicsError) -> World) throws -> World {
    do {
        return try build()
    } catch {
        printError("cratedrop: \(error)")
        throw ExitCodes.dataError
    }
}

/// Loads a run record or ends the command: exit 66 if it cannot be read, 65 if it is malformed.
package func loadRecordOrExit(_ path: String) throws -> RunRecord {
    try recordFileOrExit { () throws(RecordError) in try RunRecord.load(path: path) }
}

/// Reads a record-like file with `read`, or ends the command: exit 66 if it cannot be read, 65
/// if it is malformed, with the reason on stderr.
package func recordFileOrExit<Value>(_ read: () throws(RecordError) -> Value) throws -> Value {
    do {
        return try read()
    } catch {
        printError("cratedrop: \(error)")
        switch error {
        case .unreadable: throw ExitCodes.noInput
        case .invalid: throw ExitCodes.dataError
        }
    }
}
