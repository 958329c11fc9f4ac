#if canImport(Glibc)
import Glibc
#endif
import FileIO
import SceneFile

/// `cratedrop sweep pack DIR --out SHARDS`: a sweep's complete samples as WebDataset shards, tar
/// files `NAME-000000.tar`, ... in index order, each sample's files together under its key
/// (`000003.done.json`, `000003.frame-00001.png`, `000003.mask-00001.png`, `000003.trace.npy`: the
/// key, a dot, the file's name, so `webdataset` gives one record per sample). A shard holds at
/// most `maxSamples` samples and `maxBytes` bytes (a sample larger than that alone in a shard); a
/// sample is never split. Each shard is written under a hidden name and renamed into place whole.
public enum SweepPack {
    public struct Limits: Sendable, Equatable {
        public var maxBytes: Int
        public var maxSamples: Int

        public static let defaultMaxBytes = 1 << 30
        public static let defaultMaxSamples = 10_000

        public init(maxBytes: Int = Limits.defaultMaxBytes, maxSamples: Int = Limits.defaultMaxSamples) {
            self.maxBytes = maxBytes
            self.maxSamples = maxSamples
        }
    }

    public struct Report: Sendable {
        /// The shards written, in order.
        public var shards: [String]
        public var samples: Int
        public var bytes: Int
        /// Samples of the sweep not complete in the folder, left out.
        public var missing: Int

        public var json: String {
            let fields: JSONOutput = [
                "shards": .array(shards.map { .string($0) }), "samples": .integer(samples), "bytes": .integer(bytes),
                "missing": .integer(missing),
            ]
            return fields.text
        }
    }

    public enum Failure: Error, Sendable, CustomStringConvertible {
        case folder(SweepFolder.FolderError)
        /// Shards of this name are already there (without `replaceExisting`).
        case shardsExist(String, count: Int)
        /// The shards' folder or a shard cannot be made (73).
        case cannotCreate(String)
        /// A shard cannot be written, flushed or renamed into place (74).
        case cannotWrite(String)
        /// A sample's file or folder cannot be read (66).
        case cannotRead(String)
        /// A sample's files cannot be packed as they are (65).
        case sample(String)
        /// The limits would make more shards than six digits number (64).
        case tooManyShards

        public var description: String {
            switch self {
            case let .folder(error): error.description
            case let .shardsExist(pattern, count): "\(count) shards \(pattern) are already there: give --force to replace them, or another --out or --name"
            case let .cannotCreate(reason), let .cannotWrite(reason), let .cannotRead(reason), let .sample(reason): reason
            case .tooManyShards: "more than \(SweepPack.maxShards) shards: raise --max-samples or --max-bytes"
            }
        }
    }

    /// Shards are numbered with six digits.
    public static let maxShards = 1_000_000

    /// Packs the complete samples of the sweep folder `path` into `out` (created if missing).
    public static func pack(_ path: String, into out: String, name: String, limits: Limits = Limits(),
                            replaceExisting: Bool = false) throws(Failure) -> Report {
        let identity: SweepFolder.Identity
        do {
            identity = try SweepFolder.identity(at: path)
        } catch {
            throw .folder(error)
        }
        let folder = SweepFolder(path: path, sampleCount: identity.samples)
        let complete = folder.listedSamples().complete.filter { folder.doneMarker($0) != nil }
        let old = try prepare(out, name: name, replaceExisting: replaceExisting)
        var shards: [String] = [], total = 0
        var shard: OpenShard?
        for index in complete {
            let key = folder.name(index)
            let files = try sampleFiles(folder.samplePath(index), key: key)
            let size = files.reduce(0) { $0 + TarWriter.memberSize($1.size) }
            if let open = shard, open.samples == limits.maxSamples || open.bytes + size + TarWriter.endSize > limits.maxBytes {
                total += try open.close()
                shards.append(open.path)
                shard = nil
            }
            if shard == nil {
                guard shards.count < maxShards else { throw .tooManyShards }
                shard = try OpenShard(path: "\(out)/\(name)-\(sixDigits(shards.count)).tar")
            }
            try shard!.add(files, key: key)
        }
        if let open = shard {
            total += try open.close()
            shards.append(open.path)
        }
        // The new shards replaced the old ones of their numbers; the old ones past them go now.
        for stale in old where !shards.contains("\(out)/\(stale)") && unlink("\(out)/\(stale)") != 0 {
            throw .cannotWrite("\(out)/\(stale): cannot remove this shard of an earlier pack: \(errnoText())")
        }
        return Report(shards: shards, samples: complete.count, bytes: total, missing: identity.samples - complete.count)
    }

    private static func sixDigits(_ number: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, 6 - text.count)) + text
    }

    /// Makes `out` if it is missing. Shards of this name already there are refused unless
    /// replacing: then they stay until the new ones are written (each renamed over its number),
    /// so a pack that fails leaves the old set's shards, not none.
    /// - Returns: the names of this name's shards already there.
    private static func prepare(_ out: String, name: String, replaceExisting: Bool) throws(Failure) -> [String] {
        do {
            try FolderIO.makeFolder(out)
        } catch {
            throw .cannotCreate(error.description)
        }
        let old = FolderIO.names(in: out).filter { isShardName($0, of: name) }
        if !old.isEmpty, !replaceExisting { throw .shardsExist("\(out)/\(name)-NNNNNN.tar", count: old.count) }
        return old
    }

    static func isShardName(_ file: String, of name: String) -> Bool {
        guard file.hasPrefix(name + "-"), file.hasSuffix(".tar") else { return false }
        let digits = file.dropFirst(name.count + 1).dropLast(4)
        return digits.count == 6 && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// A sample's regular files, folders' files included (`frames/frame-00001.png`), sorted by
    /// their path in the sample, each named in the shard by its own name after the key.
    private static func sampleFiles(_ path: String, key: String) throws(Failure) -> [(path: String, member: String, size: Int)] {
        var files: [(path: String, member: String, size: Int)] = []
        func walk(_ folder: String) throws(Failure) {
            guard let stream = opendir(folder) else { throw .cannotRead("\(folder): cannot read the folder: \(errnoText())") }
            closedir(stream)
            for entry in FolderIO.names(in: folder).sorted() {
                let full = "\(folder)/\(entry)"
                var info = stat()
                guard lstat(full, &info) == 0 else { throw .cannotRead("\(full): \(errnoText())") }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: try walk(full)
                case S_IFREG: files.append((full, "\(key).\(entry)", Int(info.st_size)))
                // A sample's folder holds files and folders only; anything else is not its own.
                default: throw .sample("\(full): not a regular file or folder")
                }
            }
        }
        try walk(path)
        var seen: Set<String> = []
        for file in files where !seen.insert(file.member).inserted {
            throw .sample("\(path): two files named \(file.member.dropFirst(key.count + 1)) in one sample; a shard names each by its name alone")
        }
        return files
    }

    /// A shard being written under a hidden name (`.NAME.tmp-PID-XXXXXX` beside it, which a later
    /// pack removes if this process dies first); removed if it is dropped before `close`.
    private final class OpenShard {
        let path: String
        let temporary: String
        let fd: Int32
        let writer: TarWriter
        var samples = 0
        var bytes = 0
        private var closed = false

        init(path: String) throws(Failure) {
            self.path = path
            do {
                temporary = try FileDescriptorIO.createTemporary(beside: path)
            } catch {
                throw .cannotCreate("\(path): cannot create a temporary file beside it: \(error)")
            }
            fd = open(temporary, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else {
                let reason = errnoText()
                unlink(temporary)
                throw .cannotCreate("\(temporary): cannot open: \(reason)")
            }
            writer = TarWriter(fd: fd, path: temporary)
        }

        deinit {
            if !closed {
                Glibc.close(fd)
                unlink(temporary)
            }
        }

        func add(_ files: [(path: String, member: String, size: Int)], key: String) throws(Failure) {
            for file in files {
                let source: Int32
                var info = stat()
                do {
                    source = try FileBytes.openRegular(path: file.path, followingLinks: false, sizeLimit: TarWriter.maxFileSize)
                } catch {
                    throw .cannotRead("\(file.path): \(error)")
                }
                defer { Glibc.close(source) }
                guard fstat(source, &info) == 0 else { throw .cannotRead("\(file.path): \(errnoText())") }
                let size = Int(info.st_size)
                do {
                    try writer.add(name: file.member, size: size, from: source, path: file.path)
                } catch {
                    switch error {
                    case .nameTooLong, .fileTooLarge: throw .sample(error.description)
                    case .read: throw .cannotRead(error.description)
                    case .write: throw .cannotWrite(error.description)
                    }
                }
                bytes += TarWriter.memberSize(size)
            }
            samples += 1
        }

        /// Ends the archive, flushes it and renames it into place; returns its size.
        func close() throws(Failure) -> Int {
            closed = true
            var failure: Failure?
            do {
                try writer.finish()
            } catch {
                failure = .cannotWrite(error.description)
            }
            if failure == nil, fsync(fd) != 0 { failure = .cannotWrite("\(temporary): cannot flush to disk: \(errnoText())") }
            if Glibc.close(fd) != 0, failure == nil { failure = .cannotWrite("\(temporary): cannot close: \(errnoText())") }
            if failure == nil, rename(temporary, path) != 0 {
                failure = .cannotWrite("\(path): cannot rename the shard into place: \(errnoText())")
            }
            if let failure {
                unlink(temporary)
                throw failure
            }
            return bytes + TarWriter.endSize
        }
    }
}
