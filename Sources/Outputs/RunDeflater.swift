/// A deflate stream (RFC 1951) of one block with the fixed Huffman codes, for data that comes in
/// runs of a repeated byte pair (an instance mask's rows of 16-bit ids): a run is its first two
/// bytes as literals and copies at distance 2, written in time proportional to the runs, not the
/// bytes. Its Adler-32 (RFC 1950), which zlib's deflate computes byte by byte, is kept the same
/// way, each run at once.
///
/// Why not zlib's deflate: with its run-length strategy a 256×256 mask still cost about 2.7 M
/// instructions, in keeping its window (the slides, the Adler-32 over every byte) more than in
/// compressing; this writes one in about 0.2 M (docs/performance.md, "Datasets"). Decoders are the
/// judges: the tests read its streams back with zlib, libspng, Pillow and ffmpeg.
struct RunDeflater {
    private(set) var bytes: [UInt8] = []
    /// The tables, held here so the loops do not go through the statics' lazy initialisation.
    private let literals = RunDeflater.literalCodes
    private let copies = RunDeflater.copyCodes
    private var bits: UInt64 = 0
    private var bitCount = 0
    private var adlerA: UInt64 = 1
    private var adlerB: UInt64 = 0

    /// The Adler-32 of every byte written so far.
    var adler32: UInt32 { UInt32(adlerB << 16 | adlerA) }

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
        writeBits(1, count: 1)  // BFINAL: the only block
        writeBits(1, count: 2)  // BTYPE 01: fixed Huffman codes
    }

    /// One byte.
    mutating func byte(_ value: UInt8) {
        write(literals[Int(value)])
        adlerA = (adlerA + UInt64(value)) % Self.adlerModulus
        adlerB = (adlerB + adlerA) % Self.adlerModulus
    }

    /// The two bytes `high`, `low`, `count` times over.
    mutating func pairs(high: UInt8, low: UInt8, count: Int) {
        guard count > 0 else { return }
        let pair = literals[Int(high)].followed(by: literals[Int(low)])
        write(pair)
        // The rest copies the two bytes before it; a copy is 3...258 bytes long.
        var remaining = 2 &* (count &- 1)
        if remaining == 2 {
            write(pair)
        } else {
            while remaining > 0 {
                let length = remaining <= Self.longestCopy ? remaining
                    : remaining &- Self.longestCopy >= Self.shortestCopy ? Self.longestCopy : remaining &- Self.shortestCopy
                write(copies[length])
                remaining &-= length
            }
        }
        // Adler-32 of the pair repeated k times, at once: with s = high + low, a grows by k·s and
        // b by 2k·a + s·k² + k·high (the sum of a after each of the 2k bytes).
        let k = UInt64(count), s = UInt64(high) &+ UInt64(low)
        adlerB = (adlerB &+ 2 &* k &* adlerA &+ s &* k &* k &+ k &* UInt64(high)) % Self.adlerModulus
        adlerA = (adlerA &+ k &* s) % Self.adlerModulus
    }

    /// Ends the block (symbol 256) and pads to a whole byte.
    mutating func finish() {
        write(literals[256])
        let padding = (8 - bitCount % 8) % 8
        if padding > 0 { writeBits(0, count: padding) }
        flush()
    }

    // MARK: Codes

    private static let adlerModulus: UInt64 = 65521
    private static let shortestCopy = 3
    private static let longestCopy = 258

    /// A Huffman code, or several written one after the other, its bits already reversed for the
    /// stream's least-significant-first order.
    private struct Code {
        var bits: UInt32
        var length: Int

        func followed(by next: Code) -> Code { Code(bits: bits | next.bits << UInt32(length), length: length + next.length) }
    }

    /// The fixed literal/length codes (RFC 1951, 3.2.6): 0-143 8 bits from 00110000, 144-255 9 bits
    /// from 110010000, 256-279 7 bits from 0000000, 280-287 8 bits from 11000000.
    private static let literalCodes: [Code] = (0...287).map { symbol in
        switch symbol {
        case 0...143: reversed(0x30 + symbol, length: 8)
        case 144...255: reversed(0x190 + symbol - 144, length: 9)
        case 256...279: reversed(symbol - 256, length: 7)
        default: reversed(0xC0 + symbol - 280, length: 8)
        }
    }

    /// Each copy at distance 2 of length 3...258, whole (RFC 1951, 3.2.5): its length symbol
    /// 257...285, that symbol's extra bits, then distance code 1 (five bits, no extra bits).
    private static let copyCodes: [Code] = {
        let bases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
        let extraBits = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        let distanceTwo = reversed(1, length: 5)
        return (0...longestCopy).map { length in
            guard length >= shortestCopy else { return Code(bits: 0, length: 0) }
            let index = bases.lastIndex { $0 <= length }!
            let extra = Code(bits: UInt32(length - bases[index]), length: extraBits[index])  // extra bits go least significant first
            return literalCodes[257 + index].followed(by: extra).followed(by: distanceTwo)
        }
    }()

    private static func reversed(_ code: Int, length: Int) -> Code {
        var reversed: UInt32 = 0
        for bit in 0..<length where code >> bit & 1 == 1 { reversed |= 1 << (length - 1 - bit) }
        return Code(bits: reversed, length: length)
    }

    // MARK: Bits

    private mutating func write(_ code: Code) {
        bits |= UInt64(code.bits) << UInt64(bitCount)
        bitCount &+= code.length
        if bitCount >= 32 { flush() }
    }

    private mutating func writeBits(_ value: UInt32, count: Int) {
        write(Code(bits: value, length: count))
    }

    /// Moves whole bytes out of the bit buffer.
    private mutating func flush() {
        while bitCount >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
            bitCount &-= 8
        }
    }
}
