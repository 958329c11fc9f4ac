#if canImport(Glibc)
import Glibc
#endif
import Raster

/// Small text outputs (the run summary), written whole under a temporary name and renamed.
enum TextFile {
    /// - Returns: nil on success, else the reason.
    static func write(_ text: String, to path: String) -> String? {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return FileDescriptorIO.errnoText() }
        var failure = FileDescriptorIO.writeAll(fd, Array(text.utf8))
        if close(fd) != 0, failure == nil { failure = FileDescriptorIO.errnoText() }
        if failure == nil, rename(temporary, path) != 0 { failure = FileDescriptorIO.errnoText() }
        if failure != nil { unlink(temporary) }
        return failure
    }
}
