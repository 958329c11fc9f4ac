import Outputs
import SceneFile

/// The manifest as one flat table, `manifest.npy` (a NumPy structured array, as the traces and
/// events are): one row per complete sample, in index order, with the done marker's fields as
/// columns (`summary`'s flattened: `bodies`, `mean_y`, `max_speed`, `moving`) and one column per
/// parameter, `parameters.FIELD`: whole numbers as int64, other numbers as float64, arrays of
/// numbers of one length as one float64 column per element (`parameters.gravity[0]`), anything
/// else as its JSON text. `pandas.DataFrame(numpy.load("DIR/manifest.npy"))` loads it.
struct ManifestTable {
    private(set) var rows: [(marker: DoneMarker, path: String)] = []

    mutating func append(_ marker: DoneMarker, path: String) { rows.append((marker, path)) }

    /// A parameter's column(s), worked out over every row's value.
    private enum ParameterColumn {
        case integer
        case number
        case numbers(count: Int)
        case text(width: Int)
    }

    private static func parameters(_ marker: DoneMarker) -> [(key: String, value: JSONOutput)] {
        if case let .object(fields) = marker.parameters { fields } else { [] }
    }

    private static func integer(_ value: JSONOutput) -> Int? {
        switch value {
        case let .integer(number): number
        case let .unsigned(number): Int(exactly: number)
        case let .numberLiteral(literal): Int(literal)
        default: nil
        }
    }

    private static func number(_ value: JSONOutput) -> Double? {
        switch value {
        case let .integer(number): Double(number)
        case let .unsigned(number): Double(number)
        case let .number(number): number
        case let .numberLiteral(literal): Double(literal)
        default: nil
        }
    }

    private static func numbers(_ value: JSONOutput) -> [Double]? {
        guard case let .array(items) = value else { return nil }
        let values = items.compactMap(number)
        return values.count == items.count ? values : nil
    }

    /// The parameters' names (the first row's, in the spec's axis order) and their columns.
    private func parameterColumns() -> [(key: String, column: ParameterColumn)] {
        guard let first = rows.first else { return [] }
        return Self.parameters(first.marker).map { field in
            let values = rows.map { row in Self.parameters(row.marker).first { $0.key == field.key }?.value ?? .null }
            if values.allSatisfy({ Self.integer($0) != nil }) { return (field.key, .integer) }
            if values.allSatisfy({ Self.number($0) != nil }) { return (field.key, .number) }
            let arrays = values.map(Self.numbers)
            if let count = arrays.first??.count, count > 0, arrays.allSatisfy({ $0?.count == count }) { return (field.key, .numbers(count: count)) }
            return (field.key, .text(width: max(1, values.map { $0.spacedText.utf8.count }.max() ?? 1)))
        }
    }

    /// The `.npy` file's bytes.
    var npy: [UInt8] {
        func width(_ texts: [String]) -> Int { max(1, texts.map(\.utf8.count).max() ?? 1) }
        let markers = rows.map(\.marker)
        let widths = (path: width(rows.map(\.path)), determinismClass: width(markers.map(\.determinismClass)),
                      backend: width(markers.map(\.backend)), architecture: width(markers.map(\.architecture)),
                      version: width(markers.map(\.version)), sweep: width(markers.map(\.sweep)))
        let parameters = parameterColumns()
        var columns: [(name: String, type: NumPyTable.Column)] = [
            ("sample", .int64), ("path", .bytes(widths.path)), ("start_step", .int64), ("steps", .int64), ("hash", .bytes(16)),
            ("hash_every", .int64), ("determinism_class", .bytes(widths.determinismClass)), ("backend", .bytes(widths.backend)),
            ("architecture", .bytes(widths.architecture)), ("cratedrop", .bytes(widths.version)), ("sweep", .bytes(widths.sweep)),
            ("wall_seconds", .float64), ("cpu_seconds", .float64), ("bodies", .int64), ("mean_y", .float64), ("max_speed", .float64),
            ("moving", .int64), ("warnings", .int64),
        ]
        for (key, column) in parameters {
            switch column {
            case .integer: columns.append(("parameters.\(key)", .int64))
            case .number: columns.append(("parameters.\(key)", .float64))
            case let .numbers(count): columns += (0..<count).map { ("parameters.\(key)[\($0)]", .float64) }
            case let .text(width): columns.append(("parameters.\(key)", .bytes(width)))
            }
        }
        let table = NumPyTable(columns: columns)
        var bytes = table.header(rows: rows.count)
        for (marker, path) in rows {
            var row = NumPyRow(capacity: 256)
            row.int64(marker.sample)
            row.text(path, width: widths.path)
            row.int64(marker.startStep)
            row.int64(marker.steps)
            row.text(marker.hash.description, width: 16)
            // 0 when the sample wrote no hashes.txt.
            row.int64(marker.hashEvery ?? 0)
            row.text(marker.determinismClass, width: widths.determinismClass)
            row.text(marker.backend, width: widths.backend)
            row.text(marker.architecture, width: widths.architecture)
            row.text(marker.version, width: widths.version)
            row.text(marker.sweep, width: widths.sweep)
            row.float64(marker.wallSeconds)
            row.float64(marker.cpuSeconds)
            row.int64(marker.summary.bodies)
            row.float64(marker.summary.meanY)
            row.float64(marker.summary.maxSpeed)
            row.int64(marker.summary.moving)
            row.int64(marker.warnings.count)
            let values = Self.parameters(marker)
            for (key, column) in parameters {
                let value = values.first { $0.key == key }?.value ?? .null
                switch column {
                case .integer: row.int64(Self.integer(value) ?? 0)
                case .number: row.float64(Self.number(value))
                case let .numbers(count):
                    let numbers = Self.numbers(value) ?? []
                    for i in 0..<count { row.float64(i < numbers.count ? numbers[i] : nil) }
                case let .text(width): row.text(value.spacedText, width: width)
                }
            }
            bytes += row.bytes
        }
        return bytes
    }
}
