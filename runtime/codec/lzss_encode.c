/* lzss_encode.c — LZSS encoders for the SPZ and SZDD ring set-ups
 * (relic_lzss.h; Trespasser source, Source/Tools/LZSS/LZSS.cpp, Lib/Loader/ImageLoader.cpp describes the original encoder:
 * Okumura's binary-tree longest match, taken greedily, with the 18 strings
 * that start in the ring's fill just before the first byte pre-inserted).
 *
 * Positions: the encoder works on the input prefixed by PAD = 18 fill bytes
 * (the ring bytes just before the start position), position q = input
 * offset + PAD. A match at q from q - dist is coded with the ring position
 * of its source, (start + q - PAD - dist) mod 4096; distances are at most
 * RELIC_LZSS_MAX_DISTANCE (4078), the original encoder's window.
 *
 *  FAST:   hash chains over 3-byte prefixes, 48 candidates, one step of
 *          lazy matching; fixed memory.
 *  GREEDY: binary trees (exact longest match, the closest on ties), greedy.
 *  BEST:   the same match finder, then an optimal parse: every position's
 *          longest match is known and a match costs 17 bits whatever its
 *          length, a literal 9, so a shortest path over positions gives the
 *          fewest bits; GREEDY's parse is one of the paths, hence BEST is
 *          never longer (the flag bytes add ceil(items / 8), see the proof
 *          in tests/test_lzss.c). */
#include <stdlib.h>

#include "relic_lzss.h"

#define PAD RELIC_LZSS_MAX_MATCH
#define RING_MASK (RELIC_LZSS_RING - 1u)
#define NIL (-1)
#define LIT_BITS 9u
#define MATCH_BITS 17u
#define FAST_HASH_BITS 14
#define FAST_DEPTH 48

/* ---- the item writer: flag byte + up to 8 items ---- */

typedef struct emitter {
    relic_buf *out;
    size_t flag_pos;
    unsigned nitems;   /* items in the current group (8 = full or none yet) */
    unsigned start;
} emitter;

static void emit_item(emitter *e, int literal, const uint8_t *bytes, unsigned nbytes)
{
    if (e->nitems == 8) {
        e->flag_pos = e->out->size;
        relic_buf_extend(e->out, 1);
        e->nitems = 0;
    }
    if (literal && !e->out->failed) e->out->data[e->flag_pos] |= (uint8_t)(1u << e->nitems);
    e->nitems++;
    relic_buf_append(e->out, bytes, nbytes);
}

static void emit_literal(emitter *e, uint8_t c) { emit_item(e, 1, &c, 1); }

/* a match of len bytes at input offset i, from dist bytes back */
static void emit_match(emitter *e, size_t i, size_t dist, unsigned len)
{
    unsigned p = (unsigned)((e->start + i - dist) & RING_MASK);
    uint8_t b[2] = { (uint8_t)(p & 0xFFu), (uint8_t)(((p >> 4) & 0xF0u) | (len - RELIC_LZSS_MIN_MATCH)) };
    emit_item(e, 0, b, 2);
}

/* ---- the padded input ---- */

typedef struct input {
    const uint8_t *src;
    size_t n;        /* input bytes */
    size_t end;      /* n + PAD: one past the last position */
    uint8_t fill;
} input;

static inline uint8_t byte_at(const input *in, size_t q) { return q < PAD ? in->fill : in->src[q - PAD]; }

/* length of the common prefix of the strings at a < b, at most limit, from len on */
static inline unsigned common(const input *in, size_t a, size_t b, unsigned len, unsigned limit)
{
    if (a >= PAD) {
        const uint8_t *x = in->src + (a - PAD), *y = in->src + (b - PAD);
        while (len < limit && x[len] == y[len]) len++;
    } else {
        while (len < limit && byte_at(in, a + len) == byte_at(in, b + len)) len++;
    }
    return len;
}

static inline unsigned limit_at(const input *in, size_t q)
{
    size_t rest = in->end - q;
    return rest < RELIC_LZSS_MAX_MATCH ? (unsigned)rest : RELIC_LZSS_MAX_MATCH;
}

/* Every candidate in the window, for the last positions (and tiny inputs)
 * where the trees' fixed 18-byte comparisons would pass the end. */
static unsigned brute_match(const input *in, size_t q, size_t *dist)
{
    unsigned limit = limit_at(in, q), best = 0;
    size_t lo = q > RELIC_LZSS_MAX_DISTANCE ? q - RELIC_LZSS_MAX_DISTANCE : 0;
    for (size_t c = q; c-- > lo;) {
        unsigned l = common(in, c, q, 0, limit);
        if (l > best) { best = l; *dist = q - c; if (l == limit) break; }
    }
    return best;
}

/* ---- binary-tree match finder (GREEDY, BEST) ----
 * One tree per 2-byte prefix. A new position becomes the root of its tree
 * and the old tree is split around it, so every node is newer than its
 * descendants: the walk stops at the first node outside the window. */

typedef struct bt {
    int32_t head[1 << 16];
    int32_t left[RELIC_LZSS_RING], right[RELIC_LZSS_RING];
} bt;

static unsigned bt_insert(bt *t, const input *in, size_t q, size_t *dist)
{
    unsigned h = (unsigned)byte_at(in, q) << 8 | byte_at(in, q + 1);
    int32_t cur = t->head[h];
    t->head[h] = (int32_t)q;
    int32_t *pl = &t->left[q & RING_MASK], *pr = &t->right[q & RING_MASK];
    unsigned len_l = 0, len_r = 0, best = 0;
    while (cur != NIL && q - (size_t)cur <= RELIC_LZSS_MAX_DISTANCE) {
        size_t c = (size_t)cur;
        unsigned len = common(in, c, q, len_l < len_r ? len_l : len_r, RELIC_LZSS_MAX_MATCH);
        if (len > best) { best = len; *dist = q - c; }
        if (len == RELIC_LZSS_MAX_MATCH) {
            /* the same 18 bytes: the new position replaces the old one */
            *pl = t->left[c & RING_MASK];
            *pr = t->right[c & RING_MASK];
            return best;
        }
        if (byte_at(in, c + len) < byte_at(in, q + len)) {
            *pl = cur;
            pl = &t->right[c & RING_MASK];
            cur = *pl;
            len_l = len;
        } else {
            *pr = cur;
            pr = &t->left[c & RING_MASK];
            cur = *pr;
            len_r = len;
        }
    }
    *pl = *pr = NIL;
    return best;
}

/* Longest match at q (0 when none of at least 3 bytes), inserting q. */
static unsigned bt_match(bt *t, const input *in, size_t q, size_t *dist)
{
    unsigned len;
    if (in->end - q < RELIC_LZSS_MAX_MATCH) len = brute_match(in, q, dist);
    else len = bt_insert(t, in, q, dist);
    return len >= RELIC_LZSS_MIN_MATCH ? len : 0;
}

static relic_status encode_tree(const input *in, int optimal, relic_arena *a, emitter *e, relic_error *err)
{
    bt *t = relic_arena_alloc(a, sizeof *t, 8);
    if (!t) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the LZSS match finder");
    for (size_t k = 0; k < sizeof t->head / sizeof t->head[0]; k++) t->head[k] = NIL;
    size_t dist = 0;
    /* the strings starting in the fill, as the original encoder inserts them */
    for (size_t q = 0; q < PAD; q++)
        if (in->end - q >= RELIC_LZSS_MAX_MATCH) (void)bt_insert(t, in, q, &dist);

    if (!optimal) {
        size_t q = PAD;
        while (q < in->end) {
            unsigned len = bt_match(t, in, q, &dist);
            if (len == 0) {
                emit_literal(e, in->src[q - PAD]);
                q++;
                continue;
            }
            emit_match(e, q - PAD, dist, len);
            for (size_t k = 1; k < len; k++)
                if (in->end - (q + k) >= RELIC_LZSS_MAX_MATCH) (void)bt_insert(t, in, q + k, &dist);
            q += len;
        }
        return RELIC_OK;
    }

    /* optimal parse: forward shortest path, costs of the next 19 positions in a ring */
    size_t n = in->n;
    uint8_t *step = relic_arena_alloc(a, n + 1, 1);      /* length of the item ending at i */
    uint16_t *mdist = relic_arena_array(a, n + 1, sizeof *mdist, 2); /* distance of the match at i */
    if (!step || !mdist) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the LZSS optimal parse (%zu bytes of input)", n);
    uint64_t cost[RELIC_LZSS_MAX_MATCH + 1];
    for (unsigned k = 0; k <= RELIC_LZSS_MAX_MATCH; k++) cost[k] = UINT64_MAX;
    cost[0] = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t here = cost[i % (RELIC_LZSS_MAX_MATCH + 1)];
        cost[i % (RELIC_LZSS_MAX_MATCH + 1)] = UINT64_MAX;
        unsigned len = bt_match(t, in, i + PAD, &dist);
        mdist[i] = (uint16_t)dist;
        uint64_t *next = &cost[(i + 1) % (RELIC_LZSS_MAX_MATCH + 1)];
        if (here + LIT_BITS < *next) { *next = here + LIT_BITS; step[i + 1] = 1; }
        for (unsigned l = RELIC_LZSS_MIN_MATCH; l <= len; l++) {
            uint64_t *c = &cost[(i + l) % (RELIC_LZSS_MAX_MATCH + 1)];
            if (here + MATCH_BITS < *c) { *c = here + MATCH_BITS; step[i + l] = (uint8_t)l; }
        }
    }
    /* turn the backward chain of item ends into forward item lengths */
    size_t pos = n;
    uint8_t carry = 0;
    while (pos > 0) {
        uint8_t l = step[pos];
        if (pos != n) step[pos] = carry;
        carry = l;
        pos -= l;
    }
    if (n) step[0] = carry;
    for (pos = 0; pos < n;) {
        uint8_t l = step[pos];
        if (l == 1) emit_literal(e, in->src[pos]);
        else emit_match(e, pos, mdist[pos], l);
        pos += l;
    }
    return RELIC_OK;
}

/* ---- hash-chain encoder (FAST) ---- */

typedef struct hc {
    int32_t head[1 << FAST_HASH_BITS];
    int32_t prev[RELIC_LZSS_RING];
} hc;

static inline unsigned hc_hash(const uint8_t *p)
{
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
    return (v * 2654435761u) >> (32 - FAST_HASH_BITS);
}

static void hc_insert(hc *h, const input *in, size_t i)
{
    if (in->n - i < RELIC_LZSS_MIN_MATCH) return;
    unsigned k = hc_hash(in->src + i);
    h->prev[i & RING_MASK] = h->head[k];
    h->head[k] = (int32_t)i;
}

/* longest match at input offset i among FAST_DEPTH candidates (0 when < 3) */
static unsigned hc_find(const hc *h, const input *in, size_t i, size_t *dist)
{
    size_t rest = in->n - i;
    unsigned limit = rest < RELIC_LZSS_MAX_MATCH ? (unsigned)rest : RELIC_LZSS_MAX_MATCH, best = 0;
    if (limit < RELIC_LZSS_MIN_MATCH) return 0;
    const uint8_t *p = in->src + i;
    /* a run of fill bytes near the start can come from the ring's fill */
    if (i + PAD <= RELIC_LZSS_MAX_DISTANCE) {
        unsigned l = 0;
        while (l < limit && p[l] == in->fill) l++;
        if (l >= RELIC_LZSS_MIN_MATCH) { best = l; *dist = i + PAD; }
    }
    int32_t cur = h->head[hc_hash(p)];
    for (int depth = 0; cur != NIL && depth < FAST_DEPTH && best < limit; depth++) {
        size_t c = (size_t)cur;
        if (c >= i || i - c > RELIC_LZSS_MAX_DISTANCE) break;
        const uint8_t *s = in->src + c;
        if (s[best] == p[best]) {
            unsigned l = 0;
            while (l < limit && s[l] == p[l]) l++;
            if (l > best) { best = l; *dist = i - c; }
        }
        int32_t nx = h->prev[c & RING_MASK];
        if (nx != NIL && (size_t)nx >= c) break;   /* the slot was reused: chain ends */
        cur = nx;
    }
    return best >= RELIC_LZSS_MIN_MATCH ? best : 0;
}

static relic_status encode_fast(const input *in, relic_arena *a, emitter *e, relic_error *err)
{
    hc *h = relic_arena_alloc(a, sizeof *h, 8);
    if (!h) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the LZSS hash chains");
    for (size_t k = 0; k < sizeof h->head / sizeof h->head[0]; k++) h->head[k] = NIL;
    for (size_t k = 0; k < RELIC_LZSS_RING; k++) h->prev[k] = NIL;
    size_t i = 0, n = in->n, dist = 0, dist2 = 0;
    unsigned len = n ? hc_find(h, in, 0, &dist) : 0;
    while (i < n) {
        if (len == 0) {
            emit_literal(e, in->src[i]);
            hc_insert(h, in, i);
            i++;
            if (i < n) len = hc_find(h, in, i, &dist);
            continue;
        }
        /* lazy: a longer match one byte on wins over this one */
        hc_insert(h, in, i);
        unsigned len2 = (len < RELIC_LZSS_MAX_MATCH && i + 1 < n) ? hc_find(h, in, i + 1, &dist2) : 0;
        if (len2 > len) {
            emit_literal(e, in->src[i]);
            i++;
            len = len2;
            dist = dist2;
            continue;
        }
        emit_match(e, i, dist, len);
        for (size_t k = 1; k < len; k++) hc_insert(h, in, i + k);
        i += len;
        len = i < n ? hc_find(h, in, i, &dist) : 0;
    }
    return RELIC_OK;
}

relic_status relic_lzss_encode(relic_lzss_variant v, relic_lzss_level level, const uint8_t *src, size_t n,
                               relic_arena *scratch, relic_buf *out, relic_error *err)
{
    if (level != RELIC_LZSS_FAST && level != RELIC_LZSS_GREEDY && level != RELIC_LZSS_BEST)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "unknown LZSS level %d", (int)level);
    if ((uint64_t)n > RELIC_LZSS_MAX_INPUT)
        return relic_fail(err, RELIC_E_LIMIT, 0, "", "%zu bytes are more than the LZSS encoders take (%llu)", n,
                          (unsigned long long)RELIC_LZSS_MAX_INPUT);
    if (!scratch || !out) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "no scratch arena or output buffer");
    relic_arena *a = scratch;
    input in = { src, n, n + PAD, relic_lzss_fill(v) };
    emitter e = { out, 0, 8, relic_lzss_start(v) };
    relic_status st = level == RELIC_LZSS_FAST ? encode_fast(&in, a, &e, err)
                                                : encode_tree(&in, level == RELIC_LZSS_BEST, a, &e, err);
    if (st == RELIC_OK && out->failed) st = relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot grow the LZSS output");
    return st;
}
