import SceneFile
import Bench
import Foundation

/// The bench's table and JSON.
struct BenchReport {
    var settings: BenchSettings
    var results: [SceneBenchmark]
    var peakMemoryMiB: Double

    static var buildKind: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    static func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

    static func spread(_ spread: Spread, _ digits: Int) -> String {
        "\(fixed(spread.median, digits)) (\(fixed(spread.min, digits))–\(fixed(spread.max, digits)))"
    }

    func table() -> String {
        let header = ["scene", "crates", "steps/s", "µs/step CrateDrop", "µs/step C", "ratio", "ratio+snap", "snapshot",
                      "hash", "draw ms", "file write ms", "stream MB/s"]
        var rows = [header]
        for r in results {
            rows.append([r.scene, String(r.crates), Self.fixed(r.stepsPerSecond, 0), Self.spread(r.swiftStep, 1),
                         Self.spread(r.cStep, 1), Self.fixed(r.ratioStepOnly, 3), Self.fixed(r.ratioWithSnapshot, 3),
                         Self.fixed(r.snapshotShare * 100, 2) + "%", r.hashesMatch ? "same" : "DIFFERENT",
                         Self.spread(r.draw, 2), Self.spread(r.fileWrite, 2), Self.fixed(r.streamThroughput.median, 0)])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max()! }
        let lines = rows.map { row in
            row.indices.map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
        }
        return """
            CrateDrop bench (\(Self.buildKind) build, \(ProcessInfo.processInfo.activeProcessorCount) cores): medians (min–max) \
            over \(settings.repetitions) repetitions after \(settings.warmupSteps) warm-up steps; frames \(settings.renderWidth)x\(settings.renderHeight)
            \(lines.joined(separator: "\n"))
            ratio: CrateDrop step / C step; ratio+snap: (step + snapshot copy) / C step; snapshot: copy / step
            peak memory: \(Self.fixed(peakMemoryMiB, 1)) MiB
            """
    }

    func json() -> String {
        func spread(_ s: Spread) -> String { "{\"median\":\(s.median),\"min\":\(s.min),\"max\":\(s.max)}" }
        let scenes = results.map { r in
            "{\"scene\":\(JSONText.string(r.scene)),\"crates\":\(r.crates),\"steps_per_repetition\":\(r.stepsPerRepetition),"
                + "\"steps_per_second\":\(r.stepsPerSecond),\"swift_us_per_step\":\(spread(r.swiftStep)),"
                + "\"c_us_per_step\":\(spread(r.cStep)),\"snapshot_us\":\(spread(r.snapshot)),"
                + "\"ratio\":\(r.ratioStepOnly),\"ratio_with_snapshot\":\(r.ratioWithSnapshot),\"snapshot_share\":\(r.snapshotShare),"
                + "\"swift_hash\":\"\(r.swiftHash)\",\"c_hash\":\"\(r.cHash)\",\"hashes_match\":\(r.hashesMatch),"
                + "\"draw_ms\":\(spread(r.draw)),\"file_write_ms\":\(spread(r.fileWrite)),\"stream_mb_per_s\":\(spread(r.streamThroughput))}"
        }
        return "{\"build\":\"\(Self.buildKind)\",\"repetitions\":\(settings.repetitions),\"warmup_steps\":\(settings.warmupSteps),"
            + "\"frame_size\":\"\(settings.renderWidth)x\(settings.renderHeight)\",\"scenes\":[\(scenes.joined(separator: ","))],"
            + "\"peak_memory_mib\":\(peakMemoryMiB)}"
    }
}
