/// The worlds callers hold, by handle (1, 2, ...: an index plus one; 0 and negatives are never
/// handles), and the bytes of the last call's result. A wasm module and a Python process each run
/// one thread through the ABI: these globals are touched by one thread at a time.
enum Handles {
    nonisolated(unsafe) private static var runs: [CoreRun?] = []

    static func add(_ run: CoreRun) -> Int32 {
        if let free = runs.firstIndex(where: { $0 == nil }) {
            runs[free] = run
            return Int32(free + 1)
        }
        runs.append(run)
        return Int32(runs.count)
    }

    static func run(_ handle: Int32) -> CoreRun? {
        let index = Int(handle) - 1
        return runs.indices.contains(index) ? runs[index] : nil
    }

    static func remove(_ handle: Int32) -> Bool {
        guard run(handle) != nil else { return false }
        runs[Int(handle) - 1] = nil
        return true
    }
}

/// The last result (text or bytes), kept until the next call that sets one: callers read it at
/// `cratedrop_result()` for the length the call returned.
enum LastResult {
    nonisolated(unsafe) private(set) static var pointer: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) private(set) static var count = 0

    static func set(_ bytes: [UInt8]) -> Int32 {
        pointer?.deallocate()
        let stored = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        stored.initialize(from: bytes, count: bytes.count)
        pointer = stored
        count = bytes.count
        return Int32(clamping: bytes.count)
    }

    static func set(_ text: String) -> Int32 { set(Array(text.utf8)) }

    /// Rows of `columns` doubles as the result's bytes (native byte order); returns the rows.
    static func set(rows: [Double], columns: Int) -> Int32 {
        _ = set(rows.withUnsafeBytes { Array($0) })
        return Int32(clamping: rows.count / columns)
    }

    /// A failure: its message as the result, its code negated as the return value.
    static func fail(_ error: CoreError) -> Int32 {
        _ = set(error.message)
        return -error.code.rawValue
    }
}
