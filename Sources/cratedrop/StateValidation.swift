import ArgumentParser
import CLISupport
import FileIO
import Physics
import SceneFile
import SceneModel
import Script

/// `validate STATE`: a saved state checked whole, as far as this backend can: the file's header,
/// lengths and checksum, its embedded scene, and (on the portable backend) a restore into a world
/// built from that scene, which checks every byte of the physics part.
enum StateValidation {
    /// The check's line for stdout and its exit code (nil: ok).
    struct Result {
        var line: String
        var exitCode: ExitCode?
    }

    /// Checks `path` if it is a saved state; nil when it is not one (a scene, checked as such).
    static func check(_ path: String) throws -> Result? {
        guard let read = SavedStateInput.read(path) else { return nil }
        let name = TerminalText.escaped(path)
        let file: SavedStateFile
        switch read {
        case let .success(parsed): file = parsed
        case let .failure(failure):
            let code = if case .unreadable = failure { ExitCodes.noInput } else { ExitCodes.dataError }
            return Result(line: "\(name): \(failure)", exitCode: code)
        }
        // Checked once, as it is decoded; the world below is built from the checked scene without
        // checking it again (World(checked:)).
        let scene: CheckedScene
        do {
            scene = try SavedStateInput.checkedScene(of: file, at: path)
        } catch {
            return Result(line: "\(error)", exitCode: ExitCodes.dataError)
        }
        let made = "step \(file.state.step) of \(TerminalText.escaped(file.sceneFile)), class \(TerminalText.escaped(file.determinismClass)), "
            + "\(TerminalText.escaped(file.backend)) backend, \(TerminalText.escaped(file.architecture))"
        if let warning = SavedStateInput.otherClassWarning(file, at: path) { printError("cratedrop: warning: \(warning)") }
        guard World.canSaveState else {
            return Result(line: "\(name): ok (saved state: \(made); its physics part is checked only where it can be restored: CrateDrop's Chipmunk, not Debian's libchipmunk7)",
                          exitCode: nil)
        }
        do {
            let world = try World(checked: scene)
            try world.restore(file.state)
            return Result(line: "\(name): ok (saved state: \(made); \(world.crates.count) bodies; restores into its scene)", exitCode: nil)
        } catch let error as StateError {
            return Result(line: "\(name): the state does not restore into its scene: \(error)", exitCode: ExitCodes.dataError)
        } catch {
            return Result(line: "\(name): embedded scene \(TerminalText.escaped(file.sceneFile)): \(error)", exitCode: ExitCodes.dataError)
        }
    }
}
