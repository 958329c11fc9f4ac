import SceneModel

/// The set of machines on which this process's physics gives the same bits: runs of the same
/// scene and inputs agree bit for bit inside one class, and are not promised to across classes.
///
/// The class is measured, not looked up: a probe reaches Chipmunk the way a simulation does and
/// hashes what comes back (docs/determinism.md):
/// 1. `angles`: `cpBodySetAngle` on 4096 angles (SplitMix64 seed `0x5EED_C1A5`; angle i is
///    (2u − 1) × 10^(i mod 7) rad, so up to ±1e6 rad) and the bits of the rotation (cos, sin) it
///    computes through the library's maths: this tells apart libm variants, such as glibc's FMA and
///    non-FMA sin and cos.
/// 2. `contacts`: the state hash of `probeScene` (48 crates falling into a 240×320 walled box) after 120
///    steps: this tells apart how the contact solver was compiled (FMA contraction, x87).
///
/// `id` is the first 12 hex digits of FNV-1a 64 over both digests. Debian's libchipmunk on amd64
/// with and without glibc's FMA variants, on arm64 and on i386 each give a different id; the
/// portable backend (Backends/portable) gives one id on all of them.
public struct DeterminismClass: Sendable, Equatable, CustomStringConvertible {
    /// 12 lowercase hex digits.
    public let id: String
    /// Digest of the angle probe (16 hex digits).
    public let angleDigest: StateHash
    /// State hash of the contact probe (16 hex digits).
    public let contactDigest: StateHash

    public var description: String { id }

    /// This process's class, measured once (about 5 ms in a release build) on first use.
    public static let current: DeterminismClass = measure()

    package static let angleCount = 4096
    package static let angleSeed: UInt64 = 0x5EED_C1A5
    package static let contactSteps = 120

    /// The contact probe's scene: fixed here so the probe never depends on a file.
    package static let probeScene = Scene(
        name: "determinism-probe", worldSize: Vec2(240, 320), gravity: Vec2(0, -1000),
        bounds: BoundsWalls(radius: 2, friction: 0.6, elasticity: 0.3),
        generator: PileGenerator(count: 48, seed: 7, minSize: 8, maxSize: 20, density: 0.01,
                                 friction: 0.6, elasticity: 0.3, gap: 1)
    )

    /// Runs the probe. Prefer `current`; this measures again.
    package static func measure() -> DeterminismClass {
        let angles = angleProbe()
        let contacts = contactProbe()
        var hasher = FNV1a64()
        for digest in [angles, contacts] {
            var bits = digest.value
            for _ in 0..<8 {
                hasher.combine(byte: UInt8(truncatingIfNeeded: bits))
                bits >>= 8
            }
        }
        return DeterminismClass(id: StateHash(value: hasher.value).description.leadingBytes(12),
                                angleDigest: angles, contactDigest: contacts)
    }

    private static func angleProbe() -> StateHash {
        let body = Chipmunk.bodyNew(mass: 1, shape: .box(size: Vec2(1, 1)))
        defer { Chipmunk.bodyFree(body) }
        var random = SplitMix64(seed: angleSeed)
        var hasher = FNV1a64()
        var magnitude = 1.0
        for i in 0..<angleCount {
            magnitude = i % 7 == 0 ? 1 : magnitude * 10
            let rotation = Chipmunk.bodyRotation(body, settingAngle: (2 * random.nextUnit() - 1) * magnitude)
            hasher.combine(rotation.x)
            hasher.combine(rotation.y)
        }
        return StateHash(value: hasher.value)
    }

    private static func contactProbe() -> StateHash {
        let world: World
        do {
            world = try World(scene: probeScene)
        } catch {
            preconditionFailure("the determinism probe's own scene is invalid: \(error)")
        }
        for _ in 0..<contactSteps { world.step() }
        return world.stateHash
    }
}
