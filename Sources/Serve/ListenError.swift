#if canImport(Glibc)
import Glibc
#endif
import NIOCore

/// Why `serve` could not listen, in words that say what to do; NIO's own text names a system call
/// and an errno ("bind(descriptor:ptr:bytes:): Address already in use (errno: 98)").
package struct ListenError: Error, CustomStringConvertible {
    package let description: String

    init(host: String, port: Int, cause: any Error) {
        switch (cause as? IOError)?.errnoCode {
        case EADDRINUSE:
            description = "port \(port) on \(host) is in use by another program: choose another with --port (--port 0 takes any free one)"
        case EACCES:
            description = "no permission to listen on port \(port) of \(host) (ports below 1024 need privileges): choose another with --port"
        case EADDRNOTAVAIL:
            description = "\(host) is not an address of this machine: give one of its addresses with --host (127.0.0.1, or 0.0.0.0 for all)"
        default:
            description = cause is SocketAddressError || cause is SocketAddressError.UnknownHost
                ? "--host \(host) is not an address or a name this machine resolves"
                : "cannot listen on \(host):\(port): \(cause)"
        }
    }
}
