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

   Saving and restoring are bound by memory, not arithmetic: pile-1000 has some 15,000 Chipmunk
   objects over about 3 MB, more than a core's cache, and each visit to one is a likely cache
   miss. So both number the shapes in place (a shape's id, a leaf's object pointer) instead of
   looking them up, walk the pair lists side by side and without branches on what they load, read
   the arbiters from the set's bin buffers in memory order with the next ones prefetched, and
   reuse the world's own arbiters and pairs rather than freeing and making them again; their
   working memory is kept by the thread between calls. docs/determinism.md has the figures.

   Restoring parses and checks every byte first, and changes the space only when all of it is
   sound: a corrupt or foreign state leaves the space as it was. Bytes a save in this process
   wrote and nobody changed since (cratedrop_state_restore_as_saved) skip most checks of the
   state's own consistency, which such bytes pass, but not those that tie it to the world; with
   the save's restore aid beside them, most of the parsing goes too. */
#include "cpBBTree.c"

#include <limits.h>
#include <pthread.h>
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

/* MARK: Scratch memory */

/* The memory a save or restore works in (pair lists, arbiters' records, the parsed state), kept
   by each thread between calls: allocating and freeing it on every call made the C library give
   the pages back to the system and fault them in again each time, about 50 page faults (0.1 ms)
   a pile-1000 save. Taken in order from one block and let go all at once when the call ends; a
   call that needs more takes extra blocks, and the next call gets one block as big as all of
   them (about 0.8 MB for pile-1000). A thread keeps its largest until it ends. */
typedef struct {
    unsigned char *block;
    size_t size, used;
    void *extra[64];
    size_t extraSize[64];
    int extraCount;
} Scratch;

static pthread_key_t scratchKey;
static pthread_once_t scratchOnce = PTHREAD_ONCE_INIT;

static void scratch_destroy(void *memory) {
    Scratch *scratch = memory;
    free(scratch->block);
    free(scratch);
}

static void scratch_make_key(void) { pthread_key_create(&scratchKey, scratch_destroy); }

/* This thread's scratch, empty; NULL without memory. */
static Scratch *scratch_begin(void) {
    pthread_once(&scratchOnce, scratch_make_key);
    Scratch *scratch = pthread_getspecific(scratchKey);
    if (!scratch) {
        scratch = calloc(1, sizeof *scratch);
        if (!scratch || pthread_setspecific(scratchKey, scratch) != 0) { free(scratch); return NULL; }
    }
    scratch->used = 0;
    return scratch;
}

/* `bytes` of scratch, 16-byte aligned; NULL without memory. */
static void *scratch_take(Scratch *scratch, size_t bytes) {
    bytes = (bytes + 15) & ~(size_t)15;
    if (scratch->size - scratch->used >= bytes) {
        void *at = scratch->block + scratch->used;
        scratch->used += bytes;
        return at;
    }
    void *extra = scratch->extraCount < 64 ? malloc(bytes) : NULL;
    if (!extra) return NULL;
    scratch->extra[scratch->extraCount] = extra;
    scratch->extraSize[scratch->extraCount++] = bytes;
    return extra;
}

static void *scratch_zeroed(Scratch *scratch, size_t bytes) {
    void *at = scratch_take(scratch, bytes);
    if (at) memset(at, 0, bytes);
    return at;
}

/* Lets go of everything taken; after a call that needed extra blocks, one block for all. */
static void scratch_end(Scratch *scratch) {
    if (!scratch->extraCount) return;
    size_t total = scratch->used;
    for (int i = 0; i < scratch->extraCount; i++) {
        total += scratch->extraSize[i];
        free(scratch->extra[i]);
    }
    scratch->extraCount = 0;
    unsigned char *block = malloc(total + total / 4);
    if (block) {
        free(scratch->block);
        scratch->block = block;
        scratch->size = total + total / 4;
    }
}

static inline void store_bb(unsigned char *at, cpBB bb) {
    store_f64(at, bb.l);
    store_f64(at + 8, bb.b);
    store_f64(at + 16, bb.r);
    store_f64(at + 24, bb.t);
}

/* MARK: The space */

static int is_static(cpShape *shape) { return cpBodyGetType(shape->body) == CP_BODY_TYPE_STATIC; }

static Node *leaf_of(cpShape *shape) {
    cpSpace *space = shape->space;
    cpBBTree *tree = GetTree(is_static(shape) ? space->staticShapes : space->dynamicShapes);
    return tree ? (Node *)cpHashSetFind(tree->leaves, shape->hashid, shape) : NULL;
}

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

static int same_bb(cpBB a, cpBB b) {
    return memcmp(&a.l, &b.l, sizeof a.l) == 0 && memcmp(&a.b, &b.b, sizeof a.b) == 0
        && memcmp(&a.r, &b.r, sizeof a.r) == 0 && memcmp(&a.t, &b.t, sizeof a.t) == 0;
}

/* cpHashSet.c's set, private to that file: its layout in Chipmunk 7.0.3's source, which the
   portable backend builds. Reading its bins here, rather than through cpHashSetEach's callback,
   lets the arbiters be gathered first and then read with the next ones prefetched: one by one,
   each arbiter (three cache lines) and its contacts wait on memory in turn. */
typedef struct cpHashSetBin {
    void *elt;
    cpHashValue hash;
    struct cpHashSetBin *next;
} SetBin;

/* Completes the type chipmunk.h declares. */
struct cpHashSet {
    unsigned int entries, size;
    cpHashSetEqlFunc eql;
    void *default_value;
    SetBin **table;
    SetBin *pooledBins;
    cpArray *allocatedBuffers;
};

/* The arbiters of the space's cache into `out` (room for the set's count), and with `bins`
   each one's bin: read from the set's bin buffers in the order they lie in memory, rather than
   through its table's chains (a cache miss each). A bin in use holds its element; cpHashSet
   empties the ones it keeps in its pool. Neither saving nor restoring depends on the order. */
static size_t gather_arbiters(cpSpace *space, cpArbiter **out, SetBin **bins) {
    cpHashSet *set = space->cachedArbiters;
    size_t count = 0, capacity = set->entries;
    for (int b = 0; b < set->allocatedBuffers->num; b++) {
        SetBin *buffer = (SetBin *)set->allocatedBuffers->arr[b];
        for (size_t i = 0; i < CP_BUFFER_BYTES / sizeof(SetBin) && count < capacity; i++) {
            if (bins) bins[count] = &buffer[i];
            out[count] = buffer[i].elt;
            count += buffer[i].elt != NULL;
        }
    }
    return count;
}

/* Asks for the cache lines of an arbiter (176 bytes on 64-bit CPUs) or of a pair of contacts
   (the same) ahead of their use: four lines where it straddles them, as half of them do. */
static inline void prefetch_span(const void *at) {
    _Static_assert(sizeof(cpArbiter) <= 192 && 2 * sizeof(struct cpContact) <= 192, "an arbiter or a pair of contacts fits in 192 bytes");
    __builtin_prefetch((const char *)at);
    __builtin_prefetch((const char *)at + 64);
    __builtin_prefetch((const char *)at + 128);
    __builtin_prefetch((const char *)at + 191);
}

enum { PREFETCH_AHEAD = 8 };

/* MARK: Shapes numbered in place */

/* While a save or restore runs, every shape's hash id holds its index in the world's order with
   the top bit set, and every leaf's object pointer (once its leaf is found) that index: a tree
   leaf, a pair or an arbiter then gives its shapes' indices with one load, where a table of
   pointers costs a search and a cache miss more. Chipmunk counts ids up from 0, so a real id
   never has the top bit (a shape whose id has it is refused). Both are put back before the call
   returns, and nothing else runs on the space meanwhile (a world is used by one thread). */
#define SHAPE_NUMBER_BIT ((cpHashValue)1 << (8 * sizeof(cpHashValue) - 1))

/* Numbers the shapes, keeping their ids in `kept`; returns the digest of their ids (the shapes'
   Chipmunk ids in the world's order, mixed FNV-1a style a 64-bit word at a time: contact hashes
   are made from these ids, assigned as shapes are added, so a state's contacts fit only a world
   whose shapes got the same ids: one built in the same order). `*clash` is set when a shape's
   id already has the top bit. */
static uint64_t number_shapes(cpShape **shapes, int count, cpHashValue *kept, int *clash) {
    uint64_t digest = 0xcbf29ce484222325ULL;
    for (int i = 0; i < count; i++) {
        cpHashValue id = shapes[i]->hashid;
        kept[i] = id;
        digest = (digest ^ (uint64_t)id) * 0x100000001b3ULL;
        if (id & SHAPE_NUMBER_BIT) *clash = 1;
        shapes[i]->hashid = (cpHashValue)i | SHAPE_NUMBER_BIT;
    }
    return digest;
}

/* Backwards: a shape listed twice (a world's bug, refused as a clash) gets its own id back from
   its first place, whose kept id was read before any number was written. */
static void unnumber_shapes(cpShape **shapes, int count, const cpHashValue *kept) {
    for (int i = count - 1; i >= 0; i--) shapes[i]->hashid = kept[i];
}

/* A numbered shape's index, or -1 for a shape the world does not list. */
static inline long shape_number(const cpShape *shape, int count) {
    cpHashValue id = shape->hashid;
    if (!(id & SHAPE_NUMBER_BIT)) return -1;
    id &= ~SHAPE_NUMBER_BIT;
    return id < (cpHashValue)count ? (long)id : -1;
}

/* A leaf holds its index plus one: a leaf's object is never NULL (NULL marks inner nodes). A
   leaf of a shape the world does not list gives its shape's address less one. */
static inline uintptr_t leaf_number(const Node *leaf) { return (uintptr_t)leaf->obj - 1; }

static void number_leaves(Node **leaves, int count) {
    for (int i = 0; i < count; i++) leaves[i]->obj = (void *)((uintptr_t)i + 1);
}

static void unnumber_leaves(Node **leaves, cpShape **shapes, int count) {
    for (int i = 0; i < count; i++) leaves[i]->obj = shapes[i];
}

/* The dynamic tree's leaves, each put at its shape's index in `leaves`, and its inner nodes in
   `inner` (up to its capacity; all are counted); `unknown` is set when the tree holds a shape the
   world does not list, or one twice. */
typedef struct {
    Node **leaves, **inner;
    uint32_t innerCapacity, innerCount, leafCount;
    int shapeCount, staticCount, unknown;
} TreeLeaves;

static void find_leaves(TreeLeaves *found, Node *node) {
    while (!NodeIsLeaf(node)) {
        if (found->innerCount < found->innerCapacity) found->inner[found->innerCount] = node;
        found->innerCount++;
        // Its second child's line comes in while the first one's subtree is walked.
        __builtin_prefetch(node->B);
        find_leaves(found, node->A);
        node = node->B;
    }
    long index = shape_number(node->obj, found->shapeCount);
    if (index < found->staticCount || found->leaves[index]) { found->unknown = 1; return; }
    found->leaves[index] = node;
    found->leafCount++;
    // Its list's first pair, for the walk of the lists that follows.
    __builtin_prefetch(node->PAIRS);
}

/* MARK: Pair lists */

/* A pair's thread in its first leaf's list (a) or in its second's (b). */
static inline Thread *thread_of(Pair *pair, int second) { return second ? &pair->b : &pair->a; }

enum { LANES = 16 };

/* Walks every leaf's pair list, LANES lists at a time, calling VISIT(pair, first, lane's leaf
   index) at each entry (first: this leaf is the pair's first). A step along a list waits for the
   load before it, so lists walked one after another leave the CPU waiting on memory; lists walked
   side by side overlap their loads. The next pair is picked without a branch (a branch on freshly
   loaded data, mispredicted half the time, would wait for each load again): with both, walking
   pile-1000's lists takes about a third of the time. Each list's entries come in its own order. */
#define WALK_PAIR_LISTS(leaves, leafCount, VISIT)                                       \
    do {                                                                                \
        Pair *cursor_[LANES];                                                           \
        Node *leaf_[LANES];                                                             \
        uint32_t index_[LANES];                                                         \
        int lanes_ = 0, next_ = 0;                                                      \
        for (;;) {                                                                      \
            for (; lanes_ < LANES && next_ < (leafCount); next_++) {                    \
                if (!(leaves)[next_]->PAIRS) continue;                                  \
                cursor_[lanes_] = (leaves)[next_]->PAIRS;                               \
                leaf_[lanes_] = (leaves)[next_];                                        \
                index_[lanes_] = (uint32_t)next_;                                       \
                lanes_++;                                                               \
            }                                                                           \
            if (!lanes_) break;                                                         \
            for (int l_ = 0; l_ < lanes_;) {                                            \
                Pair *pair_ = cursor_[l_];                                              \
                int first_ = pair_->a.leaf == leaf_[l_];                                \
                VISIT(pair_, first_, index_[l_]);                                       \
                Pair *following_ = thread_of(pair_, !first_)->next;                     \
                if (__builtin_expect(following_ != NULL, 1)) {                          \
                    cursor_[l_++] = following_;                                         \
                } else {                                                                \
                    lanes_--;                                                           \
                    cursor_[l_] = cursor_[lanes_];                                      \
                    leaf_[l_] = leaf_[lanes_];                                          \
                    index_[l_] = index_[lanes_];                                        \
                }                                                                       \
            }                                                                           \
        }                                                                               \
    } while (0)

/* Every entry of every leaf's list as saving needs it, in the order the walk meets them (lists
   interleave, each in its own order): its leaf, the other shape's index times two plus one where
   this leaf is the pair's first, the pair. A first leaf's entry keeps the pair's collision id
   and leaves its own index in the pair's id field meanwhile; a second leaf's entry, once all are
   gathered, reads that index there (its link to the first's entry), and then each first leaf's
   entry puts its id back. So the pairs are numbered without a search, and each is read and
   written once more (independent accesses, which overlap). Leaves are numbered. */
typedef struct {
    uint32_t *leaf, *entry, *link; /* link: a first leaf's entry's pair id, a second's first entry */
    uint32_t *firsts, *seconds;    /* the first leaves' entries, and the second leaves' */
    size_t firstCount, secondCount;
    Pair **pair;
    size_t count, capacity;
    Scratch *scratch;
    int failed, unsound;
} GatheredEntries;

/* Room for `capacity` entries, the gathered ones kept. */
static int reserve_entries(GatheredEntries *entries, size_t capacity) {
    size_t count = entries->count;
    uint32_t *leaf = scratch_take(entries->scratch, capacity * sizeof *leaf);
    uint32_t *entry = scratch_take(entries->scratch, capacity * sizeof *entry);
    uint32_t *link = scratch_take(entries->scratch, capacity * sizeof *link);
    uint32_t *firsts = scratch_take(entries->scratch, capacity * sizeof *firsts);
    uint32_t *seconds = scratch_take(entries->scratch, capacity * sizeof *seconds);
    Pair **pair = scratch_take(entries->scratch, capacity * sizeof *pair);
    if (!leaf || !entry || !link || !firsts || !seconds || !pair) return 0;
    if (count) {
        memcpy(leaf, entries->leaf, count * sizeof *leaf);
        memcpy(entry, entries->entry, count * sizeof *entry);
        memcpy(link, entries->link, count * sizeof *link);
        memcpy(firsts, entries->firsts, entries->firstCount * sizeof *firsts);
        memcpy(seconds, entries->seconds, entries->secondCount * sizeof *seconds);
        memcpy(pair, entries->pair, count * sizeof *pair);
    }
    entries->leaf = leaf;
    entries->entry = entry;
    entries->link = link;
    entries->firsts = firsts;
    entries->seconds = seconds;
    entries->pair = pair;
    entries->capacity = capacity;
    return 1;
}

static void gather_entries(Node **leaves, int leafCount, GatheredEntries *out) {
    uint32_t unsound = 0;
#define GATHER_ENTRY(PAIR, FIRST, INDEX)                                                          \
    do {                                                                                          \
        if (__builtin_expect(out->count == out->capacity, 0) && !reserve_entries(out, 2 * out->capacity)) { \
            out->failed = 1;                                                                      \
            break;                                                                                \
        }                                                                                         \
        size_t at = out->count++;                                                                 \
        Node *otherLeaf = thread_of((PAIR), (FIRST))->leaf;                                       \
        uintptr_t other = leaf_number(otherLeaf);                                                 \
        /* A leaf not numbered holds a shape's address, never below the shape count. */        \
        unsound |= other >= (uintptr_t)leafCount;                                                 \
        out->leaf[at] = (INDEX);                                                                  \
        out->entry[at] = (uint32_t)other << 1 | (uint32_t)(FIRST);                                \
        out->pair[at] = (PAIR);                                                                   \
        /* Without a branch: written either way, the id changes only at a first leaf's entry. */ \
        cpCollisionID id = (PAIR)->id;                                                            \
        out->link[at] = id;                                                                       \
        (PAIR)->id = (FIRST) ? (cpCollisionID)at : id;                                            \
        out->firsts[out->firstCount] = (uint32_t)at;                                              \
        out->firstCount += (FIRST) != 0;                                                          \
        out->seconds[out->secondCount] = (uint32_t)at;                                            \
        out->secondCount += !(FIRST);                                                             \
    } while (0)
    WALK_PAIR_LISTS(leaves, leafCount, GATHER_ENTRY);
#undef GATHER_ENTRY
    // Second leaves' entries find their first leaves' entries; then every id goes back, from
    // the first leaves' entries that took them (so whatever stopped the walk or whatever the
    // lists hold, each id changed is put back).
    size_t count = out->count;
    for (size_t k = 0; k < out->secondCount; k++) {
        uint32_t e = out->seconds[k], first = out->pair[e]->id;
        uint32_t checked = first < count ? first : 0;
        unsound |= first >= count || out->pair[checked] != out->pair[e] || !(out->entry[checked] & 1);
        out->link[e] = checked;
    }
    for (size_t k = 0; k < out->firstCount; k++) {
        uint32_t e = out->firsts[k];
        out->pair[e]->id = out->link[e];
    }
    out->unsound = unsound != 0;
}

/* MARK: Restore aid */

/* A pair of the state: its first and second leaves' shapes' indices (its collision id is kept
   apart: a restore that does not check the pairs reads only that). */
typedef struct {
    uint32_t a, b;
} SavedPair;

/* A cached arbiter in the state: its second shape's index and where its record begins. */
typedef struct {
    uint32_t b, at;
} SavedArbiter;

/* What a save can hand back beside a state, for a restore of those very bytes in the same
   process (cratedrop_state_restore_as_saved): what that restore would otherwise work out again,
   in the form it uses. Each body's transform as Chipmunk keeps it (the cosine and sine of its
   angle: computing them is a tenth of a restore), the pair lists as the parse of the bytes
   makes them with the pairs' ids (a sixth), and the arbiters' index (a twentieth). Never
   written out: it is derived from the bytes, and holds nothing they do not. Laid out as
   AidLayout says, after its header; 8-byte aligned. */
typedef struct {
    uint32_t shapeCount, bodyCount, pairCount, arbiterCount;
} AidHeader;

typedef struct {
    size_t transforms, listStarts, entries, pairIds, arbiterStarts, arbiters, size;
} AidLayout;

static AidLayout aid_layout(size_t shapes, size_t bodies, size_t pairs, size_t arbiters) {
    AidLayout layout;
    size_t at = sizeof(AidHeader);
    layout.transforms = at;
    at += 6 * sizeof(double) * bodies;
    layout.listStarts = at;
    at += sizeof(uint32_t) * (shapes + 1);
    layout.entries = at;
    at += sizeof(uint32_t) * 2 * pairs;
    layout.pairIds = at;
    at += sizeof(uint32_t) * pairs;
    layout.arbiterStarts = at;
    at += sizeof(uint32_t) * (shapes + 1);
    layout.arbiters = at;
    at += sizeof(SavedArbiter) * arbiters;
    layout.size = (at + 7) & ~(size_t)7;
    return layout;
}

/* Where a save writes the aid: `at`, with room for `capacity` bytes (none when NULL), laid out
   as `layout` once the save knows the counts. */
typedef struct {
    unsigned char *at;
    size_t capacity;
    AidLayout layout;
} AidOut;

/* The aid's part at `offset`, when there is room for the whole aid (NULL otherwise). */
static inline void *aid_part(const AidOut *aid, size_t offset) {
    return aid->at && aid->layout.size <= aid->capacity ? aid->at + offset : NULL;
}

/* MARK: Saving */

/* The dynamic tree in preorder (a kind byte, a leaf's shape index, stamp and box, an inner
   node's box only when it is not its children's union), written while its leaves are found:
   each is put at its shape's index in `leaves`. */
typedef struct {
    Writer *w;
    Node **leaves;
    int width, shapeCount, staticCount;
    uint32_t leafCount;
    int unknown;
} TreeWriter;

static void put_subtree(TreeWriter *tree, Node *node) {
    if (NodeIsLeaf(node)) {
        long index = shape_number(node->obj, tree->shapeCount);
        if (index < tree->staticCount || tree->leaves[index]) { tree->unknown = 1; return; }
        tree->leaves[index] = node;
        tree->leafCount++;
        // Its list's first pair, for the walk of the lists that follows.
        __builtin_prefetch(node->PAIRS);
        unsigned char *at = at_room(tree->w, 1 + (size_t)tree->width + 4 + 32);
        if (!at) return;
        at[0] = 1;
        store_index(at + 1, tree->width, (uint32_t)index);
        store_u32(at + 1 + tree->width, node->STAMP);
        store_bb(at + 5 + tree->width, node->bb);
    } else {
        int derived = same_bb(node->bb, cpBBMerge(node->A->bb, node->B->bb));
        unsigned char *at = at_room(tree->w, derived ? 1 : 33);
        if (at) {
            at[0] = derived ? 0 : 2;
            if (!derived) store_bb(at + 1, node->bb);
        }
        put_subtree(tree, node->A);
        put_subtree(tree, node->B);
    }
}

/* Writes each leaf's pair list in its order: a first leaf's entry names the other shape and the
   pair's id, a second leaf's entry the pair's number (pairs are numbered in the order their
   first leaves' entries come). The gathered entries are sorted by leaf (a counting sort keeps
   each list's order) and numbered, then written. 0 when the lists are not a world's; -1
   without memory. */
static inline __attribute__((always_inline)) int put_pair_lists_width(Writer *w, const int width, const GatheredEntries *gathered,
                                                                       int shapeCount, AidOut *aid, Scratch *scratch) {
    size_t count = gathered->count;
    uint32_t *starts = scratch_zeroed(scratch, ((size_t)shapeCount + 2) * sizeof *starts);
    uint32_t *order = scratch_take(scratch, (count + 1) * sizeof *order);
    uint32_t *numbers = scratch_take(scratch, (count + 1) * sizeof *numbers);
    if (!starts || !order || !numbers) return -1;
    for (size_t e = 0; e < count; e++) starts[gathered->leaf[e] + 1]++;
    for (int i = 0; i < shapeCount; i++) starts[i + 1] += starts[i];
    size_t firsts = 0;
    for (size_t e = 0; e < count; e++) {
        order[starts[gathered->leaf[e]]++] = (uint32_t)e;
        firsts += gathered->entry[e] & 1;
    }
    // Each start has moved to the next one's: move them back.
    for (int i = shapeCount; i > 0; i--) starts[i] = starts[i - 1];
    starts[0] = 0;
    if (2 * firsts != count) return 0;
    uint32_t number = 0;
    for (size_t k = 0; k < count; k++) {
        uint32_t e = order[k];
        numbers[e] = number;
        number += gathered->entry[e] & 1;
    }
    // The aid's lists, as parse makes them of the bytes (a pair's number times two, plus one for
    // its first leaf's entry; each pair's id), when it has room.
    uint32_t *aidStarts = aid_part(aid, aid->layout.listStarts), *aidEntries = aid_part(aid, aid->layout.entries);
    uint32_t *aidIds = aid_part(aid, aid->layout.pairIds);
    if (aidStarts) memcpy(aidStarts, starts, ((size_t)shapeCount + 1) * sizeof *starts);
    // The section's exact size: the lengths, a first leaf's entries with ids, a second's without.
    size_t size = 4 + (size_t)shapeCount * (size_t)width + count * (size_t)width + firsts * 4;
    unsigned char *at = at_room(w, size);
    if (!at) return 1;
    store_u32(at, number);
    at += 4;
    for (int i = 0; i < shapeCount; i++) {
        uint32_t begin = starts[i], end = starts[i + 1];
        store_index(at, width, end - begin);
        at += width;
        for (uint32_t k = begin; k < end; k++) {
            uint32_t e = order[k], entry = gathered->entry[e];
            if (entry & 1) {
                store_index(at, width, entry & ~1u);
                store_u32(at + width, gathered->link[e]);
                at += width + 4;
                if (aidEntries) {
                    aidEntries[k] = numbers[e] << 1 | 1;
                    aidIds[numbers[e]] = gathered->link[e];
                }
            } else {
                uint32_t pairNumber = numbers[gathered->link[e]];
                store_index(at, width, pairNumber << 1 | 1);
                at += width;
                if (aidEntries) aidEntries[k] = pairNumber << 1;
            }
        }
    }
    return 1;
}

/* put_pair_lists_width made for each index width: the width a constant in its loops. */
static int put_pair_lists(Writer *w, int width, const GatheredEntries *gathered, int shapeCount, AidOut *aid, Scratch *scratch) {
    return width == 2 ? put_pair_lists_width(w, 2, gathered, shapeCount, aid, scratch)
                      : put_pair_lists_width(w, 4, gathered, shapeCount, aid, scratch);
}

/* A cached arbiter as saved, but for its shapes' indices (its key holds those): stamp, state and
   contacts. */
typedef struct {
    uint32_t stamp;
    uint8_t state, count;
    uint64_t hash[CP_MAX_CONTACTS_PER_ARBITER];
    double jnAcc[CP_MAX_CONTACTS_PER_ARBITER], jtAcc[CP_MAX_CONTACTS_PER_ARBITER];
} ArbiterRecord;

/* An arbiter's place in the state's order: by its shapes' indices. */
typedef struct {
    uint32_t a, b, record;
} ArbiterKey;

typedef struct {
    ArbiterRecord *items;
    ArbiterKey *keys; /* each record's shapes, for the sort: it reads these, not the records */
    size_t count, capacity;
    cpTimestamp stamp;
    int shapeCount, unknown;
} ArbiterList;

/* Copies what the state keeps of each arbiter as the set hands them over (one visit: the sort
   after it moves records, not arbiters). Arbiters of the last step's collisions get the state
   the next step's start gives them. */
static void collect_arbiter(cpArbiter *arb, ArbiterList *list) {
    long a = shape_number(arb->a, list->shapeCount), b = shape_number(arb->b, list->shapeCount);
    if (a < 0 || b < 0 || list->count == list->capacity || arb->count > CP_MAX_CONTACTS_PER_ARBITER) { list->unknown = 1; return; }
    list->keys[list->count] = (ArbiterKey){(uint32_t)a, (uint32_t)b, (uint32_t)list->count};
    ArbiterRecord *record = &list->items[list->count++];
    record->stamp = arb->stamp;
    int collided = arb->stamp == list->stamp && arb->state == CP_ARBITER_STATE_FIRST_COLLISION;
    record->state = (uint8_t)(collided ? CP_ARBITER_STATE_NORMAL : arb->state);
    record->count = (uint8_t)arb->count;
    for (int c = 0; c < arb->count; c++) {
        record->hash[c] = (uint64_t)arb->contacts[c].hash;
        record->jnAcc[c] = arb->contacts[c].jnAcc;
        record->jtAcc[c] = arb->contacts[c].jtAcc;
    }
}

/* Orders the arbiters by their shapes' indices (the set itself is keyed by addresses, so one
   state always gives the same bytes): counted by the second index, then, keeping that order,
   by the first (two passes without a comparison, where a sort's would be mispredicted). */
static ArbiterKey *order_arbiters(const ArbiterList *list, int shapeCount, Scratch *scratch) {
    uint32_t *starts = scratch_take(scratch, ((size_t)shapeCount + 1) * sizeof *starts);
    ArbiterKey *bySecond = scratch_take(scratch, (list->count + 1) * sizeof *bySecond);
    ArbiterKey *sorted = scratch_take(scratch, (list->count + 1) * sizeof *sorted);
    if (!starts || !bySecond || !sorted) return NULL;
    memset(starts, 0, ((size_t)shapeCount + 1) * sizeof *starts);
    for (size_t i = 0; i < list->count; i++) starts[list->keys[i].b + 1]++;
    for (int s = 0; s < shapeCount; s++) starts[s + 1] += starts[s];
    for (size_t i = 0; i < list->count; i++) bySecond[starts[list->keys[i].b]++] = list->keys[i];
    memset(starts, 0, ((size_t)shapeCount + 1) * sizeof *starts);
    for (size_t i = 0; i < list->count; i++) starts[bySecond[i].a + 1]++;
    for (int s = 0; s < shapeCount; s++) starts[s + 1] += starts[s];
    for (size_t i = 0; i < list->count; i++) sorted[starts[bySecond[i].a]++] = bySecond[i];
    return sorted;
}

/* The save with indices `width` bytes wide, shapes numbered and walls' leaves found;
   CRATEDROP_STATE_WIDER when the pairs turn out too many for 2-byte indices. */
enum { CRATEDROP_STATE_WIDER = -100 };

static long save_numbered(cpSpace *space, cpShape **shapes, int shapeCount, cpBody **bodies, int bodyCount, Node **leaves,
                          int staticCount, uint64_t ids, int width, unsigned char *buffer, long capacity, AidOut *aid,
                          Scratch *scratch) {
    Writer w = {buffer, 0, capacity > 0 ? (size_t)capacity : 0};
    put_u32(&w, (uint32_t)bodyCount);
    // The aid's transforms come first in it, whatever the counts found later.
    double *transforms = aid->at && aid->capacity >= sizeof(AidHeader) + 6 * sizeof(double) * (size_t)bodyCount
        ? (double *)(aid->at + sizeof(AidHeader)) : NULL;
    for (int i = 0; i < bodyCount; i++) {
        cpBody *body = bodies[i];
        // Chipmunk clears forces after every step; a pending force is not part of this format.
        if (body->f.x != 0 || body->f.y != 0 || body->t != 0) return CRATEDROP_STATE_FORCES;
        _Static_assert(sizeof body->transform == 6 * sizeof(double), "a transform is six doubles");
        if (transforms) memcpy(transforms + 6 * (size_t)i, &body->transform, sizeof body->transform);
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
    int dynamicCount = shapeCount - staticCount;
    put_u32(&w, dynamicCount ? 2 * (uint32_t)dynamicCount - 1 : 0);
    memset(leaves + staticCount, 0, (size_t)dynamicCount * sizeof *leaves);
    TreeWriter treeWriter = {&w, leaves, width, shapeCount, staticCount, 0, 0};
    if (tree->root) put_subtree(&treeWriter, tree->root);
    if (treeWriter.unknown || treeWriter.leafCount != (uint32_t)dynamicCount) return CRATEDROP_STATE_UNKNOWN_SHAPE;
    for (int i = 0; i < staticCount; i++) put_u32(&w, leaves[i]->STAMP);

    number_leaves(leaves, shapeCount);
    // Room for a dozen entries a shape (pile-1000 has 10); more is taken if needed.
    GatheredEntries gathered = {.scratch = scratch};
    if (!reserve_entries(&gathered, 12 * (size_t)shapeCount + 1024)) gathered.failed = 1;
    else gather_entries(leaves, shapeCount, &gathered);
    unnumber_leaves(leaves, shapes, shapeCount);
    long problem = 0;
    if (gathered.failed) problem = CRATEDROP_STATE_MEMORY;
    else if (gathered.unsound || gathered.count % 2) problem = CRATEDROP_STATE_UNKNOWN_SHAPE;
    else if (index_width(shapeCount, gathered.count / 2) > width) problem = CRATEDROP_STATE_WIDER;
    size_t arbiterCount = (size_t)cpHashSetCount(space->cachedArbiters);
    aid->layout = aid_layout((size_t)shapeCount, (size_t)bodyCount, gathered.count / 2, arbiterCount);
    int listed = problem ? 1 : put_pair_lists(&w, width, &gathered, shapeCount, aid, scratch);
    if (problem) return problem;
    if (listed <= 0) return listed < 0 ? CRATEDROP_STATE_MEMORY : CRATEDROP_STATE_UNKNOWN_SHAPE;

    ArbiterList arbiters = {scratch_take(scratch, (arbiterCount + 1) * sizeof *arbiters.items),
                            scratch_take(scratch, (arbiterCount + 1) * sizeof *arbiters.keys), 0, arbiterCount, space->stamp, shapeCount, 0};
    cpArbiter **cached = scratch_take(scratch, (arbiterCount + 1) * sizeof *cached);
    if (!arbiters.items || !arbiters.keys || !cached) return CRATEDROP_STATE_MEMORY;
    size_t gatheredArbiters = gather_arbiters(space, cached, NULL);
    for (size_t i = 0; i < gatheredArbiters && i < PREFETCH_AHEAD; i++) prefetch_span(cached[i]);
    for (size_t i = 0; i < gatheredArbiters; i++) {
        if (i + PREFETCH_AHEAD < gatheredArbiters) prefetch_span(cached[i + PREFETCH_AHEAD]);
        // Its contacts, asked for a few arbiters on (the arbiter's own lines have arrived by then).
        if (i + PREFETCH_AHEAD / 2 < gatheredArbiters && cached[i + PREFETCH_AHEAD / 2]->contacts) prefetch_span(cached[i + PREFETCH_AHEAD / 2]->contacts);
        collect_arbiter(cached[i], &arbiters);
    }
    ArbiterKey *order = arbiters.unknown ? NULL : order_arbiters(&arbiters, shapeCount, scratch);
    if (!order) return arbiters.unknown ? CRATEDROP_STATE_UNKNOWN_SHAPE : CRATEDROP_STATE_MEMORY;
    put_u32(&w, (uint32_t)arbiters.count);
    // The aid's index of the arbiters, as parse makes it: by first shape, each one's second
    // shape and where its record begins.
    uint32_t *aidArbiterStarts = arbiters.count == arbiterCount ? aid_part(aid, aid->layout.arbiterStarts) : NULL;
    SavedArbiter *aidArbiters = aid_part(aid, aid->layout.arbiters);
    if (aidArbiterStarts) memset(aidArbiterStarts, 0, ((size_t)shapeCount + 1) * sizeof *aidArbiterStarts);
    for (size_t i = 0; i < arbiters.count; i++) {
        const ArbiterRecord *record = &arbiters.items[order[i].record];
        if (aidArbiterStarts) {
            aidArbiters[i] = (SavedArbiter){order[i].b, (uint32_t)w.count};
            aidArbiterStarts[order[i].a + 1]++;
        }
        unsigned char *at = at_room(&w, 2 * (size_t)width + 6 + (size_t)record->count * 24);
        if (!at) continue;
        store_index(at, width, order[i].a);
        store_index(at + width, width, order[i].b);
        at += 2 * width;
        store_u32(at, record->stamp);
        at[4] = record->state;
        at[5] = record->count;
        at += 6;
        for (int c = 0; c < record->count; c++, at += 24) {
            store_u64(at, record->hash[c]);
            store_f64(at + 8, record->jnAcc[c]);
            store_f64(at + 16, record->jtAcc[c]);
        }
    }
    if (w.count > (size_t)LONG_MAX) return CRATEDROP_STATE_MEMORY;
    // The aid is whole (and gets its header) only when the bytes had room too: its lists are
    // written with theirs.
    AidHeader *header = aidArbiterStarts && transforms && w.count <= w.capacity ? aid_part(aid, 0) : NULL;
    if (header) {
        for (int a = 0; a < shapeCount; a++) aidArbiterStarts[a + 1] += aidArbiterStarts[a];
        *header = (AidHeader){(uint32_t)shapeCount, (uint32_t)bodyCount, (uint32_t)(gathered.count / 2), (uint32_t)arbiters.count};
    }
    return (long)w.count;
}

/* Writes the space's state into `buffer`; `shapes` and `bodies` name every shape and non-static
   body in the world's own order (walls, tumbler, crates). Returns the state's size in bytes (when
   it is more than `capacity`, the buffer holds only its beginning: call again with room for it),
   or a negative CRATEDROP_STATE_ code. With `aid` (8-byte aligned, room for `aidCapacity`
   bytes), the restore aid too (see AidHeader), for cratedrop_state_restore_as_saved of these
   bytes; `aidSize` (when not NULL) is set to the aid's size. The aid is whole only when both the
   state and the aid had room (call again with room for both). */
long cratedrop_state_save(cpSpace *space, cpShape **shapes, int shapeCount, cpBody **bodies, int bodyCount,
                          unsigned char *buffer, long capacity, void *aid, long aidCapacity, long *aidSize) {
    AidOut aidOut = {aid, aid && aidCapacity > 0 ? (size_t)aidCapacity : 0, {0}};
    if (aidSize) *aidSize = 0;
    // An aid left incomplete has no header, so a stale one in the same memory is not taken.
    if (aidOut.capacity >= sizeof(AidHeader)) memset(aid, 0, sizeof(AidHeader));
    int problem = check_space(space);
    if (problem) return problem;
    int staticCount = static_prefix(shapes, shapeCount);
    Scratch *scratch = scratch_begin();
    if (!scratch) return CRATEDROP_STATE_MEMORY;
    Node **leaves = scratch_zeroed(scratch, ((size_t)shapeCount + 1) * sizeof *leaves);
    cpHashValue *kept = scratch_take(scratch, ((size_t)shapeCount + 1) * sizeof *kept);
    if (!leaves || !kept) { scratch_end(scratch); return CRATEDROP_STATE_MEMORY; }
    int unknown = 0;
    // Walls' leaves are found by their ids, before the ids hold numbers.
    for (int i = 0; i < staticCount && !unknown; i++) {
        leaves[i] = leaf_of(shapes[i]);
        if (!leaves[i]) unknown = 1;
    }
    long result = CRATEDROP_STATE_UNKNOWN_SHAPE;
    if (!unknown) {
        uint64_t ids = number_shapes(shapes, shapeCount, kept, &unknown);
        if (!unknown) {
            result = save_numbered(space, shapes, shapeCount, bodies, bodyCount, leaves, staticCount, ids,
                                   index_width(shapeCount, 0), buffer, capacity, &aidOut, scratch);
            if (result == CRATEDROP_STATE_WIDER) {
                result = save_numbered(space, shapes, shapeCount, bodies, bodyCount, leaves, staticCount, ids, 4, buffer, capacity, &aidOut,
                                       scratch);
            }
        }
        unnumber_shapes(shapes, shapeCount, kept);
    }
    scratch_end(scratch);
    if (aidSize && result >= 0) *aidSize = aidOut.layout.size > LONG_MAX ? LONG_MAX : (long)aidOut.layout.size;
    return result;
}

/* MARK: Restoring */

/* A parsed and checked state: its sections, and what restoring needs of the pair lists and
   arbiters in a form it can look up. */
typedef struct {
    const unsigned char *bytes;
    int width;
    uint32_t stamp, treeStamp, nodeCount;
    uint64_t shapeIDs;
    double currDt;
    size_t bodiesAt, treeAt, staticStampsAt;
    uint32_t pairCount;
    SavedPair *pairs;    /* read only when the pairs are checked */
    uint32_t *pairIds;
    uint32_t *listStarts; /* per shape, where its list begins in `entries`; one more at the end */
    uint32_t *entries;    /* per list entry, its pair's number times two, plus one for a first leaf's */
    uint32_t arbiterCount;
    SavedArbiter *arbiters;
    uint32_t *arbiterStarts; /* per shape, its first arbiter as first shape; one more at the end */
} Saved;

static inline int bb_sound(const unsigned char *at) {
    int finite = 1;
    double l = load_finite(at, &finite), b = load_finite(at + 8, &finite);
    double r = load_finite(at + 16, &finite), t = load_finite(at + 24, &finite);
    return finite && l <= r && b <= t;
}

static inline cpBB load_bb(const unsigned char *at) {
    int finite;
    return cpBBNew(load_finite(at, &finite), load_finite(at + 8, &finite), load_finite(at + 16, &finite), load_finite(at + 24, &finite));
}

/* Checks the preorder tree: returns 0 when malformed. Every leaf is one of the world's moving
   shapes, each once. */
typedef struct {
    const unsigned char *at, *end;
    int width, staticShapes, shapeCount;
    uint32_t used, limit;
    unsigned char *placed;
    int misplaced;
} TreeCheck;

static int check_subtree(TreeCheck *check, int depth) {
    if (check->used >= check->limit || depth > 4096 || check->at == check->end) return 0;
    check->used++;
    unsigned char kind = *check->at++;
    if (kind == 1) {
        const unsigned char *leaf = check->at;
        if (check->end - leaf < check->width + 36 || !bb_sound(leaf + check->width + 4)) return 0;
        check->at += check->width + 36;
        uint32_t shape = load_index(leaf, check->width);
        if (shape >= (uint32_t)check->shapeCount || shape < (uint32_t)check->staticShapes || check->placed[shape]) {
            check->misplaced = 1;
            return 0;
        }
        check->placed[shape] = 1;
        return 1;
    }
    if (kind == 2) {
        if (check->end - check->at < 32 || !bb_sound(check->at)) return 0;
        check->at += 32;
    } else if (kind != 0) {
        return 0;
    }
    return check_subtree(check, depth + 1) && check_subtree(check, depth + 1);
}

/* Passes over a tree this library wrote, to its end, checking what building it relies on for
   memory (not its boxes): that it is one tree of `limit` nodes, and each leaf one of the world's
   moving shapes, once. 0 when it is not. */
static int skip_tree(TreeCheck *check) {
    const unsigned char *at = check->at, *end = check->end;
    // Children still to come: an inner node adds one (it takes a place and opens two).
    uint32_t open = 1;
    for (uint32_t n = 0; n < check->limit; n++) {
        if (at == end || open == 0) return 0;
        unsigned char kind = *at++;
        if (kind > 2) return 0;
        size_t length = kind == 1 ? (size_t)check->width + 36 : kind == 2 ? 32 : 0;
        if ((size_t)(end - at) < length) return 0;
        if (kind == 1) {
            uint32_t shape = load_index(at, check->width);
            if (shape >= (uint32_t)check->shapeCount || shape < (uint32_t)check->staticShapes || check->placed[shape]) {
                check->misplaced = 1;
                return 0;
            }
            check->placed[shape] = 1;
            open--;
        } else {
            open++;
        }
        at += length;
    }
    check->at = at;
    return open == 0;
}

static int fail(char *message, int size, const char *text) {
    if (message && size > 0) snprintf(message, (size_t)size, "%s", text);
    return CRATEDROP_STATE_MALFORMED;
}

/* Reads every leaf's pair list and checks that the lists make pairs: each pair is named by its
   first leaf's entry (with its id) and by exactly one entry of its second leaf, by number, and
   no shape is in another's list twice. */
static inline __attribute__((always_inline)) int read_pairs_width(Reader *r, Saved *s, uint32_t staticShapes, int shapeCount, const int width,
                                                                   int asSaved, Scratch *scratch, char *message, int size) {
    s->pairCount = get_u32(r);
    // Each pair takes two entries of at least `width` bytes and an id.
    if (r->failed || (size_t)s->pairCount > (r->count - r->at) / (2 * (size_t)width + 4)) return fail(message, size, "the state is cut short in its pairs");
    s->listStarts = scratch_take(scratch, ((size_t)shapeCount + 1) * sizeof *s->listStarts);
    s->entries = scratch_take(scratch, (2 * (size_t)s->pairCount + 1) * sizeof *s->entries);
    s->pairs = scratch_take(scratch, ((size_t)s->pairCount + 1) * sizeof *s->pairs);
    s->pairIds = scratch_take(scratch, ((size_t)s->pairCount + 1) * sizeof *s->pairIds);
    if (!s->listStarts || !s->entries || !s->pairs || !s->pairIds) return CRATEDROP_STATE_MEMORY;
    const unsigned char *at = r->bytes + r->at, *end = r->bytes + r->count;
    uint32_t count = 0, pairs = 0, total = 2 * s->pairCount;
    for (int i = 0; i < shapeCount; i++) {
        s->listStarts[i] = count;
        if (end - at < width) return fail(message, size, "a broadphase pair list is malformed or cut short");
        uint32_t length = load_index(at, width);
        at += width;
        // The list's entries are at least `width` bytes each.
        if (length > total - count || length > (size_t)(end - at) / (size_t)width) return fail(message, size, "a broadphase pair list is malformed or cut short");
        for (uint32_t k = 0; k < length; k++) {
            if (end - at < width) return fail(message, size, "a broadphase pair list is cut short");
            uint32_t entry = load_index(at, width);
            if (entry & 1) {
                if (entry >> 1 >= s->pairCount) return fail(message, size, "a broadphase pair list names a pair of other shapes, or one shape twice");
                s->entries[count++] = entry & ~1u;
                at += width;
                continue;
            }
            uint32_t other = entry >> 1;
            if (other >= (uint32_t)shapeCount || other == (uint32_t)i || ((uint32_t)i < staticShapes && other < staticShapes) || pairs == s->pairCount) {
                return fail(message, size, "a broadphase pair names shapes that cannot pair");
            }
            if (end - at < width + 4) return fail(message, size, "a broadphase pair list is cut short");
            s->pairs[pairs] = (SavedPair){(uint32_t)i, other};
            s->pairIds[pairs] = load_u32(at + width);
            s->entries[count++] = pairs++ << 1 | 1;
            at += width + 4;
        }
    }
    r->at = (size_t)(at - r->bytes);
    s->listStarts[shapeCount] = count;
    if (pairs != s->pairCount || count != total) return fail(message, size, "the broadphase pair lists do not hold each pair twice");
    if (asSaved) return CRATEDROP_STATE_OK;
    uint32_t *seen = scratch_zeroed(scratch, ((size_t)shapeCount + 1) * sizeof *seen);
    if (!seen) return CRATEDROP_STATE_MEMORY;
    // Each second leaf's entry names a pair of that leaf, and no pair is named twice (checked
    // without branches on the entries; any fault fails the state).
    uint32_t foreign = 0, twice = 0;
    for (int j = 0; j < shapeCount; j++) {
        uint32_t list = (uint32_t)j + 1;
        for (uint32_t e = s->listStarts[j]; e < s->listStarts[j + 1]; e++) {
            uint32_t entry = s->entries[e], pair = entry >> 1, isFirst = entry & 1;
            SavedPair named = s->pairs[pair < pairs ? pair : 0];
            foreign |= !isFirst & (pair >= pairs || named.b != (uint32_t)j);
            uint32_t other = isFirst ? named.b : named.a;
            twice |= seen[other] == list;
            seen[other] = list;
        }
    }
    if (foreign) return fail(message, size, "a broadphase pair list names a pair of other shapes, or one shape twice");
    if (twice) return fail(message, size, "a broadphase pair list names one shape twice");
    return CRATEDROP_STATE_OK;
}

/* read_pairs_width made for each index width: the width a constant in each loop. */
static int read_pairs(Reader *r, Saved *s, uint32_t staticShapes, int shapeCount, int width, int asSaved, Scratch *scratch, char *message,
                      int size) {
    return width == 2 ? read_pairs_width(r, s, staticShapes, shapeCount, 2, asSaved, scratch, message, size)
                      : read_pairs_width(r, s, staticShapes, shapeCount, 4, asSaved, scratch, message, size);
}

/* The state's arbiter of shapes a and b (in that order), or -1. */
static long find_saved_arbiter(const Saved *s, uint32_t a, uint32_t b) {
    for (uint32_t k = s->arbiterStarts[a]; k < s->arbiterStarts[a + 1]; k++) {
        if (s->arbiters[k].b == b) return k;
    }
    return -1;
}

/* Checks the arbiters' records and indexes them by their first shape. */
static int read_arbiters(Reader *r, Saved *s, int shapeCount, int width, int asSaved, Scratch *scratch, char *message, int size) {
    s->arbiterCount = get_u32(r);
    size_t smallest = 2 * (size_t)width + 6;
    if (r->failed || (size_t)s->arbiterCount > (r->count - r->at) / smallest) return fail(message, size, "the state is cut short in its contacts");
    s->arbiters = scratch_take(scratch, ((size_t)s->arbiterCount + 1) * sizeof *s->arbiters);
    s->arbiterStarts = scratch_zeroed(scratch, ((size_t)shapeCount + 1) * sizeof *s->arbiterStarts);
    if (!s->arbiters || !s->arbiterStarts) return CRATEDROP_STATE_MEMORY;
    const unsigned char *start = r->bytes, *at = start + r->at, *end = start + r->count;
    uint32_t lastA = 0, lastB = 0;
    for (uint32_t i = 0; i < s->arbiterCount; i++) {
        if ((size_t)(end - at) < smallest) return fail(message, size, "the state is cut short in its contacts");
        uint32_t a = load_index(at, width), b = load_index(at + width, width);
        uint8_t state = at[2 * width + 4], count = at[2 * width + 5];
        if (a >= (uint32_t)shapeCount || b >= (uint32_t)shapeCount || a == b || count > CP_MAX_CONTACTS_PER_ARBITER
            || !(state == CP_ARBITER_STATE_FIRST_COLLISION || state == CP_ARBITER_STATE_NORMAL || state == CP_ARBITER_STATE_CACHED)
            || (i > 0 && !(lastA != a ? lastA < a : lastB < b))) {
            return fail(message, size, "a contact pair is malformed, out of order or repeated");
        }
        lastA = a;
        lastB = b;
        s->arbiters[i] = (SavedArbiter){b, (uint32_t)(at - start)};
        at += smallest;
        if ((size_t)(end - at) < 24 * (size_t)count) return fail(message, size, "a contact's impulse is not a finite number, or the state is cut short");
        int finite = 1;
        for (int c = 0; c < count && !asSaved; c++) {
            load_finite(at + 24 * c + 8, &finite);
            load_finite(at + 24 * c + 16, &finite);
        }
        if (!finite) return fail(message, size, "a contact's impulse is not a finite number, or the state is cut short");
        at += 24 * (size_t)count;
        s->arbiterStarts[a + 1]++;
    }
    r->at = (size_t)(at - start);
    for (int a = 0; a < shapeCount; a++) s->arbiterStarts[a + 1] += s->arbiterStarts[a];
    // One arbiter a pair of shapes: (a, b) and (b, a) both is a repeat too.
    for (int a = 0; a < shapeCount && !asSaved; a++) {
        for (uint32_t k = s->arbiterStarts[a]; k < s->arbiterStarts[a + 1]; k++) {
            uint32_t b = s->arbiters[k].b;
            if (b < (uint32_t)a && find_saved_arbiter(s, b, (uint32_t)a) >= 0) return fail(message, size, "a contact pair is malformed, out of order or repeated");
        }
    }
    return CRATEDROP_STATE_OK;
}

/* Parses and checks the whole state against the world's shapes and bodies. */
static int parse(const unsigned char *bytes, long count, int staticShapes, int shapeCount, int bodyCount, int asSaved,
                 const unsigned char *aid, Saved *s, Scratch *scratch, char *message, int size) {
    Reader r = {bytes, count > 0 ? (size_t)count : 0, 0, 0};
    memset(s, 0, sizeof *s);
    s->bytes = bytes;
#if SIZE_MAX > UINT32_MAX
    // Offsets into the state are kept in 32 bits.
    if (r.count > UINT32_MAX) return fail(message, size, "the state is larger than 4 GiB");
#endif
    uint32_t bodies = get_u32(&r);
    if (r.failed || bodies != (uint32_t)bodyCount) return fail(message, size, "the state holds another number of bodies than the scene");
    if ((size_t)bodies > (r.count - r.at) / 72) return fail(message, size, "the state is cut short in its bodies");
    s->bodiesAt = r.at;
    const unsigned char *at = take(&r, 72 * (size_t)bodies);
    int finite = 1;
    for (size_t i = 0; at && !asSaved && i < 9 * (size_t)bodies; i++) load_finite(at + 8 * i, &finite);
    if (r.failed || !finite) return fail(message, size, "a body's value is not a finite number, or the state is cut short");
    s->stamp = get_u32(&r);
    s->currDt = get_finite(&r);
    s->treeStamp = get_u32(&r);
    int width = s->width = get_u8(&r);
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

    int dynamicShapes = shapeCount - staticShapes;
    uint32_t expectedNodes = dynamicShapes ? 2 * (uint32_t)dynamicShapes - 1 : 0;
    if (s->nodeCount != expectedNodes) return fail(message, size, "the broadphase tree has another number of nodes than the scene's shapes need");
    unsigned char *placed = scratch_zeroed(scratch, (size_t)shapeCount + 1);
    if (!placed) return CRATEDROP_STATE_MEMORY;
    s->treeAt = r.at;
    TreeCheck check = {bytes + r.at, bytes + r.count, width, staticShapes, shapeCount, 0, s->nodeCount, placed, 0};
    int sound = !s->nodeCount || (asSaved ? skip_tree(&check) : check_subtree(&check, 0) && check.used == s->nodeCount);
    r.at = (size_t)(check.at - bytes);
    if (check.misplaced) return fail(message, size, "the broadphase tree names a shape that is not one of the scene's moving shapes, or names one twice");
    if (!sound) return fail(message, size, "the broadphase tree is malformed");

    s->staticStampsAt = r.at;
    if (!take(&r, 4 * (size_t)staticShapes)) return fail(message, size, "the state is cut short in its walls' stamps");
    if (aid) {
        // The lists and the arbiters' index as this state's save made them.
        const AidHeader *header = (const AidHeader *)aid;
        AidLayout layout = aid_layout(header->shapeCount, header->bodyCount, header->pairCount, header->arbiterCount);
        s->pairCount = get_u32(&r);
        if (r.failed || s->pairCount != header->pairCount) return fail(message, size, "the state's restore aid is not its own");
        s->listStarts = (uint32_t *)(aid + layout.listStarts);
        s->entries = (uint32_t *)(aid + layout.entries);
        s->pairIds = (uint32_t *)(aid + layout.pairIds);
        s->arbiterCount = header->arbiterCount;
        s->arbiterStarts = (uint32_t *)(aid + layout.arbiterStarts);
        s->arbiters = (SavedArbiter *)(aid + layout.arbiters);
        return CRATEDROP_STATE_OK;
    }

    int problem = read_pairs(&r, s, (uint32_t)staticShapes, shapeCount, width, asSaved, scratch, message, size);
    if (problem) return problem;
    problem = read_arbiters(&r, s, shapeCount, width, asSaved, scratch, message, size);
    if (problem) return problem;
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

/* Gives `arb` the state's arbiter whose record is at `at`, as a fresh arbiter of the space's
   with the saved stamp, state and contacts. */
static void restore_arbiter(cpSpace *space, cpArbiter *arb, const unsigned char *at, int width, cpShape **shapes) {
    cpShape *a = shapes[load_index(at, width)], *b = shapes[load_index(at + width, width)];
    if ((arb->a == a && arb->b == b) || (arb->a == b && arb->b == a)) {
        // What cpArbiterInit(arb, a, b) does to an arbiter of these shapes already, without
        // reading the shapes' bodies again (an arbiter's bodies are its shapes').
        if (arb->a != a) {
            cpBody *body = arb->body_a;
            arb->body_a = arb->body_b;
            arb->body_b = body;
            arb->a = a;
            arb->b = b;
        }
        arb->swapped = cpFalse;
        arb->handlerA = arb->handlerB = NULL;
        arb->e = arb->u = 0;
        arb->surface_vr = cpvzero;
        arb->thread_a.next = arb->thread_a.prev = arb->thread_b.next = arb->thread_b.prev = NULL;
        arb->data = NULL;
    } else {
        cpArbiterInit(arb, a, b);
    }
    at += 2 * width;
    arb->handler = &space->defaultHandler;
    arb->stamp = load_u32(at);
    arb->state = (enum cpArbiterState)at[4];
    int count = at[5];
    arb->count = count;
    arb->contacts = NULL;
    at += 6;
    if (count) {
        struct cpContact *contacts = cpContactBufferGetArray(space);
        cpSpacePushContacts(space, count);
        // Only these three are read of a cached contact (cpArbiterUpdate matches the next step's
        // contacts by hash and takes their impulses); the rest is written afresh when it collides.
        for (int c = 0; c < count; c++, at += 24) {
            int finite;
            // A state saved on a 64-bit CPU keeps the low bits a 32-bit one computes.
            contacts[c].hash = (cpHashValue)load_u64(at);
            contacts[c].jnAcc = load_finite(at + 8, &finite);
            contacts[c].jtAcc = load_finite(at + 16, &finite);
        }
        arb->contacts = contacts;
    }
}

/* The space's cached arbiters meet the state's: an arbiter of a pair of shapes the state has
   too is given its saved state where it is (no trip through the set and the pool), any other
   goes back to the pool. */
typedef struct {
    cpSpace *space;
    const Saved *s;
    cpShape **shapes;
    int shapeCount;
    unsigned char *restored;
} ArbiterReuse;

/* The state's arbiter of the same shapes as `arb` (in either order), or -1. */
static long saved_match(const cpArbiter *arb, const ArbiterReuse *reuse) {
    long a = shape_number(arb->a, reuse->shapeCount), b = shape_number(arb->b, reuse->shapeCount);
    if (a < 0 || b < 0) return -1;
    long k = find_saved_arbiter(reuse->s, (uint32_t)a, (uint32_t)b);
    return k >= 0 ? k : find_saved_arbiter(reuse->s, (uint32_t)b, (uint32_t)a);
}

/* Gives `arb` the state of its saved match, or sends it back to the pool; 1 when kept. */
static int reuse_arbiter(cpArbiter *arb, long k, ArbiterReuse *reuse) {
    if (k >= 0 && !reuse->restored[k]) {
        reuse->restored[k] = 1;
        restore_arbiter(reuse->space, arb, reuse->s->bytes + reuse->s->arbiters[k].at, reuse->s->width, reuse->shapes);
        return 1;
    }
    arb->contacts = NULL;
    arb->count = 0;
    cpArrayPush(reuse->space->pooledArbiters, arb);
    return 0;
}

enum { STAGE = PREFETCH_AHEAD / 2 };

/* cpHashSetFilter with reuse_arbiter, the arbiters gathered first and read in a pipeline: an
   arbiter's lines are asked for three stages before its turn, its shapes' ids two, its saved
   record one (when its match is found). `cached`, `bins`, `matches` and `kept` have room for
   the set's count. */
static void reuse_arbiters(ArbiterReuse *reuse, cpArbiter **cached, SetBin **bins, long *matches, unsigned char *kept) {
    cpHashSet *set = reuse->space->cachedArbiters;
    const Saved *s = reuse->s;
    size_t count = gather_arbiters(reuse->space, cached, bins);
    for (size_t i = 0; i < count && i < 3 * STAGE; i++) prefetch_span(cached[i]);
    for (size_t i = 0; i < count && i < STAGE; i++) matches[i] = saved_match(cached[i], reuse);
    for (size_t i = 0; i < count; i++) {
        if (i + 3 * STAGE < count) prefetch_span(cached[i + 3 * STAGE]);
        if (i + 2 * STAGE < count) {
            __builtin_prefetch(&cached[i + 2 * STAGE]->a->hashid);
            __builtin_prefetch(&cached[i + 2 * STAGE]->b->hashid);
        }
        if (i + STAGE < count) {
            long k = matches[i + STAGE] = saved_match(cached[i + STAGE], reuse);
            if (k >= 0) {
                __builtin_prefetch(s->bytes + s->arbiters[k].at);
                __builtin_prefetch(s->bytes + s->arbiters[k].at + 56);
            }
        }
        kept[i] = (unsigned char)reuse_arbiter(cached[i], matches[i], reuse);
    }
    // The discarded ones' bins leave their chains and go back to the set's pool, as in
    // cpHashSetFilter.
    for (size_t i = 0; i < count; i++) {
        if (kept[i]) continue;
        SetBin *bin = bins[i], **link = &set->table[bin->hash % set->size];
        while (*link != bin) link = &(*link)->next;
        *link = bin->next;
        bin->elt = NULL;
        bin->next = set->pooledBins;
        set->pooledBins = bin;
        set->entries--;
    }
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

/* Threads each leaf's list in one pass, giving the world's pairs (`pairs`, one a state's pair)
   the state's leaves and ids on the way: a pair's thread is its first leaf's (a) or its
   second's (b), and holds that leaf; its id is written from both (without a branch). */
static void thread_lists(const Saved *s, Node **leaves, Pair **pairs, int shapeCount) {
    for (int i = 0; i < shapeCount; i++) {
        Node *leaf = leaves[i];
        Pair *previous = NULL, **link = &leaf->PAIRS;
        for (uint32_t k = s->listStarts[i]; k < s->listStarts[i + 1]; k++) {
            uint32_t number = s->entries[k] >> 1;
            Pair *pair = pairs[number];
            Thread *thread = thread_of(pair, !(s->entries[k] & 1));
            thread->leaf = leaf;
            pair->id = s->pairIds[number];
            *link = pair;
            thread->prev = previous;
            link = &thread->next;
            previous = pair;
        }
        *link = NULL;
    }
}

/* Builds the saved tree out of the world's leaves and its inner nodes (a tree of as many leaves
   has as many inner nodes), reading the preorder checked by `parse`. */
typedef struct {
    Reader r;
    int width;
    Node **leaves, **inner;
    uint32_t nextInner;
} TreeBuild;

static Node *build_subtree(TreeBuild *build) {
    const unsigned char *kind = take(&build->r, 1);
    if (*kind == 1) {
        const unsigned char *at = take(&build->r, (size_t)build->width + 36);
        Node *leaf = build->leaves[load_index(at, build->width)];
        leaf->STAMP = load_u32(at + build->width);
        leaf->bb = load_bb(at + build->width + 4);
        leaf->parent = NULL;
        return leaf;
    }
    Node *node = build->inner[build->nextInner++];
    if (*kind == 2) node->bb = load_bb(take(&build->r, 32));
    node->obj = NULL;
    node->parent = NULL;
    NodeSetA(node, build_subtree(build));
    NodeSetB(node, build_subtree(build));
    if (*kind == 0) node->bb = cpBBMerge(node->A->bb, node->B->bb);
    return node;
}

/* cratedrop_state_restore, or with `asSaved` cratedrop_state_restore_as_saved. */
static int restore(cpSpace *space, cpShape **shapes, int shapeCount, cpBody **bodies, int bodyCount, const unsigned char *bytes,
                   long count, int asSaved, const unsigned char *aid, char *message, int messageSize) {
    int problem = check_space(space);
    if (problem) return problem;
    int staticCount = static_prefix(shapes, shapeCount);
    Scratch *scratch = scratch_begin();
    if (!scratch) return CRATEDROP_STATE_MEMORY;
    Saved s;
    problem = parse(bytes, count, staticCount, shapeCount, bodyCount, asSaved, aid, &s, scratch, message, messageSize);
    if (problem) { scratch_end(scratch); return problem; }
    // The aid's transforms come first in it, after its header.
    const double *transforms = aid ? (const double *)(aid + sizeof(AidHeader)) : NULL;

    // The world as it is: its leaves (walls' by their ids, before the ids hold numbers), its
    // tree's inner nodes and its pairs, each to be given the state's values where it is.
    cpBBTree *tree = GetTree(space->dynamicShapes);
    uint32_t innerCount = s.nodeCount ? s.nodeCount / 2 : 0;
    Node **leaves = scratch_zeroed(scratch, ((size_t)shapeCount + 1) * sizeof *leaves);
    Node **inner = scratch_take(scratch, ((size_t)innerCount + 1) * sizeof *inner);
    cpHashValue *kept = scratch_take(scratch, ((size_t)shapeCount + 1) * sizeof *kept);
    Pair **pairs = scratch_take(scratch, ((size_t)s.pairCount + 1) * sizeof *pairs);
    unsigned char *restored = scratch_zeroed(scratch, (size_t)s.arbiterCount + 1);
    size_t cachedCount = (size_t)cpHashSetCount(space->cachedArbiters);
    cpArbiter **cached = scratch_take(scratch, (cachedCount + 1) * sizeof *cached);
    long *matches = scratch_take(scratch, (cachedCount + 1) * sizeof *matches);
    unsigned char *keptArbiters = scratch_take(scratch, cachedCount + 1);
    SetBin **arbiterBins = scratch_take(scratch, (cachedCount + 1) * sizeof *arbiterBins);
    Pair **existing = NULL;
    size_t existingCount = 0, existingCapacity = 0;
    if (!leaves || !inner || !kept || !pairs || !restored || !cached || !matches || !keptArbiters || !arbiterBins) problem = CRATEDROP_STATE_MEMORY;
    for (int i = 0; i < staticCount && !problem; i++) {
        leaves[i] = leaf_of(shapes[i]);
        if (!leaves[i]) problem = fail(message, messageSize, "a shape of the world is not in its broadphase");
    }
    int numbered = !problem;
    if (numbered) {
        int clash = 0;
        uint64_t ids = number_shapes(shapes, shapeCount, kept, &clash);
        TreeLeaves found = {leaves, inner, innerCount, 0, 0, shapeCount, staticCount, 0};
        if (tree->root && !clash) find_leaves(&found, tree->root);
        if (clash || found.unknown || found.leafCount != (uint32_t)(shapeCount - staticCount) || found.innerCount != innerCount) {
            problem = fail(message, messageSize, "a shape of the world is not in its broadphase");
        } else if (s.shapeIDs != ids) {
            problem = fail(message, messageSize, "the world's shapes were added in another order than those of the world the state was saved from "
                           "(their Chipmunk ids differ, and contacts are known by them): build the world as that one was built");
        } else {
            // Each pair once, from its first leaf's list (room for the state's and some; the room
            // doubles when the world has more).
            existingCapacity = (size_t)s.pairCount + 1024;
            existing = scratch_take(scratch, existingCapacity * sizeof *existing);
            if (!existing) problem = CRATEDROP_STATE_MEMORY;
#define TAKE_PAIR(pair, first, index)                                                                  \
    do {                                                                                               \
        if (__builtin_expect(existingCount == existingCapacity, 0)) {                                  \
            Pair **grown = scratch_take(scratch, 2 * existingCapacity * sizeof *existing);              \
            if (!grown) { problem = CRATEDROP_STATE_MEMORY; existingCount = 0; break; }                 \
            memcpy(grown, existing, existingCount * sizeof *existing);                                 \
            existing = grown;                                                                          \
            existingCapacity *= 2;                                                                     \
        }                                                                                              \
        existing[existingCount] = (pair);                                                              \
        existingCount += (size_t)(first);                                                              \
    } while (0)
            if (!problem) WALK_PAIR_LISTS(leaves, shapeCount, TAKE_PAIR);
#undef TAKE_PAIR
        }
        if (problem) unnumber_shapes(shapes, shapeCount, kept);
    }
    if (problem) {
        scratch_end(scratch);
        return problem;
    }

    // Everything checks: from here on nothing can fail but memory, which Chipmunk aborts on.
    // The restored contacts live in buffers stamped with the restored stamp, which the space
    // keeps as long as it keeps the arbiters pointing into them.
    space->stamp = s.stamp;
    space->curr_dt = s.currDt;
    free_contact_buffers(space, s.stamp);
    cpSpacePushFreshContactBuffer(space);
    ArbiterReuse reuse = {space, &s, shapes, shapeCount, restored};
    reuse_arbiters(&reuse, cached, arbiterBins, matches, keptArbiters);
    unnumber_shapes(shapes, shapeCount, kept);
    for (uint32_t k = 0; k < s.arbiterCount; k++) {
        if (restored[k]) continue;
        const unsigned char *at = bytes + s.arbiters[k].at;
        cpShape *pair[] = {shapes[load_index(at, s.width)], shapes[load_index(at + s.width, s.width)]};
        cpHashValue key = CP_HASH_PAIR((cpHashValue)pair[0], (cpHashValue)pair[1]);
        cpArbiter *arb = (cpArbiter *)cpHashSetInsert(space->cachedArbiters, key, pair, (cpHashSetTransFunc)arbiter_from_pool, space);
        restore_arbiter(space, arb, at, s.width, shapes);
    }
    space->arbiters->num = 0;
    for (int i = 0; i < space->dynamicBodies->num; i++) ((cpBody *)space->dynamicBodies->arr[i])->arbiterList = NULL;
    for (int i = 0; i < space->staticBodies->num; i++) ((cpBody *)space->staticBodies->arr[i])->arbiterList = NULL;
    space->staticBody->arbiterList = NULL;

    // The world's pairs take the state's, more from the pool or the rest back to it; every
    // field of each is written below.
    for (uint32_t p = 0; p < s.pairCount; p++) pairs[p] = p < existingCount ? existing[p] : PairFromPool(tree);
    for (size_t p = s.pairCount; p < existingCount; p++) PairRecycle(tree, existing[p]);
    thread_lists(&s, leaves, pairs, shapeCount);

    TreeBuild build = {{bytes, (size_t)count, s.treeAt, 0}, s.width, leaves, inner, 0};
    tree->root = s.nodeCount ? build_subtree(&build) : NULL;
    tree->stamp = s.treeStamp;
    for (int i = 0; i < staticCount; i++) leaves[i]->STAMP = load_u32(bytes + s.staticStampsAt + 4 * (size_t)i);

    for (int i = 0; i < bodyCount; i++) {
        cpBody *body = bodies[i];
        const unsigned char *at = bytes + s.bodiesAt + 72 * (size_t)i;
        int finite;
        body->p = cpv(load_finite(at, &finite), load_finite(at + 8, &finite));
        body->v = cpv(load_finite(at + 16, &finite), load_finite(at + 24, &finite));
        body->f = cpvzero;
        body->t = 0;
        body->w = load_finite(at + 40, &finite);
        body->v_bias = cpv(load_finite(at + 48, &finite), load_finite(at + 56, &finite));
        body->w_bias = load_finite(at + 64, &finite);
        double angle = load_finite(at + 32, &finite);
        if (transforms) {
            // What cpBodySetAngle does (its wake-up does nothing without sleeping), with the
            // transform it would compute from this position and angle, as saved beside them.
            cpBodyActivate(body);
            body->a = angle;
            memcpy(&body->transform, transforms + 6 * (size_t)i, sizeof body->transform);
        } else {
            // Sets the angle and the transform exactly as a step's position update does.
            cpBodySetAngle(body, angle);
        }
    }
    // Shapes' own cached boxes and vertices are left as they are: the next step computes every
    // moving shape's again from its body before anything reads them (cpSpaceStep), and nothing
    // of CrateDrop's API reads them between steps.

    scratch_end(scratch);
    return CRATEDROP_STATE_OK;
}

/* Puts the state in `bytes` into the space, whose shapes and bodies are given in the world's own
   order, as for saving. Returns 0, or a negative CRATEDROP_STATE_ code with what is wrong in
   `message`; on any error the space is left exactly as it was. */
int cratedrop_state_restore(cpSpace *space, cpShape **shapes, int shapeCount, cpBody **bodies, int bodyCount,
                            const unsigned char *bytes, long count, char *message, int messageSize) {
    return restore(space, shapes, shapeCount, bodies, bodyCount, bytes, count, 0, NULL, message, messageSize);
}

/* cratedrop_state_restore for bytes exactly as cratedrop_state_save wrote them in this process
   (kept in memory and unchanged since; a planner's or a rewind's), with the restore aid the same
   save gave (`aidSize` bytes; or NULL). The caller vouches for both: they are the save's output,
   untouched (World.restore passes only such: WorldState marks them, and any change unmarks them).
   So the state's own consistency (each pair listed twice, each contact pair once, finite values,
   inner boxes) is not checked again, and what the aid holds (the lists and the arbiters' index
   as the parse would make them, each body's transform) is taken as it is: a third of a restore's
   work without the aid, half with it. What ties the state to this world is checked as always
   (its counts and shapes' ids), and so is what building the tree relies on; an aid of other
   counts than this world's is not used. Anything else, a file above all, goes through
   cratedrop_state_restore. (A world whose values went non-finite saves them as they are: such a
   state restores here, and is refused from a file.) */
int cratedrop_state_restore_as_saved(cpSpace *space, cpShape **shapes, int shapeCount, cpBody **bodies, int bodyCount,
                                     const unsigned char *bytes, long count, const void *aid, long aidSize, char *message,
                                     int messageSize) {
    const AidHeader *header = aid && aidSize >= (long)sizeof(AidHeader) ? (const AidHeader *)aid : NULL;
    int fits = header && header->shapeCount == (uint32_t)shapeCount && header->bodyCount == (uint32_t)bodyCount
        && aid_layout(header->shapeCount, header->bodyCount, header->pairCount, header->arbiterCount).size == (size_t)aidSize;
    return restore(space, shapes, shapeCount, bodies, bodyCount, bytes, count, 1, fits ? (const unsigned char *)aid : NULL, message,
                   messageSize);
}
