import Physics
import SceneModel

/// The exact state behind a hash as one line of JSON. Swift prints the shortest decimal that
/// round-trips to the same double, so a reader in any language recovers the exact bits.
enum StateDump {
    /// `{"step":N,"hash":"…","class":"…","bodies":[…]}`: `class` is the determinism class that made it.
    static func json(_ snapshot: WorldSnapshot, hash: StateHash) -> String {
        var out = "{\"step\":\(snapshot.step),\"hash\":\"\(hash)\",\"class\":\"\(DeterminismClass.current.id)\",\"bodies\":["
        for (i, body) in snapshot.bodies.enumerated() {
            if i > 0 { out += "," }
            out += "{\"id\":\(body.id),\"x\":\(body.position.x),\"y\":\(body.position.y),\"angle\":\(body.angle),"
            out += "\"vx\":\(body.velocity.x),\"vy\":\(body.velocity.y),\"angular_velocity\":\(body.angularVelocity)}"
        }
        return out + "]}"
    }
}
