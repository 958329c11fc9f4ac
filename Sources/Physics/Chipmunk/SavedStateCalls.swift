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

enum SavedStateCalls {
    private struct Functions {
        let save: CChipmunk_StateSave
        let free: CChipmunk_StateFree
        let restore: CChipmunk_StateRestore
    }

    private static let functions: Functions? = {
        guard let save = dlsym(nil, "cratedrop_state_save"), let free = dlsym(nil, "cratedrop_state_free"),
              let restore = dlsym(nil, "cratedrop_state_restore") else { return nil }
        return Functions(save: unsafeBitCast(save, to: CChipmunk_StateSave.self), free: unsafeBitCast(free, to: CChipmunk_StateFree.self),
                         restore: unsafeBitCast(restore, to: CChipmunk_StateRestore.self))
    }()

    static var available: Bool { functions != nil }

    /// The space's state as bytes; `shapes` and `bodies` in the world's own order.
    static func save(space: OpaquePointer, shapes: [OpaquePointer], bodies: [OpaquePointer]) throws(SavedStateCallError) -> [UInt8] {
        guard let functions else { throw .unavailable }
        var shapeList: [OpaquePointer?] = shapes
        var bodyList: [OpaquePointer?] = bodies
        var out: UnsafeMutablePointer<UInt8>?
        let count = shapeList.withUnsafeMutableBufferPointer { shapeBuffer in
            bodyList.withUnsafeMutableBufferPointer { bodyBuffer in
                functions.save(space, shapeBuffer.baseAddress, Int32(shapes.count), bodyBuffer.baseAddress, Int32(bodies.count), &out)
            }
        }
        guard count >= 0, let out else { throw SavedStateCallError(code: count) }
        defer { functions.free(out) }
        return Array(UnsafeBufferPointer(start: out, count: count))
    }

    /// Puts `bytes` into the space; on any error the space is left as it was.
    static func restore(space: OpaquePointer, shapes: [OpaquePointer], bodies: [OpaquePointer], bytes: [UInt8]) throws(SavedStateCallError) {
        guard let functions else { throw .unavailable }
        var shapeList: [OpaquePointer?] = shapes
        var bodyList: [OpaquePointer?] = bodies
        var message = [CChar](repeating: 0, count: 256)
        let code = shapeList.withUnsafeMutableBufferPointer { shapeBuffer in
            bodyList.withUnsafeMutableBufferPointer { bodyBuffer in
                bytes.withUnsafeBufferPointer { byteBuffer in
                    message.withUnsafeMutableBufferPointer { messageBuffer in
                        functions.restore(space, shapeBuffer.baseAddress, Int32(shapes.count), bodyBuffer.baseAddress, Int32(bodies.count),
                                          byteBuffer.baseAddress, byteBuffer.count, messageBuffer.baseAddress, Int32(messageBuffer.count))
                    }
                }
            }
        }
        guard code == 0 else {
            throw SavedStateCallError(code: Int(code), message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }
}
