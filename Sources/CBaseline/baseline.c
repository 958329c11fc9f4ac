#include "cbaseline.h"

#include <chipmunk/chipmunk.h>
/* Weak: this baseline runs on CrateDrop's Chipmunk and on Debian's, which lacks saved states. */
#define CRATEDROP_STATE_API __attribute__((weak))
#include "../CChipmunk/cratedrop_state.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void set_collision(cpShape *shape, cbaseline_collision c) {
    if (c.group != 0 || c.categories != 0xffffffffu || c.mask != 0xffffffffu)
        cpShapeSetFilter(shape, cpShapeFilterNew((cpGroup)c.group, c.categories, c.mask));
    if (c.sensor) cpShapeSetSensor(shape, cpTrue);
}

/* Up to 32 points (SceneModel's Limits.polygonVertices, which the callers check) as Chipmunk vectors. */
static int points(const double *xy, int count, cpVect *out) {
    if (count < 0) count = 0;
    if (count > 32) count = 32;
    for (int i = 0; i < count; i++) out[i] = cpv(xy[2 * i], xy[2 * i + 1]);
    return count;
}

struct cbaseline_world {
    cpSpace *space;
    cpFloat dt;
    int step_rate;
    long long steps_taken;
    int wall_count, wall_capacity;
    cpShape **walls;
    cpBody *tumbler_body;
    cpShape *tumbler_shapes[4];
    /* Every crate made, by index (its body id less one), for ever: a removed one's slots are
       NULL. `bodies`, `shapes` and `drags` have room for crate_capacity. */
    int crate_count, crate_capacity;
    cpBody **bodies;
    cpShape **shapes;
    /* A compound crate's shapes in part order (shapes[i] is its first), and their count; NULL
       and 0 for a crate of one shape. */
    cpShape ***parts;
    int *part_counts;
    /* Every joint made, by index (its joint id less one), with its kind and its breaking
       thresholds (break impulse, break force; a threshold is set when > 0): a removed one is NULL.
       `breakable` joints in the world have a threshold; `broken` has room for joint_capacity. */
    int joint_count, joint_capacity, breakable;
    cpConstraint **joints;
    int *joint_kinds;
    double (*joint_breaks)[2];
    int *broken;
    /* Crates held for the start of a step (cbaseline_spawn), by step then in the order held;
       those before `next_spawn` are made (or were held too late). Each owns its vertex copy. */
    struct spawn { long long step; cbaseline_crate crate; } *spawns;
    int spawn_count, spawn_capacity, next_spawn;
    /* Forces held over the next steps, in the order held. */
    struct held { int index; cpVect force, point; int has_point; double torque; int remaining; } *held;
    int held_count, held_capacity;
    /* Each crate's drag (a pivot joint from the static body), or NULL; by crate index. */
    cpConstraint **drags;
    /* One-way directions, by a shape's user data less one (set_rules). */
    cpVect *one_way;
    int one_way_count, one_way_capacity;
};

static cpVect world_one_way(const cbaseline_world *world, uintptr_t rule) { return world->one_way[rule - 1]; }

/* A one-way shape's direction is found by its user data: its index in the world's `one_way`, plus one. */
static cpBool one_way_pre_solve(cpArbiter *arb, cpSpace *space, cpDataPointer data) {
    (void)space;
    const cbaseline_world *world = data;
    cpShape *a, *b;
    cpArbiterGetShapes(arb, &a, &b);
    cpVect n = cpArbiterGetNormal(arb); /* from a to b */
    uintptr_t ra = (uintptr_t)cpShapeGetUserData(a), rb = (uintptr_t)cpShapeGetUserData(b);
    if (ra && cpvdot(n, world_one_way(world, ra)) < 0) return cpArbiterIgnore(arb);
    /* b's normal towards a is -n. */
    if (rb && cpvdot(n, world_one_way(world, rb)) > 0) return cpArbiterIgnore(arb);
    return cpTrue;
}

/* The handler's other callbacks: nothing but what Chipmunk's default does without wildcard
   handlers. Chipmunk's own (DefaultBegin, ...) call the wildcard handlers through the arbiter,
   which a restored saved state leaves unset (patch 0005) until the pair collides again: one that
   parts at once would crash. */
static cpBool accept_contact(cpArbiter *arb, cpSpace *space, cpDataPointer data) { (void)arb; (void)space; (void)data; return cpTrue; }
static void note_nothing(cpArbiter *arb, cpSpace *space, cpDataPointer data) { (void)arb; (void)space; (void)data; }

/* Sets `shape`'s surface velocity, when given (before the shape is added). */
static void set_surface_velocity(cpShape *shape, cbaseline_rules r) {
    if (r.has_surface_velocity) cpShapeSetSurfaceVelocity(shape, cpv(r.surface_vx, r.surface_vy));
}

/* Gives `shape` its one-way direction, when given (after the shape is added): the first puts the
   pre-solve on the space's default handler (a world without one keeps Chipmunk's default). */
static void set_one_way(cbaseline_world *world, cpShape *shape, cbaseline_rules r) {
    if (!r.has_one_way) return;
    if (world->one_way_count == 0) {
        cpCollisionHandler *handler = cpSpaceAddDefaultCollisionHandler(world->space);
        handler->beginFunc = accept_contact;
        handler->preSolveFunc = one_way_pre_solve;
        handler->postSolveFunc = note_nothing;
        handler->separateFunc = note_nothing;
        handler->userData = world;
    }
    if (world->one_way_count == world->one_way_capacity) {
        world->one_way_capacity = world->one_way_capacity ? 2 * world->one_way_capacity : 8;
        world->one_way = realloc(world->one_way, (size_t)world->one_way_capacity * sizeof *world->one_way);
        if (!world->one_way) abort();
    }
    world->one_way[world->one_way_count++] = cpv(r.one_way_x, r.one_way_y);
    cpShapeSetUserData(shape, (cpDataPointer)(uintptr_t)world->one_way_count);
}


/* Whether a crate's part (or a simple crate) is of a kind cbaseline.h lists. Every switch over
   kinds below names each kind it makes: a kind not listed is refused here, before anything is
   made, never made as a box or a motor by a `default:`. */
static int known_part_kind(int kind) {
    switch (kind) {
    case CBASELINE_BOX:
    case CBASELINE_CIRCLE:
    case CBASELINE_POLYGON:
    case CBASELINE_SEGMENT: return 1;
    default: return 0;
    }
}

/* Whether crate `c` and, for a compound one, each of its parts are of kinds cbaseline.h lists. */
static int known_crate(const cbaseline_crate *c) {
    if (c->kind != CBASELINE_COMPOUND) return known_part_kind(c->kind);
    for (int j = 0; j < c->part_count; j++) if (!known_part_kind(c->parts[j].kind)) return 0;
    return 1;
}

/* Whether a wall is a segment or a polygon, the kinds a wall can be. */
static int known_wall(const cbaseline_wall *w) { return w->kind == CBASELINE_SEGMENT || w->kind == CBASELINE_POLYGON; }

static int known_joint_kind(int kind) {
    switch (kind) {
    case CBASELINE_JOINT_PIN:
    case CBASELINE_JOINT_SLIDE:
    case CBASELINE_JOINT_PIVOT:
    case CBASELINE_JOINT_PIVOT_ANCHORS:
    case CBASELINE_JOINT_GROOVE:
    case CBASELINE_JOINT_DAMPED_SPRING:
    case CBASELINE_JOINT_DAMPED_ROTARY_SPRING:
    case CBASELINE_JOINT_ROTARY_LIMIT:
    case CBASELINE_JOINT_RATCHET:
    case CBASELINE_JOINT_GEAR:
    case CBASELINE_JOINT_SIMPLE_MOTOR: return 1;
    default: return 0;
    }
}

/* The joint `j` describes between bodies a and b; NULL for a kind not listed (known_joint_kind
   refuses it first). */
static cpConstraint *joint_new(const cbaseline_joint *j, cpBody *a, cpBody *b) {
    const double *p = j->params;
    switch (j->kind) {
    case CBASELINE_JOINT_PIN: return cpPinJointNew(a, b, cpv(p[0], p[1]), cpv(p[2], p[3]));
    case CBASELINE_JOINT_SLIDE: return cpSlideJointNew(a, b, cpv(p[0], p[1]), cpv(p[2], p[3]), p[4], p[5]);
    case CBASELINE_JOINT_PIVOT: return cpPivotJointNew(a, b, cpv(p[0], p[1]));
    case CBASELINE_JOINT_PIVOT_ANCHORS: return cpPivotJointNew2(a, b, cpv(p[0], p[1]), cpv(p[2], p[3]));
    case CBASELINE_JOINT_GROOVE: return cpGrooveJointNew(a, b, cpv(p[0], p[1]), cpv(p[2], p[3]), cpv(p[4], p[5]));
    case CBASELINE_JOINT_DAMPED_SPRING: return cpDampedSpringNew(a, b, cpv(p[0], p[1]), cpv(p[2], p[3]), p[4], p[5], p[6]);
    case CBASELINE_JOINT_DAMPED_ROTARY_SPRING: return cpDampedRotarySpringNew(a, b, p[0], p[1], p[2]);
    case CBASELINE_JOINT_ROTARY_LIMIT: return cpRotaryLimitJointNew(a, b, p[0], p[1]);
    case CBASELINE_JOINT_RATCHET: return cpRatchetJointNew(a, b, p[0], p[1]);
    case CBASELINE_JOINT_GEAR: return cpGearJointNew(a, b, p[0], p[1]);
    case CBASELINE_JOINT_SIMPLE_MOTOR: return cpSimpleMotorNew(a, b, p[0]);
    default: return NULL;
    }
}

/* `array` (of `count` entries of `size` bytes) moved to room for `capacity`, the new entries zeroed (NULL slots). */
static void *resized(void *array, int count, int capacity, size_t size) {
    char *bigger = realloc(array, (size_t)capacity * size);
    if (!bigger) abort();
    memset(bigger + (size_t)count * size, 0, (size_t)(capacity - count) * size);
    return bigger;
}

/* The capacity for one entry more than `count` when `capacity` is full: doubled. */
static int grown(int count, int capacity) { return count < capacity ? capacity : (capacity ? 2 * capacity : 8); }

/* Room for one more crate in `bodies`, `shapes` and `drags`, which share a capacity. */
static void reserve_crate(cbaseline_world *world) {
    int count = world->crate_count, capacity = grown(count, world->crate_capacity);
    if (capacity == world->crate_capacity) return;
    world->bodies = resized(world->bodies, count, capacity, sizeof *world->bodies);
    world->shapes = resized(world->shapes, count, capacity, sizeof *world->shapes);
    world->parts = resized(world->parts, count, capacity, sizeof *world->parts);
    world->part_counts = resized(world->part_counts, count, capacity, sizeof *world->part_counts);
    world->drags = resized(world->drags, count, capacity, sizeof *world->drags);
    world->crate_capacity = capacity;
}

/* Room for one more joint in `joints`, `joint_kinds`, `joint_breaks` and `broken`. */
static void reserve_joint(cbaseline_world *world) {
    int count = world->joint_count, capacity = grown(count, world->joint_capacity);
    if (capacity == world->joint_capacity) return;
    world->joints = resized(world->joints, count, capacity, sizeof *world->joints);
    world->joint_kinds = resized(world->joint_kinds, count, capacity, sizeof *world->joint_kinds);
    world->joint_breaks = resized(world->joint_breaks, count, capacity, sizeof *world->joint_breaks);
    world->broken = resized(world->broken, count, capacity, sizeof *world->broken);
    world->joint_capacity = capacity;
}

/* Whether a threshold is set: > 0 (NaN and a zeroed struct's 0 are not). */
static int threshold_set(double threshold) { return threshold > 0; }

/* Crate `index`'s body, or NULL when there is none (removed, or never made). */
static cpBody *body_at(const cbaseline_world *world, int index) {
    return index >= 0 && index < world->crate_count ? world->bodies[index] : NULL;
}

/* A joint's end: crate `index`'s body, the static body for -1, NULL when there is no such crate. */
static cpBody *end_at(cbaseline_world *world, int index) {
    return index == -1 ? cpSpaceGetStaticBody(world->space) : body_at(world, index);
}

/* Makes wall `w` on the static body, its friction, elasticity and filter set, adds it to the
   space and appends it to the walls; CBASELINE_UNKNOWN_KIND (nothing made) for a kind a wall
   cannot be. */
static int make_wall(cbaseline_world *world, const cbaseline_wall *w) {
    if (!known_wall(w)) return CBASELINE_UNKNOWN_KIND;
    cpBody *ground = cpSpaceGetStaticBody(world->space);
    cpShape *shape;
    if (w->kind == CBASELINE_POLYGON) {
        cpVect verts[32];
        int n = points(w->vertices, w->vertex_count, verts);
        shape = cpPolyShapeNew(ground, n, verts, cpTransformIdentity, w->radius);
    } else { /* CBASELINE_SEGMENT (known_wall) */
        shape = cpSegmentShapeNew(ground, cpv(w->ax, w->ay), cpv(w->bx, w->by), w->radius);
    }
    cpShapeSetFriction(shape, w->friction);
    cpShapeSetElasticity(shape, w->elasticity);
    set_collision(shape, w->collision);
    set_surface_velocity(shape, w->rules);
    cpSpaceAddShape(world->space, shape);
    set_one_way(world, shape, w->rules);
    int capacity = grown(world->wall_count, world->wall_capacity);
    if (capacity != world->wall_capacity) world->walls = resized(world->walls, world->wall_count, capacity, sizeof *world->walls);
    world->wall_capacity = capacity;
    world->walls[world->wall_count++] = shape;
    return 0;
}

/* The rotation [cos angle, sin angle] as the Chipmunk library computes it (cpBodySetAngle's
   cpvforangle, compiled into libchipmunk with its own maths: musl's in the portable backend), as
   Physics' CChipmunk_LibraryRotation takes it: this program's libm would differ between CPUs. */
static cpVect library_rotation(double angle) {
    cpBody *scratch = cpBodyNew(0.0, 0.0);
    cpBodySetAngle(scratch, angle);
    cpVect rotation = cpBodyGetRotation(scratch);
    cpBodyFree(scratch);
    return rotation;
}

/* cpTransformRigid(offset, angle)'s matrix from the library's rotation. */
static cpTransform part_placement(cpVect offset, double angle) {
    cpVect r = library_rotation(angle);
    return cpTransformNewTranspose(r.x, -r.y, offset.x, r.y, r.x, offset.y);
}

/* Part `p`'s shape on `body`, placed as Physics' Chipmunk.partShapeNew places it: a box or polygon
   through cpPolyShapeNew with cpTransformRigid(offset, angle)'s matrix (a box as its corners from
   bottom left, counter-clockwise), a circle at its offset, a segment's ends turned and moved here,
   each product its own statement so that no compiler fuses a multiply and an add; cos and sin are
   the library's (library_rotation). NULL for a kind not listed (known_crate refuses it first). */
static cpShape *make_part_shape(cpBody *body, const cbaseline_part *p) {
    cpVect offset = cpv(p->offset_x, p->offset_y);
    switch (p->kind) {
    case CBASELINE_CIRCLE: return cpCircleShapeNew(body, p->radius, offset);
    case CBASELINE_SEGMENT: {
        cpVect r = library_rotation(p->angle);
        double c = r.x, s = r.y;
        double ends[2][2] = {{p->ax, p->ay}, {p->bx, p->by}};
        cpVect placed[2];
        for (int i = 0; i < 2; i++) {
            double x = c * ends[i][0], y = s * ends[i][1], u = s * ends[i][0], v = c * ends[i][1];
            double px = x - y, py = u + v;
            placed[i] = cpv(px + p->offset_x, py + p->offset_y);
        }
        return cpSegmentShapeNew(body, placed[0], placed[1], p->radius);
    }
    case CBASELINE_POLYGON: {
        cpVect verts[32];
        int n = points(p->vertices, p->vertex_count, verts);
        return cpPolyShapeNew(body, n, verts, part_placement(offset, p->angle), p->radius);
    }
    case CBASELINE_BOX: {
        double w = p->width / 2, h = p->height / 2;
        cpVect corners[4] = {cpv(-w, -h), cpv(w, -h), cpv(w, h), cpv(-w, h)};
        return cpPolyShapeNew(body, 4, corners, part_placement(offset, p->angle), 0);
    }
    default: return NULL;
    }
}

/* Frees crate `index`'s shapes (a compound crate's parts, and their list). */
static void free_crate_shapes(cbaseline_world *world, int index) {
    if (world->parts[index]) {
        for (int j = 0; j < world->part_counts[index]; j++) cpShapeFree(world->parts[index][j]);
        free(world->parts[index]);
        world->parts[index] = NULL;
    } else if (world->shapes[index]) {
        cpShapeFree(world->shapes[index]);
    }
}

/* Makes compound crate `c` in the documented order (docs/scenes.md, "Construction order"): the
   body with mass and moment 0; each part's shape, mass, friction, elasticity and collision; the
   body's position, angle and velocities; the body, then each part's shape, added to the space. */
static int make_compound_crate(cbaseline_world *world, const cbaseline_crate *c) {
    cpBody *body = cpBodyNew(0, 0);
    int count = c->part_count < 0 ? 0 : c->part_count;
    cpShape **shapes = calloc((size_t)count + 1, sizeof *shapes);
    for (int j = 0; j < count; j++) {
        const cbaseline_part *p = &c->parts[j];
        shapes[j] = make_part_shape(body, p);
        cpShapeSetMass(shapes[j], p->mass);
        cpShapeSetFriction(shapes[j], p->friction);
        cpShapeSetElasticity(shapes[j], p->elasticity);
        set_collision(shapes[j], p->collision);
    }
    cpBodySetPosition(body, cpv(c->cx, c->cy));
    cpBodySetAngle(body, c->angle);
    cpBodySetVelocity(body, cpv(c->vx, c->vy));
    cpBodySetAngularVelocity(body, c->angular_velocity);
    cpSpaceAddBody(world->space, body);
    for (int j = 0; j < count; j++) cpSpaceAddShape(world->space, shapes[j]);
    reserve_crate(world);
    world->bodies[world->crate_count] = body;
    world->shapes[world->crate_count] = shapes[0];
    world->parts[world->crate_count] = shapes;
    world->part_counts[world->crate_count] = count;
    return world->crate_count++;
}

/* Makes crate `c` (body, shape, position, angle, velocities, material, filter), adds the body and
   then the shape to the space, and gives it the next index; CBASELINE_UNKNOWN_KIND (nothing made)
   when it or one of its parts is of a kind not listed. */
static int make_crate(cbaseline_world *world, const cbaseline_crate *c) {
    if (!known_crate(c)) return CBASELINE_UNKNOWN_KIND;
    if (c->kind == CBASELINE_COMPOUND) return make_compound_crate(world, c);
    cpVect verts[32];
    int n = c->kind == CBASELINE_POLYGON ? points(c->vertices, c->vertex_count, verts) : 0;
    cpVect a = cpv(c->ax, c->ay), b = cpv(c->bx, c->by);
    cpFloat moment;
    switch (c->kind) {
    case CBASELINE_CIRCLE: moment = cpMomentForCircle(c->mass, 0, c->radius, cpvzero); break;
    case CBASELINE_POLYGON: moment = cpMomentForPoly(c->mass, n, verts, cpvzero, c->radius); break;
    case CBASELINE_SEGMENT: moment = cpMomentForSegment(c->mass, a, b, c->radius); break;
    case CBASELINE_BOX: moment = cpMomentForBox(c->mass, c->width, c->height); break;
    default: return CBASELINE_UNKNOWN_KIND; /* known_crate refused it already */
    }
    cpBody *body = c->kinematic ? cpBodyNewKinematic() : cpBodyNew(c->mass, moment);
    cpShape *shape = NULL;
    switch (c->kind) {
    case CBASELINE_CIRCLE: shape = cpCircleShapeNew(body, c->radius, cpvzero); break;
    case CBASELINE_POLYGON: shape = cpPolyShapeNew(body, n, verts, cpTransformIdentity, c->radius); break;
    case CBASELINE_SEGMENT: shape = cpSegmentShapeNew(body, a, b, c->radius); break;
    case CBASELINE_BOX: shape = cpBoxShapeNew(body, c->width, c->height, 0); break;
    }
    cpBodySetPosition(body, cpv(c->cx, c->cy));
    cpBodySetAngle(body, c->angle);
    cpBodySetVelocity(body, cpv(c->vx, c->vy));
    cpBodySetAngularVelocity(body, c->angular_velocity);
    cpShapeSetFriction(shape, c->friction);
    cpShapeSetElasticity(shape, c->elasticity);
    set_collision(shape, c->collision);
    set_surface_velocity(shape, c->rules);
    cpSpaceAddBody(world->space, body);
    cpSpaceAddShape(world->space, shape);
    set_one_way(world, shape, c->rules);
    reserve_crate(world);
    world->bodies[world->crate_count] = body;
    world->shapes[world->crate_count] = shape;
    world->parts[world->crate_count] = NULL;
    world->part_counts[world->crate_count] = 0;
    return world->crate_count++;
}

/* Sets what joint `joint` of `kind` works out when made (a pin's length, a pivot's anchors, a
   ratchet's angle) to `values`, as CrateDrop's World does for a replayed make-up log. */
static void set_made_values(cpConstraint *joint, int kind, const double *values) {
    switch (kind) {
    case CBASELINE_JOINT_PIN: cpPinJointSetDist(joint, values[0]); break;
    case CBASELINE_JOINT_PIVOT:
    case CBASELINE_JOINT_PIVOT_ANCHORS:
        cpPivotJointSetAnchorA(joint, cpv(values[0], values[1]));
        cpPivotJointSetAnchorB(joint, cpv(values[2], values[3]));
        break;
    case CBASELINE_JOINT_RATCHET: cpRatchetJointSetAngle(joint, values[0]); break;
    default: break;
    }
}

/* Makes joint `j` (the constraint, its settings, the made values when given), adds it to the
   space and gives it the next index; -1 (nothing made) when an end is not in the world,
   CBASELINE_UNKNOWN_KIND when its kind is not listed. */
static int make_joint(cbaseline_world *world, const cbaseline_joint *j, const double *made_values) {
    if (!known_joint_kind(j->kind)) return CBASELINE_UNKNOWN_KIND;
    cpBody *a = end_at(world, j->a), *b = end_at(world, j->b);
    if (!a || !b) return -1;
    cpConstraint *joint = joint_new(j, a, b);
    if (!isnan(j->max_force)) cpConstraintSetMaxForce(joint, j->max_force);
    if (!isnan(j->max_bias)) cpConstraintSetMaxBias(joint, j->max_bias);
    if (!isnan(j->error_bias)) cpConstraintSetErrorBias(joint, j->error_bias);
    if (!j->collide_bodies) cpConstraintSetCollideBodies(joint, cpFalse);
    if (made_values) set_made_values(joint, j->kind, made_values);
    cpSpaceAddConstraint(world->space, joint);
    reserve_joint(world);
    world->joints[world->joint_count] = joint;
    world->joint_kinds[world->joint_count] = j->kind;
    world->joint_breaks[world->joint_count][0] = threshold_set(j->break_impulse) ? j->break_impulse : 0;
    world->joint_breaks[world->joint_count][1] = threshold_set(j->break_force) ? j->break_force : 0;
    if (threshold_set(j->break_impulse) || threshold_set(j->break_force)) world->breakable++;
    return world->joint_count++;
}

cbaseline_world *cbaseline_create(const cbaseline_config *config, const cbaseline_wall *walls, int wall_count,
                                  const cbaseline_crate *crates, int crate_count, const cbaseline_joint *joints, int joint_count) {
    /* Every kind checked before anything is made: a scene is built whole or not at all. */
    for (int i = 0; i < wall_count; i++) if (!known_wall(&walls[i])) return NULL;
    for (int i = 0; i < crate_count; i++) if (!known_crate(&crates[i])) return NULL;
    for (int i = 0; i < joint_count; i++) if (!known_joint_kind(joints[i].kind)) return NULL;
    cbaseline_world *world = calloc(1, sizeof *world);
    world->space = cpSpaceNew();
    world->dt = 1.0 / (cpFloat)config->step_rate;
    world->step_rate = config->step_rate;
    cpSpaceSetGravity(world->space, cpv(config->gravity_x, config->gravity_y));
    cpSpaceSetIterations(world->space, config->iterations);
    if (config->hash_cells > 0) cpSpaceUseSpatialHash(world->space, config->hash_cell_size, config->hash_cells);
    if (config->sleep_time > 0) cpSpaceSetSleepTimeThreshold(world->space, config->sleep_time);

    for (int i = 0; i < wall_count; i++) make_wall(world, &walls[i]);

    if (config->has_tumbler) {
        cpBody *body = cpBodyNewKinematic();
        cpBodySetPosition(body, cpv(config->tumbler_cx, config->tumbler_cy));
        cpBodySetAngularVelocity(body, config->tumbler_omega);
        double hw = config->tumbler_width / 2, hh = config->tumbler_height / 2;
        cpVect corners[4] = {cpv(-hw, -hh), cpv(hw, -hh), cpv(hw, hh), cpv(-hw, hh)};
        for (int i = 0; i < 4; i++) {
            cpShape *shape = cpSegmentShapeNew(body, corners[i], corners[(i + 1) % 4], config->tumbler_radius);
            cpShapeSetFriction(shape, config->tumbler_friction);
            cpShapeSetElasticity(shape, config->tumbler_elasticity);
            world->tumbler_shapes[i] = shape;
        }
        cpSpaceAddBody(world->space, body);
        for (int i = 0; i < 4; i++) cpSpaceAddShape(world->space, world->tumbler_shapes[i]);
        world->tumbler_body = body;
    }

    for (int i = 0; i < crate_count; i++) make_crate(world, &crates[i]);
    /* Scene joints name earlier crates (the callers check): each is made. */
    for (int i = 0; i < joint_count; i++) make_joint(world, &joints[i], NULL);
    return world;
}

int cbaseline_add_crate(cbaseline_world *world, const cbaseline_crate *crate) { return make_crate(world, crate); }

int cbaseline_add_wall(cbaseline_world *world, const cbaseline_wall *wall) { return make_wall(world, wall); }

int cbaseline_add_joint(cbaseline_world *world, const cbaseline_joint *joint, const double *made_values) {
    return make_joint(world, joint, made_values);
}

int cbaseline_joint_made_values(const cbaseline_world *world, int index, double values[4]) {
    cpConstraint *joint = index >= 0 && index < world->joint_count ? world->joints[index] : NULL;
    if (!joint) return 0;
    switch (world->joint_kinds[index]) {
    case CBASELINE_JOINT_PIN: values[0] = cpPinJointGetDist(joint); return 1;
    case CBASELINE_JOINT_PIVOT:
    case CBASELINE_JOINT_PIVOT_ANCHORS: {
        cpVect a = cpPivotJointGetAnchorA(joint), b = cpPivotJointGetAnchorB(joint);
        values[0] = a.x;
        values[1] = a.y;
        values[2] = b.x;
        values[3] = b.y;
        return 4;
    }
    case CBASELINE_JOINT_RATCHET: values[0] = cpRatchetJointGetAngle(joint); return 1;
    default: return 0;
    }
}

void cbaseline_remove_joint(cbaseline_world *world, int index) {
    cpConstraint *joint = index >= 0 && index < world->joint_count ? world->joints[index] : NULL;
    if (!joint) return;
    cpSpaceRemoveConstraint(world->space, joint);
    cpConstraintFree(joint);
    world->joints[index] = NULL;
    if (threshold_set(world->joint_breaks[index][0]) || threshold_set(world->joint_breaks[index][1])) world->breakable--;
}

void cbaseline_remove_body(cbaseline_world *world, int index) {
    cpBody *body = body_at(world, index);
    if (!body) return;
    /* The order CrateDrop's World takes it in (World.apply(.removeBody)): the joints that hold it,
       in ascending joint id; its drag (World.remove(_: Crate)); its shape, then the body; its
       held forces. Chipmunk removes from its arrays by moving the last entry into the gap, so
       this order decides the solver's from here on. */
    for (int j = 0; j < world->joint_count; j++) {
        cpConstraint *joint = world->joints[j];
        if (joint && (cpConstraintGetBodyA(joint) == body || cpConstraintGetBodyB(joint) == body)) cbaseline_remove_joint(world, j);
    }
    cbaseline_release(world, index);
    if (world->parts[index]) {
        for (int j = 0; j < world->part_counts[index]; j++) cpSpaceRemoveShape(world->space, world->parts[index][j]);
    } else {
        cpSpaceRemoveShape(world->space, world->shapes[index]);
    }
    cpSpaceRemoveBody(world->space, body);
    int kept = 0;
    for (int h = 0; h < world->held_count; h++) if (world->held[h].index != index) world->held[kept++] = world->held[h];
    world->held_count = kept;
    free_crate_shapes(world, index);
    cpBodyFree(body);
    world->shapes[index] = NULL;
    world->bodies[index] = NULL;
}

void cbaseline_set_gravity(cbaseline_world *world, double gravity_x, double gravity_y) {
    cpSpaceSetGravity(world->space, cpv(gravity_x, gravity_y));
}

void cbaseline_apply_impulse(cbaseline_world *world, int index, double jx, double jy, int has_point, double px, double py) {
    cpBody *body = body_at(world, index);
    if (!body) return;
    cpBodyApplyImpulseAtWorldPoint(body, cpv(jx, jy), has_point ? cpv(px, py) : cpBodyGetPosition(body));
}

void cbaseline_set_velocity(cbaseline_world *world, int index, double vx, double vy) {
    cpBody *body = body_at(world, index);
    if (body) cpBodySetVelocity(body, cpv(vx, vy));
}

void cbaseline_set_angular_velocity(cbaseline_world *world, int index, double w) {
    cpBody *body = body_at(world, index);
    if (body) cpBodySetAngularVelocity(body, w);
}

void cbaseline_hold_force(cbaseline_world *world, int index, double fx, double fy, int has_point, double px, double py, double torque,
                          int steps) {
    if (!body_at(world, index) || steps < 1) return;
    int capacity = grown(world->held_count, world->held_capacity);
    if (capacity != world->held_capacity) world->held = resized(world->held, world->held_count, capacity, sizeof *world->held);
    world->held_capacity = capacity;
    world->held[world->held_count++] = (struct held){index, cpv(fx, fy), cpv(px, py), has_point, torque, steps};
}

void cbaseline_release(cbaseline_world *world, int index) {
    cpConstraint *drag = index >= 0 && index < world->crate_count ? world->drags[index] : NULL;
    if (!drag) return;
    cpSpaceRemoveConstraint(world->space, drag);
    cpConstraintFree(drag);
    world->drags[index] = NULL;
}

void cbaseline_grab(cbaseline_world *world, int index, double x, double y, double max_force) {
    cpBody *body = body_at(world, index);
    if (!body) return;
    cbaseline_release(world, index);
    cpVect point = cpv(x, y);
    cpConstraint *drag = cpPivotJointNew2(cpSpaceGetStaticBody(world->space), body, point, cpBodyWorldToLocal(body, point));
    cpConstraintSetMaxForce(drag, max_force == max_force ? max_force : cpBodyGetMass(body) * CBASELINE_DRAG_PULL);
    cpSpaceAddConstraint(world->space, drag);
    world->drags[index] = drag;
}

void cbaseline_drag_to(cbaseline_world *world, int index, double x, double y) {
    cpConstraint *drag = index >= 0 && index < world->crate_count ? world->drags[index] : NULL;
    if (drag) cpPivotJointSetAnchorA(drag, cpv(x, y));
}

int cbaseline_spawn(cbaseline_world *world, long long step, const cbaseline_crate *crate) {
    if (!known_crate(crate)) return CBASELINE_UNKNOWN_KIND;
    int capacity = grown(world->spawn_count, world->spawn_capacity);
    if (capacity != world->spawn_capacity) world->spawns = resized(world->spawns, world->spawn_count, capacity, sizeof *world->spawns);
    world->spawn_capacity = capacity;
    /* After every crate held for its step or an earlier one (the common case: held in step order, at the end). */
    int at = world->spawn_count;
    while (at > world->next_spawn && world->spawns[at - 1].step > step) at--;
    memmove(&world->spawns[at + 1], &world->spawns[at], (size_t)(world->spawn_count - at) * sizeof *world->spawns);
    struct spawn *spawn = &world->spawns[at];
    spawn->step = step;
    spawn->crate = *crate;
    int n = crate->kind == CBASELINE_POLYGON && crate->vertex_count > 0 ? crate->vertex_count : 0;
    double *vertices = NULL;
    if (n > 0) {
        vertices = malloc((size_t)(2 * n) * sizeof *vertices);
        if (!vertices) abort();
        memcpy(vertices, crate->vertices, (size_t)(2 * n) * sizeof *vertices);
    }
    spawn->crate.vertices = vertices;
    spawn->crate.vertex_count = n;
    /* A compound crate's parts, and each polygon part's vertices, copied as well. */
    int parts = crate->kind == CBASELINE_COMPOUND && crate->part_count > 0 ? crate->part_count : 0;
    cbaseline_part *copies = NULL;
    if (parts > 0) {
        copies = malloc((size_t)parts * sizeof *copies);
        if (!copies) abort();
        memcpy(copies, crate->parts, (size_t)parts * sizeof *copies);
        for (int j = 0; j < parts; j++) {
            int m = copies[j].kind == CBASELINE_POLYGON && copies[j].vertex_count > 0 ? copies[j].vertex_count : 0;
            double *own = NULL;
            if (m > 0) {
                own = malloc((size_t)(2 * m) * sizeof *own);
                if (!own) abort();
                memcpy(own, copies[j].vertices, (size_t)(2 * m) * sizeof *own);
            }
            copies[j].vertices = own;
            copies[j].vertex_count = m;
        }
    }
    spawn->crate.parts = copies;
    spawn->crate.part_count = parts;
    world->spawn_count++;
    return 0;
}

/* The joints that break in the step just taken (World.breakJoints): all found first, in ascending
   index, then each removed in ascending index. */
static void break_joints(cbaseline_world *world) {
    int count = 0;
    for (int j = 0; j < world->joint_count; j++) {
        cpConstraint *joint = world->joints[j];
        if (!joint) continue;
        double breakImpulse = world->joint_breaks[j][0], breakForce = world->joint_breaks[j][1];
        if (!threshold_set(breakImpulse) && !threshold_set(breakForce)) continue;
        double impulse = fabs(cpConstraintGetImpulse(joint));
        /* As JointSettings.breaks(impulse:stepRate:) writes it: |impulse| × rate, not |impulse| / dt. */
        if ((threshold_set(breakImpulse) && impulse > breakImpulse)
            || (threshold_set(breakForce) && impulse * (double)world->step_rate > breakForce)) world->broken[count++] = j;
    }
    for (int i = 0; i < count; i++) cbaseline_remove_joint(world, world->broken[i]);
}

void cbaseline_step(cbaseline_world *world, int steps) {
    for (int i = 0; i < steps; i++) {
        for (; world->next_spawn < world->spawn_count && world->spawns[world->next_spawn].step <= world->steps_taken; world->next_spawn++) {
            const struct spawn *spawn = &world->spawns[world->next_spawn];
            if (spawn->step == world->steps_taken) make_crate(world, &spawn->crate);
        }
        int kept = 0;
        for (int h = 0; h < world->held_count; h++) {
            struct held *held = &world->held[h];
            cpBody *body = world->bodies[held->index];
            cpBodyApplyForceAtWorldPoint(body, held->force, held->has_point ? held->point : cpBodyGetPosition(body));
            if (held->torque != 0) cpBodySetTorque(body, cpBodyGetTorque(body) + held->torque);
            if (--held->remaining > 0) world->held[kept++] = *held;
        }
        world->held_count = kept;
        cpSpaceStep(world->space, world->dt);
        world->steps_taken++;
        if (world->breakable > 0) break_joints(world);
    }
}

int cbaseline_crate_count(const cbaseline_world *world) {
    int count = 0;
    for (int i = 0; i < world->crate_count; i++) count += world->bodies[i] != NULL;
    return count;
}

/* The world's shapes (walls, the tumbler's, crates) and moving bodies (tumbler, crates), in the
   order CrateDrop's World names them to a saved state (removed crates left out); the caller frees
   both. Returns the shapes' count; the bodies' goes to `bodyCount`. */
static int state_lists(cbaseline_world *world, cpShape ***shapes, cpBody ***bodies, int *bodyCount) {
    int tumbler = world->tumbler_body ? 1 : 0;
    int partCount = 0;
    for (int i = 0; i < world->crate_count; i++) partCount += world->parts[i] ? world->part_counts[i] : 1;
    *shapes = calloc((size_t)(world->wall_count + 4 * tumbler + partCount) + 1, sizeof **shapes);
    *bodies = calloc((size_t)(tumbler + world->crate_count) + 1, sizeof **bodies);
    int at = 0, bodyAt = 0;
    for (int i = 0; i < world->wall_count; i++) (*shapes)[at++] = world->walls[i];
    for (int i = 0; i < 4 * tumbler; i++) (*shapes)[at++] = world->tumbler_shapes[i];
    for (int i = 0; i < world->crate_count; i++) {
        if (world->parts[i]) {
            for (int j = 0; j < world->part_counts[i]; j++) (*shapes)[at++] = world->parts[i][j];
        } else if (world->shapes[i]) {
            (*shapes)[at++] = world->shapes[i];
        }
    }
    if (tumbler) (*bodies)[bodyAt++] = world->tumbler_body;
    for (int i = 0; i < world->crate_count; i++) if (world->bodies[i]) (*bodies)[bodyAt++] = world->bodies[i];
    *bodyCount = bodyAt;
    return at;
}

/* The world's joints (removed ones left out), then its drags by crate index, as CrateDrop's World
   lists them to a saved state; the caller frees the list. */
static int constraint_list(cbaseline_world *world, cpConstraint ***constraints) {
    *constraints = calloc((size_t)(world->joint_count + world->crate_count) + 1, sizeof **constraints);
    int count = 0;
    for (int i = 0; i < world->joint_count; i++) if (world->joints[i]) (*constraints)[count++] = world->joints[i];
    for (int i = 0; i < world->crate_count; i++) if (world->drags[i]) (*constraints)[count++] = world->drags[i];
    return count;
}

long cbaseline_state_save(cbaseline_world *world, unsigned char *buffer, long capacity, void *aid, long aidCapacity, long *aidSize) {
    if (!cratedrop_state_save) return CBASELINE_STATE_UNAVAILABLE;
    cpShape **shapes;
    cpBody **bodies;
    cpConstraint **constraints;
    int bodyCount, shapeCount = state_lists(world, &shapes, &bodies, &bodyCount), constraintCount = constraint_list(world, &constraints);
    long size = cratedrop_state_save(world->space, shapes, shapeCount, bodies, bodyCount, constraints, constraintCount, buffer, capacity, aid,
                                     aidCapacity, aidSize);
    free(shapes);
    free(bodies);
    free(constraints);
    return size;
}

int cbaseline_state_restore(cbaseline_world *world, const unsigned char *bytes, long count, char *message, int size) {
    if (!cratedrop_state_restore) return CBASELINE_STATE_UNAVAILABLE;
    cpShape **shapes;
    cpBody **bodies;
    cpConstraint **constraints;
    int bodyCount, shapeCount = state_lists(world, &shapes, &bodies, &bodyCount), constraintCount = constraint_list(world, &constraints);
    int result = cratedrop_state_restore(world->space, shapes, shapeCount, bodies, bodyCount, constraints, constraintCount, bytes, count,
                                         message, size);
    free(shapes);
    free(bodies);
    free(constraints);
    return result;
}

int cbaseline_state_restore_as_saved(cbaseline_world *world, const unsigned char *bytes, long count, const void *aid, long aidSize,
                                     char *message, int size) {
    if (!cratedrop_state_restore_as_saved) return CBASELINE_STATE_UNAVAILABLE;
    cpShape **shapes;
    cpBody **bodies;
    cpConstraint **constraints;
    int bodyCount, shapeCount = state_lists(world, &shapes, &bodies, &bodyCount), constraintCount = constraint_list(world, &constraints);
    int result = cratedrop_state_restore_as_saved(world->space, shapes, shapeCount, bodies, bodyCount, constraints, constraintCount, bytes,
                                                  count, aid, aidSize, message, size);
    free(shapes);
    free(bodies);
    free(constraints);
    return result;
}

static uint64_t fnv_double(uint64_t hash, double value) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    for (int i = 0; i < 8; i++) {
        hash ^= (bits >> (8 * i)) & 0xff;
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

unsigned long long cbaseline_state_hash(const cbaseline_world *world) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    /* Ascending index is ascending body id; a removed crate is no longer counted. */
    for (int i = 0; i < world->crate_count; i++) {
        cpBody *body = world->bodies[i];
        if (!body) continue;
        cpVect p = cpBodyGetPosition(body), v = cpBodyGetVelocity(body);
        hash = fnv_double(hash, p.x);
        hash = fnv_double(hash, p.y);
        hash = fnv_double(hash, cpBodyGetAngle(body));
        hash = fnv_double(hash, v.x);
        hash = fnv_double(hash, v.y);
        hash = fnv_double(hash, cpBodyGetAngularVelocity(body));
    }
    return hash;
}

void cbaseline_destroy(cbaseline_world *world) {
    /* Everything out of the space (constraints, shapes, bodies), the space freed, then the rest. */
    for (int i = 0; i < world->crate_count; i++) cbaseline_release(world, i);
    free(world->drags);
    for (int i = 0; i < world->joint_count; i++) if (world->joints[i]) cpSpaceRemoveConstraint(world->space, world->joints[i]);
    for (int i = 0; i < world->crate_count; i++) {
        if (world->parts[i]) {
            for (int j = 0; j < world->part_counts[i]; j++) cpSpaceRemoveShape(world->space, world->parts[i][j]);
        } else if (world->shapes[i]) {
            cpSpaceRemoveShape(world->space, world->shapes[i]);
        }
    }
    for (int i = 0; i < world->wall_count; i++) cpSpaceRemoveShape(world->space, world->walls[i]);
    if (world->tumbler_body) {
        for (int i = 0; i < 4; i++) cpSpaceRemoveShape(world->space, world->tumbler_shapes[i]);
    }
    for (int i = 0; i < world->crate_count; i++) if (world->bodies[i]) cpSpaceRemoveBody(world->space, world->bodies[i]);
    if (world->tumbler_body) cpSpaceRemoveBody(world->space, world->tumbler_body);
    cpSpaceFree(world->space);
    for (int i = 0; i < world->crate_count; i++) {
        free_crate_shapes(world, i);
        if (world->bodies[i]) cpBodyFree(world->bodies[i]);
    }
    for (int i = 0; i < world->wall_count; i++) cpShapeFree(world->walls[i]);
    if (world->tumbler_body) {
        for (int i = 0; i < 4; i++) cpShapeFree(world->tumbler_shapes[i]);
        cpBodyFree(world->tumbler_body);
    }
    for (int i = 0; i < world->joint_count; i++) if (world->joints[i]) cpConstraintFree(world->joints[i]);
    free(world->joints);
    free(world->joint_kinds);
    free(world->joint_breaks);
    free(world->broken);
    for (int i = 0; i < world->spawn_count; i++) {
        free((void *)world->spawns[i].crate.vertices);
        for (int j = 0; j < world->spawns[i].crate.part_count; j++) free((void *)world->spawns[i].crate.parts[j].vertices);
        free((void *)world->spawns[i].crate.parts);
    }
    free(world->spawns);
    free(world->held);
    free(world->walls);
    free(world->bodies);
    free(world->shapes);
    free(world->one_way);
    free(world->parts);
    free(world->part_counts);
    free(world);
}
