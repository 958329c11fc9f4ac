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

/* Concave outlines: Chipmunk's convex decomposition (cpPolylineConvexDecomposition, marked BETA in
   its header) of the polygon `verts` (`count` points, counter-clockwise, not repeating the first),
   closed here as Chipmunk asks (the first point again at the end). Returns a new set of closed
   polylines, one per convex piece in the order Chipmunk pushes them, which the caller frees with
   cpPolylineSetFree(set, cpTrue). The caller checked the polygon first (simple, counter-clockwise,
   3 to 64 points, finite): Chipmunk asserts a closed line and a positive area, which Debian's
   debug build turns into abort(). */
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
