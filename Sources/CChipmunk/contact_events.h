#ifndef CCHIPMUNK_CONTACT_EVENTS_H
#define CCHIPMUNK_CONTACT_EVENTS_H

/* Contact events: the space's default collision handler, replaced by one that notes when pairs
   begin and stop touching (and sensors' overlaps begin and end) into a buffer, each step. It
   changes nothing Chipmunk computes: begin and pre-solve return true as the default's do, and a
   handler decides only which callbacks run. Each shape's user data holds its party's code (a
   crate's id, or -(wall index + 1)), set by World. */

#include <chipmunk/chipmunk.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

enum {
    CCHIPMUNK_EVENT_BEGIN = 0,
    CCHIPMUNK_EVENT_END = 1,
    CCHIPMUNK_EVENT_SENSOR_ENTER = 2,
    CCHIPMUNK_EVENT_SENSOR_EXIT = 3,
    /* Per event: kind, party a, party b, point x, y, normal x, y (from a to b; NaN when there is
       none: an end), normal impulse (at least 0) and tangent impulse (0 but for a begin). */
    CCHIPMUNK_EVENT_FIELDS = 9
};

typedef struct {
    double *rows;
    int count, capacity;
    /* Memory ran out: events were lost this step. */
    int lost;
} CChipmunk_Events;

static inline void CChipmunk_EventAppend(CChipmunk_Events *events, int kind, cpArbiter *arb, int withPoint, int withImpulse) {
    if (events->count == events->capacity) {
        int capacity = events->capacity ? 2 * events->capacity : 64;
        double *rows = (double *)realloc(events->rows, (size_t)capacity * CCHIPMUNK_EVENT_FIELDS * sizeof(double));
        if (!rows) { events->lost = 1; return; }
        events->rows = rows;
        events->capacity = capacity;
    }
    cpShape *a, *b;
    cpArbiterGetShapes(arb, &a, &b);
    double *row = events->rows + (size_t)events->count * CCHIPMUNK_EVENT_FIELDS;
    row[0] = kind;
    row[1] = (double)(intptr_t)cpShapeGetUserData(a);
    row[2] = (double)(intptr_t)cpShapeGetUserData(b);
    if (withPoint && cpArbiterGetCount(arb) > 0) {
        cpVect pa = cpArbiterGetPointA(arb, 0), pb = cpArbiterGetPointB(arb, 0), n = cpArbiterGetNormal(arb);
        row[3] = 0.5 * (pa.x + pb.x); row[4] = 0.5 * (pa.y + pb.y); row[5] = n.x; row[6] = n.y;
    } else {
        row[3] = row[4] = row[5] = row[6] = NAN;
    }
    if (withImpulse) {
        /* The impulse on one body or the other, whichever way the arbiter holds the pair: a
           contact only pushes apart, so its normal part is made positive, the tangent part
           turned with it (both then keep when the pair is put in order and n turned round). */
        cpVect j = cpArbiterTotalImpulse(arb), n = cpArbiterGetNormal(arb);
        double sign = cpvdot(j, n) < 0 ? -1.0 : 1.0;
        row[7] = sign * cpvdot(j, n);
        row[8] = sign * cpvcross(n, j);
    } else {
        row[7] = row[8] = 0;
    }
    events->count++;
}

/* Pairs that never push (two bodies of infinite mass: static or kinematic) make no events. */
static inline int CChipmunk_EventPairMoves(cpArbiter *arb) {
    cpBody *a, *b;
    cpArbiterGetBodies(arb, &a, &b);
    return cpBodyGetType(a) == CP_BODY_TYPE_DYNAMIC || cpBodyGetType(b) == CP_BODY_TYPE_DYNAMIC;
}

static inline int CChipmunk_EventIsSensor(cpArbiter *arb) {
    cpShape *a, *b;
    cpArbiterGetShapes(arb, &a, &b);
    return cpShapeGetSensor(a) || cpShapeGetSensor(b);
}

static inline cpBool CChipmunk_EventBeginFunc(cpArbiter *arb, cpSpace *space, cpDataPointer data) {
    (void)space;
    if (data && CChipmunk_EventIsSensor(arb) && CChipmunk_EventPairMoves(arb))
        CChipmunk_EventAppend((CChipmunk_Events *)data, CCHIPMUNK_EVENT_SENSOR_ENTER, arb, 1, 0);
    return cpTrue;
}

static inline cpBool CChipmunk_EventPreSolveFunc(cpArbiter *arb, cpSpace *space, cpDataPointer data) {
    (void)arb; (void)space; (void)data;
    return cpTrue;
}

/* A pair's first step of touching, after the solver: its impulse is known. */
static inline void CChipmunk_EventPostSolveFunc(cpArbiter *arb, cpSpace *space, cpDataPointer data) {
    (void)space;
    if (data && cpArbiterIsFirstContact(arb)) CChipmunk_EventAppend((CChipmunk_Events *)data, CCHIPMUNK_EVENT_BEGIN, arb, 1, 1);
}

static inline void CChipmunk_EventSeparateFunc(cpArbiter *arb, cpSpace *space, cpDataPointer data) {
    (void)space;
    if (!data || !CChipmunk_EventPairMoves(arb)) return;
    CChipmunk_EventAppend((CChipmunk_Events *)data, CChipmunk_EventIsSensor(arb) ? CCHIPMUNK_EVENT_SENSOR_EXIT : CCHIPMUNK_EVENT_END, arb, 0, 0);
}

/* Installs the recording handler with a new, empty buffer; NULL without memory. */
static inline CChipmunk_Events *CChipmunk_EventsInstall(cpSpace *space) {
    CChipmunk_Events *events = (CChipmunk_Events *)calloc(1, sizeof *events);
    if (!events) return NULL;
    cpCollisionHandler *handler = cpSpaceAddDefaultCollisionHandler(space);
    handler->beginFunc = CChipmunk_EventBeginFunc;
    handler->preSolveFunc = CChipmunk_EventPreSolveFunc;
    handler->postSolveFunc = CChipmunk_EventPostSolveFunc;
    handler->separateFunc = CChipmunk_EventSeparateFunc;
    handler->userData = events;
    return events;
}

/* Stops recording (the handler stays, noting nothing) and frees the buffer. */
static inline void CChipmunk_EventsUninstall(cpSpace *space, CChipmunk_Events *events) {
    cpSpaceAddDefaultCollisionHandler(space)->userData = NULL;
    free(events->rows);
    free(events);
}

static inline void CChipmunk_ShapeSetParty(cpShape *shape, long code) { cpShapeSetUserData(shape, (cpDataPointer)(intptr_t)code); }

#endif
