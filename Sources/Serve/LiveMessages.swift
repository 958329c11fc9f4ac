import LiveProtocol
import Session

extension LiveMessages {
    /// Bytes before the bodies in a frame.
    package static let frameHeaderBytes = 76

    /// A frame, little-endian: u32 magic "CDF2", u32 body count, u32 generation, u32 flags (1: paused),
    /// f64 step, f64 step µs (median), f64 physics load, f64 dropped seconds, u64 state hash,
    /// f64 earliest and f64 latest step a rewind can reach (-1 and -1: the run keeps no history),
    /// u32 rewinds in this world so far (pages forget the frame they would blend from when it
    /// changes), then per body u32 id, f32 x, f32 y, f32 angle (world px, radians).
    package static func frame(_ frame: LiveFrame) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(frameHeaderBytes + 16 * frame.snapshot.bodies.count)
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        func f32(_ v: Double) { withUnsafeBytes(of: Float(v).bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        func f64(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        u32(0x3246_4443) // "CDF2"
        u32(UInt32(clamping: frame.snapshot.bodies.count))
        u32(UInt32(clamping: frame.generation))
        u32(frame.paused ? 1 : 0)
        f64(Double(frame.snapshot.step))
        f64(frame.stepMicroseconds)
        f64(frame.physicsLoad)
        f64(frame.droppedSeconds)
        withUnsafeBytes(of: frame.hash.value.littleEndian) { bytes.append(contentsOf: $0) }
        f64(frame.rewind.map { Double($0.earliest) } ?? -1)
        f64(frame.rewind.map { Double($0.latest) } ?? -1)
        u32(UInt32(truncatingIfNeeded: frame.rewind?.rewinds ?? 0))
        for body in frame.snapshot.bodies {
            u32(UInt32(truncatingIfNeeded: body.id.rawValue))
            f32(body.position.x)
            f32(body.position.y)
            f32(body.angle)
        }
        return bytes
    }
}
