import FuzzSupport
import SceneModel
import Script

/// Fuzz target: bytes as a gravity stream (lines through the line splitter and the parser, as
/// `--gravity` reads them) and as a run record. Nothing may trap; every line is a command, a
/// record line or an error naming its line.
@_cdecl("LLVMFuzzerTestOneInput")
public func gravityFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var splitter = LineSplitter()
    var parser = GravityLineParser(source: "fuzz", stepRate: 120, gravityMagnitude: 1000, axes: .portrait)
    for piece in splitter.feed(bytes[...]) + splitter.finish() {
        guard case let .line(number, line) = piece else { continue }
        if case let .failure(error) = parser.read(line, line: number), !error.description.hasPrefix("fuzz:\(number): ") {
            fatalError("a gravity error that does not name its line: \(error)")
        }
    }
    _ = try? RunRecord.parse(bytes, source: "fuzz")
    return 0
}

/// libFuzzer's driver under scripts/fuzz; a corpus replay in a plain build.
@main
struct GravityFuzzerMain {
    static func main() { FuzzReplay.run(gravityFuzzerTestOneInput) }
}
