import ArgumentParser
import Outputs
import Session

extension DataFormat: ExpressibleByArgument {}

/// `--trace`, `--stats` and `--events`: data out of `run`, `hash` and `replay` (docs/outputs.md, "Data out").
struct DataOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write every body's state to FILE (.csv, .jsonl or .npy): once per frame in a run, every step in hash, or every --trace-every steps.", valueName: "FILE"), completion: .file())
    var trace: String?

    @Option(help: ArgumentHelp("With --trace: csv or jsonl, for a name without either extension (a device, a pipe).", valueName: "csv|jsonl|npy"))
    var traceFormat: DataFormat?

    @Option(parsing: .unconditional, help: ArgumentHelp("With --trace: trace every K steps.", valueName: "K"))
    var traceEvery: Int?

    @Option(help: ArgumentHelp("Write per-step statistics to FILE (.jsonl): step time, contacts, awake bodies, kinetic energy, gravity.", valueName: "FILE"), completion: .file())
    var stats: String?

    @Option(help: ArgumentHelp("Write every contact event to FILE (.csv, .jsonl or .npy): pairs that begin or stop touching, sensors entered and left, each with its step, the two bodies (or a body and a wall), point, normal and first impulse.", valueName: "FILE"), completion: .file())
    var events: String?

    @Option(help: ArgumentHelp("With --events: csv or jsonl, for a name without either extension (a device, a pipe).", valueName: "csv|jsonl|npy"))
    var eventsFormat: DataFormat?

    /// The files these options write, for `OutputChecks`: each table, and the metadata beside a
    /// JSON Lines or .npy one.
    var outputs: [(option: String, path: String)] {
        [("--trace", trace, traceFormat), ("--stats", stats, nil), ("--events", events, eventsFormat)].flatMap { option, path, format in
            path.map { DataOutputSettings.files(option: option, path: $0, format: format) } ?? []
        }
    }

    var settings: DataOutputSettings {
        DataOutputSettings(tracePath: trace, traceFormat: traceFormat, traceEvery: traceEvery, statsPath: stats, eventsPath: events,
                           eventsFormat: eventsFormat)
    }

    func validate() throws {
        if let trace, traceFormat == nil, DataFormat(path: trace) == nil {
            throw ValidationError("--trace \(trace): a trace is written as .csv, .jsonl or .npy; name the file so, or give --trace-format")
        }
        if traceFormat != nil, trace == nil { throw ValidationError("--trace-format needs --trace") }
        if let stats, DataFormat(path: stats) != .jsonl {
            throw ValidationError("--stats \(stats): per-step statistics are written as JSON Lines; name the file .jsonl")
        }
        if let traceEvery {
            if trace == nil { throw ValidationError("--trace-every needs --trace") }
            if traceEvery < 1 { throw ValidationError("--trace-every must be >= 1, got \(traceEvery)") }
        }
        if let events, eventsFormat == nil, DataFormat(path: events) == nil {
            throw ValidationError("--events \(events): contact events are written as .csv, .jsonl or .npy; name the file so, or give --events-format")
        }
        if eventsFormat != nil, events == nil { throw ValidationError("--events-format needs --events") }
        let named = [("--trace", trace), ("--stats", stats), ("--events", events)].compactMap { option, path in path.map { (option, $0) } }
        for (i, first) in named.enumerated() {
            for second in named[(i + 1)...] where first.1 == second.1 {
                throw ValidationError("\(first.0) and \(second.0) name the same file, \(first.1)")
            }
        }
    }
}
