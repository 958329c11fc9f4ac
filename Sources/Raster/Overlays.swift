import SceneModel

/// Debug drawing over frames (`run --overlay`), after the debug draw of Chipmunk's demos and
/// Box2D's samples.
public struct Overlays: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Each crate's axis-aligned bounding box.
    public static let aabb = Overlays(rawValue: 1 << 0)
    /// Contact points and their normals (needs snapshots that carry contacts).
    public static let contacts = Overlays(rawValue: 1 << 1)
    /// Sleeping crates drawn grey.
    public static let sleeping = Overlays(rawValue: 1 << 2)
    /// Each crate's id at its centre.
    public static let ids = Overlays(rawValue: 1 << 3)
    /// A world grid every 50 px, under everything.
    public static let grid = Overlays(rawValue: 1 << 4)

    /// The names `--overlay` takes, in drawing order.
    public static let named: [(name: String, overlay: Overlays)] = [
        ("grid", .grid), ("sleeping", .sleeping), ("aabb", .aabb), ("contacts", .contacts), ("ids", .ids),
    ]

    /// Parses a comma-separated list such as `aabb,contacts`; nil names the first unknown entry.
    public static func parse(_ list: String) -> Result<Overlays, UnknownOverlay> {
        var overlays: Overlays = []
        for entry in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let found = named.first(where: { $0.name == entry }) else { return .failure(UnknownOverlay(name: String(entry))) }
            overlays.insert(found.overlay)
        }
        return .success(overlays)
    }

    public struct UnknownOverlay: Error, Sendable, CustomStringConvertible {
        public var name: String
        public var description: String {
            "unknown overlay '\(name)' (known: \(Overlays.named.map { $0.name }.joined(separator: ", ")))"
        }
    }

    /// World pixels between grid lines.
    static let gridSpacing = 50.0
    static let gridColor = RGB(0xd9, 0xd2, 0xc6)
    static let aabbColor = RGB(0xe0, 0x30, 0x30)
    static let contactColor = RGB(0x10, 0x60, 0xf0)
    static let sleepingColor = RGB(0x9a, 0x9a, 0x9a)
    static let idColor = RGB(0x10, 0x10, 0x10)
    /// Joints are always drawn (not an overlay), in these.
    static let jointColor = RGB(0x2b, 0x2b, 0x33)
    static let springColor = RGB(0x2f, 0x6f, 0xb0)
}
