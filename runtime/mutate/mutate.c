/* mutate.c — the structure-aware mutator (issue 8): walks a decoded model
 * through the tables relic-gen emits for each schema (relic_mutate.h),
 * changes one field, array or sub-structure, and writes the model back with
 * the generated writer, which recomputes every count, offset and size.
 * Value choices follow the schema: boundary values of the type, a
 * documented range's ends (and, in the invalid mode, one past them), enum
 * items that exist and ones that do not, flags bits inside and outside the
 * mask; arrays grow by duplicating or splicing an element and shrink by
 * removing one, together with the arrays sharing their count. Every array
 * on the path to a changed value is copied first, so the decoded input and
 * the second input are never modified. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "relic_gen.h"
#include "relic_mutate.h"
#include "mutate_arena.h"

#define MAX_TRIES 64
#define MAX_DEPTH 16

typedef struct mctx {
    const relic_mut_format *f;
    uint64_t rng;
    unsigned flags;
    relic_arena *a;
    uint8_t *root;
    const uint8_t *root2; /* the second input's model, or NULL */
    relic_mutate_result *res;
    int failed; /* out of memory */
} mctx;

static uint64_t rnd(mctx *c) { return relic_mutate_rand(&c->rng); }
static uint64_t below(mctx *c, uint64_t n) { return n ? rnd(c) % n : 0; }
static int chance(mctx *c, unsigned one_in) { return below(c, one_in) == 0; }
static int invalid_mode(const mctx *c) { return (c->flags & RELIC_MUTATE_INVALID) != 0; }

static relic_mutation *log_entry(mctx *c, const char *path, const char *op)
{
    relic_mutate_result *r = c->res;
    if (r->nlog >= RELIC_MUTATE_MAX_LOG) return NULL;
    relic_mutation *m = &r->log[r->nlog++];
    snprintf(m->path, sizeof m->path, "%s", path);
    snprintf(m->op, sizeof m->op, "%s", op);
    m->old_value[0] = m->new_value[0] = 0;
    return m;
}

/* ---- integers ---- */

static int64_t int_get(const uint8_t *p, unsigned size, int is_signed)
{
    switch (size) {
    case 1: {
        uint8_t v;
        memcpy(&v, p, 1);
        return is_signed ? (int64_t)(int8_t)v : (int64_t)v;
    }
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return is_signed ? (int64_t)(int16_t)v : (int64_t)v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return is_signed ? (int64_t)(int32_t)v : (int64_t)v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return (int64_t)v;
    }
    }
}

static void int_set(uint8_t *p, unsigned size, int64_t v)
{
    switch (size) {
    case 1: {
        uint8_t x = (uint8_t)v;
        memcpy(p, &x, 1);
        break;
    }
    case 2: {
        uint16_t x = (uint16_t)v;
        memcpy(p, &x, 2);
        break;
    }
    case 4: {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, 4);
        break;
    }
    default: {
        uint64_t x = (uint64_t)v;
        memcpy(p, &x, 8);
        break;
    }
    }
}

/* Whether v is representable in an integer of size bytes. */
static int int_fits(int64_t v, unsigned size, int is_signed)
{
    if (size >= 8) return 1;
    int bits = (int)size * 8;
    if (is_signed) return v >= -((int64_t)1 << (bits - 1)) && v < ((int64_t)1 << (bits - 1));
    return v >= 0 && v < ((int64_t)1 << bits);
}

static int64_t int_max(unsigned size, int is_signed)
{
    if (size >= 8) return is_signed ? INT64_MAX : -1; /* u64 max stored as all ones */
    return is_signed ? ((int64_t)1 << (size * 8 - 1)) - 1 : ((int64_t)1 << (size * 8)) - 1;
}
static int64_t int_min(unsigned size, int is_signed)
{
    if (!is_signed) return 0;
    return size >= 8 ? INT64_MIN : -((int64_t)1 << (size * 8 - 1));
}

static void int_text(char *b, size_t n, int64_t v, unsigned size, int is_signed)
{
    if (is_signed) snprintf(b, n, "%lld", (long long)v);
    else if (size >= 8) snprintf(b, n, "%llu", (unsigned long long)(uint64_t)v);
    else snprintf(b, n, "%lld", (long long)v);
}

static int in_values(const relic_mut_field *fd, int64_t v)
{
    for (uint32_t i = 0; i < fd->nvalues; i++)
        if (fd->values[i] == v) return 1;
    return 0;
}

/* A boundary or typical value of the field's type. */
static int64_t int_boundary(mctx *c, unsigned size, int sg, int64_t old)
{
    switch (below(c, 10)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return int_max(size, sg);
    case 3: return sg ? int_min(size, sg) : int_max(size, sg) - 1;
    case 4: return sg ? -1 : int_max(size, 1); /* -1, or the signed maximum of the width */
    case 5: return (int64_t)((uint64_t)old + 1 + below(c, 16));
    case 6: return (int64_t)((uint64_t)old - 1 - below(c, 16));
    case 7: {
        unsigned k = (unsigned)below(c, size * 8 - (sg ? 1 : 0));
        return (int64_t)((uint64_t)1 << k);
    }
    case 8: {
        unsigned k = (unsigned)below(c, size * 8 - (sg ? 1 : 0));
        return (int64_t)(((uint64_t)1 << k) - 1);
    }
    default: return (int64_t)rnd(c);
    }
}

/* New value for an integer: valid mode keeps to the documented set where
 * there is one; invalid mode steps just outside it. Returns 0 when it found
 * nothing representable. */
static int int_choose(mctx *c, const relic_mut_field *fd, int64_t old, int64_t *out)
{
    unsigned size = fd->size;
    int sg = (fd->flags & RELIC_MUTF_SIGNED) != 0;
    int closed = (fd->flags & RELIC_MUTF_CLOSED) != 0;
    int64_t v = old;
    for (int tries = 0; tries < 16; tries++) {
        if (invalid_mode(c) && (fd->flags & RELIC_MUTF_RANGE) && !chance(c, 4)) {
            v = chance(c, 2) ? relic_gen_sub(fd->lo, 1) : relic_gen_add(fd->hi, 1);
        } else if (invalid_mode(c) && (fd->flags & RELIC_MUTF_ENUM) && closed && !chance(c, 4)) {
            int64_t mx = fd->values[0], mn = fd->values[0];
            for (uint32_t i = 1; i < fd->nvalues; i++) {
                if (fd->values[i] > mx) mx = fd->values[i];
                if (fd->values[i] < mn) mn = fd->values[i];
            }
            int k = (int)below(c, 3);
            v = k == 0 ? mx + 1 : k == 1 ? mn - 1
                                         : (int64_t)below(c, (uint64_t)mx + 2);
            if (in_values(fd, v)) continue;
        } else if (invalid_mode(c) && (fd->flags & RELIC_MUTF_FLAGS) && closed && !chance(c, 4)) {
            uint64_t mask = 0;
            for (uint32_t i = 0; i < fd->nvalues; i++) mask |= (uint64_t)fd->values[i];
            int bits = (int)size * 8, start = (int)below(c, (uint64_t)bits), k;
            for (k = 0; k < bits; k++)
                if (!(mask & ((uint64_t)1 << ((start + k) % bits)))) break;
            if (k == bits) return 0;
            v = (int64_t)((uint64_t)old | ((uint64_t)1 << ((start + k) % bits)));
        } else if ((fd->flags & RELIC_MUTF_ENUM) && fd->nvalues && (closed || !chance(c, 3))) {
            v = fd->values[below(c, fd->nvalues)];
        } else if ((fd->flags & RELIC_MUTF_FLAGS) && fd->nvalues && (closed || !chance(c, 3))) {
            int k = (int)below(c, 4);
            if (k == 0) v = 0;
            else if (k == 1) {
                v = 0;
                for (uint32_t i = 0; i < fd->nvalues; i++) v |= fd->values[i];
            } else v = (int64_t)((uint64_t)old ^ (uint64_t)fd->values[below(c, fd->nvalues)]);
        } else if ((fd->flags & RELIC_MUTF_RANGE) && !chance(c, 8)) {
            int k = (int)below(c, 5);
            uint64_t span = (uint64_t)fd->hi - (uint64_t)fd->lo;
            v = k == 0 ? fd->lo : k == 1 ? fd->hi
                : k == 2                 ? relic_gen_add(fd->lo, 1)
                : k == 3                 ? relic_gen_sub(fd->hi, 1)
                                         : (int64_t)((uint64_t)fd->lo + (span == UINT64_MAX ? rnd(c) : below(c, span + 1)));
            if (v < fd->lo || v > fd->hi) v = fd->lo;
        } else {
            v = int_boundary(c, size, sg, old);
        }
        if (!int_fits(v, size, sg)) {
            if (size >= 8) continue;
            /* wrap into the width: still a boundary of the type */
            uint8_t tmp[8];
            int_set(tmp, size, v);
            v = int_get(tmp, size, sg);
        }
        if (v != old) {
            *out = v;
            return 1;
        }
    }
    return 0;
}

/* ---- floats ---- */

static double float_choose(mctx *c, const relic_mut_field *fd, double old)
{
    if ((fd->flags & RELIC_MUTF_RANGE) && !chance(c, 3)) {
        int k = (int)below(c, 3);
        if (invalid_mode(c))
            return k == 0 ? (double)fd->lo - 0.5 : k == 1 ? (double)fd->hi + 0.5
                                                          : (double)fd->hi * 2 + 1;
        return k == 0 ? (double)fd->lo : k == 1 ? (double)fd->hi
                                                : ((double)fd->lo + (double)fd->hi) / 2;
    }
    switch (below(c, 14)) {
    case 0: return 0.0;
    case 1: return -0.0;
    case 2: return 1.0;
    case 3: return -1.0;
    case 4: return NAN;
    case 5: return INFINITY;
    case 6: return -INFINITY;
    case 7: return fd->size == 4 ? FLT_MAX : DBL_MAX;
    case 8: return fd->size == 4 ? -FLT_MAX : -DBL_MAX;
    case 9: return fd->size == 4 ? FLT_MIN / 2 : DBL_MIN / 2; /* subnormal */
    case 10: return old * 2;
    case 11: return -old;
    case 12: return old + 1;
    default: return old / 2;
    }
}

/* ---- text and bytes ---- */

static void text_value(char *b, size_t n, const uint8_t *p, size_t len)
{
    size_t k = 0;
    for (size_t i = 0; i < len && k + 5 < n; i++) {
        unsigned ch = p[i];
        if (ch >= 0x20 && ch < 0x7F && ch != '\\') b[k++] = (char)ch;
        else k += (size_t)snprintf(b + k, n - k, "\\x%02X", ch);
    }
    b[k < n ? k : n - 1] = 0;
}

static uint8_t byte_choose(mctx *c, uint8_t old)
{
    static const uint8_t interesting[] = {0x00, 0x01, 0x7F, 0x80, 0xFF, 0x20, 0x41, 0x10};
    uint8_t v = chance(c, 2) ? interesting[below(c, sizeof interesting)] : (uint8_t)rnd(c);
    if (v == old) v ^= 0x01;
    return v;
}

/* Change one scalar element (of kind INT, FLOAT, BYTES or one CHAR) at p. */
static int mutate_scalar(mctx *c, const relic_mut_field *fd, uint8_t *p, const char *path)
{
    relic_mutation *m;
    if (fd->kind == RELIC_MUT_INT) {
        int sg = (fd->flags & RELIC_MUTF_SIGNED) != 0;
        int64_t old = int_get(p, fd->size, sg), v;
        if (!int_choose(c, fd, old, &v)) return 0;
        int_set(p, fd->size, v);
        if ((m = log_entry(c, path, "set"))) {
            int_text(m->old_value, sizeof m->old_value, old, fd->size, sg);
            int_text(m->new_value, sizeof m->new_value, v, fd->size, sg);
        }
        return 1;
    }
    if (fd->kind == RELIC_MUT_FLOAT) {
        double old, v;
        if (fd->size == 4) {
            float x;
            memcpy(&x, p, 4);
            old = x;
        } else memcpy(&old, p, 8);
        v = float_choose(c, fd, old);
        if (fd->size == 4) {
            float x = (float)v, o = (float)old;
            if (memcmp(&x, &o, 4) == 0) return 0;
            memcpy(p, &x, 4);
        } else {
            if (memcmp(&v, &old, 8) == 0) return 0;
            memcpy(p, &v, 8);
        }
        if ((m = log_entry(c, path, "set"))) {
            snprintf(m->old_value, sizeof m->old_value, "%.9g", old);
            snprintf(m->new_value, sizeof m->new_value, "%.9g", v);
        }
        return 1;
    }
    uint8_t old = *p, v = byte_choose(c, old);
    *p = v;
    if ((m = log_entry(c, path, "set"))) {
        snprintf(m->old_value, sizeof m->old_value, "%u", old);
        snprintf(m->new_value, sizeof m->new_value, "%u", v);
    }
    return 1;
}

/* A fixed char[N] as one value: change one byte, clear it, or fill it. */
static int mutate_text(mctx *c, const relic_mut_field *fd, uint8_t *p, const char *path)
{
    size_t n = fd->fixed;
    if (n == 0) return 0;
    uint8_t before[256];
    size_t keep = n < sizeof before ? n : sizeof before;
    memcpy(before, p, keep);
    /* bytes a text printer must escape or a reader must refuse: JSON's
     * quote, backslash and control characters, UTF-8 lead bytes alone */
    static const uint8_t escaped[] = {'"', '\\', '\n', '\t', 0x01, 0x1F, '/', 0xC3, 0xE2, 0xF0};
    switch (below(c, 6)) {
    case 0: memset(p, 0, n); break;
    case 1: memset(p, 'A', n); break; /* no terminator at full length */
    case 2: {
        size_t i = below(c, n);
        p[i] = (uint8_t)('a' + below(c, 26));
        break;
    }
    case 3: {
        size_t i = below(c, n);
        p[i] = 0xFF;
        break;
    }
    case 4: {
        size_t i = below(c, n);
        p[i] = escaped[below(c, sizeof escaped)];
        break;
    }
    default: {
        size_t i = below(c, n);
        p[i] = byte_choose(c, p[i]);
        break;
    }
    }
    if (memcmp(before, p, keep) == 0) return 0;
    relic_mutation *m = log_entry(c, path, "set");
    if (m) {
        text_value(m->old_value, sizeof m->old_value, before, keep);
        text_value(m->new_value, sizeof m->new_value, p, keep);
    }
    return 1;
}

/* ---- arrays ---- */

static size_t row_size(const relic_mut_field *fd) { return fd->elem_size * fd->fixed; }

/* Replace the array at base (field fd) by an arena copy with room for
 * `count` rows, the first `keep` copied; 1-byte elements get a NUL after. */
static uint8_t *array_realloc(mctx *c, uint8_t *base, const relic_mut_field *fd, size_t keep, size_t count)
{
    size_t row = row_size(fd);
    uint8_t *old;
    memcpy(&old, base + fd->offset, sizeof old);
    uint8_t *p = relic_arena_array(c->a, count + 1, row ? row : 1, 16);
    if (!p) {
        c->failed = 1;
        return NULL;
    }
    if (keep && old) memcpy(p, old, keep * row);
    memcpy(base + fd->offset, &p, sizeof p);
    size_t cnt = count;
    memcpy(base + fd->count_offset, &cnt, sizeof cnt);
    return p;
}

static size_t array_count(const uint8_t *base, const relic_mut_field *fd)
{
    size_t n;
    memcpy(&n, base + fd->count_offset, sizeof n);
    return n;
}
static uint8_t *array_ptr(const uint8_t *base, const relic_mut_field *fd)
{
    uint8_t *p;
    memcpy(&p, base + fd->offset, sizeof p);
    return p;
}

/* Copy-on-write of one variable array (so the input model stays intact). */
static uint8_t *array_own(mctx *c, uint8_t *base, const relic_mut_field *fd)
{
    size_t n = array_count(base, fd);
    return array_realloc(c, base, fd, n, n);
}

/* Set the count field of fd (when the schema names a plain integer). */
static int set_count_field(mctx *c, const relic_mut_struct *st, uint8_t *base, const relic_mut_field *fd, size_t n)
{
    if (!(fd->flags & RELIC_MUTF_COUNT_FIELD)) return 1;
    uint8_t *at = ((fd->flags & RELIC_MUTF_COUNT_IN_ROOT) ? c->root : base) + fd->count_field;
    (void)st;
    if (!int_fits((int64_t)n, fd->count_field_size, fd->count_field_signed) || n > (size_t)INT64_MAX) return 0;
    int_set(at, fd->count_field_size, (int64_t)n);
    return 1;
}

enum { OP_GROW_DUP,
       OP_GROW_SPLICE,
       OP_SHRINK,
       OP_SWAP,
       OP_REPLACE_SPLICE,
       OP_DOUBLE,
       OP_CLEAR,
       OP_WHOLE_SPLICE,
       OP_NOPS };

/* Apply an array operation to fd and every array of its group in st. */
static int array_op(mctx *c, const relic_mut_struct *st, uint8_t *base, const uint8_t *base2,
                    const relic_mut_field *fd, const char *path)
{
    size_t n = array_count(base, fd);
    int resize = (fd->flags & RELIC_MUTF_RESIZE) != 0;
    size_t n2 = base2 ? array_count(base2, fd) : 0;
    int op;
    if (c->flags & RELIC_MUTATE_CROSSOVER) {
        if (!n2) return 0;
        static const int splice_ops[] = {OP_GROW_SPLICE, OP_REPLACE_SPLICE, OP_WHOLE_SPLICE};
        op = splice_ops[below(c, 3)];
    } else {
        op = (int)below(c, OP_NOPS);
    }
    if ((op == OP_GROW_SPLICE || op == OP_REPLACE_SPLICE || op == OP_WHOLE_SPLICE) && !n2) op = OP_GROW_DUP;
    if (!resize && op != OP_SWAP && op != OP_REPLACE_SPLICE) op = n2 ? OP_REPLACE_SPLICE : OP_SWAP;
    if ((op == OP_SHRINK || op == OP_SWAP || op == OP_REPLACE_SPLICE || op == OP_CLEAR) && n == 0) {
        if (!resize) return 0;
        op = OP_GROW_DUP;
    }
    if (op == OP_DOUBLE && (n == 0 || n > (1u << 16))) op = OP_GROW_DUP;
    if (op == OP_SWAP && n < 2) return 0;
    size_t i = below(c, n + 1), j = n ? below(c, n) : 0, k2 = below(c, n2);
    size_t newn = n;
    switch (op) {
    case OP_GROW_DUP:
    case OP_GROW_SPLICE: newn = n + 1; break;
    case OP_SHRINK:
        newn = n - 1;
        i = j;
        break;
    case OP_DOUBLE: newn = 2 * n; break;
    case OP_CLEAR: newn = 0; break;
    case OP_WHOLE_SPLICE: newn = n2; break;
    default: break;
    }
    /* every array of the group (same count expression), fd included */
    for (uint32_t g = 0; g < st->nfields; g++) {
        const relic_mut_field *gf = &st->fields[g];
        if (!(gf->flags & RELIC_MUTF_VAR) || gf->group != fd->group) continue;
        size_t row = row_size(gf), gn = array_count(base, gf);
        if (gn != n) return 0; /* the group disagrees already: leave it */
        const uint8_t *src2 = base2 ? array_ptr(base2, gf) : NULL;
        if ((op == OP_GROW_SPLICE || op == OP_REPLACE_SPLICE || op == OP_WHOLE_SPLICE) &&
            (!src2 || array_count(base2, gf) != n2))
            return 0;
        uint8_t *old = array_ptr(base, gf);
        uint8_t *p = array_realloc(c, base, gf, 0, newn);
        if (!p) return 0;
        switch (op) {
        case OP_GROW_DUP:
        case OP_GROW_SPLICE:
            if (i) memcpy(p, old, i * row);
            if (op == OP_GROW_SPLICE) memcpy(p + i * row, src2 + k2 * row, row);
            else if (n) memcpy(p + i * row, old + j * row, row);
            if (n > i) memcpy(p + (i + 1) * row, old + i * row, (n - i) * row);
            break;
        case OP_SHRINK:
            if (i) memcpy(p, old, i * row);
            if (n > i + 1) memcpy(p + i * row, old + (i + 1) * row, (n - i - 1) * row);
            break;
        case OP_SWAP:
            memcpy(p, old, n * row);
            if (i == n) i = 0;
            if (i == j) j = (j + 1) % n;
            memcpy(p + i * row, old + j * row, row);
            memcpy(p + j * row, old + i * row, row);
            break;
        case OP_REPLACE_SPLICE:
            memcpy(p, old, n * row);
            memcpy(p + j * row, src2 + k2 * row, row);
            break;
        case OP_DOUBLE:
            memcpy(p, old, n * row);
            memcpy(p + n * row, old, n * row);
            break;
        case OP_WHOLE_SPLICE:
            if (n2) memcpy(p, src2, n2 * row);
            break;
        default: break;
        }
        if (!set_count_field(c, st, base, gf, newn)) return 0;
    }
    static const char *const names[] = {"grow", "grow-splice", "shrink", "swap", "splice", "double", "clear", "splice-all"};
    relic_mutation *m = log_entry(c, path, names[op]);
    if (m) {
        snprintf(m->old_value, sizeof m->old_value, "%zu elements", n);
        if (op == OP_SWAP) snprintf(m->new_value, sizeof m->new_value, "elements %zu and %zu swapped", i, j);
        else if (op == OP_REPLACE_SPLICE) snprintf(m->new_value, sizeof m->new_value, "element %zu from the second input's element %zu", j, k2);
        else if (op == OP_GROW_SPLICE) snprintf(m->new_value, sizeof m->new_value, "%zu elements (second input's element %zu at %zu)", newn, k2, i);
        else if (op == OP_GROW_DUP && n == 0) snprintf(m->new_value, sizeof m->new_value, "%zu elements (a zero element)", newn);
        else if (op == OP_GROW_DUP) snprintf(m->new_value, sizeof m->new_value, "%zu elements (element %zu copied to %zu)", newn, j, i);
        else if (op == OP_SHRINK) snprintf(m->new_value, sizeof m->new_value, "%zu elements (element %zu removed)", newn, i);
        else snprintf(m->new_value, sizeof m->new_value, "%zu elements", newn);
    }
    return 1;
}

/* ---- the walk ---- */

static int mutate_struct(mctx *c, const relic_mut_struct *st, uint8_t *base, const uint8_t *base2, char *path,
                         size_t plen, int depth);

/* Whether fd can be changed in the model at all (the writer recomputes
 * derived fields and writes constants as declared). */
static int changeable(const mctx *c, const relic_mut_field *fd)
{
    if (fd->flags & (RELIC_MUTF_DERIVED | RELIC_MUTF_CONST)) return 0;
    if ((c->flags & RELIC_MUTATE_CROSSOVER) && fd->kind != RELIC_MUT_STRUCT && !(fd->flags & RELIC_MUTF_VAR))
        return 0;
    return 1;
}

static void path_add(char *path, size_t plen, const char *fmt, const char *name, size_t i)
{
    size_t len = strlen(path);
    if (len < plen) snprintf(path + len, plen - len, fmt, name, i);
}

/* Change element k (of the fixed dimensions) of a value at p. */
static int mutate_element(mctx *c, const relic_mut_field *fd, uint8_t *p, const uint8_t *p2, char *path, size_t plen,
                          int depth)
{
    if (fd->kind == RELIC_MUT_STRUCT) {
        const relic_mut_struct *sub = &c->f->structs[fd->stype];
        if (p2 && (chance(c, 4) || (c->flags & RELIC_MUTATE_CROSSOVER))) {
            if (memcmp(p, p2, fd->elem_size) == 0) return 0;
            memcpy(p, p2, fd->elem_size);
            relic_mutation *m = log_entry(c, path, "splice");
            if (m) {
                snprintf(m->old_value, sizeof m->old_value, "%s", sub->name);
                snprintf(m->new_value, sizeof m->new_value, "the second input's %s", sub->name);
            }
            return 1;
        }
        size_t len = strlen(path);
        if (len + 1 < plen) {
            path[len] = '.';
            path[len + 1] = 0;
        }
        return mutate_struct(c, sub, p, p2, path, plen, depth + 1);
    }
    return mutate_scalar(c, fd, p, path);
}

static int mutate_field(mctx *c, const relic_mut_struct *st, const relic_mut_field *fd, uint8_t *base,
                        const uint8_t *base2, char *path, size_t plen, int depth)
{
    path_add(path, plen, "%s", fd->name, 0);
    if (fd->flags & RELIC_MUTF_VAR) {
        size_t n = array_count(base, fd);
        int elementwise = n > 0 && !(c->flags & RELIC_MUTATE_CROSSOVER) ? !chance(c, 3) : chance(c, 3) && n > 0;
        if (!elementwise) return array_op(c, st, base, base2, fd, path);
        uint8_t *p = array_own(c, base, fd);
        if (!p) return 0;
        size_t i = below(c, n), row = row_size(fd);
        const uint8_t *p2 = NULL;
        if (base2) {
            size_t n2 = array_count(base2, fd);
            if (n2) p2 = array_ptr(base2, fd) + below(c, n2) * row;
        }
        path_add(path, plen, "%s[%zu]", "", i);
        uint8_t *e = p + i * row;
        if (fd->kind == RELIC_MUT_CHAR && fd->fixed > 1) return mutate_text(c, fd, e, path);
        size_t k = below(c, fd->fixed);
        if (fd->fixed > 1) path_add(path, plen, "%s[%zu]", "", k);
        return mutate_element(c, fd, e + k * fd->elem_size, p2 ? p2 + k * fd->elem_size : NULL, path, plen, depth);
    }
    uint8_t *p = base + fd->offset;
    if (fd->kind == RELIC_MUT_CHAR) return mutate_text(c, fd, p, path);
    size_t k = below(c, fd->fixed);
    if (fd->fixed > 1) path_add(path, plen, "%s[%zu]", "", k);
    const uint8_t *p2 = base2 ? base2 + fd->offset + k * fd->elem_size : NULL;
    return mutate_element(c, fd, p + k * fd->elem_size, p2, path, plen, depth);
}

static int mutate_struct(mctx *c, const relic_mut_struct *st, uint8_t *base, const uint8_t *base2, char *path,
                         size_t plen, int depth)
{
    if (depth > MAX_DEPTH || st->nfields == 0) return 0;
    size_t len = strlen(path);
    for (int tries = 0; tries < 8; tries++) {
        const relic_mut_field *fd = &st->fields[below(c, st->nfields)];
        if (!changeable(c, fd)) continue;
        path[len] = 0;
        if (mutate_field(c, st, fd, base, base2, path, plen, depth)) return 1;
        if (c->failed) return 0;
    }
    path[len] = 0;
    return 0;
}

/* ---- invalid mode: stale fields in the written bytes ---- */

static int patch_output(mctx *c, relic_buf *out)
{
    const relic_mut_format *f = c->f;
    if (!f->npatches) return 0;
    const relic_mut_patch *pt = &f->patches[below(c, f->npatches)];
    if ((size_t)pt->offset + pt->size > out->size) return 0;
    uint8_t *p = out->data + pt->offset;
    relic_mutation *m;
    if (pt->what == RELIC_MUT_PATCH_CONST || pt->size > 8 || (pt->size & (pt->size - 1))) {
        size_t i = below(c, pt->size);
        uint8_t before = p[i];
        p[i] ^= (uint8_t)(1u << below(c, 8));
        if ((m = log_entry(c, pt->path, "stale"))) {
            snprintf(m->old_value, sizeof m->old_value, "byte %zu = %u", i, before);
            snprintf(m->new_value, sizeof m->new_value, "byte %zu = %u", i, p[i]);
        }
        return 1;
    }
    uint64_t v = 0;
    for (unsigned k = 0; k < pt->size; k++)
        v |= (uint64_t)p[pt->big ? pt->size - 1 - k : k] << (8 * k);
    uint64_t nv;
    switch (below(c, 5)) {
    case 0: nv = v + 1; break;
    case 1: nv = v - 1; break;
    case 2: nv = v * 2 + 1; break;
    case 3: nv = ~(uint64_t)0; break;
    default: nv = v + 1 + below(c, 4096); break;
    }
    if (pt->size < 8) nv &= ((uint64_t)1 << (8 * pt->size)) - 1;
    if (nv == v) nv ^= 1;
    for (unsigned k = 0; k < pt->size; k++) p[pt->big ? pt->size - 1 - k : k] = (uint8_t)(nv >> (8 * k));
    if ((m = log_entry(c, pt->path, "stale"))) {
        snprintf(m->old_value, sizeof m->old_value, "%llu", (unsigned long long)v);
        snprintf(m->new_value, sizeof m->new_value, "%llu", (unsigned long long)nv);
    }
    return 1;
}

relic_status relic_mutate(const relic_mut_format *f, const uint8_t *in, size_t n, const uint8_t *in2, size_t n2,
                          uint64_t seed, unsigned flags, relic_arena *scratch, relic_buf *out, relic_mutate_result *res,
                          relic_error *err)
{
    relic_mutate_result local;
    if (!res) res = &local;
    res->nlog = 0;
    res->attempts = 0;
    if (!f || (!in && n) || !scratch || !out || out->arena == scratch)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "relic_mutate needs a format, an input, a scratch arena and an "
                                                        "output that does not grow in it");
    mctx c = {0};
    c.f = f;
    c.rng = seed ^ 0x72656C69636D7574ull; /* "relicmut" */
    c.flags = flags;
    c.res = res;
    c.a = scratch;
    /* every try starts from the input again, in memory the last one used */
    mut_mark start = mut_arena_mark(scratch);
    relic_status st = RELIC_E_LIMIT;
    for (unsigned attempt = 0; attempt < MAX_TRIES; attempt++) {
        res->attempts = attempt + 1;
        res->nlog = 0;
        mut_arena_rewind(scratch, start);
        void *model = NULL, *model2 = NULL;
        st = f->load(in, n, scratch, &model, err);
        if (st != RELIC_OK) return st;
        relic_error e2;
        if (in2 && f->load(in2, n2, scratch, &model2, &e2) != RELIC_OK) model2 = NULL;
        if ((flags & RELIC_MUTATE_CROSSOVER) && !model2)
            return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "crossover needs a second input that validates");
        c.root = model;
        c.root2 = model2;
        c.failed = 0;
        int patch = invalid_mode(&c) && f->npatches && chance(&c, 2);
        int nmut = 1 + (chance(&c, 4) ? (int)below(&c, 3) : 0), done = 0;
        if (patch) nmut = chance(&c, 2) ? 0 : 1;
        for (int k = 0; k < nmut; k++) {
            char path[160] = "";
            done += mutate_struct(&c, &f->structs[f->root], model, model2, path, sizeof path, 0);
            if (c.failed) break;
        }
        /* scratch ran out: another try would only be a smaller one, so
         * the result would depend on the arena's size; say so instead */
        if (c.failed) return relic_fail(err, RELIC_E_NOMEM, 0, "", "the scratch arena ran out (%s mutator)", f->name);
        if (!done && !patch) continue;
        out->size = 0;
        out->failed = 0;
        relic_error we;
        st = f->write(model, out, scratch, &we);
        if (st == RELIC_E_NOMEM && !out->failed) {
            if (err) *err = we;
            return st;
        }
        if (st != RELIC_OK) {
            st = RELIC_E_LIMIT;
            continue;
        }
        if (patch && !patch_output(&c, out)) continue;
        if (out->size == n && memcmp(out->data, in, n) == 0) continue;
        if (flags & RELIC_MUTATE_UNCHECKED) return RELIC_OK;
        relic_error ve;
        relic_status vs = f->validate(out->data, out->size, scratch, &ve);
        if (vs == RELIC_E_NOMEM) {
            if (err) *err = ve;
            return vs;
        }
        if ((vs == RELIC_OK) != invalid_mode(&c)) return RELIC_OK;
        st = RELIC_E_LIMIT;
    }
    res->nlog = 0;
    return relic_fail(err, RELIC_E_LIMIT, 0, "", "no %s mutant of this %s file in %d tries",
                      invalid_mode(&c) ? "invalid" : "valid", f->name, MAX_TRIES);
}

size_t relic_mutate_splice_bytes(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out, size_t max,
                                 unsigned seed)
{
    size_t cut1 = na ? seed % (na + 1) : 0, cut2 = nb ? (seed / 7u) % (nb + 1) : 0;
    if (cut1 > max) cut1 = max;
    if (cut1) memcpy(out, a, cut1);
    size_t rest = nb - cut2;
    if (rest > max - cut1) rest = max - cut1;
    if (rest) memcpy(out + cut1, b + cut2, rest);
    return cut1 + rest;
}
