import Foundation
import TestSupport
import Testing

@Suite struct PlatformCommandTests {
    static let maskFMA = ["GLIBC_TUNABLES": "glibc.cpu.hwcaps=-FMA"]

    static func platform(_ environment: [String: String] = [:]) throws -> JSONFields {
        let result = try CLI.run(["platform", "--json"], environment: environment)
        #expect(result.status == 0 && result.stderr.isEmpty)
        return try JSONFields(result.stdout.trimmingCharacters(in: .newlines))
    }

    static var cpuHasFMA: Bool {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        return info.split(separator: "\n").contains { $0.hasPrefix("flags") && $0.split(separator: " ").contains("fma") }
    }

    @Test func jsonNamesTheLoadedLibraryAndATwelveDigitClass() throws {
        let fields = try Self.platform()
        #expect(fields.keys == ["architecture", "backend", "library", "build", "libc", "determinism_class",
                                "angle_digest", "contact_digest"])
        let id = try #require(fields.string("determinism_class"))
        #expect(id.count == 12 && id.allSatisfy(\.isHexDigit) && id == CLI.determinismClass)
        #expect(fields.string("library")?.contains("libchipmunk") == true)
        #expect(["system", "portable"].contains(fields.string("backend")))
        #expect((fields.string("backend") == "portable") == (fields.string("build") != nil))
    }

    @Test func textOutputIsFourLinesOnStdout() throws {
        let result = try CLI.run(["platform"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.last?.hasPrefix("determinism class: \(CLI.determinismClass) (angles ") == true)
    }

    /// glibc's FMA and non-FMA sin/cos put Debian's library in two classes on a CPU with FMA; the
    /// portable backend carries its own maths and stays in one.
    @Test func maskingGlibcFMAVariantsChangesTheClassOnlyOnTheSystemLibrary() throws {
        let normal = try Self.platform(), masked = try Self.platform(Self.maskFMA)
        if normal.string("backend") == "portable" || !Self.cpuHasFMA {
            #expect(masked.string("determinism_class") == normal.string("determinism_class"))
        } else {
            #expect(masked.string("determinism_class") != normal.string("determinism_class"))
            #expect(masked.string("angle_digest") != normal.string("angle_digest"))
        }
    }

    @Test func portableBackendGivesTheSamePileAndTumblerHashesWithAndWithoutGlibcFMA() throws {
        let backend = try Self.platform().string("backend")
        for scene in ["Scenes/pile-100.json", "Scenes/tumbler.json"] {
            let normal = try CLI.run(["hash", scene, "--steps", "1200"])
            let masked = try CLI.run(["hash", scene, "--steps", "1200"], environment: Self.maskFMA)
            #expect(normal.status == 0 && masked.status == 0)
            if backend == "portable" || !Self.cpuHasFMA {
                #expect(normal.stdout == masked.stdout, "\(scene)")
            } else {
                #expect(normal.stdout != masked.stdout, "\(scene): expected Debian's library to part with glibc's FMA masked")
            }
        }
    }
}

@Suite struct CompletionScriptTests {
    /// Shell completions offer file paths for what names files, --out included (a directory or a
    /// video file; bash's file completion lists directories too).
    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsOfferPathsForFileOptions(shell: String) throws {
        let result = try CLI.run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        if shell == "bash" {
            for option in ["--gravity", "--record", "--summary", "--out"] {
                #expect(result.stdout.contains("'\(option)')\n        __cratedrop_add_completions -f"), "\(option)")
            }
        } else {
            #expect(result.stdout.contains("gravity") && result.stdout.contains("record"))
        }
    }
}
