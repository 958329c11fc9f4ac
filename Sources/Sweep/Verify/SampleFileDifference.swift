import SceneFile

/// Where a sample's file first differs from the same file written again by `sweep verify`, said
/// in the file's own terms: a JSON file's key, a table's line and column or row and field, else
/// the byte. Every byte counts, except the few values a run cannot repeat (`Unrepeatable`).
enum SampleFileDifference {
    /// Values measured as the sample ran rather than computed from its inputs: not compared.
    enum Unrepeatable {
        /// `done.json`'s run-specific keys: timings, and which build of which CPU of the class ran it.
        static let doneKeys: Set<String> = ["wall_seconds", "cpu_seconds", "cratedrop", "backend", "architecture"]
        /// `stats.jsonl`'s step time, in microseconds.
        static let statsKey = "step_us"
    }

    /// `NAME: WHERE`, or nil when `written` (the sample's) and `again` agree.
    static func between(name: String, written: [UInt8], again: [UInt8]) -> String? {
        if name == "stats.jsonl" { return lines(name, written, again, measured: Unrepeatable.statsKey) }
        guard written != again else { return nil }
        if name.hasSuffix(".json") { return json(name, written, again) }
        if name.hasSuffix(".jsonl") || name.hasSuffix(".csv") || name.hasSuffix(".txt") { return lines(name, written, again, measured: nil) }
        if name.hasSuffix(".npy") { return npy(name, written, again) }
        return "\(name): byte \(firstDifferingByte(written, again)) differs from the file written again"
    }

    // MARK: JSON

    private static func json(_ name: String, _ written: [UInt8], _ again: [UInt8]) -> String {
        guard let ours = try? JSONParser.parse(written) else { return "\(name): not JSON (the file written again is)" }
        guard let theirs = try? JSONParser.parse(again), let place = keyDifference(ours.kind, theirs.kind, path: "") else {
            return "\(name): its bytes differ from the file written again (the same values, written otherwise)"
        }
        return "\(name): at \"\(place.path)\": written \(shown(place.written)), now \(shown(place.again))"
    }

    /// The first key (dotted, with `[i]` for array elements) whose value differs.
    /// `ignoring`: a top-level key left out.
    static func keyDifference(_ written: JSONValue.Kind?, _ again: JSONValue.Kind?, path: String, ignoring: String? = nil)
        -> (path: String, written: JSONValue.Kind?, again: JSONValue.Kind?)? {
        switch (written, again) {
        case let (.object(ours)?, .object(theirs)?):
            for (key, value) in theirs where key != ignoring {
                let inner = path.isEmpty ? key : "\(path).\(key)"
                if let place = keyDifference(ours.first(where: { $0.key == key })?.value.kind, value.kind, path: inner) { return place }
            }
            if let extra = ours.first(where: { member in member.key != ignoring && !theirs.contains { $0.key == member.key } }) {
                return (path.isEmpty ? extra.key : "\(path).\(extra.key)", extra.value.kind, nil)
            }
            return nil
        case let (.array(ours)?, .array(theirs)?):
            for index in 0..<max(ours.count, theirs.count) {
                let place = keyDifference(index < ours.count ? ours[index].kind : nil, index < theirs.count ? theirs[index].kind : nil,
                                          path: "\(path)[\(index)]")
                if let place { return place }
            }
            return nil
        default:
            return written == again ? nil : (path, written, again)
        }
    }

    private static func shown(_ value: JSONValue.Kind?) -> String {
        switch value {
        case nil: "(nothing)"
        case let .number(_, literal)?: literal
        case let .string(text)?: "\"\(clipped(text))\""
        case let .bool(flag)?: "\(flag)"
        case .null?: "null"
        case .array?: "an array"
        case .object?: "an object"
        }
    }

    // MARK: Lines

    /// The first line that differs; in a CSV table, with its column's name. `measured`: a JSON
    /// Lines key whose value is left out of the comparison.
    private static func lines(_ name: String, _ written: [UInt8], _ again: [UInt8], measured: String?) -> String? {
        let ours = split(written), theirs = split(again)
        let header = name.hasSuffix(".csv") ? theirs.first { !$0.hasPrefix("#") }.map { $0.split(separator: ",", omittingEmptySubsequences: false) } : nil
        for index in 0..<max(ours.count, theirs.count) {
            let line = index < ours.count ? ours[index] : nil, other = index < theirs.count ? theirs[index] : nil
            let same = measured.map { key in line.map { leaving(key, out: $0) } == other.map { leaving(key, out: $0) } } ?? (line == other)
            if same { continue }
            var column = ""
            if name.hasSuffix(".jsonl"), let line, let other, let ours = try? JSONParser.parse(Array(line.utf8)),
               let theirs = try? JSONParser.parse(Array(other.utf8)), let place = keyDifference(ours.kind, theirs.kind, path: "", ignoring: measured) {
                return "\(name) line \(index + 1): at \"\(place.path)\": written \(shown(place.written)), now \(shown(place.again))"
            }
            if let header, let line, let other {
                let a = line.split(separator: ",", omittingEmptySubsequences: false), b = other.split(separator: ",", omittingEmptySubsequences: false)
                if let field = (0..<max(a.count, b.count)).first(where: { $0 >= a.count || $0 >= b.count || a[$0] != b[$0] }), field < header.count {
                    column = ", column \(header[field])"
                }
            }
            return "\(name) line \(index + 1)\(column): written '\(line.map(clipped) ?? "(none)")', now '\(other.map(clipped) ?? "(none)")'"
        }
        // The lines agree but the bytes do not: only the last line's end can differ so.
        return measured == nil && written != again ? "\(name): its last line ends otherwise than in the file written again" : nil
    }

    private static func split(_ bytes: [UInt8]) -> [String] {
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// `line` without `"KEY":VALUE` (a number up to the next `,` or `}`).
    private static func leaving(_ key: String, out line: String) -> String {
        guard let start = line.range(of: "\"\(key)\":") else { return line }
        let end = line[start.upperBound...].firstIndex { $0 == "," || $0 == "}" } ?? line.endIndex
        return String(line[..<start.lowerBound] + line[end...])
    }

    private static func clipped(_ text: String) -> String { text.count > 120 ? text.prefix(117) + "..." : text }

    // MARK: NumPy tables

    /// The first row and field that differ, or the header's columns or row count. numpy may
    /// write a table's header otherwise (its padding, `?` for `|b1`): rows are compared when both
    /// headers give the same columns.
    private static func npy(_ name: String, _ written: [UInt8], _ again: [UInt8]) -> String {
        guard let theirs = NPYLayout(again), let ours = NPYLayout(written) else {
            return "\(name): not a NumPy table of the columns of the file written again"
        }
        if let problem = ours.unlikeItsHeader(written) { return "\(name): \(problem)" }
        guard ours.fields.elementsEqual(theirs.fields, by: { $0.name == $1.name && $0.offset == $1.offset && $0.width == $1.width }),
              ours.rowSize == theirs.rowSize else {
            return "\(name): its columns differ from the file written again (\(ours.fields.map(\.name).joined(separator: ", ")))"
        }
        guard ours.rows == theirs.rows, written.count - ours.dataStart == again.count - theirs.dataStart else {
            return "\(name): \(ours.rows) rows in its header and \(written.count - ours.dataStart) bytes of rows; the file written again has \(theirs.rows) rows"
        }
        let rows = (written[ours.dataStart...], again[theirs.dataStart...])
        guard let byte = zip(rows.0.indices, rows.1.indices).first(where: { rows.0[$0] != rows.1[$1] })?.0 else {
            return "\(name): its header is written otherwise than in the file written again (the same columns and rows)"
        }
        let offset = (byte - ours.dataStart) % ours.rowSize
        let field = ours.fields.last { $0.offset <= offset }?.name ?? "?"
        return "\(name): row \((byte - ours.dataStart) / ours.rowSize) (from 0), field \(field), differs from the file written again"
    }

    private static func firstDifferingByte(_ a: [UInt8], _ b: [UInt8]) -> Int {
        (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
    }

    /// Where a `.npy` file's rows start, how long each is and where its fields sit.
    struct NPYLayout {
        var dataStart: Int
        var rowSize: Int
        var rows: Int
        var fields: [(name: String, offset: Int, kind: Character, width: Int)]

        /// Row `row`'s fields as text: numbers in decimal (a float's shortest text names its bits), text without its padding.
        func values(of bytes: [UInt8], row: Int) -> [(name: String, value: String)] {
            let start = dataStart + row * rowSize
            return fields.map { field in
                let cell = bytes[(start + field.offset)..<(start + field.offset + field.width)]
                let little = cell.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                let value: String
                switch field.kind {
                case "i" where field.width == 8: value = String(Int64(bitPattern: little))
                case "u", "b", "?": value = String(little)
                case "f" where field.width == 8: value = "\(Double(bitPattern: little))"
                default: value = String(decoding: cell.prefix { $0 != 0 }, as: UTF8.self)
                }
                return (field.name, value)
            }
        }

        /// Why `bytes` are not the rows its header counts, if they are not: fewer (a table cut
        /// short by a full disk, a file-size limit or a killed writer; numpy refuses it too) or
        /// more. The header's row count is the truth.
        func unlikeItsHeader(_ bytes: [UInt8]) -> String? {
            let held = bytes.count - dataStart
            let (needed, overflow) = rows.multipliedReportingOverflow(by: rowSize)
            if overflow || held < needed {
                return "cut short: its header says \(rows) rows of \(rowSize) bytes, but only \(held) bytes of rows follow it"
            }
            if held > needed { return "its header says \(rows) rows of \(rowSize) bytes, but \(held) bytes of rows follow it" }
            return nil
        }

        /// The first row whose field `name` reads `value`.
        func row(of bytes: [UInt8], where name: String, is value: String) -> Int? {
            let (span, overflow) = rows.multipliedReportingOverflow(by: rowSize)
            guard !overflow, bytes.count - dataStart >= span, let field = fields.first(where: { $0.name == name }) else { return nil }
            return (0..<rows).first { row in values(of: bytes, row: row).first { $0.name == field.name }?.value == value }
        }

        init?(_ bytes: [UInt8]) {
            var fields: [(String, Int, Character, Int)] = []
            guard bytes.count >= 10, bytes[0] == 0x93, bytes[1...5].elementsEqual("NUMPY".utf8) else { return nil }
            let (headerLength, start) = bytes[6] == 1 ? (Int(bytes[8]) | Int(bytes[9]) << 8, 10)
                : (bytes.count >= 12 ? (Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24, 12) : (0, 0))
            guard start > 0, start + headerLength <= bytes.count else { return nil }
            let header = String(decoding: bytes[start..<(start + headerLength)], as: UTF8.self)
            var size = 0
            // [('name', '<f8'), ('shape', '|S8'), ...]: each field's width from its type's digits.
            for part in Self.pieces(of: header, after: "('") {
                let pieces = part.split(separator: "'", omittingEmptySubsequences: false)
                guard pieces.count >= 3 else { return nil }
                // '<f8', '|S8', '|b1' or numpy's '?': the byte order, the kind, the width.
                let type = pieces[2].drop { "<>|=".contains($0) }
                // Outside input (an edited file): widths and counts bounded before any arithmetic.
                guard let kind = type.first, let width = type == "?" ? 1 : Int(type.dropFirst()), (1...(1 << 20)).contains(width),
                      fields.count < 4096 else { return nil }
                let bytes = kind == "U" ? 4 * width : width
                fields.append((String(pieces[0]), size, kind, bytes))
                size += bytes
            }
            guard size > 0, let shape = header.range(of: "'shape': (") else { return nil }
            dataStart = start + headerLength
            rowSize = size
            // A row count past what the file could hold is no table's.
            guard let count = Int(header[shape.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }.prefix(18)), count <= bytes.count else {
                return nil
            }
            rows = count
            self.fields = fields
        }

        /// The text after each occurrence of `marker`, up to the next.
        private static func pieces(of text: String, after marker: String) -> [Substring] {
            var pieces: [Substring] = []
            var rest = text[...]
            while let found = rest.range(of: marker) {
                rest = rest[found.upperBound...]
                pieces.append(rest[..<(rest.range(of: marker)?.lowerBound ?? rest.endIndex)])
            }
            return pieces
        }
    }
}
