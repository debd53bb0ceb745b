/* emit_reader.c — the validator and the decoder in generated/<family>/<format>.c.
 * One function per struct and mode: val_<struct> checks everything once
 * (bounds with overflow-safe arithmetic, constants, enums, ranges, checks,
 * cross references) and fills the root view; dec_<struct> walks the same
 * layout over already-validated bytes, copying values into the model. */
#include <stdlib.h>
#include <string.h>

#include "emit.h"

enum { MODE_VAL, MODE_DEC };

typedef struct rctx {
    gen_schema *s;
    gen_out *o;
    const gen_struct *st;
    int mode;
    int is_root;
    int fixed_checked; /* the struct's whole span was checked on entry */
} rctx;

static const char *mname(int mode) { return mode == MODE_VAL ? "val" : "dec"; }

static int has_name_ref(const gen_expr *e)
{
    if (!e) return 0;
    if (e->kind == EX_NAME) return 1;
    return has_name_ref(e->a) || has_name_ref(e->b);
}

/* Checks on one scalar value held in C expression `val`; `idx` is the C
 * expression of the element index for the path, or NULL. */
static void emit_value_checks(rctx *r, const gen_field *f, const char *val, const char *idx, const char *off)
{
    gen_out *o = r->o;
    const char *P = em_prefix(r->s);
    const char *ix = idx ? idx : "-1";
    if (f->init && f->init->kind == EX_INT)
        out_printf(o, "        if ((int64_t)(%s) != INT64_C(%lld)) return relic_gen_fail_at(c->err, RELIC_E_MAGIC, %s, \"%s\", %s, \"expected %lld, found %%lld\", (long long)(%s));\n",
                   val, (long long)f->init->ival, off, f->name, ix, (long long)f->init->ival, val);
    if (f->etype && !f->etype->open) {
        if (f->etype->is_flags)
            out_printf(o, "        if (((uint64_t)(%s) & ~(uint64_t)%s_%s_MASK) != 0) return relic_gen_fail_at(c->err, RELIC_E_RANGE, %s, \"%s\", %s, \"unknown %s bits 0x%%llx\", (unsigned long long)((uint64_t)(%s) & ~(uint64_t)%s_%s_MASK));\n",
                       val, em_upper(P), em_upper(f->etype->name), off, f->name, ix, f->etype->name, val, em_upper(P), em_upper(f->etype->name));
        else
            out_printf(o, "        if (!%s_%s_known((int64_t)(%s))) return relic_gen_fail_at(c->err, RELIC_E_RANGE, %s, \"%s\", %s, \"%%lld is not a known %s\", (long long)(%s));\n",
                       P, f->etype->name, val, off, f->name, ix, f->etype->name, val);
    }
    if (f->has_range) {
        if (gen_prim_is_float(f->prim))
            out_printf(o, "        if (!((double)(%s) >= %lld.0 && (double)(%s) <= %lld.0)) return relic_gen_fail_at(c->err, RELIC_E_RANGE, %s, \"%s\", %s, \"%%g is outside %lld..%lld\", (double)(%s));\n",
                       val, (long long)f->range_lo, val, (long long)f->range_hi, off, f->name, ix, (long long)f->range_lo, (long long)f->range_hi, val);
        else if (f->range_lo <= 0 && !gen_prim_is_signed(f->prim))
            /* an unsigned value cannot be below 0: only the upper bound (avoids -Wtype-limits) */
            out_printf(o, "        if ((uint64_t)(%s) > UINT64_C(%lld)) return relic_gen_fail_at(c->err, RELIC_E_RANGE, %s, \"%s\", %s, \"%%llu is outside %lld..%lld\", (unsigned long long)(%s));\n",
                       val, (long long)f->range_hi, off, f->name, ix, (long long)f->range_lo, (long long)f->range_hi, val);
        else
            out_printf(o, "        if ((int64_t)(%s) < INT64_C(%lld) || (int64_t)(%s) > INT64_C(%lld)) return relic_gen_fail_at(c->err, RELIC_E_RANGE, %s, \"%s\", %s, \"%%lld is outside %lld..%lld\", (long long)(%s));\n",
                       val, (long long)f->range_lo, val, (long long)f->range_hi, off, f->name, ix, (long long)f->range_lo, (long long)f->range_hi, val);
    }
    if (f->check) {
        gen_out t = { 0 };
        em_expr_text(&t, f->check);
        out_printf(o, "        { const int64_t it = (int64_t)(%s); if (!(", val);
        em_expr(o, f->check, "m->", "c->root->", "it");
        out_printf(o, ")) return relic_gen_fail_at(c->err, %s, %s, \"%s\", %s, \"%%lld fails check ", has_name_ref(f->check) ? "RELIC_E_INDEX" : "RELIC_E_RANGE", off, f->name, ix);
        for (size_t k = 0; k < t.size; k++) {
            if (t.data[k] == '%') out_puts(o, "%%");
            else if (t.data[k] == '"' || t.data[k] == '\\') out_printf(o, "\\%c", t.data[k]);
            else out_printf(o, "%c", t.data[k]);
        }
        out_puts(o, "\", (long long)it); }\n");
        free(t.data);
    }
}

static void emit_members(rctx *r, const gen_member *m, int n);
static void members_body(void *ctx, const gen_member *m, int n) { emit_members(ctx, m, n); }

static void emit_load_scalar(rctx *r, const gen_field *f, const char *dst, const char *at)
{
    if (gen_prim_is_signed(f->prim) && !gen_prim_is_float(f->prim))
        out_printf(r->o, "%s = (%s)%s(%s);", dst, gen_prim_ctype(f->prim), em_load_fn(f), at);
    else
        out_printf(r->o, "%s = %s(%s);", dst, em_load_fn(f), at);
}

static void emit_field(rctx *r, const gen_field *f)
{
    gen_out *o = r->o;
    const char *P = em_prefix(r->s);
    int V = r->mode == MODE_VAL;
    int64_t es = em_elem_size(f);
    int64_t per = em_fixed_elems(f);
    int var = f->count || f->count_rest;

    out_printf(o, "    { /* %s */\n", f->name);
    int covered = r->fixed_checked && !f->at && !f->count && !f->count_rest;
    /* An offset-placed, counted array of fixed-size elements (BWM's nine
     * tables, GFF's six arrays): its three checks are one call of
     * relic_gen_place (gen_support.c), same errors, a tenth of the code. */
    int placed = V && f->at && f->count && es > 0 && !covered;
    if (placed) {
        out_puts(o, "        uint64_t p_, n_, bytes_;\n        { const relic_status ps_ = relic_gen_place(c->err, cur, ");
        em_expr(o, f->at, "m->", "c->root->", "0");
        out_puts(o, ", ");
        em_expr(o, f->count, "m->", "c->root->", "0");
        out_printf(o, ", %lldu, %lldu, c->size, \"%s\", &p_, &n_, &bytes_); if (ps_ != RELIC_OK) return ps_; }\n",
                   (long long)per, (long long)es, f->name);
    }
    /* where */
    if (placed) {
    } else if (f->at) {
        out_puts(o, "        const int64_t at_ = ");
        em_expr(o, f->at, "m->", "c->root->", "0");
        out_puts(o, ";\n");
        if (V) out_printf(o, "        if (at_ < 0 || (uint64_t)at_ > c->size) return relic_gen_fail_at(c->err, RELIC_E_LAYOUT, cur, \"%s\", -1, \"offset %%lld is outside the %%llu-byte input\", (long long)at_, (unsigned long long)c->size);\n", f->name);
        out_puts(o, "        const uint64_t p_ = (uint64_t)at_;\n");
    } else {
        out_puts(o, "        const uint64_t p_ = cur;\n");
    }
    /* how many */
    if (placed) {
    } else if (f->count) {
        out_puts(o, "        const int64_t cnt_ = ");
        em_expr(o, f->count, "m->", "c->root->", "0");
        out_puts(o, ";\n");
        if (V) out_printf(o, "        if (cnt_ < 0) return relic_gen_fail_at(c->err, RELIC_E_RANGE, p_, \"%s\", -1, \"negative element count %%lld\", (long long)cnt_);\n", f->name);
        out_printf(o, "        const uint64_t n_ = (uint64_t)cnt_ * %lldu;\n", (long long)per);
    } else if (f->count_rest) {
        if (es > 0) out_printf(o, "        const uint64_t n_ = (c->size - p_) / %lldu;\n", (long long)(es * per));
        else out_puts(o, "        const uint64_t n_ = c->size - p_; /* upper bound; the walk stops at the end */\n");
    } else {
        out_printf(o, "        const uint64_t n_ = %lldu;\n        (void)n_;\n", (long long)per);
    }
    /* bounds */
    if (placed) {
    } else if (es > 0) {
        out_puts(o, "        uint64_t bytes_;\n");
        if (V && !covered && !var && per == 1)
            out_printf(o, "        if (!relic_gen_span_ok(p_, n_, %lldu, c->size, &bytes_)) return relic_gen_fail_at(c->err, RELIC_E_TRUNCATED, p_, \"%s\", -1, \"%s needs %lld bytes, %%llu remain\", (unsigned long long)(p_ < c->size ? c->size - p_ : 0));\n",
                       (long long)es, f->name, f->name, (long long)es);
        else if (V && !covered)
            out_printf(o, "        if (!relic_gen_span_ok(p_, n_, %lldu, c->size, &bytes_)) return relic_gen_fail_at(c->err, RELIC_E_TRUNCATED, p_, \"%s\", -1, \"%%llu elements of %lld bytes need %%llu bytes from 0x%%llx, %%llu remain\", (unsigned long long)n_, (unsigned long long)n_ * %lldu, (unsigned long long)p_, (unsigned long long)(p_ < c->size ? c->size - p_ : 0));\n",
                       (long long)es, f->name, (long long)es, (long long)es);
        else out_printf(o, "        bytes_ = n_ * %lldu;%s\n", (long long)es, covered ? " /* inside the struct's checked span */" : "");
    } else {
        out_puts(o, "        uint64_t bytes_ = 0;\n");
        if (V) out_printf(o, "        if (n_ > c->size - (p_ < c->size ? p_ : c->size) + 1) return relic_gen_fail_at(c->err, RELIC_E_LIMIT, p_, \"%s\", -1, \"%%llu variable-size elements cannot fit in the remaining bytes\", (unsigned long long)n_);\n", f->name);
    }
    if (var) out_printf(o, "        m->%s_count = (size_t)(n_ / %lldu);\n", f->name, (long long)per);
    if (V && r->is_root && !(em_is_scalar(f) && !f->stype))
        out_printf(o, "        c->view->%s = c->base + p_;%s\n", f->name, em_is_scalar(f) ? "" : "");
    if (V && r->is_root && !em_is_scalar(f)) out_printf(o, "        c->view->%s_count = (size_t)(n_ / %lldu);\n", f->name, (long long)per);

    char dstbuf[160];
    if (f->prim == P_CHAR || f->prim == P_BYTES) {
        if (!var) {
            out_printf(o, "        memcpy(m->%s, c->base + p_, (size_t)n_);\n", f->name);
            if (V && f->const_str) {
                out_printf(o, "        if (memcmp(m->%s, ", f->name);
                em_cstring(o, f->const_str, f->const_len);
                out_printf(o, ", %d) != 0) return relic_gen_fail_at(c->err, RELIC_E_MAGIC, p_, \"%s\", -1, \"expected ", f->const_len, f->name);
                gen_out t = { 0 };
                em_cstring(&t, f->const_str, f->const_len);
                for (size_t k = 0; k < t.size; k++) {
                    if (t.data[k] == '"' || t.data[k] == '\\') out_printf(o, "\\%c", t.data[k]);
                    else if (t.data[k] == '%') out_puts(o, "%%");
                    else out_printf(o, "%c", t.data[k]);
                }
                free(t.data);
                out_puts(o, "\");\n");
            }
        } else if (!V) {
            out_printf(o, "        m->%s = relic_arena_alloc(c->arena, (size_t)n_ + 1, 1);\n", f->name);
            out_printf(o, "        if (!m->%s) return relic_fail(c->err, RELIC_E_NOMEM, p_, \"%s\", \"out of memory for %%llu bytes\", (unsigned long long)n_);\n", f->name, f->name);
            out_printf(o, "        memcpy(m->%s, c->base + p_, (size_t)n_);\n", f->name);
        }
        if (V && f->hook)
            out_printf(o, "        { relic_status hs_ = relic_hook_%s(c->base + p_, (size_t)n_, c->err); if (hs_ != RELIC_OK) { c->err->offset += p_; relic_gen_path_prefix(c->err, \"%s\", -1); return hs_; } }\n", f->hook, f->name);
    } else if (!f->stype) {
        const char *ct = gen_prim_ctype(f->prim);
        if (em_is_scalar(f)) {
            out_puts(o, "        ");
            snprintf(dstbuf, sizeof dstbuf, "m->%s", f->name);
            emit_load_scalar(r, f, dstbuf, "c->base + p_");
            out_puts(o, "\n");
            if (V) { snprintf(dstbuf, sizeof dstbuf, "m->%s", f->name); emit_value_checks(r, f, dstbuf, NULL, "p_"); }
        } else if (!var) {
            out_printf(o, "        for (uint64_t k_ = 0; k_ < n_; k_++) {\n            ");
            snprintf(dstbuf, sizeof dstbuf, "((%s *)m->%s)[k_]", ct, f->name);
            emit_load_scalar(r, f, dstbuf, "c->base + p_ + k_ * " );
            o->size -= 2; /* drop ");" to finish the address */
            out_printf(o, "%lldu);\n", (long long)es);
            if (V) {
                char offb[64];
                snprintf(offb, sizeof offb, "p_ + k_ * %lldu", (long long)es);
                emit_value_checks(r, f, dstbuf, "(int64_t)k_", offb);
            }
            out_puts(o, "        }\n");
        } else if (V) {
            if (em_field_needs_check(f)) {
                out_printf(o, "        for (uint64_t k_ = 0; k_ < n_; k_++) {\n            %s v_; ", ct);
                char at[96];
                snprintf(at, sizeof at, "c->base + p_ + k_ * %lldu", (long long)es);
                emit_load_scalar(r, f, "v_", at);
                out_puts(o, "\n");
                char offb[64];
                snprintf(offb, sizeof offb, "p_ + k_ * %lldu", (long long)es);
                emit_value_checks(r, f, "v_", "(int64_t)k_", offb);
                out_puts(o, "        }\n");
            }
        } else {
            out_printf(o, "        m->%s = relic_arena_array(c->arena, (size_t)n_, sizeof(%s), _Alignof(%s));\n", f->name, ct, ct);
            out_printf(o, "        if (!m->%s && n_) return relic_fail(c->err, RELIC_E_NOMEM, p_, \"%s\", \"out of memory for %%llu elements\", (unsigned long long)n_);\n", f->name, f->name);
            if (es > 1 && f->endian == EN_LITTLE)
                out_printf(o, "#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__\n        if (n_) memcpy(m->%s, c->base + p_, (size_t)bytes_);\n#else\n", f->name);
            out_printf(o, "        for (uint64_t k_ = 0; k_ < n_; k_++) { ");
            snprintf(dstbuf, sizeof dstbuf, "((%s *)m->%s)[k_]", ct, f->name);
            char at[96];
            snprintf(at, sizeof at, "c->base + p_ + k_ * %lldu", (long long)es);
            emit_load_scalar(r, f, dstbuf, at);
            out_puts(o, " }\n");
            if (es > 1 && f->endian == EN_LITTLE) out_puts(o, "#endif\n");
        }
    } else {
        /* struct-typed */
        const char *T = f->stype->name;
        int need = V ? em_struct_needs_check(f->stype) : 1;
        if (em_is_scalar(f)) {
            out_printf(o, "        uint64_t sz_ = 0; relic_status st_ = %s_%s(c, p_, &sz_, &m->%s);\n", mname(r->mode), T, f->name);
            out_printf(o, "        if (st_ != RELIC_OK) { relic_gen_path_prefix(c->err, \"%s\", -1); return st_; }\n", f->name);
            if (es < 0) out_puts(o, "        bytes_ = sz_;\n");
        } else if (need) {
            if (var && !V) {
                out_printf(o, "        m->%s = relic_arena_array(c->arena, (size_t)n_, sizeof(%s_%s), _Alignof(%s_%s));\n", f->name, P, T, P, T);
                out_printf(o, "        if (!m->%s && n_) return relic_fail(c->err, RELIC_E_NOMEM, p_, \"%s\", \"out of memory for %%llu elements\", (unsigned long long)n_);\n", f->name, f->name);
            }
            int fast = !V && em_struct_plain(f->stype);
            if (fast) {
                if (var) out_printf(o, "        if (plain_%s()) { if (n_) memcpy(m->%s, c->base + p_, (size_t)bytes_); } else {\n", T, f->name);
                else out_printf(o, "        if (plain_%s()) { memcpy(m->%s, c->base + p_, (size_t)bytes_); } else {\n", T, f->name);
            }
            int walk = es < 0 && f->count_rest; /* `[..]` of variable elements: count what is walked */
            out_puts(o, "        uint64_t q_ = p_;\n");
            if (walk) out_puts(o, "        uint64_t k_ = 0;\n        for (; k_ < n_; k_++) {\n            if (q_ >= c->size) break;\n");
            else out_puts(o, "        for (uint64_t k_ = 0; k_ < n_; k_++) {\n");
            if (V && var) out_printf(o, "            %s_%s e_; memset(&e_, 0, sizeof e_);\n", P, T);
            char elem[256];
            if (V && var) snprintf(elem, sizeof elem, "&e_");
            else if (var) snprintf(elem, sizeof elem, "&m->%s[k_]", f->name);
            else snprintf(elem, sizeof elem, "&((%s_%s *)m->%s)[k_]", P, T, f->name);
            out_printf(o, "            uint64_t sz_ = 0; relic_status st_ = %s_%s(c, q_, &sz_, %s);\n", mname(r->mode), T, elem);
            out_printf(o, "            if (st_ != RELIC_OK) { relic_gen_path_prefix(c->err, \"%s\", (int64_t)k_); return st_; }\n", f->name);
            out_puts(o, "            q_ += sz_;\n        }\n");
            if (es < 0) out_puts(o, "        bytes_ = q_ - p_;\n");
            if (walk) {
                out_printf(o, "        m->%s_count = (size_t)k_;\n", f->name);
                if (V && r->is_root) out_printf(o, "        c->view->%s_count = (size_t)k_;\n", f->name);
            }
            if (fast) out_puts(o, "        }\n");
        }
    }
    if (!f->at) out_puts(o, "        cur = p_ + bytes_;\n");
    out_printf(o, "        pos_%s_ = p_; size_%s_ = bytes_; (void)pos_%s_; (void)size_%s_;\n", f->name, f->name, f->name, f->name);
    out_puts(o, "    }\n");
}

static void emit_members(rctx *r, const gen_member *m, int n)
{
    gen_out *o = r->o;
    for (int i = 0; i < n; i++) {
        switch (m[i].kind) {
        case M_FIELD: emit_field(r, m[i].field); break;
        case M_CHECK:
            if (r->mode == MODE_VAL) {
                gen_out t = { 0 };
                em_expr_text(&t, m[i].cond);
                out_puts(o, "    if (!(");
                em_expr(o, m[i].cond, "m->", "c->root->", "0");
                out_printf(o, ")) return relic_fail(c->err, RELIC_E_RANGE, pos, \"%s\", \"check failed: ", r->st->name);
                for (size_t k = 0; k < t.size; k++) {
                    if (t.data[k] == '"' || t.data[k] == '\\') out_printf(o, "\\%c", t.data[k]);
                    else if (t.data[k] == '%') out_puts(o, "%%");
                    else out_printf(o, "%c", t.data[k]);
                }
                if (m[i].doc) out_printf(o, " (%s)", m[i].doc);
                out_puts(o, "\");\n");
                free(t.data);
            }
            break;
        case M_IF:
            em_branch(o, &m[i], "m->", "c->root->", members_body, r, NULL);
            break;
        case M_SWITCH: {
            gen_out t = { 0 }, stmt = { 0 };
            em_expr_text(&t, m[i].cond);
            if (r->mode == MODE_VAL) {
                out_printf(&stmt, "return relic_fail(c->err, RELIC_E_RANGE, cur, \"%s\", \"no case for %s = %%lld\", (long long)(", r->st->name, t.data);
                em_expr(&stmt, m[i].cond, "m->", "c->root->", "0");
                out_puts(&stmt, "));");
            } else {
                out_puts(&stmt, "break;");
            }
            em_branch(o, &m[i], "m->", "c->root->", members_body, r, stmt.data);
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
    const char *what = f->init->func == FN_COUNT ? "count" : f->init->func == FN_OFFSET ? "offset" : "size";
    char actual[160];
    if (f->init->func == FN_COUNT) snprintf(actual, sizeof actual, "(uint64_t)m->%s_count", t->name);
    else if (f->init->func == FN_OFFSET) snprintf(actual, sizeof actual, "pos_%s_", t->name);
    else snprintf(actual, sizeof actual, "size_%s_", t->name);
    out_printf(o, "    if ((uint64_t)m->%s%s != %s) return relic_fail(c->err, RELIC_E_LAYOUT, pos, \"%s%s\", \"says %s(%s) = %%llu but it is %%llu\", (unsigned long long)m->%s%s, (unsigned long long)%s);\n",
               holder, f->name, actual, holder, f->name, what, t->name, holder, f->name, actual);
}

/* The struct's own derived fields naming its own members; in the root, also
 * those of its plain struct members that name root members. */
static void emit_derived_checks(rctx *r, gen_field **fs, int n)
{
    for (int i = 0; i < n; i++) {
        gen_field *f = fs[i];
        if (f->is_derived && !f->used_in_layout && gen_find_field((gen_struct *)r->st, f->init->ref->name) == f->init->ref)
            emit_derived_check(r->o, "", f, f->init->ref);
    }
    if (!r->is_root) return;
    for (int i = 0; i < n; i++) {
        if (!fs[i]->stype || !em_is_scalar(fs[i])) continue;
        char holder[160];
        snprintf(holder, sizeof holder, "%s.", fs[i]->name);
        gen_field *gs[512];
        int ng = em_fields(fs[i]->stype, gs, 512);
        for (int k = 0; k < ng; k++)
            if (gs[k]->is_derived && !gs[k]->used_in_layout && gs[k]->init->root_scope)
                emit_derived_check(r->o, holder, gs[k], gs[k]->init->ref);
    }
}

static void emit_struct_fn(gen_schema *s, gen_out *o, const gen_struct *st, int mode)
{
    const char *P = em_prefix(s);
    /* A fixed-size struct checks its whole span once on entry, except the root,
     * whose first member then names itself in the error. */
    int span_check = st->fixed_size >= 0 && mode == MODE_VAL && !st->is_root;
    rctx r = { s, o, st, mode, st->is_root, span_check };
    out_printf(o, "RELIC_GEN_UNUSED static inline relic_status %s_%s(%s_%sctx *c, uint64_t pos, uint64_t *size_out, %s_%s *m)\n{\n",
               mname(mode), st->name, P, mode == MODE_VAL ? "v" : "d", P, st->name);
    out_puts(o, "    uint64_t cur = pos;\n    (void)c;\n");
    gen_field *fs[512];
    int n = em_fields(st, fs, 512);
    /* trailing _ on these locals: a field named "t" must not declare size_t */
    for (int i = 0; i < n; i++) out_printf(o, "    uint64_t pos_%s_ = 0, size_%s_ = 0;\n", fs[i]->name, fs[i]->name);
    if (span_check)
        out_printf(o, "    if (pos > c->size || c->size - pos < %lldu) return relic_fail(c->err, RELIC_E_TRUNCATED, pos, \"\", \"%s needs %lld bytes, %%llu remain\", (unsigned long long)(pos > c->size ? 0 : c->size - pos));\n",
                   (long long)st->fixed_size, st->name, (long long)st->fixed_size);
    emit_members(&r, st->members, st->nmembers);
    if (mode == MODE_VAL) emit_derived_checks(&r, fs, n);
    out_puts(o, "    *size_out = cur - pos;\n    return RELIC_OK;\n}\n\n");
}

void emit_reader(gen_schema *s, gen_out *o)
{
    const char *P = em_prefix(s);
    const char *R = s->format.root->name;
    gen_struct *order[4096];
    int n = em_struct_order(s, order);

    out_printf(o, "/* ---- validator and decoder ---- */\n\n");
    out_printf(o, "typedef struct %s_vctx {\n    const uint8_t *base;\n    uint64_t size;\n    relic_error *err;\n    %s_%s *root;\n    %s_view *view;\n} %s_vctx;\n\n", P, P, R, P, P);
    out_printf(o, "typedef struct %s_dctx {\n    const uint8_t *base;\n    uint64_t size;\n    relic_error *err;\n    %s_%s *root;\n    relic_arena *arena;\n} %s_dctx;\n\n", P, P, R, P);
    for (int i = 0; i < n; i++) {
        out_printf(o, "RELIC_GEN_UNUSED static inline relic_status val_%s(%s_vctx *c, uint64_t pos, uint64_t *size_out, %s_%s *m);\n", order[i]->name, P, P, order[i]->name);
        out_printf(o, "RELIC_GEN_UNUSED static inline relic_status dec_%s(%s_dctx *c, uint64_t pos, uint64_t *size_out, %s_%s *m);\n", order[i]->name, P, P, order[i]->name);
    }
    out_puts(o, "\n");
    for (int i = 0; i < n; i++) {
        emit_struct_fn(s, o, order[i], MODE_VAL);
        emit_struct_fn(s, o, order[i], MODE_DEC);
    }
    out_printf(o,
        "relic_status %s_validate(const uint8_t *data, size_t size, %s_view *out, relic_error *err)\n{\n"
        "    relic_error scratch_;\n"
        "    if (!err) err = &scratch_;\n"
        "    relic_error_clear(err);\n"
        "    memset(out, 0, sizeof *out);\n"
        "    out->base = data;\n    out->size = size;\n"
        "    %s_vctx c = { data, size, err, &out->values, out };\n"
        "    uint64_t sz;\n"
        "    relic_status st = val_%s(&c, 0, &sz, &out->values);\n"
        "    if (st != RELIC_OK) memset(out, 0, sizeof *out);\n"
        "    return st;\n}\n\n", P, P, P, R);
    out_printf(o,
        "relic_status %s_decode(const %s_view *v, relic_arena *a, %s_%s *out, relic_error *err)\n{\n"
        "    relic_error scratch_;\n"
        "    if (!err) err = &scratch_;\n"
        "    memset(out, 0, sizeof *out);\n"
        "    %s_dctx c = { v->base, v->size, err, out, a };\n"
        "    uint64_t sz;\n"
        "    return dec_%s(&c, 0, &sz, out);\n}\n\n", P, P, P, R, P, R);
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
            const char *T = f->codec_stype->name;
            out_printf(o, "relic_status %s_%s_%s_decode(const %s_%s *m, relic_arena *a, %s_%s *out, relic_error *err)\n{\n",
                       P, st->name, f->name, P, st->name, P, T);
            out_puts(o, "    relic_error scratch_;\n    if (!err) err = &scratch_;\n    memset(out, 0, sizeof *out);\n");
            out_puts(o, "    const int64_t size_ = ");
            em_expr(o, f->codec_size, "m->", "m->", "0");
            out_puts(o, ";\n");
            out_printf(o, "    if (size_ < 0 || (uint64_t)size_ > RELIC_CODEC_MAX_DECODED) return relic_fail(err, RELIC_E_LIMIT, 0, \"%s\", \"declared decoded size %%lld is outside 0..%%llu\", (long long)size_, (unsigned long long)RELIC_CODEC_MAX_DECODED);\n", f->name);
            out_printf(o, "    if ((uint64_t)size_ > relic_codec_%s_max_decoded(m->%s_count)) return relic_fail(err, RELIC_E_LAYOUT, 0, \"%s\", \"%%zu encoded bytes cannot hold the declared %%lld decoded bytes\", m->%s_count, (long long)size_);\n",
                       f->codec, f->name, f->name, f->name);
            out_puts(o, "    uint8_t *buf_ = relic_arena_alloc(a, (size_t)size_, 16);\n");
            out_printf(o, "    if (!buf_) return relic_fail(err, RELIC_E_NOMEM, 0, \"%s\", \"out of memory for %%lld decoded bytes\", (long long)size_);\n", f->name);
            out_printf(o, "    relic_status st_ = relic_codec_%s_decode(m->%s, m->%s_count, buf_, (size_t)size_, a, err);\n", f->codec, f->name, f->name);
            out_printf(o, "    if (st_ != RELIC_OK) { relic_gen_path_prefix(err, \"%s\", -1); return st_; }\n", f->name);
            out_printf(o, "    return %s_%s_%s_decode_bytes(buf_, (size_t)size_, a, out, err);\n}\n\n", P, st->name, f->name);
            out_printf(o, "relic_status %s_%s_%s_decode_bytes(const uint8_t *buf_, size_t size_, relic_arena *a, %s_%s *out, relic_error *err)\n{\n",
                       P, st->name, f->name, P, T);
            out_puts(o, "    relic_error scratch_;\n    if (!err) err = &scratch_;\n    memset(out, 0, sizeof *out);\n    relic_status st_;\n");
            out_printf(o, "    %s_%s check_;\n    memset(&check_, 0, sizeof check_);\n", P, T);
            out_printf(o, "    %s_vctx vc_ = { buf_, (uint64_t)size_, err, NULL, NULL };\n    uint64_t sz_ = 0;\n", P);
            out_printf(o, "    if ((st_ = val_%s(&vc_, 0, &sz_, &check_)) != RELIC_OK) { relic_gen_path_prefix(err, \"%s\", -1); return st_; }\n", T, f->name);
            out_printf(o, "    if (sz_ != (uint64_t)size_) return relic_fail(err, RELIC_E_LAYOUT, sz_, \"%s\", \"%%llu decoded bytes follow the %s\", (unsigned long long)((uint64_t)size_ - sz_));\n", f->name, T);
            out_printf(o, "    %s_dctx dc_ = { buf_, (uint64_t)size_, err, NULL, a };\n", P);
            out_printf(o, "    return dec_%s(&dc_, 0, &sz_, out);\n}\n\n", T);
        }
    }
}
