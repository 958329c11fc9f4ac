#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptorIO {
    /// Makes sure `path` is a folder this process can write into, creating it (not its parents)
    /// when it is missing. A link is refused, as for every output.
    /// - Throws: `OutputFailure` saying why not.
    public static func makeDirectory(_ path: String) throws(OutputFailure) {
        switch kind(of: path) {
        case .symbolicLink:
            throw OutputFailure(text: symbolicLinkRefusal)
        case .directory:
            break
        case .missing:
            guard mkdir(path, 0o755) == 0 else {
                switch errno {
                case ENOENT: throw OutputFailure(text: "cannot create it: its parent folder does not exist")
                case ENOTDIR: throw OutputFailure(text: "cannot create it: a part of its path is a file, not a folder")
                default: throw OutputFailure(text: "cannot create it: \(errnoText())")
                }
            }
        case .regular, .device, .pipe:
            throw OutputFailure(text: "exists and is not a folder")
        }
        guard access(path, W_OK) == 0 else { throw OutputFailure(text: "is not writable: \(errnoText())") }
    }
}
