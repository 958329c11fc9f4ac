import LiveProtocol

// What the page's own engine says to its page and takes from it: the messages `cratedrop serve`
// sends and takes (docs/serve.md), so one page draws either.

/// The scene message (JSON text) for a page starting with this world as it is now.
@_cdecl("cratedrop_world_scene_message")
public func cratedropWorldSceneMessage(_ handle: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    return LastResult.set(run.sceneMessage())
}

/// The parts messages (JSON text, one a line) the page must apply, in order, before drawing the
/// world as it is now; empty while its parts are unchanged.
@_cdecl("cratedrop_world_parts_messages")
public func cratedropWorldPartsMessages(_ handle: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    return LastResult.set(run.partsMessages().joined(separator: "\n"))
}

/// A page's message (`{"gravity":[x,y]}`, `{"grab":{"body":ID,"at":[x,y]}}`, `{"drop":{"at":[x,y]}}`, …),
/// applied before the next step; a refusal (65) says why, and changes nothing.
@_cdecl("cratedrop_world_command")
public func cratedropWorldCommand(_ handle: Int32, _ message: UnsafePointer<UInt8>?, _ length: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    do throws(CoreError) {
        try run.command(text(message, length, or: ""))
        return 0
    } catch {
        return LastResult.fail(error)
    }
}
