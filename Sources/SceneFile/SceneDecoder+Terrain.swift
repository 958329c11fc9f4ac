import Physics
import SceneModel

/// A `walls` entry as read: one wall, or the segment walls a picture became (with its bytes' digest).
struct WallEntry {
    var walls: [WallSpec]
    var digest: UInt64?
    /// Whether the walls are an outline's convex pieces.
    var outline = false
}

extension SceneDecoder {
    /// A `walls` entry: a picture when it has an `image` key, an outline's convex walls when it is
    /// written `"shape": "outline"`, else one segment or polygon wall.
    mutating func wallEntry(_ value: JSONValue, path: String) -> WallEntry? {
        if case let .object(members) = value.kind, members.contains(where: { $0.key == "image" }) {
            return terrainWalls(value, path: path)
        }
        if case let .object(members) = value.kind,
           writesOutline(Fields(members: members, path: path, line: value.line)) { return outlineWalls(value, path: path) }
        return wall(value, path: path).map { WallEntry(walls: [$0], digest: nil) }
    }

    /// A picture's walls: the entry's keys read and checked, then the PNG read (beside the scene
    /// file), decoded, traced (`TerrainTracer`) and made into segment walls. Every failure is
    /// reported at `path.image`; nothing unchecked reaches Chipmunk.
    private mutating func terrainWalls(_ value: JSONValue, path: String) -> WallEntry? {
        guard let fields = object(value, path: path) else { return nil }
        let image = string(fields, "image")
        let threshold = member(fields, "threshold").map { number($0, path: fields.childPath("threshold")) } ?? TerrainLimits.defaultThreshold
        let scale = member(fields, "scale").map { number($0, path: fields.childPath("scale")) } ?? 1
        let origin: Vec2?
        if fields.has("origin") {
            origin = vector(fields, "origin")
        } else {
            _ = member(fields, "origin")
            origin = .zero
        }
        let tolerance = member(fields, "tolerance").map { number($0, path: fields.childPath("tolerance")) } ?? TerrainLimits.defaultTolerance
        let channel = terrainChannel(fields)
        let radius = number(fields, "radius", required: true)
        let (friction, elasticity) = surface(fields)
        let collision = collisionSettings(fields)
        let color = color(fields, "color")
        finish(fields)
        guard let image, let threshold, let scale, let origin, let tolerance, let channel, let radius, let friction, let elasticity,
              let collision else { return nil }
        let spec = TerrainWallSpec(image: image, threshold: threshold, scale: scale, origin: origin, tolerance: tolerance, channel: channel,
                                   radius: radius, friction: friction, elasticity: elasticity, collision: collision, color: color)
        let problems = spec.problems()
        for problem in problems { reportRange("\(path).\(problem.field)", problem.message) }
        guard problems.isEmpty else { return nil }
        return trace(spec, path: "\(path).image")
    }

    private mutating func trace(_ spec: TerrainWallSpec, path: String) -> WallEntry? {
        let picture = ScenePaths.resolve(spec.image, besideScene: sceneFolderFile)
        let bytes: [UInt8]
        switch TerrainPicture.fileBytes(path: picture) {
        case let .success(read): bytes = read
        case let .failure(error):
            let place = lineOf(path).map { "\(self.file):\($0): \(path)" } ?? "\(self.file): \(path)"
            if unreadableImage == nil { unreadableImage = (place, "\(TerminalText.escaped(picture)): \(error.description)") }
            return nil
        }
        var digest = FNV1a64()
        for byte in bytes { digest.combine(byte: byte) }
        let samples: TerrainSamples
        switch TerrainPicture.samples(png: bytes, channel: spec.channel) {
        case let .success(decoded): samples = decoded
        case let .failure(error):
            reportRange(path, "\(TerminalText.escaped(picture)): \(error)")
            return nil
        }
        switch TerrainTracer.trace(samples, threshold: spec.threshold, tolerance: spec.tolerance) {
        case .tooManySegments:
            reportRange(path, "\(TerminalText.escaped(picture)): its outline is too detailed: tracing it at threshold \(spec.threshold) "
                + "gives more than \(TerrainLimits.maxContourSegments) segments before simplification (a noisy picture?)")
            return nil
        case .tooManyOutlines:
            reportRange(path, "\(TerminalText.escaped(picture)): yields too many walls: more than \(TerrainLimits.maxOutlines) separate "
                + "outlines at threshold \(spec.threshold), each at least two walls, past the world's limit of \(Limits.walls.upperBound) walls")
            return nil
        case let .polylines(polylines):
            let walls = spec.walls(along: polylines)
            guard !walls.isEmpty else {
                reportRange(path, "\(TerminalText.escaped(picture)): yields no walls: no pixel's \(spec.channel.rawValue) solidity is above "
                    + "threshold \(spec.threshold) (\(spec.channel == .luminance ? "dark pixels are solid" : "opaque pixels are solid"))")
                return nil
            }
            if let bad = walls.lazy.compactMap({ $0.problems().first }).first {
                reportRange(path, "\(TerminalText.escaped(picture)): a traced wall is out of range: \(bad) (check scale and origin)")
                return nil
            }
            return WallEntry(walls: walls, digest: digest.value)
        }
    }

    /// Pictures' walls count towards the world's limit (`Limits.walls`, the bounds' four among
    /// them): the first picture that passes it is named, with the count.
    mutating func checkTerrainWallCount(entries: [WallEntry?], bounds: Bool) {
        var count = bounds ? 4 : 0
        for (index, entry) in entries.enumerated() {
            count += entry?.walls.count ?? 1
            if let entry, entry.digest != nil, count > Limits.walls.upperBound {
                reportRange("walls[\(index)].image", "yields too many walls: \(entry.walls.count) segment walls, which bring the scene to "
                    + "\(count) walls, more than the world's limit of \(Limits.walls.upperBound) (raise tolerance or scale the picture down)")
                return
            }
            if let entry, entry.outline, count > Limits.walls.upperBound {
                reportRange("walls[\(index)].vertices", "yields too many walls: \(entry.walls.count) convex walls, which bring the scene "
                    + "to \(count) walls, more than the world's limit of \(Limits.walls.upperBound)")
                return
            }
        }
    }

    /// A picture's `channel`: `"luminance"` (the default) or `"alpha"`.
    private mutating func terrainChannel(_ fields: Fields) -> TerrainChannel? {
        guard fields.has("channel") else {
            _ = member(fields, "channel")
            return .luminance
        }
        guard let text = string(fields, "channel") else { return nil }
        guard let channel = TerrainChannel(rawValue: text) else {
            let names = TerrainChannel.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            report(fields.childPath("channel"), "must be one of \(names), got \"\(TerminalText.escaped(text))\"")
            return nil
        }
        return channel
    }
}

/// Paths a scene file names (its pictures): relative ones are read beside the scene file.
package enum ScenePaths {
    /// `path` as read from the scene file `scene`'s folder; an absolute path stays as it is.
    package static func resolve(_ path: String, besideScene scene: String) -> String {
        guard !path.startsWithBytes(of: "/"), let slash = scene.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(decoding: scene.utf8[...slash], as: UTF8.self) + path
    }

    /// The terrain pictures a scene file's text names (its walls' `image` values, as written), for
    /// a program that hands the files to the wasm core; none if the text is not a scene.
    package static func pictures(inScene text: [UInt8]) -> [String] {
        guard let scene = try? JSONParser.parse(text), case let .object(fields) = scene.kind,
              let walls = fields.first(where: { $0.key == "walls" }), case let .array(entries) = walls.value.kind else { return [] }
        return entries.compactMap { entry in
            guard case let .object(wall) = entry.kind, let image = wall.first(where: { $0.key == "image" }),
                  case let .string(path) = image.value.kind else { return nil }
            return path
        }
    }
}
