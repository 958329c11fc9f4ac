import SceneFile
import SceneModel

/// What a page may ask of the live run (docs/serve.md).
package enum LiveCommand: Sendable, Equatable {
    /// Gravity from now on, px/s², applied at the next step boundary and recorded with its step.
    case gravity(Vec2)
    case pause
    case resume
    /// One fixed step while paused.
    case step
    /// A new world from the scene, and a new record.
    case restart
    /// Back to the state after this many steps (within the last 30 s), at the next frame
    /// boundary; the run branches from there when it steps again (docs/serve.md, "Rewind and branch").
    case rewind(step: Int)
    /// A push on a body, given as the change of velocity it makes (px/s), at a world point; the
    /// run turns it into an impulse (× the body's mass), applied at the next step boundary and
    /// recorded as an input line.
    case push(body: BodyID, velocity: Vec2, at: Vec2)
    /// A drag with the pointer (`BodyInput.grab`, `.dragTo`, `.release`): the body held at a
    /// world point by a joint to the pointer, which moves it; each recorded as an input line.
    case grab(body: BodyID, at: Vec2)
    case dragTo(body: BodyID, at: Vec2)
    case release(body: BodyID)
    /// A crate dropped at a world point (a click on empty space): the run makes it of the scene's
    /// typical size, density and material (`LiveRun.dropSpec`), added at the next step boundary
    /// and recorded as an `add` line.
    case drop(at: Vec2)
    /// The body taken out of the world at the next step boundary, recorded as its `remove` line.
    case remove(body: BodyID)

    /// The largest message a page may send, in bytes.
    package static let maxMessageBytes = 1024
    /// The largest step a rewind message may name: 2^53, below which every whole number is a double.
    static let maxRewindStep = 9_007_199_254_740_992.0

    /// A page's text message, validated like a gravity stream line: size, strict JSON, known
    /// fields, finite numbers within the gravity limit.
    /// - Returns: the command, or why the message is refused.
    package static func parse(_ text: String) -> Result<LiveCommand, MessageError> {
        guard text.utf8.count <= maxMessageBytes else { return .failure(MessageError("message longer than \(maxMessageBytes) bytes")) }
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            return .failure(MessageError("not JSON: \(error)"))
        }
        guard case let .object(members) = value.kind, members.count == 1, let member = members.first else {
            return .failure(MessageError("expected one of {\"gravity\":[x,y]}, {\"command\":\"pause|resume|step|restart\"}, {\"rewind\":STEP}, "
                + "{\"push\":{\"body\":ID,\"velocity\":[x,y],\"at\":[x,y]}}, {\"grab\" or \"drag_to\":{\"body\":ID,\"at\":[x,y]}} "
                + "{\"release\" or \"remove\":{\"body\":ID}} or {\"drop\":{\"at\":[x,y]}}"))
        }
        switch (member.key, member.value.kind) {
        case let ("gravity", .array(items)):
            guard items.count == 2, case let .number(x, _) = items[0].kind, case let .number(y, _) = items[1].kind,
                  x.isFinite, y.isFinite, abs(x) <= Limits.gravity, abs(y) <= Limits.gravity else {
                return .failure(MessageError("gravity must be [x, y], finite numbers within ±\(Int(Limits.gravity)) px/s²"))
            }
            return .success(.gravity(Vec2(x, y)))
        case let ("rewind", .number(_, literal)):
            // A whole number of steps, written as one (no fraction or exponent), read from its digits:
            // the parsed double rounds 9007199254740993 to another step.
            guard literal.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let step = Int(literal),
                  step <= Int(maxRewindStep) else {
                return .failure(MessageError("rewind takes a step: a whole number from 0 to \(Int(maxRewindStep)), got \(literal.prefix(40))"))
            }
            return .success(.rewind(step: step))
        case let ("command", .string(name)):
            switch name {
            case "pause": return .success(.pause)
            case "resume": return .success(.resume)
            case "step": return .success(.step)
            case "restart": return .success(.restart)
            default: return .failure(MessageError("unknown command '\(name)' (known: pause, resume, step, restart)"))
            }
        case let ("push", .object(fields)):
            return push(fields)
        case let ("grab", .object(fields)), let ("drag_to", .object(fields)), let ("release", .object(fields)),
             let ("remove", .object(fields)):
            return drag(member.key, fields)
        case let ("drop", .object(fields)):
            guard fields.count == 1, fields[0].key == "at", let at = point(fields[0].value) else {
                return .failure(MessageError("drop must be {\"at\": [x, y]}: a point within ±\(Int(Limits.coordinate)) px"))
            }
            return .success(.drop(at: at))
        default:
            return .failure(MessageError("unknown field '\(member.key)' or wrong type "
                + "(known: gravity, command, rewind, push, grab, drag_to, release, drop, remove)"))
        }
    }

    /// `{"body": ID, "at": [x, y]}` (`grab`, `drag_to`) or `{"body": ID}` (`release`, `remove`):
    /// a whole id from 1, a point within the world's limits.
    private static func drag(_ kind: String, _ fields: [(key: String, value: JSONValue)]) -> Result<LiveCommand, MessageError> {
        let releases = kind == "release" || kind == "remove"
        let refusal = MessageError(releases ? "\(kind) must be {\"body\": ID}: a body's id from 1"
            : "\(kind) must be {\"body\": ID, \"at\": [x, y]}: a body's id from 1, a point within ±\(Int(Limits.coordinate)) px")
        guard Set(fields.map { $0.key }) == (releases ? ["body"] : ["body", "at"]), fields.count == (releases ? 1 : 2),
              case let .number(_, literal) = fields.first(where: { $0.key == "body" })!.value.kind, let id = UInt64(literal), id >= 1 else {
            return .failure(refusal)
        }
        if releases { return .success(kind == "remove" ? .remove(body: BodyID(id)) : .release(body: BodyID(id))) }
        guard let at = point(fields.first(where: { $0.key == "at" })!.value) else { return .failure(refusal) }
        return .success(kind == "grab" ? .grab(body: BodyID(id), at: at) : .dragTo(body: BodyID(id), at: at))
    }

    /// `[x, y]`: finite numbers within the world's limits (±`Limits.coordinate` px).
    private static func point(_ value: JSONValue) -> Vec2? {
        guard case let .array(items) = value.kind, items.count == 2, case let .number(x, _) = items[0].kind,
              case let .number(y, _) = items[1].kind, x.isFinite, y.isFinite, abs(x) <= Limits.coordinate, abs(y) <= Limits.coordinate else { return nil }
        return Vec2(x, y)
    }

    /// `{"body": ID, "velocity": [x, y], "at": [x, y]}`: a whole id from 1, finite speeds within
    /// the scene limit, a point within the world's limits.
    private static func push(_ fields: [(key: String, value: JSONValue)]) -> Result<LiveCommand, MessageError> {
        let refusal = MessageError("push must be {\"body\": ID, \"velocity\": [x, y], \"at\": [x, y]}: a body's id from 1, "
            + "a change of velocity within ±\(Int(Limits.speed)) px/s, a point within ±\(Int(Limits.coordinate)) px")
        guard fields.count == 3, Set(fields.map { $0.key }) == ["body", "velocity", "at"] else { return .failure(refusal) }
        func value(_ key: String) -> JSONValue { fields.first { $0.key == key }!.value }
        func vector(_ key: String, within limit: Double) -> Vec2? {
            guard case let .array(items) = value(key).kind, items.count == 2, case let .number(x, _) = items[0].kind,
                  case let .number(y, _) = items[1].kind, x.isFinite, y.isFinite, abs(x) <= limit, abs(y) <= limit else { return nil }
            return Vec2(x, y)
        }
        guard case let .number(_, literal) = value("body").kind, let id = UInt64(literal), id >= 1,
              let velocity = vector("velocity", within: Limits.speed), let at = vector("at", within: Limits.coordinate) else {
            return .failure(refusal)
        }
        return .success(.push(body: BodyID(id), velocity: velocity, at: at))
    }

    package struct MessageError: Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }
}
