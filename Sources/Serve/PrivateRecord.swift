#if canImport(Glibc)
import Glibc
#endif
import FileIO
import Script

/// The session's record when `serve` is given no `--record`: `live.rec` in a private directory
/// made with `mkdtemp` (mode 0700) under `$XDG_RUNTIME_DIR`, else `/tmp`, named
/// `cratedrop-serve-PID-XXXXXX` after the process; the file is created with `O_EXCL` and mode
/// 0600. `remove()` deletes both; directories left by killed runs (their PID no longer alive)
/// are deleted by the next `serve` that starts.
package final class PrivateRecord: Sendable {
    /// The record's path (`DIR/live.rec`).
    package let path: String
    /// The private directory holding it.
    package let directory: String

    static let prefix = "cratedrop-serve-"

    /// Where the private directories go: `$XDG_RUNTIME_DIR` if set to an absolute path, else `/tmp`.
    package static var parent: String {
        if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), runtime.hasPrefix("/") { return runtime }
        return "/tmp"
    }

    /// Removes stale directories, then makes the private directory and creates the empty record.
    /// - Throws: `RecordCreateError` naming the path and the errno if either cannot be made.
    package init(parent: String = PrivateRecord.parent) throws(RecordCreateError) {
        Self.removeStale(in: parent)
        let template = "\(parent)/\(Self.prefix)\(getpid())-XXXXXX"
        do {
            directory = try FileDescriptorIO.makePrivateDirectory(template: template)
        } catch {
            throw RecordCreateError(path: template, reason: error)
        }
        path = directory + "/live.rec"
        do {
            close(try FileDescriptorIO.createExclusive(path, mode: 0o600))
        } catch {
            rmdir(directory)
            throw RecordCreateError(path: path, reason: error)
        }
    }

    /// Deletes the record and its directory.
    package func remove() {
        unlink(path)
        rmdir(directory)
    }

    /// Deletes `PREFIX-PID-XXXXXX` directories in `parent` that belong to this user and whose
    /// process is gone, with the record inside.
    static func removeStale(in parent: String) {
        guard let stream = opendir(parent) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = directoryEntryName(entry)
            guard name.hasPrefix(prefix) else { continue }
            let parts = name.dropFirst(prefix.count).split(separator: "-")
            guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, pid != getpid() else { continue }
            let directory = "\(parent)/\(name)"
            var info = stat()
            guard lstat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() else { continue }
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(directory + "/live.rec")
            rmdir(directory)
        }
    }
}
