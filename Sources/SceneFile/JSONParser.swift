/// A strict RFC 8259 parser over UTF-8 bytes: no comments, no trailing commas, no NaN, no
/// duplicate keys, nesting at most `maxDepth` deep.
public struct JSONParser {
    public static let maxDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    /// Parses one complete JSON document; `firstLine` numbers lines when parsing one line of a larger file.
    public static func parse(_ bytes: [UInt8], firstLine: Int = 1) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, line: firstLine)
        if let problem = encodingProblem(bytes) { throw parser.error(problem) }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count { throw parser.error("unexpected \(parser.describeCurrent()) after the value") }
        return value
    }

    /// JSON text is UTF-8 without a byte order mark (RFC 8259 §8.1); name the usual mistakes
    /// instead of reporting their first byte.
    static func encodingProblem(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xef, 0xbb, 0xbf]) {
            return "the text starts with a UTF-8 byte order mark (EF BB BF); JSON must be UTF-8 without one: save it as plain UTF-8"
        }
        if bytes.starts(with: [0xff, 0xfe]) || bytes.starts(with: [0xfe, 0xff])
            || (bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0)) {
            return "the text looks like UTF-16 (byte order mark or zero bytes); JSON must be UTF-8: save it as UTF-8"
        }
        return nil
    }

    /// Parses one complete JSON document from text.
    public static func parse(_ text: String, firstLine: Int = 1) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8), firstLine: firstLine)
    }

    private init(bytes: [UInt8], line: Int) {
        self.bytes = bytes
        self.line = line
    }

    /// An error at byte `position` (default: the current one) of the current line.
    private func error(_ message: String, at position: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: (position ?? index) - lineStart + 1, message: message)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        return byte >= 0x20 && byte < 0x7f ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        let startLine = line
        switch bytes[index] {
        case UInt8(ascii: "{"): return JSONValue(try parseObject(), line: startLine)
        case UInt8(ascii: "["): return JSONValue(try parseArray(), line: startLine)
        case UInt8(ascii: "\""): return JSONValue(.string(try parseString()), line: startLine)
        case UInt8(ascii: "t"): try expectWord("true"); return JSONValue(.bool(true), line: startLine)
        case UInt8(ascii: "f"): try expectWord("false"); return JSONValue(.bool(false), line: startLine)
        case UInt8(ascii: "n"): try expectWord("null"); return JSONValue(.null, line: startLine)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONValue(try parseNumber(), line: startLine)
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("unexpected \(describeCurrent()), expected '\(word)'") }
            index += 1
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maxDepth { throw error("nested deeper than \(JSONParser.maxDepth) levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue.Kind {
        try enter()
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        var seen = Set<String>()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("unexpected \(describeCurrent()), expected a key in quotes") }
            let keyStart = index
            let key = try parseString()
            if !seen.insert(key).inserted { throw error("duplicate key \"\(key)\"", at: keyStart) }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("unexpected \(describeCurrent()), expected ':'") }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input, expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; break }
            throw error("unexpected \(describeCurrent()), expected ',' or '}'")
        }
        depth -= 1
        return .object(members)
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue.Kind {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input, expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; break }
            throw error("unexpected \(describeCurrent()), expected ',' or ']'")
        }
        depth -= 1
        return .array(elements)
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        var run: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                break
            }
            if byte < 0x20 { throw error("control character in a string") }
            if byte != UInt8(ascii: "\\") {
                run.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { throw error("unterminated string") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): run.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): run.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): run.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): run.append(0x08)
            case UInt8(ascii: "f"): run.append(0x0c)
            case UInt8(ascii: "n"): run.append(0x0a)
            case UInt8(ascii: "r"): run.append(0x0d)
            case UInt8(ascii: "t"): run.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xd800..<0xdc00).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    index += 2
                    let low = try parseHex4()
                    guard (0xdc00..<0xe000).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                    code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                run.append(contentsOf: Array(String(scalar).utf8))
            default: throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
            }
        }
        guard let text = String(validating: run, as: UTF8.self) else { throw error("string is not valid UTF-8") }
        return text
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        // Exactly four hex digits: UInt32(_:radix:) alone would also take a sign ("+041").
        guard index + 4 <= bytes.count, bytes[index..<index + 4].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
              let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw error("invalid \\u escape: needs four hex digits") }
        index += 4
        return code
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue.Kind {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let from = parser.index
            while parser.index < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index]) {
                parser.index += 1
            }
            return parser.index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits(&self)
        if integerDigits == 0 { throw error("a number needs digits", at: start) }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { throw error("a number must not have a leading zero", at: start) }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits(&self) == 0 { throw error("a number needs digits after '.'", at: start) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            if digits(&self) == 0 { throw error("a number needs digits in its exponent", at: start) }
        }
        let literal = String(decoding: bytes[start..<index], as: UTF8.self)
        // Double(String) rounds correctly; a literal too large for a double becomes ±inf, which
        // the scene checks report as not finite.
        return .number(Double(literal) ?? .nan, literal: literal)
    }
}
