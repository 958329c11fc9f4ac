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

    /// Writes `parts` one after another into `temporary`, then renames it to `path`, so `path`
    /// only ever holds a complete file; on failure the temporary file is removed.
    /// - Returns: nil on success, else the error text.
    public static func writeWhole(_ parts: [[UInt8]], to path: String, via temporary: String) -> String? {
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return errnoText() }
        var failure: String?
        for part in parts where failure == nil { failure = writeAll(fd, part) }
        if close(fd) != 0, failure == nil { failure = errnoText() }
        if failure == nil, rename(temporary, path) != 0 { failure = errnoText() }
        if failure != nil { unlink(temporary) }
        return failure
    }

    public static func errnoText() -> String { String(cString: strerror(errno)) }
}
