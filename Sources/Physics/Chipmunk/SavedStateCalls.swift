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
    /// The sizes of the last state saved and of its restore aid, the first guesses at the next ones'.
    var lastSize = 0
    var lastAidSize = 0

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

    // All three or none: the as-saved restore came with the save's aid arguments, so a library
    // without it has an older save, which is not called with them.
    private static let functions: Functions? = {
        guard let save = dlsym(nil, "cratedrop_state_save"), let restore = dlsym(nil, "cratedrop_state_restore"),
              let restoreAsSaved = dlsym(nil, "cratedrop_state_restore_as_saved") else { return nil }
        return Functions(save: unsafeBitCast(save, to: CChipmunk_StateSave.self), restore: unsafeBitCast(restore, to: CChipmunk_StateRestore.self),
                         restoreAsSaved: unsafeBitCast(restoreAsSaved, to: CChipmunk_StateRestoreAsSaved.self))
    }()

    static var available: Bool { functions != nil }

    /// The space's state as bytes, written straight into the array, with its restore aid (what a
    /// restore of these very bytes would otherwise work out again: Backends/portable/saved_state.c,
    /// AidHeader), in 8-byte words. A second call when the first guesses at their sizes (the last
    /// ones' plus an eighth) were short.
    static func save(space: OpaquePointer, makeup: StateMakeup) throws(SavedStateCallError) -> (bytes: [UInt8], aid: [UInt64]) {
        guard let functions else { throw .unavailable }
        var capacity = makeup.lastSize + makeup.lastSize / 8 + 4096
        var aidWords = (makeup.lastAidSize + makeup.lastAidSize / 8) / 8 + 512
        while true {
            var needed = 0, aidNeeded = 0
            var bytes: [UInt8] = []
            let aid = [UInt64](unsafeUninitializedCapacity: aidWords) { aid, aidWritten in
                bytes = makeup.shapes.withUnsafeMutableBufferPointer { shapes in
                    makeup.bodies.withUnsafeMutableBufferPointer { bodies in
                        [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                            needed = functions.save(space, shapes.baseAddress, Int32(shapes.count), bodies.baseAddress, Int32(bodies.count),
                                                    buffer.baseAddress, capacity, aid.baseAddress, 8 * aidWords, &aidNeeded)
                            initialized = needed >= 0 && needed <= capacity ? needed : 0
                        }
                    }
                }
                // The aid is whole when the save succeeded and it had room.
                aidWritten = needed >= 0 && aidNeeded <= 8 * aidWords ? aidNeeded / 8 : 0
            }
            guard needed >= 0 else { throw SavedStateCallError(code: needed) }
            if needed <= capacity && aidNeeded <= 8 * aidWords {
                makeup.lastSize = needed
                makeup.lastAidSize = aidNeeded
                return (bytes, aid)
            }
            capacity = max(capacity, needed)
            aidWords = max(aidWords, (aidNeeded + 7) / 8)
        }
    }

    /// Puts `bytes` into the space; on any error the space is left as it was. `asSaved`: the
    /// bytes are exactly as `save` returned them in this process, with the aid it returned beside
    /// them (or none), so their consistency is not checked again (what ties them to this world is).
    static func restore(space: OpaquePointer, makeup: StateMakeup, bytes: [UInt8], asSaved: Bool = false,
                        aid: [UInt64] = []) throws(SavedStateCallError) {
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
                        // The C side uses an aid only when its counts are this world's.
                        return aid.withUnsafeBufferPointer { aid in
                            functions.restoreAsSaved(space, shapes.baseAddress, Int32(shapes.count), bodies.baseAddress, Int32(bodies.count),
                                                     byteBuffer.baseAddress, byteBuffer.count, aid.isEmpty ? nil : UnsafeRawPointer(aid.baseAddress),
                                                     8 * aid.count, messageBuffer.baseAddress, Int32(messageBuffer.count))
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
