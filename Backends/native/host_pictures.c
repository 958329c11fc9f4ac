/* Terrain pictures for the core built as a native library (Backends/native/build): what the wasm
   core asks its JavaScript host for (Sources/SceneFile/TerrainPicture_embedded.swift), answered
   here in C. Files are read as the CLI reads them (FileIO's FileBytes: regular files only, opened
   without blocking, refused past a size limit, with the CLI's words) and decoded by
   Backends/wasm/png_decoder.c over the same pinned libspng and zlib, so the pixels, and the walls
   traced from them, are the CLI's. One thread at a time, as the whole C ABI. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cratedrop_png_decode(const uint8_t *png, size_t length, uint32_t max_side, uint32_t max_pixels);
uint8_t *cratedrop_png_pixels(void);
uint32_t cratedrop_png_width(void);
uint32_t cratedrop_png_height(void);
const char *cratedrop_png_message(void);

static uint8_t *file_bytes;
static int32_t file_length;
static char file_message[160];

static int32_t refuse(const char *message) {
    snprintf(file_message, sizeof file_message, "%s", message);
    return -1;
}

/* Reads the file at `path` (`path_length` bytes, not terminated), at most `limit` bytes. Returns
   its size, kept for cratedrop_host_file_copy; or -1, with the reason for
   cratedrop_host_file_message. */
int32_t cratedrop_host_file_read(const uint8_t *path, int32_t path_length, int32_t limit) {
    free(file_bytes);
    file_bytes = NULL;
    file_length = 0;
    if (path_length < 0 || limit < 0 || (!path && path_length > 0)) return refuse("the core asked for a file with a bad length");
    /* A NUL inside would open a shorter path than the one named. */
    if (path_length > 0 && memchr(path, 0, (size_t)path_length)) return refuse("a path holding a NUL byte names no file");
    char *name = malloc((size_t)path_length + 1);
    if (!name) return refuse("out of memory");
    memcpy(name, path, (size_t)path_length);
    name[path_length] = 0;
    int fd = open(name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    free(name);
    if (fd < 0) return refuse(strerror(errno));
    struct stat info;
    if (fstat(fd, &info) != 0) { int code = errno; close(fd); return refuse(strerror(code)); }
    /* The CLI's words for these (Sources/FileIO/FileFailure.swift), so Python says what it says. */
    const char *kind = S_ISREG(info.st_mode) ? NULL
        : S_ISDIR(info.st_mode) ? "is a directory, expected a file"
        : S_ISFIFO(info.st_mode) ? "is a named pipe, expected a regular file (scene and record files are read whole)"
        : "is a device, expected a regular file";
    if (kind) { close(fd); return refuse(kind); }
    char too_large[64];
    snprintf(too_large, sizeof too_large, "larger than %d MiB", limit >> 20);
    if (info.st_size > limit) { close(fd); return refuse(too_large); }
    /* Room for the size stat gave and one byte more, which tells a file that grew while read;
       grown up to the limit and one byte only if it did. */
    size_t room = (size_t)info.st_size + 1;
    uint8_t *bytes = malloc(room);
    if (!bytes) { close(fd); return refuse("out of memory"); }
    size_t got = 0;
    for (;;) {
        if (got == room && room <= (size_t)limit) {
            size_t grown = room * 2 > (size_t)limit + 1 ? (size_t)limit + 1 : room * 2;
            uint8_t *larger = realloc(bytes, grown);
            if (!larger) { free(bytes); close(fd); return refuse("out of memory"); }
            bytes = larger;
            room = grown;
        }
        ssize_t count = read(fd, bytes + got, room - got);
        if (count < 0) {
            if (errno == EINTR) continue;
            int code = errno;
            free(bytes);
            close(fd);
            return refuse(strerror(code));
        }
        if (count == 0) break;
        got += (size_t)count;
        if (got > (size_t)limit) { free(bytes); close(fd); return refuse(too_large); }
    }
    close(fd);
    file_bytes = bytes;
    file_length = (int32_t)got;
    return file_length;
}

/* Copies the file last read to `into` (room for its size); returns how many bytes. */
int32_t cratedrop_host_file_copy(uint8_t *into) {
    int32_t copied = into ? file_length : 0;
    if (copied > 0) memcpy(into, file_bytes, (size_t)copied);
    free(file_bytes);
    file_bytes = NULL;
    file_length = 0;
    return copied;
}

/* The reason the last read failed. */
const char *cratedrop_host_file_message(void) { return file_message; }

/* As the wasm host's png_decode: the decoder's status, the picture's width and height in size[]. */
int32_t cratedrop_host_png_decode(const uint8_t *png, int32_t length, int32_t max_side, int32_t max_pixels, int32_t *size) {
    enum { UNDECODABLE = 3 };
    if (!png || !size || length < 0 || max_side < 0 || max_pixels < 0) return UNDECODABLE;
    int status = cratedrop_png_decode(png, (size_t)length, (uint32_t)max_side, (uint32_t)max_pixels);
    size[0] = (int32_t)cratedrop_png_width();
    size[1] = (int32_t)cratedrop_png_height();
    return status;
}

/* As the wasm host's png_copy: the last decoding's RGBA8 pixels, or its message when it failed,
   at most `capacity` bytes; returns how many. */
int32_t cratedrop_host_png_copy(uint8_t *into, int32_t capacity) {
    if (!into || capacity < 0) return 0;
    const uint8_t *pixels = cratedrop_png_pixels();
    size_t length = pixels ? (size_t)cratedrop_png_width() * cratedrop_png_height() * 4 : strlen(cratedrop_png_message());
    if (length > (size_t)capacity) length = (size_t)capacity;
    memcpy(into, pixels ? pixels : (const uint8_t *)cratedrop_png_message(), length);
    return (int32_t)length;
}
