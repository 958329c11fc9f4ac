/* cratedrop-png.wasm: decodes a terrain picture for the wasm core, with the same libspng (Debian's
   0.7.3 source, pinned) and the same calls as the CLI's TerrainPicture_spng.swift, so the pixels,
   and the walls traced from them, are the CLI's. A module of its own beside cratedrop.wasm: only
   scenes with pictures need it, and the core's size budget stays the core's.

   The host copies the PNG into this module's memory (cratedrop_png_alloc), calls
   cratedrop_png_decode, and reads the outcome: status 0 and RGBA8 pixels, row by row from the top,
   at cratedrop_png_pixels(); else a status below and text at cratedrop_png_message(). */
#include <spng.h>
#include <stdint.h>
#include <stdlib.h>

enum { DECODED = 0, SIDE_TOO_LARGE = 1, TOO_MANY_PIXELS = 2, UNDECODABLE = 3 };

static uint8_t *pixels;
static uint32_t width, height;
static const char *message = "";

void *cratedrop_png_alloc(size_t size) { return malloc(size); }
void cratedrop_png_free(void *pointer) { free(pointer); }
uint8_t *cratedrop_png_pixels(void) { return pixels; }
uint32_t cratedrop_png_width(void) { return width; }
uint32_t cratedrop_png_height(void) { return height; }
const char *cratedrop_png_message(void) { return message; }

/* Decodes `length` bytes at `png`: sides of at most `max_side`, at most `max_pixels` pixels.
   Chunks beyond the pixels are bounded as the CLI bounds them (1 MiB a chunk, 4 MiB in all). */
int cratedrop_png_decode(const uint8_t *png, size_t length, uint32_t max_side, uint32_t max_pixels) {
    free(pixels);
    pixels = NULL;
    width = height = 0;
    message = "";
    spng_ctx *context = spng_ctx_new(0);
    if (!context) { message = "libspng could not start"; return UNDECODABLE; }
    spng_set_chunk_limits(context, 1 << 20, 4 << 20);
    spng_set_image_limits(context, max_side, max_side);
    struct spng_ihdr header;
    int status = spng_set_png_buffer(context, png, length);
    if (status == 0) status = spng_get_ihdr(context, &header);
    if (status == SPNG_EUSER_WIDTH || status == SPNG_EUSER_HEIGHT || status == SPNG_EWIDTH || status == SPNG_EHEIGHT) {
        spng_ctx_free(context);
        return SIDE_TOO_LARGE;
    }
    if (status != 0) { message = spng_strerror(status); spng_ctx_free(context); return UNDECODABLE; }
    width = header.width;
    height = header.height;
    if ((uint64_t)width * height > max_pixels) { spng_ctx_free(context); return TOO_MANY_PIXELS; }
    size_t size = 0;
    status = spng_decoded_image_size(context, SPNG_FMT_RGBA8, &size);
    if (status != 0 || size != (size_t)width * height * 4) {
        message = status != 0 ? spng_strerror(status) : "unexpected decoded size";
        spng_ctx_free(context);
        return UNDECODABLE;
    }
    pixels = malloc(size);
    if (!pixels) { message = "out of memory"; spng_ctx_free(context); return UNDECODABLE; }
    /* No gamma correction: whole numbers in, whole numbers out (as the CLI decodes). */
    status = spng_decode_image(context, pixels, size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS);
    spng_ctx_free(context);
    if (status != 0) {
        message = spng_strerror(status);
        free(pixels);
        pixels = NULL;
        return UNDECODABLE;
    }
    return DECODED;
}
