import FileIO
import SceneFile

/// An open data table (a trace, the stats, the contact events): what each writer shares, from the
/// lines before its rows to its close.
///
/// A CSV begins with a `#` line naming the run, then the column names
/// (`pandas.read_csv(path, comment="#")`). A JSON Lines file holds rows and nothing else, so
/// `pandas.read_json(path, lines=True)` reads data only, its integer columns as integers; what
/// names the run goes beside it, in `NAME.meta.json` (`metadataPath(for:)`), when the data goes to
/// a regular file (a pipe has no beside). A `.npy` table (`NumPyTable`) has its metadata beside it
/// too, and goes only to a regular file: its header, written again at `finish()`, holds the row
/// count, so the table is written under a hidden name and renamed into place only then; cut short
/// (a full disk, a file-size limit, a killed run) it never stands under its name.
///
/// Used by one thread at a time.
package final class DataFile {
    let path: String
    let format: DataFormat
    private let table: NumPyTable
    private let file: BufferedOutputFile
    /// Rows appended so far (a `.npy` header's count).
    private var rows = 0

    /// Creates the file and writes what comes before its rows.
    /// - Parameters:
    ///   - kind: what the file holds, as its first line or its metadata names it ("trace", "stats", "events").
    ///   - table: the columns, by name and type (a `.npy` table's dtype; the others' names).
    /// - Throws: `.unsuitable` for a `.npy` table that is not a regular file, `.cannotCreate` when
    ///   the file (or its metadata) cannot be created.
    init(path: String, format: DataFormat, kind: String, table: NumPyTable, run: RunIdentity) throws(OutputSetupError) {
        let regular = [.regular, .missing].contains(FileDescriptorIO.kind(of: path))
        if format == .npy, !regular {
            throw .unsuitable(path: path, reason: "a .npy table goes to a regular file (its row count is written into its header at the end), "
                + "not a pipe or a device")
        }
        self.path = path
        self.format = format
        self.table = table
        do {
            file = try BufferedOutputFile(path: path, placement: format == .npy ? .replacedWhenWhole : .inPlace)
        } catch {
            throw .cannotCreate(FrameWriteError(target: path, cause: .during("cannot create it", error)))
        }
        switch format {
        case .csv:
            file.append("# cratedrop \(kind): scene \(run.scene), step_rate \(run.stepRate), determinism_class \(run.determinismClass)\n")
            file.append(table.names.joined(separator: ",") + "\n")
        case .jsonl, .npy:
            if format == .npy { file.append(bytes: table.header(rows: 0)) }
            guard regular else { break }
            let metadata = Self.metadataPath(for: path)
            let text: JSONOutput = [
                "kind": .string(kind), "rows": .string(String(path.split(separator: "/").last ?? "")), "scene": .string(run.scene),
                "step_rate": .integer(run.stepRate), "determinism_class": .string(run.determinismClass),
                "columns": .array(table.names.map { .string($0) }),
            ]
            do {
                try FileDescriptorIO.writeWhole([Array((text.spacedText + "\n").utf8)], to: metadata)
            } catch {
                throw .cannotCreate(FrameWriteError(target: metadata, cause: .during("cannot create it", error)))
            }
        }
    }

    /// Appends CSV or JSON Lines rows.
    func append(_ text: String) { file.append(text) }

    /// Appends `count` rows of a `.npy` table, `bytes` long together.
    func append(rows bytes: [UInt8], count: Int) {
        file.append(bytes: bytes)
        rows += count
    }

    /// Writes the `.npy` header's row count, and closes the file.
    /// - Throws: the first write error (a full disk), naming the file.
    func finish() throws(FrameWriteError) {
        if format == .npy { file.overwriteStart(with: table.header(rows: rows)) }
        do {
            try file.close()
        } catch {
            throw FrameWriteError(target: path, cause: .file(error))
        }
    }

    /// Where a JSON Lines or `.npy` table's metadata goes: `NAME.meta.json` for `NAME.jsonl` or
    /// `NAME.npy`, else the path with `.meta.json` added.
    package static func metadataPath(for path: String) -> String {
        for suffix in [".jsonl", ".npy"] where path.lowercased().hasSuffix(suffix) { return String(path.dropLast(suffix.count)) + ".meta.json" }
        return path + ".meta.json"
    }
}
