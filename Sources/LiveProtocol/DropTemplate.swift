import SceneModel

/// The crate a click on empty space drops (docs/serve.md, "Changing the world"): a square box of
/// the scene's typical size, density and material, in the scene's palette. Typical is the median
/// over the scene's dynamic bodies: the side of the square of each one's bounding box's area
/// (a 32 px box on book, 15 px on the piles), its mass over that area, its friction and
/// elasticity. A scene with no dynamic body drops a 30 px box of density 0.01 (the shipped pile
/// generators') and the standard surface.
package struct DropTemplate: Sendable, Equatable {
    /// The box's side, px: within 2 px and a quarter of the world's smaller side.
    package var side: Double
    /// Mass, within `Limits.mass`.
    package var mass: Double
    package var friction: Double
    package var elasticity: Double
    /// Dealt out in turn, one a drop (the generator's palette); empty: none, so the scene's crate colour.
    package var colors: [RGB]

    package init(scene: Scene) {
        let dynamic = scene.allCrates().filter { $0.bodyType == .dynamic }
        func median(_ values: [Double]) -> Double? {
            let finite = values.filter { $0.isFinite }.sorted()
            return finite.isEmpty ? nil : finite[finite.count / 2]
        }
        let areas = dynamic.map { $0.size.x * $0.size.y }
        let side = median(areas.map { $0.squareRoot() }) ?? 30
        let density = median(zip(dynamic, areas).map { $0.mass / $1 }) ?? 0.01
        let largest = min(scene.worldSize.x, scene.worldSize.y) / 4
        self.side = min(max(side, 2), max(largest, Limits.size.lowerBound), Limits.size.upperBound)
        mass = min(max(density * self.side * self.side, Limits.mass.lowerBound), Limits.mass.upperBound)
        friction = median(dynamic.map { $0.friction }) ?? Surface.standard.friction
        elasticity = median(dynamic.map { $0.elasticity }) ?? Surface.standard.elasticity
        colors = scene.generator?.colors ?? []
    }

    /// The `index`-th drop (from 0), at `at`: a box at rest, unturned, its centre there rounded
    /// to a hundredth of a pixel (the record then says it in a few digits).
    package func spec(at: Vec2, index: Int) -> CrateSpec {
        func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
        return CrateSpec(center: Vec2(rounded(at.x), rounded(at.y)), size: Vec2(side, side), mass: mass, friction: friction,
                         elasticity: elasticity, color: colors.isEmpty ? nil : colors[index % colors.count])
    }
}
