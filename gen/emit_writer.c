/* emit_writer.c — the writer in generated/<family>/<format>.c: model ->
 * bytes. Sizes first (sz_<struct>), then the root's placed members laid out
 * contiguously after its sequential part, derived fields (count, offset,
 * size) recomputed, counts cross-checked against the arrays, and finally one
 * put_<struct> pass storing every value with the field's byte order. */
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
    for (int i = 0; i < n; i++) {
        if (m[i].kind == M_FIELD) {
            if (m[i].field->at) continue;
            out_puts(o, "    t += ");
            member_size(o, w->s, m[i].field, "m->");
            out_puts(o, ";\n");
        } else {
            em_branch(o, &m[i], "m->", "root_->", sz_body, w, NULL);
        }
    }
}

static void emit_store_scalar(gen_out *o, const gen_field *f, const char *at, const char *val)
{
    gen_prim p = f->prim;
    if (gen_prim_is_signed(p) && !gen_prim_is_float(p))
        out_printf(o, "%s(%s, (uint%d_t)(%s));", em_store_fn(f), at, gen_prim_size(p) * 8, val);
    else
        out_printf(o, "%s(%s, %s);", em_store_fn(f), at, val);
}

static void emit_put_field(wctx *w, const gen_field *f)
{
    gen_out *o = w->o;
    gen_schema *s = w->s;
    const char *P = em_prefix(s);
    int64_t es = em_elem_size(f), per = em_fixed_elems(f);
    int var = f->count || f->count_rest;
    out_printf(o, "    { /* %s */\n", f->name);
    if (f->at) out_printf(o, "        const uint64_t p_ = c->at_%s;\n", f->name);
    else out_puts(o, "        const uint64_t p_ = cur;\n");
    if (f->count) {
        gen_out t = { 0 };
        em_expr_text(&t, f->count);
        out_puts(o, "        const int64_t cnt_ = ");
        em_expr(o, f->count, "m->", "c->root->", "0");
        out_puts(o, ";\n");
        out_printf(o, "        if (cnt_ < 0 || (uint64_t)cnt_ != (uint64_t)m->%s_count) return relic_fail(c->err, RELIC_E_ARGUMENT, p_, \"%s\", \"has %%llu elements but %s = %%lld\", (unsigned long long)m->%s_count, (long long)cnt_);\n",
                   f->name, f->name, t.data, f->name);
        free(t.data);
    }
    if (var) out_printf(o, "        const uint64_t n_ = (uint64_t)m->%s_count * %lldu;\n", f->name, (long long)per);
    else out_printf(o, "        const uint64_t n_ = %lldu;\n", (long long)per);
    out_puts(o, "        uint64_t bytes_ = 0;\n        (void)n_;\n");
    if (f->prim == P_CHAR || f->prim == P_BYTES) {
        if (f->const_str) {
            out_puts(o, "        memcpy(c->base + p_, ");
            em_cstring(o, f->const_str, f->const_len);
            out_printf(o, ", %d);\n", f->const_len);
        } else if (var) {
            out_printf(o, "        if (n_) memcpy(c->base + p_, m->%s, (size_t)n_);\n", f->name);
        } else {
            out_printf(o, "        memcpy(c->base + p_, m->%s, (size_t)n_);\n", f->name);
        }
        out_puts(o, "        bytes_ = n_;\n");
    } else if (!f->stype) {
        const char *ct = gen_prim_ctype(f->prim);
        if (em_is_scalar(f)) {
            char val[160];
            if (f->init && f->init->kind == EX_INT) snprintf(val, sizeof val, "(%s)INT64_C(%lld)", ct, (long long)f->init->ival);
            else snprintf(val, sizeof val, "m->%s", f->name);
            out_puts(o, "        ");
            emit_store_scalar(o, f, "c->base + p_", val);
            out_puts(o, "\n");
        } else {
            char at[96], val[160];
            snprintf(at, sizeof at, "c->base + p_ + k_ * %lldu", (long long)es);
            snprintf(val, sizeof val, "((const %s *)m->%s)[k_]", ct, f->name);
            if (var && es > 1 && f->endian == EN_LITTLE)
                out_printf(o, "#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__\n        if (n_) memcpy(c->base + p_, m->%s, (size_t)(n_ * %lldu));\n#else\n", f->name, (long long)es);
            out_puts(o, "        for (uint64_t k_ = 0; k_ < n_; k_++) { ");
            emit_store_scalar(o, f, at, val);
            out_puts(o, " }\n");
            if (var && es > 1 && f->endian == EN_LITTLE) out_puts(o, "#endif\n");
        }
        out_printf(o, "        bytes_ = n_ * %lldu;\n", (long long)es);
    } else {
        const char *T = f->stype->name;
        if (em_is_scalar(f)) {
            out_printf(o, "        relic_status st_ = put_%s(c, &m->%s, p_, &bytes_);\n", T, f->name);
            out_printf(o, "        if (st_ != RELIC_OK) { relic_gen_path_prefix(c->err, \"%s\", -1); return st_; }\n", f->name);
        } else {
            int fast = em_struct_plain(f->stype);
            if (fast) out_printf(o, "        if (plain_%s()) { if (n_) memcpy(c->base + p_, m->%s, (size_t)(n_ * %lldu)); bytes_ = n_ * %lldu; } else {\n",
                                 T, f->name, (long long)em_elem_size(f), (long long)em_elem_size(f));
            out_puts(o, "        uint64_t q_ = p_;\n        for (uint64_t k_ = 0; k_ < n_; k_++) {\n            uint64_t sz_ = 0;\n");
            if (var) out_printf(o, "            relic_status st_ = put_%s(c, &m->%s[k_], q_, &sz_);\n", T, f->name);
            else out_printf(o, "            relic_status st_ = put_%s(c, &((const %s_%s *)m->%s)[k_], q_, &sz_);\n", T, P, T, f->name);
            out_printf(o, "            if (st_ != RELIC_OK) { relic_gen_path_prefix(c->err, \"%s\", (int64_t)k_); return st_; }\n", f->name);
            out_puts(o, "            q_ += sz_;\n        }\n        bytes_ = q_ - p_;\n");
            if (fast) out_puts(o, "        }\n");
        }
    }
    if (!f->at) out_puts(o, "        cur = p_ + bytes_;\n");
    else out_puts(o, "        (void)bytes_;\n");
    out_puts(o, "    }\n");
}

static void emit_put_members(wctx *w, const gen_member *m, int n);
static void put_body(void *ctx, const gen_member *m, int n) { emit_put_members(ctx, m, n); }

static void emit_put_members(wctx *w, const gen_member *m, int n)
{
    for (int i = 0; i < n; i++) {
        if (m[i].kind == M_FIELD) {
            emit_put_field(w, m[i].field);
        } else if (m[i].kind == M_SWITCH) {
            gen_out t = { 0 }, stmt = { 0 };
            em_expr_text(&t, m[i].cond);
            out_printf(&stmt, "return relic_fail(c->err, RELIC_E_ARGUMENT, cur, \"%s\", \"no case for %s\");", w->st->name, t.data);
            em_branch(w->o, &m[i], "m->", "c->root->", put_body, w, stmt.data);
            free(t.data);
            free(stmt.data);
        } else {
            em_branch(w->o, &m[i], "m->", "c->root->", put_body, w, NULL);
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
        gen_out v = { 0 };
        switch (f->init->func) {
        case FN_COUNT: out_printf(&v, "(uint64_t)%s%s_count", tgt, t->name); break;
        case FN_OFFSET:
            /* Nothing lies at an empty array's offset, so the value the model holds (the
             * file's own, e.g. 0 or the next free byte) is kept when it stays inside the
             * output; a changed file gets the array's real position. */
            if (t->at && (t->count || t->count_rest))
                out_printf(&v, "(%s%s_count == 0 && (uint64_t)%s%s <= total_) ? (uint64_t)%s%s : c->at_%s",
                           tgt, t->name, holder, f->name, holder, f->name, t->name);
            else if (t->at) out_printf(&v, "c->at_%s", t->name);
            else if (t->fixed_offset >= 0 && t->owner && t->owner->is_root) out_printf(&v, "%lldu", (long long)t->fixed_offset);
            else gen_error(f->loc, "offset(%s): the writer can only place members with 'at' or at a fixed root offset", t->name);
            break;
        case FN_SIZE:
            if (t->at) out_printf(&v, "c->size_%s", t->name);
            else member_size(&v, w->s, t, tgt);
            break;
        }
        if (!v.data) continue;
        out_printf(o, "    { const uint64_t v_ = %s;\n", v.data);
        out_printf(o, "      if (v_ > %lluu) return relic_fail(c->err, RELIC_E_LIMIT, 0, \"%s\", \"%%llu does not fit %s\", (unsigned long long)v_);\n",
                   (unsigned long long)type_max(f->prim), f->name, gen_prim_name(f->prim));
        out_printf(o, "      %s%s = (%s)v_; }\n", holder, f->name, gen_prim_ctype(f->prim));
        free(v.data);
    }
}

void emit_writer(gen_schema *s, gen_out *o)
{
    const char *P = em_prefix(s);
    gen_struct *root = s->format.root;
    const char *R = root->name;
    gen_struct *order[4096];
    int n = em_struct_order(s, order);
    gen_field *rf[512];
    int nrf = em_fields(root, rf, 512);

    out_puts(o, "/* ---- writer ---- */\n\n");
    out_printf(o, "typedef struct %s_wctx {\n    uint8_t *base;\n    relic_error *err;\n    const %s_%s *root;\n", P, P, R);
    for (int i = 0; i < nrf; i++)
        if (rf[i]->at) out_printf(o, "    uint64_t at_%s, size_%s;\n", rf[i]->name, rf[i]->name);
    out_printf(o, "} %s_wctx;\n\n", P);

    for (int i = 0; i < n; i++) {
        const gen_struct *st = order[i];
        out_printf(o, "RELIC_GEN_UNUSED static inline relic_status put_%s(%s_wctx *c, const %s_%s *m0, uint64_t pos, uint64_t *size_out);\n", st->name, P, P, st->name);
        if (st->fixed_size < 0) {
            out_printf(o, "RELIC_GEN_UNUSED static inline uint64_t sz_%s(const %s_%s *m);\n", st->name, P, st->name);
        }
    }
    out_puts(o, "\n");
    /* sizes of variable structs and sums over arrays of them */
    for (int i = 0; i < n; i++) {
        const gen_struct *st = order[i];
        if (st->fixed_size >= 0) continue;
        wctx w = { s, o, st };
        out_printf(o, "static const %s_%s *root_sz_;\n", P, R);
        out_printf(o, "RELIC_GEN_UNUSED static inline uint64_t sz_%s(const %s_%s *m)\n{\n    const %s_%s *root_ = root_sz_;\n    uint64_t t = 0;\n    (void)root_;\n", st->name, P, st->name, P, R);
        emit_sz_members(&w, st->members, st->nmembers);
        out_puts(o, "    return t;\n}\n");
        out_printf(o, "RELIC_GEN_UNUSED static inline uint64_t sum_%s_%s(const %s_%s *a, size_t n)\n{\n    uint64_t t = 0;\n    for (size_t i = 0; i < n; i++) t += sz_%s(&a[i]);\n    return t;\n}\n\n",
                   P + 6, st->name, P, st->name, st->name);
    }
    for (int i = 0; i < n; i++) {
        const gen_struct *st = order[i];
        wctx w = { s, o, st };
        out_printf(o, "RELIC_GEN_UNUSED static inline relic_status put_%s(%s_wctx *c, const %s_%s *m0, uint64_t pos, uint64_t *size_out)\n{\n", st->name, P, P, st->name);
        out_printf(o, "    %s_%s mm_ = *m0;\n    %s_%s *m = &mm_;\n    uint64_t cur = pos;\n    (void)c; (void)m;\n", P, st->name, P, st->name);
        if (!st->is_root) emit_fill_derived(&w, st, "m->", "m->", 0);
        emit_put_members(&w, st->members, st->nmembers);
        out_puts(o, "    *size_out = cur - pos;\n    return RELIC_OK;\n}\n\n");
    }

    /* entry point */
    wctx w = { s, o, root };
    out_printf(o, "relic_status %s_write(const %s_%s *model, relic_buf *out, relic_error *err)\n{\n", P, P, R);
    out_printf(o, "    relic_error scratch_;\n    if (!err) err = &scratch_;\n    relic_error_clear(err);\n");
    out_printf(o, "    %s_%s mm_ = *model;\n    %s_%s *m = &mm_;\n", P, R, P, R);
    out_printf(o, "    %s_wctx cc_ = { 0 };\n    %s_wctx *c = &cc_;\n    c->err = err;\n    c->root = m;\n", P, P);
    if (root->fixed_size < 0) out_printf(o, "    root_sz_ = m;\n    uint64_t cur = sz_%s(m);\n    const uint64_t sz_root_seq_ = cur;\n    (void)sz_root_seq_;\n", R);
    else out_printf(o, "    uint64_t cur = %lldu;\n", (long long)root->fixed_size);
    for (int i = 0; i < nrf; i++) {
        gen_field *f = rf[i];
        if (!f->at) continue;
        out_printf(o, "    c->at_%s = cur;\n    c->size_%s = ", f->name, f->name);
        member_size(o, s, f, "m->");
        out_printf(o, ";\n    if (cur + c->size_%s < cur) return relic_fail(err, RELIC_E_LIMIT, 0, \"%s\", \"too large\");\n    cur += c->size_%s;\n", f->name, f->name, f->name);
    }
    /* The model's own layout, when every non-empty placed member has an offset field
     * and the spans neither overlap nor reach into the sequential part: a file with
     * its tables in another order (or with zero gaps) is written back as it was. A
     * changed or new model falls back to the contiguous layout above. */
    {
        int nplaced = 0;
        for (int i = 0; i < nrf; i++) nplaced += rf[i]->at != NULL;
        if (nplaced > 0) {
            char seq[64];
            if (root->fixed_size < 0) snprintf(seq, sizeof seq, "sz_root_seq_");
            else snprintf(seq, sizeof seq, "%lldu", (long long)root->fixed_size);
            out_printf(o, "    {\n        const uint64_t seq_ = %s;\n        uint64_t at_[%d], sz_[%d], end_ = seq_;\n        int keep_ = 1;\n",
                       seq, nplaced, nplaced);
            int k = 0;
            for (int i = 0; i < nrf; i++) {
                gen_field *f = rf[i];
                if (!f->at) continue;
                const gen_expr *e = f->at;
                int held = e->kind == EX_NAME && e->ref && e->ref->is_derived && e->ref->init->func == FN_OFFSET && e->ref->init->ref == f;
                if (held) {
                    out_puts(o, "        at_[");
                    out_printf(o, "%d] = (uint64_t)m->", k);
                    for (int p = 0; p < e->npath; p++) out_printf(o, "%s%s", p ? "." : "", e->path[p]);
                    out_printf(o, ";\n        sz_[%d] = c->size_%s;\n", k, f->name);
                } else {
                    out_printf(o, "        at_[%d] = 0;\n        sz_[%d] = c->size_%s;\n        if (sz_[%d]) keep_ = 0;\n", k, k, f->name, k);
                }
                k++;
            }
            out_printf(o, "        for (int i_ = 0; i_ < %d && keep_; i_++) {\n", nplaced);
            out_puts(o, "            if (!sz_[i_]) continue;\n"
                        "            if (at_[i_] < seq_ || at_[i_] + sz_[i_] < at_[i_]) { keep_ = 0; break; }\n"
                        "            if (at_[i_] + sz_[i_] > end_) end_ = at_[i_] + sz_[i_];\n"
                        "            for (int k_ = 0; k_ < i_; k_++)\n"
                        "                if (sz_[k_] && at_[i_] < at_[k_] + sz_[k_] && at_[k_] < at_[i_] + sz_[i_]) keep_ = 0;\n"
                        "        }\n        if (keep_) {\n");
            k = 0;
            for (int i = 0; i < nrf; i++) {
                if (!rf[i]->at) continue;
                out_printf(o, "            c->at_%s = sz_[%d] ? at_[%d] : end_;\n", rf[i]->name, k, k);
                k++;
            }
            out_puts(o, "            cur = end_;\n        }\n    }\n");
        }
    }
    out_puts(o, "    const uint64_t total_ = cur;\n    (void)total_;\n");
    /* derived fields of the root and of its plain struct members */
    emit_fill_derived(&w, root, "m->", "m->", 0);
    emit_fill_derived(&w, root, "m->", "m->", 1);
    for (int i = 0; i < nrf; i++)
        if (rf[i]->stype && em_is_scalar(rf[i])) {
            char holder[160];
            snprintf(holder, sizeof holder, "m->%s.", rf[i]->name);
            emit_fill_derived(&w, rf[i]->stype, holder, "m->", 1);
        }
    out_puts(o, "    if (cur > (uint64_t)SIZE_MAX) return relic_fail(err, RELIC_E_LIMIT, 0, \"\", \"output too large\");\n");
    out_puts(o, "    const size_t start_ = out->size;\n");
    out_puts(o, "    uint8_t *dst = relic_buf_extend(out, (size_t)cur);\n");
    out_puts(o, "    if (!dst) return relic_fail(err, RELIC_E_NOMEM, 0, \"\", \"cannot grow the output to %llu bytes\", (unsigned long long)cur);\n");
    out_puts(o, "    c->base = dst;\n    uint64_t sz;\n");
    out_printf(o, "    relic_status st = put_%s(c, m, 0, &sz);\n", R);
    out_puts(o, "    if (st != RELIC_OK) out->size = start_;\n    return st;\n}\n\n");
}
