/* emit_reader.c — the reader in generated/<family>/<format>.c: one function
 * per struct, rd_<struct>, that checks the bytes (bounds with overflow-safe
 * arithmetic, constants, enums, ranges, checks, cross references) and fills
 * the model. Validating (dec 0) also points the root view at the
 * root's arrays; decoding (dec 1, over bytes already validated) also
 * copies the arrays into the arena and skips the per-element checks.
 * A run of fixed-size fields costs one bounds check, then one load per field;
 * a fixed-size struct is checked by its caller (once for a whole array). */
#include <stdlib.h>
#include <string.h>

#include "emit.h"

typedef struct rctx {
    gen_schema *s;
    gen_out *o;
    const gen_struct *st;
    int is_root;
    int fixed; /* fixed-size non-root struct: checked once on entry, loads from p */
    /* where the next sequential field starts: base ("pos" or "cur") + k */
    const char *base;
    int64_t k;
    int64_t checked_to; /* with base "pos" (or "cur" after a run check): bytes already bounds-checked */
    int uses_cur, uses_st;
    int uses_at, uses_n, uses_bytes; /* the function's array cursor: at (start), n (elements), bytes */
    int phase;                       /* 0 load and check; in a struct copied whole: 1 loads only (big-endian host), 2 checks only */
    const gen_field *marked[64];     /* fields whose position or size a derived check reads */
    int marked_at[64], marked_len[64];
    int nmarked;
} rctx;

static int has_name_ref(const gen_expr *e)
{
    if (!e) return 0;
    if (e->kind == EX_NAME) return 1;
    return has_name_ref(e->a) || has_name_ref(e->b);
}

/* 1 (position) | 2 (size) when a derived check reads them, else 0. */
static int is_marked(const rctx *r, const gen_field *f)
{
    for (int i = 0; i < r->nmarked; i++)
        if (r->marked[i] == f) return r->marked_at[i] | r->marked_len[i] << 1;
    return 0;
}

static void mark(rctx *r, const gen_field *f, int len)
{
    int i = 0;
    while (i < r->nmarked && r->marked[i] != f) i++;
    if (i == 64) return;
    if (i == r->nmarked) {
        r->marked[i] = f;
        r->marked_at[i] = r->marked_len[i] = 0;
        r->nmarked++;
    }
    if (len) r->marked_len[i] = 1;
    else r->marked_at[i] = 1;
}

/* "at_x = <at>; len_x = <len>;" for what a derived check reads of f. */
static void emit_marks(rctx *r, const gen_field *f, const char *ind, const char *at, const char *len)
{
    int k = is_marked(r, f);
    if (!k) return;
    out_puts(r->o, ind);
    if (k & 1) out_printf(r->o, "at_%s = %s;%s", f->name, at, k & 2 ? " " : "");
    if (k & 2) out_printf(r->o, "len_%s = %s;", f->name, len);
    out_puts(r->o, "\n");
}

/* The C expression of the current position (+ plus), in a buffer rotation. */
static const char *here(const rctx *r, int64_t plus)
{
    static char bufs[8][64];
    static int n;
    char *b = bufs[n++ & 7];
    int64_t k = r->k + plus;
    if (k) snprintf(b, 64, "%s + %lld", r->base, (long long)k);
    else snprintf(b, 64, "%s", r->base);
    return b;
}

/* The address of the current position (+ plus). */
static const char *addr(const rctx *r, int64_t plus)
{
    static char bufs[8][80];
    static int n;
    char *b = bufs[n++ & 7];
    int64_t k = r->k + plus;
    if (r->fixed) snprintf(b, 80, "p + %lld", (long long)k);
    else snprintf(b, 80, "c->base + %s", here(r, plus));
    return b;
}

/* Make the position a plain variable (before a branch or a variable-size field). */
static void settle(rctx *r)
{
    if (!strcmp(r->base, "cur") && r->k == 0) return;
    out_printf(r->o, "    cur = %s;\n", here(r, 0));
    r->base = "cur";
    r->k = 0;
    r->checked_to = 0;
    r->uses_cur = 1;
}

/* s as the inside of a C string literal; a printf format (fmt) doubles its %. */
static void put_literal(gen_out *o, const char *s, size_t n, int fmt)
{
    for (size_t k = 0; k < n; k++) {
        if (s[k] == '%' && fmt) out_puts(o, "%%");
        else if (s[k] == '"' || s[k] == '\\') out_printf(o, "\\%c", s[k]);
        else out_printf(o, "%c", s[k]);
    }
}

/* Checks on one scalar value held in C expression `val` at offset `off`;
 * `idx` is the C expression of the element index for the path, or NULL. */
static void emit_value_checks(rctx *r, const gen_field *f, const char *val, const char *idx, const char *off,
                              const char *ind)
{
    gen_out *o = r->o;
    const char *P = em_prefix(r->s);
    const char *ix = idx ? idx : "-1";
    if (f->init && f->init->kind == EX_INT)
        out_printf(o, "%sif ((int64_t)(%s) != INT64_C(%lld)) return relic_gen_fail_at(c->err, RELIC_E_MAGIC, %s, \"%s\", %s, \"expected %lld, found %%lld\", (long long)(%s));\n",
                   ind, val, (long long)f->init->ival, off, f->name, ix, (long long)f->init->ival, val);
    if (f->etype && !f->etype->open) {
        if (f->etype->is_flags)
            out_printf(o, "%sif (((uint64_t)(%s) & ~(uint64_t)%s_%s_MASK) != 0) return relic_gen_fail_at(c->err, RELIC_E_RANGE, %s, \"%s\", %s, \"unknown %s bits 0x%%llx\", (unsigned long long)((uint64_t)(%s) & ~(uint64_t)%s_%s_MASK));\n",
                       ind, val, em_upper(P), em_upper(f->etype->name), off, f->name, ix, f->etype->name, val, em_upper(P), em_upper(f->etype->name));
        else
            out_printf(o, "%sif (!%s_%s_known((int64_t)(%s))) return relic_gen_fail_check(c->err, RELIC_E_RANGE, %s, \"%s\", %s, (int64_t)(%s), \"is not a known %s\");\n",
                       ind, P, f->etype->name, val, off, f->name, ix, val, f->etype->name);
    }
    if (f->has_range) {
        if (gen_prim_is_float(f->prim))
            out_printf(o, "%sif (!((double)(%s) >= %lld.0 && (double)(%s) <= %lld.0)) return relic_gen_fail_at(c->err, RELIC_E_RANGE, %s, \"%s\", %s, \"%%g is outside %lld..%lld\", (double)(%s));\n",
                       ind, val, (long long)f->range_lo, val, (long long)f->range_hi, off, f->name, ix, (long long)f->range_lo, (long long)f->range_hi, val);
        else if (f->range_lo <= 0 && !gen_prim_is_signed(f->prim))
            /* an unsigned value cannot be below 0: only the upper bound (avoids -Wtype-limits) */
            out_printf(o, "%sif ((uint64_t)(%s) > UINT64_C(%lld)) return relic_gen_fail_at(c->err, RELIC_E_RANGE, %s, \"%s\", %s, \"%%llu is outside %lld..%lld\", (unsigned long long)(%s));\n",
                       ind, val, (long long)f->range_hi, off, f->name, ix, (long long)f->range_lo, (long long)f->range_hi, val);
        else
            out_printf(o, "%sif ((int64_t)(%s) < INT64_C(%lld) || (int64_t)(%s) > INT64_C(%lld)) return relic_gen_fail_at(c->err, RELIC_E_RANGE, %s, \"%s\", %s, \"%%lld is outside %lld..%lld\", (long long)(%s));\n",
                       ind, val, (long long)f->range_lo, val, (long long)f->range_hi, off, f->name, ix, (long long)f->range_lo, (long long)f->range_hi, val);
    }
    if (f->check) {
        gen_out t = {0};
        em_expr_text(&t, f->check);
        out_printf(o, "%s{ const int64_t it = (int64_t)(%s); if (!(", ind, val);
        em_expr(o, f->check, "m->", "c->root->", "it");
        out_printf(o, ")) return relic_gen_fail_check(c->err, %s, %s, \"%s\", %s, it, \"fails check ", has_name_ref(f->check) ? "RELIC_E_INDEX" : "RELIC_E_RANGE", off, f->name, ix);
        put_literal(o, t.data, t.size, 0);
        out_puts(o, "\"); }\n");
        free(t.data);
    }
}

static int value_checked(const gen_field *f)
{
    return (f->init && f->init->kind == EX_INT) || (f->etype && !f->etype->open) || f->has_range || f->check;
}

static void emit_members(rctx *r, const gen_member *m, int n);

static void load_scalar(gen_out *o, const gen_field *f, const char *dst, const char *at)
{
    if (gen_prim_is_signed(f->prim) && !gen_prim_is_float(f->prim))
        out_printf(o, "%s = (%s)%s(%s);", dst, gen_prim_ctype(f->prim), em_load_fn(f), at);
    else
        out_printf(o, "%s = %s(%s);", dst, em_load_fn(f), at);
}

/* Size in the file of a field that a run check can cover (fixed size, not
 * placed), else -1. */
static int64_t run_size(const gen_field *f)
{
    if (f->at || f->count || f->count_rest) return -1;
    return em_elem_size(f) * em_fixed_elems(f);
}

/* One bounds check for the run of fixed-size fields starting at m[i]. A
 * struct-typed field is a run of its own, named after its type: fixed-size
 * struct readers trust their caller for the room (one check per array). */
static void emit_run_check(rctx *r, const gen_member *m, int i, int n)
{
    int64_t total = 0;
    int j = i;
    for (; j < n && m[j].kind == M_FIELD; j++) {
        int64_t sz = run_size(m[j].field);
        if (sz < 0 || (j > i && m[j].field->stype)) break;
        total += sz;
        if (m[j].field->stype) {
            j++;
            break;
        }
    }
    if (total == 0) return;
    const gen_field *first = m[i].field, *last = m[j - 1].field;
    char what[256];
    if (first->stype && em_is_scalar(first)) snprintf(what, sizeof what, "%s", first->stype->name);
    else if (first == last) snprintf(what, sizeof what, "%s", first->name);
    else snprintf(what, sizeof what, "%s..%s", first->name, last->name);
    out_printf(r->o, "    if (!relic_gen_room(c->size, %s, %lldu)) return relic_gen_short(c->err, %s, c->size, \"%s\", \"%s\", %lldu);\n",
               here(r, 0), (long long)total, here(r, 0), first->name, what, (long long)total);
    r->checked_to = r->k + total;
}

/* A struct-typed element at `at` into `dst`; size into sz when variable. */
static void emit_struct_call(rctx *r, const gen_field *f, const char *at, const char *dst, const char *idx,
                             const char *ind)
{
    r->uses_st = 1;
    const char *sz = f->stype->fixed_size >= 0 ? "" : "&sz, ";
    if (!strcmp(dst, "e")) /* decoding into the model, validating into a local the compiler keeps in registers */
        out_printf(r->o, "%sif ((st = dec ? rd_%s(c, %s, %s&m->%s[k], 1) : rd_%s(c, %s, %s&e, 0)) != RELIC_OK) return relic_gen_nest(c->err, st, \"%s\", %s);\n",
                   ind, f->stype->name, at, sz, f->name, f->stype->name, at, sz, f->name, idx);
    else
        out_printf(r->o, "%sif ((st = rd_%s(c, %s, %s%s, dec)) != RELIC_OK) return relic_gen_nest(c->err, st, \"%s\", %s);\n",
                   ind, f->stype->name, at, sz, dst, f->name, idx);
}

/* Scalars, fixed arrays and embedded structs at a known position. */
static void emit_fixed_field(rctx *r, const gen_field *f)
{
    gen_out *o = r->o;
    char dst[200];
    int64_t es = em_elem_size(f), per = em_fixed_elems(f);
    const int load = r->phase != 2, check = r->phase != 1;
    if (f->prim == P_CHAR || f->prim == P_BYTES) {
        if (load) out_printf(o, "    memcpy(m->%s, %s, %lld);\n", f->name, addr(r, 0), (long long)per);
        if (check && f->const_str) {
            gen_out t = {0};
            em_cstring(&t, f->const_str, f->const_len);
            out_printf(o, "    if (memcmp(m->%s, %s, %d) != 0) return relic_gen_fail_at(c->err, RELIC_E_MAGIC, %s, \"%s\", -1, \"expected ",
                       f->name, t.data, f->const_len, here(r, 0), f->name);
            put_literal(o, t.data, t.size, 1);
            out_puts(o, "\");\n");
            free(t.data);
        }
        if (check && f->hook) {
            out_printf(o, "    if (!dec && (st = relic_hook_%s(%s, %lld, c->err)) != RELIC_OK) { c->err->offset += %s; return relic_gen_nest(c->err, st, \"%s\", -1); }\n",
                       f->hook, addr(r, 0), (long long)per, here(r, 0), f->name);
            r->uses_st = 1;
        }
    } else if (f->stype) {
        if (r->phase && (r->phase == 2) != em_struct_needs_check(f->stype)) return; /* called once: where it checks */
        if (em_is_scalar(f)) {
            snprintf(dst, sizeof dst, "&m->%s", f->name);
            emit_struct_call(r, f, here(r, 0), dst, "-1", "    ");
        } else {
            out_printf(o, "    for (uint64_t k = 0; k < %lldu; k++)\n", (long long)per);
            char at[96];
            snprintf(at, sizeof at, "%s + k * %lldu", here(r, 0), (long long)es);
            snprintf(dst, sizeof dst, "&((%s_%s *)m->%s)[k]", em_prefix(r->s), f->stype->name, f->name);
            emit_struct_call(r, f, at, dst, "(int64_t)k", "        ");
        }
    } else if (em_is_scalar(f)) {
        snprintf(dst, sizeof dst, "m->%s", f->name);
        if (load) {
            out_puts(o, "    ");
            load_scalar(o, f, dst, addr(r, 0));
            out_puts(o, "\n");
        }
        if (check) emit_value_checks(r, f, dst, NULL, here(r, 0), "    ");
    } else {
        char at[120];
        snprintf(at, sizeof at, "%s + k * %lld", addr(r, 0), (long long)es);
        snprintf(dst, sizeof dst, "((%s *)m->%s)[k]", gen_prim_ctype(f->prim), f->name);
        int chk = check && value_checked(f);
        if (!load && !chk) return;
        out_printf(o, "    for (uint64_t k = 0; k < %lldu; k++)%s", (long long)per, chk ? " {\n        " : " ");
        if (load) {
            load_scalar(o, f, dst, at);
            out_puts(o, "\n");
        }
        if (chk) {
            char off[96];
            snprintf(off, sizeof off, "%s + k * %lldu", here(r, 0), (long long)es);
            emit_value_checks(r, f, dst, "(int64_t)k", off, "        ");
            out_puts(o, "    }\n");
        }
    }
}

/* Whether st's natural C layout is its file layout on a little-endian host
 * (asserted in the .c): a fixed-size struct of little-endian fields. Such a
 * struct is read with one memcpy; arrays of it, when it is also plain (no
 * constant or derived field), are copied whole. */
static int64_t natural_align(const gen_struct *st);
static int64_t field_align(const gen_field *f)
{
    if (f->stype) return natural_align(f->stype);
    if (f->prim == P_CHAR || f->prim == P_BYTES) return 1;
    return gen_prim_size(f->prim);
}
static int64_t natural_align(const gen_struct *st)
{
    int64_t a = 1;
    for (int i = 0; i < st->nmembers; i++) {
        if (st->members[i].kind != M_FIELD) continue;
        int64_t fa = field_align(st->members[i].field);
        if (fa > a) a = fa;
    }
    return a;
}
static int layout_is_c(const gen_struct *st)
{
    if (st->fixed_size < 0) return 0;
    int64_t off = 0;
    for (int i = 0; i < st->nmembers; i++) {
        if (st->members[i].kind == M_CHECK) continue;
        if (st->members[i].kind != M_FIELD) return 0;
        const gen_field *f = st->members[i].field;
        if (f->at || f->count || f->count_rest || f->codec) return 0;
        if (f->stype ? !layout_is_c(f->stype) : gen_prim_size(f->prim) > 1 && f->endian != EN_LITTLE) return 0;
        int64_t a = field_align(f);
        off = (off + a - 1) / a * a;
        if (off != f->fixed_offset) return 0;
        off += em_elem_size(f) * em_fixed_elems(f);
    }
    int64_t a = natural_align(st);
    return (off + a - 1) / a * a == st->fixed_size;
}
int em_struct_memcpy(const gen_struct *st)
{
    return em_struct_plain(st) && layout_is_c(st);
}

/* Counted, placed or rest-of-input arrays, variable-size structs, placed
 * scalars. A counted array of fixed-size elements is a few flat statements
 * over the function's cursor (at, n); the other kinds keep a block for
 * their locals. */
static void emit_var_field(rctx *r, const gen_field *f)
{
    const char *P = em_prefix(r->s);
    int64_t es = em_elem_size(f), per = em_fixed_elems(f);
    int var = f->count || f->count_rest;
    int seq = !f->at;
    const int flat = f->count && es > 0;
    int need_bytes = (seq && !flat) || (is_marked(r, f) & 2);
    int memcpy_path = var && ((!f->stype && f->prim != P_CHAR && f->prim != P_BYTES && es > 1 && f->endian == EN_LITTLE) || (f->stype && em_struct_memcpy(f->stype)));
    if (seq) settle(r);
    gen_out blk = {0}, *o = &blk, *out = r->o;
    r->o = o; /* the statements, indented as inside a block; flattened at the end */
    const char *start = seq && !flat ? "cur" : "at";
    const char *len = seq && flat ? "cur - at" : "bytes";
    if (flat) r->uses_at = r->uses_n = 1;
    if (f->at) {
        if (flat) {
            out_puts(o, "        if ((st = relic_gen_place(c->err, ");
            out_printf(o, "%s, ", here(r, 0));
            em_expr(o, f->at, "m->", "c->root->", "0");
            out_puts(o, ", ");
            em_expr(o, f->count, "m->", "c->root->", "0");
            out_printf(o, ", %lldu, %lldu, c->size, \"%s\", &at, &n, &bytes)) != RELIC_OK) return st;\n", (long long)per, (long long)es, f->name);
            r->uses_st = r->uses_bytes = 1;
            goto counted;
        }
        out_puts(o, "        const int64_t at_ = ");
        em_expr(o, f->at, "m->", "c->root->", "0");
        out_printf(o, ";\n        if (at_ < 0 || (uint64_t)at_ > c->size) return relic_gen_fail_at(c->err, RELIC_E_LAYOUT, %s, \"%s\", -1, \"offset %%lld is outside the %%llu-byte input\", (long long)at_, (unsigned long long)c->size);\n",
                   here(r, 0), f->name);
        out_puts(o, "        at = (uint64_t)at_;\n");
        r->uses_at = 1;
    }
    if (flat) {
        /* from cur: at is its start, cur moves past it */
        out_puts(o, "        if ((st = relic_gen_take(c->err, &cur, ");
        em_expr(o, f->count, "m->", "c->root->", "0");
        out_printf(o, ", %lldu, %lldu, c->size, \"%s\", &at, &n)) != RELIC_OK) return st;\n", (long long)per, (long long)es, f->name);
        r->uses_st = 1;
    } else if (f->count) {
        out_puts(o, "        const int64_t cnt = ");
        em_expr(o, f->count, "m->", "c->root->", "0");
        out_printf(o, ";\n        if (cnt < 0) return relic_gen_fail_at(c->err, RELIC_E_RANGE, %s, \"%s\", -1, \"negative element count %%lld\", (long long)cnt);\n", start, f->name);
        out_printf(o, "        n = (uint64_t)cnt * %lldu;\n", (long long)per);
        out_printf(o, "        if (n > c->size - (%s < c->size ? %s : c->size) + 1) return relic_gen_fail_at(c->err, RELIC_E_LIMIT, %s, \"%s\", -1, \"%%llu variable-size elements cannot fit in the remaining bytes\", (unsigned long long)n);\n",
                   start, start, start, f->name);
        if (need_bytes) out_puts(o, "        bytes = 0;\n");
        r->uses_n = 1;
    } else if (f->count_rest) {
        if (es > 0) {
            out_printf(o, "        n = (%s < c->size ? c->size - %s : 0) / %lldu;\n", start, start, (long long)(es * per));
            if (need_bytes || memcpy_path) out_printf(o, "        bytes = n * %lldu;\n", (long long)es);
            need_bytes |= memcpy_path;
        } else {
            out_printf(o, "        n = %s < c->size ? c->size - %s : 0; /* upper bound: the walk stops at the end */\n", start, start);
            if (need_bytes) out_puts(o, "        bytes = 0;\n");
        }
        r->uses_n = 1;
    } else if (es > 0) {
        /* a placed scalar, fixed array or fixed struct */
        if (!em_is_scalar(f)) out_printf(o, "        n = %lldu;\n", (long long)per);
        if (!em_is_scalar(f)) r->uses_n = 1;
        if (!f->stype)
            out_printf(o, "        if (!relic_gen_room(c->size, at, %lldu)) return relic_gen_short(c->err, at, c->size, \"%s\", \"%s\", %lldu);\n",
                       (long long)(es * per), f->name, f->name, (long long)(es * per));
        if (need_bytes) out_printf(o, "        bytes = %lldu;\n", (long long)(es * per));
    } else if (need_bytes) {
        out_puts(o, "        bytes = 0;\n");
    }
    if (need_bytes) r->uses_bytes = 1;
counted:;
    char cnt[64];
    if (per == 1) snprintf(cnt, sizeof cnt, "(size_t)n");
    else snprintf(cnt, sizeof cnt, "(size_t)(n / %lldu)", (long long)per);
    if (var) out_printf(o, "        m->%s_count = %s;\n", f->name, cnt);
    if (r->is_root && !(em_is_scalar(f) && !f->stype)) {
        out_printf(o, "        if (c->view) { c->view->%s = c->base + %s;", f->name, start);
        if (!em_is_scalar(f)) out_printf(o, " c->view->%s_count = %s;", f->name, cnt);
        out_puts(o, " }\n");
    }
    char at[160], dst[200];
    if (f->prim == P_CHAR || f->prim == P_BYTES) {
        if (var) {
            out_printf(o, "        if (dec && !(m->%s = relic_gen_dup(c->arena, c->err, c->base + %s, n, %s, \"%s\"))) return RELIC_E_NOMEM;\n",
                       f->name, start, start, f->name);
        } else {
            out_printf(o, "        memcpy(m->%s, c->base + %s, (size_t)n);\n", f->name, start);
        }
        if (f->hook) {
            out_printf(o, "        if (!dec && (st = relic_hook_%s(c->base + %s, (size_t)n, c->err)) != RELIC_OK) { c->err->offset += %s; return relic_gen_nest(c->err, st, \"%s\", -1); }\n",
                       f->hook, start, start, f->name);
            r->uses_st = 1;
        }
    } else if (!f->stype) {
        const char *ct = gen_prim_ctype(f->prim);
        snprintf(at, sizeof at, "c->base + %s + k * %lld", start, (long long)es);
        if (em_is_scalar(f)) {
            out_puts(o, "        ");
            snprintf(dst, sizeof dst, "m->%s", f->name);
            load_scalar(o, f, dst, "c->base + at");
            out_puts(o, "\n");
            emit_value_checks(r, f, dst, NULL, "at", "        ");
        } else if (!var) {
            snprintf(dst, sizeof dst, "((%s *)m->%s)[k]", ct, f->name);
            out_puts(o, "        for (uint64_t k = 0; k < n; k++) {\n            ");
            load_scalar(o, f, dst, at);
            out_puts(o, "\n");
            char off[96];
            snprintf(off, sizeof off, "%s + k * %lldu", start, (long long)es);
            emit_value_checks(r, f, dst, "(int64_t)k", off, "            ");
            out_puts(o, "        }\n");
        } else {
            snprintf(dst, sizeof dst, "m->%s[k]", f->name);
            /* bytes, or little-endian numbers on a little-endian host: one copy */
            int copy = es == 1 || f->endian == EN_LITTLE;
            out_printf(o, "        if (dec && n && !(m->%s = relic_gen_%s(c->arena, c->err, %s%s%sn, sizeof(%s), _Alignof(%s), %s, \"%s\"))) return RELIC_E_NOMEM;\n",
                       f->name, copy ? "copy" : "alloc", copy ? "c->base + " : "", copy ? start : "", copy ? ", " : "", ct, ct, start, f->name);
            if (es > 1 || !copy) {
                out_printf(o, "        if (dec%s) for (uint64_t k = 0; k < n; k++) ", copy ? " && !RELIC_GEN_LE" : "");
                load_scalar(o, f, dst, at);
                out_puts(o, "\n");
            }
            if (value_checked(f)) {
                out_printf(o, "        if (!dec) for (uint64_t k = 0; k < n; k++) {\n            const %s v = ", ct);
                if (gen_prim_is_signed(f->prim) && !gen_prim_is_float(f->prim)) out_printf(o, "(%s)", ct);
                out_printf(o, "%s(%s);\n", em_load_fn(f), at);
                char off[96];
                snprintf(off, sizeof off, "%s + k * %lldu", start, (long long)es);
                emit_value_checks(r, f, "v", "(int64_t)k", off, "            ");
                out_puts(o, "        }\n");
            }
        }
    } else {
        const char *T = f->stype->name;
        int fixed_elem = es > 0;
        if (em_is_scalar(f)) {
            snprintf(dst, sizeof dst, "&m->%s", f->name);
            emit_struct_call(r, f, start, dst, "-1", "        ");
            if (!fixed_elem && need_bytes) out_puts(o, "        bytes = sz;\n");
        } else {
            int need = em_struct_needs_check(f->stype);
            int walk = !fixed_elem && f->count_rest; /* `[..]` of variable elements: count what is walked */
            int copy = var && em_struct_memcpy(f->stype);
            if (var)
                out_printf(o, "        if (dec && n && !(m->%s = relic_gen_%s(c->arena, c->err, %s%s%sn, sizeof(%s_%s), _Alignof(%s_%s), %s, \"%s\"))) return RELIC_E_NOMEM;\n",
                           f->name, copy ? "copy" : "alloc", copy ? "c->base + " : "", copy ? start : "", copy ? ", " : "", P, T, P, T, start, f->name);
            int decode_only = var && !need; /* nothing to check: the loop only copies */
            if (fixed_elem) {
                /* copied above on a little-endian host; else element by element */
                const char *cond = copy ? (decode_only ? "dec && !RELIC_GEN_LE" : "!dec || !RELIC_GEN_LE") : decode_only ? "dec"
                                                                                                                         : NULL;
                snprintf(at, sizeof at, "%s + k * %lldu", start, (long long)es);
                if (var && !decode_only && em_deferred(f)) {
                    /* validating: the checks are P_validate_elements' */
                    out_printf(o, "        if (dec%s) for (uint64_t k = 0; k < n; k++)\n", copy ? " && !RELIC_GEN_LE" : "");
                    snprintf(dst, sizeof dst, "&m->%s[k]", f->name);
                    emit_struct_call(r, f, at, dst, "(int64_t)k", "            ");
                } else if (var && !decode_only) {
                    /* two loops: validating into a local the compiler keeps in registers */
                    out_printf(o, "        if (!dec) for (uint64_t k = 0; k < n; k++) {\n            %s_%s e;\n", P, T);
                    emit_struct_call(r, f, at, "&e", "(int64_t)k", "            ");
                    out_printf(o, "        } else %sfor (uint64_t k = 0; k < n; k++)\n", copy ? "if (!RELIC_GEN_LE) " : "");
                    snprintf(dst, sizeof dst, "&m->%s[k]", f->name);
                    emit_struct_call(r, f, at, dst, "(int64_t)k", "            ");
                } else {
                    if (cond) out_printf(o, "        if (%s) ", cond);
                    else out_puts(o, "        ");
                    if (var) snprintf(dst, sizeof dst, "&m->%s[k]", f->name);
                    else snprintf(dst, sizeof dst, "&((%s_%s *)m->%s)[k]", P, T, f->name);
                    out_puts(o, "for (uint64_t k = 0; k < n; k++)\n");
                    emit_struct_call(r, f, at, dst, "(int64_t)k", "            ");
                }
            } else {
                /* variable-size elements: walked one after the other */
                r->uses_st = 1;
                out_printf(o, "        %s{\n            uint64_t q = %s, k = 0;\n            for (; k < n; k++) {\n", decode_only ? "if (dec) " : "", start);
                if (walk) out_puts(o, "                if (q >= c->size) break;\n");
                if (decode_only || !var) {
                    snprintf(dst, sizeof dst, "&m->%s[k]", f->name);
                } else {
                    out_printf(o, "                %s_%s e;\n", P, T);
                    out_puts(o, "                if (!dec) memset(&e, 0, sizeof e);\n");
                    snprintf(dst, sizeof dst, "e");
                }
                emit_struct_call(r, f, "q", dst, "(int64_t)k", "                ");
                out_puts(o, "                q += sz;\n            }\n");
                if (need_bytes) out_printf(o, "            bytes = q - %s;\n", start);
                if (walk) {
                    out_printf(o, "            m->%s_count = (size_t)k;\n", f->name);
                    if (r->is_root) out_printf(o, "            if (c->view) c->view->%s_count = (size_t)k;\n", f->name);
                }
                out_puts(o, "        }\n");
            }
        }
    }
    emit_marks(r, f, "        ", start, len);
    if (seq && !flat) out_puts(o, "        cur += bytes;\n");
    r->o = out;
    if (flat) { /* one indent less, no braces */
        for (char *line = blk.data, *nl; line && *line; line = nl ? nl + 1 : NULL) {
            nl = strchr(line, '\n');
            const int cut = strncmp(line, "    ", 4) ? 0 : 4;
            out_printf(out, "%.*s\n", (int)((nl ? nl - line : (long)strlen(line)) - cut), line + cut);
        }
    } else {
        out_printf(out, "    { /* %s */\n%s    }\n", f->name, blk.data ? blk.data : "");
    }
    free(blk.data);
}

/* Whether f sits at a statically known position with a known size. */
static int is_fixed_field(const gen_field *f)
{
    return !f->at && !f->count && !f->count_rest && em_elem_size(f) >= 0;
}

static void branch_body(void *ctx, const gen_member *m, int n)
{
    rctx *r = ctx;
    emit_members(r, m, n);
    settle(r);
}

static void emit_members(rctx *r, const gen_member *m, int n)
{
    gen_out *o = r->o;
    for (int i = 0; i < n; i++) {
        switch (m[i].kind) {
        case M_FIELD: {
            const gen_field *f = m[i].field;
            if (!is_fixed_field(f)) {
                emit_var_field(r, f);
                break;
            }
            if (r->k >= r->checked_to && run_size(f) >= 0) emit_run_check(r, m, i, n);
            {
                char len[32];
                snprintf(len, sizeof len, "%lldu", (long long)(em_elem_size(f) * em_fixed_elems(f)));
                if (r->phase != 1) emit_marks(r, f, "    ", here(r, 0), len);
            }
            if (r->is_root && !(em_is_scalar(f) && !f->stype)) {
                out_printf(o, "    if (c->view) { c->view->%s = c->base + %s;", f->name, here(r, 0));
                if (!em_is_scalar(f)) out_printf(o, " c->view->%s_count = 1;", f->name);
                out_puts(o, " }\n");
            }
            emit_fixed_field(r, f);
            r->k += em_elem_size(f) * em_fixed_elems(f);
            break;
        }
        case M_CHECK: {
            if (r->phase == 1) break;
            gen_out t = {0};
            em_expr_text(&t, m[i].cond);
            out_puts(o, "    if (!(");
            em_expr(o, m[i].cond, "m->", "c->root->", "0");
            out_printf(o, ")) return relic_fail(c->err, RELIC_E_RANGE, pos, \"%s\", \"check failed: ", r->st->name);
            put_literal(o, t.data, t.size, 1);
            if (m[i].doc) {
                out_puts(o, " (");
                put_literal(o, m[i].doc, strlen(m[i].doc), 1);
                out_puts(o, ")");
            }
            out_puts(o, "\");\n");
            free(t.data);
            break;
        }
        case M_IF:
            settle(r);
            em_branch(o, &m[i], "m->", "c->root->", branch_body, r, NULL);
            break;
        case M_SWITCH: {
            settle(r);
            gen_out t = {0}, stmt = {0};
            em_expr_text(&t, m[i].cond);
            out_printf(&stmt, "return relic_fail(c->err, RELIC_E_RANGE, cur, \"%s\", \"no case for %s = %%lld\", (long long)(", r->st->name, t.data);
            em_expr(&stmt, m[i].cond, "m->", "c->root->", "0");
            out_puts(&stmt, "));");
            em_branch(o, &m[i], "m->", "c->root->", branch_body, r, stmt.data);
            free(t.data);
            free(stmt.data);
            break;
        }
        }
    }
}

/* A derived field no layout expression uses is checked against what it names:
 * m-><holder><field> against the count, position or size of member t. */
static void emit_derived_check(gen_out *o, const char *holder, const gen_field *f, const gen_field *t)
{
    const char *what = f->init->func == FN_COUNT ? "count" : f->init->func == FN_OFFSET ? "offset"
                                                                                        : "size";
    char actual[160];
    if (f->init->func == FN_COUNT) snprintf(actual, sizeof actual, "(uint64_t)m->%s_count", t->name);
    else if (f->init->func == FN_OFFSET) snprintf(actual, sizeof actual, "at_%s", t->name);
    else snprintf(actual, sizeof actual, "len_%s", t->name);
    out_printf(o, "    if ((uint64_t)m->%s%s != %s) return relic_fail(c->err, RELIC_E_LAYOUT, pos, \"%s%s\", \"says %s(%s) = %%llu but it is %%llu\", (unsigned long long)m->%s%s, (unsigned long long)%s);\n",
               holder, f->name, actual, holder, f->name, what, t->name, holder, f->name, actual);
}

/* Visit the derived checks of st: its own derived fields naming its own
 * members; in the root, also those of its plain struct members naming root
 * members. With o NULL, only mark the members whose position or size they read. */
static void derived_checks(rctx *r, gen_out *o)
{
    gen_field *fs[512];
    int n = em_fields(r->st, fs, 512);
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < n; i++) {
            gen_field *gs[512], **list = fs;
            int ng = n;
            char holder[160] = "";
            if (pass == 1) {
                if (!r->is_root || !fs[i]->stype || !em_is_scalar(fs[i])) continue;
                snprintf(holder, sizeof holder, "%s.", fs[i]->name);
                ng = em_fields(fs[i]->stype, gs, 512);
                list = gs;
            }
            for (int k = (pass == 0 ? i : 0); k < (pass == 0 ? i + 1 : ng); k++) {
                gen_field *f = list[k];
                if (!f->is_derived || f->used_in_layout) continue;
                if (pass == 0 && gen_find_field((gen_struct *)r->st, f->init->ref->name) != f->init->ref) continue;
                if (pass == 1 && !f->init->root_scope) continue;
                if (o) emit_derived_check(o, holder, f, f->init->ref);
                else if (f->init->func != FN_COUNT) mark(r, f->init->ref, f->init->func == FN_SIZE);
            }
        }
    }
}

/* Each reader takes dec: 0 validates, 1 decodes bytes already validated. The
 * root and fixed-size structs are inlined into their callers, where dec is a
 * constant: validate keeps no decode path and decode no check, from one source. */
static void struct_sig(gen_out *o, const char *P, const gen_struct *st, int dec_unused)
{
    int inl = st->fixed_size >= 0 || st->is_root;
    out_printf(o, "%sstatic %srelic_status rd_%s(%s_rctx *c, uint64_t pos, %s%s_%s *m, %sconst int dec)",
               inl ? "RELIC_GEN_ALWAYS_INLINE " : "", inl ? "inline " : "", st->name, P,
               st->fixed_size >= 0 ? "" : "uint64_t *size_out, ", P, st->name, dec_unused ? "RELIC_GEN_UNUSED " : "");
}

/* Whether the C text s uses the identifier dec. */
static int uses_dec(const char *s)
{
    for (const char *q = s; (q = strstr(q, "dec")) != NULL; q += 3) {
        int before = q > s && (q[-1] == '_' || (q[-1] >= 'a' && q[-1] <= 'z') || (q[-1] >= '0' && q[-1] <= '9'));
        int after = q[3] == '_' || (q[3] >= 'a' && q[3] <= 'z') || (q[3] >= '0' && q[3] <= '9');
        if (!before && !after) return 1;
    }
    return 0;
}

static void emit_struct_fn(gen_schema *s, gen_out *o, const gen_struct *st)
{
    const char *P = em_prefix(s);
    gen_out body = {0};
    rctx r = {0};
    r.s = s;
    r.o = &body;
    r.st = st;
    r.is_root = st->is_root;
    /* A fixed-size struct's span is checked by its caller, except the root's,
     * whose first member then names itself in the error. */
    r.fixed = st->fixed_size >= 0 && !st->is_root;
    for (int i = 0; i < st->nmembers; i++)
        if (st->members[i].kind == M_IF || st->members[i].kind == M_SWITCH || (st->members[i].kind == M_FIELD && !is_fixed_field(st->members[i].field))) r.fixed = 0;
    r.base = "pos";
    derived_checks(&r, NULL);
    if (r.fixed) {
        r.checked_to = st->fixed_size; /* by the caller */
        int loads = layout_is_c(st) && st->nmembers >= 8;
        for (int i = 0; i < st->nmembers; i++)
            if (st->members[i].kind == M_FIELD && !st->members[i].field->stype) loads = 1;
        if (loads) out_puts(&body, "    const uint8_t *p = c->base + pos;\n");
    }
    if (r.fixed && layout_is_c(st) && st->nmembers >= 8) {
        /* many fields: one copy on a little-endian host, field by field on
         * another; then the checks (fewer fields: loads and checks in one pass) */
        gen_out loads = {0};
        r.o = &loads;
        r.phase = 1;
        emit_members(&r, st->members, st->nmembers);
        out_printf(&body, "    if (RELIC_GEN_LE) memcpy(m, p, %lldu);\n", (long long)st->fixed_size);
        if (loads.size) {
            out_puts(&body, "    else {\n");
            for (char *line = loads.data, *nl; line && *line; line = nl ? nl + 1 : NULL) {
                nl = strchr(line, '\n');
                out_printf(&body, "    %.*s\n", (int)(nl ? nl - line : (long)strlen(line)), line);
            }
            out_puts(&body, "    }\n");
        }
        free(loads.data);
        r.o = &body;
        r.phase = 2;
        r.k = 0;
    }
    emit_members(&r, st->members, st->nmembers);
    derived_checks(&r, &body);
    if (st->fixed_size < 0) {
        if (!strcmp(r.base, "cur")) {
            r.uses_cur = 1;
            out_printf(&body, "    *size_out = %s - pos;\n", here(&r, 0));
        } else out_printf(&body, "    *size_out = %lldu;\n", (long long)r.k);
    }
    out_puts(&body, "    return RELIC_OK;\n}\n\n");

    struct_sig(o, P, st, !uses_dec(body.data));
    out_puts(o, "\n{\n");
    int has_sz = strstr(body.data, "&sz,") != NULL;
    if (r.uses_st || has_sz) out_printf(o, "    relic_status st;\n");
    if (has_sz) out_puts(o, "    uint64_t sz = 0;\n");
    if (r.uses_cur) out_puts(o, "    uint64_t cur = pos;\n");
    if (r.uses_at || r.uses_n || r.uses_bytes)
        out_printf(o, "    uint64_t %s%s%s%s%s;\n", r.uses_at ? "at" : "", r.uses_at && (r.uses_n || r.uses_bytes) ? ", " : "",
                   r.uses_n ? "n" : "", r.uses_n && r.uses_bytes ? ", " : "", r.uses_bytes ? "bytes" : "");
    for (int i = 0; i < r.nmarked; i++) {
        if (r.marked_at[i]) out_printf(o, "    uint64_t at_%s = 0;\n", r.marked[i]->name);
        if (r.marked_len[i]) out_printf(o, "    uint64_t len_%s = 0;\n", r.marked[i]->name);
    }
    out_puts(o, body.data);
    free(body.data);
}

/* The element checks of the root's `deferred` arrays, in schema order, as
 * P_validate_elements (P_validate runs it after P_validate_layout; a
 * hand-written validator that checks the same per element as it reads them
 * calls it only to name an error). 1 when the format has such arrays. */
static int emit_validate_elements(const gen_schema *s, gen_out *o)
{
    const char *P = em_prefix(s);
    const gen_struct *root = s->format.root;
    int any = 0;
    for (int i = 0; i < root->nmembers; i++) {
        const gen_field *f = root->members[i].kind == M_FIELD ? root->members[i].field : NULL;
        if (!em_deferred(f)) continue;
        if (!any++)
            out_printf(o, "relic_status %s_validate_elements(const %s_view *v, relic_error *err)\n{\n"
                          "    RELIC_GEN_ERR_OR_SCRATCH(err);\n    %s_rctx cc = { v->base, v->size, err, (%s_%s *)&v->values, NULL, NULL }, *c = &cc;\n    relic_status st;\n",
                       P, P, P, P, root->name);
        out_printf(o, "    for (uint64_t k = 0, at = (uint64_t)(v->%s - v->base); k < v->%s_count; k++) {\n        %s_%s e;\n",
                   f->name, f->name, P, f->stype->name);
        out_printf(o, "        if ((st = rd_%s(c, at + k * %lldu, &e, 0)) != RELIC_OK) return relic_gen_nest(err, st, \"%s\", (int64_t)k);\n    }\n",
                   f->stype->name, (long long)em_elem_size(f), f->name);
    }
    if (any) out_puts(o, "    return RELIC_OK;\n}\n\n");
    return any > 0;
}

/* The C layout of each memcpy'd struct is its file layout: asserted. */
static void emit_layout_asserts(gen_schema *s, gen_out *o)
{
    const char *P = em_prefix(s);
    for (int i = 0; i < s->nstructs; i++) {
        const gen_struct *st = s->structs[i];
        if (!layout_is_c(st) || (st->is_root && !em_struct_memcpy(st))) continue;
        out_printf(o, "_Static_assert(sizeof(%s_%s) == %lld", P, st->name, (long long)st->fixed_size);
        for (int k = 0; k < st->nmembers; k++) {
            const gen_field *f = st->members[k].field;
            if (f && f->fixed_offset) out_printf(o, " && offsetof(%s_%s, %s) == %lld", P, st->name, f->name, (long long)f->fixed_offset);
        }
        out_printf(o, ", \"%s: C layout is file layout (arrays are copied with memcpy)\");\n", st->name);
    }
}

void emit_reader(gen_schema *s, gen_out *o)
{
    const char *P = em_prefix(s);
    const char *R = s->format.root->name;
    gen_struct *order[4096];
    int proto[4096];
    int n = em_callee_order(s, order, proto);

    emit_layout_asserts(s, o);
    out_printf(o, "\n/* ---- reader: validating (arena NULL) or decoding (arena set) ---- */\n\n");
    out_printf(o, "typedef struct %s_rctx {\n    const uint8_t *base;\n    uint64_t size;\n    relic_error *err;\n    %s_%s *root;\n    %s_view *view;   /* validating: the root's arrays */\n    relic_arena *arena; /* decoding: where arrays are copied */\n} %s_rctx;\n\n",
               P, P, R, P, P);
    int any = 0;
    for (int i = 0; i < n; i++) {
        if (!order[i]->used || !proto[i]) continue;
        struct_sig(o, P, order[i], 0);
        out_puts(o, ";\n");
        any = 1;
    }
    if (any) out_puts(o, "\n");
    for (int i = 0; i < n; i++)
        if (order[i]->used) emit_struct_fn(s, o, order[i]);
    int var = s->format.root->fixed_size < 0;
    const int split = emit_validate_elements(s, o);
    out_printf(o,
               "relic_status %s_validate%s(const uint8_t *data, size_t size, %s_view *out, relic_error *err)\n{\n"
               "    RELIC_GEN_ERR_CLEARED(err);\n"
               "    *out = (%s_view){ .base = data, .size = size };\n"
               "    %s_rctx c = { data, size, err, &out->values, out, NULL };\n",
               P, split ? "_layout" : "", P, P, P);
    if (var) out_puts(o, "    uint64_t sz;\n");
    out_printf(o,
               "    relic_status st = rd_%s(&c, 0, %s&out->values, 0);\n"
               "    if (st != RELIC_OK) memset(out, 0, sizeof *out);\n"
               "    return st;\n}\n\n",
               R, var ? "&sz, " : "");
    if (split)
        out_printf(o,
                   "relic_status %s_validate(const uint8_t *data, size_t size, %s_view *out, relic_error *err)\n{\n"
                   "    RELIC_GEN_ERR_OR_SCRATCH(err);\n"
                   "    relic_status st = %s_validate_layout(data, size, out, err);\n"
                   "    if (st == RELIC_OK && (st = %s_validate_elements(out, err)) != RELIC_OK) memset(out, 0, sizeof *out);\n"
                   "    return st;\n}\n\n",
                   P, P, P, P);
    out_printf(o,
               "relic_status %s_decode(const %s_view *v, relic_arena *a, %s_%s *out, relic_error *err)\n{\n"
               "    RELIC_GEN_ERR_OR_SCRATCH(err);\n"
               "    memset(out, 0, sizeof *out);\n"
               "    %s_rctx c = { v->base, v->size, err, out, NULL, a };\n",
               P, P, P, R, P);
    if (var) out_puts(o, "    uint64_t sz;\n");
    out_printf(o, "    return rd_%s(&c, 0, %sout, 1);\n}\n\n", R, var ? "&sz, " : "");
}

/* Decoders of codec regions: inflate into the arena, then validate and
 * decode the target struct as a region of its own. */
void emit_codec_decoders(gen_schema *s, gen_out *o)
{
    const char *P = em_prefix(s);
    for (int i = 0; i < s->nstructs; i++) {
        gen_struct *st = s->structs[i];
        gen_field *fs[512];
        int n = em_fields(st, fs, 512);
        for (int k = 0; k < n; k++) {
            gen_field *f = fs[k];
            if (!f->codec) continue;
            const gen_struct *T = f->codec_stype;
            out_printf(o, "relic_status %s_%s_%s_decode(const %s_%s *m, relic_arena *a, %s_%s *out, relic_error *err)\n{\n",
                       P, st->name, f->name, P, st->name, P, T->name);
            out_puts(o, "    RELIC_GEN_ERR_OR_SCRATCH(err);\n    memset(out, 0, sizeof *out);\n");
            out_puts(o, "    const int64_t size = ");
            em_expr(o, f->codec_size, "m->", "m->", "0");
            out_puts(o, ";\n");
            out_printf(o, "    if (size < 0 || (uint64_t)size > RELIC_CODEC_MAX_DECODED) return relic_fail(err, RELIC_E_LIMIT, 0, \"%s\", \"declared decoded size %%lld is outside 0..%%llu\", (long long)size, (unsigned long long)RELIC_CODEC_MAX_DECODED);\n", f->name);
            out_printf(o, "    if ((uint64_t)size > relic_codec_%s_max_decoded(m->%s_count)) return relic_fail(err, RELIC_E_LAYOUT, 0, \"%s\", \"%%zu encoded bytes cannot hold the declared %%lld decoded bytes\", m->%s_count, (long long)size);\n",
                       f->codec, f->name, f->name, f->name);
            out_puts(o, "    uint8_t *buf = relic_arena_alloc(a, (size_t)size, 16);\n");
            out_printf(o, "    if (!buf) return relic_fail(err, RELIC_E_NOMEM, 0, \"%s\", \"out of memory for %%lld decoded bytes\", (long long)size);\n", f->name);
            out_printf(o, "    relic_status st = relic_codec_%s_decode(m->%s, m->%s_count, buf, (size_t)size, a, err);\n", f->codec, f->name, f->name);
            out_printf(o, "    if (st != RELIC_OK) return relic_gen_nest(err, st, \"%s\", -1);\n", f->name);
            out_printf(o, "    return %s_%s_%s_decode_bytes(buf, (size_t)size, a, out, err);\n}\n\n", P, st->name, f->name);
            out_printf(o, "relic_status %s_%s_%s_decode_bytes(const uint8_t *buf, size_t size, relic_arena *a, %s_%s *out, relic_error *err)\n{\n",
                       P, st->name, f->name, P, T->name);
            out_puts(o, "    RELIC_GEN_ERR_OR_SCRATCH(err);\n    memset(out, 0, sizeof *out);\n    relic_status st;\n");
            out_printf(o, "    %s_rctx c = { buf, (uint64_t)size, err, NULL, NULL, NULL };\n", P);
            int var = T->fixed_size < 0;
            if (var) out_puts(o, "    uint64_t sz = 0;\n");
            else out_printf(o, "    const uint64_t sz = %lldu;\n    if (!relic_gen_room(c.size, 0, sz)) return relic_gen_nest(err, relic_gen_short(err, 0, c.size, \"\", \"%s\", sz), \"%s\", -1);\n",
                            (long long)T->fixed_size, T->name, f->name);
            out_printf(o, "    if ((st = rd_%s(&c, 0, %sout, 0)) != RELIC_OK) return relic_gen_nest(err, st, \"%s\", -1);\n", T->name, var ? "&sz, " : "", f->name);
            out_printf(o, "    if (sz != (uint64_t)size) return relic_fail(err, RELIC_E_LAYOUT, sz, \"%s\", \"%%llu decoded bytes follow the %s\", (unsigned long long)((uint64_t)size - sz));\n", f->name, T->name);
            out_puts(o, "    memset(out, 0, sizeof *out);\n    c.arena = a;\n");
            out_printf(o, "    return rd_%s(&c, 0, %sout, 1);\n}\n\n", T->name, var ? "&sz, " : "");
        }
    }
}
