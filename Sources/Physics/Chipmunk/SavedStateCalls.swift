internal import CChipmunk

// The saved-state functions of CrateDrop's Chipmunk (Backends/portable), declared once in
// Sources/CChipmunk/cratedrop_state.h and linked weakly: Debian's library does not have them.

/// Why the C side refused, by its `cratedrop_state_code`.
enum SavedStateCallError: Error {
    case unavailable
    case notATree
    case sleeping
    case locked
    case pendingForces
    case outOfMemory
    case malformed(String)
    case unknownShape
    case unknownConstraint

    init(code: Int, message: String = "") {
        switch cratedrop_state_code(rawValue: Int32(truncatingIfNeeded: code)) {
        case CRATEDROP_STATE_NOT_A_TREE: self = .notATree
        case CRATEDROP_STATE_SLEEPING: self = .sleeping
        case CRATEDROP_STATE_LOCKED: self = .locked
        case CRATEDROP_STATE_FORCES: self = .pendingForces
        case CRATEDROP_STATE_MEMORY: self = .outOfMemory
        case CRATEDROP_STATE_UNKNOWN_SHAPE: self = .unknownShape
        case CRATEDROP_STATE_UNKNOWN_CONSTRAINT: self = .unknownConstraint
        default: self = .malformed(message.isEmpty ? "malformed" : message)
        }
    }
}

/// The shapes, bodies and constraints a saved state names, in the world's own order, as the C side takes them.
final class StateMakeup {
    var shapes: [OpaquePointer?]
    var bodies: [OpaquePointer?]
    var constraints: [OpaquePointer?]
    let fingerprint: UInt64
    /// The sizes of the last state saved and of its restore aid, the first guesses at the next ones'.
    var lastSize = 0
    var lastAidSize = 0

    init(shapes: [OpaquePointer], bodies: [OpaquePointer], constraints: [OpaquePointer], fingerprint: UInt64) {
        // Each array made anew, not upcast: Embedded Swift has no dynamic casts.
        self.shapes = shapes.map { Optional($0) }
        self.bodies = bodies.map { Optional($0) }
        self.constraints = constraints.map { Optional($0) }
        self.fingerprint = fingerprint
    }
}

enum SavedStateCalls {
    /// Whether the loaded libchipmunk has saved states (CrateDrop's build does, Debian's not).
    static let available: Bool = CChipmunk_HasSavedStates() != 0

    /// The space's state as bytes, written straight into the array, with its restore aid (what a
    /// restore of these very bytes would otherwise work out again: cpStateFormat.h (Backends/portable/patches),
    /// AidHeader), in 8-byte words. A second call when the first guesses at their sizes (the last
    /// ones' plus an eighth) were short.
    static func save(space: OpaquePointer, makeup: StateMakeup) throws(SavedStateCallError) -> (bytes: [UInt8], aid: [UInt64]) {
        guard available else { throw .unavailable }
        var capacity = makeup.lastSize + makeup.lastSize / 8 + 4096
        var aidWords = (makeup.lastAidSize + makeup.lastAidSize / 8) / 8 + 512
        while true {
            var needed = 0, aidNeeded = 0
            var bytes: [UInt8] = []
            let aid = [UInt64](unsafeUninitializedCapacity: aidWords) { aid, aidWritten in
                bytes = makeup.shapes.withUnsafeMutableBufferPointer { shapes in
                    makeup.bodies.withUnsafeMutableBufferPointer { bodies in
                        makeup.constraints.withUnsafeMutableBufferPointer { constraints in
                            [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                                needed = cratedrop_state_save(space, shapes.baseAddress, Int32(shapes.count), bodies.baseAddress, Int32(bodies.count),
                                                        constraints.baseAddress, Int32(constraints.count), buffer.baseAddress, capacity,
                                                        aid.baseAddress, 8 * aidWords, &aidNeeded)
                                initialized = needed >= 0 && needed <= capacity ? needed : 0
                            }
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
        guard available else { throw .unavailable }
        var message = [CChar](repeating: 0, count: 256)
        let code = makeup.shapes.withUnsafeMutableBufferPointer { shapes in
            makeup.bodies.withUnsafeMutableBufferPointer { bodies in
                makeup.constraints.withUnsafeMutableBufferPointer { constraints in
                    bytes.withUnsafeBufferPointer { byteBuffer in
                        message.withUnsafeMutableBufferPointer { messageBuffer in
                            guard asSaved else {
                                return cratedrop_state_restore(space, shapes.baseAddress, Int32(shapes.count), bodies.baseAddress, Int32(bodies.count),
                                                         constraints.baseAddress, Int32(constraints.count), byteBuffer.baseAddress, byteBuffer.count,
                                                         messageBuffer.baseAddress, Int32(messageBuffer.count))
                            }
                            // The C side uses an aid only when its counts are this world's.
                            return aid.withUnsafeBufferPointer { aid in
                                cratedrop_state_restore_as_saved(space, shapes.baseAddress, Int32(shapes.count), bodies.baseAddress,
                                                         Int32(bodies.count), constraints.baseAddress, Int32(constraints.count),
                                                         byteBuffer.baseAddress, byteBuffer.count, aid.isEmpty ? nil : UnsafeRawPointer(aid.baseAddress),
                                                         8 * aid.count, messageBuffer.baseAddress, Int32(messageBuffer.count))
                            }
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
