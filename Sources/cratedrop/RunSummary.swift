import Driver

/// The one-line JSON summary `cratedrop run` prints. Field meanings are in the README.
enum RunSummary {
    static func json(scene: String, mode: String, fps: Int, interpolation: Bool, result: RunResult, interrupted: String?) -> String {
        let c = result.counters
        func micro(_ nanoseconds: Int64) -> String { String(Double(nanoseconds) / 1000) }
        var fields: [(String, String)] = [
            ("scene", quoted(scene)),
            ("mode", quoted(mode)),
            ("fps", String(fps)),
            ("step_rate", String(result.stepRate)),
            ("interpolation", String(interpolation)),
            ("frames", String(c.frames)),
            ("steps", String(c.stepsTaken)),
            ("simulated_seconds", String(result.simulatedSeconds)),
            ("dropped_steps", String(c.droppedSteps)),
            ("dropped_seconds", String(result.droppedSeconds)),
            ("debt_steps", String(c.debtSteps)),
            ("frames_capped", String(c.framesCapped)),
            ("running_slowly", String(c.runningSlowly)),
            ("ran_slowly", String(c.everRanSlowly)),
            ("peak_physics_load", String(c.peakLoad)),
            ("load_warning", String(c.loadWarning != nil)),
            ("step_time_us", "{\"p50\":\(micro(result.stepTimes.percentile(0.5))),\"p99\":\(micro(result.stepTimes.percentile(0.99))),\"max\":\(micro(result.stepTimes.max))}"),
            ("frame_interval_us", "{\"p50\":\(micro(result.frameIntervals.percentile(0.5))),\"p99\":\(micro(result.frameIntervals.percentile(0.99))),\"max\":\(micro(result.frameIntervals.max))}"),
            ("wall_seconds", String(Double(result.wallNanoseconds) / 1e9)),
            ("state_hash", quoted(result.stateHash.description)),
        ]
        fields.append(("interrupted", interrupted.map(quoted) ?? "null"))
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

private extension String {
    init(format value: UInt32) {
        let hex = String(value, radix: 16)
        self = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
