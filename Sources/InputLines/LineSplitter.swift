/// Splits a byte stream into lines: `\n` or `\r\n` endings, a last line without an ending, a
/// numbered count that includes empty lines (which are not returned). A line longer than
/// `maxLength` bytes is returned as `.tooLong` once and its rest skipped up to the next newline.
public struct LineSplitter {
    public enum Piece: Equatable {
        case line(number: Int, bytes: [UInt8])
        case tooLong(number: Int)
    }

    public static let defaultMaxLength = 1 << 20

    private let maxLength: Int
    private var current: [UInt8] = []
    private var number = 1
    private var overflowing = false

    public init(maxLength: Int = LineSplitter.defaultMaxLength) { self.maxLength = maxLength }

    /// Feeds a chunk and returns the pieces it completed.
    public mutating func feed<Bytes: Collection>(_ chunk: Bytes) -> [Piece] where Bytes.Element == UInt8 {
        var pieces: [Piece] = []
        for byte in chunk {
            if byte == UInt8(ascii: "\n") {
                if let piece = endLine() { pieces.append(piece) }
            } else if !overflowing {
                current.append(byte)
                if current.count > maxLength {
                    pieces.append(.tooLong(number: number))
                    overflowing = true
                    current = []
                }
            }
        }
        return pieces
    }

    /// The last line, if the stream ended without a newline.
    public mutating func finish() -> [Piece] {
        current.isEmpty && !overflowing ? [] : endLine().map { [$0] } ?? []
    }

    private mutating func endLine() -> Piece? {
        defer {
            number += 1
            current = []
            overflowing = false
        }
        if overflowing { return nil }
        if current.last == UInt8(ascii: "\r") { current.removeLast() }
        if current.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return nil }
        return .line(number: number, bytes: current)
    }
}
