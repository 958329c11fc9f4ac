#ifndef CCHIPMUNK_SHIM_H
#define CCHIPMUNK_SHIM_H

#include <chipmunk/chipmunk.h>
#include <fcntl.h>
#include <stdint.h>
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

/// The rotation [cos angle, sin angle] as Chipmunk's library computes it: cpBodySetAngle turns a
/// scratch body with the library's own cos and sin (cpvforangle compiled into libchipmunk: musl's in
/// the portable backend, the same on every CPU), and cpBodyGetRotation reads them back. An inline
/// cpTransformRigid or cpvforangle here would call the program's libm instead (glibc's, whose sin
/// and cos differ between CPUs with and without FMA, and between architectures).
static inline cpVect CChipmunk_LibraryRotation(double angle) {
    cpBody *scratch = cpBodyNew(0.0, 0.0);
    cpBodySetAngle(scratch, angle);
    cpVect rotation = cpBodyGetRotation(scratch);
    cpBodyFree(scratch);
    return rotation;
}

/// Contacts touching the space's bodies now: each colliding pair (arbiter) once, and its points.
typedef struct {
    int pairs;
    int points;
    /// If not NULL, up to `capacity` contact points are copied here as (x, y, nx, ny): the point
    /// midway between the two surfaces and the pair's unit normal, in either direction.
    double *out;
    int capacity;
} CChipmunk_Contacts;

static inline void CChipmunk_ContactOfBody(cpBody *body, cpArbiter *arbiter, void *data) {
    CChipmunk_Contacts *contacts = (CChipmunk_Contacts *)data;
    // cpBodyEachArbiter presents each arbiter with `body` first. cpSpaceEachBody visits every
    // body but the space's own static one (the walls'), so a pair touching a dynamic body is met
    // from both of its bodies: count it from a dynamic one only, and from one of two dynamic ones.
    // (The order between those two does not change the point or its canonical normal.)
    cpBody *self, *other;
    cpArbiterGetBodies(arbiter, &self, &other);
    if (cpBodyGetType(other) == CP_BODY_TYPE_DYNAMIC
        && (cpBodyGetType(self) != CP_BODY_TYPE_DYNAMIC || (uintptr_t)other < (uintptr_t)self)) return;
    int count = cpArbiterGetCount(arbiter);
    if (count == 0) return;
    cpVect normal = cpArbiterGetNormal(arbiter);
    for (int i = 0; i < count; i++) {
        if (contacts->out != NULL && contacts->points < contacts->capacity) {
            cpVect a = cpArbiterGetPointA(arbiter, i), b = cpArbiterGetPointB(arbiter, i);
            double *row = contacts->out + 4 * contacts->points;
            row[0] = 0.5 * (a.x + b.x); row[1] = 0.5 * (a.y + b.y); row[2] = normal.x; row[3] = normal.y;
        }
        contacts->points++;
    }
    contacts->pairs++;
}

static inline void CChipmunk_ContactsOfBody(cpBody *body, void *data) {
    cpBodyEachArbiter(body, CChipmunk_ContactOfBody, data);
}

/// Counts (and copies, see `CChipmunk_Contacts.out`) the contacts of every body in `space`.
static inline void CChipmunk_SpaceContacts(cpSpace *space, CChipmunk_Contacts *contacts) {
    cpSpaceEachBody(space, CChipmunk_ContactsOfBody, contacts);
}

static inline void CChipmunk_AddKineticEnergy(cpBody *body, void *data) {
    // cpBodyKineticEnergy is m·v² + I·ω² (twice the energy).
    if (cpBodyGetType(body) == CP_BODY_TYPE_DYNAMIC) *(double *)data += 0.5 * cpBodyKineticEnergy(body);
}

/// The kinetic energy of the space's dynamic bodies, ½·m·v² + ½·I·ω² summed.
static inline double CChipmunk_SpaceKineticEnergy(cpSpace *space) {
    double energy = 0;
    cpSpaceEachBody(space, CChipmunk_AddKineticEnergy, &energy);
    return energy;
}

/// Saved states: declared once, in cratedrop_state.h, and defined only in CrateDrop's build of
/// Chipmunk (Backends/portable). The declarations are weak so that the same binary also runs on
/// Debian's libchipmunk7, which lacks them: there their addresses are NULL, which
/// `CChipmunk_HasSavedStates` tells, and nothing calls them.
#include "contact_hooks.h"
#include "queries.h"
#include "autogeometry.h"

#define CRATEDROP_STATE_API __attribute__((weak))
#include "cratedrop_state.h"

/// Whether the loaded libchipmunk is CrateDrop's build, with saved states.
static inline int CChipmunk_HasSavedStates(void) {
    return cratedrop_state_save != NULL && cratedrop_state_restore != NULL && cratedrop_state_restore_as_saved != NULL;
}

/// The loaded build's description (cratedrop_portable_backend), or NULL on any other libchipmunk.
static inline const char *CChipmunk_BuildDescription(void) {
    return cratedrop_portable_backend != NULL ? cratedrop_portable_backend : NULL;
}

#endif
