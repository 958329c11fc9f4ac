import Foundation
import TestSupport
import Testing

/// A `.npy` table is whole or absent (audit round 5, finding 7): one cut short by a full disk, a
/// file-size limit or a killed process loaded as a valid empty table, since its header's row
/// count was written only at the end. Now it is written under a hidden name and renamed into
/// place once whole, and readers refuse rows shorter than the header says.
@Suite struct WholeTableTests {
    /// The hidden temporaries beside `name` in `folder` (`.NAME.tmp-PID-XXXXXX`).
    static func temporaries(of name: String, in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".\(name).tmp-") }
    }

    @Test func aTableCutShortByAFileSizeLimitLeavesTheOldTableAndNoPartOfTheNewOne() throws {
        let folder = try SweepCommandTests.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let table = "\(folder)/book.npy"
        let old = Data("an earlier run's table".utf8)
        try old.write(to: URL(fileURLWithPath: table))
        // 10 s of the book scene traced every step is about 580 KB: the 64 KiB limit cuts it short.
        // SIGXFSZ is ignored by cratedrop, so the write fails with EFBIG and the run says so.
        let run = try CLI.shell(#"ulimit -f 64; exec "$CRATEDROP" hash Scenes/book.json --seconds 10 --every 1200 --trace "\#(table)""#)
        #expect(run.status == 74 && run.stderr.contains("\(table)") && run.stderr.contains("File too large"), "\(run.status) \(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: table)) == old, "the old table stays until a new one is whole")
        #expect(try Self.temporaries(of: "book.npy", in: folder).isEmpty)

        // Without the limit the table replaces the old one, whole: its header counts every row.
        let whole = try CLI.run(["hash", "Scenes/book.json", "--seconds", "10", "--every", "1200", "--trace", table])
        #expect(whole.status == 0, "\(whole.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: table)))
        let dataStart = 10 + Int(bytes[8]) + Int(bytes[9]) << 8
        let header = String(decoding: bytes.prefix(dataStart), as: UTF8.self)
        #expect(header.contains("'shape': (                6000,)") && bytes.count - dataStart == 6000 * 97, "\(header) \(bytes.count)")
        #expect(try Self.temporaries(of: "book.npy", in: folder).isEmpty)
    }

    /// A run killed mid-way (here by its CPU-time limit: SIGXCPU, then SIGKILL) leaves only its
    /// hidden temporary, which the next table written to that path removes.
    @Test(.timeLimit(.minutes(3))) func aRunKilledMidWayLeavesNoTableUnderItsName() throws {
        let folder = try SweepCommandTests.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let table = "\(folder)/pile.npy"
        let killed = try CLI.shell(#"ulimit -t 1; exec "$CRATEDROP" hash Scenes/pile-100.json --seconds 3600 --every 432000 --trace "\#(table)""#)
        #expect(killed.status != 0 && killed.stdout.isEmpty, "\(killed.status) \(killed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: table))
        #expect(try Self.temporaries(of: "pile.npy", in: folder).count == 1)
        let whole = try CLI.run(["hash", "Scenes/pile-100.json", "--seconds", "1", "--trace", table])
        #expect(whole.status == 0 && FileManager.default.fileExists(atPath: table), "\(whole.stderr)")
        #expect(try Self.temporaries(of: "pile.npy", in: folder).isEmpty, "the dead run's temporary is removed")
    }

    @Test(.timeLimit(.minutes(5))) func aTableCutShortIsRefusedBySweepVerifyAsCutShort() throws {
        let folder = try SweepCommandTests.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = try SweepVerifyTests.sweep(folder, outputs: #"{ "trace": "npy", "trace_every": 10, "hash_every": 30 }"#)
        for (file, says) in [("samples/000000/trace.npy", "trace.npy: cut short: its header says 144 rows"),
                             ("manifest.npy", "manifest.npy: cut short: its header says 2 rows")] {
            let path = "\(out)/\(file)"
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            try original.dropLast(5).write(to: URL(fileURLWithPath: path))
            let verify = try CLI.run(["sweep", "verify", out, "--sample", "0"])
            #expect(verify.status == 3 && verify.stderr.contains(says), "\(file): \(verify.status) \(verify.stderr)")
            try original.write(to: URL(fileURLWithPath: path))
        }
        #expect(try CLI.run(["sweep", "verify", out, "--sample", "0"]).status == 0, "restored")
    }
}
