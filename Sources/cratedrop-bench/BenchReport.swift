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

    /// The report as one line of JSON (`--json`), keys in the order the README lists them.
    func json() -> String { (try? OrderedJSONEncoder().encode(JSONForm(self))) ?? "{}" }

    /// The JSON shape of the report.
    private struct JSONForm: Encodable {
        struct SpreadForm: Encodable {
            var median, min, max: Double
            init(_ spread: Spread) { (median, min, max) = (spread.median, spread.min, spread.max) }
        }

        struct SceneForm: Encodable {
            var scene: String
            var crates, stepsPerRepetition: Int
            var stepsPerSecond: Double
            var swiftUsPerStep, cUsPerStep, snapshotUs: SpreadForm
            var ratio, ratioWithSnapshot, snapshotShare: Double
            var swiftHash, cHash: String
            var hashesMatch: Bool
            var drawMs, fileWriteMs, streamMbPerS: SpreadForm

            enum CodingKeys: String, CodingKey {
                case scene, crates, stepsPerRepetition = "steps_per_repetition", stepsPerSecond = "steps_per_second"
                case swiftUsPerStep = "swift_us_per_step", cUsPerStep = "c_us_per_step", snapshotUs = "snapshot_us", ratio
                case ratioWithSnapshot = "ratio_with_snapshot", snapshotShare = "snapshot_share", swiftHash = "swift_hash"
                case cHash = "c_hash", hashesMatch = "hashes_match", drawMs = "draw_ms", fileWriteMs = "file_write_ms"
                case streamMbPerS = "stream_mb_per_s"
            }

            init(_ r: SceneBenchmark) {
                scene = r.scene
                crates = r.crates
                stepsPerRepetition = r.stepsPerRepetition
                stepsPerSecond = r.stepsPerSecond
                swiftUsPerStep = SpreadForm(r.swiftStep)
                cUsPerStep = SpreadForm(r.cStep)
                snapshotUs = SpreadForm(r.snapshot)
                ratio = r.ratioStepOnly
                ratioWithSnapshot = r.ratioWithSnapshot
                snapshotShare = r.snapshotShare
                swiftHash = r.swiftHash.description
                cHash = r.cHash.description
                hashesMatch = r.hashesMatch
                drawMs = SpreadForm(r.draw)
                fileWriteMs = SpreadForm(r.fileWrite)
                streamMbPerS = SpreadForm(r.streamThroughput)
            }
        }

        var build: String
        var repetitions, warmupSteps: Int
        var frameSize: String
        var scenes: [SceneForm]
        var peakMemoryMib: Double

        enum CodingKeys: String, CodingKey {
            case build, repetitions, warmupSteps = "warmup_steps", frameSize = "frame_size", scenes, peakMemoryMib = "peak_memory_mib"
        }

        init(_ report: BenchReport) {
            build = BenchReport.buildKind
            repetitions = report.settings.repetitions
            warmupSteps = report.settings.warmupSteps
            frameSize = "\(report.settings.renderWidth)x\(report.settings.renderHeight)"
            scenes = report.results.map(SceneForm.init)
            peakMemoryMib = report.peakMemoryMiB
        }
    }
}
