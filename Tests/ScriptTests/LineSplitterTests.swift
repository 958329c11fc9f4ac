import Script
import Testing

@Suite struct LineSplitterTests {
    static func lines(_ text: String, chunk: Int, maxLength: Int = 1 << 20) -> [LineSplitter.Piece] {
        var splitter = LineSplitter(maxLength: maxLength)
        let bytes = Array(text.utf8)
        var pieces: [LineSplitter.Piece] = []
        var index = 0
        while index < bytes.count {
            pieces += splitter.feed(bytes[index..<min(index + chunk, bytes.count)])
            index += chunk
        }
        return pieces + splitter.finish()
    }

    @Test(arguments: [1, 2, 3, 7, 1000])
    func handlesLFCRLFEmptyLinesAndAMissingLastNewlineInAnyChunking(chunk: Int) {
        let pieces = Self.lines("a\r\n\nbb\n  \r\nccc", chunk: chunk)
        #expect(pieces == [
            .line(number: 1, bytes: Array("a".utf8)),
            .line(number: 3, bytes: Array("bb".utf8)),
            .line(number: 5, bytes: Array("ccc".utf8)),
        ])
    }

    @Test func anOverlongLineIsReportedOnceAndSkipped() {
        let pieces = Self.lines("ok\n0123456789abcdef\nnext", chunk: 4, maxLength: 8)
        #expect(pieces == [.line(number: 1, bytes: Array("ok".utf8)), .tooLong(number: 2), .line(number: 3, bytes: Array("next".utf8))])
    }
}
