#if canImport(Glibc)
import Glibc
#endif

/// Small text outputs (the run summary), written whole under a temporary name and renamed.
enum TextFile {
    /// - Returns: nil on success, else the reason.
    static func write(_ text: String, to path: String) -> String? {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        let bytes = Array(text.utf8)
        var offset = 0
        var failure: String?
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                failure = String(cString: strerror(errno))
                break
            }
            offset += written
        }
        if close(fd) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if failure != nil { unlink(temporary) }
        return failure
    }
}
