import SceneModel

extension Scene {
    /// The crates the scene gives a colour of their own, by the ids `world` gave them (a world
    /// built from this scene adds its crates in `allCrates()` order).
    public func crateColors(in world: World) -> [BodyID: RGB] {
        var colors: [BodyID: RGB] = [:]
        for (spec, crate) in zip(allCrates(), world.crates) {
            if let color = spec.color, let id = crate.id { colors[id] = color }
        }
        return colors
    }
}
