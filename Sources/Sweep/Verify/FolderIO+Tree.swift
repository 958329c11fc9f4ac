#if canImport(Glibc)
import Glibc
#endif

extension FolderIO {
    /// Every name in the folder `path`, sorted, relative to it: a folder's as `NAME/`, followed by
    /// its own names as `NAME/INNER` (a link to a folder is a name, never followed).
    static func tree(_ path: String, depth: Int = 0) -> [String] {
        var names: [String] = []
        for name in FolderIO.names(in: path).sorted() {
            if isFolder("\(path)/\(name)") {
                names.append("\(name)/")
                // Sample folders are two levels deep at most; more is not a sample's.
                if depth < 4 { names += tree("\(path)/\(name)", depth: depth + 1).map { "\(name)/\($0)" } }
            } else {
                names.append(name)
            }
        }
        return names
    }

    /// Writes `bytes` as the file `path`, replacing what was there.
    static func replace(_ path: String, with bytes: [UInt8]) throws(Failure) {
        unlink(path)
        try writeNew(path, bytes, sync: false)
    }
}
