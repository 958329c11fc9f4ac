/// A table as a NumPy `.npy` file (format 1.0): a header naming each column's type (a structured
/// dtype, little-endian, packed) and the row count, then the rows' bytes back to back.
/// `numpy.load(path)` reads it as a structured array, `pandas.DataFrame(numpy.load(path))` as a
/// table; no Arrow or Parquet library is packaged for Debian, and this format needs none. Every
/// data table describes its columns this way; CSV and JSON Lines use their names.
///
/// The row count is known only at the end, so the header keeps room for any count (20 digits)
/// and is written again, the same length, when the table is finished.
package struct NumPyTable {
    package enum Column {
        case int64, uint64, float64, bool
        /// Text of at most this many bytes (`S12`), padded with zero bytes.
        case bytes(Int)

        var descr: String {
            switch self {
            case .int64: "<i8"
            case .uint64: "<u8"
            case .float64: "<f8"
            case .bool: "|b1"
            case let .bytes(width): "|S\(width)"
            }
        }
    }

    package let columns: [(name: String, type: Column)]

    package init(columns: [(name: String, type: Column)]) { self.columns = columns }

    /// The column names, in order (every format's).
    package var names: [String] { columns.map(\.name) }

    /// The header for `rows` rows, padded so the data begins at a multiple of 64 bytes.
    package func header(rows: Int) -> [UInt8] {
        let descr = columns.map { "('\($0.name)', '\($0.type.descr)')" }.joined(separator: ", ")
        let count = String(rows)
        let shape = "(" + String(repeating: " ", count: 20 - count.count) + count + ",)"
        var dictionary = Array("{'descr': [\(descr)], 'fortran_order': False, 'shape': \(shape), }".utf8)
        let unpadded = 10 + dictionary.count + 1
        dictionary += Array(repeating: UInt8(ascii: " "), count: (64 - unpadded % 64) % 64)
        dictionary.append(UInt8(ascii: "\n"))
        let length = UInt16(dictionary.count)
        return [0x93] + Array("NUMPY".utf8) + [1, 0, UInt8(length & 0xff), UInt8(length >> 8)] + dictionary
    }
}

/// One row's bytes, column by column in the table's order.
package struct NumPyRow {
    package var bytes: [UInt8] = []

    package init(capacity: Int) { bytes.reserveCapacity(capacity) }

    package mutating func int64(_ value: Int) { uint64(UInt64(bitPattern: Int64(value))) }
    package mutating func uint64(_ value: UInt64) { for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) } }
    /// NaN for a cell with no value.
    package mutating func float64(_ value: Double?) { uint64((value ?? .nan).bitPattern) }
    package mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    package mutating func text(_ value: String, width: Int) {
        let utf8 = Array(value.utf8.prefix(width))
        bytes += utf8 + Array(repeating: 0, count: width - utf8.count)
    }
}
