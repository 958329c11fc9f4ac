import Driver
import Physics
import SceneModel
import Script

/// The inputs and outputs of a run beside its scene: a gravity stream and a run record.
public struct RunInputs: Sendable {
    /// Gravity changes as JSON Lines from this path, "-" for stdin (a record names itself).
    public var gravityPath: String?
    public var axes: AxisPreset
    public var badLines: GravityScriptedWorld.BadLinePolicy
    /// Write a run record here.
    public var recordPath: String?

    public init(gravityPath: String? = nil, axes: AxisPreset = .portrait, badLines: GravityScriptedWorld.BadLinePolicy = .stop,
                recordPath: String? = nil) {
        self.gravityPath = gravityPath
        self.axes = axes
        self.badLines = badLines
        self.recordPath = recordPath
    }
}

/// Why a run could not start.
public enum RunSetupError: Error, CustomStringConvertible {
    /// The gravity input cannot be opened (a missing file): nothing to read.
    case gravityUnreadable(GravityOpenError)
    /// The record file cannot be created.
    case recordNotCreated(GravityOpenError)

    public var description: String {
        switch self {
        case let .gravityUnreadable(error), let .recordNotCreated(error): error.description
        }
    }
}

/// How a run's inputs and record ended.
public enum InputOutcome: Sendable, Equatable {
    case complete
    /// A gravity line stopped the run (policy `stop`).
    case badLine(GravityLineError)
    /// The gravity input could not be read to its end: `SOURCE: reason`.
    case readError(String)
    /// The record could not be written: `PATH: reason`.
    case recordNotWritten(String)
}

/// The world as a run drives it: wrapped with the gravity stream and the record, as asked.
public struct DrivenWorld {
    public let world: World
    public let scripted: GravityScriptedWorld?
    public let recording: RecordingSimulation?

    /// Opens the gravity stream and creates the record now, so a missing file ends the run
    /// before any step.
    /// - Parameters:
    ///   - world: the world to drive; the result holds it.
    ///   - scene: the scene it was built from (step rate and gravity for the stream's parser).
    ///   - sceneFile: the scene's path, for the record's header.
    ///   - sceneText: the scene file's bytes, embedded in the record.
    ///   - inputs: the gravity stream and the record to open.
    ///   - waitsForInput: offline runs wait for the input that decides each step; real time never waits.
    ///   - shouldStop: ends a wait for input (a stop request), checked between lines too.
    ///   - onWarning: told of a skipped line and of a record made in another determinism class.
    public init(world: World, scene: Scene, sceneFile: String, sceneText: [UInt8], inputs: RunInputs, waitsForInput: Bool,
                shouldStop: @escaping () -> Bool, onWarning: @escaping (String) -> Void) throws(RunSetupError) {
        var recorder: RunRecorder?
        if let path = inputs.recordPath {
            do {
                recorder = try RunRecorder(path: path, header: .thisProcess(sceneFile: sceneFile), sceneText: sceneText,
                                           schedule: TrailSchedule(bodies: world.crates.count, stepRate: scene.stepRate))
            } catch {
                throw .recordNotCreated(error)
            }
        }
        var scripted: GravityScriptedWorld?
        if let path = inputs.gravityPath {
            let source: GravityStream.Source
            do {
                source = try GravityStream.open(path: path)
            } catch {
                throw .gravityUnreadable(error)
            }
            if path != "-", let warning = RunRecord.header(atPath: path)?.crossClassWarning { onWarning("\(path): \(warning)") }
            let parser = GravityLineParser(source: path == "-" ? "stdin" : path, stepRate: scene.stepRate,
                                           gravityMagnitude: scene.gravity.length, axes: inputs.axes)
            scripted = GravityScriptedWorld(world: world, stream: GravityStream(source: source, parser: parser),
                                            waitsForInput: waitsForInput, policy: inputs.badLines, recorder: recorder,
                                            shouldStop: shouldStop) { error in onWarning("skipped \(error)") }
        }
        self.world = world
        self.scripted = scripted
        recording = recorder.map { RecordingSimulation(scripted ?? world, recorder: $0) }
    }

    /// What the driver steps: the outermost wrapper.
    public var simulation: Simulation {
        if let recording { return recording }
        if let scripted { return scripted }
        return world
    }

    /// Finishes the record (its end line) and says how the inputs ended. Call it before printing
    /// results, so the record is complete whatever happens to stdout.
    public func finish() -> InputOutcome {
        var recordFailure: RecordWriteError?
        do {
            try recording?.finish()
        } catch {
            recordFailure = error
        }
        if let failure = scripted?.failure { return .badLine(failure) }
        if let scripted, let readError = scripted.readError { return .readError("\(scripted.source): \(readError)") }
        if let recordFailure { return .recordNotWritten(recordFailure.description) }
        return .complete
    }
}
