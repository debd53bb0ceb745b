/* emit_writer.c — the writer in generated/<family>/<format>.c: model ->
 * bytes. Sizes first (sz_<struct>), then the root's placed members laid out
 * (relic_gen_layout: the model's own layout when it is sound, else contiguous
 * after the sequential part), derived fields (count, offset, size) recomputed,
 * counts cross-checked against the arrays, and finally one put_<struct> pass
 * storing every value with the field's byte order (a fixed struct with nothing
 * to compute: void put_<struct>(p, m), one store per field). */
#include <stdlib.h>
#include <string.h>

#include "emit.h"

typedef struct wctx {
    gen_schema *s;
    gen_out *o;
    const gen_struct *st;
} wctx;

static uint64_t type_max(gen_prim p)
{
    int bits = gen_prim_size(p) * 8;
    if (gen_prim_is_signed(p)) return bits == 64 ? (uint64_t)INT64_MAX : ((uint64_t)1 << (bits - 1)) - 1;
    return bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

/* Index of a root member placed with `at` among those members (c->at[], c->size[]). */
static int placed_index(const gen_schema *s, const gen_field *f)
{
    gen_field *rf[512];
    int n = em_fields(s->format.root, rf, 512), k = 0;
    for (int i = 0; i < n; i++) {
        if (rf[i] == f) return k;
        if (rf[i]->at) k++;
    }
    return -1;
}

/* C expression for the byte size of member f of model `m` (pointer). */
static void member_size(gen_out *o, gen_schema *s, const gen_field *f, const char *m)
{
    int64_t es = em_elem_size(f), per = em_fixed_elems(f);
    const char *P = em_prefix(s);
    if (f->count || f->count_rest) {
        if (es >= 0) out_printf(o, "((uint64_t)%s%s_count * %lldu)", m, f->name, (long long)(es * per));
        else out_printf(o, "sum_%s_%s(%s%s, %s%s_count)", P + 6, f->stype->name, m, f->name, m, f->name);
    } else if (es >= 0) {
        out_printf(o, "%lldu", (long long)(es * per));
    } else if (em_is_scalar(f)) {
        out_printf(o, "sz_%s(&%s%s)", f->stype->name, m, f->name);
    } else {
        out_printf(o, "sum_%s_%s(%s%s, %lld)", P + 6, f->stype->name, m, f->name, (long long)per);
    }
}

static void emit_sz_members(wctx *w, const gen_member *m, int n);
static void sz_body(void *ctx, const gen_member *m, int n) { emit_sz_members(ctx, m, n); }

static void emit_sz_members(wctx *w, const gen_member *m, int n)
{
    gen_out *o = w->o;
    int64_t fixed = 0; /* a run of fixed-size members: one addition */
    for (int i = 0; i < n; i++) {
        if (m[i].kind == M_FIELD) {
            const gen_field *f = m[i].field;
            if (f->at) continue;
            if (!f->count && !f->count_rest && em_elem_size(f) >= 0) {
                fixed += em_elem_size(f) * em_fixed_elems(f);
                continue;
            }
            if (fixed) out_printf(o, "    t += %lldu;\n", (long long)fixed);
            fixed = 0;
            out_puts(o, "    t += ");
            member_size(o, w->s, f, "m->");
            out_puts(o, ";\n");
        } else if (m[i].kind != M_CHECK) {
            if (fixed) out_printf(o, "    t += %lldu;\n", (long long)fixed);
            fixed = 0;
            em_branch(o, &m[i], "m->", "root_->", sz_body, w, NULL);
        }
    }
    if (fixed) out_printf(o, "    t += %lldu;\n", (long long)fixed);
}

static void emit_store_scalar(gen_out *o, const gen_field *f, const char *at, const char *val)
{
    gen_prim p = f->prim;
    if (gen_prim_is_signed(p) && !gen_prim_is_float(p))
        out_printf(o, "%s(%s, (uint%d_t)(%s));", em_store_fn(f), at, gen_prim_size(p) * 8, val);
    else
        out_printf(o, "%s(%s, %s);", em_store_fn(f), at, val);
}

/* A fixed-size struct with nothing to compute or check: stored by a void
 * put_<struct>(p, m), one line per field. */
static int simple_struct(const gen_struct *st)
{
    if (st->fixed_size < 0 || st->is_root) return 0;
    for (int i = 0; i < st->nmembers; i++) {
        const gen_member *m = &st->members[i];
        if (m->kind == M_CHECK) continue;
        if (m->kind != M_FIELD) return 0;
        const gen_field *f = m->field;
        if (f->at || f->count || f->count_rest || (f->is_derived && !f->init->root_scope)) return 0;
        if (f->stype && !simple_struct(f->stype)) return 0;
    }
    return 1;
}

/* Position tracking as in emit_reader.c: base ("pos", "cur" or "p") + k. */
static const char *w_here(const char *base, int64_t k)
{
    static char bufs[8][64];
    static int n;
    char *b = bufs[n++ & 7];
    if (k) snprintf(b, 64, "%s + %lld", base, (long long)k);
    else snprintf(b, 64, "%s", base);
    return b;
}

/* One field at a known position: `at` is its address expression. */
static void emit_put_fixed(wctx *w, const gen_field *f, const char *at, int simple)
{
    gen_out *o = w->o;
    const char *P = em_prefix(w->s);
    int64_t es = em_elem_size(f), per = em_fixed_elems(f);
    if (f->prim == P_CHAR || f->prim == P_BYTES) {
        out_printf(o, "    memcpy(%s, ", at);
        if (f->const_str) em_cstring(o, f->const_str, f->const_len);
        else out_printf(o, "m->%s", f->name);
        out_printf(o, ", %lld);\n", (long long)(f->const_str ? f->const_len : per));
    } else if (f->stype) {
        const char *T = f->stype->name;
        if (em_is_scalar(f)) {
            if (simple) out_printf(o, "    put_%s(%s, &m->%s);\n", T, at, f->name);
            else out_printf(o, "    if ((st = put_%s(c, &m->%s, %s, &sz)) != RELIC_OK) return relic_gen_nest(c->err, st, \"%s\", -1);\n", T, f->name, at, f->name);
        } else {
            out_printf(o, "    for (uint64_t k = 0; k < %lldu; k++)\n", (long long)per);
            if (simple) out_printf(o, "        put_%s(%s + k * %lld, &((const %s_%s *)m->%s)[k]);\n", T, at, (long long)es, P, T, f->name);
            else out_printf(o, "        if ((st = put_%s(c, &((const %s_%s *)m->%s)[k], %s + k * %lld, &sz)) != RELIC_OK) return relic_gen_nest(c->err, st, \"%s\", (int64_t)k);\n",
                            T, P, T, f->name, at, (long long)es, f->name);
        }
    } else {
        const char *ct = gen_prim_ctype(f->prim);
        char val[160], addr[160];
        if (em_is_scalar(f)) {
            if (f->init && f->init->kind == EX_INT) snprintf(val, sizeof val, "(%s)INT64_C(%lld)", ct, (long long)f->init->ival);
            else snprintf(val, sizeof val, "m->%s", f->name);
            out_puts(o, "    ");
            emit_store_scalar(o, f, at, val);
            out_puts(o, "\n");
        } else {
            snprintf(val, sizeof val, "((const %s *)m->%s)[k]", ct, f->name);
            snprintf(addr, sizeof addr, "%s + k * %lld", at, (long long)es);
            out_printf(o, "    for (uint64_t k = 0; k < %lldu; k++) ", (long long)per);
            emit_store_scalar(o, f, addr, val);
            out_puts(o, "\n");
        }
    }
}

/* Counted, placed or variable-size members of a general struct: no block of
 * their own; a placed member's position is c->at[i], an array's element
 * count the function's local n (declared by its caller when used). */
static void emit_put_var(wctx *w, const gen_field *f)
{
    gen_out *o = w->o;
    gen_schema *s = w->s;
    const char *P = em_prefix(s);
    int64_t es = em_elem_size(f), per = em_fixed_elems(f);
    int var = f->count || f->count_rest;
    char p[32], n[32];
    if (f->at) snprintf(p, sizeof p, "c->at[%d]", placed_index(s, f));
    else snprintf(p, sizeof p, "cur");
    if (var) snprintf(n, sizeof n, "n");
    else snprintf(n, sizeof n, "%lldu", (long long)per);
    if (f->count) {
        gen_out t = {0};
        em_expr_text(&t, f->count);
        out_printf(o, "    if ((st = relic_gen_count(c->err, %s, \"%s\", \"%s\", ", p, f->name, t.data);
        em_expr(o, f->count, "m->", "c->root->", "0");
        out_printf(o, ", m->%s_count)) != RELIC_OK) return st;\n", f->name);
        free(t.data);
    }
    if (var && per == 1) out_printf(o, "    n = m->%s_count;\n", f->name);
    else if (var) out_printf(o, "    n = (uint64_t)m->%s_count * %lldu;\n", f->name, (long long)per);
    int need_bytes = !f->at;
    if (f->prim == P_CHAR || f->prim == P_BYTES) {
        if (f->const_str) {
            out_printf(o, "    memcpy(c->base + %s, ", p);
            em_cstring(o, f->const_str, f->const_len);
            out_printf(o, ", %d);\n", f->const_len);
        } else {
            out_printf(o, "    %smemcpy(c->base + %s, m->%s, (size_t)%s);\n", var ? "if (n) " : "", p, f->name, n);
        }
        if (need_bytes) out_printf(o, "    cur += %s;\n", n);
    } else if (!f->stype) {
        const char *ct = gen_prim_ctype(f->prim);
        char at[96], val[160];
        snprintf(at, sizeof at, "c->base + %s + k * %lld", p, (long long)es);
        snprintf(val, sizeof val, "((const %s *)m->%s)[k]", ct, f->name);
        if (em_is_scalar(f)) {
            snprintf(val, sizeof val, "m->%s", f->name);
            snprintf(at, sizeof at, "c->base + %s", p);
            out_puts(o, "    ");
            emit_store_scalar(o, f, at, val);
            out_puts(o, "\n");
        } else {
            if (var && es > 1 && f->endian == EN_LITTLE)
                out_printf(o, "    if (RELIC_GEN_LE) { if (n) memcpy(c->base + %s, m->%s, (size_t)(n * %lldu)); }\n    else ", p, f->name, (long long)es);
            else out_puts(o, "    ");
            out_printf(o, "for (uint64_t k = 0; k < %s; k++) ", n);
            emit_store_scalar(o, f, at, val);
            out_puts(o, "\n");
        }
        if (need_bytes) out_printf(o, "    cur += %s * %lldu;\n", n, (long long)es);
    } else {
        const char *T = f->stype->name;
        int simple = simple_struct(f->stype);
        if (em_is_scalar(f)) {
            if (simple) out_printf(o, "    put_%s(c->base + %s, &m->%s);\n", T, p, f->name);
            else out_printf(o, "    if ((st = put_%s(c, &m->%s, %s, &sz)) != RELIC_OK) return relic_gen_nest(c->err, st, \"%s\", -1);\n", T, f->name, p, f->name);
            if (need_bytes) out_puts(o, "    cur += sz;\n");
        } else {
            char elem[200];
            if (var) snprintf(elem, sizeof elem, "&m->%s[k]", f->name);
            else snprintf(elem, sizeof elem, "&((const %s_%s *)m->%s)[k]", P, T, f->name);
            const char *ind = "    ";
            if (var && em_struct_memcpy(f->stype)) {
                out_printf(o, "    if (RELIC_GEN_LE) { if (n) memcpy(c->base + %s, m->%s, (size_t)(n * %lldu)); }\n    else ", p, f->name, (long long)es);
                ind = "";
            }
            if (simple) {
                out_printf(o, "%sfor (uint64_t k = 0; k < %s; k++) put_%s(c->base + %s + k * %lld, %s);\n", ind, n, T, p, (long long)es, elem);
                if (need_bytes) out_printf(o, "    cur += %s * %lldu;\n", n, (long long)es);
            } else {
                if (!*ind) ind = "    "; /* after "else " */
                out_printf(o, "%s{\n%s    uint64_t q = %s;\n%s    for (uint64_t k = 0; k < %s; k++) {\n", ind, ind, p, ind, n);
                out_printf(o, "%s        if ((st = put_%s(c, %s, q, &sz)) != RELIC_OK) return relic_gen_nest(c->err, st, \"%s\", (int64_t)k);\n", ind, T, elem, f->name);
                out_printf(o, "%s        q += sz;\n%s    }\n", ind, ind);
                if (need_bytes) out_printf(o, "%s    cur = q;\n", ind);
                out_printf(o, "%s}\n", ind);
            }
        }
    }
}

typedef struct wpos {
    wctx *w;
    const char *base;
    int64_t k;
} wpos;

static void emit_put_members(wpos *wp, const gen_member *m, int n);
static void put_body(void *ctx, const gen_member *m, int n)
{
    wpos *wp = ctx;
    emit_put_members(wp, m, n);
    if (wp->k) {
        out_printf(wp->w->o, "    cur += %lld;\n", (long long)wp->k);
        wp->k = 0;
    }
}

static void emit_put_members(wpos *wp, const gen_member *m, int n)
{
    wctx *w = wp->w;
    for (int i = 0; i < n; i++) {
        if (m[i].kind == M_CHECK) continue;
        if (m[i].kind == M_FIELD) {
            const gen_field *f = m[i].field;
            int64_t es = em_elem_size(f);
            if (!f->at && !f->count && !f->count_rest && es >= 0) {
                char at[96];
                snprintf(at, sizeof at, "c->base + %s", w_here(wp->base, wp->k));
                emit_put_fixed(w, f, at, f->stype ? simple_struct(f->stype) : 1);
                wp->k += es * em_fixed_elems(f);
                continue;
            }
            if (!f->at && (wp->k || strcmp(wp->base, "cur"))) {
                out_printf(w->o, "    cur = %s;\n", w_here(wp->base, wp->k));
                wp->base = "cur";
                wp->k = 0;
            }
            emit_put_var(w, f);
            continue;
        }
        if (wp->k || strcmp(wp->base, "cur")) {
            out_printf(w->o, "    cur = %s;\n", w_here(wp->base, wp->k));
            wp->base = "cur";
            wp->k = 0;
        }
        if (m[i].kind == M_SWITCH) {
            gen_out t = {0}, stmt = {0};
            em_expr_text(&t, m[i].cond);
            out_printf(&stmt, "return relic_fail(c->err, RELIC_E_ARGUMENT, cur, \"%s\", \"no case for %s\");", w->st->name, t.data);
            em_branch(w->o, &m[i], "m->", "c->root->", put_body, wp, stmt.data);
            free(t.data);
            free(stmt.data);
        } else {
            em_branch(w->o, &m[i], "m->", "c->root->", put_body, wp, NULL);
        }
    }
}

/* Fill the derived fields of struct st held at `holder` (C lvalue prefix,
 * e.g. "m->" or "m->header."), targets reached through `tgt` ("m->"). */
static void emit_fill_derived(wctx *w, const gen_struct *st, const char *holder, const char *tgt, int root_targets)
{
    gen_out *o = w->o;
    gen_field *fs[512];
    int n = em_fields(st, fs, 512);
    for (int i = 0; i < n; i++) {
        gen_field *f = fs[i];
        if (!f->is_derived || f->init->root_scope != root_targets) continue;
        const gen_field *t = f->init->ref;
        gen_out v = {0};
        switch (f->init->func) {
        case FN_COUNT: out_printf(&v, "(uint64_t)%s%s_count", tgt, t->name); break;
        case FN_OFFSET:
            /* Nothing lies at an empty array's offset, so the value the model holds (the
             * file's own, e.g. 0 or the next free byte) is kept when it stays inside the
             * output; a changed file gets the array's real position. */
            if (t->at && (t->count || t->count_rest))
                out_printf(&v, "(%s%s_count == 0 && (uint64_t)%s%s <= total) ? (uint64_t)%s%s : c->at[%d]",
                           tgt, t->name, holder, f->name, holder, f->name, placed_index(w->s, t));
            else if (t->at) out_printf(&v, "c->at[%d]", placed_index(w->s, t));
            else if (t->fixed_offset >= 0 && t->owner && t->owner->is_root) out_printf(&v, "%lldu", (long long)t->fixed_offset);
            else gen_error(f->loc, "offset(%s): the writer can only place members with 'at' or at a fixed root offset", t->name);
            break;
        case FN_SIZE:
            if (t->at) out_printf(&v, "c->size[%d]", placed_index(w->s, t));
            else member_size(&v, w->s, t, tgt);
            break;
        }
        if (!v.data) continue;
        if (!gen_prim_is_signed(f->prim)) {
            /* one call checks the value fits the field and stores it (relic_gen.h) */
            out_printf(o, "    if ((st = relic_gen_set_%s(c->err, &%s%s, %s, \"%s\")) != RELIC_OK) return st;\n",
                       gen_prim_name(f->prim), holder, f->name, v.data, f->name);
        } else {
            out_printf(o, "    if ((st = relic_gen_fits(c->err, d = %s, UINT64_C(%llu), \"%s\", \"%s\")) != RELIC_OK) return st;\n",
                       v.data, (unsigned long long)type_max(f->prim), f->name, gen_prim_name(f->prim));
            out_printf(o, "    %s%s = (%s)d;\n", holder, f->name, gen_prim_ctype(f->prim));
        }
        free(v.data);
    }
}

void emit_writer(gen_schema *s, gen_out *o)
{
    const char *P = em_prefix(s);
    gen_struct *root = s->format.root;
    const char *R = root->name;
    gen_struct *order[4096];
    int proto[4096];
    int n = 0, all = em_callee_order(s, order, proto);
    for (int i = 0; i < all; i++)
        if (order[i]->used && em_reachable(root, order[i])) {
            proto[n] = proto[i];
            order[n++] = order[i];
        }
    gen_field *rf[512];
    int nrf = em_fields(root, rf, 512);

    out_puts(o, "/* ---- writer ---- */\n\n");
    out_printf(o, "typedef struct %s_wctx {\n    uint8_t *base;\n    relic_error *err;\n    const %s_%s *root;\n", P, P, R);
    int nplaced = 0;
    for (int i = 0; i < nrf; i++) nplaced += rf[i]->at != NULL;
    if (nplaced) {
        out_printf(o, "    uint64_t at[%d], size[%d]; /* placed members:", nplaced, nplaced);
        for (int i = 0, k = 0; i < nrf; i++)
            if (rf[i]->at) out_printf(o, " %d %s", k++, rf[i]->name);
        out_puts(o, " */\n");
    }
    out_printf(o, "} %s_wctx;\n\n", P);

    for (int i = 0; i < n; i++) {
        const gen_struct *st = order[i];
        if (!st->used || !proto[i]) continue;
        if (simple_struct(st)) out_printf(o, "static inline void put_%s(uint8_t *p, const %s_%s *m);\n", st->name, P, st->name);
        else out_printf(o, "static relic_status put_%s(%s_wctx *c, const %s_%s *m, uint64_t pos, uint64_t *size_out);\n", st->name, P, P, st->name);
        if (st->fixed_size < 0) out_printf(o, "static uint64_t sz_%s(const %s_%s *m);\n", st->name, P, st->name);
        out_puts(o, "\n");
    }
    /* sizes of variable structs and sums over arrays of them */
    int any_var = 0;
    for (int i = 0; i < n; i++) any_var |= order[i]->used && order[i]->fixed_size < 0;
    int root_read = 0;
    for (int i = 0; i < n && any_var; i++) {
        if (order[i]->fixed_size >= 0 || !order[i]->used) continue;
        wctx w = {s, NULL, order[i]};
        gen_out body = {0};
        w.o = &body;
        emit_sz_members(&w, order[i]->members, order[i]->nmembers);
        if (body.data && strstr(body.data, "root_->")) root_read = 1;
        free(body.data);
    }
    if (root_read) out_printf(o, "static const %s_%s *root_sz_; /* the root whose fields variable sizes read */\n\n", P, R);
    for (int i = 0; i < n; i++) {
        const gen_struct *st = order[i];
        if (st->fixed_size >= 0 || !st->used) continue;
        wctx w = {s, o, st};
        gen_out body = {0};
        w.o = &body;
        emit_sz_members(&w, st->members, st->nmembers);
        w.o = o;
        out_printf(o, "static uint64_t sz_%s(const %s_%s *m)\n{\n", st->name, P, st->name);
        if (strstr(body.data, "root_->")) out_printf(o, "    const %s_%s *root_ = root_sz_;\n", P, R);
        out_printf(o, "    uint64_t t = 0;\n%s    return t;\n}\n\n", body.data);
        free(body.data);
        int summed = 0;
        for (int j = 0; j < s->nstructs && !summed; j++) {
            gen_field *fs[512];
            int nf = em_fields(s->structs[j], fs, 512);
            for (int k = 0; k < nf; k++)
                if (fs[k]->stype == st && !em_is_scalar(fs[k])) summed = 1;
        }
        if (summed)
            out_printf(o, "static uint64_t sum_%s_%s(const %s_%s *a, size_t n)\n{\n    uint64_t t = 0;\n    for (size_t i = 0; i < n; i++) t += sz_%s(&a[i]);\n    return t;\n}\n\n",
                       P + 6, st->name, P, st->name, st->name);
    }
    for (int i = 0; i < n; i++) {
        const gen_struct *st = order[i];
        if (!st->used) continue;
        wctx w = {s, o, st};
        if (simple_struct(st)) {
            out_printf(o, "static inline void put_%s(uint8_t *p, const %s_%s *m)\n{\n", st->name, P, st->name);
            for (int k = 0; k < st->nmembers; k++) {
                if (st->members[k].kind != M_FIELD) continue;
                const gen_field *f = st->members[k].field;
                char at[64];
                snprintf(at, sizeof at, "p + %lld", (long long)f->fixed_offset);
                emit_put_fixed(&w, f, at, 1);
            }
            out_puts(o, "}\n\n");
            continue;
        }
        gen_out body = {0};
        w.o = &body;
        int derived = 0;
        if (!st->is_root) {
            emit_fill_derived(&w, st, "m->", "m->", 0);
            derived = body.size > 0;
        }
        wpos wp = {&w, "pos", 0};
        emit_put_members(&wp, st->members, st->nmembers);
        w.o = o;
        out_printf(o, "static relic_status put_%s(%s_wctx *c, const %s_%s *m%s, uint64_t pos, uint64_t *size_out)\n{\n",
                   st->name, P, P, st->name, derived ? "0" : "");
        if (derived) out_printf(o, "    %s_%s copy = *m0, *m = &copy; /* its derived fields are recomputed */\n", P, st->name);
        int uses_st = strstr(body.data, "(st = ") != NULL;
        if (uses_st) out_puts(o, "    relic_status st;\n");
        if (strstr(body.data, "&sz)")) out_puts(o, "    uint64_t sz = 0;\n");
        if (strstr(body.data, ", d = ")) out_puts(o, "    uint64_t d;\n");
        if (strstr(body.data, "    n = ")) out_puts(o, "    uint64_t n;\n");
        int uses_cur = strstr(body.data, "cur") != NULL;
        if (uses_cur) out_puts(o, "    uint64_t cur = pos;\n");
        else if (!body.data || !strstr(body.data, "pos")) out_puts(o, "    (void)pos;\n");
        out_puts(o, body.data ? body.data : "");
        free(body.data);
        if (!strcmp(wp.base, "cur")) out_printf(o, "    *size_out = %s - pos;\n", w_here("cur", wp.k));
        else out_printf(o, "    *size_out = %lldu;\n", (long long)wp.k);
        out_puts(o, "    return RELIC_OK;\n}\n\n");
    }

    /* entry point */
    wctx w = {s, NULL, root};
    gen_out derived = {0};
    w.o = &derived;
    emit_fill_derived(&w, root, "m->", "m->", 0);
    emit_fill_derived(&w, root, "m->", "m->", 1);
    for (int i = 0; i < nrf; i++)
        if (rf[i]->stype && em_is_scalar(rf[i])) {
            char holder[160];
            snprintf(holder, sizeof holder, "m->%s.", rf[i]->name);
            emit_fill_derived(&w, rf[i]->stype, holder, "m->", 1);
        }
    w.o = o;
    out_printf(o, "relic_status %s_write(const %s_%s *model, relic_buf *out, relic_error *err)\n{\n", P, P, R);
    out_printf(o, "    RELIC_GEN_ERR_CLEARED(err);\n");
    out_printf(o, "    %s_%s copy = *model, *m = &copy; /* its derived fields are recomputed */\n", P, R);
    out_printf(o, "    %s_wctx cc = { .err = err, .root = m }, *c = &cc;\n    relic_status st;\n", P);
    if (derived.size && strstr(derived.data, ", d = ")) out_puts(o, "    uint64_t d;\n");
    if (root_read) out_puts(o, "    root_sz_ = m;\n");
    char seq[64];
    if (root->fixed_size < 0) snprintf(seq, sizeof seq, "sz_%s(m)", R);
    else snprintf(seq, sizeof seq, "%lldu", (long long)root->fixed_size);
    if (nplaced) {
        /* The model's own layout when every non-empty placed member has an offset
         * field and the spans neither overlap nor reach into the sequential part (a
         * file with its tables in another order, or with gaps, is written back as it
         * was); else the placed members follow the sequential part in schema order. */
        for (int i = 0, k = 0; i < nrf; i++) {
            if (!rf[i]->at) continue;
            out_printf(o, "    c->size[%d] = ", k++);
            member_size(o, s, rf[i], "m->");
            out_puts(o, ";\n");
        }
        out_printf(o, "    const uint64_t held[%d] = {", nplaced);
        for (int i = 0, k = 0; i < nrf; i++) {
            gen_field *f = rf[i];
            if (!f->at) continue;
            const gen_expr *e = f->at;
            int held = e->kind == EX_NAME && e->ref && e->ref->is_derived && e->ref->init->func == FN_OFFSET && e->ref->init->ref == f;
            out_puts(o, k++ ? ",\n        " : "\n        ");
            if (held) {
                out_puts(o, "m->");
                for (int p = 0; p < e->npath; p++) out_printf(o, "%s%s", p ? "." : "", e->path[p]);
            } else {
                out_puts(o, "RELIC_GEN_NOT_HELD");
            }
        }
        out_puts(o, "\n    };\n    uint64_t cur;\n");
        out_printf(o, "    if ((st = relic_gen_layout(err, %s, %d, held, c->size, c->at, &cur)) != RELIC_OK) return st;\n", seq, nplaced);
    } else {
        out_printf(o, "    const uint64_t cur = %s;\n", seq);
    }
    if (derived.size && strstr(derived.data, "total")) out_puts(o, "    const uint64_t total = cur;\n");
    if (derived.size) out_puts(o, derived.data);
    free(derived.data);
    out_puts(o, "    const size_t start = out->size;\n");
    out_puts(o, "    if (!(c->base = relic_gen_extend(out, cur, err))) return err->code;\n");
    out_puts(o, "    uint64_t sz;\n");
    out_printf(o, "    if ((st = put_%s(c, m, 0, &sz)) != RELIC_OK) out->size = start;\n", R);
    out_puts(o, "    return st;\n}\n\n");
}
