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

/* Debian's compiler-rt builtins for wasm32 (the 128-bit division the driver's step arithmetic
   uses) were built with the stack protector; Swift's code here is not. A fixed guard: wasm's
   linear memory holds no return addresses to protect, and a smashed guard still traps. */
#include <stdint.h>
uintptr_t __stack_chk_guard = 0x5c7a2f91u;
void __stack_chk_fail(void) { __builtin_trap(); }
