import Physics
import SceneFile
import SceneModel

/// The exact state behind a hash as one line of JSON:
/// `{"step":N,"hash":"…","class":"…","bodies":[{"id":…,"x":…,…}]}`, `class` being the determinism
/// class that made it. Doubles print as the shortest decimal that reads back to the same bits, so a
/// reader in any language recovers them exactly.
struct StateDump: Encodable {
    struct Body: Encodable {
        var id: UInt64
        var x, y, angle, vx, vy: Double
        var angularVelocity: Double

        enum CodingKeys: String, CodingKey { case id, x, y, angle, vx, vy, angularVelocity = "angular_velocity" }
    }

    var step: Int
    var hash: String
    var `class`: String
    var bodies: [Body]

    static func json(_ snapshot: WorldSnapshot, hash: StateHash) -> String {
        let dump = StateDump(step: snapshot.step, hash: hash.description, class: DeterminismClass.current.id, bodies: snapshot.bodies.map {
            Body(id: $0.id.rawValue, x: $0.position.x, y: $0.position.y, angle: $0.angle, vx: $0.velocity.x, vy: $0.velocity.y,
                 angularVelocity: $0.angularVelocity)
        })
        return (try? OrderedJSONEncoder().encode(dump)) ?? "{}"
    }
}
