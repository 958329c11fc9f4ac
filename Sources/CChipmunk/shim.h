#ifndef CCHIPMUNK_SHIM_H
#define CCHIPMUNK_SHIM_H

#include <chipmunk/chipmunk.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/// Creates a space with stdout pointed at /dev/null for the duration of the call.
///
/// Debian's libchipmunk is a debug build: the first cpSpaceNew() in a process prints a two-line
/// banner on stdout, which would corrupt the CLI's results (hash lines, PPM streams). Call this
/// once, before any other space is created and before other threads write to stdout.
static inline cpSpace *CChipmunk_SpaceNewQuietly(void) {
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    int redirected = saved >= 0 && devnull >= 0 && dup2(devnull, STDOUT_FILENO) >= 0;
    cpSpace *space = cpSpaceNew();
    fflush(stdout);
    if (redirected) dup2(saved, STDOUT_FILENO);
    if (devnull >= 0) close(devnull);
    if (saved >= 0) close(saved);
    return space;
}

#endif
