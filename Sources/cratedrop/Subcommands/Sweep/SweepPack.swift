#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CLISupport
import Sweep

struct SweepPackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack",
        abstract: "Packs a sweep's complete samples into WebDataset shards (tar files).",
        discussion: """
            Writes OUT/NAME-000000.tar, OUT/NAME-000001.tar, ...: the complete samples in index order, each sample's files together under its key (the sample's folder name; files in its folders by their own names): 000003.done.json, 000003.meta.json, 000003.frame-00001.png, 000003.mask-00001.png, 000003.trace.npy, ... so that the webdataset package reads one record per sample. A shard holds at most --max-samples samples and --max-bytes bytes (a larger sample goes alone into a shard); no sample is split. The same folder gives the same bytes (no times or owners are stored). Prints one JSON line: the shards, samples, bytes and how many samples were missing (left out). Exits 73 if shards of the name are already there (without --force) or OUT cannot be made, 74 if a shard cannot be written (shards already there are replaced only once the new ones are written). See docs/sweeps.md, "Making a dataset".

            Example:
              cratedrop sweep pack out/dataset --out out/shards --max-samples 4
            """
    )

    @Argument(help: "The sweep's folder.", completion: .directory)
    var dir: String

    @Option(help: ArgumentHelp("The folder the shards go into (created if missing; its parent must exist).", valueName: "DIR"), completion: .directory)
    var out: String

    @Option(help: ArgumentHelp("The shards' name before -000000.tar (default: the sweep folder's name).", valueName: "NAME"))
    var name: String?

    @Option(help: ArgumentHelp("Bytes a shard holds at most, with K, M or G for 2^10, 2^20, 2^30 (default 1G).", valueName: "SIZE"))
    var maxBytes: String = "1G"

    @Option(help: ArgumentHelp("Samples a shard holds at most (default \(SweepPack.Limits.defaultMaxSamples)).", valueName: "N"))
    var maxSamples: Int = SweepPack.Limits.defaultMaxSamples

    @Flag(help: "Replace shards of this name already in the folder.")
    var force = false

    /// `--max-bytes` in bytes, nil if malformed or out of bounds.
    var parsedMaxBytes: Int? {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var text = Substring(maxBytes), scale = 1
        if let last = text.last, let unit = units[Character(last.uppercased())] {
            scale = unit
            text = text.dropLast()
        }
        guard let number = Int(text), number > 0 else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: scale)
        return overflow || bytes < 4096 ? nil : bytes
    }

    /// The shards' name: `--name`, else the folder's own name (`.` and `..` resolved).
    var shardName: String {
        if let name { return name }
        guard let real = realpath(dir, nil) else { return String(dir.split(separator: "/").last ?? "sweep") }
        defer { free(real) }
        let path = String(cString: real)
        return String(path.split(separator: "/").last ?? "sweep")
    }

    func validate() throws {
        if parsedMaxBytes == nil { throw ValidationError("--max-bytes must be a size of at least 4096 bytes such as 500M or 2G, got '\(maxBytes)'") }
        if maxSamples < 1 { throw ValidationError("--max-samples must be >= 1, got \(maxSamples)") }
        let name = shardName
        if name.isEmpty || name.hasPrefix(".") || name.contains("/") || name.utf8.count > 80 {
            let what = self.name == nil ? "the sweep folder's name, which names the shards," : "--name"
            throw ValidationError("\(what) must be a file name (no '/', not starting with '.', at most 80 bytes), got '\(name)': give --name")
        }
    }

    func run() throws {
        let report: SweepPack.Report
        do {
            report = try SweepPack.pack(dir, into: out, name: shardName,
                                        limits: SweepPack.Limits(maxBytes: parsedMaxBytes ?? SweepPack.Limits.defaultMaxBytes, maxSamples: maxSamples),
                                        replaceExisting: force)
        } catch {
            switch error {
            case let .folder(folderError): throw sweepFolderFailure(folderError)
            default:
                printError("cratedrop: \(error)")
                switch error {
                case .shardsExist, .cannotCreate: throw ExitCodes.cannotCreate
                case .cannotWrite: throw ExitCodes.ioError
                case .cannotRead: throw ExitCodes.noInput
                case .sample: throw ExitCodes.dataError
                case .tooManyShards, .folder: throw ExitCodes.usage
                }
            }
        }
        try StandardOutput.print(report.json)
        if report.missing > 0 { printError("cratedrop: \(dir): \(report.missing) samples not complete, left out (sweep merge names them)") }
    }
}
