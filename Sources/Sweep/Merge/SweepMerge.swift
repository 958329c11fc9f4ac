import FileIO
import SceneFile

/// `cratedrop sweep merge DIR`: one manifest row per complete sample, in index order, and the
/// samples that are missing or failed, by index, so that just those can be run again.
///
/// The manifest is JSON Lines (`manifest.jsonl`): each row is the sample's done marker with its
/// folder's path; and the same rows as one flat table, `manifest.npy` (`ManifestTable`). (Parquet
/// is not written: no Parquet or Arrow library is packaged for Debian 12 or Swift here.)
public enum SweepMerge {
    public struct Report: Sendable {
        public var samples: Int
        public var complete: Int
        /// Samples neither complete nor failed, as ranges (a sweep of 10^9 samples may miss most).
        public var missing: [ClosedRange<Int>]
        public var missingCount: Int { missing.reduce(0) { $0 + $1.count } }
        public var failed: [(index: Int, reason: String)]
        /// Temporary folders left in `samples/` (in flight, or left by a killed process).
        public var temporaries: [String]
        /// Complete samples per determinism class.
        public var classes: [(id: String, samples: Int)]
        public var manifest: String
        /// `manifest.npy`.
        public var table: String

        public var isComplete: Bool { missing.isEmpty && failed.isEmpty }

        /// The JSON line `cratedrop sweep merge` prints.
        public var json: String {
            let report: JSONOutput = [
                "manifest": .string(manifest), "table": .string(table), "samples": .integer(samples), "complete": .integer(complete),
                "missing": .string(IndexRanges.text(ranges: missing)),
                "failed": .string(IndexRanges.text(failed.map(\.index))),
                "temporaries": .integer(temporaries.count),
                "determinism_classes": .object(classes.map { (key: $0.id, value: .integer($0.samples)) }),
            ]
            return report.text
        }
    }

    /// Reads the samples the sweep folder at `path` holds and writes its manifest; the rest are
    /// counted as missing, as ranges, without visiting each index.
    /// - Throws: `FolderError` when it is not a sweep folder or the manifest cannot be written.
    public static func merge(_ path: String) throws(SweepFolder.FolderError) -> Report {
        let identity = try SweepFolder.identity(at: path)
        let folder = SweepFolder(path: path, sampleCount: identity.samples)
        var rows: [[UInt8]] = []
        var table = ManifestTable()
        var failed: [(Int, String)] = []
        var classes: [(id: String, samples: Int)] = []
        var accounted: [Int] = []
        let listed = folder.listedSamples()
        var failedNotes = listed.failed[...]
        for index in listed.complete {
            guard let marker = folder.doneMarker(index) else {
                // A folder in samples/ that is not a complete sample of its own: a link, a marker
                // naming another sample, or none at all.
                failed.append((index, "samples/\(folder.name(index)) is not this sample's own complete folder (a link, or its done.json names another sample or is missing)"))
                accounted.append(index)
                continue
            }
            guard marker.sweep == identity.fingerprint else {
                failed.append((index, "samples/\(folder.name(index)) was made by another sweep (fingerprint \(marker.sweep), this sweep's \(identity.fingerprint))"))
                accounted.append(index)
                continue
            }
            rows.append(Array((marker.json(path: "samples/\(folder.name(index))") + "\n").utf8))
            table.append(marker, path: "samples/\(folder.name(index))")
            accounted.append(index)
            if let position = classes.firstIndex(where: { $0.id == marker.determinismClass }) {
                classes[position].samples += 1
            } else {
                classes.append((marker.determinismClass, 1))
            }
        }
        let seen = Set(accounted)
        while let index = failedNotes.popFirst() {
            guard !seen.contains(index), let reason = failureReason(folder.failurePath(index)) else { continue }
            failed.append((index, reason))
            accounted.append(index)
        }
        failed.sort { $0.0 < $1.0 }
        var missing: [ClosedRange<Int>] = []
        var next = 0
        for index in accounted.sorted() {
            if index > next { missing.append(next...(index - 1)) }
            next = index + 1
        }
        if next < identity.samples { missing.append(next...(identity.samples - 1)) }
        do {
            try FileDescriptorIO.writeWhole(rows, to: folder.manifestPath)
        } catch {
            throw .cannotCreate("\(folder.manifestPath): \(error)")
        }
        do {
            try FileDescriptorIO.writeWhole([table.npy], to: folder.manifestTablePath)
        } catch {
            throw .cannotCreate("\(folder.manifestTablePath): \(error)")
        }
        return Report(samples: identity.samples, complete: rows.count, missing: missing, failed: failed,
                      temporaries: folder.temporaries(), classes: classes, manifest: folder.manifestPath, table: folder.manifestTablePath)
    }

    private static func failureReason(_ path: String) -> String? {
        guard let bytes = try? FileBytes.read(path: path, limit: 1 << 20) else { return nil }
        guard let root = try? JSONParser.parse(bytes), case let .object(members) = root.kind,
              case let .string(reason)? = members.first(where: { $0.key == "reason" })?.value.kind else { return "unreadable failure note" }
        return reason
    }
}

/// Sample indices written as ranges: `0-3, 7, 9-12`.
public enum IndexRanges {
    /// Ranges as `0-3, 7, 9-12`.
    public static func text(ranges: [ClosedRange<Int>]) -> String {
        ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ", ")
    }

    public static func text(_ indices: [Int]) -> String {
        var parts: [String] = []
        var position = 0
        while position < indices.count {
            var end = position
            while end + 1 < indices.count, indices[end + 1] == indices[end] + 1 { end += 1 }
            parts.append(end == position ? "\(indices[position])" : "\(indices[position])-\(indices[end])")
            position = end + 1
        }
        return parts.joined(separator: ", ")
    }

    /// Parses `0-3,7` (spaces allowed) into its ranges, as written; nil when malformed or outside
    /// 0..<count. Ranges stay ranges: `0-999999999` is one value, not 10^9 indices.
    public static func parse(_ text: String, count: Int) -> [ClosedRange<Int>]? {
        var result: [ClosedRange<Int>] = []
        for part in text.split(separator: ",") {
            let bounds = part.trimmingCharacters(in: " ").split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count), let low = Int(bounds[0]), let high = Int(bounds.last!),
                  low >= 0, low <= high, high < count else { return nil }
            result.append(low...high)
        }
        return result.isEmpty ? nil : result
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var text = self
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return text
    }
}
