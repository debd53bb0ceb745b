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
 *          in tests/test_lzss.c).
 *
 * Streaming (relic_stream.h): FAST and GREEDY code a position only when
 * LOOK bytes follow it in the window, or the input has ended, so every
 * decision sees the same bytes whatever the chunking; the one-call
 * relic_lzss_encode runs the same coding loops once over the caller's
 * input in place. BEST's parse is global: the stream gathers the input and
 * codes it at FINISH. */
#include <stddef.h>

#include "relic_lzss.h"

#define PAD RELIC_LZSS_MAX_MATCH
#define RING_MASK (RELIC_LZSS_RING - 1u)
#define NIL (-1)
#define LIT_BITS 9u
#define MATCH_BITS 17u
#define FAST_HASH_BITS 14
#define FAST_DEPTH 48
/* Bytes a coding step may read past its position: a match (18), then the
 * inserts or the next search it triggers (18), and one lazy step. */
#define LOOK 40u
/* History kept in the window before the position: matches reach 4078 back. */
#define HIST RELIC_LZSS_RING
#define WIN_SIZE ((size_t)64 * 1024)
#define PEND_SIZE ((size_t)4096)
/* The most bytes one item adds to the output: a new flag byte and a match. */
#define ITEM_MAX 3u

/* ---- the item writer: flag byte + up to 8 items ---- */

typedef struct emitter {
    relic_buf *out;
    size_t flag_pos;
    unsigned nitems; /* items in the current group (8 = full or none yet) */
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
    uint8_t b[2] = {(uint8_t)(p & 0xFFu), (uint8_t)(((p >> 4) & 0xF0u) | (len - RELIC_LZSS_MIN_MATCH))};
    emit_item(e, 0, b, 2);
}

/* ---- the padded input ---- */

typedef struct input {
    const uint8_t *src; /* src[k] holds input offset base + k */
    size_t base;
    size_t n;   /* input bytes known so far (all of them once the input has ended) */
    size_t end; /* n + PAD: one past the last position */
    uint8_t fill;
} input;

/* the byte at input offset i (base <= i < n) */
static inline const uint8_t *at(const input *in, size_t i) { return in->src + (i - in->base); }
static inline uint8_t byte_at(const input *in, size_t q) { return q < PAD ? in->fill : *at(in, q - PAD); }

/* length of the common prefix of the strings at a < b, at most limit, from len on */
static inline unsigned common(const input *in, size_t a, size_t b, unsigned len, unsigned limit)
{
    if (a >= PAD) {
        const uint8_t *x = at(in, a - PAD), *y = at(in, b - PAD);
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
        if (l > best) {
            best = l;
            *dist = q - c;
            if (l == limit) break;
        }
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
        if (len > best) {
            best = len;
            *dist = q - c;
        }
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


static void bt_reset(bt *t)
{
    for (size_t k = 0; k < sizeof t->head / sizeof t->head[0]; k++) t->head[k] = NIL;
}

/* the strings starting in the fill, as the original encoder inserts them */
static void bt_insert_fill(bt *t, const input *in)
{
    size_t dist = 0;
    for (size_t q = 0; q < PAD; q++)
        if (in->end - q >= RELIC_LZSS_MAX_MATCH) (void)bt_insert(t, in, q, &dist);
}

/* BEST: the optimal parse of the whole input in (base 0), emitted to e. */
static relic_status encode_best(const input *in, relic_arena *a, emitter *e, relic_error *err)
{
    bt *t = relic_arena_alloc(a, sizeof *t, 8);
    if (!t) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the LZSS match finder");
    bt_reset(t);
    bt_insert_fill(t, in);
    size_t dist = 0;
    /* forward shortest path, costs of the next 19 positions in a ring */
    size_t n = in->n;
    uint8_t *step = relic_arena_alloc(a, n + 1, 1);                  /* length of the item ending at i */
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
        if (here + LIT_BITS < *next) {
            *next = here + LIT_BITS;
            step[i + 1] = 1;
        }
        for (unsigned l = RELIC_LZSS_MIN_MATCH; l <= len; l++) {
            uint64_t *c = &cost[(i + l) % (RELIC_LZSS_MAX_MATCH + 1)];
            if (here + MATCH_BITS < *c) {
                *c = here + MATCH_BITS;
                step[i + l] = (uint8_t)l;
            }
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
        if (l == 1) emit_literal(e, *at(in, pos));
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
    unsigned k = hc_hash(at(in, i));
    h->prev[i & RING_MASK] = h->head[k];
    h->head[k] = (int32_t)i;
}

/* longest match at input offset i among FAST_DEPTH candidates (0 when < 3) */
static unsigned hc_find(const hc *h, const input *in, size_t i, size_t *dist)
{
    size_t rest = in->n - i;
    unsigned limit = rest < RELIC_LZSS_MAX_MATCH ? (unsigned)rest : RELIC_LZSS_MAX_MATCH, best = 0;
    if (limit < RELIC_LZSS_MIN_MATCH) return 0;
    const uint8_t *p = at(in, i);
    /* a run of fill bytes near the start can come from the ring's fill */
    if (i + PAD <= RELIC_LZSS_MAX_DISTANCE) {
        unsigned l = 0;
        while (l < limit && p[l] == in->fill) l++;
        if (l >= RELIC_LZSS_MIN_MATCH) {
            best = l;
            *dist = i + PAD;
        }
    }
    int32_t cur = h->head[hc_hash(p)];
    for (int depth = 0; cur != NIL && depth < FAST_DEPTH && best < limit; depth++) {
        size_t c = (size_t)cur;
        if (c >= i || i - c > RELIC_LZSS_MAX_DISTANCE) break;
        const uint8_t *s = at(in, c);
        if (s[best] == p[best]) {
            unsigned l = 0;
            while (l < limit && s[l] == p[l]) l++;
            if (l > best) {
                best = l;
                *dist = i - c;
            }
        }
        int32_t nx = h->prev[c & RING_MASK];
        if (nx != NIL && (size_t)nx >= c) break; /* the slot was reused: chain ends */
        cur = nx;
    }
    return best >= RELIC_LZSS_MIN_MATCH ? best : 0;
}


/* ---- the streaming encoder ---- */

typedef struct lzss_enc {
    relic_lzss_level level;
    input in; /* the window: in.src = win */
    uint8_t *win;
    size_t have;  /* bytes held in win */
    int final;    /* the input has ended: in.n is its length */
    int started;  /* the first step's set-up is done */
    int finished; /* every item has been emitted */
    int direct;   /* one-call form: in is the caller's whole input, e appends to the caller's buffer */
    size_t pos;   /* next input offset to code */
    unsigned len; /* FAST: longest match at pos (found ahead) */
    size_t dist;
    bt *t;           /* GREEDY */
    hc *h;           /* FAST */
    emitter e;       /* items go to q (FAST, GREEDY) or res (BEST) */
    relic_buf q;     /* output queue over pend[] */
    size_t q_pos;    /* bytes of q delivered */
    uint64_t expect; /* container: input length the header declared; UINT64_MAX when none */
    relic_arena *a;
    relic_buf all; /* BEST: the whole input */
    relic_buf res; /* BEST: the whole output */
    size_t res_pos;
    uint8_t pend[PEND_SIZE];
} lzss_enc;

/* a position may be coded: LOOK bytes follow it, or the input has ended */
static inline int ready(const lzss_enc *z, size_t pos) { return z->final || z->in.n - pos >= LOOK; }

/* One past the last position that may be coded now. */
static inline size_t ready_end(const lzss_enc *z)
{
    if (z->final) return z->in.n;
    return z->in.n >= LOOK ? z->in.n - LOOK + 1 : 0;
}

/* Items that surely fit the output queue (each adds at most ITEM_MAX bytes). */
static inline size_t item_budget(const lzss_enc *z)
{
    return z->direct ? SIZE_MAX : (z->q.cap - z->q.size) / ITEM_MAX;
}

/* The coding loops work on local copies of the window and the emitter: the
 * queue's appends are calls the compiler cannot see through, and state in
 * the arena would be reloaded after each of them. */
static void greedy_steps(lzss_enc *z)
{
    const input in = z->in;
    if (!z->started) {
        if (!ready(z, 0)) return;
        bt_insert_fill(z->t, &in);
        z->started = 1;
    }
    emitter e = z->e;
    bt *t = z->t;
    const size_t stop = ready_end(z) + PAD;
    size_t budget = item_budget(z);
    size_t q = z->pos + PAD, dist = 0;
    for (; q < stop && budget; budget--) {
        unsigned len = bt_match(t, &in, q, &dist);
        if (len == 0) {
            emit_literal(&e, byte_at(&in, q));
            q++;
            continue;
        }
        emit_match(&e, q - PAD, dist, len);
        for (size_t k = 1; k < len; k++)
            if (in.end - (q + k) >= RELIC_LZSS_MAX_MATCH) (void)bt_insert(t, &in, q + k, &dist);
        q += len;
    }
    z->e = e;
    z->pos = q - PAD;
}

static void fast_steps(lzss_enc *z)
{
    const input in = z->in;
    hc *h = z->h;
    const size_t n = in.n;
    if (!z->started) {
        if (!ready(z, 0)) return;
        z->len = n ? hc_find(h, &in, 0, &z->dist) : 0;
        z->started = 1;
    }
    emitter e = z->e;
    const size_t stop = ready_end(z);
    size_t budget = item_budget(z);
    size_t i = z->pos, dist = z->dist, dist2 = 0;
    unsigned len = z->len;
    for (; i < stop && budget; budget--) {
        if (len == 0) {
            emit_literal(&e, *at(&in, i));
            hc_insert(h, &in, i);
            i++;
            if (i < n) len = hc_find(h, &in, i, &dist);
            continue;
        }
        /* lazy: a longer match one byte on wins over this one */
        hc_insert(h, &in, i);
        unsigned len2 = (len < RELIC_LZSS_MAX_MATCH && i + 1 < n) ? hc_find(h, &in, i + 1, &dist2) : 0;
        if (len2 > len) {
            emit_literal(&e, *at(&in, i));
            i++;
            len = len2;
            dist = dist2;
            continue;
        }
        emit_match(&e, i, dist, len);
        for (size_t k = 1; k < len; k++) hc_insert(h, &in, i + k);
        i += len;
        len = i < n ? hc_find(h, &in, i, &dist) : 0;
    }
    z->e = e;
    z->pos = i;
    z->len = len;
    z->dist = dist;
}

/* Drop window bytes no step will read again (more than HIST before pos). */
static void slide(lzss_enc *z)
{
    size_t keep_from = z->pos > HIST ? z->pos - HIST : 0;
    if (keep_from <= z->in.base) return;
    size_t drop = keep_from - z->in.base;
    memmove(z->win, z->win + drop, z->have - drop);
    z->have -= drop;
    z->in.base += drop;
}

/* Hand the queue's finished bytes to the caller (the current flag group
 * stays until its flag byte is final), then move the rest to the front. */
static void drain(relic_stream *s, lzss_enc *z)
{
    size_t done = z->finished || z->e.nitems == 8 ? z->q.size : z->e.flag_pos;
    relic_stream_deliver(s, z->q.data, &z->q_pos, done);
    if (z->q_pos == 0) return;
    memmove(z->q.data, z->q.data + z->q_pos, z->q.size - z->q_pos);
    z->q.size -= z->q_pos;
    if (z->e.nitems < 8) z->e.flag_pos -= z->q_pos;
    z->q_pos = 0;
}

/* Take input: into the window (FAST, GREEDY) or the whole-input buffer (BEST). */
static relic_stream_status take_input(relic_stream *s, lzss_enc *z, relic_error *err)
{
    if (z->final) {
        relic_fail(err, RELIC_E_ARGUMENT, s->total_in, "", "LZSS encoder: input given after FINISH");
        return RELIC_STREAM_ERROR;
    }
    size_t k = s->avail_in;
    if (z->level != RELIC_LZSS_BEST) {
        if (z->have == WIN_SIZE) slide(z);
        if (k > WIN_SIZE - z->have) k = WIN_SIZE - z->have;
    }
    if (s->total_in + k > RELIC_LZSS_MAX_INPUT) {
        relic_fail(err, RELIC_E_LIMIT, s->total_in, "", "more than %llu bytes: the LZSS encoders' limit",
                   (unsigned long long)RELIC_LZSS_MAX_INPUT);
        return RELIC_STREAM_ERROR;
    }
    if (s->total_in + k > z->expect) {
        relic_fail(err, RELIC_E_LAYOUT, z->expect, "", "the input holds more than the %llu bytes the header declares",
                   (unsigned long long)z->expect);
        return RELIC_STREAM_ERROR;
    }
    if (z->level == RELIC_LZSS_BEST) {
        relic_buf_append(&z->all, s->next_in, k);
        if (z->all.failed) {
            relic_fail(err, RELIC_E_NOMEM, s->total_in, "", "no arena room to gather the input for the optimal parse");
            return RELIC_STREAM_ERROR;
        }
    } else {
        memcpy(z->win + z->have, s->next_in, k);
        z->have += k;
        z->in.n = z->in.base + z->have;
        z->in.end = z->in.n + PAD;
    }
    s->next_in += k;
    s->avail_in -= k;
    s->total_in += k;
    return RELIC_STREAM_NEED_INPUT; /* anything but an error */
}

static relic_stream_status enc_run(relic_stream *s, relic_stream_flush flush, relic_error *err)
{
    lzss_enc *z = s->state;
    for (;;) {
        drain(s, z);
        if (z->finished) {
            if (z->q.size) return RELIC_STREAM_NEED_OUTPUT;
            if (z->level == RELIC_LZSS_BEST && !relic_stream_deliver(s, z->res.data, &z->res_pos, z->res.size))
                return RELIC_STREAM_NEED_OUTPUT;
            return RELIC_STREAM_DONE;
        }
        if (s->avail_in && take_input(s, z, err) == RELIC_STREAM_ERROR) return RELIC_STREAM_ERROR;
        if (!s->avail_in && flush == RELIC_STREAM_FINISH && !z->final) {
            if (z->expect != UINT64_MAX && s->total_in != z->expect) {
                relic_fail(err, RELIC_E_LAYOUT, s->total_in, "", "the input holds %llu bytes, the header declares %llu",
                           (unsigned long long)s->total_in, (unsigned long long)z->expect);
                return RELIC_STREAM_ERROR;
            }
            z->final = 1;
        }
        if (z->level == RELIC_LZSS_BEST) {
            if (!z->final) return RELIC_STREAM_NEED_INPUT;
            if (z->q.size) { /* the container header goes first */
                if (s->avail_out == 0) return RELIC_STREAM_NEED_OUTPUT;
                continue;
            }
            input whole = {z->all.data, 0, z->all.size, z->all.size + PAD, z->in.fill};
            z->e.out = &z->res;
            if (encode_best(&whole, z->a, &z->e, err) != RELIC_OK) return RELIC_STREAM_ERROR;
            if (z->res.failed) {
                relic_fail(err, RELIC_E_NOMEM, s->total_in, "", "no arena room for the LZSS output");
                return RELIC_STREAM_ERROR;
            }
            z->finished = 1;
            continue;
        }
        size_t before = z->pos;
        int was_started = z->started;
        if (z->level == RELIC_LZSS_FAST) fast_steps(z);
        else greedy_steps(z);
        if (z->final && z->pos >= z->in.n) {
            z->finished = 1;
            continue;
        }
        if (z->pos != before || z->started != was_started) continue;
        if (item_budget(z) == 0) {
            if (s->avail_out == 0) return RELIC_STREAM_NEED_OUTPUT;
            continue;
        }
        if (s->avail_in || z->final) continue;
        if (flush == RELIC_STREAM_FINISH) continue;
        return RELIC_STREAM_NEED_INPUT;
    }
}

static const relic_stream_codec lzss_encode_codec = {"lzss encode", enc_run, NULL};

/* Set up an encoder; expect is the container's declared size (UINT64_MAX when none). */
static relic_status enc_init(relic_stream *s, relic_lzss_variant v, relic_lzss_level level, uint64_t expect,
                             int direct, relic_arena *a, lzss_enc **out, relic_error *err)
{
    if (level != RELIC_LZSS_FAST && level != RELIC_LZSS_GREEDY && level != RELIC_LZSS_BEST)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "unknown LZSS level %d", (int)level);
    if (!a) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "no arena for the LZSS encoder");
    lzss_enc *z = relic_arena_alloc(a, sizeof *z, 16);
    if (!z) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no arena room for the LZSS encoder");
    memset(z, 0, offsetof(lzss_enc, pend));
    z->level = level;
    z->expect = expect;
    z->a = a;
    z->in.fill = relic_lzss_fill(v);
    z->in.end = PAD;
    relic_buf_init_fixed(&z->q, z->pend, sizeof z->pend);
    z->e.out = &z->q;
    z->e.nitems = 8;
    z->e.start = relic_lzss_start(v);
    if (level == RELIC_LZSS_BEST) {
        relic_buf_init_arena(&z->all, a, 0);
        relic_buf_init_arena(&z->res, a, 0);
    } else {
        z->win = direct ? NULL : relic_arena_alloc(a, WIN_SIZE, 16);
        if (level == RELIC_LZSS_FAST) {
            z->h = relic_arena_alloc(a, sizeof *z->h, 8);
            if (z->h) {
                for (size_t k = 0; k < sizeof z->h->head / sizeof z->h->head[0]; k++) z->h->head[k] = NIL;
                for (size_t k = 0; k < RELIC_LZSS_RING; k++) z->h->prev[k] = NIL;
            }
        } else {
            z->t = relic_arena_alloc(a, sizeof *z->t, 8);
            if (z->t) bt_reset(z->t);
        }
        if ((!direct && !z->win) || (!z->h && !z->t)) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no arena room for the LZSS encoder's window and match finder");
    }
    z->in.src = z->win;
    relic_stream_setup(s, &lzss_encode_codec, z);
    *out = z;
    return RELIC_OK;
}

relic_status relic_lzss_encode_init(relic_stream *s, relic_lzss_variant v, relic_lzss_level level, relic_arena *a,
                                    relic_error *err)
{
    lzss_enc *z;
    return enc_init(s, v, level, UINT64_MAX, 0, a, &z, err);
}

relic_status relic_lzss_container_encode_init(relic_stream *s, relic_lzss_variant v, relic_lzss_level level,
                                              uint8_t missing_char, uint64_t size, relic_arena *a, relic_error *err)
{
    if (size > UINT32_MAX)
        return relic_fail(err, RELIC_E_LIMIT, 0, "", "%llu bytes do not fit the container's 32-bit size",
                          (unsigned long long)size);
    lzss_enc *z;
    relic_status st = enc_init(s, v, level, size, 0, a, &z, err);
    if (st != RELIC_OK) return st;
    /* the header leads the output queue; the first item starts a new flag group after it */
    uint8_t h[RELIC_SZDD_HEADER_SIZE];
    size_t hn = relic_lzss_container_header(v, missing_char, (uint32_t)size, h);
    relic_buf_append(&z->q, h, hn);
    return RELIC_OK;
}

relic_status relic_lzss_encode(relic_lzss_variant v, relic_lzss_level level, const uint8_t *src, size_t n,
                               relic_arena *scratch, relic_buf *out, relic_error *err)
{
    if ((uint64_t)n > RELIC_LZSS_MAX_INPUT)
        return relic_fail(err, RELIC_E_LIMIT, 0, "", "%zu bytes are more than the LZSS encoders take (%llu)", n,
                          (unsigned long long)RELIC_LZSS_MAX_INPUT);
    if (!scratch || !out) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "no scratch arena or output buffer");
    if (level == RELIC_LZSS_BEST) {
        /* the stream's BEST gathers the input and then runs this same parse:
         * with the whole input at hand, run it on src and skip both copies */
        input whole = {src, 0, n, n + PAD, relic_lzss_fill(v)};
        emitter e = {out, 0, 8, relic_lzss_start(v)};
        relic_status st = encode_best(&whole, scratch, &e, err);
        if (st == RELIC_OK && out->failed) st = relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot grow the LZSS output");
        return st;
    }
    /* FAST, GREEDY: the stream's own coding loop, run once over the whole
     * input in place (it has ended, so every position is ready) and
     * appending to out: the stream's window and queue would only copy */
    relic_stream s;
    lzss_enc *z;
    relic_status st = enc_init(&s, v, level, UINT64_MAX, 1, scratch, &z, err);
    if (st != RELIC_OK) return st;
    z->direct = 1;
    z->final = 1;
    z->in.src = src;
    z->in.n = n;
    z->in.end = n + PAD;
    z->e.out = out;
    if (level == RELIC_LZSS_FAST) fast_steps(z);
    else greedy_steps(z);
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot grow the LZSS output");
    return RELIC_OK;
}
