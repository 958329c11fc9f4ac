import FileIO
import Physics
import SceneModel
import Script

/// Where a gravity input's changes come from: a JSON Lines stream (`GravityStream`) or tilts
/// posted from pages (`LiveControl`). Both hand out the same events, so both apply and record
/// through one path (`RunInputs`).
public protocol GravityEvents: AnyObject {
    /// The input's name as used in messages: a path, `stdin`, `pages`.
    var source: String { get }
    /// The next event; waits for one if `wait` (until `giveUp` says so). nil: nothing yet (not
    /// waiting), or the wait was given up.
    func next(wait: Bool, giveUp: () -> Bool) -> GravityStream.Event?
}

extension GravityStream: GravityEvents {}

/// The input stage: gravity changes applied at step boundaries, through the run's inputs
/// (`RunInputs`), which record them with their step.
///
/// Offline (`waitsForInput`), before each step it waits until it knows whether a change applies
/// at that step (the next timed line is read, or the stream has ended), so the result never
/// depends on read timing. In real time it never waits: it applies what has arrived (untimed
/// lines and timed lines whose step has come) and steps on.
public final class GravityInput: StepStage {
    public enum BadLinePolicy: String, Sendable, CaseIterable {
        case stop, skip
    }

    private let events: GravityEvents
    private let waitsForInput: Bool
    private let policy: BadLinePolicy
    /// Applies each change and records it (the record is created after the input is opened).
    private let inputs: RunInputs
    /// Timed lines before this step were applied by the run that made the saved state continued.
    private let startStep: Int
    /// The step the run ends at, when known: a force may not be held past it.
    private let lastStep: Int?
    private let onSkip: (GravityLineError) -> Void
    /// Told of what a change did beyond its line (an add that overlaps, the joints a removal
    /// took) and, once the run has ended, of the first timed line left unapplied because its
    /// step is past the run's end (a removal at step 500 of a 100-step run).
    var onWarning: (String) -> Void = { _ in }
    /// Ends an offline wait for input (Ctrl-C): the next step is then refused, cleanly.
    private let shouldStop: () -> Bool
    /// A timed command read but not yet due.
    private var pending: InputCommand?
    private var ended = false

    /// The line that stopped the run (policy `stop`), if any.
    public private(set) var failure: GravityLineError?
    public private(set) var linesSkipped = 0
    public private(set) var changesApplied = 0
    /// The stream could not be read to its end (the reason), if so.
    public private(set) var readError: FileFailure?

    /// - Parameters:
    ///   - events: the gravity stream (already reading) or the live control.
    ///   - waitsForInput: offline runs wait for the input that decides each step; real-time runs never wait.
    ///   - policy: what a malformed line does: stop the run, or be skipped with a warning.
    ///   - inputs: applies every change and records it with its step.
    ///   - shouldStop: ends a wait for input (a stop request); checked between lines too.
    ///   - onSkip: told of each line skipped under policy `skip`.
    ///   - startStep: the step the run starts at (a saved state's); timed lines due before it are
    ///     passed over, since the state already holds their effect.
    ///   - lastStep: the step the run ends at, when known; a force held past it is refused.
    public init(events: GravityEvents, waitsForInput: Bool, policy: BadLinePolicy, inputs: RunInputs, startStep: Int = 0,
                lastStep: Int? = nil, shouldStop: @escaping () -> Bool = { false }, onSkip: @escaping (GravityLineError) -> Void) {
        self.startStep = startStep
        self.lastStep = lastStep
        self.events = events
        self.waitsForInput = waitsForInput
        self.policy = policy
        self.inputs = inputs
        self.shouldStop = shouldStop
        self.onSkip = onSkip
    }

    /// Applies every change due at the next step; false if the stream failed (policy `stop`) or a
    /// stop was requested while waiting.
    public func beforeStep(_ state: StepState) -> Bool {
        guard failure == nil else { return false }
        let step = state.step
        while true {
            // Checked between lines too: a flood of skipped lines must not hold off a stop request.
            if shouldStop() { return false }
            if let command = pending {
                guard case let .step(due) = command.when, due > step else {
                    apply(command, at: step)
                    pending = nil
                    // A line refused here (policy `stop`) ends the run before this step.
                    if failure != nil { return false }
                    continue
                }
                return true
            }
            guard !ended else { return true }
            guard let event = events.next(wait: waitsForInput, giveUp: shouldStop) else { return !waitsForInput }
            switch event {
            case let .command(command):
                if case let .step(due) = command.when, due < startStep { continue }
                if command.when == .whenRead, waitsForInput {
                    if !reject(GravityLineError(source: source, line: command.line,
                                                message: "a line without \"t\" or \"step\" applies when read, which only a --realtime run can do")) {
                        return false
                    }
                } else {
                    pending = command
                }
            case let .badLine(error):
                if !reject(error) { return false }
            case let .end(readError):
                ended = true
                self.readError = readError
            }
        }
    }

    /// Skips the line (policy `skip`, returns true) or records it as the run's failure (false).
    private func reject(_ error: GravityLineError) -> Bool {
        switch policy {
        case .skip:
            linesSkipped += 1
            onSkip(error)
            return true
        case .stop:
            failure = error
            return false
        }
    }

    private func apply(_ command: InputCommand, at step: Int) {
        // The parser checked the values; what it cannot know (the body, the run's end) is checked
        // here, before the step the line applies at.
        if case let .body(_, .hold(_, _, _, steps)) = command.action, let lastStep, steps > lastStep - step {
            refuse(command, "the force is held for \(steps) steps from step \(step), past the run's end after step \(lastStep)")
            return
        }
        do throws(PhysicsError) {
            if let entry = try inputs.apply(command.action) { tell(entry, of: command, in: inputs.world) }
        } catch {
            let message = if case let .invalidValue(_, problems) = error { problems.map(\.description).joined(separator: "; ") } else { error.description }
            refuse(command, message)
            return
        }
        changesApplied += 1
    }

    /// What a change did beyond what its line says: the bodies and walls an added crate starts
    /// overlapping (Chipmunk pushes them apart at the next step: a jump, when it was not meant),
    /// and the joints a body's removal took with it.
    private func tell(_ entry: MakeupChange, of command: InputCommand, in world: World) {
        let at = "\(source):\(command.line)"
        switch entry.change {
        case .addCrate:
            guard let made = entry.made else { return }
            let overlaps = world.overlaps(of: BodyID(made))
            guard !overlaps.isEmpty else { return }
            let listed = overlaps.prefix(3).map { "\(Self.name($0.party)) by \(Self.rounded($0.depth)) px" }
            onWarning("\(at): add: body \(made) starts overlapping " + listed.joined(separator: ", ")
                + (overlaps.count > 3 ? " and \(overlaps.count - 3) more" : "") + " (Chipmunk pushes them apart at the next step)")
        case let .removeBody(id) where !entry.jointsRemoved.isEmpty:
            let joints = entry.jointsRemoved.map { "\($0.rawValue)" }.joined(separator: ", ")
            onWarning("\(at): removing body \(id.rawValue) at step \(entry.step) took the joint\(entry.jointsRemoved.count == 1 ? "" : "s") "
                + "that held it with it: \(joints)")
        default:
            return
        }
    }

    private static func name(_ party: ContactParty) -> String {
        switch party {
        case let .body(id): "body \(id.rawValue)"
        case let .wall(index): "wall \(index)"
        }
    }

    private static func rounded(_ depth: Double) -> String {
        let hundredths = (depth * 100).rounded() / 100
        return hundredths == hundredths.rounded() ? String(Int(hundredths)) : "\(hundredths)"
    }

    /// A line that cannot apply: skipped (policy `skip`) or the run's failure, before the step.
    private func refuse(_ command: InputCommand, _ message: String) {
        _ = reject(GravityLineError(source: source, line: command.line, message: message))
    }

    /// The input's name as used in messages.
    public var source: String { events.source }
}

extension GravityInput: PlannedStage {
    static var position: StepPipeline.Position { .input }

    /// Opens the plan's gravity input, reading, before any output is created; a record replayed
    /// is its own gravity input.
    static func prepare(_ setup: StageSetup) throws(RunSetupError) {
        let plan = setup.plan
        switch plan.gravity?.source ?? plan.start.record.map({ .stream(path: $0.path) }) {
        case nil:
            return
        case let .live(control):
            setup.gravityEvents = control
        case let .stream(path, axes):
            let input: GravityStream.Source
            do {
                input = try GravityStream.open(path: path)
            } catch {
                throw .gravityUnreadable(error)
            }
            if path != "-", let warning = RunRecord.header(atPath: path)?.crossClassWarning { setup.onWarning("\(path): \(warning)") }
            let parser = GravityLineParser(source: path == "-" ? "stdin" : path, stepRate: setup.scene.stepRate,
                                           gravityMagnitude: setup.scene.gravity.length, axes: axes)
            setup.gravityEvents = GravityStream(source: input, parser: parser)
        }
    }

    static func make(_ setup: StageSetup) -> GravityInput? {
        guard let events = setup.gravityEvents else { return nil }
        let onWarning = setup.onWarning
        let input = GravityInput(events: events, waitsForInput: !setup.plan.clock.isRealTime, policy: setup.plan.gravity?.badLines ?? .stop,
                                 inputs: setup.inputs, startStep: setup.plan.start.step, lastStep: setup.lastStep,
                                 shouldStop: setup.shouldStop) { error in onWarning("skipped \(error)") }
        input.onWarning = onWarning
        return input
    }

    /// Its part (`RunOutcome.gravity`); a refused line is bad values, a stream not read to its end an input failure.
    public func finish(_ ending: RunEnding, into reports: inout StageReports) {
        if ending.completed, let pending, case let .step(due) = pending.when, let lastStep, due >= lastStep {
            onWarning("\(source):\(pending.line): step \(due) is past the run's end (it ends after step \(lastStep)): "
                + "this line and any after it were not applied")
        }
        reports[RunOutcome.GravitySummary.self] = RunOutcome.GravitySummary(source: source, changesApplied: changesApplied,
                                                                           linesSkipped: linesSkipped, failure: failure, readError: readError)
        if let failure { reports.add(RunProblem(.badValues, failure)) }
        if let readError { reports.add(RunProblem(.inputOutput, readError, message: "\(source): \(readError)")) }
    }
}

extension RunOutcome {
    /// How the gravity input ended.
    public struct GravitySummary: Sendable, Equatable {
        /// The input's name: its path, `stdin` or `pages`.
        public var source: String
        public var changesApplied: Int
        public var linesSkipped: Int
        /// The malformed line that stopped the run (policy `stop`).
        public var failure: GravityLineError?
        /// The stream could not be read to its end.
        public var readError: FileFailure?
    }

    /// What the gravity input did, when the run had one.
    public var gravity: GravitySummary? { stages[GravitySummary.self] }
}
