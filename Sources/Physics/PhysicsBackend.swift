/// Which Chipmunk build this process runs on, as the dynamic linker bound it.
public struct PhysicsBackend: Sendable, Equatable {
    /// What kind of build the loaded libchipmunk is.
    public enum Kind: String, Sendable {
        /// CrateDrop's portable build (Backends/portable): the same bits on every architecture.
        case portable
        /// Any other libchipmunk, normally Debian's `libchipmunk7` package: the same bits only
        /// within one determinism class.
        case system
    }

    public let kind: Kind
    /// The CPU architecture this binary was built for: `x86_64`, `arm64`, `i386`, ...
    public let architecture: String
    /// The libchipmunk file the process loaded (symbolic links resolved), if the linker says.
    public let libraryPath: String?
    /// The portable build's own description (sources, flags), or nil for other builds.
    public let buildDescription: String?
    /// The C library's version, which supplies sin, cos, exp and pow to system builds.
    public let libcVersion: String

    /// The backend this process loaded.
    public static let current: PhysicsBackend = {
        let portable = LoadedLibrary.portableBackendDescription
        return PhysicsBackend(kind: portable == nil ? .system : .portable, architecture: compiledArchitecture,
                              libraryPath: LoadedLibrary.chipmunkPath, buildDescription: portable,
                              libcVersion: LoadedLibrary.libcVersion)
    }()

    private static var compiledArchitecture: String {
        #if arch(x86_64)
        return "x86_64"
        #elseif arch(arm64)
        return "arm64"
        #elseif arch(i386)
        return "i386"
        #elseif arch(wasm32)
        return "wasm32"
        #else
        return "unknown"
        #endif
    }
}
