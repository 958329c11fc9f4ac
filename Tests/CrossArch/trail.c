/* The cross-architecture harness: the C baseline (Sources/CBaseline) built for another CPU, fed a
   scene spec that `cratedrop bench --baseline-spec` wrote on amd64 (doubles as bit patterns, so
   every CPU builds the same scene), printing what CrateDrop prints for comparison.

     trail SPEC STEPS     "STEP HASH" after every step, as `cratedrop hash --every 1` prints it
     trail SPEC STEPS --from-state FILE
                          the same, continuing a saved state (a CrateDrop state file, made by
                          `cratedrop hash --save-state` or by this harness on any CPU) from its step;
                          across structural changes, the spec's changes before that step are made
                          first, as its make-up log says (the joints' made values from the log),
                          with the joints that broke removed where the log has them
     trail SPEC STEPS --save-at N TEMPLATE OUT
                          also saves the state after step N as a CrateDrop state file: TEMPLATE's
                          header (a state file of the same scene) with this CPU's name, the step,
                          gravity and physics, then TEMPLATE's make-up log (so TEMPLATE is saved at
                          step N of the same inputs) (docs/determinism.md, "Saved states")
     trail SPEC STEPS --state-cost REPS
                          after STEPS steps, REPS times: save the state, step once, restore it
                          (then REPS times more, as a state kept in memory, with its aid); prints
                          the state's size and the mean save and restore times (this thread's
                          CPU time): scripts/state-cost runs it, also under callgrind
     trail --probe SPEC   "CLASS ANGLE_DIGEST CONTACT_DIGEST": the determinism class, computed as
                          Sources/Physics/DeterminismClass.swift computes it

   Built by scripts/cross-arch with -ffp-contract=off (and SSE on i386), like the portable backend,
   so its own arithmetic (the probe's angles) rounds alike everywhere. */
#include "cbaseline.h"
#include "shim.h"

#include <chipmunk/chipmunk.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_CHANGES 4096
/* A state's make-up log: the spec's changes (spawned crates among them) and the joints that broke. */
#define MAX_LOGGED 1000000

/* Input kinds past the bodies' inputs (cbaseline.h's CBASELINE_INPUT_*): the structural changes. */
enum { INPUT_ADD_BODY = CBASELINE_INPUT_KIND_COUNT, INPUT_ADD_WALL, INPUT_ADD_JOINT, INPUT_REMOVE_BODY, INPUT_REMOVE_JOINT };

typedef struct {
    cbaseline_config config;
    cbaseline_wall *walls;
    int wall_count;
    cbaseline_crate *crates;
    int crate_count;
    cbaseline_joint *joints;
    int joint_count;
    int change_steps[MAX_CHANGES];
    double change_gravity[MAX_CHANGES][2];
    int change_count;
    /* Bodies' inputs (BaselineSpec's "input" lines, kinds CBASELINE_INPUT_*) and structural changes (its
       "addbody", "addwall", "addjoint", "removebody" and "removejoint" lines, kinds INPUT_ADD_BODY
       ...; a spawner's crate is an "addbody" line), in file order: at a step, they apply in that
       order. Grown as lines are read. */
    struct input {
        int step, kind, index, has_point, steps;
        double x, y, px, py, torque;
        cbaseline_crate crate;
        cbaseline_wall wall;
        cbaseline_joint joint;
    } *inputs;
    int input_count, input_capacity;
    /* Crates and joints made by the scene and the changes so far, as the lines are read. */
    int bodies_made, joints_made;
    int has_probe;
    unsigned long long probe_seed;
    int probe_angles, probe_contact_steps;
} spec;

static double bits_to_double(const char *hex) {
    uint64_t bits = strtoull(hex, NULL, 16);
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

/* Reads the next whitespace-separated word as a double's 16-hex-digit bit pattern. */
static double next_double(char **cursor) {
    char *word = strtok_r(NULL, " \n", cursor);
    if (!word) { fprintf(stderr, "trail: spec line too short\n"); exit(65); }
    return bits_to_double(word);
}

static long next_integer(char **cursor) {
    char *word = strtok_r(NULL, " \n", cursor);
    if (!word) { fprintf(stderr, "trail: spec line too short\n"); exit(65); }
    return strtol(word, NULL, 10);
}

/* A line's step: a spawner's last crate may come at step 2^53, past `int` (and past `long` on
   i386): such a step is never reached, and reads as INT_MAX. */
static int next_step(char **cursor) {
    char *word = strtok_r(NULL, " \n", cursor);
    if (!word) { fprintf(stderr, "trail: spec line too short\n"); exit(65); }
    long long step = strtoll(word, NULL, 10);
    if (step < 0) { fprintf(stderr, "trail: a step below 0\n"); exit(65); }
    return step > INT_MAX ? INT_MAX : (int)step;
}

/* A 32-bit unsigned decimal (filter bits), as strtoul reads it on 32-bit CPUs too. */
static unsigned int next_unsigned(char **cursor) {
    char *word = strtok_r(NULL, " \n", cursor);
    if (!word) { fprintf(stderr, "trail: spec line too short\n"); exit(65); }
    return (unsigned int)strtoul(word, NULL, 10);
}

/* Reads the end every wall and body line has: the collision settings, then "N X0 Y0 ... XN-1
   YN-1" (N = 0 for no vertices) into a new array of 2N doubles (freed with the process). */
static void next_collision_and_vertices(char **cursor, cbaseline_collision *collision, int *count, const double **vertices) {
    collision->group = next_unsigned(cursor);
    collision->categories = next_unsigned(cursor);
    collision->mask = next_unsigned(cursor);
    collision->sensor = (int)next_integer(cursor);
    long n = next_integer(cursor);
    if (n < 0 || n > 32) { fprintf(stderr, "trail: a polygon has at most 32 vertices, got %ld\n", n); exit(65); }
    double *xy = calloc((size_t)(2 * n + 1), sizeof *xy);
    if (!xy) { fprintf(stderr, "trail: out of memory\n"); exit(71); }
    for (long i = 0; i < 2 * n; i++) xy[i] = next_double(cursor);
    *count = (int)n;
    *vertices = xy;
}

/* Reads the rules of contact that end every wall and body line: "HAS_ONE_WAY OX OY HAS_SURFACE_VELOCITY SVX SVY". */
static void next_rules(char **cursor, cbaseline_rules *rules) {
    rules->has_one_way = (int)next_integer(cursor);
    rules->one_way_x = next_double(cursor);
    rules->one_way_y = next_double(cursor);
    rules->has_surface_velocity = (int)next_integer(cursor);
    rules->surface_vx = next_double(cursor);
    rules->surface_vy = next_double(cursor);
}

/* Reads a wall line's fields (after "wall", or "addwall STEP"). */
static void next_wall(char **cursor, cbaseline_wall *w) {
    w->kind = (int)next_integer(cursor);
    if (w->kind != CBASELINE_SEGMENT && w->kind != CBASELINE_POLYGON) { fprintf(stderr, "trail: unknown wall kind %d\n", w->kind); exit(65); }
    w->ax = next_double(cursor);
    w->ay = next_double(cursor);
    w->bx = next_double(cursor);
    w->by = next_double(cursor);
    w->radius = next_double(cursor);
    w->friction = next_double(cursor);
    w->elasticity = next_double(cursor);
    next_collision_and_vertices(cursor, &w->collision, &w->vertex_count, &w->vertices);
    next_rules(cursor, &w->rules);
    if (w->kind == CBASELINE_POLYGON && w->vertex_count < 3) { fprintf(stderr, "trail: a polygon needs 3...32 vertices\n"); exit(65); }
}

/* Reads a body line's fields (after "body", or "addbody STEP"). */
static void next_crate(char **cursor, cbaseline_crate *k) {
    k->kind = (int)next_integer(cursor);
    if (k->kind < CBASELINE_BOX || k->kind > CBASELINE_COMPOUND) { fprintf(stderr, "trail: unknown body kind %d\n", k->kind); exit(65); }
    k->kinematic = (int)next_integer(cursor);
    k->cx = next_double(cursor);
    k->cy = next_double(cursor);
    k->width = next_double(cursor);
    k->height = next_double(cursor);
    k->angle = next_double(cursor);
    k->vx = next_double(cursor);
    k->vy = next_double(cursor);
    k->angular_velocity = next_double(cursor);
    k->mass = next_double(cursor);
    k->friction = next_double(cursor);
    k->elasticity = next_double(cursor);
    k->radius = next_double(cursor);
    k->ax = next_double(cursor);
    k->ay = next_double(cursor);
    k->bx = next_double(cursor);
    k->by = next_double(cursor);
    next_collision_and_vertices(cursor, &k->collision, &k->vertex_count, &k->vertices);
    next_rules(cursor, &k->rules);
    if (k->kind == CBASELINE_POLYGON && k->vertex_count < 3) { fprintf(stderr, "trail: a polygon needs 3...32 vertices\n"); exit(65); }
    if (k->kind != CBASELINE_COMPOUND) return;
    /* A compound body's parts: "P" then each part's kind, numbers and collision and vertices. */
    long parts = next_integer(cursor);
    if (parts < 1 || parts > 64) { fprintf(stderr, "trail: a body has 1...64 parts, got %ld\n", parts); exit(65); }
    cbaseline_part *list = calloc((size_t)parts, sizeof *list);
    if (!list) { fprintf(stderr, "trail: out of memory\n"); exit(71); }
    for (long j = 0; j < parts; j++) {
        cbaseline_part *p = &list[j];
        p->kind = (int)next_integer(cursor);
        if (p->kind < CBASELINE_BOX || p->kind > CBASELINE_SEGMENT) { fprintf(stderr, "trail: unknown part kind %d\n", p->kind); exit(65); }
        double *fields[] = {&p->width, &p->height, &p->radius, &p->ax, &p->ay, &p->bx, &p->by, &p->offset_x, &p->offset_y, &p->angle,
                            &p->mass, &p->friction, &p->elasticity};
        for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) *fields[f] = next_double(cursor);
        next_collision_and_vertices(cursor, &p->collision, &p->vertex_count, &p->vertices);
        if (p->kind == CBASELINE_POLYGON && p->vertex_count < 3) { fprintf(stderr, "trail: a polygon needs 3...32 vertices\n"); exit(65); }
    }
    k->part_count = (int)parts;
    k->parts = list;
}

/* Reads a joint line's fields (after "joint", or "addjoint STEP"), its ends among the
   `bodies_made` crates made before it. */
static void next_joint(char **cursor, cbaseline_joint *j, int bodies_made) {
    j->kind = (int)next_integer(cursor);
    j->a = (int)next_integer(cursor);
    j->b = (int)next_integer(cursor);
    if (j->kind < CBASELINE_JOINT_PIN || j->kind > CBASELINE_JOINT_SIMPLE_MOTOR) { fprintf(stderr, "trail: unknown joint kind %d\n", j->kind); exit(65); }
    if (j->a < -1 || j->a >= bodies_made || j->b < -1 || j->b >= bodies_made || j->a == j->b) {
        fprintf(stderr, "trail: a joint's bodies must be earlier bodies (or -1, static), and two\n");
        exit(65);
    }
    for (int i = 0; i < 7; i++) j->params[i] = next_double(cursor);
    j->max_force = next_double(cursor);
    j->max_bias = next_double(cursor);
    j->error_bias = next_double(cursor);
    j->collide_bodies = (int)next_integer(cursor);
    j->break_impulse = next_double(cursor);
    j->break_force = next_double(cursor);
}

/* The next input line's room, the inputs grown when full. */
static struct input *new_input(spec *s) {
    if (s->input_count == s->input_capacity) {
        int capacity = s->input_capacity ? 2 * s->input_capacity : 256;
        struct input *grown = realloc(s->inputs, (size_t)capacity * sizeof *grown);
        if (!grown) { fprintf(stderr, "trail: out of memory\n"); exit(71); }
        memset(grown + s->input_capacity, 0, (size_t)(capacity - s->input_capacity) * sizeof *grown);
        s->inputs = grown;
        s->input_capacity = capacity;
    }
    return &s->inputs[s->input_count++];
}

static void read_spec(const char *path, spec *s) {
    FILE *file = fopen(path, "r");
    if (!file) { perror(path); exit(66); }
    memset(s, 0, sizeof *s);
    s->walls = calloc(1024, sizeof *s->walls);
    s->crates = calloc(200000, sizeof *s->crates);
    s->joints = calloc(100000, sizeof *s->joints);
    if (!s->walls || !s->crates || !s->joints) { fprintf(stderr, "trail: out of memory\n"); exit(71); }
    char line[4096];
    while (fgets(line, sizeof line, file)) {
        char *cursor;
        char *kind = strtok_r(line, " \n", &cursor);
        if (!kind) continue;
        if (strcmp(kind, "config") == 0) {
            cbaseline_config *c = &s->config;
            c->gravity_x = next_double(&cursor);
            c->gravity_y = next_double(&cursor);
            c->iterations = (int)next_integer(&cursor);
            c->step_rate = (int)next_integer(&cursor);
            c->hash_cell_size = next_double(&cursor);
            c->hash_cells = (int)next_integer(&cursor);
            c->sleep_time = next_double(&cursor);
            c->has_tumbler = (int)next_integer(&cursor);
            c->tumbler_cx = next_double(&cursor);
            c->tumbler_cy = next_double(&cursor);
            c->tumbler_width = next_double(&cursor);
            c->tumbler_height = next_double(&cursor);
            c->tumbler_omega = next_double(&cursor);
            c->tumbler_radius = next_double(&cursor);
            c->tumbler_friction = next_double(&cursor);
            c->tumbler_elasticity = next_double(&cursor);
        } else if (strcmp(kind, "wall") == 0 && s->wall_count < 1024) {
            next_wall(&cursor, &s->walls[s->wall_count++]);
        } else if (strcmp(kind, "body") == 0 && s->crate_count < 200000) {
            next_crate(&cursor, &s->crates[s->crate_count++]);
            s->bodies_made++;
        } else if (strcmp(kind, "joint") == 0 && s->joint_count < 100000) {
            next_joint(&cursor, &s->joints[s->joint_count++], s->bodies_made);
            s->joints_made++;
        } else if ((strcmp(kind, "addbody") == 0 || strcmp(kind, "addwall") == 0 || strcmp(kind, "addjoint") == 0
                    || strcmp(kind, "removebody") == 0 || strcmp(kind, "removejoint") == 0)) {
            struct input *in = new_input(s);
            in->step = next_step(&cursor);
            if (strcmp(kind, "addbody") == 0) {
                in->kind = INPUT_ADD_BODY;
                next_crate(&cursor, &in->crate);
                s->bodies_made++;
            } else if (strcmp(kind, "addwall") == 0) {
                in->kind = INPUT_ADD_WALL;
                next_wall(&cursor, &in->wall);
            } else if (strcmp(kind, "addjoint") == 0) {
                in->kind = INPUT_ADD_JOINT;
                next_joint(&cursor, &in->joint, s->bodies_made);
                s->joints_made++;
            } else {
                in->kind = strcmp(kind, "removebody") == 0 ? INPUT_REMOVE_BODY : INPUT_REMOVE_JOINT;
                in->index = (int)next_integer(&cursor);
                if (in->index < 0 || in->index >= (in->kind == INPUT_REMOVE_BODY ? s->bodies_made : s->joints_made)) {
                    fprintf(stderr, "trail: a removal names a crate or joint not made before it\n");
                    exit(65);
                }
            }
        } else if (strcmp(kind, "gravity") == 0 && s->change_count < MAX_CHANGES) {
            s->change_steps[s->change_count] = next_step(&cursor);
            s->change_gravity[s->change_count][0] = next_double(&cursor);
            s->change_gravity[s->change_count][1] = next_double(&cursor);
            s->change_count++;
        } else if (strcmp(kind, "input") == 0) {
            struct input *in = new_input(s);
            in->step = next_step(&cursor);
            in->kind = (int)next_integer(&cursor);
            in->index = (int)next_integer(&cursor);
            in->x = next_double(&cursor);
            in->y = next_double(&cursor);
            in->has_point = (int)next_integer(&cursor);
            in->px = next_double(&cursor);
            in->py = next_double(&cursor);
            in->torque = next_double(&cursor);
            in->steps = (int)next_integer(&cursor);
            if (in->kind < 0 || in->kind >= CBASELINE_INPUT_KIND_COUNT || in->index < 0 || in->index >= s->bodies_made
                || (in->kind == CBASELINE_INPUT_HOLD && in->steps < 1)) {
                fprintf(stderr, "trail: an input names a kind (0...%d), a crate or a step count out of range\n", CBASELINE_INPUT_KIND_COUNT - 1);
                exit(65);
            }
        } else if (strcmp(kind, "probe") == 0) {
            char *word = strtok_r(NULL, " \n", &cursor);
            s->probe_seed = word ? strtoull(word, NULL, 10) : 0;
            s->probe_angles = (int)next_integer(&cursor);
            s->probe_contact_steps = (int)next_integer(&cursor);
            s->has_probe = 1;
        } else {
            fprintf(stderr, "trail: %s: unknown or surplus line '%s'\n", path, kind);
            exit(65);
        }
    }
    fclose(file);
}

static cbaseline_world *build(spec *s) {
    cbaseline_world *world = cbaseline_create(&s->config, s->walls, s->wall_count, s->crates, s->crate_count, s->joints, s->joint_count);
    if (!world) { fprintf(stderr, "trail: the C baseline refused a wall, body, part or joint of unknown kind\n"); exit(70); }
    return world;
}

/* SplitMix64, as Sources/SceneModel/SplitMix64.swift. */
static uint64_t splitmix_next(uint64_t *state) {
    *state += 0x9e3779b97f4a7c15ULL;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t fnv_bytes(uint64_t hash, uint64_t bits) {
    for (int i = 0; i < 8; i++) {
        hash ^= (bits >> (8 * i)) & 0xff;
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

static uint64_t fnv_double(uint64_t hash, double value) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    return fnv_bytes(hash, bits);
}

static int probe(spec *s) {
    cpBody *body = cpBodyNew(1, cpMomentForBox(1, 1, 1));
    uint64_t random = s->probe_seed, angles = 0xcbf29ce484222325ULL;
    double magnitude = 1;
    for (int i = 0; i < s->probe_angles; i++) {
        magnitude = i % 7 == 0 ? 1 : magnitude * 10;
        double unit = (double)(splitmix_next(&random) >> 11) * 0x1.0p-53;
        cpBodySetAngle(body, (2 * unit - 1) * magnitude);
        cpVect rotation = cpBodyGetRotation(body);
        angles = fnv_double(angles, rotation.x);
        angles = fnv_double(angles, rotation.y);
    }
    cpBodyFree(body);
    cbaseline_world *world = build(s);
    cbaseline_step(world, s->probe_contact_steps);
    uint64_t contacts = cbaseline_state_hash(world);
    cbaseline_destroy(world);
    uint64_t id = fnv_bytes(fnv_bytes(0xcbf29ce484222325ULL, angles), contacts);
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)id);
    hex[12] = 0;
    printf("%s %016llx %016llx\n", hex, (unsigned long long)angles, (unsigned long long)contacts);
    return 0;
}

/* MARK: CrateDrop state files (Sources/SceneModel/SavedStateFile.swift) */

#if defined(__x86_64__)
#define ARCHITECTURE "x86_64"
#elif defined(__aarch64__)
#define ARCHITECTURE "arm64"
#elif defined(__i386__)
#define ARCHITECTURE "i386"
#else
#define ARCHITECTURE "unknown"
#endif

typedef struct {
    unsigned char *bytes;
    size_t count;
    size_t header_end; /* after the scene text: where step, gravity, fingerprint and physics begin */
    size_t architecture_at, architecture_length;
    uint64_t step, fingerprint;
    double gravity[2];
    const unsigned char *physics;
    uint32_t physics_count;
    uint32_t version;
    /* Format 6's make-up log (Sources/SceneModel/MakeupChange+Bytes.swift): its bytes, count
       first, as written (a state this harness saves carries its template's); each change's step,
       tag (1 add crate, 2 add wall, 3 add joint, 4 remove body, 5 remove joint, 6 a joint that
       broke; 7 and 8, a crate or wall with rules of contact, are read as 1 and 2), made values,
       and the id a removal names. */
    const unsigned char *log;
    size_t log_count;
    struct logged { uint64_t step, id; int tag, made_count; double made[4]; } *changes;
    uint32_t change_count;
} state_file;

static uint32_t le32(const unsigned char *at) { return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24; }
static uint64_t le64(const unsigned char *at) { return (uint64_t)le32(at) | (uint64_t)le32(at + 4) << 32; }

/* Bytes of a state file read in order, checked against its end. */
typedef struct { const unsigned char *at, *end; const char *path; } state_reader;

static const unsigned char *take(state_reader *r, size_t count) {
    if ((size_t)(r->end - r->at) < count) { fprintf(stderr, "trail: %s is cut short\n", r->path); exit(65); }
    const unsigned char *taken = r->at;
    r->at += count;
    return taken;
}

static uint32_t take32(state_reader *r) { return le32(take(r, 4)); }
static uint64_t take64(state_reader *r) { return le64(take(r, 8)); }

/* Passes over a u32 count of vertices and their x, y doubles. */
static void skip_vertices(state_reader *r) {
    uint32_t n = take32(r);
    if (n > 32) { fprintf(stderr, "trail: %s: a polygon of %u vertices\n", r->path, n); exit(65); }
    take(r, 16 * (size_t)n);
}

/* Reads one make-up log entry, passing over the part's values (the spec has them). */
static void read_logged(state_reader *r, struct logged *entry) {
    entry->step = take64(r);
    take64(r); /* the id made */
    uint32_t taken = take32(r);
    take(r, 8 * (size_t)taken);
    uint32_t made = take32(r);
    if (made > 4) { fprintf(stderr, "trail: %s: a joint with %u made values\n", r->path, made); exit(65); }
    entry->made_count = (int)made;
    for (uint32_t i = 0; i < made; i++) {
        uint64_t bits = take64(r);
        memcpy(&entry->made[i], &bits, sizeof bits);
    }
    entry->tag = *take(r, 1);
    /* A part with rules of contact ends with them: two rules, a flag and two doubles each. */
    int rules = entry->tag == 7 || entry->tag == 8;
    if (rules) entry->tag -= 6;
    switch (entry->tag) {
    case 1: /* a crate: shape, 9 doubles, filter and sensor, colour, body type */
        switch (*take(r, 1)) {
        case 0: take(r, 16); break;
        case 1: take(r, 8); break;
        case 2: skip_vertices(r); take(r, 8); break;
        case 3: take(r, 40); break;
        default: fprintf(stderr, "trail: %s: an unknown shape\n", r->path); exit(65);
        }
        take(r, 72 + 13 + 4 + 1);
        if (rules) take(r, 2 * 17);
        break;
    case 2: /* a wall: segment or polygon, 3 doubles, filter and sensor, colour */
        switch (*take(r, 1)) {
        case 0: take(r, 32); break;
        case 1: skip_vertices(r); break;
        default: fprintf(stderr, "trail: %s: an unknown wall\n", r->path); exit(65);
        }
        take(r, 24 + 13 + 4);
        if (rules) take(r, 2 * 17);
        break;
    case 3: { /* a joint: kind, its values, two ends, five optional settings (max force, max bias,
                 error bias, break impulse, break force: a flag and a double each), collide */
        take(r, 1);
        uint32_t values = take32(r);
        if (values > 8) { fprintf(stderr, "trail: %s: a joint of %u values\n", r->path, values); exit(65); }
        take(r, 8 * (size_t)values + 16 + 5 * 9 + 1);
        break;
    }
    case 4: case 5: case 6: entry->id = take64(r); break;
    default: fprintf(stderr, "trail: %s: an unknown change\n", r->path); exit(65);
    }
}

static void read_state_file(const char *path, state_file *f) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(66); }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    f->bytes = malloc((size_t)size + 1);
    f->count = fread(f->bytes, 1, (size_t)size, file);
    fclose(file);
    f->version = f->count >= 12 ? le32(f->bytes + 8) : 0;
    if (f->count < 12 || memcmp(f->bytes, "CDSTATE\n", 8) != 0 || (f->version != 5 && f->version != 6)) {
        fprintf(stderr, "trail: %s is not a version 5 or 6 state file\n", path);
        exit(65);
    }
    state_reader r = {f->bytes + 12, f->bytes + f->count - 8, path}; /* the checksum ends it */
    for (int field = 0; field < 5; field++) { /* class, backend, architecture, scene file, scene text */
        size_t at = (size_t)(r.at - f->bytes);
        uint32_t length = take32(&r);
        take(&r, length);
        if (field == 2) { f->architecture_at = at; f->architecture_length = 4 + length; }
    }
    f->header_end = (size_t)(r.at - f->bytes);
    f->step = take64(&r);
    uint64_t bits[2];
    bits[0] = take64(&r);
    bits[1] = take64(&r);
    memcpy(f->gravity, bits, sizeof bits);
    f->fingerprint = take64(&r);
    f->physics_count = take32(&r);
    f->physics = take(&r, f->physics_count);
    /* Forces held over the next steps (inputs with "steps") and drags are not carried by this harness. */
    if (take32(&r) != 0 || take32(&r) != 0) {
        fprintf(stderr, "trail: %s holds forces over its next steps or drags, which this harness does not continue\n", path);
        exit(65);
    }
    f->log = r.at;
    if (f->version >= 6) {
        f->change_count = take32(&r);
        if (f->change_count > MAX_LOGGED) { fprintf(stderr, "trail: %s: a make-up log of more than %d changes\n", path, MAX_LOGGED); exit(65); }
        f->changes = calloc((size_t)f->change_count + 1, sizeof *f->changes);
        for (uint32_t i = 0; i < f->change_count; i++) read_logged(&r, &f->changes[i]);
    }
    f->log_count = (size_t)(r.at - f->log);
    if (r.at != r.end) { fprintf(stderr, "trail: %s has bytes after its make-up log\n", path); exit(65); }
}

static void put32(FILE *out, uint32_t v, uint64_t *hash) {
    for (int i = 0; i < 4; i++) {
        unsigned char byte = (unsigned char)(v >> (8 * i));
        fputc(byte, out);
        *hash = (*hash ^ byte) * 0x100000001b3ULL;
    }
}

static void put_bytes(FILE *out, const unsigned char *bytes, size_t count, uint64_t *hash) {
    fwrite(bytes, 1, count, out);
    for (size_t i = 0; i < count; i++) *hash = (*hash ^ bytes[i]) * 0x100000001b3ULL;
}

/* Writes the world's state as a state file with the template's header, this CPU's name, `step` and `gravity`. */
static void write_state_file(cbaseline_world *world, const state_file *template, uint64_t step, const double gravity[2], const char *path) {
    long size = cbaseline_state_save(world, NULL, 0, NULL, 0, NULL);
    unsigned char *physics = size > 0 ? malloc((size_t)size) : NULL;
    if (size <= 0 || cbaseline_state_save(world, physics, size, NULL, 0, NULL) != size) {
        fprintf(stderr, "trail: cannot save the state (%ld)\n", size);
        exit(69);
    }
    FILE *out = fopen(path, "wb");
    if (!out) { perror(path); exit(73); }
    uint64_t hash = 0xcbf29ce484222325ULL;
    put_bytes(out, template->bytes, template->architecture_at, &hash);
    put32(out, (uint32_t)strlen(ARCHITECTURE), &hash);
    put_bytes(out, (const unsigned char *)ARCHITECTURE, strlen(ARCHITECTURE), &hash);
    size_t after = template->architecture_at + template->architecture_length;
    put_bytes(out, template->bytes + after, template->header_end - after, &hash);
    uint64_t bits[2];
    memcpy(bits, gravity, sizeof bits);
    uint64_t words[4] = {step, bits[0], bits[1], template->fingerprint};
    for (int i = 0; i < 4; i++) { put32(out, (uint32_t)words[i], &hash); put32(out, (uint32_t)(words[i] >> 32), &hash); }
    put32(out, (uint32_t)size, &hash);
    put_bytes(out, physics, (size_t)size, &hash);
    put32(out, 0, &hash); /* no held forces */
    put32(out, 0, &hash); /* no drags */
    /* The make-up log: the template's, saved at the same step of the same inputs. */
    put_bytes(out, template->log, template->log_count, &hash);
    uint64_t unused = 0;
    put32(out, (uint32_t)hash, &unused);
    put32(out, (uint32_t)(hash >> 32), &unused);
    fclose(out);
    free(physics);
}

static double thread_microseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return (double)now.tv_sec * 1e6 + (double)now.tv_nsec / 1e3;
}

/* Save, one step, restore, REPS times, from the state after `steps` steps; then the same with
   the save and restore of a state kept in memory (with its restore aid, restored as saved), as
   World.saveState and World.restore do for one. The functions are separate (not inlined) so callgrind can count each:
   --toggle-collect=cratedrop_state_save. */
static int state_cost(spec *s, int steps, int reps) {
    cbaseline_world *world = build(s);
    cbaseline_step(world, steps);
    long size = cbaseline_state_save(world, NULL, 0, NULL, 0, NULL);
    if (size <= 0) { fprintf(stderr, "trail: cannot save states here (%ld): the portable backend saves them\n", size); return 69; }
    unsigned char *state = malloc((size_t)size);
    long aidSize = 0, aidCapacity;
    cbaseline_state_save(world, NULL, 0, NULL, 0, &aidSize);
    aidCapacity = 2 * aidSize;
    double *aid = malloc((size_t)aidCapacity);
    double save = 0, saveWithAid = 0, restore = 0, restoreAsSaved = 0;
    for (int asSaved = 0; asSaved < 2; asSaved++) {
        for (int i = 0; i < reps; i++) {
            double start = thread_microseconds();
            cbaseline_state_save(world, state, size, asSaved ? aid : NULL, asSaved ? aidCapacity : 0, &aidSize);
            if (asSaved && aidSize > aidCapacity) { fprintf(stderr, "trail: the restore aid grew past its room\n"); return 70; }
            *(asSaved ? &saveWithAid : &save) += thread_microseconds() - start;
            cbaseline_step(world, 1);
            char message[256];
            start = thread_microseconds();
            int problem = asSaved ? cbaseline_state_restore_as_saved(world, state, size, aid, aidSize, message, sizeof message)
                                  : cbaseline_state_restore(world, state, size, message, sizeof message);
            if (problem != 0) { fprintf(stderr, "trail: %s\n", message); return 65; }
            *(asSaved ? &restoreAsSaved : &restore) += thread_microseconds() - start;
        }
    }
    printf("bytes %ld bodies %d save_us %.1f restore_us %.1f save_with_aid_us %.1f restore_as_saved_us %.1f\n", size, s->crate_count,
           save / reps, restore / reps, saveWithAid / reps, restoreAsSaved / reps);
    free(state);
    free(aid);
    cbaseline_destroy(world);
    return 0;
}

/* Applies a body's input or makes a structural change; an added joint takes `made` (a replayed
   make-up log's values) when not NULL. A kind it does not know (the reader refuses those) or a
   part the C baseline refuses as of an unknown kind stops the harness: it never does something else. */
static void apply_input(cbaseline_world *world, const struct input *in, const double *made) {
    int made_result = 0;
    switch (in->kind) {
    case CBASELINE_INPUT_IMPULSE: cbaseline_apply_impulse(world, in->index, in->x, in->y, in->has_point, in->px, in->py); break;
    case CBASELINE_INPUT_VELOCITY: cbaseline_set_velocity(world, in->index, in->x, in->y); break;
    case CBASELINE_INPUT_ANGULAR_VELOCITY: cbaseline_set_angular_velocity(world, in->index, in->x); break;
    case CBASELINE_INPUT_HOLD:
        cbaseline_hold_force(world, in->index, in->x, in->y, in->has_point, in->px, in->py, in->torque, in->steps);
        break;
    case CBASELINE_INPUT_GRAB: cbaseline_grab(world, in->index, in->x, in->y, in->torque); break;
    case CBASELINE_INPUT_DRAG_TO: cbaseline_drag_to(world, in->index, in->x, in->y); break;
    case CBASELINE_INPUT_RELEASE: cbaseline_release(world, in->index); break;
    case INPUT_ADD_BODY: made_result = cbaseline_add_crate(world, &in->crate); break;
    case INPUT_ADD_WALL: made_result = cbaseline_add_wall(world, &in->wall); break;
    case INPUT_ADD_JOINT: made_result = cbaseline_add_joint(world, &in->joint, made); break;
    case INPUT_REMOVE_BODY: cbaseline_remove_body(world, in->index); break;
    case INPUT_REMOVE_JOINT: cbaseline_remove_joint(world, in->index); break;
    default: fprintf(stderr, "trail: an input of unknown kind %d\n", in->kind); exit(70);
    }
    if (made_result == CBASELINE_UNKNOWN_KIND) { fprintf(stderr, "trail: the C baseline refused a part of unknown kind\n"); exit(70); }
}

int main(int argc, char **argv) {
    /* Debian's debug build prints a banner on stdout at its first cpSpaceNew: keep stdout for results. */
    cpSpaceFree(CChipmunk_SpaceNewQuietly());
    spec s;
    if (argc == 3 && strcmp(argv[1], "--probe") == 0) {
        read_spec(argv[2], &s);
        if (!s.has_probe) { fprintf(stderr, "trail: %s has no probe line\n", argv[2]); return 65; }
        return probe(&s);
    }
    if (argc == 5 && strcmp(argv[3], "--state-cost") == 0) {
        read_spec(argv[1], &s);
        return state_cost(&s, atoi(argv[2]), atoi(argv[4]));
    }
    int from_state = argc == 5 && strcmp(argv[3], "--from-state") == 0;
    int save_at = argc == 7 && strcmp(argv[3], "--save-at") == 0;
    if (argc != 3 && !from_state && !save_at) {
        fprintf(stderr, "usage: trail SPEC STEPS [--from-state FILE | --save-at N TEMPLATE OUT] | trail --probe SPEC\n");
        return 64;
    }
    read_spec(argv[1], &s);
    int steps = atoi(argv[2]);
    cbaseline_world *world = build(&s);
    int start = 0, next_change = 0, next_input = 0;
    double gravity[2] = {s.config.gravity_x, s.config.gravity_y};
    state_file state;
    if (from_state) read_state_file(argv[4], &state);
    if (save_at) read_state_file(argv[5], &state);
    int save_step = save_at ? atoi(argv[4]) : -1;
    if (from_state) {
        /* The world's make-up at the saved step, as CrateDrop's World rebuilds it for a state
           across changes: the state's log replayed without stepping, each entry matching the
           spec's next change before that step (a spawner's crate among them), an added joint
           taking the log's made values; a joint that broke (which the spec does not say) removed
           where the log has it; then the state. */
        int next_spec = 0, made = 0;
        for (uint32_t e = 0; e < state.change_count; e++) {
            const struct logged *entry = &state.changes[e];
            if (entry->tag == 6) {
                if (entry->id < 1 || entry->id > (uint64_t)INT_MAX) { fprintf(stderr, "trail: %s: a broken joint's id is out of range\n", argv[4]); return 65; }
                cbaseline_remove_joint(world, (int)(entry->id - 1));
                continue;
            }
            while (next_spec < s.input_count && s.inputs[next_spec].kind < INPUT_ADD_BODY) next_spec++;
            const struct input *in = next_spec < s.input_count ? &s.inputs[next_spec] : NULL;
            if (!in || (uint64_t)in->step >= state.step || entry->step != (uint64_t)in->step || entry->tag != in->kind - INPUT_ADD_BODY + 1) {
                fprintf(stderr, "trail: %s: the state's make-up log is not the spec's changes before step %llu\n", argv[4],
                        (unsigned long long)state.step);
                return 65;
            }
            apply_input(world, in, entry->made_count > 0 ? entry->made : NULL);
            next_spec++;
            made++;
        }
        for (; next_spec < s.input_count && (uint64_t)s.inputs[next_spec].step < state.step; next_spec++) {
            if (s.inputs[next_spec].kind < INPUT_ADD_BODY) continue;
            fprintf(stderr, "trail: %s: the state's make-up log has %d of the spec's changes before step %llu, not all\n", argv[4], made,
                    (unsigned long long)state.step);
            return 65;
        }
        char message[256] = "";
        if (cbaseline_state_restore(world, state.physics, state.physics_count, message, sizeof message) != 0) {
            fprintf(stderr, "trail: %s: %s\n", argv[4], message);
            return 65;
        }
        start = (int)state.step;
        gravity[0] = state.gravity[0];
        gravity[1] = state.gravity[1];
        cbaseline_set_gravity(world, gravity[0], gravity[1]);
        // Changes and inputs before the saved step are in the state already.
        while (next_change < s.change_count && s.change_steps[next_change] < start) next_change++;
        while (next_input < s.input_count && s.inputs[next_input].step < start) next_input++;
    }
    for (int step = start; step < steps; step++) {
        for (; next_input < s.input_count && s.inputs[next_input].step <= step; next_input++) {
            apply_input(world, &s.inputs[next_input], NULL);
        }
        while (next_change < s.change_count && s.change_steps[next_change] <= step) {
            gravity[0] = s.change_gravity[next_change][0];
            gravity[1] = s.change_gravity[next_change][1];
            cbaseline_set_gravity(world, gravity[0], gravity[1]);
            next_change++;
        }
        cbaseline_step(world, 1);
        printf("%d %016llx\n", step + 1, cbaseline_state_hash(world));
        if (step + 1 == save_step) write_state_file(world, &state, (uint64_t)save_step, gravity, argv[6]);
    }
    cbaseline_destroy(world);
    return 0;
}
