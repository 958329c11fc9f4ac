#if canImport(Glibc)
import Glibc
#endif
#if !hasFeature(Embedded)
import FileIO
#endif
internal import CChipmunk

/// Which libchipmunk the dynamic linker bound this process to, read from the process's own
/// memory map and symbol table.
enum LoadedLibrary {
    /// The path of the libchipmunk file mapped into this process, as /proc/self/maps names it.
    static var chipmunkPath: String? {
        #if hasFeature(Embedded)
        // The wasm core is one module with Chipmunk linked in: there is no library file.
        return nil
        #else
        guard let maps = try? FileBytes.read(path: "/proc/self/maps", limit: 16 << 20) else { return nil }
        for line in String(decoding: maps, as: UTF8.self).split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = line[slash...]
            if path.split(separator: "/").last?.hasPrefix("libchipmunk") == true { return String(path) }
        }
        return nil
        #endif
    }

    /// CrateDrop's Chipmunk's description (Backends/portable/backend_marker.c), or nil when the
    /// loaded libchipmunk is another build (Debian's).
    static var portableBackendDescription: String? {
        CChipmunk_BuildDescription().map { String(cString: $0) }
    }

    /// The C library's version, e.g. "glibc 2.36" (`confstr(_CS_GNU_LIBC_VERSION)`).
    static var libcVersion: String {
        #if !canImport(Glibc)
        // The wasm core links wasi-libc, and musl 1.2.3's sin, cos, exp and pow built from source
        // with Chipmunk (Backends/wasm/build): what supplies its maths, as a record's header says.
        return "wasi-libc, musl 1.2.3 maths"
        #else
        var buffer = [CChar](repeating: 0, count: 64)
        guard confstr(Int32(_CS_GNU_LIBC_VERSION), &buffer, buffer.count) > 0 else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #endif
    }
}
