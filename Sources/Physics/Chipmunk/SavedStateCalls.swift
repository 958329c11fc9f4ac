#if canImport(Glibc)
import Glibc
#endif
internal import CChipmunk

// The portable backend's saved-state functions (Backends/portable/saved_state.c), found in the
// loaded libchipmunk at run time: Debian's library does not have them.

/// Why the C side refused, by its CRATEDROP_STATE_ codes.
enum SavedStateCallError: Error {
    case unavailable
    case notATree
    case sleeping
    case locked
    case pendingForces
    case outOfMemory
    case malformed(String)
    case unknownShape

    init(code: Int, message: String = "") {
        switch code {
        case -1: self = .notATree
        case -2: self = .sleeping
        case -3: self = .locked
        case -4: self = .pendingForces
        case -5: self = .outOfMemory
        case -7: self = .unknownShape
        default: self = .malformed(message.isEmpty ? "malformed" : message)
        }
    }
}

/// The shapes and bodies a saved state names, in the world's own order, as the C side takes them.
final class StateMakeup {
    var shapes: [OpaquePointer?]
    var bodies: [OpaquePointer?]
    let fingerprint: UInt64
    /// The size of the last state saved, the first guess at the next one's.
    var lastSize = 0

    init(shapes: [OpaquePointer], bodies: [OpaquePointer], fingerprint: UInt64) {
        self.shapes = shapes
        self.bodies = bodies
        self.fingerprint = fingerprint
    }
}

enum SavedStateCalls {
    private struct Functions {
        let save: CChipmunk_StateSave
        let restore: CChipmunk_StateRestore
        let restoreAsSaved: CChipmunk_StateRestoreAsSaved
    }

    private static let functions: Functions? = {
        guard let save = dlsym(nil, "cratedrop_state_save"), let restore = dlsym(nil, "cratedrop_state_restore"),
              let restoreAsSaved = dlsym(nil, "cratedrop_state_restore_as_saved") else { return nil }
        return Functions(save: unsafeBitCast(save, to: CChipmunk_StateSave.self), restore: unsafeBitCast(restore, to: CChipmunk_StateRestore.self),
                         restoreAsSaved: unsafeBitCast(restoreAsSaved, to: CChipmunk_StateRestoreAsSaved.self))
    }()

    static var available: Bool { functions != nil }

    /// The space's state as bytes, written straight into the array (a second call when the
    /// first guess at its size, the last state's plus an eighth, was short); with each body's
    /// transform (six doubles a body, in the order of `makeup.bodies`), which a restore of these
    /// very bytes can take instead of computing it again.
    static func save(space: OpaquePointer, makeup: StateMakeup) throws(SavedStateCallError) -> (bytes: [UInt8], transforms: [Double]) {
        guard let functions else { throw .unavailable }
        var capacity = makeup.lastSize + makeup.lastSize / 8 + 4096
        let bodyCount = makeup.bodies.count
        while true {
            var needed = 0
            var bytes: [UInt8] = []
            // A save that succeeds (even one with too little room for the bytes) has written
            // every body's six doubles.
            let transforms = [Double](unsafeUninitializedCapacity: 6 * bodyCount) { transforms, written in
                bytes = makeup.shapes.withUnsafeMutableBufferPointer { shapes in
                    makeup.bodies.withUnsafeMutableBufferPointer { bodies in
                        [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                            needed = functions.save(space, shapes.baseAddress, Int32(shapes.count), bodies.baseAddress, Int32(bodies.count),
                                                    buffer.baseAddress, capacity, transforms.baseAddress)
                            initialized = needed >= 0 && needed <= capacity ? needed : 0
                        }
                    }
                }
                written = needed >= 0 ? 6 * bodyCount : 0
            }
            guard needed >= 0 else { throw SavedStateCallError(code: needed) }
            if needed <= capacity {
                makeup.lastSize = needed
                return (bytes, transforms)
            }
            capacity = needed
        }
    }

    /// Puts `bytes` into the space; on any error the space is left as it was. `asSaved`: the
    /// bytes are exactly as `save` returned them in this process, with the transforms it returned
    /// beside them (or none), so their consistency is not checked again (what ties them to this
    /// world is).
    static func restore(space: OpaquePointer, makeup: StateMakeup, bytes: [UInt8], asSaved: Bool = false,
                        transforms: [Double] = []) throws(SavedStateCallError) {
        guard let functions else { throw .unavailable }
        var message = [CChar](repeating: 0, count: 256)
        let code = makeup.shapes.withUnsafeMutableBufferPointer { shapes in
            makeup.bodies.withUnsafeMutableBufferPointer { bodies in
                bytes.withUnsafeBufferPointer { byteBuffer in
                    message.withUnsafeMutableBufferPointer { messageBuffer in
                        guard asSaved else {
                            return functions.restore(space, shapes.baseAddress, Int32(shapes.count), bodies.baseAddress, Int32(bodies.count),
                                                     byteBuffer.baseAddress, byteBuffer.count, messageBuffer.baseAddress, Int32(messageBuffer.count))
                        }
                        // Transforms of another number of bodies are not these bodies': left out.
                        let transforms = transforms.count == 6 * bodies.count ? transforms : []
                        return transforms.withUnsafeBufferPointer { transforms in
                            functions.restoreAsSaved(space, shapes.baseAddress, Int32(shapes.count), bodies.baseAddress, Int32(bodies.count),
                                                     byteBuffer.baseAddress, byteBuffer.count, transforms.isEmpty ? nil : transforms.baseAddress,
                                                     messageBuffer.baseAddress, Int32(messageBuffer.count))
                        }
                    }
                }
            }
        }
        guard code == 0 else {
            throw SavedStateCallError(code: Int(code), message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }
}
