import SceneFile
/// The text formats of `--trace` and `--stats`, picked by the file's extension.
public enum DataFormat: String, Sendable, CaseIterable {
    /// Comma-separated values: a `#` comment line naming the run, then a header row.
    case csv
    /// JSON Lines: a first object naming the run, then one object per row.
    case jsonl

    /// The format for `path`'s extension (case-insensitive), if it names one.
    public init?(path: String) {
        guard let suffix = OutputPath.lowercasedExtension(path) else { return nil }
        self.init(rawValue: suffix)
    }
}

/// What a data file says about the run it came from (its first line).
public struct RunIdentity: Sendable, Equatable {
    public var scene: String
    public var stepRate: Int
    /// `cratedrop platform`'s class id of the machine and library that ran it.
    public var determinismClass: String

    public init(scene: String, stepRate: Int, determinismClass: String) {
        self.scene = scene
        self.stepRate = stepRate
        self.determinismClass = determinismClass
    }

    /// The first line of a JSON Lines data file: `{"KIND":"cratedrop","scene":…,"step_rate":…,"determinism_class":…}`.
    func jsonHeader(kind: String) -> String {
        let header: JSONOutput = [kind: "cratedrop", "scene": .string(scene), "step_rate": .integer(stepRate),
                                  "determinism_class": .string(determinismClass)]
        return header.text + "\n"
    }
}
