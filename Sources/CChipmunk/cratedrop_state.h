/* Saved states of CrateDrop's Chipmunk: the one declaration of the interface and its refusal codes.

   The functions live in CrateDrop's build of Chipmunk 7.0.3 (Backends/portable: Debian's source
   package with the patches of Backends/portable/patches applied), beside the structs they read.
   The patched Chipmunk, the Swift shim (shim.h), the C baseline and the cross-architecture harness
   all include this file, so a changed signature fails their builds instead of being cast over.

   Debian's binary libchipmunk7 has none of these symbols. Code that may run on either library
   defines CRATEDROP_STATE_API as __attribute__((weak)) before including this header and checks a
   function's address before calling it (shim.h does). */
#ifndef CRATEDROP_STATE_H
#define CRATEDROP_STATE_H

#include <chipmunk/chipmunk.h>

#ifndef CRATEDROP_STATE_API
#define CRATEDROP_STATE_API
#endif

/* What the functions return besides success (0) and, for a save, the state's size. */
typedef enum {
    CRATEDROP_STATE_OK = 0,
    /* The space's broadphase is not Chipmunk's bounding-box tree (cpSpaceUseSpatialHash). */
    CRATEDROP_STATE_NOT_A_TREE = -1,
    /* The space lets bodies sleep: sleep lists are not saved. */
    CRATEDROP_STATE_SLEEPING = -2,
    /* The space is stepping (called from a callback). */
    CRATEDROP_STATE_LOCKED = -3,
    /* A body holds a force or torque not yet applied: states are taken between steps. */
    CRATEDROP_STATE_FORCES = -4,
    /* Memory for the working copy could not be had. */
    CRATEDROP_STATE_MEMORY = -5,
    /* The bytes are not a state this library wrote for this world; the message says why. */
    CRATEDROP_STATE_MALFORMED = -6,
    /* A shape passed in is not in the space. */
    CRATEDROP_STATE_UNKNOWN_SHAPE = -7,
    /* The constraints passed in are not the space's (one missing, listed twice, or of no known kind). */
    CRATEDROP_STATE_UNKNOWN_CONSTRAINT = -8,
} cratedrop_state_code;

/* Writes the space's state into `buffer` (up to `capacity` bytes) and returns its full size, or a
   negative cratedrop_state_code. `shapes`, `bodies` and `constraints` are the world's, in its own
   order (static shapes first); the state names them by index (and keeps the order in which the
   space steps its constraints). When `aid` is not NULL, the restore aid (what a
   restore of these very bytes would otherwise compute again; never written out) goes there, up to
   `aidCapacity` bytes, and its full size to `*aidSize`. A call whose buffers were short returns the
   sizes needed and may be repeated with bigger ones. */
CRATEDROP_STATE_API long cratedrop_state_save(cpSpace *space, cpShape **shapes, int shapeCount, cpBody **bodies, int bodyCount,
                                              cpConstraint **constraints, int constraintCount, unsigned char *buffer, long capacity,
                                              void *aid, long aidCapacity, long *aidSize);

/* Puts the state `bytes` into the space, checking every byte first: on any refusal (a negative
   cratedrop_state_code, with the reason in `message`) the space is left exactly as it was. */
CRATEDROP_STATE_API int cratedrop_state_restore(cpSpace *space, cpShape **shapes, int shapeCount, cpBody **bodies, int bodyCount,
                                                cpConstraint **constraints, int constraintCount, const unsigned char *bytes, long count,
                                                char *message, int messageSize);

/* As cratedrop_state_restore, for bytes exactly as a save of this process returned them (with its
   aid, or NULL): the state's own consistency is taken on trust, what ties it to this world is not. */
CRATEDROP_STATE_API int cratedrop_state_restore_as_saved(cpSpace *space, cpShape **shapes, int shapeCount, cpBody **bodies,
                                                         int bodyCount, cpConstraint **constraints, int constraintCount,
                                                         const unsigned char *bytes, long count, const void *aid, long aidSize,
                                                         char *message, int messageSize);

/* The build's description (sources, version, flags); its presence marks CrateDrop's Chipmunk. */
CRATEDROP_STATE_API extern const char cratedrop_portable_backend[];

#endif
