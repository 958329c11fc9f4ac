import CoreABI
import Foundation
import Testing

/// The ABI's side of a live page (`Exports+Page.swift`): the scene and parts messages `cratedrop
/// serve` sends, and a page's commands taken as the server takes them. In `CoreABITests`' suite,
/// which is serialized (the ABI's last result is shared).
extension CoreABITests {
    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The scene message describes book's five crates and its walls, and says the page's world
    /// keeps no history to rewind.
    @Test func sceneMessageDescribesTheWorld() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        #expect(cratedropWorldSceneMessage(handle) > 0)
        let message = try Self.json(Self.result())
        #expect(message["type"] as? String == "scene")
        #expect((message["bodies"] as? [[Any]])?.map { $0[0] as? Int } == [1, 2, 3, 4, 5])
        #expect((message["walls"] as? [Any])?.isEmpty == false)
        #expect(((message["rewind"] as? [String: Any])?["unavailable"] as? String)?.contains("no history") == true)
        // Nothing changed since: no parts message.
        #expect(cratedropWorldPartsMessages(handle) == 0)
    }

    /// A drop makes crate 6 before the next step, told in one parts message; X on it removes it,
    /// told in the next; a step taken between them keeps them in the world's history.
    @Test func dropAndRemoveAreToldAsParts() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        _ = cratedropWorldSceneMessage(handle)
        #expect(Self.command(handle, #"{"drop":{"at":[150,250]}}"#) == 0, "\(Self.result())")
        #expect(cratedropWorldBodyCount(handle) == 6)
        #expect(cratedropWorldPartsMessages(handle) > 0)
        let added = try Self.json(Self.result())
        #expect(added["type"] as? String == "parts")
        #expect((added["add"] as? [[Any]])?.map { $0[0] as? Int } == [6])
        #expect(cratedropWorldPartsMessages(handle) == 0, "told once")
        #expect(cratedropWorldStep(handle, 10) == 0)
        #expect(Self.command(handle, #"{"remove":{"body":6}}"#) == 0, "\(Self.result())")
        #expect(cratedropWorldPartsMessages(handle) > 0)
        #expect((try Self.json(Self.result())["remove"] as? [Int]) == [6])
        #expect(cratedropWorldBodyCount(handle) == 5)
    }

    /// A tilt through a command is the world's gravity from the next step: the hash is the one
    /// an input line with the same gravity at that step gives.
    @Test func tiltCommandIsAnUntimedGravityLine() throws {
        let (commanded, lined) = (try Self.book(), try Self.book())
        defer { _ = cratedropWorldFree(commanded); _ = cratedropWorldFree(lined) }
        #expect(cratedropWorldStep(commanded, 30) == 0 && cratedropWorldStep(lined, 30) == 0)
        #expect(Self.command(commanded, #"{"gravity":[300,-900]}"#) == 0)
        #expect(Self.input(lined, #"{"step": 30, "gravity": [300, -900]}"#) == 0)
        #expect(cratedropWorldStep(commanded, 60) == 0 && cratedropWorldStep(lined, 60) == 0)
        #expect(cratedropWorldHash(commanded) == cratedropWorldHash(lined))
    }

    /// What a server refuses, the page's engine refuses with the same reason (65), changing
    /// nothing; the clock commands are the page's own (64).
    @Test func refusalsSayWhy() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        let before = cratedropWorldHash(handle)
        #expect(Self.command(handle, #"{"push":{"body":99,"velocity":[0,900],"at":[10,10]}}"#) == -65)
        #expect(Self.result() == "cannot push: body 99 is not in the world")
        #expect(Self.command(handle, #"{"drop":{"at":[-5,10]}}"#) == -65)
        #expect(Self.result().hasPrefix("cannot drop: (-5.0, 10.0) is outside the world"))
        #expect(Self.command(handle, #"{"gravity":[1e9,0]}"#) == -65)
        #expect(Self.result().contains("gravity must be [x, y]"))
        #expect(Self.command(handle, #"{"command":"pause"}"#) == -64)
        #expect(Self.command(handle, "not json") == -65)
        #expect(cratedropWorldHash(handle) == before && cratedropWorldBodyCount(handle) == 5)
    }
}
