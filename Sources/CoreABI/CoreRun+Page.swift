import InputLines
import LiveProtocol
import Physics
import SceneModel

/// What the page's own engine keeps to talk to its page as `cratedrop serve` does (docs/serve.md):
/// the scene message, then a parts message when the world's parts change, and the page's
/// commands (tilts, pushes, drags, drops, removals) taken as the server takes them.
final class PageLink {
    let scene: Scene
    /// The parts of the scene's own world, before any change: what the scene message says.
    let baseParts: LiveParts
    /// What the page was last told.
    var told: LiveParts
    /// The world's parts version when the page was last told (`World.partsVersion`: it never
    /// repeats, so an unchanged version means unchanged parts).
    var toldVersion: Int
    /// The crate a drop makes, and the drops made so far (they take the palette in turn).
    let drop: DropTemplate
    var dropsMade = 0

    init(scene: Scene, world: World) {
        self.scene = scene
        baseParts = LiveParts(world: world, scene: scene)
        told = baseParts
        toldVersion = world.partsVersion
        drop = DropTemplate(scene: scene)
    }
}

extension CoreRun {
    /// Why the page's engine offers no rewind.
    static let rewindOffer = RewindOffer.unavailable("the world runs in this page, which keeps no history; `cratedrop serve --streamed` rewinds")

    /// The scene message for a page starting with this world as it is now; parts messages follow
    /// from here.
    func sceneMessage() -> String {
        page.told = currentParts()
        page.toldVersion = world.partsVersion
        return LiveMessages.scene(page.scene, parts: page.told, rewind: Self.rewindOffer)
    }

    /// What the page must be told since it was last told (removals first, as the server sends
    /// them); none while the world's parts are unchanged.
    func partsMessages() -> [String] {
        guard world.partsVersion != page.toldVersion else { return [] }
        let now = currentParts()
        let messages = LiveMessages.parts(from: page.told, to: now, scene: page.scene)
        page.told = now
        page.toldVersion = world.partsVersion
        return messages
    }

    private func currentParts() -> LiveParts {
        guard world.partsVersion > 0 else { return page.baseParts }
        let snapshot = world.snapshot()
        return snapshot.parts.map { LiveParts(parts: $0, bodies: snapshot.bodies) } ?? page.baseParts
    }

    /// A page's message (`LiveCommand`, the grammar pages send `cratedrop serve`), applied to the
    /// world now, at the boundary before its next step, as the server applies it at its next step.
    /// Pausing, stepping, restarting and rewinding are the page's own: it decides when to step.
    /// - Throws: a message the server would refuse (the same reason), or one of those four.
    func command(_ text: String) throws(CoreError) {
        let command: LiveCommand
        switch LiveCommand.parse(text) {
        case let .success(parsed): command = parsed
        case let .failure(error): throw CoreError(code: .dataError, message: error.description)
        }
        let action: InputAction
        switch command {
        case let .gravity(gravity): action = .gravity(gravity)
        case let .push(body, velocity, at): action = .body(body, .impulse(velocity * (try dynamicMass(of: body, for: "push")), at: at))
        case let .grab(body, at):
            _ = try dynamicMass(of: body, for: "grab")
            action = .body(body, .grab(at: at, maxForce: nil))
        case let .dragTo(body, at): action = .body(body, .dragTo(at))
        case let .release(body): action = .body(body, .release)
        case let .remove(body):
            guard world.crate(body) != nil else { throw refusal("remove", "body \(body) is not in the world") }
            action = .change(.removeBody(body))
        case let .drop(at): action = .change(.addCrate(try dropSpec(at: at)))
        case .pause, .resume, .step, .restart, .rewind:
            throw CoreError(code: .usage, message: "pause, resume, step, restart and rewind are the page's own: it steps the world when it will")
        }
        do throws(PhysicsError) {
            try apply(action)
        } catch {
            throw CoreError(code: .dataError, message: "cannot apply \(text): \(error)")
        }
        if case .drop = command { page.dropsMade += 1 }
    }

    private func refusal(_ verb: String, _ reason: String) -> CoreError {
        CoreError(code: .dataError, message: "cannot \(verb): \(reason)")
    }

    /// The mass of `body`, a dynamic body in the world, or why a page cannot push or grab it.
    private func dynamicMass(of body: BodyID, for verb: String) throws(CoreError) -> Double {
        guard let crate = world.crate(body) else { throw refusal(verb, "body \(body) is not in the world") }
        guard crate.bodyType == .dynamic else { throw refusal(verb, "body \(body) is kinematic") }
        return crate.mass
    }

    /// The crate a click at `at` drops, as the server makes it (`DropTemplate`), within its limits.
    private func dropSpec(at: Vec2) throws(CoreError) -> CrateSpec {
        let size = page.scene.worldSize
        guard at.x >= 0, at.x <= size.x, at.y >= 0, at.y <= size.y else {
            throw refusal("drop", "(\(at.x), \(at.y)) is outside the world, 0...\(size.x) × 0...\(size.y)")
        }
        let spec = page.drop.spec(at: at, index: page.dropsMade)
        if let problem = StructuralChange.addCrate(spec).problems().first { throw refusal("drop", "\(problem)") }
        return spec
    }
}
