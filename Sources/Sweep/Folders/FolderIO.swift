#if canImport(Glibc)
import Glibc
#endif
import FileIO

/// The few POSIX calls a sweep folder needs, each failure turned into a message naming the path.
enum FolderIO {
    /// What could not be done to which path, and the system's reason.
    struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was being done; nil: writing the file's bytes.
        enum Action: String, Sendable {
            case createFolder = "cannot create the folder"
            case notAFolder = "exists and is not a folder"
            case create = "cannot create"
            case flush = "cannot flush to disk"
            case close = "cannot close"
            case openToFlush = "cannot open to flush"
            case createSampleFolder = "cannot create the sample's folder"
            case renameSample = "cannot rename the completed sample into place"
        }

        var path: String
        var action: Action?
        var cause: FileFailure

        /// The failure of the system call just made (its `errno`).
        init(_ path: String, _ action: Action) {
            self.init(path, action, .fromErrno())
        }

        init(_ path: String, _ action: Action?, _ cause: FileFailure) {
            self.path = path
            self.action = action
            self.cause = cause
        }

        var description: String {
            if let action { "\(path): \(action.rawValue): \(cause)" } else { "\(path): \(cause)" }
        }
    }

    /// Creates the folder `path` (its parent must exist); an existing folder is fine.
    static func makeFolder(_ path: String) throws(Failure) {
        if mkdir(path, 0o755) == 0 { return }
        let code = errno
        var info = stat()
        if code == EEXIST, lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
        errno = code
        throw Failure(path, code == EEXIST ? .notAFolder : .createFolder)
    }

    /// Writes `bytes` as the new file `path` (created exclusively), flushed to the disk when `sync`.
    static func writeNew(_ path: String, _ bytes: [UInt8], sync: Bool) throws(Failure) {
        let fd: Int32
        do {
            fd = try FileDescriptorIO.createExclusive(path, mode: 0o644)
        } catch {
            throw Failure(path, .create, error)
        }
        var failure: Failure?
        do {
            try FileDescriptorIO.writeAll(fd, bytes)
        } catch {
            failure = Failure(path, nil, .system(error.errno))
        }
        if failure == nil, sync, fsync(fd) != 0 { failure = Failure(path, .flush) }
        if close(fd) != 0, failure == nil { failure = Failure(path, .close) }
        if let failure {
            unlink(path)
            throw failure
        }
    }

    /// Flushes the file or folder `path` to the disk.
    static func sync(_ path: String) throws(Failure) {
        let fd: Int32
        do {
            fd = try FileBytes.openStream(path: path)
        } catch {
            throw Failure(path, .openToFlush, error)
        }
        defer { close(fd) }
        if fsync(fd) != 0 { throw Failure(path, .flush) }
    }

    /// The names in the folder `path` (without `.` and `..`); empty when it cannot be read.
    static func names(in path: String) -> [String] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = directoryEntryName(entry)
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes the folder `path` and what it holds: files, and folders of files (a sample's
    /// `frames/` and `masks/`). A link is removed, never followed.
    static func removeFolder(_ path: String) {
        for name in names(in: path) {
            let entry = "\(path)/\(name)"
            if isFolder(entry) { removeFolder(entry) } else { unlink(entry) }
        }
        rmdir(path)
    }

    /// Flushes the folder `path`, its files and the folders in it (with their files) to the disk,
    /// innermost first.
    static func syncTree(_ path: String) throws(Failure) {
        for name in names(in: path) {
            let entry = "\(path)/\(name)"
            if isFolder(entry) { try syncTree(entry) } else { try sync(entry) }
        }
        try sync(path)
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether `path` is itself a folder (a link to one is not) or a regular file (a link is not).
    static func isFolder(_ path: String) -> Bool { kind(path) == S_IFDIR }
    static func isRegularFile(_ path: String) -> Bool { kind(path) == S_IFREG }

    private static func kind(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    /// This machine's name, for temporary folders' names.
    static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "host" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Only characters that cannot confuse the name's parts.
        return String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }()

    /// Whether the process `pid` on this machine is gone.
    static func processIsGone(_ pid: Int32) -> Bool {
        kill(pid, 0) != 0 && errno == ESRCH
    }
}
