#ifndef CPIPE_H
#define CPIPE_H

#include <stddef.h>
#include <sys/types.h>

/// Linux pipe calls that <fcntl.h> declares only under _GNU_SOURCE, which Swift's Glibc module
/// does not see.

/// vmsplice(2) of one buffer into the pipe `fd`: the pipe takes references to the buffer's pages
/// instead of a copy. Returns the bytes spliced (possibly fewer than `length`), or -1 with errno.
ssize_t cpipe_vmsplice(int fd, const void *base, size_t length);

/// The pipe's capacity in bytes (F_GETPIPE_SZ), or -1 with errno.
int cpipe_capacity(int fd);

/// Asks for a capacity of `bytes` (F_SETPIPE_SZ). Returns the capacity now, or -1 with errno.
int cpipe_set_capacity(int fd, int bytes);

#endif
