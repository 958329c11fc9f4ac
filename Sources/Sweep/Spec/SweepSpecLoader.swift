import FileIO
import Physics
import SceneFile
import SceneModel
import Script

/// Reads sweep spec files: strict JSON, every key known, every value checked, every problem
/// reported as `FILE:LINE: PATH: MESSAGE`; reads the scene, saved state and gravity scripts it
/// names (paths relative to the spec's folder) and checks each axis value against the scene.
public enum SweepSpecLoader {
    /// Spec files and gravity scripts larger than this are refused before parsing.
    public static let maxFileSize = 16 << 20
    /// Most samples one sweep may hold (folder names have at most 9 digits).
    public static let maxSamples = 1_000_000_000

    /// The keys each part of a spec allows (the JSON Schema lists the same; a test compares).
    public static let topKeys = ["$schema", "scene", "start_state", "seconds", "steps", "axes", "sample", "outputs"]
    public static let axisKeys = ["field", "values", "range", "spaced", "between"]
    public static let rangeKeys = ["from", "to", "step"]
    public static let spacedKeys = ["from", "to", "count"]
    public static let sampleKeys = ["kind", "count", "seed"]
    public static let outputKeys = ["hash_every", "trace", "trace_every", "events", "stats", "record", "save_state", "image", "frames"]
    public static let frameKeys = ["format", "fps", "size", "masks"]

    /// Reads and checks the spec at `path`.
    public static func load(path: String) throws(SweepSpecError) -> SweepSpec {
        let bytes = try read(path, limit: maxFileSize)
        return try parse(bytes, file: path)
    }

    /// Parses `bytes` as the spec file `file`; relative paths in it are resolved beside `file`.
    public static func parse(_ bytes: [UInt8], file: String) throws(SweepSpecError) -> SweepSpec {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw .invalid([SceneDiagnostic(file: file, line: error.line, path: "", message: "column \(error.column): invalid JSON: \(error.message)")])
        }
        var reader = SpecReader(file: file)
        var fingerprint = FNV1a64()
        fingerprint.combine(bytes: bytes)
        guard let fields = reader.object(root, path: "") else { throw .invalid(reader.problems) }
        reader.onlyKeys(fields, topKeys)
        if let schema = fields.value("$schema") { _ = reader.string(schema, path: "$schema") }

        let base = try readBase(fields, file: file, reader: &reader, fingerprint: &fingerprint)
        let length = readLength(fields, reader: &reader)
        let sampling = fields.value("sample").flatMap { readSampling($0, reader: &reader) } ?? .grid
        var outputs = fields.value("outputs").flatMap { readOutputs($0, reader: &reader) } ?? SampleOutputs()
        // A frame rate the base scene's step rate refuses is reported at its line (each sample's
        // own rate, which an axis may change, is checked again by `SweepSpec.inputs(for:)`).
        if let stepRate = base?.scene.stepRate, let problem = outputs.frames?.rateProblem(stepRate: stepRate),
           let fps = fields.value("outputs").flatMap(Self.framesFPSValue) {
            reader.report("outputs.frames.fps", line: fps.line, problem)
        }
        var scripts: [String: [UInt8]] = [:]
        var axes: [SweepAxis] = []
        if let value = fields.value("axes"), let elements = reader.array(value, path: "axes") {
            for (index, element) in elements.enumerated() {
                if let axis = try readAxis(element, path: "axes[\(index)]", base: base, branches: fields.value("start_state") != nil, sampling: sampling, file: file,
                                           reader: &reader, scripts: &scripts, fingerprint: &fingerprint) {
                    // Two axes on one field (or on a field and a part of it) would both write it
                    // into every sample's scene and done marker; the reader refuses the duplicate key.
                    if let earlier = axes.first(where: { $0.field.overlaps(axis.field) }) {
                        reader.report("\(axis.path).field", line: axis.line,
                                      "\(axis.field) is already varied by \(earlier.path) (\(earlier.field)): one axis a field")
                        continue
                    }
                    axes.append(axis)
                }
            }
        }
        // A counterfactual's removal or add is a structural change, which saved states hold and
        // records carry as its input line, and a velocity is a body's input line; a position set
        // has no input line, so a record would replay without it.
        if let axis = axes.first(where: { $0.field == .counterfactual }), outputs.record,
           case let .values(values) = axis.domain, values.contains(where: { Counterfactual.setsPosition($0) }) {
            reader.report("outputs.record", line: fields.value("outputs")?.line ?? 1,
                          "\(axis.path) sets a body's position, which no input line says, so a run record would replay without it: drop record, or the position change")
        }
        if let base, case .state = base {
            if outputs.record {
                reader.report("outputs.record", line: fields.value("outputs")?.line ?? 1,
                              "a run record starts from a scene, and this sweep starts from a saved state: drop record, or save states with save_state")
                outputs.record = false
            }
        }
        let count = sampleCount(axes: axes, sampling: sampling, fields: fields, reader: &reader)
        guard let base, let length, reader.problems.isEmpty, let count else { throw .invalid(reader.problems) }
        if outputs.saveState, !World.canSaveState {
            throw .unavailable(file: file, line: fields.value("outputs")?.line ?? 1, path: "outputs.save_state",
                               reason: StateError.unsupportedBackend.description)
        }
        return SweepSpec(file: file, base: base, length: length, axes: axes, sampling: sampling, outputs: outputs,
                         scripts: scripts, sampleCount: count, fingerprint: StateHash(value: fingerprint.value).description)
    }

    /// `relative` resolved beside the spec file `file` (absolute paths stay as they are).
    public static func resolve(_ relative: String, besideSpec file: String) -> String {
        guard !relative.hasPrefix("/"), let slash = file.lastIndex(of: "/") else { return relative }
        return String(file[...slash]) + relative
    }

    static func read(_ path: String, limit: Int) throws(SweepSpecError) -> [UInt8] {
        do {
            return try FileBytes.read(path: path, limit: limit)
        } catch {
            throw .unreadable(file: path, reason: error.description)
        }
    }

    // MARK: Parts

    private static func readBase(_ fields: SpecReader.Fields, file: String, reader: inout SpecReader,
                                 fingerprint: inout FNV1a64) throws(SweepSpecError) -> SweepSpec.Base? {
        let sceneValue = fields.value("scene"), stateValue = fields.value("start_state")
        switch (sceneValue, stateValue) {
        case (nil, nil):
            reader.report("scene", line: fields.line, "is missing (give the scene file, or start_state to branch from a saved state)")
            return nil
        case (_?, _?):
            reader.report("start_state", line: stateValue!.line, "give scene or start_state, not both (a saved state brings its own scene)")
            return nil
        case let (scene?, nil):
            guard let relative = reader.string(scene, path: "scene") else { return nil }
            let path = resolve(relative, besideSpec: file)
            let text = try read(path, limit: SceneLoader.maxFileSize)
            fingerprint.combine(bytes: text)
            let scene: Scene
            do {
                scene = try SceneLoader.parse(text, file: path)
            } catch {
                if case let .invalid(problems) = error { throw .invalid(problems) }
                throw .unreadable(file: path, reason: error.description)
            }
            guard let document = try? JSONParser.parse(text) else { return nil }
            return .scene(path: path, text: text, document: document, scene: scene)
        case let (nil, state?):
            guard let relative = reader.string(state, path: "start_state") else { return nil }
            if !World.canSaveState {
                throw .unavailable(file: file, line: state.line, path: "start_state", reason: StateError.unsupportedBackend.description)
            }
            let path = resolve(relative, besideSpec: file)
            let bytes = try read(path, limit: SavedStateFile.maxFileSize)
            fingerprint.combine(bytes: bytes)
            let saved: SavedStateFile
            do {
                saved = try SavedStateFile.parse(bytes)
            } catch {
                reader.report("start_state", line: state.line, "\(path): \(error)")
                return nil
            }
            let scene: CheckedScene
            do {
                scene = try SceneLoader.parseChecked(saved.sceneText, file: "\(path): embedded scene \(saved.sceneFile)", imagesBeside: saved.sceneFile)
            } catch {
                reader.report("start_state", line: state.line, "\(error)")
                return nil
            }
            return .state(path: path, file: saved, bytes: bytes, scene: scene)
        }
    }

    private static func readLength(_ fields: SpecReader.Fields, reader: inout SpecReader) -> SweepSpec.Length? {
        switch (fields.value("seconds"), fields.value("steps")) {
        case (nil, nil):
            return .seconds(DecimalSeconds("10")!)
        case (_?, let steps?):
            reader.report("steps", line: steps.line, "give seconds or steps, not both")
            return nil
        case let (seconds?, nil):
            return Self.seconds(seconds, path: "seconds", reader: &reader).map { SweepSpec.Length.seconds($0) }
        case let (nil, steps?):
            return reader.integer(steps, path: "steps", in: 0...Int64(Int32.max)).map { .steps(Int($0)) }
        }
    }

    /// Decimal seconds from a number's literal (`2.5`), exact.
    static func seconds(_ value: JSONValue, path: String, reader: inout SpecReader) -> DecimalSeconds? {
        guard case let .number(_, literal) = value.kind, let seconds = DecimalSeconds(literal) else {
            reader.report(path, line: value.line, "must be a decimal number of seconds such as 10 or 2.5 (at most 9 decimals, at most 1000000000), got \(value.typeName == "a number" ? JSONOutput(value).spacedText : value.typeName)")
            return nil
        }
        return seconds
    }

    private static func readSampling(_ value: JSONValue, reader: inout SpecReader) -> SweepSpec.Sampling? {
        guard let fields = reader.object(value, path: "sample") else { return nil }
        reader.onlyKeys(fields, sampleKeys)
        guard let kindValue = reader.required(fields, "kind"), let kind = reader.string(kindValue, path: "sample.kind") else { return nil }
        switch kind {
        case "grid":
            for key in ["count", "seed"] {
                if let extra = fields.value(key) { reader.report("sample.\(key)", line: extra.line, "a grid takes every combination: \(key) is for kind \"random\"") }
            }
            return .grid
        case "random":
            let count = reader.required(fields, "count").flatMap { reader.integer($0, path: "sample.count", in: 1...Int64(maxSamples)) }
            let seed = reader.required(fields, "seed").flatMap { reader.unsigned($0, path: "sample.seed") }
            guard let count, let seed else { return nil }
            return .random(count: Int(count), seed: seed)
        default:
            reader.report("sample.kind", line: kindValue.line, "must be one of \"grid\", \"random\", got \(JSONOutput.string(kind).text)")
            return nil
        }
    }

    private static func readOutputs(_ value: JSONValue, reader: inout SpecReader) -> SampleOutputs? {
        guard let fields = reader.object(value, path: "outputs") else { return nil }
        reader.onlyKeys(fields, outputKeys)
        var outputs = SampleOutputs()
        if let every = fields.value("hash_every") { outputs.hashEvery = reader.integer(every, path: "outputs.hash_every", in: 1...Int64(Int32.max)).map(Int.init) }
        for (key, set) in [("trace", \SampleOutputs.trace), ("events", \.events)] as [(String, WritableKeyPath<SampleOutputs, SampleOutputs.TraceKind?>)] {
            guard let value = fields.value(key), let text = reader.string(value, path: "outputs.\(key)") else { continue }
            outputs[keyPath: set] = SampleOutputs.TraceKind(rawValue: text)
            if outputs[keyPath: set] == nil { reader.report("outputs.\(key)", line: value.line, "must be one of \"csv\", \"jsonl\", \"npy\", got \(JSONOutput.string(text).text)") }
        }
        if let every = fields.value("trace_every") {
            outputs.traceEvery = reader.integer(every, path: "outputs.trace_every", in: 1...Int64(Int32.max)).map(Int.init)
            if fields.value("trace") == nil { reader.report("outputs.trace_every", line: every.line, "needs trace (\"csv\" or \"jsonl\")") }
        }
        for (key, set) in [("stats", \SampleOutputs.stats), ("record", \.record), ("save_state", \.saveState), ("image", \.image)] as [(String, WritableKeyPath<SampleOutputs, Bool>)] {
            if let flag = fields.value(key) { outputs[keyPath: set] = reader.bool(flag, path: "outputs.\(key)") ?? false }
        }
        if let value = fields.value("frames") {
            outputs.frames = readFrames(value, reader: &reader)
            if outputs.image {
                reader.report("outputs.image", line: fields.value("image")?.line ?? value.line,
                              "the frames end with the last frame: drop image, or frames")
            }
        }
        return outputs
    }

    /// `outputs.frames.fps` as written, for its line.
    private static func framesFPSValue(_ outputs: JSONValue) -> JSONValue? {
        guard case let .object(members) = outputs.kind, case let .object(frames)? = members.first(where: { $0.key == "frames" })?.value.kind else { return nil }
        return frames.first { $0.key == "fps" }?.value
    }

    /// `outputs.frames`; the frame rate is checked against each sample's step rate by `SweepSpec.inputs(for:)`.
    private static func readFrames(_ value: JSONValue, reader: inout SpecReader) -> SampleFrames? {
        guard let fields = reader.object(value, path: "outputs.frames") else { return nil }
        reader.onlyKeys(fields, frameKeys)
        var frames = SampleFrames()
        if let value = fields.value("format"), let text = reader.string(value, path: "outputs.frames.format") {
            if let format = SampleFrames.Format(rawValue: text) {
                frames.format = format
            } else {
                let names = SampleFrames.Format.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                reader.report("outputs.frames.format", line: value.line, "must be one of \(names), got \(JSONOutput.string(text).text)")
            }
        }
        if let value = fields.value("fps") {
            frames.fps = reader.integer(value, path: "outputs.frames.fps", in: 1...Int64(Limits.stepRate.upperBound)).map(Int.init) ?? frames.fps
        }
        if let value = fields.value("size"), let sides = reader.array(value, path: "outputs.frames.size") {
            if sides.count != 2 {
                reader.report("outputs.frames.size", line: value.line, "must be [width, height] in pixels, got \(sides.count) numbers")
            } else {
                let side = Int64(Limits.imageSide.lowerBound)...Int64(Limits.imageSide.upperBound)
                let width = reader.integer(sides[0], path: "outputs.frames.size[0]", in: side)
                let height = reader.integer(sides[1], path: "outputs.frames.size[1]", in: side)
                if let width, let height { frames.size = (Int(width), Int(height)) }
            }
        }
        if let value = fields.value("masks") { frames.masks = reader.bool(value, path: "outputs.frames.masks") ?? false }
        return frames
    }

    private static func sampleCount(axes: [SweepAxis], sampling: SweepSpec.Sampling, fields: SpecReader.Fields,
                                    reader: inout SpecReader) -> Int? {
        if case let .random(count, _) = sampling { return count }
        var total = 1
        for axis in axes {
            guard let count = axis.gridCount else { return nil }
            let (product, overflow) = total.multipliedReportingOverflow(by: count)
            guard !overflow, product <= maxSamples else {
                reader.report("axes", line: fields.value("axes")?.line ?? fields.line,
                              "the grid holds more than \(maxSamples) samples: use fewer values, or a random sample")
                return nil
            }
            total = product
        }
        return total
    }
}

extension FNV1a64 {
    mutating func combine(bytes: [UInt8]) {
        for byte in bytes { combine(byte: byte) }
    }
}
