#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

extension FileDescriptorIO {
    /// Makes sure `path` is a folder this process can write into, creating it (not its parents)
    /// when it is missing. A link is refused, as for every output.
    /// - Throws: `FileFailure` saying why not.
    package static func makeDirectory(_ path: String) throws(FileFailure) {
        switch kind(of: path) {
        case .symbolicLink:
            throw .symbolicLink
        case .directory:
            break
        case .missing:
            guard mkdir(path, 0o755) == 0 else { throw .folderNotCreated(Errno(rawValue: errno)) }
        case .regular, .device, .pipe:
            throw .notAFolder
        }
        guard access(path, W_OK) == 0 else { throw .notWritable(Errno(rawValue: errno)) }
    }
}
