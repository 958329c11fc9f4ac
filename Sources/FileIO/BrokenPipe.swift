#if canImport(Glibc)
import Glibc
#endif

/// Writes to a pipe whose reader has gone (ffmpeg exited, `| head` closed) fail with EPIPE here,
/// never kill the process, without changing how the process handles SIGPIPE: that stays the
/// program's choice (`cratedrop` ignores it; a program using the libraries need not).
package enum BrokenPipe {
    /// Runs `body` with SIGPIPE blocked on the calling thread, then discards a SIGPIPE that
    /// `body` raised (a write to a pipe is answered by a SIGPIPE sent to the writing thread), and
    /// restores the thread's signal mask. A SIGPIPE already pending before is left alone.
    package static func reportedAsError<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        var sigpipe = sigset_t()
        sigemptyset(&sigpipe)
        sigaddset(&sigpipe, SIGPIPE)
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &sigpipe, &previousMask)
        let pendingBefore = isPending()
        defer {
            if !pendingBefore, isPending() {
                var noWait = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&sigpipe, nil, &noWait)
            }
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        }
        return try body()
    }

    private static func isPending() -> Bool {
        var pending = sigset_t()
        sigpending(&pending)
        return sigismember(&pending, SIGPIPE) == 1
    }
}
