/// The banner Debian's libchipmunk (a debug build) prints on stdout at the first `cpSpaceNew` of
/// a process: two lines that would corrupt results on stdout (hash lines, a PPM stream, JSON).
public enum DebugBanner {
    /// Spends the banner where nobody sees it: creates and frees one space with the process's
    /// stdout pointed at /dev/null for the length of the call. A process-wide effect, so it is
    /// the program's to ask for, never done by a World on its own: call it once, first thing,
    /// before other threads write to stdout. Later worlds print nothing; calling it again is harmless.
    public static func silence() {
        Chipmunk.printBannerToNowhere()
    }
}
