import ArgumentParser
import SceneModel

/// The options of `run` that turn it into a renderer.
struct FrameOutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write PPM frames into DIR (created if missing), or '-' for a PPM stream on stdout.", valueName: "DIR|-"), completion: .directory)
    var out: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Frame size in pixels (default: the scene's render size).", valueName: "WxH"))
    var size: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Draw every Nth frame.", valueName: "N"))
    var every: Int = 1

    @Flag(help: "No progress line on stderr.")
    var quiet = false

    @Option(help: ArgumentHelp("Write the JSON summary to FILE instead of stdout (with --out -, it goes to stderr otherwise).", valueName: "FILE"), completion: .file())
    var summary: String?

    var streamsToStdout: Bool { out == "-" }

    /// `--size` as (width, height), nil if not given.
    var parsedSize: (Int, Int)? {
        guard let size else { return nil }
        let parts = size.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        return (width, height)
    }

    func validate() throws {
        if let size {
            guard let (width, height) = parsedSize, Limits.imageSide.contains(width), Limits.imageSide.contains(height) else {
                throw ValidationError("--size must be WIDTHxHEIGHT with each side in \(Limits.imageSide.lowerBound)...\(Limits.imageSide.upperBound), e.g. 1280x720, got '\(size)'")
            }
        }
        if every < 1 { throw ValidationError("--every must be >= 1, got \(every)") }
        if out == nil, size != nil || every != 1 { throw ValidationError("--size and --every need --out") }
        if out?.isEmpty == true { throw ValidationError("--out needs a directory or '-'") }
    }
}
