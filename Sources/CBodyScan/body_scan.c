#include "body_scan.h"

/* cpBody's fields as Chipmunk 7.0.3 lays them out: the same header serves Debian's library and
   CrateDrop's (whose patches leave chipmunk_structs.h as it is). */
#include <chipmunk/chipmunk.h>
#include <chipmunk/chipmunk_structs.h>

/* x - x is 0 exactly for a finite x and NaN for an infinite or NaN one, so the sum of those
   differences is 0 only when every value is finite (a sum of the values themselves could overflow
   to infinity). */
long cbodyscan_first_non_finite(void *const *bodies, long count) {
    for (long i = 0; i < count; i++) {
        const cpBody *body = (const cpBody *)bodies[i];
        double zero = (body->p.x - body->p.x) + (body->p.y - body->p.y) + (body->a - body->a)
            + (body->v.x - body->v.x) + (body->v.y - body->v.y) + (body->w - body->w);
        if (zero != 0) return i;
    }
    return -1;
}
