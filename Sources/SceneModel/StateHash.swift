/// The documented determinism hash of a world state (see docs/determinism.md, "State hash").
///
/// FNV-1a 64 over a byte stream made, for each body in creation order, of the IEEE-754 binary64
/// bit patterns of x, y, angle, vx, vy and angular velocity, each as 8 little-endian bytes.
/// Printed as 16 lowercase hex digits. An empty world hashes to the FNV offset basis.
public struct StateHash: Sendable, Hashable, CustomStringConvertible {
    public let value: UInt64

    public init(value: UInt64) { self.value = value }

    public init(_ snapshot: WorldSnapshot) {
        var hasher = FNV1a64()
        for body in snapshot.bodies {
            hasher.combine(body.position.x)
            hasher.combine(body.position.y)
            hasher.combine(body.angle)
            hasher.combine(body.velocity.x)
            hasher.combine(body.velocity.y)
            hasher.combine(body.angularVelocity)
        }
        value = hasher.value
    }

    /// 16 lowercase hex digits, zero-padded.
    public var description: String {
        String(value, radix: 16).zeroPadded(toWidth: 16)
    }

    public init?(hex: String) {
        guard hex.utf8.count == 16, let value = UInt64(hex, radix: 16) else { return nil }
        self.value = value
    }
}

/// FNV-1a, 64-bit (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
public struct FNV1a64: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func combine(byte: UInt8) {
        value ^= UInt64(byte)
        value = value &* 0x0000_0100_0000_01b3
    }

    /// Feeds the 8 bytes of `double.bitPattern`, least significant first.
    public mutating func combine(_ double: Double) {
        var bits = double.bitPattern
        for _ in 0..<8 {
            combine(byte: UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }
}
