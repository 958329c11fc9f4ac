#ifndef CCHIPMUNK_QUERIES_H
#define CCHIPMUNK_QUERIES_H

/* Space queries (what is at a point, along a segment, in a box), each hit appended as a row of
   numbers to a buffer the caller frees: the shape's party (its user data: a crate's id, or
   -(wall index + 1), as World sets it) first, then the query's own values. */

#include <chipmunk/chipmunk.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* `shapes` holds each row's shape (so a compound body's part can be told), grown with `rows`. */
typedef struct {
    double *rows;
    int count, capacity, fields;
    int lost;
    cpShape **shapes;
} CChipmunk_Hits;

static inline double *CChipmunk_HitRow(CChipmunk_Hits *hits, cpShape *shape) {
    if (hits->count == hits->capacity) {
        int capacity = hits->capacity ? 2 * hits->capacity : 16;
        double *rows = (double *)realloc(hits->rows, (size_t)capacity * (size_t)hits->fields * sizeof(double));
        if (!rows) { hits->lost = 1; return NULL; }
        hits->rows = rows;
        cpShape **shapes = (cpShape **)realloc(hits->shapes, (size_t)capacity * sizeof(cpShape *));
        if (!shapes) { hits->lost = 1; return NULL; }
        hits->shapes = shapes;
        hits->capacity = capacity;
    }
    hits->shapes[hits->count] = shape;
    double *row = hits->rows + (size_t)hits->count++ * (size_t)hits->fields;
    row[0] = (double)(intptr_t)cpShapeGetUserData(shape);
    return row;
}

/* Rows: party, nearest point x, y, distance (negative inside), gradient x, y. */
static inline void CChipmunk_PointHit(cpShape *shape, cpVect point, cpFloat distance, cpVect gradient, void *data) {
    double *row = CChipmunk_HitRow((CChipmunk_Hits *)data, shape);
    if (row) { row[1] = point.x; row[2] = point.y; row[3] = distance; row[4] = gradient.x; row[5] = gradient.y; }
}

/* Rows: party, point x, y, normal x, y, alpha (0 at the segment's start, 1 at its end). */
static inline void CChipmunk_SegmentHit(cpShape *shape, cpVect point, cpVect normal, cpFloat alpha, void *data) {
    double *row = CChipmunk_HitRow((CChipmunk_Hits *)data, shape);
    if (row) { row[1] = point.x; row[2] = point.y; row[3] = normal.x; row[4] = normal.y; row[5] = alpha; }
}

/* Rows: party. */
static inline void CChipmunk_BoxHit(cpShape *shape, void *data) { CChipmunk_HitRow((CChipmunk_Hits *)data, shape); }

static inline void CChipmunk_QueryPoint(cpSpace *space, cpVect point, double maxDistance, CChipmunk_Hits *hits) {
    hits->fields = 6;
    cpSpacePointQuery(space, point, maxDistance, CP_SHAPE_FILTER_ALL, CChipmunk_PointHit, hits);
}

/* A thick segment, asked of each shape a box query found. */
typedef struct {
    cpVect a, b;
    cpFloat radius;
    CChipmunk_Hits *hits;
} CChipmunk_ThickSegment;

/* The test cpSpaceSegmentQuery applies to each shape its index gives it (cpShapeSegmentQuery). */
static inline void CChipmunk_ThickSegmentCandidate(cpShape *shape, void *data) {
    CChipmunk_ThickSegment *segment = (CChipmunk_ThickSegment *)data;
    cpSegmentQueryInfo info;
    if (cpShapeSegmentQuery(shape, segment->a, segment->b, segment->radius, &info)) {
        CChipmunk_SegmentHit(shape, info.point, info.normal, info.alpha, segment->hits);
    }
}

/* A segment of radius 0 goes through cpSpaceSegmentQuery. A thicker one does not: the indexes
   prune by the thin segment alone (the bounding-box tree's cpBBSegmentQuery and the spatial
   hash's walk along the line ignore the radius), so shapes within the radius but off the line's
   boxes were missed. Its candidates are the shapes whose boxes meet the thick segment's box
   (cpSpaceBBQuery), each then tested as cpSpaceSegmentQuery tests it. */
static inline void CChipmunk_QuerySegment(cpSpace *space, cpVect a, cpVect b, double radius, CChipmunk_Hits *hits) {
    hits->fields = 6;
    if (radius > 0) {
        CChipmunk_ThickSegment segment = {a, b, radius, hits};
        cpBB box = cpBBNew(cpfmin(a.x, b.x) - radius, cpfmin(a.y, b.y) - radius, cpfmax(a.x, b.x) + radius, cpfmax(a.y, b.y) + radius);
        cpSpaceBBQuery(space, box, CP_SHAPE_FILTER_ALL, CChipmunk_ThickSegmentCandidate, &segment);
    } else {
        cpSpaceSegmentQuery(space, a, b, radius, CP_SHAPE_FILTER_ALL, CChipmunk_SegmentHit, hits);
    }
}

/* The first hit only (cpSpaceSegmentQueryFirst), as one row; none when nothing is hit. For a
   segment of radius 0 only: cpSpaceSegmentQueryFirst prunes as cpSpaceSegmentQuery does. */
static inline void CChipmunk_QuerySegmentFirst(cpSpace *space, cpVect a, cpVect b, double radius, CChipmunk_Hits *hits) {
    hits->fields = 6;
    cpSegmentQueryInfo info;
    cpShape *shape = cpSpaceSegmentQueryFirst(space, a, b, radius, CP_SHAPE_FILTER_ALL, &info);
    if (shape) CChipmunk_SegmentHit(shape, info.point, info.normal, info.alpha, hits);
}

static inline void CChipmunk_QueryBox(cpSpace *space, cpBB box, CChipmunk_Hits *hits) {
    hits->fields = 1;
    cpSpaceBBQuery(space, box, CP_SHAPE_FILTER_ALL, CChipmunk_BoxHit, hits);
}

/* Rows: party, depth (how far the shapes overlap: the deepest contact's distance, whose size is
   taken because Chipmunk 7.0.3's cpShapesCollide gives it the wrong sign when it collides the pair
   in the other order, as it does a polygon against a segment; every contact it reports overlaps). */
static inline void CChipmunk_ShapeHit(cpShape *shape, cpContactPointSet *points, void *data) {
    double deepest = 0;
    for (int i = 0; i < points->count; i++) {
        double depth = fabs(points->points[i].distance);
        if (depth > deepest) deepest = depth;
    }
    double *row = CChipmunk_HitRow((CChipmunk_Hits *)data, shape);
    if (row) row[1] = deepest;
}

/* The shapes `shape` overlaps now, its own filter honoured (cpSpaceShapeQuery). */
static inline void CChipmunk_QueryShape(cpSpace *space, cpShape *shape, CChipmunk_Hits *hits) {
    hits->fields = 2;
    cpSpaceShapeQuery(space, shape, CChipmunk_ShapeHit, hits);
}

#endif
