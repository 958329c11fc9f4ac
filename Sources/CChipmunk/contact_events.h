#ifndef CCHIPMUNK_CONTACT_EVENTS_H
#define CCHIPMUNK_CONTACT_EVENTS_H

/* Contact events: a buffer of the pairs that begin and stop touching (and sensors' overlaps that
   begin and end) in a step. The collision handler that fills it is the contact hooks'
   (contact_hooks.h), the one place that decides what a contact does; noting changes nothing
   Chipmunk computes. Each shape's user data holds its party's code (a crate's id, or
   -(wall index + 1)), set by World. */

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

static inline void CChipmunk_ShapeSetParty(cpShape *shape, long code) { cpShapeSetUserData(shape, (cpDataPointer)(intptr_t)code); }

#endif
