#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import FileIO

/// Checks made before any work starts, so that a run never ends by clobbering what it read or
/// failing to write what it computed.
enum OutputChecks {
    /// Refuses an output that is one of the command's inputs (the same device and inode, however
    /// it is named), and an output path CrateDrop will not write (a symbolic link, a directory).
    /// - Throws: `ValidationError` (exit 64) naming both.
    static func check(inputs: [(what: String, path: String)], outputs: [(option: String, path: String)]) throws {
        for output in outputs {
            if let problem = FileDescriptorIO.refusal(for: output.path) {
                throw ValidationError("\(output.option) \(output.path) \(problem)")
            }
            for input in inputs where sameFile(input.path, output.path) {
                throw ValidationError("\(output.option) \(output.path) would overwrite \(input.what) (\(input.path)), which this command reads")
            }
        }
    }

    /// Whether two paths name one existing file (so writing one would truncate the other).
    private static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}
