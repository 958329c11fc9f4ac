import SceneFile
import SceneModel

/// A run record's lines as text, one function a kind of line (docs/determinism.md, "Records"):
/// the one formatter of records, for `RunRecorder` (Script: the CLI's record files) and the
/// page's own engine (CoreABI: its record in memory). Each line is a `JSONOutput` object's text,
/// without its newline; numbers print as the shortest decimal that reads back to the same double.
///
///     {"record":"cratedrop","version":1,"scene_file":…,…,"state_rows":…[,"keyframes":K]}
///     {"scene":"…the scene file's text…"}
///     {"step":N,"gravity":[x,y]} and every other input line    acting on step N (counted from 0)
///     {"step":N,"hash":"…"[,"state":[[id,x,y,angle,vx,vy,w],…]][,"keyframe":"BASE64"]}   after N steps
///     {"end":true,"steps":N,"hash":"…"}
public enum RecordLine {
    /// The header line; `stateRows` is the schedule's bound on full-state rows.
    public static func header(_ header: RecordHeader, stateRows: Int) -> String { header.jsonLine(stateRows: stateRows) }

    /// The scene line: the scene file's text as a JSON string.
    public static func scene(_ sceneText: [UInt8]) -> String {
        JSONOutput.object([("scene", .string(String(decoding: sceneText, as: UTF8.self)))]).text
    }

    /// An applied input, as the input stream writes it (`GravityLineParser` reads it back): it
    /// acts on step `step`.
    public static func input(step: Int, action: InputAction) -> String {
        switch action {
        case let .gravity(gravity):
            return JSONOutput.object([("step", .integer(step)), ("gravity", .numbers([gravity.x, gravity.y]))]).text
        case let .body(id, input):
            var fields: [(key: String, value: JSONOutput)] = [("step", .integer(step)), ("body", .unsigned(id.rawValue))]
            switch input {
            case let .impulse(impulse, at):
                fields.append(("impulse", .numbers([impulse.x, impulse.y])))
                if let at { fields.append(("at", .numbers([at.x, at.y]))) }
            case let .velocity(velocity): fields.append(("velocity", .numbers([velocity.x, velocity.y])))
            case let .angularVelocity(rate): fields.append(("angular_velocity", .number(rate)))
            case let .hold(force, at, torque, steps):
                fields.append(("force", .numbers([force.x, force.y])))
                if let at { fields.append(("at", .numbers([at.x, at.y]))) }
                if torque != 0 { fields.append(("torque", .number(torque))) }
                fields.append(("steps", .integer(steps)))
            case let .grab(at, maxForce):
                fields.append(("grab", .numbers([at.x, at.y])))
                if let maxForce { fields.append(("max_force", .number(maxForce))) }
            case let .dragTo(target): fields.append(("drag_to", .numbers([target.x, target.y])))
            case .release: fields.append(("release", true))
            }
            return JSONOutput.object(fields).text
        case let .change(change):
            return JSONOutput.object([("step", .integer(step))] + fields(change)).text
        }
    }

    /// A structural change's keys as an input line writes them (`GravityLineParser` reads them back).
    package static func fields(_ change: StructuralChange) -> [(key: String, value: JSONOutput)] {
        switch change {
        case let .addCrate(spec): [("add", ScenePart.json(spec))]
        case let .addWall(spec): [("add_wall", ScenePart.json(spec))]
        case let .addJoint(kind, a, b, settings):
            [("add_joint", ScenePart.json(kind, a: a.map { .unsigned($0.rawValue) } ?? "static", b: b.map { .unsigned($0.rawValue) } ?? "static",
                                          settings: settings))]
        case let .removeBody(id): [("body", .unsigned(id.rawValue)), ("remove", true)]
        case let .removeJoint(id): [("joint", .unsigned(id.rawValue)), ("remove", true)]
        }
    }

    /// The checkpoint line after `snapshot.step` steps, if `schedule` wants one there or a
    /// keyframe is given (which goes on the same line); nil otherwise.
    /// - Parameters:
    ///   - snapshot: the state after `snapshot.step` steps.
    ///   - keyframe: the `keyframe` key's text (`RecordKeyframe.text(of:)`, Script), if the record
    ///     keeps one there.
    public static func checkpoint(_ snapshot: WorldSnapshot, schedule: TrailSchedule, keyframe: String? = nil) -> String? {
        let step = snapshot.step
        guard keyframe != nil || schedule.wantsHash(afterStep: step) else { return nil }
        var fields: [(key: String, value: JSONOutput)] = [("step", .integer(step)), ("hash", .string(StateHash(snapshot).description))]
        if schedule.wantsState(afterStep: step) {
            // Plain loops with reserved room, not `map`: up to 100,000 rows a record, and a debug
            // build (the live page's) pays for every generic call.
            var rows: [JSONOutput] = []
            rows.reserveCapacity(snapshot.bodies.count)
            for body in snapshot.bodies {
                let values = BodyValues(body).values
                var row: [JSONOutput] = [.unsigned(body.id.rawValue)]
                row.reserveCapacity(values.count + 1)
                for value in values { row.append(.number(value)) }
                rows.append(.array(row))
            }
            fields.append(("state", .array(rows)))
        }
        if let keyframe { fields.append(("keyframe", .string(keyframe))) }
        return JSONOutput.object(fields).text
    }

    /// The end line: how many steps the run took and the final state hash.
    public static func end(steps: Int, hash: StateHash) -> String {
        JSONOutput.object([("end", true), ("steps", .integer(steps)), ("hash", .string(hash.description))]).text
    }
}
