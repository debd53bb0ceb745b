/* emit_docs.c — generated/docs/<format>.md: the Markdown reference of one
 * format, written from the schema alone (gen/SCHEMA.md describes the
 * language). Sections: the format's facts, a table of contents, one table
 * per struct (in em_struct_order order: a struct after those it embeds)
 * with offset, type, name, description and constraints of every field, and
 * one table per enum or flags type. Output is deterministic: no dates, no
 * paths other than the schema path as given. */
#include <stdlib.h>
#include <string.h>

#include "emit.h"

/* ---------------------------------------------------------------- text helpers */

/* Prose for a table cell or a paragraph: '|' would end the cell, '<' could
 * open an HTML tag, '*' could start emphasis, a newline would end the row. */
static void md_text(gen_out *o, const char *s, int in_cell)
{
    for (const char *c = s; *c; c++) {
        switch (*c) {
        case '|': out_puts(o, "\\|"); break;
        case '<': out_puts(o, "&lt;"); break;
        case '*': out_puts(o, "\\*"); break;
        case '\r': break;
        case '\n': out_puts(o, in_cell ? "<br>" : "\n"); break;
        default: out_printf(o, "%c", *c); break;
        }
    }
}

/* A code span holding s (len bytes); inside a table cell '|' is escaped
 * (GitHub Markdown removes the backslash again inside code spans). */
static void md_code_n(gen_out *o, const char *s, size_t len, int in_cell)
{
    int run = 0, longest = 0;
    for (size_t i = 0; i < len; i++) {
        run = s[i] == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
    }
    int pad = len > 0 && (s[0] == '`' || s[len - 1] == '`');
    for (int i = 0; i <= longest; i++) out_puts(o, "`");
    if (pad) out_puts(o, " ");
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '|' && in_cell) out_puts(o, "\\|");
        else if (s[i] == '\n') out_puts(o, " ");
        else out_printf(o, "%c", s[i]);
    }
    if (pad) out_puts(o, " ");
    for (int i = 0; i <= longest; i++) out_puts(o, "`");
}

static void md_code(gen_out *o, const char *s, int in_cell) { md_code_n(o, s, strlen(s), in_cell); }

/* The schema text of an expression as a code span. */
static void md_expr(gen_out *o, const gen_expr *e, int in_cell)
{
    gen_out t = {0};
    em_expr_text(&t, e);
    md_code_n(o, t.data ? t.data : "", t.size, in_cell);
    free(t.data);
}

static void struct_link(gen_out *o, const gen_struct *st)
{
    out_puts(o, "[");
    md_code(o, st->name, 1);
    out_printf(o, "](#struct-%s)", st->name);
}

static void enum_link(gen_out *o, const gen_enum *e)
{
    out_puts(o, "[");
    md_code(o, e->name, 1);
    out_printf(o, "](#%s-%s)", e->is_flags ? "flags" : "enum", e->name);
}

static gen_endian format_endian(const gen_schema *s) { return s->format.endian ? s->format.endian : EN_LITTLE; }

/* ---------------------------------------------------------------- field rows */

/* `u32`, `u16be`, `char[8]`, `vec3f[header.vertex_count]` (linked to the struct). */
static void field_type(gen_out *o, const gen_schema *s, const gen_field *f)
{
    gen_out t = {0};
    if (f->stype) out_puts(&t, f->stype->name);
    else {
        out_puts(&t, gen_prim_name(f->prim));
        if (f->prim != P_CHAR && f->prim != P_BYTES && gen_prim_size(f->prim) > 1 && f->endian != format_endian(s))
            out_puts(&t, f->endian == EN_BIG ? "be" : "le");
    }
    if (f->count) {
        out_puts(&t, "[");
        em_expr_text(&t, f->count);
        out_puts(&t, "]");
    }
    if (f->count_rest) out_puts(&t, "[..]");
    for (int i = 0; i < f->ndims; i++) out_printf(&t, "[%d]", f->dims[i]);
    if (f->stype) out_puts(o, "[");
    md_code_n(o, t.data, t.size, 1);
    if (f->stype) out_printf(o, "](#struct-%s)", f->stype->name);
    free(t.data);
}

static void field_offset(gen_out *o, const gen_field *f)
{
    if (f->at) {
        out_puts(o, "at ");
        md_expr(o, f->at, 1);
    } else if (f->fixed_offset >= 0) out_printf(o, "0x%02llX (%lld)", (unsigned long long)f->fixed_offset, (long long)f->fixed_offset);
    else out_puts(o, "varies");
}

static void sep(gen_out *o, int *first)
{
    if (!*first) out_puts(o, "; ");
    *first = 0;
}

static void field_constraints(gen_out *o, const gen_field *f)
{
    int first = 1;
    if (f->const_str) {
        gen_out t = {0};
        em_cstring(&t, f->const_str, f->const_len);
        sep(o, &first);
        out_puts(o, "constant ");
        md_code_n(o, t.data, t.size, 1);
        free(t.data);
    }
    if (f->init && f->init->kind == EX_INT) {
        sep(o, &first);
        out_puts(o, "constant ");
        md_expr(o, f->init, 1);
    }
    if (f->is_derived) {
        sep(o, &first);
        out_puts(o, "derived ");
        md_expr(o, f->init, 1);
    }
    if (f->etype) {
        sep(o, &first);
        out_puts(o, f->etype->is_flags ? "flags " : "enum ");
        enum_link(o, f->etype);
    }
    if (f->has_range) {
        sep(o, &first);
        out_printf(o, "range `%lld..%lld`", (long long)f->range_lo, (long long)f->range_hi);
    }
    if (f->check) {
        sep(o, &first);
        out_puts(o, "check ");
        md_expr(o, f->check, 1);
        if (!em_is_scalar(f)) out_puts(o, " (each element)");
    }
    if (f->count_rest) {
        sep(o, &first);
        out_puts(o, "as many elements as fit before the end of the input");
    }
    if (f->codec) {
        sep(o, &first);
        out_puts(o, "codec ");
        md_code(o, f->codec, 1);
        out_puts(o, ", decoded size ");
        md_expr(o, f->codec_size, 1);
        out_puts(o, ", decoded bytes are a ");
        if (f->codec_stype) struct_link(o, f->codec_stype);
        else md_code(o, f->codec_as, 1);
    }
    if (f->hook) {
        sep(o, &first);
        out_puts(o, "hook ");
        gen_out t = {0};
        out_printf(&t, "relic_hook_%s", f->hook);
        md_code_n(o, t.data, t.size, 1);
        free(t.data);
        out_puts(o, " (hand-written check)");
    }
}

static void indent(gen_out *o, int depth)
{
    for (int i = 0; i < depth; i++) out_puts(o, "&emsp;");
}

static void field_row(gen_out *o, const gen_schema *s, const gen_field *f, int depth)
{
    out_puts(o, "| ");
    field_offset(o, f);
    out_puts(o, " | ");
    field_type(o, s, f);
    out_puts(o, " | ");
    indent(o, depth);
    md_code(o, f->name, 1);
    out_puts(o, " | ");
    if (f->doc) md_text(o, f->doc, 1);
    if (f->source) {
        out_puts(o, f->doc ? " (source: " : "Source: ");
        md_text(o, f->source, 1);
        if (f->doc) out_puts(o, ")");
    }
    out_puts(o, " | ");
    field_constraints(o, f);
    out_puts(o, " |\n");
}

/* A row that only labels a block: "if (cond):", "case 1, 2:". */
static void label_row_start(gen_out *o, int depth)
{
    out_puts(o, "|  |  | ");
    indent(o, depth);
}

static void member_rows(gen_out *o, const gen_schema *s, const gen_member *m, int n, int depth)
{
    for (int i = 0; i < n; i++) {
        switch (m[i].kind) {
        case M_FIELD: field_row(o, s, m[i].field, depth); break;
        case M_CHECK:
            label_row_start(o, depth);
            out_puts(o, "**check** ");
            md_expr(o, m[i].cond, 1);
            out_puts(o, " | ");
            if (m[i].doc) md_text(o, m[i].doc, 1);
            out_puts(o, " | the validator rejects the struct when false |\n");
            break;
        case M_IF:
            label_row_start(o, depth);
            out_puts(o, "**if** (");
            md_expr(o, m[i].cond, 1);
            out_puts(o, "):");
            out_puts(o, " |  |  |\n");
            member_rows(o, s, m[i].then_m, m[i].nthen, depth + 1);
            if (m[i].nelse) {
                label_row_start(o, depth);
                out_puts(o, "**else**: |  |  |\n");
                member_rows(o, s, m[i].else_m, m[i].nelse, depth + 1);
            }
            break;
        case M_SWITCH: {
            int has_default = 0;
            label_row_start(o, depth);
            out_puts(o, "**switch** (");
            md_expr(o, m[i].cond, 1);
            out_puts(o, "):");
            out_puts(o, " |  |  |\n");
            for (int c = 0; c < m[i].ncases; c++) {
                const gen_case *cs = &m[i].cases[c];
                label_row_start(o, depth + 1);
                if (cs->nvalues == 0) {
                    has_default = 1;
                    out_puts(o, "**default**:");
                } else {
                    out_puts(o, "**case** ");
                    for (int v = 0; v < cs->nvalues; v++) out_printf(o, "%s%lld", v ? ", " : "", (long long)cs->values[v]);
                    out_puts(o, ":");
                }
                out_puts(o, cs->nmembers ? " |  |  |\n" : " | nothing |  |\n");
                member_rows(o, s, cs->members, cs->nmembers, depth + 2);
            }
            if (!has_default) {
                label_row_start(o, depth + 1);
                out_puts(o, "*any other value* | rejected by the validator |  |\n");
            }
            break;
        }
        }
    }
}

/* ---------------------------------------------------------------- sections */

static int struct_has_at(const gen_struct *st)
{
    gen_field *fs[512];
    int n = em_fields(st, fs, 512);
    for (int i = 0; i < n; i++)
        if (fs[i]->at) return 1;
    return 0;
}

static void size_text(gen_out *o, const gen_struct *st)
{
    if (st->fixed_size < 0) {
        out_puts(o, "varies");
        return;
    }
    out_printf(o, "%lld bytes (0x%llX)", (long long)st->fixed_size, (unsigned long long)st->fixed_size);
    if (struct_has_at(st)) out_puts(o, " in sequence, plus the members placed with `at`");
}

static void emit_struct(gen_out *o, gen_schema *s, const gen_struct *st)
{
    out_printf(o, "<a id=\"struct-%s\"></a>\n\n### struct ", st->name);
    md_code(o, st->name, 0);
    out_puts(o, st->is_root ? " (root)\n\n" : "\n\n");
    if (st->doc) {
        md_text(o, st->doc, 0);
        out_puts(o, "\n\n");
    }
    if (st->source) {
        out_puts(o, "- Source: ");
        md_text(o, st->source, 0);
        out_puts(o, "\n");
    }
    out_puts(o, "- Size: ");
    size_text(o, st);
    out_puts(o, "\n");

    /* where it is used */
    int nused = 0;
    for (int i = 0; i < s->nstructs; i++) {
        gen_field *fs[512];
        int n = em_fields(s->structs[i], fs, 512), hit = 0;
        for (int k = 0; k < n; k++)
            if (fs[k]->stype == st || fs[k]->codec_stype == st) hit = 1;
        if (!hit) continue;
        out_puts(o, nused++ ? ", " : "- Used in: ");
        struct_link(o, s->structs[i]);
    }
    if (nused) out_puts(o, "\n");
    if (st->tuple) {
        gen_field *fs[512];
        int n = em_fields(st, fs, 512);
        out_puts(o, "- JSON form: an array `[");
        for (int k = 0; k < n; k++) out_printf(o, "%s%s", k ? ", " : "", fs[k]->name);
        out_puts(o, "]`\n");
    }
    if (st->is_root && struct_has_at(st))
        out_puts(o, "- Members placed with `at` may lie anywhere in the input; the writer lays them out "
                    "contiguously after the sequential part, in schema order, and fills the offsets.\n");
    out_puts(o, "\n");
    if (st->nmembers == 0) {
        out_puts(o, "No fields.\n\n");
        return;
    }
    out_puts(o, "| Offset | Type | Name | Description | Constraints |\n|---|---|---|---|---|\n");
    member_rows(o, s, st->members, st->nmembers, 0);
    out_puts(o, "\n");
}

static void emit_enum(gen_out *o, gen_schema *s, const gen_enum *e)
{
    const char *kind = e->is_flags ? "flags" : "enum";
    int width = gen_prim_size(e->base) * 2;
    out_printf(o, "<a id=\"%s-%s\"></a>\n\n### %s ", kind, e->name, kind);
    md_code(o, e->name, 0);
    out_puts(o, "\n\n");
    if (e->doc) {
        md_text(o, e->doc, 0);
        out_puts(o, "\n\n");
    }
    if (e->source) {
        out_puts(o, "- Source: ");
        md_text(o, e->source, 0);
        out_puts(o, "\n");
    }
    out_printf(o, "- Type: `%s`\n", gen_prim_name(e->base));
    if (e->is_flags) {
        int64_t mask = 0;
        for (int i = 0; i < e->nitems; i++) mask |= e->items[i].value;
        out_printf(o, "- Mask: `0x%0*llX`\n", width, (unsigned long long)mask);
    }
    if (s->format.is_gff)
        out_puts(o, e->open ? "- Open: names only; any value is accepted.\n" : "- Closed: `relic check --strict` warns about values not listed here.\n");
    else if (e->open)
        out_puts(o, e->is_flags ? "- Open: bits not listed here are allowed.\n" : "- Open: values not listed here are allowed and kept as numbers.\n");
    else if (e->is_flags)
        out_puts(o, "- Closed: the validator rejects bits not listed here.\n");
    else
        out_puts(o, "- Closed: the validator rejects values not listed here.\n");

    int nused = 0;
    for (int i = 0; i < s->nstructs; i++) {
        gen_field *fs[512];
        int n = em_fields(s->structs[i], fs, 512);
        for (int k = 0; k < n; k++) {
            if (fs[k]->etype != e) continue;
            out_puts(o, nused++ ? ", " : "- Used by: ");
            out_printf(o, "[`%s.%s`](#struct-%s)", s->structs[i]->name, fs[k]->name, s->structs[i]->name);
        }
    }
    if (nused) out_puts(o, "\n");
    out_puts(o, "\n| Name | Value | Description |\n|---|---|---|\n");
    for (int i = 0; i < e->nitems; i++) {
        const gen_enum_item *it = &e->items[i];
        out_puts(o, "| ");
        md_code(o, it->name, 1);
        if (e->is_flags) out_printf(o, " | `0x%0*llX` | ", width, (unsigned long long)it->value);
        else out_printf(o, " | %lld | ", (long long)it->value);
        if (it->doc) md_text(o, it->doc, 1);
        out_puts(o, " |\n");
    }
    out_puts(o, "\n");
}

void emit_docs(gen_schema *s, gen_out *o)
{
    const gen_format *fm = &s->format;
    const char *P = em_prefix(s);
    gen_struct *order[4096];
    int n = em_struct_order(s, order);

    out_puts(o, "<!-- Generated by relic-gen from ");
    out_puts(o, s->file);
    out_puts(o, ". Do not edit: change the schema and run `make regen`. -->\n\n");
    out_printf(o, "# Format `%s`\n\n", fm->name);
    if (fm->doc) {
        md_text(o, fm->doc, 0);
        out_puts(o, "\n\n");
    }

    out_puts(o, "| | |\n|---|---|\n");
    out_puts(o, "| Source | ");
    if (fm->source) md_text(o, fm->source, 1);
    out_puts(o, " |\n| Extensions | ");
    for (int i = 0; i < fm->nextensions; i++) out_printf(o, "%s`.%s`", i ? ", " : "", fm->extensions[i]);
    if (fm->nextensions == 0) out_puts(o, "none");
    out_printf(o, " |\n| Byte order | %s-endian (a field typed `u32%s` etc. overrides it) |\n",
               format_endian(s) == EN_BIG ? "big" : "little", format_endian(s) == EN_BIG ? "le" : "be");
    out_puts(o, "| Root | ");
    if (fm->root) struct_link(o, fm->root);
    out_puts(o, " |\n| Schema | ");
    md_code(o, s->file, 1);
    out_printf(o, " |\n| C API | `generated/%s/%s.h`: `%s_validate`, `%s_decode`, `%s_write`, `%s_json_print`, `%s_json_read` |\n\n",
               s->family ? s->family : "misc", fm->name, P, P, P, P, P);

    out_puts(o, "## Contents\n\n");
    out_puts(o, "- [Structs](#structs)\n");
    for (int i = 0; i < n; i++) {
        out_puts(o, "  - ");
        struct_link(o, order[i]);
        out_puts(o, " (");
        if (order[i]->fixed_size >= 0) out_printf(o, "%lld bytes", (long long)order[i]->fixed_size);
        else out_puts(o, "size varies");
        out_puts(o, order[i]->is_root ? ", root)\n" : ")\n");
    }
    if (s->nenums) {
        out_puts(o, "- [Enums and flags](#enums-and-flags)\n");
        for (int i = 0; i < s->nenums; i++) {
            out_puts(o, "  - ");
            enum_link(o, s->enums[i]);
            out_printf(o, " (%s, %s)\n", s->enums[i]->is_flags ? "flags" : "enum", gen_prim_name(s->enums[i]->base));
        }
    }
    out_puts(o, "\n<a id=\"structs\"></a>\n\n## Structs\n\n");
    out_puts(o, "Offsets are from the start of the struct; \"varies\" means the offset depends on earlier "
                "variable-size or conditional members. Derived fields are recomputed by the writer and "
                "checked by the validator.\n\n");
    for (int i = 0; i < n; i++) emit_struct(o, s, order[i]);
    if (s->nenums) {
        out_puts(o, "<a id=\"enums-and-flags\"></a>\n\n## Enums and flags\n\n");
        for (int i = 0; i < s->nenums; i++) emit_enum(o, s, s->enums[i]);
    }
}

/* ---------------------------------------------------------------- typed GFF schemas */

static void gff_struct_link(gen_out *o, const gen_schema *s, const gen_struct *st)
{
    if (st->external) out_printf(o, "[`%s`](%s.md#struct-%s)", st->name, st->external, st->name);
    else out_printf(o, "[`%s`](#struct-%s)", st->name, st->name);
    (void)s;
}

static void emit_gff_struct(gen_out *o, gen_schema *s, const gen_struct *st)
{
    out_printf(o, "<a id=\"struct-%s\"></a>\n\n### struct `%s`\n\n", st->name, st->name);
    md_text(o, st->doc, 0);
    out_puts(o, "\n\n");
    if (st->id_any) out_puts(o, "- StructID: varies\n");
    else out_printf(o, "- StructID: %lld%s\n", (long long)st->gff_id, st->gff_id == 0xFFFFFFFFll ? " (0xFFFFFFFF, the top-level struct)" : "");
    if (st->source) {
        out_puts(o, "- Source: ");
        md_text(o, st->source, 0);
        out_puts(o, "\n");
    }
    out_puts(o, "\n");
    if (st->nmembers == 0) {
        out_puts(o, "No fields documented here.\n\n");
        return;
    }
    out_puts(o, "| Label | GFF type | Values | Accessor | Description |\n|---|---|---|---|---|\n");
    for (int i = 0; i < st->nmembers; i++) {
        const gen_field *f = st->members[i].field;
        out_puts(o, "| ");
        md_code(o, f->label, 1);
        out_printf(o, " | %s", gen_gff_type_name(f->gff_type));
        if (f->stype) {
            out_puts(o, f->gff_type == GFF_T_LIST ? " of " : " ");
            gff_struct_link(o, s, f->stype);
        }
        out_puts(o, " | ");
        if (f->has_range) out_printf(o, "%lld..%lld", (long long)f->range_lo, (long long)f->range_hi);
        if (f->etype) out_printf(o, "%s[`%s`](#%s-%s)", f->has_range ? ", " : "", f->etype->name,
                                 f->etype->is_flags ? "flags" : "enum", f->etype->name);
        if (st->is_root) out_printf(o, " | `relic_%s_%s` | ", s->format.name, f->name);
        else out_printf(o, " | `relic_%s_%s_%s` | ", s->format.name, st->name, f->name);
        if (f->doc) md_text(o, f->doc, 1);
        out_puts(o, " |\n");
    }
    out_puts(o, "\n");
}

void emit_gff_docs(gen_schema *s, gen_out *o)
{
    const gen_format *fm = &s->format;
    out_puts(o, "<!-- Generated by relic-gen from ");
    out_puts(o, s->file);
    out_puts(o, ". Do not edit: change the schema and run `make regen`. -->\n\n");
    out_printf(o, "# Typed GFF %s `%s`\n\n", fm->gff_type ? "file" : "structs", fm->name);
    md_text(o, fm->doc, 0);
    out_puts(o, "\n\n| | |\n|---|---|\n| Source | ");
    md_text(o, fm->source, 1);
    out_puts(o, " |\n");
    if (fm->gff_type) {
        out_printf(o, "| GFF FileType | `%s` |\n| Top-level struct | ", fm->gff_type);
        gff_struct_link(o, s, fm->root);
        out_puts(o, " |\n");
    }
    if (fm->pairs)
        out_printf(o, "| Paired with | `%s`: each list of the top-level struct has as many elements as the same-labelled list there |\n", fm->pairs);
    for (int i = 0; i < fm->nuses; i++) out_printf(o, "| Uses | [`%s`](%s.md) |\n", fm->uses[i], fm->uses[i]);
    out_puts(o, "| Schema | ");
    md_code(o, s->file, 1);
    out_printf(o, " |\n| C API | `generated/%s/%s.h`: one typed accessor per field (`relic_gff_typed_get`), "
                  "tables for `relic_gff_schema_check` (`relic check --strict`) |\n\n",
               s->family ? s->family : "misc", fm->name);
    out_puts(o, "A field that is present must have the GFF type, range and values given here, and a struct reached "
                "through a struct or list field the StructID given here; `relic check --strict` reports each departure "
                "with its path. Absent fields and fields not listed are not problems.\n\n## Structs\n\n");
    for (int i = 0; i < s->nstructs; i++)
        if (!s->structs[i]->external) emit_gff_struct(o, s, s->structs[i]);
    int nenums = 0;
    for (int i = 0; i < s->nenums; i++)
        if (!s->enums[i]->external) {
            if (!nenums++) out_puts(o, "<a id=\"enums-and-flags\"></a>\n\n## Enums and flags\n\n");
            emit_enum(o, s, s->enums[i]);
        }
}
