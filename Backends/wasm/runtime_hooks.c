/* What the Embedded Swift runtime leaves to its platform, for the wasm core. */
#include <stdlib.h>

/* Double(String) parses through this hook. wasi-libc's strtod is musl's, which rounds correctly
   (as glibc's does): every scene number becomes the same double as in the CLI. wasm has one
   locale, "C". Returns the end of what was parsed, or NULL when nothing was. */
const char *_swift_stdlib_strtod_clocale(const char *text, double *result) {
    char *end;
    *result = strtod(text, &end);
    return end == text ? NULL : end;
}
