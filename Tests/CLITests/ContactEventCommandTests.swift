import Foundation
import TestSupport
import Testing

/// `--events`: contact events out of a run, in a deterministic order, without changing it.
@Suite struct ContactEventCommandTests {
    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString)-\(name)").path
    }

    static func rows(_ path: String) throws -> [[String]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst(2).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    /// The book scene's crates fall: the four at the bottom of the stack land on the floor (wall 0,
    /// the bounds' bottom), each a `begin` with the floor pushing up on it, and the one on top
    /// lands on the crate under it; the run's hash is the one without events.
    @Test func theBookScenesEventsListTheCratesLandings() throws {
        let path = Self.temporary("book.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try CLI.run(["hash", "Scenes/book.json", "--steps", "240", "--events", path])
        let plain = try CLI.run(["hash", "Scenes/book.json", "--steps", "240"])
        #expect(run.status == 0 && run.stdout == plain.stdout, "\(run.stderr)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n")[1] == "step,time,event,a,b,wall,x,y,nx,ny,normal_impulse,tangent_impulse,joint")
        let landings = try Self.rows(path).filter { $0[2] == "begin" && $0[4] == "0" && $0[5] == "0" }
        #expect(Set(landings.map { $0[3] }).isSuperset(of: ["2", "3", "4", "5"]), "\(landings)")
        #expect(try Self.rows(path).contains { $0[2] == "begin" && Int($0[0])! > 10 && $0[3] == "1" && $0[4] == "5" && Double($0[10])! > 0 },
                "crate 1 lands on crate 5")
        for row in landings {
            #expect(Double(row[10])! > 0 && Double(row[9]) == -1, "the floor is below (normal from the crate to the wall) and pushes: \(row)")
        }
        // Steps never go back, and within a step pairs come in order.
        let keys = try Self.rows(path).map { (Int($0[0])!, Int($0[3])!, Int($0[4])! == 0 ? Int.max : Int($0[4])!) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func aContinuationReportsTheEventsTheStraightRunDoes() throws {
        let state = Self.temporary("b.state"), first = Self.temporary("first.csv"), rest = Self.temporary("rest.csv")
        let straight = Self.temporary("straight.csv")
        defer { for path in [state, first, rest, straight] { try? FileManager.default.removeItem(atPath: path) } }
        #expect(try CLI.run(["hash", "Scenes/book.json", "--steps", "80", "--save-state", state, "--events", first]).status == 0)
        #expect(try CLI.run(["hash", state, "--steps", "160", "--events", rest]).status == 0)
        #expect(try CLI.run(["hash", "Scenes/book.json", "--steps", "240", "--events", straight]).status == 0)
        #expect(try Self.rows(first) + Self.rows(rest) == Self.rows(straight))
    }

    /// The Galton board's sensor (wall 132, in the bin left of the centre divider) reports balls entering it, and
    /// never a `begin`: a sensor does not push.
    @Test func aSensorReportsWhatEntersItAndPushesNothing() throws {
        let path = Self.temporary("galton.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try CLI.run(["hash", "Scenes/galton.json", "--steps", "600", "--events", path]).status == 0)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let rows = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let sensor = rows.filter { ($0["wall"] as? Int) == 132 }
        #expect(sensor.contains { $0["event"] as? String == "sensor_enter" }, "\(sensor.prefix(3))")
        #expect(sensor.allSatisfy { ($0["event"] as! String).hasPrefix("sensor_") })
        #expect(rows.contains { $0["event"] as? String == "begin" })
    }

    @Test func anEventsFileOfNoKnownFormatIsRefused() throws {
        let result = try CLI.run(["hash", "Scenes/book.json", "--steps", "1", "--events", "out/events.txt"])
        #expect(result.status == 64 && result.stderr.contains("--events out/events.txt: contact events are written as .csv, .jsonl or .npy"))
    }
}
