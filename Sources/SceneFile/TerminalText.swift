import SceneModel

/// Text from files (scene names, keys, a record's header fields, paths) made safe to show on a
/// terminal: every control character is shown as a `\uXXXX` escape, so a crafted file cannot
/// send escape sequences (`ESC [ 2 J`), move the cursor back over a line (`\r`), or start a line
/// of its own (`\n`).
///
/// Escaped: C0 controls (U+0000–U+001F), DEL (U+007F), C1 controls (U+0080–U+009F; U+009B is
/// CSI on some terminals) and the invisible marks that reorder text (U+200E, U+200F,
/// U+202A–U+202E, U+2066–U+2069). Everything else, backslashes included, is left as it is, so
/// messages stay readable; JSON text stays valid JSON with the same meaning, since a `\uXXXX`
/// escape can only be needed inside a string there.
package enum TerminalText {
    /// `text` with every control character escaped, newlines included: for a piece of file text
    /// put into a message.
    package static func escaped(_ text: String) -> String {
        guard mayNeedEscaping(text) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars { append(scalar, to: &out) }
        return out
    }

    /// `text` made of lines (as a message the program composed may be): each line escaped as by
    /// `escaped(_:)`, the `\n` between lines kept.
    package static func lines(_ text: String) -> String {
        guard mayNeedEscaping(text) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if scalar == "\n" { out.unicodeScalars.append(scalar) } else { append(scalar, to: &out) }
        }
        return out
    }

    /// Whether `scalar` is shown escaped.
    package static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String) {
        guard needsEscaping(scalar) else { return out.unicodeScalars.append(scalar) }
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + hex.zeroPadded(toWidth: 4)
    }

    /// A quick look at the UTF-8 bytes: every scalar that needs escaping starts with a byte
    /// below 0x20, 0x7F, 0xC2 (U+0080–U+00BF) or 0xE2 (U+2000–U+2FFF).
    private static func mayNeedEscaping(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }
    }
}
