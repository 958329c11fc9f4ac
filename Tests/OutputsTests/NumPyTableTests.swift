@testable import Outputs
import Testing

/// The `.npy` header: NumPy's format 1.0, the data 64-byte aligned, the same length for any row
/// count (it is written again at the end); the rows read back by numpy in Tests/Python/tables_test.py.
@Suite struct NumPyTableTests {
    @Test func theHeaderIsAlignedAndKeepsItsLengthForAnyCount() {
        let table = NumPyTable(columns: [("step", .int64), ("event", .bytes(12)), ("x", .float64), ("sleeping", .bool), ("id", .uint64)])
        let empty = table.header(rows: 0), full = table.header(rows: 12_345_678_901_234)
        #expect(empty.count == full.count && empty.count % 64 == 0)
        #expect(Array(empty.prefix(8)) == [0x93] + Array("NUMPY".utf8) + [1, 0])
        #expect(Int(empty[8]) | Int(empty[9]) << 8 == empty.count - 10)
        let text = String(decoding: full.dropFirst(10), as: UTF8.self)
        #expect(text.hasPrefix("{'descr': [('step', '<i8'), ('event', '|S12'), ('x', '<f8'), ('sleeping', '|b1'), ('id', '<u8')], "
            + "'fortran_order': False, 'shape': (      12345678901234,), }"))
        #expect(text.hasSuffix(" \n"))
    }

    @Test func rowsArePackedLittleEndianWithPaddedTextAndNaNForNothing() {
        var row = NumPyRow(capacity: 40)
        row.int64(-2)
        row.text("begin", width: 8)
        row.float64(nil)
        row.bool(true)
        #expect(row.bytes.count == 8 + 8 + 8 + 1)
        #expect(Array(row.bytes[0..<8]) == Array(repeating: 0xff, count: 7).reduce(into: [0xfe]) { $0.append($1) })
        #expect(Array(row.bytes[8..<16]) == Array("begin".utf8) + [0, 0, 0])
        #expect(Double(bitPattern: row.bytes[16..<24].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }).isNaN)
        #expect(row.bytes[24] == 1)
    }
}
