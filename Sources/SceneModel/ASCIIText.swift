/// Text the core measures, cuts and compares as UTF-8 bytes. Its own text (hex digits, decimal
/// numbers, keys, field paths, file paths) is ASCII, where a byte is a character.
///
/// Why not `count`, `first`, `prefix`, `hasPrefix`, `split(separator:)` or `lowercased()` on
/// `String`: those work on Characters, and would link the Swift runtime's grapheme-breaking and
/// scalar-property tables into the wasm core (about 8 KB of its 400 KB gzipped budget).
/// Backends/wasm/build links without those tables, so a Character-level call in the core fails
/// that build. Text from users that is cut or counted for a message goes by Unicode scalars.
package extension String {
    /// Whether the text starts with `prefix`, byte for byte.
    func startsWithBytes(of prefix: String) -> Bool { utf8.starts(with: prefix.utf8) }

    /// Whether the text ends with `suffix`, byte for byte.
    func endsWithBytes(of suffix: String) -> Bool {
        utf8.count >= suffix.utf8.count && utf8.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
    }

    /// The first `count` bytes, or the whole text if shorter: for ASCII text, its first `count` characters.
    func leadingBytes(_ count: Int) -> String { String(decoding: utf8.prefix(count), as: UTF8.self) }

    /// These digits with zeros in front, `width` bytes in all (the digits whole if they are longer).
    func zeroPadded(toWidth width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - utf8.count)) + self
    }

    /// The text with A-Z lowered to a-z, every other byte kept.
    func asciiLowercased() -> String {
        String(decoding: utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

/// Whether `byte` is an ASCII digit, 0-9.
package func isASCIIDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
