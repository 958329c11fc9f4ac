/* Saved states for the portable backend: everything a Chipmunk 7.0.3 space needs to continue
   exactly as it would have, as bytes, and back.

   One step of Chipmunk reads more than the bodies (see docs/determinism.md, "Saved states"): the
   space's stamp and last time step, the cached arbiters with their contacts' accumulated
   impulses, and the dynamic bounding-box tree itself: its shape, every node's box, each leaf's
   stamp and its list of pairs, whose order is the order in which the broadphase hands pairs to
   the solver. The tree's nodes and pairs are private to cpBBTree.c, so this file is compiled in
   its place, with that file included, when Backends/portable/build makes the library. Debian's
   shared library has no such access: there, saving is refused (the symbols below are absent).

   Bytes are little-endian and fixed-width whatever the CPU; every double keeps its bits. Only
   what the next step reads is kept: a contact's impulses and feature hash (its offsets, masses
   and bias are computed again when its pair collides), an arbiter's shapes, stamp, state and
   contacts. The state of the arbiters that were active in the last step is written as the next
   step's start makes it (normal), so no active list or contact graph needs restoring.

   Restoring parses and checks every byte first, and changes the space only when all of it is
   sound: a corrupt or foreign state leaves the space as it was. */
#include "cpBBTree.c"

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

/* MARK: Little-endian bytes */

typedef struct {
    unsigned char *bytes;
    size_t count, capacity;
    int failed;
} Writer;

static void put(Writer *w, const unsigned char *data, size_t count) {
    if (w->failed) return;
    if (w->count + count > w->capacity) {
        size_t capacity = w->capacity ? w->capacity * 2 : 4096;
        while (capacity < w->count + count) capacity *= 2;
        unsigned char *grown = realloc(w->bytes, capacity);
        if (!grown) { w->failed = 1; return; }
        w->bytes = grown;
        w->capacity = capacity;
    }
    memcpy(w->bytes + w->count, data, count);
    w->count += count;
}

static void put_u8(Writer *w, uint8_t v) { put(w, &v, 1); }

static void put_u32(Writer *w, uint32_t v) {
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    put(w, b, 4);
}

static void put_u64(Writer *w, uint64_t v) {
    put_u32(w, (uint32_t)v);
    put_u32(w, (uint32_t)(v >> 32));
}

static void put_f64(Writer *w, double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    put_u64(w, bits);
}

typedef struct {
    const unsigned char *bytes;
    size_t count, at;
    int failed;
} Reader;

static const unsigned char *take(Reader *r, size_t count) {
    if (r->failed || r->count - r->at < count) { r->failed = 1; return NULL; }
    const unsigned char *at = r->bytes + r->at;
    r->at += count;
    return at;
}

static uint8_t get_u8(Reader *r) {
    const unsigned char *b = take(r, 1);
    return b ? b[0] : 0;
}

static uint32_t get_u32(Reader *r) {
    const unsigned char *b = take(r, 4);
    return b ? (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24 : 0;
}

static uint64_t get_u64(Reader *r) {
    uint64_t low = get_u32(r);
    return low | (uint64_t)get_u32(r) << 32;
}

static double get_f64(Reader *r) {
    uint64_t bits = get_u64(r);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* A finite double (a non-finite one in a state is corruption). */
static double get_finite(Reader *r) {
    double v = get_f64(r);
    if (!isfinite(v)) r->failed = 1;
    return v;
}

/* MARK: Indices */

/* Pointers of one kind (shapes, pairs, arbiters) numbered in a fixed order, found again by
   binary search over their sorted addresses. */
typedef struct {
    const void *pointer;
    uint32_t index;
} Entry;

static int compare_entries(const void *a, const void *b) {
    uintptr_t x = (uintptr_t)((const Entry *)a)->pointer, y = (uintptr_t)((const Entry *)b)->pointer;
    return x < y ? -1 : x > y;
}

static long find_entry(const Entry *entries, size_t count, const void *pointer) {
    size_t low = 0, high = count;
    while (low < high) {
        size_t mid = (low + high) / 2;
        if ((uintptr_t)entries[mid].pointer < (uintptr_t)pointer) low = mid + 1; else high = mid;
    }
    return low < count && entries[low].pointer == pointer ? (long)entries[low].index : -1;
}

static Node *leaf_of(cpShape *shape) {
    cpSpace *space = shape->space;
    cpBBTree *tree = GetTree(cpBodyGetType(shape->body) == CP_BODY_TYPE_STATIC ? space->staticShapes : space->dynamicShapes);
    return tree ? (Node *)cpHashSetFind(tree->leaves, shape->hashid, shape) : NULL;
}

static int check_space(cpSpace *space) {
    if (!GetTree(space->dynamicShapes) || !GetTree(space->staticShapes)) return CRATEDROP_STATE_NOT_A_TREE;
    if (space->sleepTimeThreshold != INFINITY) return CRATEDROP_STATE_SLEEPING;
    if (space->locked) return CRATEDROP_STATE_LOCKED;
    return CRATEDROP_STATE_OK;
}

/* MARK: Saving */

typedef struct {
    Writer *w;
    const Entry *shapes;
    size_t shapeCount;
    uint32_t nodes;
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

static void put_bb(Writer *w, cpBB bb) {
    put_f64(w, bb.l);
    put_f64(w, bb.b);
    put_f64(w, bb.r);
    put_f64(w, bb.t);
}

/* Preorder: a kind byte (1 leaf, 0 inner), a leaf's shape index and stamp, then the node's box. */
static void put_subtree(TreeWalk *walk, Node *node) {
    if (NodeIsLeaf(node)) {
        long index = find_entry(walk->shapes, walk->shapeCount, node->obj);
        if (index < 0) walk->unknown = 1;
        put_u8(walk->w, 1);
        put_u32(walk->w, (uint32_t)index);
        put_u32(walk->w, node->STAMP);
        put_bb(walk->w, node->bb);
    } else {
        put_u8(walk->w, 0);
        put_bb(walk->w, node->bb);
        put_subtree(walk, node->A);
        put_subtree(walk, node->B);
    }
}

static Pair *next_in_list(Pair *pair, Node *leaf) { return pair->a.leaf == leaf ? pair->a.next : pair->b.next; }

typedef struct {
    cpArbiter **items;
    size_t count, capacity;
    int failed;
} ArbiterList;

static void collect_arbiter(cpArbiter *arb, ArbiterList *list) {
    if (list->failed) return;
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 256;
        cpArbiter **grown = realloc(list->items, capacity * sizeof *grown);
        if (!grown) { list->failed = 1; return; }
        list->items = grown;
        list->capacity = capacity;
    }
    list->items[list->count++] = arb;
}

/* Arbiters in the order of their shapes' indices, so one state always gives the same bytes
   (the arbiter set itself is keyed by addresses). */
typedef struct {
    uint32_t a, b;
    cpArbiter *arb;
} OrderedArbiter;

static int compare_arbiters(const void *x, const void *y) {
    const OrderedArbiter *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

/* Writes the space's state; `shapes` and `bodies` name every shape and non-static body in the
   world's own order (walls, tumbler, crates). Returns the byte count, the bytes in `*out`
   (release with cratedrop_state_free), or a negative CRATEDROP_STATE_ code. */
long cratedrop_state_save(cpSpace *space, cpShape **shapes, int shapeCount, cpBody **bodies, int bodyCount, unsigned char **out) {
    int problem = check_space(space);
    if (problem) return problem;
    for (int i = 0; i < bodyCount; i++) {
        cpBody *body = bodies[i];
        // Chipmunk clears forces after every step; a pending force is not part of this format.
        if (body->f.x != 0 || body->f.y != 0 || body->t != 0) return CRATEDROP_STATE_FORCES;
    }
    Entry *index = malloc(((size_t)shapeCount + 1) * sizeof *index);
    if (!index) return CRATEDROP_STATE_MEMORY;
    for (int i = 0; i < shapeCount; i++) index[i] = (Entry){shapes[i], (uint32_t)i};
    qsort(index, (size_t)shapeCount, sizeof *index, compare_entries);

    Writer w = {0};
    put_u32(&w, (uint32_t)bodyCount);
    for (int i = 0; i < bodyCount; i++) {
        cpBody *body = bodies[i];
        put_f64(&w, body->p.x);
        put_f64(&w, body->p.y);
        put_f64(&w, body->v.x);
        put_f64(&w, body->v.y);
        put_f64(&w, body->a);
        put_f64(&w, body->w);
        put_f64(&w, body->v_bias.x);
        put_f64(&w, body->v_bias.y);
        put_f64(&w, body->w_bias);
    }
    put_u32(&w, space->stamp);
    put_f64(&w, space->curr_dt);

    cpBBTree *tree = GetTree(space->dynamicShapes);
    TreeWalk walk = {&w, index, (size_t)shapeCount, 0, 0};
    put_u32(&w, tree->stamp);
    uint32_t nodes = 0;
    count_nodes(tree->root, &nodes);
    put_u32(&w, nodes);
    if (tree->root) put_subtree(&walk, tree->root);

    // Per shape, in index order: its leaf's stamp (static leaves; dynamic ones are in the tree).
    Node **leaves = malloc(((size_t)shapeCount + 1) * sizeof *leaves);
    if (!leaves) { free(index); free(w.bytes); return CRATEDROP_STATE_MEMORY; }
    for (int i = 0; i < shapeCount; i++) {
        leaves[i] = leaf_of(shapes[i]);
        if (!leaves[i]) walk.unknown = 1;
        else if (cpBodyGetType(shapes[i]->body) == CP_BODY_TYPE_STATIC) put_u32(&w, leaves[i]->STAMP);
    }

    // Pairs, numbered in the order the leaves' lists meet them; then each leaf's list.
    size_t pairCount = 0, pairCapacity = 0;
    Entry *pairs = NULL;
    Pair **pairOrder = NULL;
    for (int i = 0; i < shapeCount && !walk.unknown; i++) {
        for (Pair *pair = leaves[i]->PAIRS; pair; pair = next_in_list(pair, leaves[i])) {
            // Each pair is numbered once, when its a-leaf's list is walked.
            if (pair->a.leaf != leaves[i]) continue;
            if (pairCount == pairCapacity) {
                pairCapacity = pairCapacity ? pairCapacity * 2 : 1024;
                Entry *grownPairs = realloc(pairs, pairCapacity * sizeof *grownPairs);
                Pair **grownOrder = grownPairs ? realloc(pairOrder, pairCapacity * sizeof *grownOrder) : NULL;
                if (grownPairs) pairs = grownPairs;
                if (!grownPairs || !grownOrder) { w.failed = 1; break; }
                pairOrder = grownOrder;
            }
            pairs[pairCount] = (Entry){pair, (uint32_t)pairCount};
            pairOrder[pairCount] = pair;
            pairCount++;
        }
    }
    qsort(pairs, pairCount, sizeof *pairs, compare_entries);
    Entry *leafIndex = malloc(((size_t)shapeCount + 1) * sizeof *leafIndex);
    if (!leafIndex) w.failed = 1;
    for (int i = 0; i < shapeCount && leafIndex; i++) leafIndex[i] = (Entry){leaves[i], (uint32_t)i};
    if (leafIndex) qsort(leafIndex, (size_t)shapeCount, sizeof *leafIndex, compare_entries);
    put_u32(&w, (uint32_t)pairCount);
    for (size_t p = 0; p < pairCount && leafIndex; p++) {
        long a = find_entry(leafIndex, (size_t)shapeCount, pairOrder[p]->a.leaf);
        long b = find_entry(leafIndex, (size_t)shapeCount, pairOrder[p]->b.leaf);
        if (a < 0 || b < 0) walk.unknown = 1;
        put_u32(&w, (uint32_t)a);
        put_u32(&w, (uint32_t)b);
        put_u32(&w, pairOrder[p]->id);
    }
    for (int i = 0; i < shapeCount && !walk.unknown; i++) {
        uint32_t length = 0;
        for (Pair *pair = leaves[i]->PAIRS; pair; pair = next_in_list(pair, leaves[i])) length++;
        put_u32(&w, length);
        for (Pair *pair = leaves[i]->PAIRS; pair; pair = next_in_list(pair, leaves[i])) {
            long p = find_entry(pairs, pairCount, pair);
            if (p < 0) walk.unknown = 1;
            put_u32(&w, (uint32_t)p);
        }
    }

    // Arbiters: those active in the last step get the state the next step's start gives them.
    ArbiterList cached = {0}, active = {0};
    cpHashSetEach(space->cachedArbiters, (cpHashSetIteratorFunc)collect_arbiter, &cached);
    for (int i = 0; i < space->arbiters->num; i++) collect_arbiter((cpArbiter *)space->arbiters->arr[i], &active);
    Entry *activeIndex = malloc((active.count + 1) * sizeof *activeIndex);
    OrderedArbiter *ordered = malloc((cached.count + 1) * sizeof *ordered);
    if (!activeIndex || !ordered || cached.failed || active.failed) w.failed = 1;
    for (size_t i = 0; i < active.count && activeIndex; i++) activeIndex[i] = (Entry){active.items[i], (uint32_t)i};
    if (activeIndex) qsort(activeIndex, active.count, sizeof *activeIndex, compare_entries);
    size_t arbiterCount = 0;
    for (size_t i = 0; i < cached.count && ordered; i++) {
        cpArbiter *arb = cached.items[i];
        long a = find_entry(index, (size_t)shapeCount, arb->a), b = find_entry(index, (size_t)shapeCount, arb->b);
        if (a < 0 || b < 0) { walk.unknown = 1; continue; }
        ordered[arbiterCount++] = (OrderedArbiter){(uint32_t)a, (uint32_t)b, arb};
    }
    if (ordered) qsort(ordered, arbiterCount, sizeof *ordered, compare_arbiters);
    put_u32(&w, (uint32_t)arbiterCount);
    for (size_t i = 0; i < arbiterCount && ordered && activeIndex; i++) {
        cpArbiter *arb = ordered[i].arb;
        int wasActive = find_entry(activeIndex, active.count, arb) >= 0;
        put_u32(&w, ordered[i].a);
        put_u32(&w, ordered[i].b);
        put_u32(&w, arb->stamp);
        put_u8(&w, (uint8_t)(wasActive ? CP_ARBITER_STATE_NORMAL : arb->state));
        put_u8(&w, (uint8_t)arb->count);
        for (int c = 0; c < arb->count; c++) {
            put_u64(&w, (uint64_t)arb->contacts[c].hash);
            put_f64(&w, arb->contacts[c].jnAcc);
            put_f64(&w, arb->contacts[c].jtAcc);
        }
    }

    free(index);
    free(leaves);
    free(pairs);
    free(pairOrder);
    free(leafIndex);
    free(cached.items);
    free(active.items);
    free(activeIndex);
    free(ordered);
    if (walk.unknown) { free(w.bytes); return CRATEDROP_STATE_UNKNOWN_SHAPE; }
    if (w.failed) { free(w.bytes); return CRATEDROP_STATE_MEMORY; }
    *out = w.bytes;
    return (long)w.count;
}

void cratedrop_state_free(unsigned char *bytes) { free(bytes); }

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
    double currDt;
    SavedNode *nodes;
    uint32_t *staticStamps;
    uint32_t pairCount;
    SavedPair *pairs;
    uint32_t *listStarts; /* per shape, where its list begins in `lists`; one more at the end */
    uint32_t *lists;
    uint32_t arbiterCount;
    SavedArbiter *arbiters;
} Saved;

static void saved_free(Saved *s) {
    free(s->bodies);
    free(s->nodes);
    free(s->staticStamps);
    free(s->pairs);
    free(s->listStarts);
    free(s->lists);
    free(s->arbiters);
}

static int read_bb(Reader *r, cpBB *bb) {
    bb->l = get_finite(r);
    bb->b = get_finite(r);
    bb->r = get_finite(r);
    bb->t = get_finite(r);
    return !r->failed && bb->l <= bb->r && bb->b <= bb->t;
}

/* Reads the preorder tree; returns the node's index, or -1 when malformed. */
static int32_t read_subtree(Reader *r, Saved *s, uint32_t *used, int depth) {
    if (*used >= s->nodeCount || depth > 4096) { r->failed = 1; return -1; }
    int32_t at = (int32_t)(*used)++;
    SavedNode *node = &s->nodes[at];
    node->leaf = get_u8(r);
    if (node->leaf > 1) { r->failed = 1; return -1; }
    if (node->leaf) {
        node->shape = get_u32(r);
        node->stamp = get_u32(r);
        if (!read_bb(r, &node->bb)) { r->failed = 1; return -1; }
        return at;
    }
    if (!read_bb(r, &node->bb)) { r->failed = 1; return -1; }
    int32_t a = read_subtree(r, s, used, depth + 1);
    int32_t b = a < 0 ? -1 : read_subtree(r, s, used, depth + 1);
    if (b < 0) return -1;
    s->nodes[at].a = a;
    s->nodes[at].b = b;
    return at;
}

static int fail(char *message, int size, const char *text) {
    if (message && size > 0) snprintf(message, (size_t)size, "%s", text);
    return CRATEDROP_STATE_MALFORMED;
}

/* Parses and checks the whole state against the world's shapes and bodies. */
static int parse(const unsigned char *bytes, long count, cpShape **shapes, int shapeCount, int bodyCount, Saved *s,
                 char *message, int size) {
    Reader r = {bytes, (size_t)count, 0, 0};
    memset(s, 0, sizeof *s);
    uint32_t bodies = get_u32(&r);
    if (r.failed || bodies != (uint32_t)bodyCount) return fail(message, size, "the state holds another number of bodies than the scene");
    if ((size_t)bodies > (r.count - r.at) / 72) return fail(message, size, "the state is cut short in its bodies");
    s->bodies = calloc((size_t)bodies + 1, sizeof *s->bodies);
    if (!s->bodies) return CRATEDROP_STATE_MEMORY;
    for (uint32_t i = 0; i < bodies; i++) {
        SavedBody *b = &s->bodies[i];
        b->p[0] = get_finite(&r); b->p[1] = get_finite(&r);
        b->v[0] = get_finite(&r); b->v[1] = get_finite(&r);
        b->a = get_finite(&r); b->w = get_finite(&r);
        b->v_bias[0] = get_finite(&r); b->v_bias[1] = get_finite(&r);
        b->w_bias = get_finite(&r);
    }
    if (r.failed) return fail(message, size, "a body's value is not a finite number, or the state is cut short");
    s->stamp = get_u32(&r);
    s->currDt = get_finite(&r);
    s->treeStamp = get_u32(&r);
    s->nodeCount = get_u32(&r);
    if (r.failed || s->currDt < 0) return fail(message, size, "the space's stamp or time step is malformed");

    int dynamicShapes = 0, staticShapes = 0;
    for (int i = 0; i < shapeCount; i++) {
        if (cpBodyGetType(shapes[i]->body) == CP_BODY_TYPE_STATIC) staticShapes++; else dynamicShapes++;
    }
    uint32_t expectedNodes = dynamicShapes ? 2 * (uint32_t)dynamicShapes - 1 : 0;
    if (s->nodeCount != expectedNodes) return fail(message, size, "the broadphase tree has another number of nodes than the scene's shapes need");
    s->nodes = calloc((size_t)s->nodeCount + 1, sizeof *s->nodes);
    unsigned char *placed = calloc((size_t)shapeCount + 1, 1);
    if (!s->nodes || !placed) { free(placed); return CRATEDROP_STATE_MEMORY; }
    uint32_t used = 0;
    if (s->nodeCount && (read_subtree(&r, s, &used, 0) != 0 || used != s->nodeCount)) {
        free(placed);
        return fail(message, size, "the broadphase tree is malformed");
    }
    for (uint32_t i = 0; i < s->nodeCount; i++) {
        SavedNode *node = &s->nodes[i];
        if (!node->leaf) continue;
        if (node->shape >= (uint32_t)shapeCount || cpBodyGetType(shapes[node->shape]->body) == CP_BODY_TYPE_STATIC || placed[node->shape]) {
            free(placed);
            return fail(message, size, "the broadphase tree names a shape that is not one of the scene's moving shapes, or names one twice");
        }
        placed[node->shape] = 1;
    }
    free(placed);

    s->staticStamps = calloc((size_t)staticShapes + 1, sizeof *s->staticStamps);
    if (!s->staticStamps) return CRATEDROP_STATE_MEMORY;
    for (int i = 0; i < staticShapes; i++) s->staticStamps[i] = get_u32(&r);

    s->pairCount = get_u32(&r);
    if (r.failed || (size_t)s->pairCount > (r.count - r.at) / 12) return fail(message, size, "the state is cut short in its pairs");
    s->pairs = calloc((size_t)s->pairCount + 1, sizeof *s->pairs);
    if (!s->pairs) return CRATEDROP_STATE_MEMORY;
    for (uint32_t p = 0; p < s->pairCount; p++) {
        SavedPair *pair = &s->pairs[p];
        pair->a = get_u32(&r);
        pair->b = get_u32(&r);
        pair->id = get_u32(&r);
        if (r.failed || pair->a >= (uint32_t)shapeCount || pair->b >= (uint32_t)shapeCount || pair->a == pair->b
            || (cpBodyGetType(shapes[pair->a]->body) == CP_BODY_TYPE_STATIC && cpBodyGetType(shapes[pair->b]->body) == CP_BODY_TYPE_STATIC)) {
            return fail(message, size, "a broadphase pair names shapes that cannot pair");
        }
    }
    // Each leaf's list: every pair in exactly the lists of its two leaves, once each.
    s->listStarts = calloc((size_t)shapeCount + 1, sizeof *s->listStarts);
    s->lists = calloc(2 * (size_t)s->pairCount + 1, sizeof *s->lists);
    unsigned char *listed = calloc(2 * (size_t)s->pairCount + 1, 1);
    if (!s->listStarts || !s->lists || !listed) { free(listed); return CRATEDROP_STATE_MEMORY; }
    uint32_t entries = 0;
    for (int i = 0; i < shapeCount; i++) {
        s->listStarts[i] = entries;
        uint32_t length = get_u32(&r);
        if (r.failed || length > 2 * s->pairCount - entries) { free(listed); return fail(message, size, "a broadphase pair list is malformed"); }
        for (uint32_t k = 0; k < length; k++) {
            uint32_t p = get_u32(&r);
            if (r.failed || p >= s->pairCount) { free(listed); return fail(message, size, "a broadphase pair list is malformed"); }
            int side = s->pairs[p].a == (uint32_t)i ? 0 : s->pairs[p].b == (uint32_t)i ? 1 : -1;
            if (side < 0 || listed[2 * p + side]) { free(listed); return fail(message, size, "a broadphase pair list names a pair of other shapes, or one pair twice"); }
            listed[2 * p + side] = 1;
            s->lists[entries++] = p;
        }
    }
    s->listStarts[shapeCount] = entries;
    free(listed);
    if (entries != 2 * s->pairCount) return fail(message, size, "a broadphase pair is missing from its shapes' lists");

    s->arbiterCount = get_u32(&r);
    if (r.failed || (size_t)s->arbiterCount > (r.count - r.at) / 14) return fail(message, size, "the state is cut short in its contacts");
    s->arbiters = calloc((size_t)s->arbiterCount + 1, sizeof *s->arbiters);
    if (!s->arbiters) return CRATEDROP_STATE_MEMORY;
    for (uint32_t i = 0; i < s->arbiterCount; i++) {
        SavedArbiter *arb = &s->arbiters[i];
        arb->a = get_u32(&r);
        arb->b = get_u32(&r);
        arb->stamp = get_u32(&r);
        arb->state = get_u8(&r);
        arb->count = get_u8(&r);
        if (r.failed || arb->a >= (uint32_t)shapeCount || arb->b >= (uint32_t)shapeCount || arb->a == arb->b
            || arb->count > CP_MAX_CONTACTS_PER_ARBITER
            || !(arb->state == CP_ARBITER_STATE_FIRST_COLLISION || arb->state == CP_ARBITER_STATE_NORMAL
                 || arb->state == CP_ARBITER_STATE_CACHED)
            || (i > 0 && compare_arbiters(&(OrderedArbiter){arb[-1].a, arb[-1].b, NULL}, &(OrderedArbiter){arb->a, arb->b, NULL}) >= 0)) {
            return fail(message, size, "a contact pair is malformed, out of order or repeated");
        }
        for (int c = 0; c < arb->count; c++) {
            arb->hash[c] = get_u64(&r);
            arb->jnAcc[c] = get_finite(&r);
            arb->jtAcc[c] = get_finite(&r);
        }
        if (r.failed) return fail(message, size, "a contact's impulse is not a finite number, or the state is cut short");
    }
    if (r.at != r.count) return fail(message, size, "the state has bytes after its end");
    return CRATEDROP_STATE_OK;
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

static Node *build_subtree(cpBBTree *tree, Saved *s, int32_t at, cpShape **shapes) {
    SavedNode *saved = &s->nodes[at];
    if (saved->leaf) {
        Node *leaf = leaf_of(shapes[saved->shape]);
        leaf->bb = saved->bb;
        leaf->STAMP = saved->stamp;
        leaf->parent = NULL;
        return leaf;
    }
    Node *node = NodeFromPool(tree);
    node->obj = NULL;
    node->bb = saved->bb;
    node->parent = NULL;
    NodeSetA(node, build_subtree(tree, s, saved->a, shapes));
    NodeSetB(node, build_subtree(tree, s, saved->b, shapes));
    return node;
}

/* Puts the state in `bytes` into the space, whose shapes and bodies are given in the world's own
   order, as for saving. Returns 0, or a negative CRATEDROP_STATE_ code with what is wrong in
   `message`; on any error the space is left exactly as it was. */
int cratedrop_state_restore(cpSpace *space, cpShape **shapes, int shapeCount, cpBody **bodies, int bodyCount,
                            const unsigned char *bytes, long count, char *message, int messageSize) {
    int problem = check_space(space);
    if (problem) return problem;
    for (int i = 0; i < shapeCount; i++) {
        if (!leaf_of(shapes[i])) return fail(message, messageSize, "a shape of the world is not in its broadphase");
    }
    Saved s;
    problem = parse(bytes, count, shapes, shapeCount, bodyCount, &s, message, messageSize);
    if (problem) { saved_free(&s); return problem; }

    // Everything checks: from here on nothing can fail but memory, which Chipmunk aborts on.
    cpHashSetFilter(space->cachedArbiters, (cpHashSetFilterFunc)discard_arbiter, space);
    space->arbiters->num = 0;
    for (int i = 0; i < space->dynamicBodies->num; i++) ((cpBody *)space->dynamicBodies->arr[i])->arbiterList = NULL;
    for (int i = 0; i < space->staticBodies->num; i++) ((cpBody *)space->staticBodies->arr[i])->arbiterList = NULL;
    space->staticBody->arbiterList = NULL;

    cpBBTree *tree = GetTree(space->dynamicShapes);
    for (int i = 0; i < shapeCount; i++) PairsClear(leaf_of(shapes[i]), tree);
    if (tree->root) SubtreeRecycle(tree, tree->root);
    tree->root = s.nodeCount ? build_subtree(tree, &s, 0, shapes) : NULL;
    tree->stamp = s.treeStamp;
    int staticIndex = 0;
    for (int i = 0; i < shapeCount; i++) {
        if (cpBodyGetType(shapes[i]->body) == CP_BODY_TYPE_STATIC) leaf_of(shapes[i])->STAMP = s.staticStamps[staticIndex++];
    }

    Pair **pairs = malloc(((size_t)s.pairCount + 1) * sizeof *pairs);
    for (uint32_t p = 0; p < s.pairCount; p++) {
        Pair *pair = PairFromPool(tree);
        memset(pair, 0, sizeof *pair);
        pair->a.leaf = leaf_of(shapes[s.pairs[p].a]);
        pair->b.leaf = leaf_of(shapes[s.pairs[p].b]);
        pair->id = s.pairs[p].id;
        pairs[p] = pair;
    }
    for (int i = 0; i < shapeCount; i++) {
        Node *leaf = leaf_of(shapes[i]);
        uint32_t first = s.listStarts[i], end = s.listStarts[i + 1];
        leaf->PAIRS = first < end ? pairs[s.lists[first]] : NULL;
        for (uint32_t k = first; k < end; k++) {
            Pair *pair = pairs[s.lists[k]];
            Thread *thread = pair->a.leaf == leaf ? &pair->a : &pair->b;
            thread->prev = k > first ? pairs[s.lists[k - 1]] : NULL;
            thread->next = k + 1 < end ? pairs[s.lists[k + 1]] : NULL;
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
    for (int i = 0; i < shapeCount; i++) {
        if (cpBodyGetType(shapes[i]->body) != CP_BODY_TYPE_STATIC) cpShapeCacheBB(shapes[i]);
    }

    // The restored contacts live in a buffer stamped with the restored stamp, which the space
    // keeps as long as it keeps the arbiters pointing into it.
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
    return CRATEDROP_STATE_OK;
}
