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

/// The name of a directory entry that `readdir` returned.
///
/// Read through a pointer to the entry's own bytes, up to its NUL: `d_name` is declared as 256
/// bytes, but an entry holds only as many as its name needs (`d_reclen`), so copying the whole
/// field (`withUnsafeBytes(of: entry.pointee.d_name)`) reads past the entry: uninitialised bytes
/// (valgrind's "depends on uninitialised value(s)" in `String(decoding:)`), or a segfault when the
/// entry ends a page of the directory buffer.
package func directoryEntryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
    let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    return String(cString: UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self))
}
