import Driver
import InputLines
import LiveProtocol
import Physics
import RecordLines
import SceneFile
import SceneModel

/// One world driven through the C ABI (the wasm page, Python): a scene's world, the input lines
/// given to it, applied at their step boundaries as the CLI's input stage applies them, and
/// stepped one fixed step at a time. The caller's frame clock decides how many steps to take.
final class CoreRun {
    let world: World
    private var parser: GravityLineParser
    /// Lines given but not yet due, in the order given (a stream's steps never go backwards),
    /// each with its text: a copy of the run (Python's `World.copy`, a pickle) gives them again.
    private var pending: [(command: InputCommand, text: [UInt8])] = []
    /// Timed lines before this step are already in the world's state (it was restored there).
    private var startStep = 0
    /// Lines read so far: the next line's number is one more.
    private var linesRead = 0
    /// The display-paced driver, from the first frame on (`CoreRun+Frames.swift`); nil again after
    /// steps taken or a state restored outside it, so its count of steps owed starts afresh.
    var frames: PageFrames?
    /// Contact events kept for the caller (`CoreRun+Events.swift`).
    var events = KeptEvents()
    /// What a page is told and may ask (`CoreRun+Page.swift`).
    let page: PageLink
    /// The run's record, in memory from the load (`CoreRun+Record.swift`).
    let record: PageRecord
    /// The scene file's name and text, as loaded: a saved-state file carries them.
    let sceneFile: String
    let sceneText: [UInt8]
    /// The world as last drawn (`cratedrop_world_render`), kept for the next picture of its size.
    var picture: RunPicture?

    /// Builds the world the scene file's `bytes` describe; `file` names it in messages.
    init(scene bytes: [UInt8], file: String) throws(CoreError) {
        let checked: CheckedScene
        do {
            checked = try SceneLoader.parseChecked(bytes, file: file)
        } catch {
            throw CoreError(code: error.exitCode, message: error.description)
        }
        do {
            world = try World(checked: checked)
        } catch {
            throw CoreError(code: .dataError, message: "\(file): \(error)")
        }
        let scene = checked.scene
        sceneFile = file
        sceneText = bytes
        page = PageLink(scene: scene, world: world)
        record = PageRecord(RecordText(header: .thisProcess(sceneFile: file), sceneText: bytes,
                                       schedule: TrailSchedule(bodies: world.crates.count, stepRate: scene.stepRate), start: world.stateHash))
        parser = GravityLineParser(source: "inputs", stepRate: scene.stepRate, gravityMagnitude: scene.gravity.length, axes: .portrait)
    }

    /// Names the input stream in messages (`NAME:LINE: reason`), as the CLI names the file.
    func nameInputs(_ name: String) {
        parser = GravityLineParser(source: name, stepRate: parser.stepRate, gravityMagnitude: parser.gravityMagnitude, axes: parser.axes)
    }

    /// Reads one input line (the next line of the stream). A timed line waits for its step; an
    /// untimed one applies at the next step boundary, as in a real-time run.
    func input(_ bytes: [UInt8]) throws(CoreError) {
        linesRead += 1
        let command: InputCommand?
        switch parser.read(bytes, line: linesRead) {
        case let .success(read): command = read
        case let .failure(error): throw CoreError(code: .dataError, message: error.description)
        }
        guard let command else { return }
        if case let .step(due) = command.when, due < startStep { return }
        pending.append((command: command, text: bytes))
    }

    /// The text of the lines given but not yet applied, in the order given.
    var pendingInputs: [[UInt8]] { pending.map { $0.text } }

    /// Takes `count` steps, applying each line when its step comes.
    /// - Throws: a line that cannot apply (its body is gone, say), or the world going non-finite;
    ///   the steps before it stand.
    func step(_ count: Int) throws(CoreError) {
        frames = nil
        for _ in 0..<count {
            try applyDue()
            stepOnce()
            if let nonFinite = world.nonFinite { throw CoreError(code: .software, message: nonFinite.description) }
        }
    }

    func applyDue() throws(CoreError) {
        let step = world.stepCount
        while let command = pending.first?.command {
            if case let .step(due) = command.when, due > step { return }
            pending.removeFirst()
            do throws(PhysicsError) {
                try apply(command.action)
            } catch {
                let message = if case let .invalidValue(_, problems) = error { problems.map { $0.description }.joined(separator: "; ") }
                    else { error.description }
                throw CoreError(code: .dataError, message: "\(parser.source):\(command.line): \(message)")
            }
        }
    }

    /// Applies an input line's or a page's action to the world: the one place the core's inputs
    /// reach it, so the one place they are recorded (once applied, with the step they act on).
    func apply(_ action: InputAction) throws(PhysicsError) {
        try world.apply(action)
        recordApplied(action)
    }

    /// One fixed step, and the record's checkpoint after it: every step the run takes (`step(_:)`,
    /// the frames' driver) comes here.
    func stepOnce() {
        world.step()
        recordStepped()
        keepStepEvents()
    }

    /// The world's state as bytes (`WorldState.bytes`): the same bytes the CLI's world gives.
    func save() throws(CoreError) -> [UInt8] {
        try saveState().bytes
    }

    /// The world's state as a saved-state file (`SavedStateFile`, the CLI's `--save-state` file):
    /// the state with the scene's name and text and where it was made (this process's class,
    /// backend and architecture, as a record's header names them), so `cratedrop hash FILE`
    /// continues it natively.
    func saveFile() throws(CoreError) -> [UInt8] {
        let origin = RecordHeader.thisProcess(sceneFile: sceneFile)
        return SavedStateFile(determinismClass: origin.determinismClass, backend: origin.backend, architecture: origin.architecture,
                              sceneFile: sceneFile, sceneText: sceneText, state: try saveState()).bytes
    }

    private func saveState() throws(CoreError) -> WorldState {
        do {
            return try world.saveState()
        } catch {
            throw CoreError(code: .software, message: error.description)
        }
    }

    /// Puts the world back to a state saved from this scene (here, natively or in the browser):
    /// world-state bytes (`save()`, CDWORLD) or a saved-state file (`saveFile()` or the CLI's
    /// `--save-state`, CDSTATE). A state of another scene is refused (the world's own check). The
    /// record ends here (`CoreRun+Record.swift`).
    /// Restores a world state's bytes or a saved-state file; returns the warning for a file saved
    /// in another determinism class (the CLI's), else nil.
    func restore(_ bytes: [UInt8]) throws(CoreError) -> String? {
        let state: WorldState
        var warning: String?
        if SavedStateFile.startsWithMagic(bytes) {
            do {
                let file = try SavedStateFile.parse(bytes)
                state = file.state
                warning = file.otherClassWarning(named: "the state file", thisClass: DeterminismClass.current.id)
            } catch {
                throw CoreError(code: .dataError, message: error.description)
            }
        } else {
            do {
                state = try WorldState(bytes: bytes)
            } catch {
                throw CoreError(code: .dataError, message: error.description)
            }
        }
        do {
            try world.restore(state)
        } catch {
            throw CoreError(code: .dataError, message: error.description)
        }
        startStep = world.stepCount
        frames = nil
        pending.removeAll { given in
            if case let .step(due) = given.command.when { due < startStep } else { false }
        }
        endRecordAtRestore(step: startStep)
        return warning
    }
}
