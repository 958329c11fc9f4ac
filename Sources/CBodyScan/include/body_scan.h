#ifndef CBODYSCAN_BODY_SCAN_H
#define CBODYSCAN_BODY_SCAN_H

/* Scans of every body after each step, in one loop in C rather than a library call for each value
   of each body. Bodies are passed as the opaque pointers Swift holds: the struct layout stays
   inside body_scan.c (chipmunk_structs.h), so the Swift module that sees Chipmunk keeps its types
   opaque. */

/* The index of the first of `count` cpBody pointers whose position, angle, velocity or angular
   velocity is not finite, or -1. */
long cbodyscan_first_non_finite(void *const *bodies, long count);

#endif
