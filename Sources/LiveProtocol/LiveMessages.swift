import Physics
import SceneFile
import SceneModel

/// What a page is told (docs/serve.md): the scene's look once as JSON text, then a frame per
/// display frame (the server's binary frames, `LiveMessages.frame` in Serve; in the page's own
/// engine, the core's state), and a parts message (JSON text) before the first frame whose world
/// is made of other parts than the page was told. The server and the page's engine (CoreABI)
/// say it with the same code.
package enum LiveMessages {
    /// `{"type":"scene","world":[w,h],"background":"#…","crate":"#…","wall":"#…","look":"crate|plain",
    /// "walls":[{"points":[x0,y0,x1,y1,…],"radius":r,"color":"#…"},…],
    /// "bodies":[[id,width,height,"#rrggbb",kind(,[x0,y0,…],radius(,[[[x0,y0,…],radius,"#rrggbb"],…]))],…],
    /// "joints":[{"kind":"pin","a":id|null,"anchor_a":[x,y],"b":id|null,"anchor_b":[x,y](,"groove":[x0,y0,x1,y1])(,"centres":true)},…],
    /// "rewind":{"seconds":30}|{"unavailable":"why"}}`:
    /// sizes, colours and shapes as data (a box's and a circle's size; another shape's outline
    /// points in its own frame and radius, `BodyShape.outline`; a compound body's parts' too, each
    /// with its colour; a wall's points in the world), the
    /// joints (`JointLink`: anchors in their bodies' frames, null for the static body; only when
    /// the scene has any), and whether pages may rewind, sent on connect.
    package static func scene(_ scene: Scene, world: World, rewind: RewindOffer = .unavailable("not offered")) -> String {
        self.scene(scene, parts: LiveParts(world: world, scene: scene), rewind: rewind)
    }

    /// The scene message with `parts` as the world's parts (a world changed since it was built).
    package static func scene(_ scene: Scene, parts: LiveParts, rewind: RewindOffer) -> String {
        let joints = jointsOutput(parts.joints)
        var message: JSONOutput = [
            "type": "scene", "name": .string(scene.name),
            "world": .numbers([scene.worldSize.x, scene.worldSize.y]),
            "step_rate": .integer(scene.stepRate),
            "gravity": .numbers([scene.gravity.x, scene.gravity.y]),
            "background": hex(scene.render.background), "crate": hex(scene.render.crate), "wall": hex(scene.render.wall),
            "look": .string(scene.render.look.rawValue), "walls": wallsOutput(parts.walls, scene: scene),
            "bodies": .array(parts.bodies.map { bodyOutput($0, scene: scene) }),
            "rewind": rewindOutput(rewind),
        ]
        if case let .array(list) = joints, !list.isEmpty, case var .object(fields) = message {
            fields.insert((key: "joints", value: joints), at: fields.count - 1)
            message = .object(fields)
        }
        return message.text
    }

    /// Added bodies a parts message carries at most; more go in the messages after it.
    package static let bodiesPerPartsMessage = 256
    /// Removed ids a parts message carries at most; more go in the messages after it.
    package static let removalsPerPartsMessage = 4096

    /// `{"type":"parts","version":V,"remove":[id,…],"add":[body,…](,"walls":[…])(,"joints":[…])}`:
    /// what a page that knows `old` must be told to know `new` (the world changed as it ran, was
    /// restarted or rewound), never the whole world again: the ids gone, the bodies made (each as
    /// the scene message gives a body; an id made again, after a rewind, replaces the page's),
    /// and the walls or the joints, whole as the scene message gives them, when they differ.
    /// A page applies each message in turn, removals first.
    /// - Returns: no message when nothing differs; several when more than
    ///   `bodiesPerPartsMessage` bodies were made or `removalsPerPartsMessage` taken (walls and
    ///   joints go in the first).
    package static func parts(from old: LiveParts, to new: LiveParts, scene: Scene) -> [String] {
        guard !new.sameParts(as: old) else { return [] }
        let (added, removed, wallsChanged, jointsChanged) = new.changes(since: old)
        guard !added.isEmpty || !removed.isEmpty || wallsChanged || jointsChanged else { return [] }
        var messages: [String] = []
        var (addedFrom, removedFrom) = (0, 0)
        repeat {
            let removing = removed[removedFrom..<min(removed.count, removedFrom + removalsPerPartsMessage)]
            removedFrom += removing.count
            // Removals go before additions: an added body then never waits behind a removal.
            let adding = added[addedFrom..<(removedFrom < removed.count ? addedFrom : min(added.count, addedFrom + bodiesPerPartsMessage))]
            addedFrom += adding.count
            var fields: [(key: String, value: JSONOutput)] = [
                ("type", "parts"), ("version", .integer(new.version)),
                ("remove", .array(removing.map { .unsigned($0.rawValue) })), ("add", .array(adding.map { bodyOutput($0, scene: scene) })),
            ]
            if messages.isEmpty, wallsChanged { fields.append(("walls", wallsOutput(new.walls, scene: scene))) }
            if messages.isEmpty, jointsChanged { fields.append(("joints", jointsOutput(new.joints))) }
            messages.append(JSONOutput.object(fields).text)
        } while removedFrom < removed.count || addedFrom < added.count
        return messages
    }

    private static func hex(_ color: RGB) -> JSONOutput { .string(color.hex) }

    /// `[id,width,height,"#rrggbb",kind(,[x0,y0,…],radius(,parts))]`.
    private static func bodyOutput(_ body: LiveParts.Body, scene: Scene) -> JSONOutput {
        let size = body.shape.boundingSize
        let entry: [JSONOutput] = [.unsigned(body.id.rawValue), .number(size.x), .number(size.y),
                                   hex(body.color ?? scene.render.crate), .string(body.shape.kind.rawValue)]
        // A box and a circle are whole in their size; other shapes add their outline, so a
        // pile of 5000 boxes sends no more than it did before shapes had outlines.
        switch body.shape {
        case .box, .circle: return .array(entry)
        case .polygon, .segment:
            let outline = body.shape.outline
            return .array(entry + [.numbers(outline.points.flatMap { [$0.x, $0.y] }), .number(outline.radius)])
        case let .compound(parts):
            // The rectangle around its parts (`BodyShape.outline`), then each part's outline in the
            // body's frame, radius and colour: `[[x0,y0,…],r,"#rrggbb"]`.
            let outline = body.shape.outline
            let color = body.color ?? scene.render.crate
            return .array(entry + [.numbers(outline.points.flatMap { [$0.x, $0.y] }), .number(outline.radius),
                                   .array(parts.map { part in
                                       let placed = part.outline
                                       return .array([.numbers(placed.points.flatMap { [$0.x, $0.y] }), .number(placed.radius),
                                                      hex(part.color ?? color)])
                                   })])
        }
    }

    /// `[{"points":[x0,y0,x1,y1,…],"radius":r,"color":"#…"},…]`.
    private static func wallsOutput(_ walls: [WallState], scene: Scene) -> JSONOutput {
        .array(walls.map { wall -> JSONOutput in
            ["points": .numbers(wall.geometry.points.flatMap { [$0.x, $0.y] }), "radius": .number(wall.radius),
             "color": hex(wall.color ?? scene.render.wall)]
        })
    }

    /// The drawn joints: `[{"kind":…,"a":id|null,"anchor_a":[x,y],"b":…,"anchor_b":…(,"groove":…)(,"centres":true)},…]`.
    private static func jointsOutput(_ links: [JointLink]) -> JSONOutput {
        .array(links.filter { $0.isDrawn }.map { link -> JSONOutput in
            func id(_ body: BodyID?) -> JSONOutput { body.map { .unsigned($0.rawValue) } ?? .null }
            var fields: [(key: String, value: JSONOutput)] = [
                ("kind", .string(link.kind.rawValue)), ("a", id(link.a)), ("anchor_a", .numbers([link.anchorA.x, link.anchorA.y])),
                ("b", id(link.b)), ("anchor_b", .numbers([link.anchorB.x, link.anchorB.y])),
            ]
            if let grooveA = link.grooveA, let grooveB = link.grooveB {
                fields.append(("groove", .numbers([grooveA.x, grooveA.y, grooveB.x, grooveB.y])))
            }
            if !link.hasAnchors { fields.append(("centres", .bool(true))) }
            return .object(fields)
        })
    }

    private static func rewindOutput(_ rewind: RewindOffer) -> JSONOutput {
        switch rewind {
        case let .available(seconds): ["seconds": .integer(seconds)]
        case let .unavailable(reason): ["unavailable": .string(reason)]
        }
    }

    /// `{"type":"refused","reason":"…"}`: a well-formed request the run did not take (a rewind
    /// outside the kept span), sent to the page that asked; its socket stays open.
    package static func refusal(_ reason: String) -> String {
        let message: JSONOutput = ["type": "refused", "reason": .string(reason)]
        return message.text
    }
}
