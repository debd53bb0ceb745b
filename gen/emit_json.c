/* emit_json.c — JSON printer and reader in generated/<family>/<format>_json.c.
 * The printer writes a model as JSON (struct members in schema order, enums by
 * name, fixed strings as Latin-1 JSON strings, f32/f64 in a form that reads
 * back to the same bits); the reader parses it back (yajl events into a document
 * in the caller's arena, runtime/json/json.c) into a model
 * in an arena, naming the JSON path of every error. */
#include <stdlib.h>
#include <string.h>

#include "emit.h"

typedef struct jctx {
    gen_schema *s;
    gen_out *o;
    const gen_struct *st; /* struct whose members are being emitted */
} jctx;

static void emit_value_print(jctx *j, const gen_field *f, const char *val)
{
    gen_out *o = j->o;
    const char *P = em_prefix(j->s);
    if (gen_prim_is_float(f->prim)) {
        out_printf(o, "relic_json_%s(o, %s);", gen_prim_name(f->prim), val);
    } else if (f->etype && !f->etype->is_flags) {
        out_printf(o, "{ const char *nm_ = %s_%s_name((int64_t)(%s)); if (nm_) relic_json_string(o, nm_, strlen(nm_)); else relic_json_i64(o, (int64_t)(%s)); }",
                   P, f->etype->name, val, val);
    } else if (gen_prim_is_signed(f->prim)) {
        out_printf(o, "relic_json_i64(o, (int64_t)(%s));", val);
    } else {
        out_printf(o, "relic_json_u64(o, (uint64_t)(%s));", val);
    }
}

static void emit_print_members(jctx *j, const gen_struct *st, const gen_member *m, int n);

static void emit_print_field(jctx *j, const gen_struct *st, const gen_field *f)
{
    gen_out *o = j->o;
    const char *P = em_prefix(j->s);
    int var = f->count || f->count_rest;
    if (st->tuple) {
        out_puts(o, "    if (first_) first_ = 0; else RELIC_PUTS(o, \", \");\n    ");
        char val[128];
        snprintf(val, sizeof val, "m->%s", f->name);
        if (f->ndims && st->nmembers == 1) {
            /* a tuple of one array prints as the array itself: [a, b, c] */
            out_printf(o, "for (size_t k_ = 0; k_ < %lld; k_++) { if (k_) RELIC_PUTS(o, \", \"); ", (long long)em_fixed_elems(f));
            snprintf(val, sizeof val, "((const %s *)m->%s)[k_]", gen_prim_ctype(f->prim), f->name);
            emit_value_print(j, f, val);
            out_puts(o, " }\n");
        } else if (f->ndims) {
            out_printf(o, "RELIC_PUTS(o, \"[\"); for (size_t k_ = 0; k_ < %lld; k_++) { if (k_) RELIC_PUTS(o, \", \"); ", (long long)em_fixed_elems(f));
            snprintf(val, sizeof val, "((const %s *)m->%s)[k_]", gen_prim_ctype(f->prim), f->name);
            emit_value_print(j, f, val);
            out_puts(o, " } RELIC_PUTS(o, \"]\");\n");
        } else {
            emit_value_print(j, f, val);
            out_puts(o, "\n");
        }
        return;
    }
    out_printf(o, "    if (first_) first_ = 0; else RELIC_PUTS(o, \",\\n\");\n    relic_json_indent(o, depth + 1);\n    RELIC_PUTS(o, \"\\\"%s\\\": \");\n", f->name);
    if (f->prim == P_CHAR) {
        if (var) out_printf(o, "    relic_json_string(o, m->%s, m->%s_count);\n", f->name, f->name);
        else out_printf(o, "    { size_t l_ = %lld; while (l_ && m->%s[l_ - 1] == 0) l_--; relic_json_string(o, m->%s, l_); }\n", (long long)em_fixed_elems(f), f->name, f->name);
        return;
    }
    if (f->prim == P_BYTES) {
        if (var) out_printf(o, "    relic_json_hex(o, m->%s, m->%s_count);\n", f->name, f->name);
        else out_printf(o, "    relic_json_hex(o, m->%s, %lld);\n", f->name, (long long)em_fixed_elems(f));
        return;
    }
    char cnt[160];
    if (var) snprintf(cnt, sizeof cnt, "m->%s_count", f->name);
    else snprintf(cnt, sizeof cnt, "%lld", (long long)(f->ndims ? f->dims[0] : 1));
    if (f->stype) {
        const char *T = f->stype->name;
        if (em_is_scalar(f)) {
            out_printf(o, "    jp_%s(o, &m->%s, root, depth + 1);\n", T, f->name);
        } else {
            out_printf(o, "    RELIC_PUTS(o, \"[\");\n    for (size_t k_ = 0; k_ < %s; k_++) {\n", cnt);
            out_puts(o, "        relic_buf_puts(o, k_ ? \",\\n\" : \"\\n\");\n        relic_json_indent(o, depth + 2);\n");
            out_printf(o, "        jp_%s(o, &((const %s_%s *)m->%s)[k_], root, depth + 2);\n    }\n", T, P, T, f->name);
            out_printf(o, "    if (%s) { RELIC_PUTS(o, \"\\n\"); relic_json_indent(o, depth + 1); }\n    RELIC_PUTS(o, \"]\");\n", cnt);
        }
        return;
    }
    if (em_is_scalar(f)) {
        char val[128];
        snprintf(val, sizeof val, "m->%s", f->name);
        out_puts(o, "    ");
        emit_value_print(j, f, val);
        out_puts(o, "\n");
        return;
    }
    /* arrays of numbers: 16 to a line */
    int64_t inner = 1;
    for (int i = var ? 0 : 1; i < f->ndims; i++) inner *= f->dims[i];
    char val[160];
    snprintf(val, sizeof val, "((const %s *)m->%s)[k_ * %lld + q_]", gen_prim_ctype(f->prim), f->name, (long long)inner);
    out_printf(o, "    RELIC_PUTS(o, \"[\");\n    for (size_t k_ = 0; k_ < %s; k_++) {\n", cnt);
    out_puts(o, "        if (k_) relic_buf_puts(o, k_ % 16 ? \", \" : \",\\n\");\n        if (k_ % 16 == 0) { if (!k_) RELIC_PUTS(o, \"\\n\"); relic_json_indent(o, depth + 2); }\n");
    if (inner > 1) out_printf(o, "        RELIC_PUTS(o, \"[\");\n        for (size_t q_ = 0; q_ < %lld; q_++) { if (q_) RELIC_PUTS(o, \", \"); ", (long long)inner);
    else out_puts(o, "        { const size_t q_ = 0; ");
    emit_value_print(j, f, val);
    out_puts(o, " }\n");
    if (inner > 1) out_puts(o, "        RELIC_PUTS(o, \"]\");\n");
    out_printf(o, "    }\n    if (%s) { RELIC_PUTS(o, \"\\n\"); relic_json_indent(o, depth + 1); }\n    RELIC_PUTS(o, \"]\");\n", cnt);
}

static void print_body(void *ctx, const gen_member *m, int n)
{
    jctx *j = ctx;
    emit_print_members(j, j->st, m, n);
}

static void emit_print_members(jctx *j, const gen_struct *st, const gen_member *m, int n)
{
    j->st = st;
    for (int i = 0; i < n; i++) {
        if (m[i].kind == M_FIELD) emit_print_field(j, st, m[i].field);
        else em_branch(j->o, &m[i], "m->", "root->", print_body, j, NULL);
    }
}

/* ---------------------------------------------------------------- reader */

static void emit_read_members(jctx *j, const gen_struct *st, const gen_member *m, int n);

static void emit_read_value(jctx *j, const gen_field *f, const char *dst, const char *src)
{
    gen_out *o = j->o;
    const char *P = em_prefix(j->s);
    gen_prim p = f->prim;
    if (gen_prim_is_float(p)) {
        out_printf(o, "if ((st_ = relic_jr_%s(r, %s, &%s)) != RELIC_OK) return st_;", gen_prim_name(p), src, dst);
        return;
    }
    int bits = gen_prim_size(p) * 8;
    long long lo = gen_prim_is_signed(p) ? (bits == 64 ? (long long)INT64_MIN : -(1LL << (bits - 1))) : 0;
    unsigned long long hi = gen_prim_is_signed(p) ? (bits == 64 ? (unsigned long long)INT64_MAX : (1ULL << (bits - 1)) - 1)
                                                  : (bits == 64 ? UINT64_MAX : (1ULL << bits) - 1);
    if (f->etype && !f->etype->is_flags)
        out_printf(o, "{ int64_t iv_; if ((st_ = relic_jr_enum(r, %s, %s_%s_from_name, INT64_C(%lld), UINT64_C(%llu), &iv_)) != RELIC_OK) return st_; %s = (%s)iv_; }",
                   src, P, f->etype->name, lo, hi, dst, gen_prim_ctype(p));
    else
        out_printf(o, "{ int64_t iv_; if ((st_ = relic_jr_int(r, %s, INT64_C(%lld), UINT64_C(%llu), &iv_)) != RELIC_OK) return st_; %s = (%s)iv_; }",
                   src, lo, hi, dst, gen_prim_ctype(p));
}

static void emit_read_field(jctx *j, const gen_struct *st, const gen_field *f, int idx)
{
    gen_out *o = j->o;
    const char *P = em_prefix(j->s);
    int var = f->count || f->count_rest;
    int optional = f->is_derived || f->const_str || (f->init && f->init->kind == EX_INT);
    out_printf(o, "    { /* %s */\n", f->name);
    if (st->tuple && st->nmembers == 1 && f->ndims) {
        out_puts(o, "        const relic_jv *v_ = obj;\n");
        out_printf(o, "        relic_jr_push(r, \"%s\", -1);\n", f->name);
    } else if (st->tuple) {
        out_printf(o, "        const relic_jv *v_ = relic_jv_at(obj, %d);\n", idx);
        out_printf(o, "        relic_jr_push(r, \"%s\", -1);\n", f->name);
    } else {
        out_printf(o, "        const relic_jv *v_ = NULL;\n        relic_jr_push(r, \"%s\", -1);\n", f->name);
        out_printf(o, "        if ((st_ = relic_jr_member(r, obj, \"%s\", %d, &v_)) != RELIC_OK) return st_;\n", f->name, !optional);
    }
    out_puts(o, "        if (v_) {\n");
    if (f->prim == P_CHAR || f->prim == P_BYTES) {
        if (var) out_printf(o, "        if ((st_ = relic_jr_%s(r, v_, (%s **)&m->%s, &m->%s_count)) != RELIC_OK) return st_;\n",
                            f->prim == P_CHAR ? "string" : "hex", f->prim == P_CHAR ? "char" : "uint8_t", f->name, f->name);
        else out_printf(o, "        if ((st_ = relic_jr_fixed_%s(r, v_, (%s *)m->%s, %lld)) != RELIC_OK) return st_;\n",
                        f->prim == P_CHAR ? "string" : "hex", f->prim == P_CHAR ? "char" : "uint8_t", f->name, (long long)em_fixed_elems(f));
    } else if (em_is_scalar(f)) {
        char dst[128];
        snprintf(dst, sizeof dst, "m->%s", f->name);
        out_puts(o, "        ");
        if (f->stype) out_printf(o, "if ((st_ = jr_%s(r, v_, &m->%s)) != RELIC_OK) return st_;", f->stype->name, f->name);
        else emit_read_value(j, f, dst, "v_");
        out_puts(o, "\n");
    } else {
        const char *ct = f->stype ? NULL : gen_prim_ctype(f->prim);
        char T[160];
        if (f->stype) snprintf(T, sizeof T, "%s_%s", P, f->stype->name);
        else snprintf(T, sizeof T, "%s", ct);
        int64_t inner = 1;
        for (int i = var ? 0 : 1; i < f->ndims; i++) inner *= f->dims[i];
        out_puts(o, "        size_t n_;\n        if ((st_ = relic_jr_array(r, v_, &n_)) != RELIC_OK) return st_;\n");
        if (var) {
            out_printf(o, "        m->%s = relic_arena_array(r->arena, n_, sizeof(%s) * %lld, _Alignof(%s));\n", f->name, T, (long long)inner, T);
            out_printf(o, "        if (!m->%s && n_) return relic_jr_fail(r, RELIC_E_NOMEM, \"out of memory for %%zu elements\", n_);\n", f->name);
            out_printf(o, "        m->%s_count = n_;\n", f->name);
        } else {
            out_printf(o, "        if (n_ != %d) return relic_jr_fail(r, RELIC_E_ARGUMENT, \"expected %d elements, found %%zu\", n_);\n", f->dims[0], f->dims[0]);
        }
        out_puts(o, "        for (size_t k_ = 0; k_ < n_; k_++) {\n            const relic_jv *e_ = relic_jv_at(v_, k_);\n");
        out_printf(o, "            relic_jr_push(r, NULL, (int64_t)k_);\n");
        if (f->stype) {
            out_printf(o, "            if ((st_ = jr_%s(r, e_, &((%s *)m->%s)[k_])) != RELIC_OK) return st_;\n", f->stype->name, T, f->name);
        } else if (inner > 1) {
            out_printf(o, "            size_t ni_;\n            if ((st_ = relic_jr_array(r, e_, &ni_)) != RELIC_OK) return st_;\n");
            out_printf(o, "            if (ni_ != %lld) return relic_jr_fail(r, RELIC_E_ARGUMENT, \"expected %lld elements, found %%zu\", ni_);\n", (long long)inner, (long long)inner);
            out_printf(o, "            for (size_t q_ = 0; q_ < %lld; q_++) {\n                const relic_jv *x_ = relic_jv_at(e_, q_);\n                ", (long long)inner);
            char dst[400];
            snprintf(dst, sizeof dst, "((%s *)m->%s)[k_ * %lld + q_]", T, f->name, (long long)inner);
            emit_read_value(j, f, dst, "x_");
            out_puts(o, "\n            }\n");
        } else {
            char dst[400];
            snprintf(dst, sizeof dst, "((%s *)m->%s)[k_]", T, f->name);
            out_puts(o, "            ");
            emit_read_value(j, f, dst, "e_");
            out_puts(o, "\n");
        }
        out_puts(o, "            relic_jr_pop(r);\n        }\n");
    }
    out_puts(o, "        }\n        relic_jr_pop(r);\n    }\n");
}

static void read_body(void *ctx, const gen_member *m, int n)
{
    jctx *j = ctx;
    emit_read_members(j, j->st, m, n);
}

static void emit_read_members(jctx *j, const gen_struct *st, const gen_member *m, int n)
{
    int idx = 0;
    j->st = st;
    for (int i = 0; i < n; i++) {
        if (m[i].kind == M_FIELD) emit_read_field(j, st, m[i].field, idx++);
        else em_branch(j->o, &m[i], "m->", "r->root->", read_body, j, NULL);
    }
}

void emit_json(gen_schema *s, gen_out *o)
{
    const char *P = em_prefix(s);
    const char *R = s->format.root->name;
    jctx j = { s, o, NULL };
    gen_struct *order[4096];
    int n = em_struct_order(s, order);
    char hdr[256];
    snprintf(hdr, sizeof hdr, "%s.h", s->format.name);
    out_printf(o, "/* Generated by relic-gen from %s. Do not edit: change the schema and run `make regen`.\n"
                  " * JSON printer and reader of the %s format. */\n", s->file, s->format.name);
    out_printf(o, "#include <string.h>\n\n#include \"relic_gen.h\"\n#include \"relic_json.h\"\n#include \"%s\"\n\n", hdr);

    for (int i = 0; i < n; i++)
        out_printf(o, "RELIC_GEN_UNUSED static inline void jp_%s(relic_buf *o, const %s_%s *m, const %s_%s *root, int depth);\n", order[i]->name, P, order[i]->name, P, R);
    out_puts(o, "\n");
    for (int i = 0; i < n; i++) {
        const gen_struct *st = order[i];
        out_printf(o, "RELIC_GEN_UNUSED static inline void jp_%s(relic_buf *o, const %s_%s *m, const %s_%s *root, int depth)\n{\n", st->name, P, st->name, P, R);
        out_puts(o, "    int first_ = 1;\n    (void)root; (void)depth; (void)first_;\n");
        if (st->tuple) out_puts(o, "    RELIC_PUTS(o, \"[\");\n");
        else out_puts(o, "    RELIC_PUTS(o, \"{\\n\");\n");
        if (st->is_root) out_printf(o, "    relic_json_indent(o, depth + 1);\n    RELIC_PUTS(o, \"\\\"format\\\": \\\"%s\\\"\");\n    first_ = 0;\n", s->format.name);
        emit_print_members(&j, st, st->members, st->nmembers);
        if (st->tuple) out_puts(o, "    RELIC_PUTS(o, \"]\");\n");
        else out_puts(o, "    RELIC_PUTS(o, \"\\n\");\n    relic_json_indent(o, depth);\n    RELIC_PUTS(o, \"}\");\n");
        out_puts(o, "}\n\n");
    }
    out_printf(o, "relic_status %s_json_print(const %s_%s *m, relic_buf *out, relic_error *err)\n{\n", P, P, R);
    out_printf(o, "    jp_%s(out, m, m, 0);\n    relic_buf_puts(out, \"\\n\");\n", R);
    out_puts(o, "    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, \"\", \"cannot grow the JSON output\");\n    return RELIC_OK;\n}\n\n");

    out_printf(o, "typedef struct %s_jr { relic_jr base; %s_%s *root; } %s_jr;\n\n", P, P, R, P);
    for (int i = 0; i < n; i++)
        out_printf(o, "RELIC_GEN_UNUSED static inline relic_status jr_%s(relic_jr *r, const relic_jv *obj, %s_%s *m);\n", order[i]->name, P, order[i]->name);
    out_puts(o, "\n");
    for (int i = 0; i < n; i++) {
        const gen_struct *st = order[i];
        out_printf(o, "RELIC_GEN_UNUSED static inline relic_status jr_%s(relic_jr *r, const relic_jv *obj, %s_%s *m)\n{\n    relic_status st_ = RELIC_OK;\n    (void)st_;\n", st->name, P, st->name);
        if (st->tuple && st->nmembers == 1 && st->members[0].field->ndims) {
            /* one array member: the member reader checks the array */
        } else if (st->tuple) {
            gen_field *fs[512];
            int nf = em_fields(st, fs, 512);
            out_printf(o, "    size_t n_;\n    if ((st_ = relic_jr_array(r, obj, &n_)) != RELIC_OK) return st_;\n");
            out_printf(o, "    if (n_ != %d) return relic_jr_fail(r, RELIC_E_ARGUMENT, \"expected %d values, found %%zu\", n_);\n", nf, nf);
        } else {
            out_puts(o, "    if (!relic_jv_is(obj, RELIC_JV_OBJECT)) return relic_jr_fail(r, RELIC_E_SYNTAX, \"expected an object\");\n");
        }
        emit_read_members(&j, st, st->members, st->nmembers);
        out_puts(o, "    return RELIC_OK;\n}\n\n");
    }
    out_printf(o, "relic_status %s_json_read(const char *text, size_t len, relic_arena *a, %s_%s *out, relic_error *err)\n{\n", P, P, R);
    out_printf(o, "    relic_error scratch_;\n    if (!err) err = &scratch_;\n    relic_error_clear(err);\n    memset(out, 0, sizeof *out);\n");
    out_printf(o, "    const relic_jv *doc = NULL;\n    relic_status st = relic_jr_parse(text, len, a, &doc, err);\n    if (st != RELIC_OK) return st;\n");
    out_printf(o, "    %s_jr r = { { a, err, { 0 }, 0 }, out };\n", P);
    out_printf(o, "    st = relic_jr_check_format(&r.base, doc, \"%s\");\n", s->format.name);
    out_printf(o, "    if (st == RELIC_OK) st = jr_%s(&r.base, doc, out);\n", R);
    out_puts(o, "    return st;\n}\n");
}
