#ifndef CCHIPMUNK_AUTOGEOMETRY_H
#define CCHIPMUNK_AUTOGEOMETRY_H

/* Terrain from a picture: Chipmunk's marching squares (cpMarchSoft) over a grid of solidity
   values, each segment joined into polylines by cpPolylineSetCollectSegment, with caps that stop
   a picture of noise early (the joining searches every polyline for each segment). */

#include <chipmunk/chipmunk.h>
#include <chipmunk/cpMarch.h>
#include <chipmunk/cpPolyline.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    const uint8_t *solidity; /* width × height, row 0 at the bottom */
    long width, height;
    const double *levels;    /* 256 values: solidity / 255 */
    long segments, maxSegments;
    int maxOutlines;
    int stopped;             /* 0: traced; 1: too many segments; 2: too many outlines */
    cpPolylineSet *set;
} CChipmunk_Terrain;

/* The grid is the picture with one empty sample around it (so every outline closes), sampled at
   whole coordinates: cpMarchCells lerps each coordinate, which lands within far less than half
   a unit of the whole number, so rounding finds the pixel exactly. */
static inline cpFloat CChipmunk_TerrainSample(cpVect point, void *data) {
    CChipmunk_Terrain *terrain = (CChipmunk_Terrain *)data;
    if (terrain->stopped) return 0.0;
    long x = (long)floor(point.x + 0.5), y = (long)floor(point.y + 0.5);
    if (x < 0 || y < 0 || x >= terrain->width || y >= terrain->height) return 0.0;
    return terrain->levels[terrain->solidity[y * terrain->width + x]];
}

static inline void CChipmunk_TerrainSegment(cpVect v0, cpVect v1, void *data) {
    CChipmunk_Terrain *terrain = (CChipmunk_Terrain *)data;
    if (terrain->stopped) return;
    if (++terrain->segments > terrain->maxSegments) { terrain->stopped = 1; return; }
    cpPolylineSetCollectSegment(v0, v1, terrain->set);
    if (terrain->set->count > terrain->maxOutlines) terrain->stopped = 2;
}

/* Traces `terrain` at `threshold` into terrain->set (a new set the caller frees with
   cpPolylineSetFree(set, cpTrue)). The caller checked width and height (at least 1). */
static inline void CChipmunk_TerrainMarch(CChipmunk_Terrain *terrain, double threshold) {
    terrain->set = cpPolylineSetNew();
    cpBB bb = cpBBNew(-1.0, -1.0, (cpFloat)terrain->width, (cpFloat)terrain->height);
    cpMarchSoft(bb, (unsigned long)terrain->width + 2, (unsigned long)terrain->height + 2, threshold,
                (cpMarchSegmentFunc)CChipmunk_TerrainSegment, terrain, CChipmunk_TerrainSample, terrain);
}

/* Concave outlines, a dry run first. Chipmunk's decomposition (ApproximateConcaveDecomposition in
   src/cpPolyline.c) recurses without a bound, with two copies of the piece on the stack (alloca)
   at each level, and on some simple outlines never ends: when a cut runs exactly through a vertex
   its Steiner point repeats that vertex, and when the repeated vertex is the next notch, the cut
   from it has length 0 and the piece is cut into itself again (an outline on a whole-number grid
   does it: found by OutlineDecomposerTests' grid outlines, a stack overflow). Its functions are
   static, so this is the same algorithm, the same arithmetic in the same order (FindSteiner and
   DeepestNotch as Chipmunk 7.0.3 writes them, MIT licence; cpConvexHull is the library's own),
   counting pieces and depth and stopping at the first zero-length cut, missing cut, too deep a
   recursion or too many pieces. Only an outline whose dry run ends is given to Chipmunk, whose run
   then makes the same pieces. Fused multiply-add would round differently from the library
   (built with -ffp-contract=off): it is off here too, in each function (the pragma holds to the end
   of the block it opens). */

typedef struct {
    int pieces, maxPieces;
    int depth, maxDepth;
    int stopped;           /* 0: ends; 1: too deep; 2: a cut of length 0; 3: no cut; 4: too many pieces */
    cpVect where;          /* the notch vertex of a stopping cut */
} CChipmunk_OutlineRun;

typedef struct { int i; cpFloat d; cpVect v; cpVect n; } CChipmunk_Notch;

static inline cpFloat CChipmunk_FindSteiner(int count, const cpVect *verts, CChipmunk_Notch notch, cpFloat *length) {
    #pragma STDC FP_CONTRACT OFF
    cpFloat min = INFINITY;
    cpFloat feature = -1.0;
    for (int i = 1; i < count - 1; i++) {
        int index = (notch.i + i) % count;
        cpVect seg_a = verts[index];
        cpVect seg_b = verts[(index + 1) % count];
        cpFloat thing_a = cpvcross(notch.n, cpvsub(seg_a, notch.v));
        cpFloat thing_b = cpvcross(notch.n, cpvsub(seg_b, notch.v));
        if (thing_a * thing_b <= 0.0) {
            cpFloat t = thing_a / (thing_a - thing_b);
            cpFloat dist = cpvdot(notch.n, cpvsub(cpvlerp(seg_a, seg_b, t), notch.v));
            if (dist >= 0.0 && dist <= min) {
                min = dist;
                feature = index + t;
            }
        }
    }
    *length = min;
    return feature;
}

static inline CChipmunk_Notch CChipmunk_DeepestNotch(int count, const cpVect *verts, int hullCount, const cpVect *hullVerts, int first) {
    #pragma STDC FP_CONTRACT OFF
    CChipmunk_Notch notch = {0, 0.0, {0.0, 0.0}, {0.0, 0.0}};
    int j = (first + 1) % count;
    for (int i = 0; i < hullCount; i++) {
        cpVect a = hullVerts[i];
        cpVect b = hullVerts[(i + 1) % hullCount];
        cpVect n = cpvnormalize(cpvrperp(cpvsub(a, b)));
        cpFloat d = cpvdot(n, a);
        cpVect v = verts[j];
        /* Chipmunk walks until it meets b, which is one of verts: at most count steps. */
        for (int steps = 0; !cpveql(v, b) && steps < count; steps++) {
            cpFloat depth = cpvdot(n, v) - d;
            if (depth > notch.d) {
                notch.d = depth;
                notch.i = j;
                notch.v = v;
                notch.n = n;
            }
            j = (j + 1) % count;
            v = verts[j];
        }
        j = (j + 1) % count;
    }
    return notch;
}

static inline void CChipmunk_OutlineDryRun(CChipmunk_OutlineRun *run, const cpVect *verts, int count, double tol) {
    #pragma STDC FP_CONTRACT OFF
    if (run->stopped) return;
    if (run->depth > run->maxDepth) { run->stopped = 1; return; }
    cpVect *hullVerts = (cpVect *)malloc((size_t)count * sizeof(cpVect));
    if (hullVerts == NULL) { run->stopped = 1; return; }
    int first = 0;
    int hullCount = cpConvexHull(count, verts, hullVerts, &first, 0.0);
    if (hullCount != count) {
        CChipmunk_Notch notch = CChipmunk_DeepestNotch(count, verts, hullCount, hullVerts, first);
        if (notch.d > tol) {
            cpFloat length = 0.0;
            cpFloat steiner_it = CChipmunk_FindSteiner(count, verts, notch, &length);
            if (steiner_it >= 0.0 && length == 0.0) { run->stopped = 2; run->where = notch.v; }
            else if (steiner_it < 0.0) { run->stopped = 3; run->where = notch.v; }
            if (run->stopped) { free(hullVerts); return; }
            int steiner_i = (int)steiner_it;
            cpVect steiner = cpvlerp(verts[steiner_i], verts[(steiner_i + 1) % count], steiner_it - steiner_i);
            int sub1_count = (steiner_i - notch.i + count) % count + 1;
            int sub2_count = count - (steiner_i - notch.i + count) % count;
            int most = sub1_count > sub2_count ? sub1_count : sub2_count;
            cpVect *scratch = (cpVect *)malloc((size_t)(most + 1) * sizeof(cpVect));
            if (scratch == NULL) { free(hullVerts); run->stopped = 1; return; }
            run->depth++;
            for (int i = 0; i < sub1_count; i++) scratch[i] = verts[(notch.i + i) % count];
            scratch[sub1_count] = steiner;
            CChipmunk_OutlineDryRun(run, scratch, sub1_count + 1, tol);
            for (int i = 0; i < sub2_count; i++) scratch[i] = verts[(steiner_i + 1 + i) % count];
            scratch[sub2_count] = steiner;
            CChipmunk_OutlineDryRun(run, scratch, sub2_count + 1, tol);
            run->depth--;
            free(scratch);
            free(hullVerts);
            return;
        }
    }
    free(hullVerts);
    if (++run->pieces > run->maxPieces) run->stopped = 4;
}

/* Concave outlines: Chipmunk's convex decomposition (cpPolylineConvexDecomposition, marked BETA in
   its header) of the polygon `verts` (`count` points, counter-clockwise, not repeating the first),
   closed here as Chipmunk asks (the first point again at the end). Returns a new set of closed
   polylines, one per convex piece in the order Chipmunk pushes them, which the caller frees with
   cpPolylineSetFree(set, cpTrue). The caller checked the polygon first (simple, counter-clockwise,
   3 to 64 points, finite: Chipmunk asserts a closed line and a positive area, which Debian's
   debug build turns into abort()) and its dry run ended (CChipmunk_OutlineDryRun). */
static inline cpPolylineSet *CChipmunk_OutlineDecompose(const cpVect *verts, int count, double tolerance) {
    cpPolyline *line = (cpPolyline *)calloc(1, sizeof(cpPolyline) + (size_t)(count + 1) * sizeof(cpVect));
    if (line == NULL) return NULL;
    line->count = count + 1;
    line->capacity = count + 1;
    for (int i = 0; i < count; i++) line->verts[i] = verts[i];
    line->verts[count] = verts[0];
    cpPolylineSet *set = cpPolylineConvexDecomposition(line, tolerance);
    free(line);
    return set;
}

/* A polyline's vertices (a flexible array member, which Swift does not import). */
static inline const cpVect *CChipmunk_PolylineVerts(const cpPolyline *line) { return line->verts; }

#endif
