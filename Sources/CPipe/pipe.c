#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/uio.h>
#include "cpipe.h"

ssize_t cpipe_vmsplice(int fd, const void *base, size_t length) {
    struct iovec part = { .iov_base = (void *)base, .iov_len = length };
    return vmsplice(fd, &part, 1, 0);
}

int cpipe_capacity(int fd) {
    return fcntl(fd, F_GETPIPE_SZ);
}

int cpipe_set_capacity(int fd, int bytes) {
    return fcntl(fd, F_SETPIPE_SZ, bytes);
}
