import FileIO
import SceneFile
import Script

/// The manifest row people analyse, checked against the done marker verify has just checked
/// against a new run: `merge` writes each row as the sample's done marker with its folder's path,
/// so any other text there was edited or belongs to another sample (audit round 4, finding 9).
enum ManifestRowCheck {
    enum Outcome: Equatable {
        /// No `manifest.jsonl` yet, or none with this sample's row (merged before it was done).
        case noRow
        /// The row on this line (from 1) is the done marker's, byte for byte.
        case matches(line: Int)
        /// `manifest.jsonl:LINE: WHY`.
        case differs(String)
    }

    /// Finds sample `index`'s row in the manifest at `path` (rows are in index order, so reading
    /// stops at the first row past it) and compares it with `expected`, the row merge would write.
    static func check(manifest path: String, index: Int, expected: String) -> Outcome {
        guard FolderIO.exists(path) else { return .noRow }
        let lines: FileLines
        do {
            lines = try FileLines(path: path, maxLineLength: DoneMarker.maxBytes + 4096)  // the marker and its path
        } catch {
            return .differs("\(path): cannot be read: \(error)")
        }
        do {
            while let line = try lines.next() {
                guard let row = try? JSONParser.parse(line), case let .object(members) = row.kind,
                      case let .number(_, literal)? = members.first(where: { $0.key == "sample" })?.value.kind, let sample = Int(literal)
                else { return .differs("\(path):\(lines.lineNumber): not a manifest row (a JSON object with its \"sample\")") }
                if sample < index { continue }
                if sample > index { return .noRow }
                guard line == Array(expected.utf8) else {
                    return .differs("\(path):\(lines.lineNumber): sample \(index)'s row differs from its done.json"
                        + (firstDifferingKey(members, expected).map { " (at \"\($0)\")" } ?? ""))
                }
                return .matches(line: lines.lineNumber)
            }
        } catch {
            return .differs("\(path):\(lines.lineNumber + 1): \(error)")
        }
        return .noRow
    }

    /// The first top-level key whose value differs between the row and the expected text.
    private static func firstDifferingKey(_ members: [(key: String, value: JSONValue)], _ expected: String) -> String? {
        guard let wanted = try? JSONParser.parse(Array(expected.utf8)), case let .object(wantedMembers) = wanted.kind else { return nil }
        for (key, value) in wantedMembers where members.first(where: { $0.key == key })?.value.kind != value.kind { return key }
        return members.first { member in !wantedMembers.contains { $0.key == member.key } }?.key
    }
}

extension ManifestRowCheck {
    /// Checks sample `index`'s row of `manifest.npy` against the table merge makes of
    /// `manifest.jsonl` (whose row `check` has compared with the done marker), field by field.
    /// Returns where they part, or nil (also when not merged, or merged before the sample was done).
    static func checkTable(_ folder: SweepFolder, index: Int) -> String? {
        guard FolderIO.exists(folder.manifestPath) else { return nil }
        let table = folder.manifestTablePath
        guard FolderIO.exists(table) else { return "\(table): missing beside manifest.jsonl (sweep merge writes both)" }
        var made = ManifestTable()
        do {
            let rows = try FileLines(path: folder.manifestPath, maxLineLength: DoneMarker.maxBytes + 4096)
            while let line = try rows.next() {
                guard let marker = DoneMarker(json: line), let root = try? JSONParser.parse(line), case let .object(members) = root.kind,
                      case let .string(path)? = members.first(where: { $0.key == "path" })?.value.kind
                else { return "\(folder.manifestPath):\(rows.lineNumber): not a manifest row" }
                made.append(marker, path: path)
            }
        } catch {
            return "\(folder.manifestPath): cannot be read: \(error)"
        }
        let expected = made.npy
        guard let wanted = SampleFileDifference.NPYLayout(expected), let row = wanted.row(of: expected, where: "sample", is: String(index)) else { return nil }
        let written: [UInt8]
        do {
            written = try FileBytes.read(path: table, limit: 1 << 30)
        } catch {
            return "\(table): cannot be read: \(error)"
        }
        guard let layout = SampleFileDifference.NPYLayout(written) else { return "\(table): not a NumPy table" }
        if let problem = layout.unlikeItsHeader(written) { return "\(table): \(problem)" }
        guard let writtenRow = layout.row(of: written, where: "sample", is: String(index)) else {
            return "\(table): holds no row of sample \(index), which manifest.jsonl holds"
        }
        let ours = layout.values(of: written, row: writtenRow), theirs = wanted.values(of: expected, row: row)
        for (position, field) in theirs.enumerated() where position >= ours.count || ours[position].name != field.name || ours[position].value != field.value {
            let now = position < ours.count ? ours[position].name == field.name ? ours[position].value : "column \(ours[position].name)" : "(none)"
            return "\(table): sample \(index)'s row (row \(writtenRow) from 0), column \(field.name): written \(now), made from manifest.jsonl \(field.value)"
        }
        return ours.count == theirs.count ? nil : "\(table): sample \(index)'s row has \(ours.count) columns, manifest.jsonl's \(theirs.count)"
    }
}
