import SceneModel
import Script
import Synchronization

/// What pages ask of a live run (`cratedrop serve`), posted from any thread and taken by the run
/// at its frame and step boundaries: tilts (the run's gravity input, applied at the next step
/// boundary and recorded like an untimed gravity line), bodies' inputs and structural changes
/// (a crate dropped, a body removed: applied at the next step boundary and recorded as their
/// input lines), pause, single step, restart, rewind (at the next frame boundary, `LiveHistory`).
///
/// Bounded by construction: a tilt replaces a tilt not yet applied (only the newest matters
/// at a step boundary), steps asked for while one is pending add nothing, and restarts coalesce
/// and are rate-limited: a restart is honoured at the first frame boundary at least
/// `minimumRestartInterval` after the current world began running, so a flood of restarts cannot
/// keep the run rebuilding its world. A rewind replaces a rewind not yet applied, and rewinds are
/// taken at most one per `minimumRestartInterval` too: each restores a state and steps on to its
/// target, and a page sending thousands a second starved every other page's frames.
public final class LiveControl: GravityEvents, Sendable {
    private struct State {
        var gravity: Vec2?
        /// Bodies' inputs (pushes, drags) and structural changes (drops, removals) not yet
        /// applied, oldest first (at most `maximumPendingPushes`).
        var inputs: [InputAction] = []
        var tilts = 0
        var paused = false
        var stepRequested = false
        var restartRequested = false
        var runStarted = ContinuousClock.now
        var rewindTarget: Int?
        /// When the last rewind was taken.
        var lastRewind: ContinuousClock.Instant?
        var history: RewindState?
    }

    /// The shortest time between the start of a world's run and its restart.
    public static let minimumRestartInterval = Duration.milliseconds(250)

    private let state = Mutex(State())

    public init() {}

    /// Bodies' inputs and structural changes waiting for the next step boundary at most; more are
    /// refused until it comes (a drag's move replaces its body's move not yet applied, so a pointer
    /// never fills it).
    public static let maximumPendingPushes = 16

    /// Gravity from now on, px/s², applied at the next step boundary.
    public func tilt(_ gravity: Vec2) { state.withLock { $0.gravity = gravity } }

    /// A push on body `body` (`cpBodyApplyImpulseAtWorldPoint`), applied at the next step
    /// boundary and recorded like an input line. The caller has checked the body and values.
    /// - Returns: false when `maximumPendingPushes` are already waiting (it is dropped).
    public func push(body: BodyID, impulse: Vec2, at: Vec2) -> Bool { post(.impulse(impulse, at: at), to: body) }

    /// A body's input (a push, a grab, a drag's move, a release), applied at the next step
    /// boundary and recorded like an input line. The caller has checked the values; what the world
    /// refuses then (a move of a body no longer grabbed, after a restart) is skipped with a warning.
    /// - Returns: false when `maximumPendingPushes` are already waiting (it is dropped).
    public func post(_ input: BodyInput, to body: BodyID) -> Bool {
        state.withLock { state in
            // The newest entry about this body (its removal included): a move replaces it only if
            // it is a move, so nothing jumps ahead of a grab, a release or a removal.
            if case .dragTo = input, let index = state.inputs.lastIndex(where: { Self.concerns($0, body) }),
               case .body(_, .dragTo) = state.inputs[index] {
                state.inputs[index] = .body(body, input)
                return true
            }
            guard state.inputs.count < Self.maximumPendingPushes else { return false }
            state.inputs.append(.body(body, input))
            return true
        }
    }

    /// A structural change (a crate dropped, a body removed), applied at the next step boundary
    /// after the inputs posted before it and recorded as its input line. The caller has checked
    /// the values; what the world refuses then (a body already gone, a drop deep in a heap) is
    /// skipped with a warning.
    /// - Returns: false when `maximumPendingPushes` inputs are already waiting (it is dropped).
    public func post(_ change: StructuralChange) -> Bool {
        state.withLock { state in
            guard state.inputs.count < Self.maximumPendingPushes else { return false }
            state.inputs.append(.change(change))
            return true
        }
    }

    /// Whether `action` is about body `body`: an input to it or its removal.
    private static func concerns(_ action: InputAction, _ body: BodyID) -> Bool {
        switch action {
        case let .body(id, _): id == body
        case let .change(.removeBody(id)): id == body
        default: false
        }
    }

    public func pause() { state.withLock { $0.paused = true } }
    public func resume() { state.withLock { $0.paused = false } }
    /// One fixed step, when paused.
    public func step() { state.withLock { if $0.paused { $0.stepRequested = true } } }
    /// A new world from the scene (and a new record): the current run ends at the next frame.
    public func restart() { state.withLock { $0.restartRequested = true } }

    /// Back to the state after `step` steps, at the next frame boundary, if the run keeps it now
    /// (`rewindState`); the run goes on from there, making a branch, once it steps again.
    /// - Returns: nil when accepted, else why not (no history kept, or a step outside the span).
    public func rewind(toStep step: Int) -> RewindRefusal? {
        state.withLock { state in
            guard let history = state.history else { return .notKept }
            guard history.earliest <= step, step <= history.latest else { return .outside(step: step, history) }
            state.rewindTarget = step
            return nil
        }
    }

    /// What the run can rewind to now, as its history last said (nil: it keeps none).
    public var rewindState: RewindState? { state.withLock { $0.history } }

    public var isPaused: Bool { state.withLock { $0.paused } }
    /// Whether the run should end for a restart now: one was asked for, and the current world has
    /// run for at least `minimumRestartInterval` (until then the request waits).
    public var restartRequested: Bool {
        state.withLock { $0.restartRequested && ContinuousClock.now - $0.runStarted >= Self.minimumRestartInterval }
    }

    /// For the next run after a restart, once its world is built: the restart is done (requests
    /// that came while it was built are part of it); a pause stays.
    public func beginRun() {
        state.withLock {
            $0.restartRequested = false
            $0.stepRequested = false
            $0.gravity = nil
            $0.rewindTarget = nil
            $0.runStarted = .now
        }
    }

    /// Takes the rewind asked for, if any and if the last was taken at least
    /// `minimumRestartInterval` ago (at a frame boundary; a later frame takes a waiting one).
    func takeRewind(now: ContinuousClock.Instant = .now) -> Int? {
        state.withLock { state in
            guard let target = state.rewindTarget else { return nil }
            if let last = state.lastRewind, now - last < Self.minimumRestartInterval { return nil }
            state.rewindTarget = nil
            state.lastRewind = now
            return target
        }
    }

    /// The history's span and rewinds so far, for pages and for checking requests; nil: none kept.
    func publish(_ history: RewindState?) {
        state.withLock { $0.history = history }
    }

    /// Lets the history drop what it no longer needs and publish its new span in one step that no
    /// rewind request comes between: `update` gets the rewind accepted and not yet taken (whose
    /// state must stay kept until then) and returns the new span.
    func updateHistory(_ update: (_ pendingRewind: Int?) -> RewindState) {
        state.withLock { $0.history = update($0.rewindTarget) }
    }

    /// Takes the frame's clock commands: whether paused, and whether one step was asked for.
    func takeClockCommands() -> (paused: Bool, stepOnce: Bool) {
        state.withLock { state in
            defer { state.stepRequested = false }
            return (state.paused, state.stepRequested)
        }
    }

    // MARK: GravityEvents

    public var source: String { "pages" }

    /// The newest tilt not yet applied, then each body's input and structural change in turn, as
    /// untimed input lines; never waits.
    public func next(wait: Bool, giveUp: () -> Bool) -> GravityStream.Event? {
        state.withLock { state in
            if let gravity = state.gravity {
                state.gravity = nil
                state.tilts += 1
                return .command(InputCommand(line: state.tilts, when: .whenRead, gravity: gravity))
            }
            guard !state.inputs.isEmpty else { return nil }
            let next = state.inputs.removeFirst()
            state.tilts += 1
            return .command(InputCommand(line: state.tilts, when: .whenRead, action: next))
        }
    }
}

/// What a live run can be rewound to: any step in `earliest...latest`. `latest` is the newest
/// step the run has reached; after a rewind, while the run has not stepped again, the world is
/// at an earlier step and the steps up to `latest` can still be gone back to.
public struct RewindState: Sendable, Equatable {
    public var earliest: Int
    public var latest: Int
    /// Rewinds done in this world so far (pages forget their last frame when it changes).
    public var rewinds: Int

    public init(earliest: Int, latest: Int, rewinds: Int) {
        self.earliest = earliest
        self.latest = latest
        self.rewinds = rewinds
    }
}

/// Why a rewind was refused.
public enum RewindRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The run keeps no history (not started yet, or it cannot save states).
    case notKept
    /// The step is outside what the run keeps now.
    case outside(step: Int, RewindState)

    public var description: String {
        switch self {
        case .notKept: "this run keeps no history to rewind"
        case let .outside(step, state):
            "step \(step) is outside the steps this run can go back to now, \(state.earliest)...\(state.latest)"
        }
    }
}
