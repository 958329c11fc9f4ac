#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import FileIO
import Outputs
import SceneFile

/// Checks made before any work starts, so that a run never ends by clobbering what it read or
/// one output destroying another (docs/outputs.md, "Output files"):
/// - an output path whose last component is a symbolic link is refused, whatever it points to (a
///   file, a folder, nothing): CrateDrop does not write through links; links among the folders
///   above it are followed;
/// - an output that is one of the command's inputs (the same device and inode) is refused;
/// - two outputs of one run that name one file, after links and `..` are resolved (the real path
///   of the folder that exists, then the rest of the name), or the same inode (a hard link), are
///   refused; a character device such as `/dev/null` may take several;
/// - an output inside the frames folder of `--out DIR` (where frame files are written and
///   replaced) is refused, and so is an input there named like a frame file.
/// Every refusal is a `ValidationError` (exit 64) naming the options and paths, before anything
/// is written.
enum OutputChecks {
    /// Checks the outputs of one run against its inputs and each other.
    /// - Parameters:
    ///   - inputs: the files the command reads, with what they are ("the scene file").
    ///   - outputs: the files it writes, with their options (`--record`, `--out` for a video).
    ///   - framesFolder: `--out DIR` when frames go into a folder.
    /// - Throws: `ValidationError` (exit 64) naming the outputs and paths.
    static func check(inputs: [(what: String, path: String)], outputs: [(option: String, path: String)],
                      framesFolder: String? = nil, masksFolder: String? = nil) throws {
        // The folders whose frame or mask files the run writes and replaces, with their option and files' prefix.
        let folders = [framesFolder.map { ("--out", $0, "frame-", "frames") }, masksFolder.map { ("--masks", $0, "mask-", "masks") }]
            .compactMap { $0 }
        for (option, folder, _, _) in folders {
            if let problem = linkRefusal(for: folder) { throw ValidationError("\(option) \(shown(folder)) \(problem)") }
        }
        for output in outputs {
            if let problem = linkRefusal(for: output.path) ?? FileDescriptorIO.refusal(for: output.path)?.description {
                throw ValidationError("\(output.option) \(shown(output.path)) \(problem)")
            }
            for input in inputs where sameFile(input.path, output.path) {
                throw ValidationError("\(output.option) \(shown(output.path)) would overwrite \(input.what) (\(shown(input.path))), which this command reads")
            }
        }
        let resolvedOutputs = outputs.map { (option: $0.option, path: $0.path, resolved: resolved($0.path)) }
        for (index, later) in resolvedOutputs.enumerated() {
            for earlier in resolvedOutputs[..<index] {
                guard later.resolved == earlier.resolved || sameFile(later.path, earlier.path) else { continue }
                // Writes to a device such as /dev/null destroy nothing.
                if FileDescriptorIO.kind(of: later.resolved) == .device { continue }
                throw ValidationError("\(later.option) \(shown(later.path)) and \(earlier.option) \(shown(earlier.path)) name the same file "
                    + "(\(shown(later.resolved))): one would destroy the other; give each output its own file")
            }
        }
        for (option, given, prefix, kind) in folders {
            let folder = resolved(given)
            for output in resolvedOutputs where output.resolved == folder || output.resolved.hasPrefix(folder + "/") {
                throw ValidationError("\(output.option) \(shown(output.path)) is inside the \(kind) folder \(option) \(shown(given)) "
                    + "(\(shown(folder))), whose \(kind.dropLast()) files the run writes and replaces; write it outside that folder")
            }
            for input in inputs {
                let path = resolved(input.path)
                guard path.hasPrefix(folder + "/"), path.dropFirst(folder.count + 1).hasPrefix(prefix) else { continue }
                throw ValidationError("\(option) \(shown(given)) would write \(kind.dropLast()) files over \(input.what) (\(shown(input.path))), which this command reads")
            }
        }
    }

    /// The outputs `--out` adds: a video file, or the frames folder (nil for the stream, a
    /// window, or no `--out`).
    static func frameOutputs(_ out: String?) -> (files: [(option: String, path: String)], framesFolder: String?) {
        guard let out else { return ([], nil) }
        switch OutputPath(out) {
        case .video, .image: return ([("--out", out)], nil)
        case .directory: return ([], out)
        case .stream, .unknownFileType: return ([], nil)
        }
    }

    /// Why an output at `path` is refused as a link, if its last component is one.
    private static func linkRefusal(for path: String) -> String? {
        guard FileDescriptorIO.kind(of: path) == .symbolicLink else { return nil }
        var info = stat()
        if stat(path, &info) != 0 {
            return "is a symbolic link whose target does not exist; CrateDrop does not write through links: give the path of a folder or file"
        }
        return FileFailure.symbolicLink.description
    }

    /// Whether two paths name one existing file (so writing one would truncate the other).
    private static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// `path` made absolute with links and `..` resolved: the real path (`realpath`) of the
    /// longest leading part that exists, then the remaining components with `.` and `..`
    /// applied. The last component itself is not followed (an output that is a link is refused
    /// before this matters).
    static func resolved(_ path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            if getcwd(&buffer, buffer.count) != nil {
                absolute = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + path
            }
        }
        var parent = absolute.split(separator: "/").map(String.init)
        guard let name = parent.popLast() else { return "/" }
        var rest = [name]
        var base = "/"
        while true {
            if let real = realPath("/" + parent.joined(separator: "/")) {
                base = real
                break
            }
            guard let last = parent.popLast() else { break }
            rest.insert(last, at: 0)
        }
        var components = base.split(separator: "/").map(String.init)
        for component in rest {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    private static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// A path as it goes into a message: control characters escaped (it may come from a file).
    private static func shown(_ path: String) -> String { TerminalText.escaped(path) }
}
