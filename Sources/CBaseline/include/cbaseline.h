#ifndef CBASELINE_H
#define CBASELINE_H

// The benchmark's baseline: a scene built and stepped by plain C against the same libchipmunk,
// with no Swift in the loop. It mirrors Physics' creation order exactly so both sides reach the
// same state hash. No Chipmunk type appears here: the world is opaque.

/* Shape kinds, as SceneModel's BodyShape and WallGeometry name them. A kind this file does not
   list is refused, never made as another (see CBASELINE_UNKNOWN_KIND). */
enum {
    CBASELINE_BOX = 0,      /* width × height */
    CBASELINE_CIRCLE = 1,   /* radius */
    CBASELINE_POLYGON = 2,  /* vertex_count points of `vertices` (x0, y0, x1, y1, ...), rounded by radius */
    CBASELINE_SEGMENT = 3,  /* a to b, thickened by radius */
    CBASELINE_COMPOUND = 4  /* part_count parts of `parts` (a crate only) */
};

/* Chipmunk's collision filter (cpShapeFilter) and sensor flag; all categories and mask bits set,
   group 0 and sensor 0 are the defaults, which leave the shape as cpShapeNew made it. */
typedef struct {
    unsigned int group, categories, mask;
    int sensor;
} cbaseline_collision;

/* Rules of contact (CrateDrop's `one_way` and `surface_velocity`), each set when its flag is not 0
   (a zeroed struct: none). A one-way shape ignores the contacts whose normal, from it to the other
   shape, points against (one_way_x, one_way_y) in world coordinates, until the pair parts (a
   pre-solve on the space's default handler calls cpArbiterIgnore); a surface velocity is
   cpShapeSetSurfaceVelocity's, set after the collision settings. */
typedef struct {
    int has_one_way;
    double one_way_x, one_way_y;
    int has_surface_velocity;
    double surface_vx, surface_vy;
} cbaseline_rules;
/* One part of a CBASELINE_COMPOUND body: a box, circle, polygon or segment (its values as a
   crate's), placed in the body's frame by offset and angle, with its own mass (cpShapeSetMass). */
typedef struct {
    int kind;
    double width, height, radius, ax, ay, bx, by;
    int vertex_count;
    const double *vertices;
    double offset_x, offset_y, angle, mass, friction, elasticity;
    cbaseline_collision collision;
} cbaseline_part;

/* A body, in its own frame (vertices, a and b are relative to its position, its centre of mass);
   kinematic when `kinematic` is not 0 (cpBodyNewKinematic: no mass or moment). */
typedef struct {
    int kind, kinematic;
    double cx, cy, width, height, angle, vx, vy, angular_velocity, mass, friction, elasticity, radius;
    double ax, ay, bx, by;
    int vertex_count;
    const double *vertices;
    cbaseline_collision collision;
    cbaseline_rules rules;
    /* A CBASELINE_COMPOUND body's parts, in order (its mass, width, height and radius unused). */
    int part_count;
    const cbaseline_part *parts;
} cbaseline_crate;

/* A static wall: a CBASELINE_SEGMENT from a to b, or a CBASELINE_POLYGON (world coordinates). */
typedef struct {
    int kind;
    double ax, ay, bx, by, radius, friction, elasticity;
    int vertex_count;
    const double *vertices;
    cbaseline_collision collision;
    cbaseline_rules rules;
} cbaseline_wall;

/* Joint kinds, as SceneModel's JointKind.number gives them (BenchTests checks that every
   JointKind's number is its constant here), with their `params` in the order of their cp…New
   call after the two bodies (points as x, y). */
enum {
    CBASELINE_JOINT_PIN = 0,            /* anchor a, anchor b */
    CBASELINE_JOINT_SLIDE = 1,          /* anchor a, anchor b, min, max */
    CBASELINE_JOINT_PIVOT = 2,          /* a world point (cpPivotJointNew) */
    CBASELINE_JOINT_PIVOT_ANCHORS = 3,  /* anchor a, anchor b (cpPivotJointNew2) */
    CBASELINE_JOINT_GROOVE = 4,         /* groove a, groove b, anchor b */
    CBASELINE_JOINT_DAMPED_SPRING = 5,  /* anchor a, anchor b, rest length, stiffness, damping */
    CBASELINE_JOINT_DAMPED_ROTARY_SPRING = 6, /* rest angle, stiffness, damping */
    CBASELINE_JOINT_ROTARY_LIMIT = 7,   /* min, max */
    CBASELINE_JOINT_RATCHET = 8,        /* phase, ratchet */
    CBASELINE_JOINT_GEAR = 9,           /* phase, ratio */
    CBASELINE_JOINT_SIMPLE_MOTOR = 10   /* rate */
};

/* A body's input kinds (SceneModel's BodyInput), as the cross-architecture harness's "input"
   lines number them (Bench's BaselineSpec writes these constants; Tests/CrossArch/trail.c reads
   them): each is one of the cbaseline_apply_impulse ... cbaseline_release calls below. */
enum {
    CBASELINE_INPUT_IMPULSE = 0,          /* cbaseline_apply_impulse */
    CBASELINE_INPUT_VELOCITY = 1,         /* cbaseline_set_velocity */
    CBASELINE_INPUT_ANGULAR_VELOCITY = 2, /* cbaseline_set_angular_velocity */
    CBASELINE_INPUT_HOLD = 3,             /* cbaseline_hold_force */
    CBASELINE_INPUT_GRAB = 4,             /* cbaseline_grab */
    CBASELINE_INPUT_DRAG_TO = 5,          /* cbaseline_drag_to */
    CBASELINE_INPUT_RELEASE = 6,          /* cbaseline_release */
    CBASELINE_INPUT_KIND_COUNT = 7
};

/* What a call that makes a part returns for a crate, part, wall or joint of a kind this file does
   not list: nothing is made (no crate or joint index is used up), rather than a box or a motor. */
#define CBASELINE_UNKNOWN_KIND (-2)

/* A joint between crates a and b (indices into the crates; -1: the space's static body). The
   settings are set, in this order, only when given: max_force, max_bias, error_bias when not NaN,
   then collide_bodies when 0. It breaks (CrateDrop's `break_impulse` and `break_force`: see
   cbaseline_step) when a threshold is given: one > 0 (NaN or 0: none, as a zeroed struct has). */
typedef struct {
    int kind, a, b;
    double params[7];
    double max_force, max_bias, error_bias;
    int collide_bodies;
    double break_impulse, break_force;
} cbaseline_joint;

/* The defaults: every category, every mask bit, no group, not a sensor. */
#define CBASELINE_COLLISION_DEFAULT ((cbaseline_collision){0u, 0xffffffffu, 0xffffffffu, 0})

typedef struct {
    double gravity_x, gravity_y;
    int iterations;
    int step_rate;
    /* Chipmunk's spatial hash when cells > 0. */
    double hash_cell_size;
    int hash_cells;
    /* Sleeping when > 0. */
    double sleep_time;
    /* A tumbler when has_tumbler != 0: a box of walls on a kinematic body turning at omega. */
    int has_tumbler;
    double tumbler_cx, tumbler_cy, tumbler_width, tumbler_height, tumbler_omega;
    double tumbler_radius, tumbler_friction, tumbler_elasticity;
} cbaseline_config;

typedef struct cbaseline_world cbaseline_world;

/* Builds the world: walls, then the tumbler, then crates, then joints, in the given order; each
   crate's body, shape, position, angle, velocities, material, collision settings, then added to
   the space; each joint made, its settings set, then added. The vertex arrays are read here only.
   NULL, with nothing made, when a wall, crate, part or joint is of a kind this file does not list. */
cbaseline_world *cbaseline_create(const cbaseline_config *config, const cbaseline_wall *walls, int wall_count,
                                  const cbaseline_crate *crates, int crate_count, const cbaseline_joint *joints, int joint_count);

/* Structural changes, made at a step boundary as CrateDrop's World makes them (World.apply(_:),
   docs/determinism.md, "A world that changes"). Crates and joints keep their index for ever:
   crate index = body id less one (the scene's first, in creation order, then those added), joint
   index = joint id less one (the scene's in file order, then those added); a removed one's slot
   stays empty and no later part takes it. Validation is the caller's (CrateDrop checks the lines):
   a change naming a crate or joint that is not in the world does nothing.

   Add a crate: built exactly as cbaseline_create builds a scene's (body, shape, position, angle,
   velocities, material, filter; body then shape added); returns its index, or
   CBASELINE_UNKNOWN_KIND (nothing made) for a crate or part of a kind this file does not list.
   The vertex array is read here only. */
int cbaseline_add_crate(cbaseline_world *world, const cbaseline_crate *crate);

/* Add a wall: made on the static body and added as cbaseline_create makes a scene's, after the
   others. Returns 0, or CBASELINE_UNKNOWN_KIND (nothing made) for a kind other than a segment or
   a polygon. */
int cbaseline_add_wall(cbaseline_world *world, const cbaseline_wall *wall);

/* Add a joint between crates `joint->a` and `joint->b` (indices; -1: the static body): made, its
   settings set, added, as cbaseline_create makes a scene's. What its cp…New works out from where
   the bodies are now (a pin's length, a pivot's anchors, a ratchet's angle: its "made values",
   as World.makeup logs them) is worked out when `made_values` is NULL, else set from it (a
   replayed log's: 1 value for a pin, 4 for a pivot's anchors a.x a.y b.x b.y, 1 for a ratchet)
   before it is added. Returns its index, or -1 (nothing made) when an end is not in the world,
   or CBASELINE_UNKNOWN_KIND (nothing made) for a kind this file does not list. */
int cbaseline_add_joint(cbaseline_world *world, const cbaseline_joint *joint, const double *made_values);

/* Joint `index`'s made values (see cbaseline_add_joint) into `values`; returns how many (0 for
   the other kinds or a joint not in the world). */
int cbaseline_joint_made_values(const cbaseline_world *world, int index, double values[4]);

/* Remove crate `index`: the joints that hold it first (cpSpaceRemoveConstraint, ascending joint
   index), then its drag, then its shape (cpSpaceRemoveShape), then its body (cpSpaceRemoveBody),
   each freed; the forces held on it are dropped. The order decides Chipmunk's arrays' order, so
   the solver's. */
void cbaseline_remove_body(cbaseline_world *world, int index);

/* Remove joint `index` (cpSpaceRemoveConstraint, then freed). */
void cbaseline_remove_joint(cbaseline_world *world, int index);

/* Sets gravity for the following steps (a gravity stream's change, applied at a step boundary). */
void cbaseline_set_gravity(cbaseline_world *world, double gravity_x, double gravity_y);

/* A body's inputs, as CrateDrop's World applies them at a step boundary, to crate `index` (from 0,
   in creation order: its id less one; nothing for a crate not in the world). A push: cpBodyApplyImpulseAtWorldPoint at (px, py), or at
   the body's position when has_point is 0; velocities: cpBodySetVelocity, cpBodySetAngularVelocity. */
void cbaseline_apply_impulse(cbaseline_world *world, int index, double jx, double jy, int has_point, double px, double py);
void cbaseline_set_velocity(cbaseline_world *world, int index, double vx, double vy);
void cbaseline_set_angular_velocity(cbaseline_world *world, int index, double w);

/* Holds a force (at (px, py), or the body's position) and a torque on crate `index` for the next
   `steps` steps: before each of them, in the order held, cpBodyApplyForceAtWorldPoint and the
   torque added with cpBodySetTorque (Chipmunk clears both after every step). */
void cbaseline_hold_force(cbaseline_world *world, int index, double fx, double fy, int has_point, double px, double py, double torque,
                          int steps);

/* A drag, as CrateDrop's World makes one (BodyInput.grab): crate `index` held at the world point
   (x, y) by cpPivotJointNew2 from the space's static body (anchor A the point) to the point in the
   body's frame (cpBodyWorldToLocal), its max force set (NaN: the body's mass × CBASELINE_DRAG_PULL),
   then added; a drag the crate had is released first. A move sets anchor A; a release removes and
   frees the joint. */
#define CBASELINE_DRAG_PULL 20000.0
void cbaseline_grab(cbaseline_world *world, int index, double x, double y, double max_force);
void cbaseline_drag_to(cbaseline_world *world, int index, double x, double y);
void cbaseline_release(cbaseline_world *world, int index);

/* Holds crate `crate` to be added at the start of step `step` (counted from 0: the step that
   takes the world from `step` to `step + 1` steps taken), as CrateDrop's World releases a scene's
   spawner's crate (World.releaseSpawns, docs/scenes.md, "Spawners"): after the changes and inputs
   made at that step boundary (made before cbaseline_step is called), in the order held (hold a
   step's crates spawner by spawner, in file order), each built as cbaseline_add_crate builds one
   and given the next index. The caller works out the crate's values (the spawner's draws); the
   vertex array is copied. A crate held for a step already taken is never added. CrateDrop refuses
   a spawned crate that would lie deep in more than 8 bodies; this build makes every one, so its
   hashes equal CrateDrop's only for scenes whose spawns all succeed. Returns 0, or
   CBASELINE_UNKNOWN_KIND (nothing held) for a crate or part of a kind this file does not list. */
int cbaseline_spawn(cbaseline_world *world, long long step, const cbaseline_crate *crate);

/* Takes `steps` fixed steps of 1/step_rate s. Each, as CrateDrop's World.step takes it: the
   crates held for it added (cbaseline_spawn), the forces held applied, cpSpaceStep, then the
   joints that break: every joint in the world whose impulse in the step
   (|cpConstraintGetImpulse|) is more than its break_impulse, or whose |impulse| × step_rate is
   more than its break_force, found over all joints in ascending index first, then each removed in
   ascending index as cbaseline_remove_joint removes one (JointSettings.breaks(impulse:stepRate:),
   World.breakJoints). */
void cbaseline_step(cbaseline_world *world, int steps);

/* The crates in the world now (made, by the scene, changes or spawns, and not removed). */
int cbaseline_crate_count(const cbaseline_world *world);

/* The documented state hash (FNV-1a 64 over x, y, angle, vx, vy, w of each crate in the world in
   ascending index, so body id, little-endian IEEE-754 bits), computed independently of the Swift
   implementation. */
unsigned long long cbaseline_state_hash(const cbaseline_world *world);

/* Saved states, as CrateDrop's World saves and restores them (Sources/CChipmunk/cratedrop_state.h),
   naming the parts in the world in its order (removed ones left out):
   weakly linked, so CBASELINE_STATE_UNAVAILABLE on Debian's libchipmunk, which lacks them. Save
   returns the state's size (the buffer holds it when it is at most `capacity`) or a negative
   code, and with `aid` (8-byte aligned room for `aidCapacity` bytes, or NULL) the restore aid,
   whose size goes to `aidSize`; restore returns 0 or a negative code with the reason in
   `message`. Restore as saved takes bytes a save in this process wrote, unchanged, with that
   save's aid (or NULL), as World.restore does for a state kept in memory. */
#define CBASELINE_STATE_UNAVAILABLE (-100)
long cbaseline_state_save(cbaseline_world *world, unsigned char *buffer, long capacity, void *aid, long aidCapacity, long *aidSize);
int cbaseline_state_restore(cbaseline_world *world, const unsigned char *bytes, long count, char *message, int size);
int cbaseline_state_restore_as_saved(cbaseline_world *world, const unsigned char *bytes, long count, const void *aid, long aidSize,
                                     char *message, int size);

void cbaseline_destroy(cbaseline_world *world);

#endif
