import SceneFile
/// The text formats of `--trace` and `--stats`, picked by the file's extension.
public enum DataFormat: String, Sendable, CaseIterable {
    /// Comma-separated values: a `#` comment line naming the run, then a header row.
    case csv
    /// JSON Lines: one object per row, nothing else (what names the run is in `NAME.meta.json`).
    case jsonl
    /// A NumPy structured array (`NumPyTable`), for a regular file; its run in `NAME.meta.json` too.
    case npy

    /// The format for `path`'s extension (case-insensitive), if it names one.
    public init?(path: String) {
        guard let suffix = OutputPath.lowercasedExtension(path) else { return nil }
        self.init(rawValue: suffix)
    }
}

/// What a data file says about the run it came from (a CSV's first line, a JSON Lines file's metadata).
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
}
