#if canImport(Glibc)
import Glibc
#endif

/// POSIX writes with the loops POSIX requires, reporting errno as text.
public enum FileDescriptorIO {
    /// Writes all of `bytes` to `fd`, retrying partial writes and EINTR.
    /// - Returns: nil on success, else the error text ("Broken pipe", "No space left on device").
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> String? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return errnoText()
            }
            offset += written
        }
        return nil
    }

    public static func errnoText() -> String { String(cString: strerror(errno)) }
}
