#ifndef CCHIPMUNK_CONTACT_HOOKS_H
#define CCHIPMUNK_CONTACT_HOOKS_H

/* The contact hooks: the one place that decides what a contact does (as Rapier's physics hooks
   are one object). A Chipmunk handler set for a pair of types replaces the default one, and
   wildcard handlers run only when the pair's handler calls them on, so two handlers installed
   apart (a rule and the events writer) would silently undo each other. Here they are one chain on
   the space's default handler: each callback applies the rules first, then notes the events of
   what the rules let through.

   Rules: a shape with a one-way direction (its collision type is 1 + its index in `oneWay`) has
   the contacts ignored whose normal, taken from it to the other shape, points against that
   direction (demo/OneWay.c's pre-solve; cpArbiterIgnore is remembered by the arbiter until the
   pair parts, and saved states keep it). Surface velocities are the shapes' own
   (cpShapeSetSurfaceVelocity) and need no callback. */

#include "contact_events.h"

typedef struct {
    /* Where events are noted; NULL while none are. */
    CChipmunk_Events *events;
    /* One-way directions, world coordinates, by collision type - 1. */
    cpVect *oneWay;
    int oneWayCount, oneWayCapacity;
} CChipmunk_ContactHooks;

/* The direction of `shape`'s one-way rule, or 0 when it has none. */
static inline int CChipmunk_HooksOneWay(const CChipmunk_ContactHooks *hooks, cpShape *shape, cpVect *direction) {
    cpCollisionType type = cpShapeGetCollisionType(shape);
    if (type == 0 || type > (cpCollisionType)hooks->oneWayCount) return 0;
    *direction = hooks->oneWay[type - 1];
    return 1;
}

/* Whether the rules ignore this contact: either shape's one-way direction against the normal
   from it to the other (cpArbiterGetNormal points from a to b). */
static inline int CChipmunk_HooksIgnores(const CChipmunk_ContactHooks *hooks, cpArbiter *arb) {
    if (hooks->oneWayCount == 0) return 0;
    cpShape *a, *b;
    cpArbiterGetShapes(arb, &a, &b);
    cpVect n = cpArbiterGetNormal(arb), direction;
    if (CChipmunk_HooksOneWay(hooks, a, &direction) && cpvdot(n, direction) < 0) return 1;
    if (CChipmunk_HooksOneWay(hooks, b, &direction) && cpvdot(n, direction) > 0) return 1;
    return 0;
}

static inline cpBool CChipmunk_HooksBegin(cpArbiter *arb, cpSpace *space, cpDataPointer data) {
    (void)space;
    CChipmunk_ContactHooks *hooks = (CChipmunk_ContactHooks *)data;
    if (hooks->events && CChipmunk_EventIsSensor(arb) && CChipmunk_EventPairMoves(arb))
        CChipmunk_EventAppend(hooks->events, CCHIPMUNK_EVENT_SENSOR_ENTER, arb, 1, 0);
    return cpTrue;
}

static inline cpBool CChipmunk_HooksPreSolve(cpArbiter *arb, cpSpace *space, cpDataPointer data) {
    (void)space;
    CChipmunk_ContactHooks *hooks = (CChipmunk_ContactHooks *)data;
    if (!CChipmunk_HooksIgnores(hooks, arb)) return cpTrue;
    /* A pair that touched (its begin noted) and is ignored from now on stops touching here: its
       end is noted now, since an ignored pair has no contacts when it parts. */
    if (hooks->events && !cpArbiterIsFirstContact(arb) && !CChipmunk_EventIsSensor(arb) && cpArbiterGetCount(arb) > 0
        && CChipmunk_EventPairMoves(arb))
        CChipmunk_EventAppend(hooks->events, CCHIPMUNK_EVENT_END, arb, 0, 0);
    return cpArbiterIgnore(arb);
}

/* A pair's first step of touching, after the solver: its impulse is known. */
static inline void CChipmunk_HooksPostSolve(cpArbiter *arb, cpSpace *space, cpDataPointer data) {
    (void)space;
    CChipmunk_ContactHooks *hooks = (CChipmunk_ContactHooks *)data;
    if (hooks->events && cpArbiterIsFirstContact(arb)) CChipmunk_EventAppend(hooks->events, CCHIPMUNK_EVENT_BEGIN, arb, 1, 1);
}

static inline void CChipmunk_HooksSeparate(cpArbiter *arb, cpSpace *space, cpDataPointer data) {
    (void)space;
    CChipmunk_ContactHooks *hooks = (CChipmunk_ContactHooks *)data;
    if (!hooks->events || !CChipmunk_EventPairMoves(arb)) return;
    int sensor = CChipmunk_EventIsSensor(arb);
    /* A pair the rules ignored has no contacts: it never began (or its end was noted as it was ignored). */
    if (!sensor && cpArbiterGetCount(arb) == 0) return;
    CChipmunk_EventAppend(hooks->events, sensor ? CCHIPMUNK_EVENT_SENSOR_EXIT : CCHIPMUNK_EVENT_END, arb, 0, 0);
}

/* Installs the hooks as the space's default collision handler; NULL without memory. */
static inline CChipmunk_ContactHooks *CChipmunk_HooksInstall(cpSpace *space) {
    CChipmunk_ContactHooks *hooks = (CChipmunk_ContactHooks *)calloc(1, sizeof *hooks);
    if (!hooks) return NULL;
    cpCollisionHandler *handler = cpSpaceAddDefaultCollisionHandler(space);
    handler->beginFunc = CChipmunk_HooksBegin;
    handler->preSolveFunc = CChipmunk_HooksPreSolve;
    handler->postSolveFunc = CChipmunk_HooksPostSolve;
    handler->separateFunc = CChipmunk_HooksSeparate;
    handler->userData = hooks;
    return hooks;
}

/* Frees the hooks, once the space and its shapes are gone (removing a shape calls separate). */
static inline void CChipmunk_HooksFree(CChipmunk_ContactHooks *hooks) {
    if (hooks->events) {
        free(hooks->events->rows);
        free(hooks->events);
    }
    free(hooks->oneWay);
    free(hooks);
}

/* Starts noting events into a new, empty buffer; 0 without memory. */
static inline int CChipmunk_HooksStartEvents(CChipmunk_ContactHooks *hooks) {
    if (hooks->events) return 1;
    hooks->events = (CChipmunk_Events *)calloc(1, sizeof *hooks->events);
    return hooks->events != NULL;
}

/* Stops noting events and frees their buffer. */
static inline void CChipmunk_HooksStopEvents(CChipmunk_ContactHooks *hooks) {
    if (!hooks->events) return;
    free(hooks->events->rows);
    free(hooks->events);
    hooks->events = NULL;
}

/* Gives `shape` a one-way rule of `direction` (world coordinates, not zero): the next collision
   type. 0 without memory. */
static inline int CChipmunk_HooksAddOneWay(CChipmunk_ContactHooks *hooks, cpShape *shape, cpVect direction) {
    if (hooks->oneWayCount == hooks->oneWayCapacity) {
        int capacity = hooks->oneWayCapacity ? 2 * hooks->oneWayCapacity : 8;
        cpVect *grown = (cpVect *)realloc(hooks->oneWay, (size_t)capacity * sizeof *grown);
        if (!grown) return 0;
        hooks->oneWay = grown;
        hooks->oneWayCapacity = capacity;
    }
    hooks->oneWay[hooks->oneWayCount++] = direction;
    cpShapeSetCollisionType(shape, (cpCollisionType)hooks->oneWayCount);
    return 1;
}

#endif
