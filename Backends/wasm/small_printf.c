/* The printf family for the wasm core, small: Chipmunk formats only its assertion messages (the
   core validates every scene, input and state first, so these do not fire) and the saved-state
   patches' refusal reasons with it. musl's printf, with its floating-point formatter, is about
   5 KB of the core's 400 KB gzipped budget; this is under 1 KB.
   Conversions: %s, %c, %d, %i, %u, %x with the l and ll lengths, a 0 flag and a width, and %%.
   A float's directive (%f or %.2f in an assertion message) is written as it stands. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

typedef struct { char *out; size_t capacity, length; } Text;

static void put(Text *text, char c) {
    if (text->length + 1 < text->capacity) text->out[text->length] = c;
    text->length++;
}

static void put_number(Text *text, uint64_t value, unsigned base, int negative, int width, char pad) {
    char digits[24];
    int count = 0;
    do { digits[count++] = "0123456789abcdef"[value % base]; value /= base; } while (value);
    if (negative) digits[count++] = '-';
    for (int i = count; i < width; i++) put(text, pad);
    while (count) put(text, digits[--count]);
}

int vsnprintf(char *restrict out, size_t capacity, const char *restrict format, va_list arguments) {
    Text text = { out, capacity, 0 };
    for (const char *p = format; *p; p++) {
        if (*p != '%') { put(&text, *p); continue; }
        const char *start = p++;
        char pad = ' ';
        int width = 0, longs = 0;
        if (*p == '0') { pad = '0'; p++; }
        while (*p >= '0' && *p <= '9') width = width * 10 + (*p++ - '0');
        while (*p == 'l') { longs++; p++; }
        switch (*p) {
        case '%': put(&text, '%'); break;
        case 'c': put(&text, (char)va_arg(arguments, int)); break;
        case 's': for (const char *s = va_arg(arguments, const char *); s && *s; s++) put(&text, *s); break;
        case 'd': case 'i': {
            int64_t value = longs > 1 ? va_arg(arguments, long long) : longs ? va_arg(arguments, long) : va_arg(arguments, int);
            put_number(&text, value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value, 10, value < 0, width, pad);
            break;
        }
        case 'u': case 'x': {
            uint64_t value = longs > 1 ? va_arg(arguments, unsigned long long) : longs ? va_arg(arguments, unsigned long)
                                                                               : va_arg(arguments, unsigned);
            put_number(&text, value, *p == 'x' ? 16 : 10, 0, width, pad);
            break;
        }
        default:
            /* A float's directive (%f, %.2f, %g, ...): shown as written, its argument passed over. */
            while (*p && !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) p++;
            if (*p == 'f' || *p == 'g' || *p == 'e' || *p == 'F' || *p == 'G' || *p == 'E') (void)va_arg(arguments, double);
            for (const char *s = start; s <= p && *s; s++) put(&text, *s);
            if (!*p) p--;
        }
    }
    if (capacity) out[text.length < capacity ? text.length : capacity - 1] = 0;
    return (int)text.length;
}

int snprintf(char *restrict out, size_t capacity, const char *restrict format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int length = vsnprintf(out, capacity, format, arguments);
    va_end(arguments);
    return length;
}

int vfprintf(FILE *restrict file, const char *restrict format, va_list arguments) {
    char line[512];
    int length = vsnprintf(line, sizeof line, format, arguments);
    fputs(line, file);
    return length;
}

int fprintf(FILE *restrict file, const char *restrict format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int length = vfprintf(file, format, arguments);
    va_end(arguments);
    return length;
}
