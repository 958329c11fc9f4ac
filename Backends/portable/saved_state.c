/* Saved states for the portable backend: everything a Chipmunk 7.0.3 space needs to continue
   exactly as it would have, as bytes, and back.

   One step of Chipmunk reads more than the bodies (see docs/determinism.md, "Saved states"): the
   space's stamp and last time step, the cached arbiters with their contacts' accumulated
   impulses, and the dynamic bounding-box tree itself: its shape, every node's box, each leaf's
   stamp and its list of pairs, whose order is the order in which the broadphase hands pairs to
   the solver. The tree's nodes and pairs are private to cpBBTree.c, so this file is compiled in
   its place, with that file included, when Backends/portable/build makes the library. Debian's
   shared library has no such access: there, saving is refused (the symbols below are absent).

   Bytes are little-endian and fixed-width whatever the CPU (indices are 2 bytes wide, or 4 in a
   world of 32,768 shapes or broadphase pairs or more, as the state's own width byte says); every
   double keeps its bits. Only what the next step reads is kept: a contact's impulses and feature hash (its
   offsets, masses and bias are computed again when its pair collides), an arbiter's shapes,
   stamp, state and contacts. The state of the arbiters that were active in the last step is
   written as the next step's start makes it (normal), so no active list or contact graph needs
   restoring. An inner node's box is the union of its children's (the tree keeps it so, and
   the save checks it), so only boxes that are not get written.

   Layout (after the header's body count): per body p, v, a, w, v_bias, w_bias (f64); the space's
   stamp (u32) and last time step (f64); the tree's stamp (u32); the index width (u8); the width
   of contact hashes on the CPU that saved it (u8: 32 or 64); a digest of the shapes' Chipmunk
   ids (u64: from FNV-1a's offset, each id as a u64 in the world's order xored in and multiplied
   by FNV's prime); the node
   count (u32) and the tree in preorder (a kind byte: 0 inner, 2 inner with its own box, 1 leaf;
   a leaf's shape index, stamp and box); each static shape's leaf stamp (u32); the pair count
   (u32); per shape, in order, its pair list: a length, then per pair either the other shape's
   index times two and the pair's collision id (u32), where this shape is the pair's first leaf,
   or the pair's number times two plus one, where it is the second (pairs are numbered in the
   order their first leaves' entries come);
   the cached arbiters in order of their shapes' indices: both indices, stamp (u32), state and
   contact count (u8), and per contact its feature hash (u64), normal and tangent impulses (f64).

   Saving walks the space with a pointer-to-index table for shapes and, for pairs, their numbers
   held in their id fields while it writes (put back before it returns): no search and no sort
   of the whole, so its cost grows linearly with the world (docs/determinism.md has the figures).

   Restoring parses and checks every byte first, and changes the space only when all of it is
   sound: a corrupt or foreign state leaves the space as it was. */
#include "cpBBTree.c"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* What a space must be for its state to be saved: a tree broadphase, no sleeping, not stepping. */
enum {
    CRATEDROP_STATE_OK = 0,
    CRATEDROP_STATE_NOT_A_TREE = -1,
    CRATEDROP_STATE_SLEEPING = -2,
    CRATEDROP_STATE_LOCKED = -3,
    CRATEDROP_STATE_FORCES = -4,
    CRATEDROP_STATE_MEMORY = -5,
    CRATEDROP_STATE_MALFORMED = -6,
    CRATEDROP_STATE_UNKNOWN_SHAPE = -7,
};

/* MARK: Writing */

/* Writes into the caller's buffer while it has room, and counts every byte all the same, so a
   buffer too small costs one more call with the size the first one returned. */
typedef struct {
    unsigned char *bytes;
    size_t count, capacity;
} Writer;

static inline unsigned char *at_room(Writer *w, size_t count) {
    unsigned char *at = w->count + count <= w->capacity ? w->bytes + w->count : NULL;
    w->count += count;
    return at;
}

static inline void store_u32(unsigned char *at, uint32_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(at, &v, 4);
#else
    at[0] = (unsigned char)v;
    at[1] = (unsigned char)(v >> 8);
    at[2] = (unsigned char)(v >> 16);
    at[3] = (unsigned char)(v >> 24);
#endif
}

static inline void store_u64(unsigned char *at, uint64_t v) {
    store_u32(at, (uint32_t)v);
    store_u32(at + 4, (uint32_t)(v >> 32));
}

static inline void store_f64(unsigned char *at, double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    store_u64(at, bits);
}

static inline void put_u8(Writer *w, uint8_t v) {
    unsigned char *at = at_room(w, 1);
    if (at) at[0] = v;
}

static inline void put_u32(Writer *w, uint32_t v) {
    unsigned char *at = at_room(w, 4);
    if (at) store_u32(at, v);
}

static inline void put_u64(Writer *w, uint64_t v) {
    unsigned char *at = at_room(w, 8);
    if (at) store_u64(at, v);
}

static inline void put_f64(Writer *w, double v) {
    unsigned char *at = at_room(w, 8);
    if (at) store_f64(at, v);
}

/* An index in the state's width (2 or 4 bytes). */
static inline void store_index(unsigned char *at, int width, uint32_t v) {
    at[0] = (unsigned char)v;
    at[1] = (unsigned char)(v >> 8);
    if (width == 4) {
        at[2] = (unsigned char)(v >> 16);
        at[3] = (unsigned char)(v >> 24);
    }
}

static inline void put_index(Writer *w, int width, uint32_t v) {
    unsigned char *at = at_room(w, (size_t)width);
    if (at) store_index(at, width, v);
}

static void put_bb(Writer *w, cpBB bb) {
    unsigned char *at = at_room(w, 32);
    if (!at) return;
    store_f64(at, bb.l);
    store_f64(at + 8, bb.b);
    store_f64(at + 16, bb.r);
    store_f64(at + 24, bb.t);
}

/* MARK: Reading */

typedef struct {
    const unsigned char *bytes;
    size_t count, at;
    int failed;
} Reader;

static inline const unsigned char *take(Reader *r, size_t count) {
    if (r->failed || r->count - r->at < count) { r->failed = 1; return NULL; }
    const unsigned char *at = r->bytes + r->at;
    r->at += count;
    return at;
}

static inline uint16_t load_u16(const unsigned char *at) { return (uint16_t)(at[0] | at[1] << 8); }

static inline uint32_t load_u32(const unsigned char *at) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t v;
    memcpy(&v, at, 4);
    return v;
#else
    return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
#endif
}

static inline uint64_t load_u64(const unsigned char *at) { return (uint64_t)load_u32(at) | (uint64_t)load_u32(at + 4) << 32; }

static inline uint32_t load_index(const unsigned char *at, int width) { return width == 2 ? load_u16(at) : load_u32(at); }

/* A double from its bits; a non-finite one (corruption in a state) clears `*finite`. */
static inline double load_finite(const unsigned char *at, int *finite) {
    uint64_t bits = load_u64(at);
    if ((bits & 0x7FF0000000000000ull) == 0x7FF0000000000000ull) *finite = 0;
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static inline uint8_t get_u8(Reader *r) {
    const unsigned char *b = take(r, 1);
    return b ? b[0] : 0;
}

static inline uint32_t get_u32(Reader *r) {
    const unsigned char *b = take(r, 4);
    return b ? load_u32(b) : 0;
}

static inline uint64_t get_u64(Reader *r) {
    const unsigned char *b = take(r, 8);
    return b ? load_u64(b) : 0;
}

/* A finite double (a non-finite one in a state is corruption). */
static inline double get_finite(Reader *r) {
    const unsigned char *b = take(r, 8);
    int finite = 1;
    double v = b ? load_finite(b, &finite) : 0;
    if (!finite) r->failed = 1;
    return v;
}

static inline uint32_t get_index(Reader *r, int width) {
    const unsigned char *b = take(r, (size_t)width);
    return b ? load_index(b, width) : 0;
}

/* MARK: Pointer tables */

/* Pointers numbered in a fixed order (shapes), found again in constant time: open addressing
   with linear probing, at most half full. */
typedef struct {
    uintptr_t *keys;
    uint32_t *values;
    size_t mask;
} PointerTable;

static inline size_t slot_of(uintptr_t key, size_t mask) {
    return (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

static int table_init(PointerTable *t, size_t count) {
    size_t capacity = 16;
    while (capacity < 2 * count) capacity *= 2;
    t->keys = calloc(capacity, sizeof *t->keys);
    t->values = malloc(capacity * sizeof *t->values);
    t->mask = capacity - 1;
    return t->keys && t->values;
}

static void table_free(PointerTable *t) {
    free(t->keys);
    free(t->values);
}

static void table_put(PointerTable *t, const void *pointer, uint32_t value) {
    uintptr_t key = (uintptr_t)pointer;
    size_t slot = slot_of(key, t->mask);
    while (t->keys[slot] && t->keys[slot] != key) slot = (slot + 1) & t->mask;
    t->keys[slot] = key;
    t->values[slot] = value;
}

/* The pointer's number, or -1 when it has none. */
static inline long table_get(const PointerTable *t, const void *pointer) {
    uintptr_t key = (uintptr_t)pointer;
    for (size_t slot = slot_of(key, t->mask); t->keys[slot]; slot = (slot + 1) & t->mask) {
        if (t->keys[slot] == key) return t->values[slot];
    }
    return -1;
}

/* MARK: The space */

static Node *leaf_of(cpShape *shape) {
    cpSpace *space = shape->space;
    cpBBTree *tree = GetTree(cpBodyGetType(shape->body) == CP_BODY_TYPE_STATIC ? space->staticShapes : space->dynamicShapes);
    return tree ? (Node *)cpHashSetFind(tree->leaves, shape->hashid, shape) : NULL;
}

static int is_static(cpShape *shape) { return cpBodyGetType(shape->body) == CP_BODY_TYPE_STATIC; }

/* How many shapes at the front of the world's list are static. The world lists its walls
   (static) first and then only moving shapes (a tumbler's, crates), so only the front is read:
   reading every shape's body costs two cache misses a shape in a big world. */
static int static_prefix(cpShape **shapes, int shapeCount) {
    int count = 0;
    while (count < shapeCount && is_static(shapes[count])) count++;
    return count;
}

static int check_space(cpSpace *space) {
    if (!GetTree(space->dynamicShapes) || !GetTree(space->staticShapes)) return CRATEDROP_STATE_NOT_A_TREE;
    if (space->sleepTimeThreshold != INFINITY) return CRATEDROP_STATE_SLEEPING;
    if (space->locked) return CRATEDROP_STATE_LOCKED;
    return CRATEDROP_STATE_OK;
}

/* Indices are 2 bytes wide (with a side bit to spare) while shapes and pairs are few enough. */
static int index_width(int shapeCount, size_t pairCount) { return shapeCount < 0x8000 && pairCount < 0x8000 ? 2 : 4; }

/* The shapes' Chipmunk ids in the world's order, mixed FNV-1a style a 64-bit word at a time. Contact hashes are made from these
   ids (assigned as shapes are added), so a state's contacts fit only a world whose shapes got the
   same ids: one built in the same order. */
static uint64_t shape_ids_digest(uint64_t digest, cpShape *shape) {
    return (digest ^ (uint64_t)shape->hashid) * 0x100000001b3ULL;
}

static int same_bb(cpBB a, cpBB b) {
    return memcmp(&a.l, &b.l, sizeof a.l) == 0 && memcmp(&a.b, &b.b, sizeof a.b) == 0
        && memcmp(&a.r, &b.r, sizeof a.r) == 0 && memcmp(&a.t, &b.t, sizeof a.t) == 0;
}

/* MARK: Saving */

typedef struct {
    Writer *w;
    const PointerTable *shapes;
    int width;
    int unknown;
} TreeWalk;

static void count_nodes(Node *node, uint32_t *count) {
    if (!node) return;
    *count += 1;
    if (!NodeIsLeaf(node)) {
        count_nodes(node->A, count);
        count_nodes(node->B, count);
    }
}

/* Preorder: a kind byte, a leaf's shape index, stamp and box, an inner node's box only when it
   is not its children's union. */
static void put_subtree(TreeWalk *walk, Node *node) {
    if (NodeIsLeaf(node)) {
        long index = table_get(walk->shapes, node->obj);
        if (index < 0) walk->unknown = 1;
        put_u8(walk->w, 1);
        put_index(walk->w, walk->width, (uint32_t)index);
        put_u32(walk->w, node->STAMP);
        put_bb(walk->w, node->bb);
    } else {
        int derived = same_bb(node->bb, cpBBMerge(node->A->bb, node->B->bb));
        put_u8(walk->w, derived ? 0 : 2);
        if (!derived) put_bb(walk->w, node->bb);
        put_subtree(walk, node->A);
        put_subtree(walk, node->B);
    }
}

static Pair *next_in_list(Pair *pair, Node *leaf) { return pair->a.leaf == leaf ? pair->a.next : pair->b.next; }

/* The pairs, numbered, with their own collision ids while their id fields hold their numbers. */
typedef struct {
    Pair **pairs;
    cpCollisionID *ids;
    size_t count, capacity;
    int failed;
} PairNumbers;

static void number_pair(PairNumbers *n, Pair *pair) {
    if (n->failed) return;
    if (n->count == n->capacity) {
        size_t capacity = n->capacity ? n->capacity * 2 : 4096;
        Pair **pairs = realloc(n->pairs, capacity * sizeof *pairs);
        if (pairs) n->pairs = pairs;
        cpCollisionID *ids = pairs ? realloc(n->ids, capacity * sizeof *ids) : NULL;
        if (!ids) { n->failed = 1; return; }
        n->ids = ids;
        n->capacity = capacity;
    }
    n->pairs[n->count] = pair;
    n->ids[n->count] = pair->id;
    pair->id = (cpCollisionID)n->count++;
}

/* Puts every pair's own id back. */
static void unnumber_pairs(PairNumbers *n) {
    for (size_t p = 0; p < n->count; p++) n->pairs[p]->id = n->ids[p];
    free(n->pairs);
    free(n->ids);
}

/* An arbiter with its shapes' indices, for ordering. */
typedef struct {
    uint32_t a, b;
    cpArbiter *arb;
} OrderedArbiter;

typedef struct {
    OrderedArbiter *items;
    size_t count, capacity;
    const PointerTable *shapes;
    int failed, unknown;
} ArbiterList;

static void collect_arbiter(cpArbiter *arb, ArbiterList *list) {
    if (list->failed) return;
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 1024;
        OrderedArbiter *grown = realloc(list->items, capacity * sizeof *grown);
        if (!grown) { list->failed = 1; return; }
        list->items = grown;
        list->capacity = capacity;
    }
    long a = table_get(list->shapes, arb->a), b = table_get(list->shapes, arb->b);
    if (a < 0 || b < 0) { list->unknown = 1; return; }
    list->items[list->count++] = (OrderedArbiter){(uint32_t)a, (uint32_t)b, arb};
}

static int arbiter_before(const OrderedArbiter *p, const OrderedArbiter *q) {
    return p->a != q->a ? p->a < q->a : p->b < q->b;
}

/* Orders the arbiters by their shapes' indices (the set itself is keyed by addresses, so one
   state always gives the same bytes): counted into buckets by the first index, each bucket
   (a shape's few contacts) then sorted by the second. */
static int order_arbiters(ArbiterList *list, int shapeCount) {
    size_t *starts = calloc((size_t)shapeCount + 1, sizeof *starts);
    OrderedArbiter *sorted = malloc((list->count + 1) * sizeof *sorted);
    if (!starts || !sorted) { free(starts); free(sorted); return 0; }
    for (size_t i = 0; i < list->count; i++) starts[list->items[i].a + 1]++;
    for (int s = 0; s < shapeCount; s++) starts[s + 1] += starts[s];
    for (size_t i = 0; i < list->count; i++) sorted[starts[list->items[i].a]++] = list->items[i];
    for (size_t i = 1; i < list->count; i++) {
        OrderedArbiter item = sorted[i];
        size_t k = i;
        while (k > 0 && arbiter_before(&item, &sorted[k - 1])) { sorted[k] = sorted[k - 1]; k--; }
        sorted[k] = item;
    }
    free(starts);
    free(list->items);
    list->items = sorted;
    return 1;
}

/* Writes the space's state into `buffer`; `shapes` and `bodies` name every shape and non-static
   body in the world's own order (walls, tumbler, crates). Returns the state's size in bytes (when
   it is more than `capacity`, the buffer holds only its beginning: call again with room for it),
   or a negative CRATEDROP_STATE_ code. */
long cratedrop_state_save(cpSpace *space, cpShape **shapes, int shapeCount, cpBody **bodies, int bodyCount,
                          unsigned char *buffer, long capacity) {
    int problem = check_space(space);
    if (problem) return problem;
    for (int i = 0; i < bodyCount; i++) {
        cpBody *body = bodies[i];
        // Chipmunk clears forces after every step; a pending force is not part of this format.
        if (body->f.x != 0 || body->f.y != 0 || body->t != 0) return CRATEDROP_STATE_FORCES;
    }
    PointerTable index;
    Node **leaves = malloc(((size_t)shapeCount + 1) * sizeof *leaves);
    if (!table_init(&index, (size_t)shapeCount) || !leaves) { table_free(&index); free(leaves); return CRATEDROP_STATE_MEMORY; }
    int unknown = 0;
    uint64_t ids = 0xcbf29ce484222325ULL;
    for (int i = 0; i < shapeCount; i++) {
        table_put(&index, shapes[i], (uint32_t)i);
        leaves[i] = leaf_of(shapes[i]);
        ids = shape_ids_digest(ids, shapes[i]);
        if (!leaves[i]) unknown = 1;
    }
    // Pairs are numbered in the order their first leaves' lists meet them. While the lists are
    // written, a pair's number stands in its collision id field (the ids are kept aside and put
    // back before returning), so a second leaf's entry finds it without a search.
    PairNumbers numbers = {0};
    for (int i = 0; i < shapeCount && !unknown && !numbers.failed; i++) {
        for (Pair *pair = leaves[i]->PAIRS; pair; pair = next_in_list(pair, leaves[i])) {
            if (pair->a.leaf == leaves[i]) number_pair(&numbers, pair);
        }
    }
    int width = index_width(shapeCount, numbers.count);

    Writer w = {buffer, 0, capacity > 0 ? (size_t)capacity : 0};
    put_u32(&w, (uint32_t)bodyCount);
    for (int i = 0; i < bodyCount; i++) {
        cpBody *body = bodies[i];
        unsigned char *at = at_room(&w, 72);
        if (!at) continue;
        store_f64(at, body->p.x);
        store_f64(at + 8, body->p.y);
        store_f64(at + 16, body->v.x);
        store_f64(at + 24, body->v.y);
        store_f64(at + 32, body->a);
        store_f64(at + 40, body->w);
        store_f64(at + 48, body->v_bias.x);
        store_f64(at + 56, body->v_bias.y);
        store_f64(at + 64, body->w_bias);
    }
    put_u32(&w, space->stamp);
    put_f64(&w, space->curr_dt);

    cpBBTree *tree = GetTree(space->dynamicShapes);
    put_u32(&w, tree->stamp);
    put_u8(&w, (uint8_t)width);
    put_u8(&w, (uint8_t)(8 * sizeof(cpHashValue)));
    put_u64(&w, ids);
    uint32_t nodes = 0;
    count_nodes(tree->root, &nodes);
    put_u32(&w, nodes);
    TreeWalk walk = {&w, &index, width, 0};
    if (tree->root && !unknown) put_subtree(&walk, tree->root);
    unknown |= walk.unknown;
    int staticCount = static_prefix(shapes, shapeCount);
    for (int i = 0; i < staticCount && !unknown; i++) put_u32(&w, leaves[i]->STAMP);

    // Each leaf's pair list, in its order: a first leaf's entry names the other shape and the
    // pair's id, a second leaf's entry the pair's number.
    put_u32(&w, (uint32_t)numbers.count);
    for (int i = 0; i < shapeCount && !unknown && !numbers.failed; i++) {
        Node *leaf = leaves[i];
        unsigned char *lengthAt = at_room(&w, (size_t)width);
        uint32_t length = 0;
        for (Pair *pair = leaf->PAIRS; pair; pair = next_in_list(pair, leaf)) {
            if (pair->a.leaf == leaf) {
                long other = table_get(&index, pair->b.leaf->obj);
                if (other < 0) { unknown = 1; break; }
                put_index(&w, width, (uint32_t)other << 1);
                put_u32(&w, numbers.ids[pair->id]);
            } else {
                put_index(&w, width, pair->id << 1 | 1);
            }
            length++;
        }
        if (width == 2 && length > 0xFFFF) unknown = 1;
        if (lengthAt) store_index(lengthAt, width, length);
    }
    unnumber_pairs(&numbers);

    // Arbiters: those of the last step's collisions get the state the next step's start gives them.
    ArbiterList arbiters = {.shapes = &index};
    cpHashSetEach(space->cachedArbiters, (cpHashSetIteratorFunc)collect_arbiter, &arbiters);
    unknown |= arbiters.unknown;
    int failed = arbiters.failed || !order_arbiters(&arbiters, shapeCount);
    put_u32(&w, (uint32_t)arbiters.count);
    for (size_t i = 0; i < arbiters.count && !failed && !unknown; i++) {
        cpArbiter *arb = arbiters.items[i].arb;
        int collided = arb->stamp == space->stamp && arb->state == CP_ARBITER_STATE_FIRST_COLLISION;
        unsigned char *at = at_room(&w, 2 * (size_t)width + 6 + (size_t)arb->count * 24);
        if (!at) continue;
        store_index(at, width, arbiters.items[i].a);
        store_index(at + width, width, arbiters.items[i].b);
        at += 2 * width;
        store_u32(at, arb->stamp);
        at[4] = (uint8_t)(collided ? CP_ARBITER_STATE_NORMAL : arb->state);
        at[5] = (uint8_t)arb->count;
        at += 6;
        for (int c = 0; c < arb->count; c++, at += 24) {
            store_u64(at, (uint64_t)arb->contacts[c].hash);
            store_f64(at + 8, arb->contacts[c].jnAcc);
            store_f64(at + 16, arb->contacts[c].jtAcc);
        }
    }

    table_free(&index);
    free(leaves);
    free(arbiters.items);
    if (unknown) return CRATEDROP_STATE_UNKNOWN_SHAPE;
    if (failed || numbers.failed || w.count > (size_t)LONG_MAX) return CRATEDROP_STATE_MEMORY;
    return (long)w.count;
}

/* MARK: Restoring */

typedef struct {
    double p[2], v[2], a, w, v_bias[2], w_bias;
} SavedBody;

typedef struct {
    uint8_t leaf;
    uint32_t shape, stamp;
    cpBB bb;
    int32_t a, b; /* an inner node's children, as indices into the node array */
} SavedNode;

/* One entry of a leaf's pair list: the pair it names (an index into the pairs, numbered in the
   order of their first leaves' entries) and whether this leaf is the pair's first. */
typedef struct {
    uint32_t pair;
    uint8_t first;
} SavedEntry;

typedef struct {
    uint32_t a, b, id;
} SavedPair;

typedef struct {
    uint32_t a, b, stamp;
    uint8_t state, count;
    uint64_t hash[CP_MAX_CONTACTS_PER_ARBITER];
    double jnAcc[CP_MAX_CONTACTS_PER_ARBITER], jtAcc[CP_MAX_CONTACTS_PER_ARBITER];
} SavedArbiter;

typedef struct {
    SavedBody *bodies;
    uint32_t stamp, treeStamp, nodeCount;
    uint64_t shapeIDs;
    double currDt;
    SavedNode *nodes;
    uint32_t *staticStamps;
    uint32_t pairCount;
    SavedPair *pairs;
    uint32_t *listStarts; /* per shape, where its list begins in `entries`; one more at the end */
    SavedEntry *entries;
    uint32_t arbiterCount;
    SavedArbiter *arbiters;
} Saved;

static void saved_free(Saved *s) {
    free(s->bodies);
    free(s->nodes);
    free(s->staticStamps);
    free(s->pairs);
    free(s->listStarts);
    free(s->entries);
    free(s->arbiters);
}

static inline int read_bb(Reader *r, cpBB *bb) {
    const unsigned char *at = take(r, 32);
    if (!at) return 0;
    int finite = 1;
    bb->l = load_finite(at, &finite);
    bb->b = load_finite(at + 8, &finite);
    bb->r = load_finite(at + 16, &finite);
    bb->t = load_finite(at + 24, &finite);
    return finite && bb->l <= bb->r && bb->b <= bb->t;
}

/* Reads the preorder tree; returns the node's index, or -1 when malformed. An inner node's box
   not written is its children's union. */
static int32_t read_subtree(Reader *r, Saved *s, int width, uint32_t *used, int depth) {
    if (*used >= s->nodeCount || depth > 4096) { r->failed = 1; return -1; }
    int32_t at = (int32_t)(*used)++;
    uint8_t kind = get_u8(r);
    s->nodes[at].leaf = kind == 1;
    if (kind == 1) {
        const unsigned char *leaf = take(r, (size_t)width + 4);
        if (!leaf) return -1;
        s->nodes[at].shape = load_index(leaf, width);
        s->nodes[at].stamp = load_u32(leaf + width);
        if (!read_bb(r, &s->nodes[at].bb)) { r->failed = 1; return -1; }
        return at;
    }
    if (kind != 0 && kind != 2) { r->failed = 1; return -1; }
    if (kind == 2 && !read_bb(r, &s->nodes[at].bb)) { r->failed = 1; return -1; }
    int32_t a = read_subtree(r, s, width, used, depth + 1);
    int32_t b = a < 0 ? -1 : read_subtree(r, s, width, used, depth + 1);
    if (b < 0) return -1;
    s->nodes[at].a = a;
    s->nodes[at].b = b;
    if (kind == 0) s->nodes[at].bb = cpBBMerge(s->nodes[a].bb, s->nodes[b].bb);
    return at;
}

static int fail(char *message, int size, const char *text) {
    if (message && size > 0) snprintf(message, (size_t)size, "%s", text);
    return CRATEDROP_STATE_MALFORMED;
}

/* Reads every leaf's pair list and checks that the lists make pairs: each pair is named by its
   first leaf's entry (with its id) and by exactly one entry of its second leaf, by number, and
   no shape is in another's list twice. */
static int read_pairs(Reader *r, Saved *s, uint32_t staticShapes, int shapeCount, int width, char *message, int size) {
    s->pairCount = get_u32(r);
    // Each pair takes two entries of at least `width` bytes and an id.
    if (r->failed || (size_t)s->pairCount > (r->count - r->at) / (2 * (size_t)width + 4)) return fail(message, size, "the state is cut short in its pairs");
    s->listStarts = calloc((size_t)shapeCount + 1, sizeof *s->listStarts);
    s->entries = malloc((2 * (size_t)s->pairCount + 1) * sizeof *s->entries);
    s->pairs = malloc(((size_t)s->pairCount + 1) * sizeof *s->pairs);
    uint32_t *seen = calloc((size_t)shapeCount + 1, sizeof *seen);
    if (!s->listStarts || !s->entries || !s->pairs || !seen) { free(seen); return CRATEDROP_STATE_MEMORY; }
    uint32_t count = 0, pairs = 0;
    int problem = CRATEDROP_STATE_OK;
    for (int i = 0; i < shapeCount && !problem; i++) {
        s->listStarts[i] = count;
        uint32_t length = get_index(r, width);
        if (r->failed || length > 2 * s->pairCount - count) { problem = fail(message, size, "a broadphase pair list is malformed or cut short"); break; }
        for (uint32_t k = 0; k < length; k++) {
            uint32_t entry = get_index(r, width);
            SavedEntry *saved = &s->entries[count++];
            saved->first = !(entry & 1);
            if (saved->first) {
                uint32_t other = entry >> 1;
                if (other >= (uint32_t)shapeCount || other == (uint32_t)i || ((uint32_t)i < staticShapes && other < staticShapes) || pairs == s->pairCount) {
                    problem = fail(message, size, "a broadphase pair names shapes that cannot pair");
                    break;
                }
                s->pairs[pairs] = (SavedPair){(uint32_t)i, other, get_u32(r)};
                saved->pair = pairs++;
            } else {
                saved->pair = entry >> 1;
            }
        }
        if (r->failed && !problem) problem = fail(message, size, "a broadphase pair list is cut short");
    }
    s->listStarts[shapeCount] = count;
    if (!problem && (pairs != s->pairCount || count != 2 * s->pairCount)) problem = fail(message, size, "the broadphase pair lists do not hold each pair twice");
    // Each second leaf's entry names a pair of that leaf, and no pair is named twice.
    for (int j = 0; j < shapeCount && !problem; j++) {
        for (uint32_t e = s->listStarts[j]; e < s->listStarts[j + 1]; e++) {
            uint32_t pair = s->entries[e].pair;
            uint32_t other;
            if (s->entries[e].first) {
                other = s->pairs[pair].b;
            } else {
                if (pair >= pairs || s->pairs[pair].b != (uint32_t)j) {
                    problem = fail(message, size, "a broadphase pair list names a pair of other shapes, or one shape twice");
                    break;
                }
                other = s->pairs[pair].a;
            }
            if (seen[other] == (uint32_t)j + 1) { problem = fail(message, size, "a broadphase pair list names one shape twice"); break; }
            seen[other] = (uint32_t)j + 1;
        }
    }
    free(seen);
    return problem;
}

/* Parses and checks the whole state against the world's shapes and bodies. */
static int parse(const unsigned char *bytes, long count, cpShape **shapes, int shapeCount, int bodyCount, Saved *s,
                 char *message, int size) {
    Reader r = {bytes, (size_t)count, 0, 0};
    memset(s, 0, sizeof *s);
    uint32_t bodies = get_u32(&r);
    if (r.failed || bodies != (uint32_t)bodyCount) return fail(message, size, "the state holds another number of bodies than the scene");
    if ((size_t)bodies > (r.count - r.at) / 72) return fail(message, size, "the state is cut short in its bodies");
    s->bodies = malloc(((size_t)bodies + 1) * sizeof *s->bodies);
    if (!s->bodies) return CRATEDROP_STATE_MEMORY;
    int finite = 1;
    for (uint32_t i = 0; i < bodies; i++) {
        SavedBody *b = &s->bodies[i];
        const unsigned char *at = take(&r, 72);
        if (!at) break;
        b->p[0] = load_finite(at, &finite); b->p[1] = load_finite(at + 8, &finite);
        b->v[0] = load_finite(at + 16, &finite); b->v[1] = load_finite(at + 24, &finite);
        b->a = load_finite(at + 32, &finite); b->w = load_finite(at + 40, &finite);
        b->v_bias[0] = load_finite(at + 48, &finite); b->v_bias[1] = load_finite(at + 56, &finite);
        b->w_bias = load_finite(at + 64, &finite);
    }
    if (r.failed || !finite) return fail(message, size, "a body's value is not a finite number, or the state is cut short");
    s->stamp = get_u32(&r);
    s->currDt = get_finite(&r);
    s->treeStamp = get_u32(&r);
    int width = get_u8(&r);
    int hashBits = get_u8(&r);
    s->shapeIDs = get_u64(&r);
    s->nodeCount = get_u32(&r);
    if (r.failed || s->currDt < 0) return fail(message, size, "the space's stamp or time step is malformed");
    if (width != 2 && width != 4) return fail(message, size, "the state's index width is neither 2 nor 4");
    if (hashBits != 32 && hashBits != 64) return fail(message, size, "the state's contact hash width is neither 32 nor 64 bits");
    // A 32-bit CPU keeps the low half of the hashes a 64-bit one computes: a state goes from
    // 64 bits to 32, not back, since the solver finds a contact's warm start by its full hash.
    if ((size_t)hashBits < 8 * sizeof(cpHashValue)) {
        return fail(message, size, "the state was saved on a 32-bit CPU, whose contact hashes are 32 bits wide: continue it on a 32-bit CPU (i386)");
    }

    int staticShapes = static_prefix(shapes, shapeCount), dynamicShapes = shapeCount - staticShapes;
    uint32_t expectedNodes = dynamicShapes ? 2 * (uint32_t)dynamicShapes - 1 : 0;
    if (s->nodeCount != expectedNodes) return fail(message, size, "the broadphase tree has another number of nodes than the scene's shapes need");
    s->nodes = malloc(((size_t)s->nodeCount + 1) * sizeof *s->nodes);
    unsigned char *placed = calloc((size_t)shapeCount + 1, 1);
    if (!s->nodes || !placed) { free(placed); return CRATEDROP_STATE_MEMORY; }
    uint32_t used = 0;
    if (s->nodeCount && (read_subtree(&r, s, width, &used, 0) != 0 || used != s->nodeCount)) {
        free(placed);
        return fail(message, size, "the broadphase tree is malformed");
    }
    for (uint32_t i = 0; i < s->nodeCount; i++) {
        SavedNode *node = &s->nodes[i];
        if (!node->leaf) continue;
        if (node->shape >= (uint32_t)shapeCount || node->shape < (uint32_t)staticShapes || placed[node->shape]) {
            free(placed);
            return fail(message, size, "the broadphase tree names a shape that is not one of the scene's moving shapes, or names one twice");
        }
        placed[node->shape] = 1;
    }
    free(placed);

    s->staticStamps = calloc((size_t)staticShapes + 1, sizeof *s->staticStamps);
    if (!s->staticStamps) return CRATEDROP_STATE_MEMORY;
    for (int i = 0; i < staticShapes; i++) s->staticStamps[i] = get_u32(&r);
    if (r.failed) return fail(message, size, "the state is cut short in its walls' stamps");

    int problem = read_pairs(&r, s, (uint32_t)staticShapes, shapeCount, width, message, size);
    if (problem) return problem;

    s->arbiterCount = get_u32(&r);
    size_t smallest = 2 * (size_t)width + 6;
    if (r.failed || (size_t)s->arbiterCount > (r.count - r.at) / smallest) return fail(message, size, "the state is cut short in its contacts");
    s->arbiters = malloc(((size_t)s->arbiterCount + 1) * sizeof *s->arbiters);
    if (!s->arbiters) return CRATEDROP_STATE_MEMORY;
    for (uint32_t i = 0; i < s->arbiterCount; i++) {
        SavedArbiter *arb = &s->arbiters[i];
        const unsigned char *at = take(&r, 2 * (size_t)width + 6);
        if (!at) return fail(message, size, "the state is cut short in its contacts");
        arb->a = load_index(at, width);
        arb->b = load_index(at + width, width);
        arb->stamp = load_u32(at + 2 * width);
        arb->state = at[2 * width + 4];
        arb->count = at[2 * width + 5];
        if ( arb->a >= (uint32_t)shapeCount || arb->b >= (uint32_t)shapeCount || arb->a == arb->b
            || arb->count > CP_MAX_CONTACTS_PER_ARBITER
            || !(arb->state == CP_ARBITER_STATE_FIRST_COLLISION || arb->state == CP_ARBITER_STATE_NORMAL
                 || arb->state == CP_ARBITER_STATE_CACHED)
            || (i > 0 && !arbiter_before(&(OrderedArbiter){arb[-1].a, arb[-1].b, NULL}, &(OrderedArbiter){arb->a, arb->b, NULL}))) {
            return fail(message, size, "a contact pair is malformed, out of order or repeated");
        }
        const unsigned char *contacts = take(&r, 24 * (size_t)arb->count);
        int finite = 1;
        for (int c = 0; contacts && c < arb->count; c++) {
            arb->hash[c] = load_u64(contacts + 24 * c);
            arb->jnAcc[c] = load_finite(contacts + 24 * c + 8, &finite);
            arb->jtAcc[c] = load_finite(contacts + 24 * c + 16, &finite);
        }
        if (!contacts || !finite) return fail(message, size, "a contact's impulse is not a finite number, or the state is cut short");
    }
    if (r.at != r.count) return fail(message, size, "the state has bytes after its end");
    return CRATEDROP_STATE_OK;
}

/* cpSpaceStep.c's contact buffer header, private to that file: its layout in Chipmunk 7.0.3's
   source, which the portable backend builds. The buffers form a ring. */
typedef struct ContactRing {
    cpTimestamp stamp;
    struct ContactRing *next;
    unsigned int numContacts;
} ContactRing;

/* Marks every contact buffer free, once no arbiter points into them (all discarded): the step
   that fills a buffer reuses the ring's oldest when it is older than the contacts' persistence,
   so with their stamps put that far behind `stamp` the restored contacts go into the buffers the
   space has, instead of new ones each restore (which would grow the space by the contacts' size,
   about 0.6 MB for pile-1000, at every restore). */
static void free_contact_buffers(cpSpace *space, cpTimestamp stamp) {
    ContactRing *head = (ContactRing *)space->contactBuffersHead, *buffer = head;
    if (!head) return;
    do {
        buffer->stamp = stamp - (cpTimestamp)space->collisionPersistence - 1;
        buffer = buffer->next;
    } while (buffer && buffer != head);
}

static cpBool discard_arbiter(cpArbiter *arb, cpSpace *space) {
    arb->contacts = NULL;
    arb->count = 0;
    cpArrayPush(space->pooledArbiters, arb);
    return cpFalse;
}

/* An arbiter from the space's pool, as the space makes one for a new pair. */
static void *arbiter_from_pool(cpShape **pair, cpSpace *space) {
    if (space->pooledArbiters->num == 0) {
        int count = CP_BUFFER_BYTES / sizeof(cpArbiter);
        cpArbiter *buffer = (cpArbiter *)cpcalloc(1, CP_BUFFER_BYTES);
        cpArrayPush(space->allocatedBuffers, buffer);
        for (int i = 0; i < count; i++) cpArrayPush(space->pooledArbiters, buffer + i);
    }
    return cpArbiterInit((cpArbiter *)cpArrayPop(space->pooledArbiters), pair[0], pair[1]);
}

static Node *build_subtree(cpBBTree *tree, Saved *s, int32_t at, Node **leaves) {
    SavedNode *saved = &s->nodes[at];
    if (saved->leaf) {
        Node *leaf = leaves[saved->shape];
        leaf->bb = saved->bb;
        leaf->STAMP = saved->stamp;
        leaf->parent = NULL;
        return leaf;
    }
    Node *node = NodeFromPool(tree);
    node->obj = NULL;
    node->bb = saved->bb;
    node->parent = NULL;
    NodeSetA(node, build_subtree(tree, s, saved->a, leaves));
    NodeSetB(node, build_subtree(tree, s, saved->b, leaves));
    return node;
}

/* Puts the state in `bytes` into the space, whose shapes and bodies are given in the world's own
   order, as for saving. Returns 0, or a negative CRATEDROP_STATE_ code with what is wrong in
   `message`; on any error the space is left exactly as it was. */
int cratedrop_state_restore(cpSpace *space, cpShape **shapes, int shapeCount, cpBody **bodies, int bodyCount,
                            const unsigned char *bytes, long count, char *message, int messageSize) {
    int problem = check_space(space);
    if (problem) return problem;
    Node **leaves = malloc(((size_t)shapeCount + 1) * sizeof *leaves);
    if (!leaves) return CRATEDROP_STATE_MEMORY;
    uint64_t ids = 0xcbf29ce484222325ULL;
    for (int i = 0; i < shapeCount; i++) {
        leaves[i] = leaf_of(shapes[i]);
        ids = shape_ids_digest(ids, shapes[i]);
        if (!leaves[i]) { free(leaves); return fail(message, messageSize, "a shape of the world is not in its broadphase"); }
    }
    Saved s;
    problem = parse(bytes, count, shapes, shapeCount, bodyCount, &s, message, messageSize);
    if (!problem && s.shapeIDs != ids) {
        problem = fail(message, messageSize, "the world's shapes were added in another order than those of the world the state was saved from "
                       "(their Chipmunk ids differ, and contacts are known by them): build the world as that one was built");
    }
    if (problem) { saved_free(&s); free(leaves); return problem; }

    // Everything checks: from here on nothing can fail but memory, which Chipmunk aborts on.
    cpHashSetFilter(space->cachedArbiters, (cpHashSetFilterFunc)discard_arbiter, space);
    space->arbiters->num = 0;
    for (int i = 0; i < space->dynamicBodies->num; i++) ((cpBody *)space->dynamicBodies->arr[i])->arbiterList = NULL;
    for (int i = 0; i < space->staticBodies->num; i++) ((cpBody *)space->staticBodies->arr[i])->arbiterList = NULL;
    space->staticBody->arbiterList = NULL;

    // Every pair goes back to the pool at once (each from its first leaf's list): the lists are
    // all rebuilt below, so none needs unlinking first.
    cpBBTree *tree = GetTree(space->dynamicShapes);
    for (int i = 0; i < shapeCount; i++) {
        Pair *pair = leaves[i]->PAIRS;
        while (pair) {
            Pair *next = next_in_list(pair, leaves[i]);
            if (pair->a.leaf == leaves[i]) PairRecycle(tree, pair);
            pair = next;
        }
    }
    for (int i = 0; i < shapeCount; i++) leaves[i]->PAIRS = NULL;
    if (tree->root) SubtreeRecycle(tree, tree->root);
    tree->root = s.nodeCount ? build_subtree(tree, &s, 0, leaves) : NULL;
    tree->stamp = s.treeStamp;
    int staticCount = static_prefix(shapes, shapeCount);
    for (int i = 0; i < staticCount; i++) leaves[i]->STAMP = s.staticStamps[i];

    Pair **pairs = malloc(((size_t)s.pairCount + 1) * sizeof *pairs);
    for (uint32_t p = 0; p < s.pairCount; p++) {
        Pair *pair = PairFromPool(tree);
        memset(pair, 0, sizeof *pair);
        pair->a.leaf = leaves[s.pairs[p].a];
        pair->b.leaf = leaves[s.pairs[p].b];
        pair->id = s.pairs[p].id;
        pairs[p] = pair;
    }
    for (int i = 0; i < shapeCount; i++) {
        uint32_t first = s.listStarts[i], end = s.listStarts[i + 1];
        leaves[i]->PAIRS = first < end ? pairs[s.entries[first].pair] : NULL;
        for (uint32_t k = first; k < end; k++) {
            Pair *pair = pairs[s.entries[k].pair];
            Thread *thread = s.entries[k].first ? &pair->a : &pair->b;
            thread->prev = k > first ? pairs[s.entries[k - 1].pair] : NULL;
            thread->next = k + 1 < end ? pairs[s.entries[k + 1].pair] : NULL;
        }
    }
    free(pairs);

    space->stamp = s.stamp;
    space->curr_dt = s.currDt;
    for (int i = 0; i < bodyCount; i++) {
        cpBody *body = bodies[i];
        SavedBody *saved = &s.bodies[i];
        body->p = cpv(saved->p[0], saved->p[1]);
        body->v = cpv(saved->v[0], saved->v[1]);
        body->f = cpvzero;
        body->t = 0;
        body->w = saved->w;
        body->v_bias = cpv(saved->v_bias[0], saved->v_bias[1]);
        body->w_bias = saved->w_bias;
        // Sets the angle and the transform exactly as a step's position update does.
        cpBodySetAngle(body, saved->a);
    }
    // Shapes' own cached boxes and vertices are left as they are: the next step computes every
    // moving shape's again from its body before anything reads them (cpSpaceStep), and nothing
    // of CrateDrop's API reads them between steps.

    // The restored contacts live in buffers stamped with the restored stamp, which the space
    // keeps as long as it keeps the arbiters pointing into them.
    free_contact_buffers(space, s.stamp);
    cpSpacePushFreshContactBuffer(space);
    for (uint32_t i = 0; i < s.arbiterCount; i++) {
        SavedArbiter *saved = &s.arbiters[i];
        cpShape *pair[] = {shapes[saved->a], shapes[saved->b]};
        cpHashValue key = CP_HASH_PAIR((cpHashValue)pair[0], (cpHashValue)pair[1]);
        cpArbiter *arb = (cpArbiter *)cpHashSetInsert(space->cachedArbiters, key, pair, (cpHashSetTransFunc)arbiter_from_pool, space);
        arb->handler = &space->defaultHandler;
        arb->stamp = saved->stamp;
        arb->state = (enum cpArbiterState)saved->state;
        arb->count = saved->count;
        arb->contacts = NULL;
        if (saved->count) {
            struct cpContact *contacts = cpContactBufferGetArray(space);
            cpSpacePushContacts(space, saved->count);
            for (int c = 0; c < saved->count; c++) {
                memset(&contacts[c], 0, sizeof contacts[c]);
                // A state saved on a 64-bit CPU keeps the low bits a 32-bit one computes.
                contacts[c].hash = (cpHashValue)saved->hash[c];
                contacts[c].jnAcc = saved->jnAcc[c];
                contacts[c].jtAcc = saved->jtAcc[c];
            }
            arb->contacts = contacts;
        }
    }
    saved_free(&s);
    free(leaves);
    return CRATEDROP_STATE_OK;
}
