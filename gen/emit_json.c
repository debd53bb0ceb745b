/* emit_json.c — generated/<family>/<format>_json.c: the JSON field tables of a
 * format, one relic_jt_field row per member (and, for a struct with if/switch,
 * a function saying which members its branches hold). runtime/json/gen_json.c
 * prints and reads every format from them: struct members in schema order,
 * enums by name, fixed strings as Latin-1 JSON strings, f32/f64 in a form that
 * reads back to the same bits, the JSON path named in every error. */
#include <stdlib.h>
#include <string.h>

#include "emit.h"

/* The presence of fields inside if/switch: one C condition per field,
 * the conjunction of the branches that enclose it. */
typedef struct pctx {
    gen_out *o; /* "case i: return (...);" lines */
    const char *conds[16];
    int nconds;
    int index; /* the next field's index in the flattened table */
} pctx;

static void walk_presence(pctx *p, const gen_member *m, int n)
{
    for (int i = 0; i < n; i++) {
        if (m[i].kind == M_CHECK) continue;
        if (m[i].kind == M_FIELD) {
            if (p->nconds) {
                out_printf(p->o, "    case %d: return ", p->index);
                for (int k = 0; k < p->nconds; k++) out_printf(p->o, "%s%s", k ? " && " : "", p->conds[k]);
                out_puts(p->o, ";\n");
            }
            p->index++;
            continue;
        }
        gen_out c = {0};
        em_expr(&c, m[i].cond, "m->", "root->", "0");
        if (m[i].kind == M_IF) {
            gen_out t = {0}, e = {0};
            out_printf(&t, "(%s)", c.data);
            out_printf(&e, "!(%s)", c.data);
            p->conds[p->nconds++] = t.data;
            walk_presence(p, m[i].then_m, m[i].nthen);
            p->conds[p->nconds - 1] = e.data;
            walk_presence(p, m[i].else_m, m[i].nelse);
            p->nconds--;
            free(t.data);
            free(e.data);
        } else {
            for (int k = 0; k < m[i].ncases; k++) {
                const gen_case *cs = &m[i].cases[k];
                gen_out t = {0};
                out_puts(&t, cs->nvalues ? "(" : "!(");
                const gen_case *list = cs;
                int nlist = 1;
                if (!cs->nvalues) {
                    list = m[i].cases;
                    nlist = m[i].ncases;
                } /* default: none of the others */
                int any = 0;
                for (int q = 0; q < nlist; q++)
                    for (int v = 0; v < list[q].nvalues; v++)
                        out_printf(&t, "%s%s == INT64_C(%lld)", any++ ? " || " : "", c.data, (long long)list[q].values[v]);
                if (!any) out_puts(&t, "0");
                out_puts(&t, ")");
                p->conds[p->nconds++] = t.data;
                walk_presence(p, cs->members, cs->nmembers);
                p->nconds--;
                free(t.data);
            }
        }
        free(c.data);
    }
}

static void emit_row(gen_schema *s, gen_out *o, const gen_struct *st, const gen_field *f)
{
    const char *P = em_prefix(s);
    const char *kind;
    int size = f->stype ? 0 : gen_prim_size(f->prim), sgn = 0;
    if (f->stype) kind = "STRUCT";
    else if (f->prim == P_CHAR) kind = "CHAR";
    else if (f->prim == P_BYTES) kind = "BYTES";
    else if (f->prim == P_F32) kind = "F32";
    else if (f->prim == P_F64) kind = "F64";
    else {
        kind = f->etype && !f->etype->is_flags ? "ENUM" : "INT";
        sgn = gen_prim_is_signed(f->prim);
    }
    int counted = f->count || f->count_rest;
    int optional = f->is_derived || f->const_str || (f->init && f->init->kind == EX_INT);
    int64_t n = f->ndims ? em_fixed_elems(f) : 0;
    out_printf(o, "    { \"%s\", offsetof(%s_%s, %s), RELIC_JT_%s, %d, %d, %s, %lld, %d",
               f->name, P, st->name, f->name, kind, size, sgn,
               counted && optional ? "RELIC_JT_COUNTED | RELIC_JT_OPTIONAL" : counted ? "RELIC_JT_COUNTED"
                   : optional                                                         ? "RELIC_JT_OPTIONAL"
                                                                                      : "0",
               (long long)n, f->ndims ? f->dims[0] : 0);
    if (counted) out_printf(o, ", offsetof(%s_%s, %s_count)", P, st->name, f->name);
    else out_puts(o, ", 0");
    if (f->stype) out_printf(o, ", &%s_json", f->stype->name);
    else out_puts(o, ", NULL");
    if (!strcmp(kind, "ENUM")) out_printf(o, ", %s_%s_name, %s_%s_from_name", P, f->etype->name, P, f->etype->name);
    else out_puts(o, ", NULL, NULL");
    /* where it is in the file, for printing from the view: its place in the
     * struct, its byte order, and for a root member the view holds by pointer,
     * that pointer and its count */
    if (f->fixed_offset >= 0 && !st->is_root) out_printf(o, ", %lld", (long long)f->fixed_offset);
    else out_puts(o, ", RELIC_JT_NOPOS");
    out_printf(o, ", %d", f->endian == EN_BIG);
    if (st->is_root && !(em_is_scalar(f) && !f->stype)) {
        out_printf(o, ", offsetof(%s_view, %s)", P, f->name);
        if (!em_is_scalar(f)) out_printf(o, ", offsetof(%s_view, %s_count)", P, f->name);
        else out_puts(o, ", RELIC_JT_NOPOS");
    } else {
        out_puts(o, ", RELIC_JT_NOPOS, RELIC_JT_NOPOS");
    }
    out_printf(o, ", %d },\n", (int)strlen(f->name));
}

/* Can struct st be printed straight from its bytes: a fixed size, every
 * member at a constant place, no branches, and the same for its members' types. */
static int bytes_printable(const gen_struct *st)
{
    if (st->fixed_size < 0) return 0;
    gen_field *fs[512];
    int nf = em_fields(st, fs, 512);
    for (int i = 0; i < st->nmembers; i++)
        if (st->members[i].kind != M_FIELD && st->members[i].kind != M_CHECK) return 0;
    for (int k = 0; k < nf; k++) {
        if (fs[k]->fixed_offset < 0 || fs[k]->count || fs[k]->count_rest) return 0;
        if (fs[k]->stype && !bytes_printable(fs[k]->stype)) return 0;
    }
    return 1;
}

/* An upper bound of the model struct's size in bytes (members padded to 8,
 * a counted member a pointer and a count): the printer's scratch for a
 * struct it walks must hold it (RELIC_JT_SCRATCH in relic_json_table.h). */
static int64_t model_bound(const gen_struct *st)
{
    gen_field *fs[512];
    int nf = em_fields(st, fs, 512);
    int64_t n = 0;
    for (int k = 0; k < nf; k++) {
        const gen_field *f = fs[k];
        int64_t per = f->stype ? model_bound(f->stype) : gen_prim_size(f->prim);
        if (f->count || f->count_rest) n += 16;
        else n += per * (f->ndims ? em_fixed_elems(f) : 1) + 8;
    }
    return n + 16;
}

/* Can struct st be printed by walking its bytes in order: each member's
 * place follows from the ones before it (counts from earlier members, no
 * `[..]` to the end of a region, no hand-written hook), its model fits the
 * walker's scratch, and the same for its members' types. */
static int walk_printable(const gen_struct *st)
{
    if (bytes_printable(st)) return 1;
    if (model_bound(st) > 4096) return 0;
    gen_field *fs[512];
    int nf = em_fields(st, fs, 512);
    for (int k = 0; k < nf; k++) {
        const gen_field *f = fs[k];
        if (f->count_rest || f->hook || f->at) return 0;
        if (f->stype && !walk_printable(f->stype)) return 0;
    }
    return 1;
}

/* Can the format be printed from its view: every root member that the view
 * holds by pointer is bytes, numbers or structs printable from their bytes. */
int em_json_view_printable(const gen_struct *root)
{
    gen_field *fs[512];
    int nf = em_fields(root, fs, 512);
    for (int k = 0; k < nf; k++) {
        const gen_field *f = fs[k];
        if (em_is_scalar(f) && !f->stype) continue;
        if (f->stype && !walk_printable(f->stype)) return 0;
        if (!f->stype && em_elem_size(f) < 0) return 0;
    }
    return 1;
}

/* Formats whose root object hand-written code continues with members of its
 * own: a GROFF level's or scene's whole-file JSON is the container's object
 * plus "contents" and "instances" (runtime/json/grf_json.c). Only these get
 * relic_<f>_json_print_view_open, the view printer that leaves the object open. */
static const char *const json_continued[] = {"groff"};

int em_json_view_open(const gen_schema *s)
{
    if (!em_json_view_printable(s->format.root)) return 0;
    for (size_t i = 0; i < sizeof json_continued / sizeof json_continued[0]; i++)
        if (!strcmp(s->format.name, json_continued[i])) return 1;
    return 0;
}

/* The element counts of st's counted members, as functions of the members
 * before them (m) and the root's scalars (root): "case i: return (...);".
 * Only the view walker asks for them, and it never walks the root (its
 * counts are in the view), so the root has none. */
static int emit_counts(gen_schema *s, gen_out *o, const gen_struct *st)
{
    if (st->is_root) return 0;
    const char *P = em_prefix(s);
    gen_field *fs[512];
    int nf = em_fields(st, fs, 512);
    gen_out cases = {0};
    for (int k = 0; k < nf; k++) {
        if (!fs[k]->count) continue;
        gen_out c = {0};
        em_expr(&c, fs[k]->count, "m->", "root->", "0");
        out_printf(&cases, "    case %d: return %s;\n", k, c.data);
        free(c.data);
    }
    if (!cases.size) return 0;
    out_printf(o, "static int64_t %s_json_count(const void *mv, const void *rv, size_t field)\n{\n    const %s_%s *m = mv;\n",
               st->name, P, st->name);
    if (strstr(cases.data, "root->")) out_printf(o, "    const %s_%s *root = rv;\n", P, s->format.root->name);
    else out_puts(o, "    (void)rv;\n");
    if (!strstr(cases.data, "m->")) out_puts(o, "    (void)m;\n");
    out_printf(o, "    switch (field) {\n%s    default: return 0;\n    }\n}\n\n", cases.data);
    free(cases.data);
    return 1;
}

void emit_json(gen_schema *s, gen_out *o)
{
    const char *P = em_prefix(s);
    const char *R = s->format.root->name;
    gen_struct *order[4096];
    int proto[4096];
    int n = 0, all = em_callee_order(s, order, proto);
    for (int i = 0; i < all; i++)
        if (order[i]->used && em_reachable(s->format.root, order[i])) {
            proto[n] = proto[i];
            order[n++] = order[i];
        }
    out_printf(o, "/* Generated by relic-gen from %s. Do not edit: change the schema and run `make regen`.\n"
                  " * JSON field tables of the %s format: one row per member, printed and read by\n"
                  " * runtime/json/gen_json.c. */\n",
               s->file, s->format.name);
    out_printf(o, "#include <stddef.h>\n\n#include \"relic_json_table.h\"\n%s#include \"%s.h\"\n\n",
               s->format.detect ? "#include \"relic_schema_ops.h\" /* the descriptor at the end */\n" : "", s->format.name);
    int any = 0;
    for (int i = 0; i < n; i++)
        if (proto[i]) {
            out_printf(o, "static const relic_jt_struct %s_json;\n", order[i]->name);
            any = 1;
        }
    if (any) out_puts(o, "\n");
    for (int i = 0; i < n; i++) {
        const gen_struct *st = order[i];
        if (!st->used) continue;
        gen_field *fs[512];
        int nf = em_fields(st, fs, 512);
        /* which fields a branch holds */
        gen_out cases = {0};
        pctx pc = {&cases, {0}, 0, 0};
        walk_presence(&pc, st->members, st->nmembers);
        if (cases.size) {
            out_printf(o, "static int %s_json_has(const void *mv, const void *rv, size_t field)\n{\n    const %s_%s *m = mv;\n", st->name, P, st->name);
            if (strstr(cases.data, "root->")) out_printf(o, "    const %s_%s *root = rv;\n", P, R);
            else out_puts(o, "    (void)rv;\n");
            out_printf(o, "    switch (field) {\n%s    default: return 1;\n    }\n}\n\n", cases.data);
        }
        int has = cases.size > 0;
        free(cases.data);
        int counts = emit_counts(s, o, st);
        if (nf) {
            out_printf(o, "static const relic_jt_field %s_fields[] = {\n", st->name);
            for (int k = 0; k < nf; k++) emit_row(s, o, st, fs[k]);
            out_puts(o, "};\n");
        }
        char fields[160], fmt[160], hasfn[160];
        if (nf) snprintf(fields, sizeof fields, "%s_fields", st->name);
        else snprintf(fields, sizeof fields, "NULL");
        if (st->is_root) snprintf(fmt, sizeof fmt, "\"%s\"", s->format.name);
        else snprintf(fmt, sizeof fmt, "NULL");
        if (has) snprintf(hasfn, sizeof hasfn, "%s_json_has", st->name);
        else snprintf(hasfn, sizeof hasfn, "NULL");
        char values[160];
        if (st->is_root) snprintf(values, sizeof values, "offsetof(%s_view, values)", P);
        else snprintf(values, sizeof values, "0");
        char countfn[160];
        if (counts) snprintf(countfn, sizeof countfn, "%s_json_count", st->name);
        else snprintf(countfn, sizeof countfn, "NULL");
        out_printf(o, "static const relic_jt_struct %s_json = { %s, %d, sizeof(%s_%s), _Alignof(%s_%s), %d, %s, %s, %lld, %s, %s, %d };\n\n",
                   st->name, fields, nf, P, st->name, P, st->name, st->tuple, fmt, hasfn,
                   (long long)(st->fixed_size > 0 ? st->fixed_size : 0), values, countfn, bytes_printable(st));
    }
    out_printf(o, "relic_status %s_json_print(const %s_%s *m, relic_buf *out, relic_error *err) { return relic_jt_print_doc(&%s_json, m, out, err); }\n", P, P, R, R);
    if (em_json_view_printable(s->format.root))
        out_printf(o, "relic_status %s_json_print_view(const %s_view *v, relic_buf *out, relic_error *err) { return relic_jt_print_view_doc(&%s_json, v, out, err); }\n", P, P, R);
    if (em_json_view_open(s))
        out_printf(o, "relic_status %s_json_print_view_open(const %s_view *v, relic_buf *out, relic_error *err) { return relic_jt_print_view_open(&%s_json, v, out, err); }\n", P, P, R);
    out_printf(o, "relic_status %s_json_read(const char *text, size_t len, relic_arena *a, %s_%s *out, relic_error *err) { return relic_jt_read_doc(&%s_json, text, len, a, out, err); }\n", P, P, R, R);
    out_printf(o, "relic_status %s_json_read_value(const relic_jv *doc, relic_arena *a, %s_%s *out, relic_error *err) { return relic_jt_read_value(&%s_json, doc, a, out, err); }\n", P, P, R, R);
}

/* The format's descriptor for the relic command and the foreign-call ABI
 * (runtime/json/relic_schema_ops.h): its relic_<f>_ops (generated/<f>.c) and
 * the JSON printer and reader, type-erased. Only for formats relic_detect
 * knows (`detect`): those are the ones a user hands to the command. */
void emit_json_ops(gen_schema *s, gen_out *o)
{
    if (!s->format.detect) return;
    const char *P = em_prefix(s);
    out_printf(o, "\n/* ---- the format's descriptor (relic_schema_ops.h) ---- */\n\n");
    out_printf(o, "static relic_status json_print_any(const void *model, relic_buf *out, relic_error *err) { return %s_json_print(model, out, err); }\n", P);
    out_printf(o, "static relic_status json_read_any(const char *text, size_t size, relic_arena *a, void *model, relic_error *err) { return %s_json_read(text, size, a, model, err); }\n", P);
    if (em_json_view_printable(s->format.root)) {
        out_printf(o, "static relic_status json_print_view_any(const void *view, relic_buf *out, relic_error *err) { return %s_json_print_view(view, out, err); }\n\n", P);
        out_printf(o, "const relic_schema_ops %s_schema_ops = { &%s_ops, json_print_any, json_read_any, json_print_view_any };\n", P, P);
    } else
        out_printf(o, "\nconst relic_schema_ops %s_schema_ops = { &%s_ops, json_print_any, json_read_any, NULL };\n", P, P);
}
