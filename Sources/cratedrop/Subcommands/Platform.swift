import ArgumentParser
import CLISupport
import Physics
import SceneFile

struct Platform: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Prints the physics backend this process loaded and its determinism class.",
        discussion: """
            Runs of the same scene and inputs give the same state hash, bit for bit, within one determinism class. The class is measured by a probe (a few milliseconds) that reaches the Chipmunk library the way a simulation does; see docs/determinism.md. CrateDrop's own Chipmunk, which scripts/install installs and scripts/swiftpm links by default (the portable backend), has the same class on every CPU; Debian's libchipmunk7 (scripts/install --chipmunk debian) has one per kind of CPU and no saved states. This command says which library the program loaded.

            Example:
              cratedrop platform
              cratedrop platform --json
            """
    )

    @Flag(help: "Print one JSON object instead of lines of text.")
    var json = false

    func run() throws {
        let backend = PhysicsBackend.current
        let probe = DeterminismClass.current
        if json {
            let report: JSONOutput = [
                "architecture": .string(backend.architecture),
                "backend": .string(backend.kind.rawValue),
                "library": .string(backend.libraryPath),
                "build": .string(backend.buildDescription),
                "libc": .string(backend.libcVersion),
                "determinism_class": .string(probe.id),
                "angle_digest": .string(probe.angleDigest.description),
                "contact_digest": .string(probe.contactDigest.description),
            ]
            try StandardOutput.print(report.text)
            return
        }
        let kind = backend.buildDescription.map { "CrateDrop's Chipmunk, portable backend: \($0)" }
            ?? "system library, Debian's libchipmunk7: no saved states; scripts/install without --chipmunk debian installs CrateDrop's"
        try StandardOutput.print("architecture: \(backend.architecture)")
        try StandardOutput.print("libchipmunk: \(backend.libraryPath ?? "unknown") (\(kind))")
        try StandardOutput.print("libc: \(backend.libcVersion)")
        try StandardOutput.print("determinism class: \(probe.id) (angles \(probe.angleDigest), contacts \(probe.contactDigest))")
    }
}
