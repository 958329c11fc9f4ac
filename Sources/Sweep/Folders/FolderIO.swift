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

    /// The names in the folder `path` (without `.` and `..`); empty when it cannot be read. A link
    /// at `path` is followed (`opendir`): for listing, never for removing (see `removeFolder`).
    static func names(in path: String) -> [String] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        return names(in: folder)
    }

    private static func names(in folder: OpaquePointer) -> [String] {
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = directoryEntryName(entry)
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Folders `removeFolder` opens at most, one inside the other (the folder it removes is the
    /// first): a sweep's own trees are 2 deep (a sample's `frames/`). A deeper tree is left, so the
    /// walk's stack and open descriptors stay bounded however deep a tree someone made.
    static let removalDepth = 64

    /// Removes the folder `path` and what it holds (a sample's files, `frames/`, `masks/`), if
    /// `path` is itself a folder: a link at `path` (even one to a folder) is left as it is, and so
    /// is a file. Sweep folders may be shared (NFS, Lustre): a link named like a temporary is not
    /// one a sweep made, and following it would empty whatever it points to.
    ///
    /// Inside, no link is followed at any depth, even one swapped in for a folder during the walk:
    /// each folder is opened from its parent's descriptor with `O_NOFOLLOW` (a link there fails to
    /// open and is left) and each entry removed with `unlinkat` from the folder opened, so a link
    /// is removed itself. A folder more than `removalDepth` deep is left, with the folders holding it.
    /// - Returns: whether `path` is gone (false when it was not a folder, or part of it was left).
    @discardableResult
    static func removeFolder(_ path: String) -> Bool {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let slash = trimmed.lastIndex(of: "/")
        let parent = slash.map { $0 == trimmed.startIndex ? "/" : String(trimmed[..<$0]) } ?? "."
        let name = slash.map { String(trimmed[trimmed.index(after: $0)...]) } ?? String(trimmed)
        guard !name.isEmpty, name != ".", name != ".." else { return false }
        // The parent (`samples/`, the system's temporary folder) is the caller's, opened as named:
        // from here on every step is relative to a descriptor.
        let parentFD = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard parentFD >= 0 else { return false }
        defer { close(parentFD) }
        return removeFolder(name, in: parentFD, depth: 1)
    }

    /// Empties and removes the folder `name` of the open folder `parent`, if it is a folder.
    private static func removeFolder(_ name: String, in parent: Int32, depth: Int) -> Bool {
        var info = stat()
        guard fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFDIR,
              depth <= removalDepth else { return false }
        // Not following a link: if one replaced the folder since the look, this fails (ELOOP).
        let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return false }
        guard let folder = fdopendir(fd) else {
            close(fd)
            return false
        }
        defer { closedir(folder) }
        // Listed first, then removed: removing while reading a folder may skip names on some file systems.
        for entry in names(in: folder) {
            var entryInfo = stat()
            guard fstatat(fd, entry, &entryInfo, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            if (entryInfo.st_mode & S_IFMT) == S_IFDIR {
                _ = removeFolder(entry, in: fd, depth: depth + 1)
            } else {
                // A link, a file: the name goes. Swapped for a folder since the look, it fails (EISDIR).
                unlinkat(fd, entry, 0)
            }
        }
        // Swapped for a link or a file since it was opened, this fails (ENOTDIR): nothing more goes.
        return unlinkat(parent, name, AT_REMOVEDIR) == 0
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
