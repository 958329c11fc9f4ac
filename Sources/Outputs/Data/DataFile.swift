import FileIO
import Raster
import SceneFile

/// Starts a data file (a trace, the stats, the contact events): creates it and writes what comes
/// before its rows, the same way for each.
///
/// A CSV begins with a `#` line naming the run, then the column names
/// (`pandas.read_csv(path, comment="#")`). A JSON Lines file holds rows and nothing else, so
/// `pandas.read_json(path, lines=True)` reads data only, its integer columns as integers; what
/// names the run goes beside it, in `NAME.meta.json` (`metadataPath(for:)`), when the data goes to
/// a regular file (a pipe has no beside). A `.npy` table (`NumPyTable`) has its metadata beside it
/// too, and goes only to a regular file: its header, written again at the end, holds the row count.
package enum DataFile {
    /// - Parameters:
    ///   - kind: what the file holds, as its first line or its metadata names it ("trace", "stats", "events").
    /// - Throws: `.cannotCreate` when the file (or its metadata) cannot be created.
    static func create(path: String, format: DataFormat, kind: String, columns: [String], table: NumPyTable? = nil,
                       run: RunIdentity) throws(OutputSetupError) -> BufferedOutputFile {
        let regular = [.regular, .missing].contains(FileDescriptorIO.kind(of: path))
        if format == .npy, !regular || table == nil {
            throw .unsuitable(path: path, reason: table == nil ? "\(kind) are written as JSON Lines"
                : "a .npy table goes to a regular file (its row count is written into its header at the end), not a pipe or a device")
        }
        let file: BufferedOutputFile
        do {
            file = try BufferedOutputFile(path: path)
        } catch {
            throw .cannotCreate(FrameWriteError(target: path, cause: .during("cannot create it", error)))
        }
        switch format {
        case .csv:
            file.append("# cratedrop \(kind): scene \(run.scene), step_rate \(run.stepRate), determinism_class \(run.determinismClass)\n")
            file.append(columns.joined(separator: ",") + "\n")
        case .jsonl, .npy:
            if let table, format == .npy { file.append(bytes: table.header(rows: 0)) }
            guard regular else { break }
            let metadata = metadataPath(for: path)
            let text: JSONOutput = [
                "kind": .string(kind), "rows": .string(String(path.split(separator: "/").last ?? "")), "scene": .string(run.scene),
                "step_rate": .integer(run.stepRate), "determinism_class": .string(run.determinismClass),
                "columns": .array(columns.map { .string($0) }),
            ]
            do {
                try FileDescriptorIO.writeWhole([Array((text.spacedText + "\n").utf8)], to: metadata)
            } catch {
                throw .cannotCreate(FrameWriteError(target: metadata, cause: .during("cannot create it", error)))
            }
        }
        return file
    }

    /// Where a JSON Lines or `.npy` table's metadata goes: `NAME.meta.json` for `NAME.jsonl` or
    /// `NAME.npy`, else the path with `.meta.json` added.
    package static func metadataPath(for path: String) -> String {
        for suffix in [".jsonl", ".npy"] where path.lowercased().hasSuffix(suffix) { return String(path.dropLast(suffix.count)) + ".meta.json" }
        return path + ".meta.json"
    }
}
