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
public enum ExitCodes {
    public static let usage = ExitCode(64)
    public static let dataError = ExitCode(65)
    public static let noInput = ExitCode(66)
    /// A program CrateDrop runs (ffmpeg) is not installed.
    public static let unavailable = ExitCode(69)
    public static let cannotCreate = ExitCode(73)
    public static let ioError = ExitCode(74)
    /// `replay --verify` and `diff`: the two runs part (like cmp's 1, but distinct from any error).
    public static let diverged = ExitCode(3)
    /// `sweep merge`: some samples are missing or failed (sysexits' EX_TEMPFAIL: run them again).
    public static let incomplete = ExitCode(75)
}

/// Writes a line to stderr, unbuffered, so diagnostics never mix into stdout's results. Control
/// characters in it (from a file's text) are shown escaped (`TerminalText.lines`), so no file
/// can send escape sequences to the terminal; `\n` still separates lines.
public func printError(_ message: String) {
    // Nothing is left to tell a failure to: stderr is where failures go.
    try? FileDescriptorIO.writeAll(STDERR_FILENO, Array((TerminalText.lines(message) + "\n").utf8))
}

/// Loads a scene or ends the command with its problems on stderr and the matching exit code.
public func loadSceneOrExit(_ path: String) throws -> Scene {
    try loadSceneWithTextOrExit(path).scene
}

/// Loads a scene and the file's bytes (for a run record), or ends the command as `loadSceneOrExit`.
public func loadSceneWithTextOrExit(_ path: String) throws -> (scene: Scene, text: [UInt8]) {
    do {
        return try SceneLoader.loadWithText(path: path)
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
public func makeWorld(_ scene: Scene) throws -> World {
    do {
        return try World(scene: scene)
    } catch {
        printError("cratedrop: \(error)")
        throw ExitCodes.dataError
    }
}

/// Loads a run record or ends the command: exit 66 if it cannot be read, 65 if it is malformed.
public func loadRecordOrExit(_ path: String) throws -> RunRecord {
    try recordFileOrExit { () throws(RecordError) in try RunRecord.load(path: path) }
}

/// Reads a record-like file with `read`, or ends the command: exit 66 if it cannot be read, 65
/// if it is malformed, with the reason on stderr.
public func recordFileOrExit<Value>(_ read: () throws(RecordError) -> Value) throws -> Value {
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
