/* What the Embedded Swift runtime leaves to its platform, for the native core
   (Backends/native/build). glibc 2.17, the oldest C library the shared library is linked for,
   has neither hook. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Double(String) parses through this hook, in the "C" locale whatever the process's locale is (a
   Python program may have called setlocale): glibc's strtod rounds correctly, as the CLI's Swift
   runtime's does, so every scene number becomes the CLI's double. Returns the end of what was
   parsed, or NULL when nothing was. */
const char *_swift_stdlib_strtod_clocale(const char *text, double *result) {
    static locale_t c_locale;
    if (!c_locale) c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    char *end;
    *result = c_locale ? strtod_l(text, &end, c_locale) : strtod(text, &end);
    return end == text ? NULL : end;
}

/* Seeds Swift's hashing of sets and dictionaries (no result depends on it): the kernel's
   getrandom (Linux 3.17; called by number, since glibc 2.17 has no wrapper), else /dev/urandom,
   else the clock. */
void arc4random_buf(void *buffer, size_t count) {
    unsigned char *bytes = buffer;
    size_t filled = 0;
#ifdef SYS_getrandom
    while (filled < count) {
        long got = syscall(SYS_getrandom, bytes + filled, count - filled, 0);
        if (got <= 0) {
            if (got < 0 && errno == EINTR) continue;
            break;
        }
        filled += (size_t)got;
    }
#endif
    if (filled < count) {
        int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
        while (fd >= 0 && filled < count) {
            ssize_t got = read(fd, bytes + filled, count - filled);
            if (got <= 0) break;
            filled += (size_t)got;
        }
        if (fd >= 0) close(fd);
    }
    if (filled < count) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        uint64_t state = (uint64_t)now.tv_nsec ^ ((uint64_t)now.tv_sec << 32) ^ (uintptr_t)buffer;
        for (; filled < count; filled++) {
            state = state * 6364136223846793005u + 1442695040888963407u;
            bytes[filled] = (unsigned char)(state >> 56);
        }
    }
}
