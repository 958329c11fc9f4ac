#if canImport(Glibc)
import Glibc
#endif

#if FUZZING
/// libFuzzer's entry for programs with a main of their own (SwiftPM gives every executable one).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32
#endif

/// A fuzz target's main. Built by scripts/fuzz (with libFuzzer and `-DFUZZING`) it hands the
/// target to libFuzzer with the command line; in a plain build it feeds each file named on the
/// command line to the target once and says how many ran, so the seed corpus and found crashes
/// stay regression cases.
public enum FuzzReplay {
    public static func run(_ target: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32) {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, target))
        #else
        replay(target)
        #endif
    }

    private static func replay(_ target: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32) {
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            guard let file = fopen(path, "rb") else {
                say("fuzz replay: cannot open \(path)")
                exit(66)
            }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let read = fread(&chunk, 1, chunk.count, file)
                if read == 0 { break }
                bytes += chunk[0..<read]
            }
            fclose(file)
            // An empty file is an empty input; the one-byte buffer only gives it an address.
            let storage = bytes.isEmpty ? [0] : bytes
            _ = storage.withUnsafeBufferPointer { target($0.baseAddress!, bytes.count) }
            count += 1
        }
        say("fuzz replay: \(count) inputs ran without a crash")
    }

    private static func say(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
