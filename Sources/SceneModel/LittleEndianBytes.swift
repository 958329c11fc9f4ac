/// Fixed-width little-endian fields, as saved states are written (no struct images, the same bytes
/// on every CPU): appended to an array, and read back with every length checked.
package struct LittleEndianWriter {
    package private(set) var bytes: [UInt8]

    package init(_ bytes: [UInt8] = []) {
        self.bytes = bytes
    }

    package mutating func u8(_ value: UInt8) { bytes.append(value) }
    package mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    package mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    package mutating func f64(_ value: Double) { u64(value.bitPattern) }

    /// A u32 length and that many bytes.
    package mutating func field(_ field: [UInt8]) {
        u32(UInt32(field.count))
        bytes.append(contentsOf: field)
    }

    /// Ends the bytes with FNV-1a 64 of every byte before it.
    package mutating func checksum() {
        var hasher = FNV1a64()
        for byte in bytes { hasher.combine(byte: byte) }
        u64(hasher.value)
    }
}

/// Reads what `LittleEndianWriter` wrote; `end` leaves room for a trailing checksum.
package struct LittleEndianReader {
    private let bytes: [UInt8]
    private let end: Int
    package private(set) var at: Int

    package init(_ bytes: [UInt8], from start: Int, end: Int) {
        self.bytes = bytes
        self.end = end
        at = start
    }

    package var isAtEnd: Bool { at == end }
    /// Bytes left to read.
    package var remaining: Int { end - at }

    package mutating func take(_ count: Int) throws(WorldState.FormatError) -> ArraySlice<UInt8> {
        guard count >= 0, end - at >= count else { throw WorldState.FormatError.cutShort }
        defer { at += count }
        return bytes[at..<(at + count)]
    }

    package mutating func u8() throws(WorldState.FormatError) -> UInt8 { try take(1).first! }
    package mutating func u32() throws(WorldState.FormatError) -> UInt32 { try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) } }
    package mutating func u64() throws(WorldState.FormatError) -> UInt64 { try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) } }
    package mutating func f64() throws(WorldState.FormatError) -> Double { Double(bitPattern: try u64()) }
    package mutating func f64s(_ count: Int) throws(WorldState.FormatError) -> [Double] {
        var values: [Double] = []
        for _ in 0..<count { values.append(try f64()) }
        return values
    }
    package mutating func field() throws(WorldState.FormatError) -> [UInt8] { Array(try take(Int(try u32()))) }

    /// Whether the last 8 bytes are FNV-1a 64 of all the bytes before them.
    package static func checksumMatches(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 8 else { return false }
        var hasher = FNV1a64()
        for byte in bytes.dropLast(8) { hasher.combine(byte: byte) }
        return bytes.suffix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) } == hasher.value
    }
}
