/* The few pthread calls CrateDrop's saved-state patch makes (a once-only layout id, a scratch
   block per thread), for wasm32: Debian's wasi-libc has no threads, and the wasm core runs on one
   thread, so "once" is a flag and a thread's key is one slot. Only Chipmunk's C sees this header. */
#ifndef CRATEDROP_WASM_PTHREAD_H
#define CRATEDROP_WASM_PTHREAD_H

typedef int pthread_once_t;
#define PTHREAD_ONCE_INIT 0
struct cratedrop_thread_slot { void *value; };
typedef struct cratedrop_thread_slot *pthread_key_t;

static inline int pthread_once(pthread_once_t *once, void (*run)(void)) {
    if (!*once) {
        *once = 1;
        run();
    }
    return 0;
}

static inline int pthread_key_create(pthread_key_t *key, void (*destroy)(void *)) {
    static struct cratedrop_thread_slot slot;
    (void)destroy; /* the one thread never ends while the module lives */
    *key = &slot;
    return 0;
}

static inline void *pthread_getspecific(pthread_key_t key) { return key->value; }

static inline int pthread_setspecific(pthread_key_t key, const void *value) {
    key->value = (void *)value;
    return 0;
}

#endif
