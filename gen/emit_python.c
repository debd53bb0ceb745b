/* emit_python.c — python/relic/_gen/<format>.py: the schema as a Python
 * module for the `relic` package (python/relic/): enums as IntEnum, flags
 * as IntFlag, one NumPy structured dtype per fixed-size struct (field
 * names, offsets and byte order from the schema), and each struct's member
 * list with its counts, placements and branches as Python expressions, which
 * python/relic/_layout.py walks to lay zero-copy views over the bytes.
 * Names come from the AST only (no C names), so a renamed C type does not
 * change this module. It imports relic._layout by its absolute name, so a
 * module made from a user's own schema outside relic's tree works beside
 * the installed package (relic.view). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

/* Python class name of an enum: walkmesh_type -> WalkmeshType. */
static void py_class_name(gen_out *o, const char *name)
{
    int up = 1;
    for (const char *p = name; *p; p++) {
        if (*p == '_') {
            up = 1;
            continue;
        }
        out_printf(o, "%c", up ? toupper((unsigned char)*p) : *p);
        up = 0;
    }
}

/* A Python string literal (repr-safe: escapes quotes, backslashes and control bytes). */
static void py_string(gen_out *o, const char *s)
{
    out_puts(o, "'");
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '\'' || *p == '\\') out_printf(o, "\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7f) out_printf(o, "\\x%02x", *p);
        else out_printf(o, "%c", *p);
    }
    out_puts(o, "'");
}

/* NumPy type code of a primitive in the field's byte order ('<u4', '>f4', 'u1'). */
static const char *py_dtype_code(const gen_field *f)
{
    static char buf[8];
    const char *k;
    switch (f->prim) {
    case P_U8:
    case P_BYTES: return "u1";
    case P_I8: return "i1";
    case P_U16: k = "u2"; break;
    case P_U32: k = "u4"; break;
    case P_U64: k = "u8"; break;
    case P_I16: k = "i2"; break;
    case P_I32: k = "i4"; break;
    case P_I64: k = "i8"; break;
    case P_F32: k = "f4"; break;
    case P_F64: k = "f8"; break;
    default: return NULL;
    }
    snprintf(buf, sizeof buf, "%c%s", f->endian == EN_BIG ? '>' : '<', k);
    return buf;
}

static const char *py_op(gen_op op)
{
    static const char *const ops[] = {"+", "-", "*", "//", "%", "<<", ">>", "&", "|", "^",
                                      "==", "!=", "<", "<=", ">", ">=", " and ", " or "};
    return (size_t)op < sizeof ops / sizeof ops[0] ? ops[op] : "?";
}

/* e as a Python expression over R (root struct's values) and L (the
 * current struct's values). Derived-field functions never appear in the
 * counts, placements and branches this module carries. */
static void py_expr(gen_out *o, const gen_expr *e)
{
    switch (e->kind) {
    case EX_INT: out_printf(o, "%lld", (long long)e->ival); break;
    case EX_IT: out_puts(o, "it"); break;
    case EX_NAME:
        out_puts(o, e->root_scope ? "R" : "L");
        for (int i = 0; i < e->npath; i++) out_printf(o, "['%s']", e->path[i]);
        break;
    case EX_UNARY:
        out_puts(o, e->op == OP_NEG ? "(-" : e->op == OP_NOT ? "(not "
                                                             : "(~");
        py_expr(o, e->a);
        out_puts(o, ")");
        break;
    case EX_BINARY:
        out_puts(o, "(");
        py_expr(o, e->a);
        out_puts(o, py_op(e->op));
        py_expr(o, e->b);
        out_puts(o, ")");
        break;
    case EX_CALL: out_puts(o, "None"); break;
    }
}

static void py_lambda(gen_out *o, const char *key, const gen_expr *e)
{
    out_printf(o, ", %s=lambda R, L: ", key);
    py_expr(o, e);
}

static void py_dims(gen_out *o, const gen_field *f)
{
    int n = f->prim == P_CHAR ? f->ndims - 1 : f->ndims; /* char[N]: N is the string length */
    out_puts(o, "(");
    for (int i = 0; i < n; i++) out_printf(o, "%d, ", f->dims[i]);
    out_puts(o, ")");
}

/* Whether st has a dtype: fixed size, plain fields only, each of fixed size. */
static int py_has_dtype(const gen_struct *st)
{
    if (st->fixed_size < 0) return 0;
    for (int i = 0; i < st->nmembers; i++) {
        const gen_member *m = &st->members[i];
        if (m->kind == M_CHECK) continue;
        if (m->kind != M_FIELD) return 0;
        const gen_field *f = m->field;
        if (f->count || f->count_rest || f->at || f->codec || f->fixed_offset < 0) return 0;
        if (f->prim == P_NONE && (!f->stype || !py_has_dtype(f->stype))) return 0;
    }
    return 1;
}

/* The one primitive of a tuple or one-field struct whose leaves all share it
 * (vec3f: three f32; face: u32 v[3]), and how many leaves: arrays of it are
 * plain (N, k) arrays. 0 otherwise. */
static int py_homogeneous(const gen_struct *st, const gen_field **prim)
{
    int leaves = 0, fields = 0;
    for (int i = 0; i < st->nmembers; i++) {
        const gen_member *m = &st->members[i];
        if (m->kind == M_CHECK) continue;
        const gen_field *f = m->field;
        fields++;
        if (f->prim == P_NONE || f->prim == P_CHAR || f->prim == P_BYTES || f->etype) return 0;
        if (*prim && ((*prim)->prim != f->prim || (*prim)->endian != f->endian)) return 0;
        *prim = f;
        leaves += (int)em_fixed_elems(f);
    }
    return (st->tuple || fields == 1) ? leaves : 0;
}

static void py_dtype_name(gen_out *o, const char *name)
{
    out_printf(o, "%s_dtype", name);
}

static void emit_dtype(gen_out *o, const gen_struct *st)
{
    py_dtype_name(o, st->name);
    out_puts(o, " = np.dtype({'names': [");
    for (int i = 0; i < st->nmembers; i++)
        if (st->members[i].kind == M_FIELD) out_printf(o, "'%s', ", st->members[i].field->name);
    out_puts(o, "], 'formats': [");
    for (int i = 0; i < st->nmembers; i++) {
        if (st->members[i].kind != M_FIELD) continue;
        const gen_field *f = st->members[i].field;
        int n = f->prim == P_CHAR ? f->ndims - 1 : f->ndims;
        if (n > 0) out_puts(o, "(");
        if (f->prim == P_CHAR) out_printf(o, "'S%d'", f->dims[f->ndims - 1]);
        else if (f->prim == P_NONE) py_dtype_name(o, f->stype->name);
        else out_printf(o, "'%s'", py_dtype_code(f));
        if (n > 0) {
            out_puts(o, ", ");
            py_dims(o, f);
            out_puts(o, ")");
        }
        out_puts(o, ", ");
    }
    out_puts(o, "], 'offsets': [");
    for (int i = 0; i < st->nmembers; i++)
        if (st->members[i].kind == M_FIELD) out_printf(o, "%lld, ", (long long)st->members[i].field->fixed_offset);
    out_printf(o, "], 'itemsize': %lld})\n", (long long)st->fixed_size);
}

static void emit_members(gen_out *o, const gen_member *ms, int n, int indent);

static void emit_field(gen_out *o, const gen_field *f, int indent)
{
    out_printf(o, "%*sField('%s'", indent, "", f->name);
    if (f->prim == P_NONE) out_printf(o, ", struct='%s'", f->type_name);
    else if (f->prim == P_CHAR) out_printf(o, ", fmt='S%d'", f->dims[f->ndims - 1]);
    else out_printf(o, ", fmt='%s'", py_dtype_code(f));
    if ((f->prim == P_CHAR ? f->ndims - 1 : f->ndims) > 0) {
        out_puts(o, ", dims=");
        py_dims(o, f);
    }
    if (f->count) py_lambda(o, "count", f->count);
    if (f->count_rest) out_puts(o, ", rest=True");
    if (f->at) py_lambda(o, "at", f->at);
    if (f->etype) {
        out_puts(o, ", enum=");
        py_class_name(o, f->etype->name);
    }
    if (f->codec) {
        out_printf(o, ", codec='%s'", f->codec);
        if (f->codec_size) py_lambda(o, "codec_size", f->codec_size);
        if (f->codec_as) out_printf(o, ", codec_as='%s'", f->codec_as);
    }
    if (f->hook) out_printf(o, ", hook='%s'", f->hook);
    if (f->is_derived) out_puts(o, ", derived=True");
    if (f->doc) {
        out_puts(o, ", doc=");
        py_string(o, f->doc);
    }
    out_puts(o, "),\n");
}

static void emit_members(gen_out *o, const gen_member *ms, int n, int indent)
{
    for (int i = 0; i < n; i++) {
        const gen_member *m = &ms[i];
        switch (m->kind) {
        case M_FIELD: emit_field(o, m->field, indent); break;
        case M_CHECK: break; /* the C validator checks them, once, before any view */
        case M_IF:
            out_printf(o, "%*sIf(lambda R, L: ", indent, "");
            py_expr(o, m->cond);
            out_puts(o, ", [\n");
            emit_members(o, m->then_m, m->nthen, indent + 4);
            out_printf(o, "%*s], [\n", indent, "");
            emit_members(o, m->else_m, m->nelse, indent + 4);
            out_printf(o, "%*s]),\n", indent, "");
            break;
        case M_SWITCH:
            out_printf(o, "%*sSwitch(lambda R, L: ", indent, "");
            py_expr(o, m->cond);
            out_puts(o, ", [\n");
            for (int c = 0; c < m->ncases; c++) {
                const gen_case *k = &m->cases[c];
                out_printf(o, "%*s(", indent + 4, "");
                if (k->nvalues == 0) out_puts(o, "None");
                else {
                    out_puts(o, "(");
                    for (int v = 0; v < k->nvalues; v++) out_printf(o, "%lld, ", (long long)k->values[v]);
                    out_puts(o, ")");
                }
                out_puts(o, ", [\n");
                emit_members(o, k->members, k->nmembers, indent + 8);
                out_printf(o, "%*s]),\n", indent + 4, "");
            }
            out_printf(o, "%*s]),\n", indent, "");
            break;
        }
    }
}

static void emit_enum(gen_out *o, const gen_enum *e)
{
    out_puts(o, "\n\nclass ");
    py_class_name(o, e->name);
    out_printf(o, "(enum.%s):\n    ", e->is_flags ? "IntFlag" : "IntEnum");
    char doc[1024];
    snprintf(doc, sizeof doc, "%s%s%s", e->doc ? e->doc : e->name, e->source ? " Source: " : "", e->source ? e->source : "");
    py_string(o, doc);
    out_puts(o, "\n\n");
    for (int i = 0; i < e->nitems; i++) {
        out_printf(o, "    %s = %lld", em_upper(e->items[i].name), (long long)e->items[i].value);
        if (e->items[i].doc) {
            out_puts(o, "  # ");
            for (const char *p = e->items[i].doc; *p; p++)
                if (*p != '\n') out_printf(o, "%c", *p);
        }
        out_puts(o, "\n");
    }
    if (e->nitems == 0) out_puts(o, "    pass\n");
}

/* A typed GFF schema: per struct, each label's nwn_gff type, documented
 * range (when it holds for every game), enum class and struct type, for
 * relic.gff's typed accessors. */
static void emit_gff_fields(gen_out *o, gen_schema *s)
{
    if (s->format.gff_type) out_printf(o, "\nGFF_TYPE = '%s'\nROOT = '%s'\n", s->format.gff_type, s->format.root_name);
    out_puts(o, "\n# struct -> label -> (nwn_gff type, (lo, hi) or None, enum or None, struct type or None, doc)\nFIELDS = {}\n");
    for (int i = 0; i < s->nstructs; i++) {
        const gen_struct *st = s->structs[i];
        if (st->external) continue;
        gen_field *fs[512];
        int n = em_fields(st, fs, 512);
        out_printf(o, "FIELDS['%s'] = {\n", st->name);
        for (int k = 0; k < n; k++) {
            const gen_field *f = fs[k];
            if (!f->label) continue;
            out_printf(o, "    ");
            py_string(o, f->label);
            out_printf(o, ": ('%s', ", gen_gff_type_name(f->gff_type));
            if (f->has_range && !f->range_games) out_printf(o, "(%lld, %lld)", (long long)f->range_lo, (long long)f->range_hi);
            else out_puts(o, "None");
            out_puts(o, ", ");
            if (f->etype && !f->enum_games && !f->etype->external) py_class_name(o, f->etype->name);
            else out_puts(o, "None");
            out_puts(o, ", ");
            if (f->type_name) out_printf(o, "'%s'", f->type_name);
            else out_puts(o, "None");
            out_puts(o, ", ");
            py_string(o, f->doc);
            out_puts(o, "),\n");
        }
        out_puts(o, "}\n");
    }
}

/* Text inside the module's """docstring""": quotes as apostrophes,
 * backslashes doubled ("data\\*.bif" is no escape sequence). */
static void py_doc_text(gen_out *o, const char *s)
{
    for (const char *p = s; *p; p++) {
        if (*p == '"') out_puts(o, "'");
        else if (*p == '\\') out_puts(o, "\\\\");
        else out_printf(o, "%c", *p);
    }
}

void emit_python(gen_schema *s, gen_out *o)
{
    const gen_format *fm = &s->format;
    out_printf(o, "# Generated by relic-gen from %s. Do not edit: run `make regen`.\n", s->file);
    out_puts(o, "\"\"\"");
    py_doc_text(o, fm->doc ? fm->doc : fm->name);
    out_puts(o, "\n\nSource: ");
    py_doc_text(o, fm->source ? fm->source : "");
    out_puts(o, ".\n\"\"\"\nimport enum\n\nimport numpy as np\n\nfrom relic._layout import Field, Format, If, Struct, Switch\n");
    out_printf(o, "\nNAME = '%s'\nEXTENSIONS = (", fm->name);
    for (int i = 0; i < fm->nextensions; i++) out_printf(o, "'%s', ", fm->extensions[i]);
    out_puts(o, ")\n");
    for (int i = 0; i < s->nenums; i++)
        if (!s->enums[i]->external) emit_enum(o, s->enums[i]);
    if (fm->is_gff) {
        emit_gff_fields(o, s);
        return;
    } /* the tree API (relic.gff) reads the file */

    gen_struct *order[512];
    int n = em_struct_order(s, order);
    out_puts(o, "\n\n# structured dtypes of the fixed-size structs (offsets and byte order as in the file)\n");
    for (int i = 0; i < n; i++)
        if (!order[i]->external && py_has_dtype(order[i])) emit_dtype(o, order[i]);
    out_puts(o, "\nSTRUCTS = {}\n");
    for (int i = 0; i < n; i++) {
        const gen_struct *st = order[i];
        if (st->external) continue;
        const gen_field *prim = NULL;
        int k = py_homogeneous(st, &prim);
        out_printf(o, "STRUCTS['%s'] = Struct('%s', size=%s", st->name, st->name, "");
        if (st->fixed_size >= 0) out_printf(o, "%lld", (long long)st->fixed_size);
        else out_puts(o, "None");
        out_puts(o, ", dtype=");
        if (py_has_dtype(st)) py_dtype_name(o, st->name);
        else out_puts(o, "None");
        if (k && py_has_dtype(st)) out_printf(o, ", homogeneous=('%s', %d)", py_dtype_code(prim), k);
        if (st->tuple) out_puts(o, ", tuple=True");
        out_puts(o, ", doc=");
        py_string(o, st->doc);
        out_puts(o, ", members=[\n");
        emit_members(o, st->members, st->nmembers, 4);
        out_puts(o, "])\n");
    }
    out_printf(o, "\nFORMAT = Format(NAME, EXTENSIONS, root='%s', structs=STRUCTS, doc=", fm->root_name);
    py_string(o, fm->doc);
    out_puts(o, ")\n");
}

void emit_python_index(gen_schema **ss, int n, gen_out *o)
{
    out_puts(o, "# Generated by relic-gen from schema/. Do not edit: run `make regen`.\n"
                "\"\"\"The generated modules, one per schema: format name -> module name.\"\"\"\n\nMODULES = {\n");
    for (int i = 0; i < n; i++)
        out_printf(o, "    '%s': '%s_%s',\n", ss[i]->format.name, ss[i]->family, ss[i]->format.name);
    out_puts(o, "}\n");
}

/* ---------------------------------------------------------------- names, for --report */

static void py_field_form(gen_out *o, const gen_field *f)
{
    if (f->prim == P_NONE) out_printf(o, "struct %s", f->type_name);
    else if (f->prim == P_CHAR) out_printf(o, "'S%d'", f->dims[f->ndims - 1]);
    else out_printf(o, "'%s'", py_dtype_code(f));
    if ((f->prim == P_CHAR ? f->ndims - 1 : f->ndims) > 0) {
        out_puts(o, " ");
        py_dims(o, f);
    }
}

static void py_name(py_name_fn name, void *ctx, gen_out *n, gen_out *w)
{
    name(ctx, n->data ? n->data : "", w->data ? w->data : "");
    free(n->data);
    free(w->data);
    *n = (gen_out){0};
    *w = (gen_out){0};
}

void emit_python_names(gen_schema *s, py_name_fn name, void *ctx)
{
    gen_out n = {0}, w = {0};
    out_puts(&n, "EXTENSIONS");
    out_puts(&w, "(");
    for (int i = 0; i < s->format.nextensions; i++) out_printf(&w, "'%s', ", s->format.extensions[i]);
    out_puts(&w, ")");
    py_name(name, ctx, &n, &w);
    for (int i = 0; i < s->nenums; i++) {
        const gen_enum *e = s->enums[i];
        if (e->external) continue;
        out_puts(&n, "class ");
        py_class_name(&n, e->name);
        out_puts(&w, e->is_flags ? "IntFlag" : "IntEnum");
        py_name(name, ctx, &n, &w);
        for (int k = 0; k < e->nitems; k++) {
            py_class_name(&n, e->name);
            out_printf(&n, ".%s", em_upper(e->items[k].name));
            out_printf(&w, "= %lld", (long long)e->items[k].value);
            py_name(name, ctx, &n, &w);
        }
    }
    if (s->format.is_gff) {
        if (s->format.gff_type) {
            out_puts(&n, "GFF_TYPE");
            out_printf(&w, "'%s'", s->format.gff_type);
            py_name(name, ctx, &n, &w);
            out_puts(&n, "ROOT");
            out_printf(&w, "'%s'", s->format.root_name);
            py_name(name, ctx, &n, &w);
        }
        for (int i = 0; i < s->nstructs; i++) {
            const gen_struct *st = s->structs[i];
            if (st->external) continue;
            out_printf(&n, "FIELDS['%s']", st->name);
            py_name(name, ctx, &n, &w);
            gen_field *fs[512];
            int nf = em_fields(st, fs, 512);
            for (int k = 0; k < nf; k++) {
                const gen_field *f = fs[k];
                if (!f->label) continue;
                out_printf(&n, "FIELDS['%s']['%s']", st->name, f->label);
                out_printf(&w, "%s", gen_gff_type_name(f->gff_type));
                if (f->has_range && !f->range_games) out_printf(&w, " in %lld..%lld", (long long)f->range_lo, (long long)f->range_hi);
                if (f->etype && !f->enum_games && !f->etype->external) {
                    out_puts(&w, " ");
                    py_class_name(&w, f->etype->name);
                }
                if (f->type_name) out_printf(&w, " of %s", f->type_name);
                py_name(name, ctx, &n, &w);
            }
        }
        return;
    }
    gen_struct *order[512];
    int ns = em_struct_order(s, order);
    for (int i = 0; i < ns; i++) {
        const gen_struct *st = order[i];
        if (st->external) continue;
        const gen_field *prim = NULL;
        int k = py_homogeneous(st, &prim);
        int dt = py_has_dtype(st);
        out_printf(&n, "STRUCTS['%s']", st->name);
        if (st->fixed_size >= 0) out_printf(&w, "size %lld", (long long)st->fixed_size);
        else out_puts(&w, "variable size");
        if (k && dt) out_printf(&w, ", arrays of it are (N, %d) '%s'", k, py_dtype_code(prim));
        py_name(name, ctx, &n, &w);
        if (dt) {
            out_printf(&n, "%s_dtype", st->name);
            out_printf(&w, "itemsize %lld", (long long)st->fixed_size);
            py_name(name, ctx, &n, &w);
            for (int m = 0; m < st->nmembers; m++) {
                if (st->members[m].kind != M_FIELD) continue;
                const gen_field *f = st->members[m].field;
                out_printf(&n, "%s_dtype['%s']", st->name, f->name);
                py_field_form(&w, f);
                out_printf(&w, " at offset %lld", (long long)f->fixed_offset);
                py_name(name, ctx, &n, &w);
            }
        }
        gen_field *fs[512];
        int nf = em_fields(st, fs, 512);
        for (int m = 0; m < nf; m++) {
            const gen_field *f = fs[m];
            out_printf(&n, "%s.%s", st->name, f->name);
            py_field_form(&w, f);
            if (f->count) out_puts(&w, ", counted");
            if (f->count_rest) out_puts(&w, ", to the end");
            if (f->etype) {
                out_puts(&w, ", ");
                py_class_name(&w, f->etype->name);
            }
            if (f->codec && f->codec_as) out_printf(&w, ", %s-decoded %s", f->codec, f->codec_as);
            py_name(name, ctx, &n, &w);
            if (f->codec && !strcmp(f->codec, "zlib")) { /* _layout.py keeps the encoded bytes beside it */
                out_printf(&n, "%s.%s_bytes", st->name, f->name);
                py_field_form(&w, f);
                py_name(name, ctx, &n, &w);
            }
        }
    }
}
