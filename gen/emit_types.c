/* emit_types.c — the generated header generated/<family>/<format>.h: enums
 * with name tables, size and offset constants, model structs (plain C in an
 * arena), zero-copy view types with static inline accessors, the root view
 * filled by the validator, and the declarations of the validator, decoder,
 * writer and JSON functions emitted by emit_reader.c, emit_writer.c and
 * emit_json.c. */
#include <stdlib.h>
#include <string.h>

#include "emit.h"

void em_doc_comment(gen_out *o, const char *indent, const char *doc, const char *source)
{
    if (!doc && !source) return;
    out_printf(o, "%s/** ", indent);
    if (doc) {
        for (const char *c = doc; *c; c++) {
            if (*c == '*' && c[1] == '/') out_puts(o, "* /");
            else if (*c == '\n') out_printf(o, "\n%s *  ", indent);
            else out_printf(o, "%c", *c);
        }
    }
    if (source) out_printf(o, "%sSource: %s.", doc ? " " : "", source);
    out_puts(o, " */\n");
}

/* A doc comment (doc, then "Source: source.") after a declaration, on its line. */
static void doc_trailing(gen_out *o, const char *doc, const char *source)
{
    if (!doc && !source) return;
    out_puts(o, " /**< ");
    if (doc)
        for (const char *c = doc; *c; c++) {
            if (*c == '*' && c[1] == '/') out_puts(o, "* /");
            else if (*c == '\n') out_puts(o, " ");
            else out_printf(o, "%c", *c);
        }
    if (source) out_printf(o, "%sSource: %s.", doc ? " " : "", source);
    out_puts(o, " */");
}

static void field_constraints(gen_out *o, const gen_field *f)
{
    if (f->is_derived) {
        out_puts(o, " [derived: ");
        em_expr_text(o, f->init);
        out_puts(o, ", filled by the writer]");
    }
    if (f->const_str) {
        out_puts(o, " [constant ");
        em_cstring(o, f->const_str, f->const_len);
        out_puts(o, "]");
    }
    if (f->init && f->init->kind == EX_INT) out_printf(o, " [constant %lld]", (long long)f->init->ival);
    if (f->has_range) out_printf(o, " [range %lld..%lld]", (long long)f->range_lo, (long long)f->range_hi);
    if (f->check) {
        out_puts(o, " [check ");
        em_expr_text(o, f->check);
        out_puts(o, "]");
    }
    if (f->etype) out_printf(o, " [%s %s]", f->etype->is_flags ? "flags" : "enum", f->etype->name);
    if (f->count) {
        out_puts(o, " [count ");
        em_expr_text(o, f->count);
        out_puts(o, "]");
    }
    if (f->at) {
        out_puts(o, " [at ");
        em_expr_text(o, f->at);
        out_puts(o, "]");
    }
}

static void emit_field_decl(gen_schema *s, gen_out *o, const gen_field *f)
{
    gen_out d = {0};
    if (f->doc) out_puts(&d, f->doc);
    field_constraints(&d, f);
    const char *ct = f->prim == P_CHAR ? "char" : em_elem_ctype(s, f);
    if (f->count || f->count_rest) {
        if (f->ndims) {
            out_printf(o, "    %s (*%s)", ct, f->name);
            for (int i = 0; i < f->ndims; i++) out_printf(o, "[%d]", f->dims[i]);
            out_puts(o, ";");
        } else {
            out_printf(o, "    %s *%s;", ct, f->name);
        }
        doc_trailing(o, d.size ? d.data : NULL, f->source);
        out_printf(o, "\n    size_t %s_count; /**< number of elements in %s */\n", f->name, f->name);
    } else {
        out_printf(o, "    %s %s", ct, f->name);
        for (int i = 0; i < f->ndims; i++) out_printf(o, "[%d]", f->dims[i]);
        out_puts(o, ";");
        doc_trailing(o, d.size ? d.data : NULL, f->source);
        out_puts(o, "\n");
    }
    free(d.data);
}

void em_enum_decl(gen_schema *s, gen_out *o, const gen_enum *e)
{
    const char *P = em_prefix(s);
    char up[256];
    snprintf(up, sizeof up, "%s_%s", em_upper(P), em_upper(e->name));
    em_doc_comment(o, "", e->doc, e->source);
    out_printf(o, "enum %s_%s {\n", P, e->name);
    for (int i = 0; i < e->nitems; i++) {
        out_printf(o, "    %s_%s = %lld%s,", up, em_upper(e->items[i].name), (long long)e->items[i].value,
                   e->items[i].value > 0x7FFFFFFF ? "u" : "");
        doc_trailing(o, e->items[i].doc, NULL);
        out_puts(o, "\n");
    }
    out_puts(o, "};\n");
    out_printf(o, "/** The name of a%s value as the schema spells it (NULL when it has none); the value of a name into *value (0 when unknown, else 1). */\n",
               e->is_flags ? " single flag" : "");
    out_printf(o, "const char *%s_%s_name(int64_t value);\n", P, e->name);
    out_printf(o, "int %s_%s_from_name(const char *name, int64_t *value);\n", P, e->name);
    if (!e->is_flags) {
        /* inline, so a validator's enum check costs a compare, not a call */
        int64_t lo = e->nitems ? e->items[0].value : 0, hi = lo;
        for (int i = 1; i < e->nitems; i++) {
            if (e->items[i].value < lo) lo = e->items[i].value;
            if (e->items[i].value > hi) hi = e->items[i].value;
        }
        out_printf(o, "/** 1 when value is listed in %s. */\n", e->name);
        if (e->nitems && (uint64_t)(hi - lo) == (uint64_t)(e->nitems - 1))
            out_printf(o, "static inline int %s_%s_known(int64_t value) { return value >= INT64_C(%lld) && value <= INT64_C(%lld); }\n",
                       P, e->name, (long long)lo, (long long)hi);
        else {
            out_printf(o, "static inline int %s_%s_known(int64_t value)\n{\n", P, e->name);
            out_puts(o, "    switch (value) {\n");
            int nv = e->nitems;
            int64_t *vals = malloc(sizeof *vals * (size_t)(nv ? nv : 1));
            if (!vals) abort();
            for (int i = 0; i < nv; i++) vals[i] = e->items[i].value;
            em_case_labels(o, vals, nv, nv ? "\n        return 1;\n" : "");
            free(vals);
            out_puts(o, "    default:\n        return 0;\n    }\n}\n");
        }
    }
    if (e->is_flags) {
        int64_t mask = 0;
        for (int i = 0; i < e->nitems; i++) mask |= e->items[i].value;
        out_printf(o, "#define %s_MASK 0x%llXu\n", up, (unsigned long long)mask);
    }
    out_puts(o, "\n");
}

/* Accessors of a fixed-size struct view: one per field at a fixed offset. */
static void emit_view(gen_schema *s, gen_out *o, const gen_struct *st)
{
    const char *P = em_prefix(s);
    out_printf(o, "typedef struct %s_%s_view { const uint8_t *p; } %s_%s_view; /**< a validated %s (%lld bytes in the file), zero-copy */\n",
               P, st->name, P, st->name, st->name, (long long)st->fixed_size);
    /* the fields' byte positions in the file, several to a line */
    int col = 0;
    for (int i = 0; i < st->nmembers; i++) {
        const gen_member *m = &st->members[i];
        if (m->kind != M_FIELD || m->field->fixed_offset < 0) continue;
        char c[256];
        int len = snprintf(c, sizeof c, "%s_%s_%s_POS = %lld,", em_upper(P), em_upper(st->name), em_upper(m->field->name),
                           (long long)m->field->fixed_offset);
        if (!col) {
            out_puts(o, "enum {");
            col = 6;
        } else if (col + 1 + len > 110) {
            out_puts(o, "\n      ");
            col = 6;
        }
        out_printf(o, " %s", c);
        col += 1 + len;
    }
    if (col) out_printf(o, " }; /**< byte positions of the fields of %s */\n", st->name);
    for (int i = 0; i < st->nmembers; i++) {
        const gen_member *m = &st->members[i];
        if (m->kind != M_FIELD) continue;
        const gen_field *f = m->field;
        if (f->fixed_offset < 0) continue;
        if (f->init && f->init->kind == EX_INT)
            out_printf(o, "#define %s_%s_%s_VALUE %lld%s\n", em_upper(P), em_upper(st->name), em_upper(f->name),
                       (long long)f->init->ival, f->init->ival > 0x7FFFFFFF ? "ll" : "");
        if (f->const_str) {
            out_printf(o, "#define %s_%s_%s_VALUE ", em_upper(P), em_upper(st->name), em_upper(f->name));
            em_cstring(o, f->const_str, f->const_len);
            out_printf(o, "\n#define %s_%s_%s_LEN %d\n", em_upper(P), em_upper(st->name), em_upper(f->name), f->const_len);
        }
        if (f->prim == P_CHAR || f->prim == P_BYTES) {
            out_printf(o, "/** %s: %lld bytes, not NUL-terminated. */\n", f->name, (long long)em_fixed_elems(f));
            out_printf(o, "static inline const %s *%s_%s_%s(%s_%s_view v) { return (const %s *)(v.p + %lld); }\n",
                       f->prim == P_CHAR ? "char" : "uint8_t", P, st->name, f->name, P, st->name,
                       f->prim == P_CHAR ? "char" : "uint8_t", (long long)f->fixed_offset);
            continue;
        }
        int64_t es = em_elem_size(f);
        const char *idx = f->ndims ? ", size_t i" : "";
        char pos[96];
        if (f->ndims) snprintf(pos, sizeof pos, "v.p + %lld + %lld * i", (long long)f->fixed_offset, (long long)es);
        else snprintf(pos, sizeof pos, "v.p + %lld", (long long)f->fixed_offset);
        if (f->stype) {
            out_printf(o, "static inline %s_%s_view %s_%s_%s(%s_%s_view v%s) { %s_%s_view r = { %s }; return r; }\n",
                       P, f->stype->name, P, st->name, f->name, P, st->name, idx, P, f->stype->name, pos);
        } else if (gen_prim_is_signed(f->prim) && !gen_prim_is_float(f->prim)) {
            out_printf(o, "static inline %s %s_%s_%s(%s_%s_view v%s) { return (%s)%s(%s); }\n",
                       gen_prim_ctype(f->prim), P, st->name, f->name, P, st->name, idx, gen_prim_ctype(f->prim), em_load_fn(f), pos);
        } else {
            out_printf(o, "static inline %s %s_%s_%s(%s_%s_view v%s) { return %s(%s); }\n",
                       gen_prim_ctype(f->prim), P, st->name, f->name, P, st->name, idx, em_load_fn(f), pos);
        }
    }
    out_puts(o, "\n");
}

static void emit_root_view(gen_schema *s, gen_out *o)
{
    const char *P = em_prefix(s);
    gen_struct *root = s->format.root;
    gen_field *fs[512];
    int n = em_fields(root, fs, 512);
    out_printf(o, "/** A validated %s file: the bytes, and where each top-level member lies.\n"
                  " *  Only %s_validate() fills one; its accessors then need no checks. */\n",
               s->format.name, P);
    out_printf(o, "typedef struct %s_view {\n    const uint8_t *base; /**< the whole input */\n    size_t size;         /**< its length in bytes */\n", P);
    out_printf(o, "    %s_%s values;  /**< the root's scalar fields, decoded (arrays not filled) */\n", P, root->name);
    for (int i = 0; i < n; i++) {
        gen_field *f = fs[i];
        if (em_is_scalar(f) && !f->stype) continue;
        out_printf(o, "    const uint8_t *%s; /**< start of %s in base, NULL when absent */\n", f->name, f->name);
        if (!em_is_scalar(f)) out_printf(o, "    size_t %s_count; /**< elements of %s */\n", f->name, f->name);
    }
    out_printf(o, "} %s_view;\n\n", P);
    for (int i = 0; i < n; i++) {
        gen_field *f = fs[i];
        if (em_is_scalar(f) && !f->stype) continue;
        if (f->prim == P_CHAR || f->prim == P_BYTES) continue;
        int64_t es = em_elem_size(f);
        if (es < 0) continue; /* variable-size elements: use the decoder */
        int64_t per = em_fixed_elems(f);
        if (em_is_scalar(f)) {
            out_printf(o, "static inline %s_%s_view %s_view_%s(const %s_view *v) { %s_%s_view r = { v->%s }; return r; }\n",
                       P, f->stype->name, P, f->name, P, P, f->stype->name, f->name);
            continue;
        }
        if (per != 1 && !f->count && !f->count_rest) continue;
        if (f->stype) {
            out_printf(o, "static inline %s_%s_view %s_%s_at(const %s_view *v, size_t i) { %s_%s_view r = { v->%s + %lld * i }; return r; } /**< element i (< %s_count) */\n",
                       P, f->stype->name, P, f->name, P, P, f->stype->name, f->name, (long long)(es * per), f->name);
        } else if (per == 1) {
            if (gen_prim_is_signed(f->prim) && !gen_prim_is_float(f->prim))
                out_printf(o, "static inline %s %s_%s_at(const %s_view *v, size_t i) { return (%s)%s(v->%s + %lld * i); } /**< element i (< %s_count) */\n",
                           gen_prim_ctype(f->prim), P, f->name, P, gen_prim_ctype(f->prim), em_load_fn(f), f->name, (long long)es, f->name);
            else
                out_printf(o, "static inline %s %s_%s_at(const %s_view *v, size_t i) { return %s(v->%s + %lld * i); } /**< element i (< %s_count) */\n",
                           gen_prim_ctype(f->prim), P, f->name, P, em_load_fn(f), f->name, (long long)es, f->name);
        }
    }
    out_puts(o, "\n");
}

void emit_header(gen_schema *s, gen_out *o)
{
    const char *P = em_prefix(s);
    char UP[128];
    snprintf(UP, sizeof UP, "%s", em_upper(P));
    char guard[160];
    snprintf(guard, sizeof guard, "%s_GENERATED_H", UP);
    gen_struct *order[4096];
    int n = em_struct_order(s, order);

    out_printf(o, "/* Generated by relic-gen from %s. Do not edit: change the schema and run `make regen`. */\n", s->file);
    em_doc_comment(o, "", s->format.doc, s->format.source);
    out_printf(o, "#ifndef %s\n#define %s\n\n#include \"relic.h\"\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n", guard, guard);
    out_printf(o, "#define %s_FORMAT_NAME \"%s\"\n", UP, s->format.name);
    out_printf(o, "/** File extensions of this format, NULL-terminated. */\nextern const char *const %s_extensions[];\n\n", P);
    emit_detect_decl(s, o);

    for (int i = 0; i < s->nenums; i++) em_enum_decl(s, o, s->enums[i]);

    /* A struct is typedef'd where it is defined, unless a struct defined
     * earlier (or itself) points to it, or it is not defined here. */
    char fwd[4096] = {0};
    for (int i = 0; i < s->nstructs && i < 4096; i++) {
        int at = -1;
        for (int k = 0; k < n; k++)
            if (order[k] == s->structs[i]) at = k;
        if (at < 0) fwd[i] = 1;
        for (int k = 0; k <= at && !fwd[i]; k++) {
            gen_field *fs[512];
            int nf = em_fields(order[k], fs, 512);
            for (int j = 0; j < nf; j++)
                if (fs[j]->stype == s->structs[i]) {
                    fwd[i] = k < at || k == at;
                    break;
                }
        }
    }
    int any = 0;
    for (int i = 0; i < s->nstructs && i < 4096; i++)
        if (fwd[i]) {
            out_printf(o, "typedef struct %s_%s %s_%s;\n", P, s->structs[i]->name, P, s->structs[i]->name);
            any = 1;
        }
    if (any) out_puts(o, "\n");
    for (int i = 0; i < n; i++) {
        gen_struct *st = order[i];
        int typedefd = 0;
        for (int k = 0; k < s->nstructs && k < 4096; k++)
            if (s->structs[k] == st) typedefd = fwd[k];
        if (st->fixed_size >= 0) out_printf(o, "#define %s_%s_SIZE %lld\n", UP, em_upper(st->name), (long long)st->fixed_size);
        gen_out d = {0};
        if (st->doc) out_puts(&d, st->doc);
        out_printf(&d, " Model form: plain C values%s.", st->fixed_size >= 0 ? "" : "; its size in the file varies");
        em_doc_comment(o, "", d.data, st->source);
        free(d.data);
        out_printf(o, "%sstruct %s_%s {\n", typedefd ? "" : "typedef ", P, st->name);
        gen_field *fs[512];
        int nf = em_fields(st, fs, 512);
        for (int k = 0; k < nf; k++) emit_field_decl(s, o, fs[k]);
        if (nf == 0) out_puts(o, "    char unused_;\n");
        if (typedefd) out_puts(o, "};\n\n");
        else out_printf(o, "} %s_%s;\n\n", P, st->name);
    }
    for (int i = 0; i < n; i++)
        if (order[i]->fixed_size >= 0) emit_view(s, o, order[i]);
    emit_root_view(s, o);

    const char *R = s->format.root->name;
    out_printf(o,
               "/** Validate size bytes at data as a whole %s file. On success *out describes it and\n"
               " *  every accessor may be used without further checks. Checks every count, offset and\n"
               " *  nested length against the buffer (overflow-safe), constants, enums, ranges and\n"
               " *  cross references. Errors: RELIC_E_TRUNCATED, RELIC_E_MAGIC, RELIC_E_RANGE,\n"
               " *  RELIC_E_INDEX, RELIC_E_LAYOUT, RELIC_E_LIMIT; err names the field path and byte offset. */\n"
               "relic_status %s_validate(const uint8_t *data, size_t size, %s_view *out, relic_error *err);\n\n",
               s->format.name, P, P);
    if (em_has_deferred(s->format.root)) {
        out_puts(o, "/** The two halves of validate: the layout (every check but the element checks of the arrays\n"
                    " *  the schema marks deferred: their bounds are checked, their elements not), then those element\n"
                    " *  checks, in schema order, with the errors validate gives. A hand-written validator that makes\n"
                    " *  the same checks as it reads each element calls the first, and the second to name an error. */\n");
        out_printf(o, "relic_status %s_validate_layout(const uint8_t *data, size_t size, %s_view *out, relic_error *err);\n", P, P);
        out_printf(o, "relic_status %s_validate_elements(const %s_view *v, relic_error *err);\n\n", P, P);
    }
    out_printf(o,
               "/** Copy a validated file into the model form, arrays allocated from a.\n"
               " *  Errors: RELIC_E_NOMEM when the arena runs out. */\n"
               "relic_status %s_decode(const %s_view *v, relic_arena *a, %s_%s *out, relic_error *err);\n\n",
               P, P, P, R);
    out_printf(o,
               "/** Serialise a model, appending to out. Derived fields (counts, offsets, sizes) are\n"
               " *  recomputed from the arrays; the model is not modified. Members placed with 'at' follow\n"
               " *  the sequential part contiguously, in schema order. Errors: RELIC_E_ARGUMENT when array\n"
               " *  lengths disagree with the counts the schema ties them to, RELIC_E_LIMIT when a value\n"
               " *  does not fit its field, RELIC_E_NOMEM when out cannot grow. */\n"
               "relic_status %s_write(const %s_%s *m, relic_buf *out, relic_error *err);\n\n",
               P, P, R);
    out_printf(o,
               "/** The entry points above, type-erased over the view and model (relic_gen.h,\n"
               " *  relic_gen_ops): name, extensions, detection, sizes, validate, decode, %swrite. */\n"
               "extern const struct relic_gen_ops %s_ops;\n\n",
               s->format.layout_hook ? "layout, " : "", P);
    out_printf(o,
               "/** Append the JSON form of a model to out (format key, members in schema order;\n"
               " *  derived fields are printed for reference and ignored when read back). */\n"
               "relic_status %s_json_print(const %s_%s *m, relic_buf *out, relic_error *err);\n\n",
               P, P, R);
    if (em_json_view_printable(s->format.root))
        out_printf(o,
                   "/** %s_json_print's text, printed from the validated view v with nothing decoded or\n"
                   " *  allocated (zero-copy). Errors: RELIC_E_NOMEM when out cannot grow. */\n"
                   "relic_status %s_json_print_view(const %s_view *v, relic_buf *out, relic_error *err);\n\n",
                   P, P, P);
    if (em_json_view_open(s))
        out_printf(o,
                   "/** %s_json_print_view's text without its closing \"}\\n\", for hand-written code that\n"
                   " *  adds members and closes the object. Errors: as %s_json_print_view. */\n"
                   "relic_status %s_json_print_view_open(const %s_view *v, relic_buf *out, relic_error *err);\n\n",
                   P, P, P, P);
    out_printf(o,
               "/** Parse the JSON form (as %s_json_print writes it) into a model in arena a.\n"
               " *  Errors: RELIC_E_SYNTAX with the byte offset for malformed JSON, RELIC_E_RANGE for values\n"
               " *  that do not fit their field or unknown enum names, RELIC_E_ARGUMENT for missing members. */\n"
               "relic_status %s_json_read(const char *text, size_t len, relic_arena *a, %s_%s *out, relic_error *err);\n\n",
               P, P, P, R);
    out_printf(o,
               "struct relic_jv;\n"
               "/** %s_json_read of a JSON value already parsed (relic_json.h, relic_jr_parse), such as\n"
               " *  this format's value inside another format's document: the same checks and errors, with\n"
               " *  no text printed or parsed again. */\n"
               "relic_status %s_json_read_value(const struct relic_jv *doc, relic_arena *a, %s_%s *out, relic_error *err);\n\n",
               P, P, P, R);
    emit_mutate_header(s, o);
    if (s->format.detect)
        out_printf(o, "/** The format's descriptor for the relic command and the ABI (librelic-json,\n"
                      " *  relic_schema_ops.h): %s_ops and the JSON printer and reader, type-erased. */\n"
                      "extern const struct relic_schema_ops %s_schema_ops;\n\n",
                   P, P);
    for (int i = 0; i < s->nstructs; i++) {
        gen_field *fs[512];
        int nf = em_fields(s->structs[i], fs, 512);
        for (int k = 0; k < nf; k++)
            if (fs[k]->codec) {
                gen_out t = {0};
                em_expr_text(&t, fs[k]->codec_size);
                out_printf(o, "/** Decode %s.%s (%s codec, %s decoded bytes) and parse it as a %s in arena a.\n"
                              " *  The file keeps the encoded bytes (m->%s), so the writer reproduces them exactly.\n"
                              " *  Errors: RELIC_E_LIMIT (declared size over RELIC_CODEC_MAX_DECODED), codec errors,\n"
                              " *  and the %s validator's errors with the path prefixed by %s. */\n"
                              "relic_status %s_%s_%s_decode(const %s_%s *m, relic_arena *a, %s_%s *out, relic_error *err);\n",
                           s->structs[i]->name, fs[k]->name, fs[k]->codec, t.data, fs[k]->codec_stype->name, fs[k]->name,
                           fs[k]->codec_stype->name, fs[k]->name, P, s->structs[i]->name, fs[k]->name, P, s->structs[i]->name, P, fs[k]->codec_stype->name);
                out_printf(o, "/** Validate and parse size already-decoded bytes of %s.%s (buf, kept by the caller) as a %s\n"
                              " *  in arena a: the second half of %s_%s_%s_decode, for a caller that decoded the bytes\n"
                              " *  itself (once). Errors: the %s validator's errors with the path prefixed by %s,\n"
                              " *  RELIC_E_LAYOUT when bytes follow it, RELIC_E_NOMEM. */\n"
                              "relic_status %s_%s_%s_decode_bytes(const uint8_t *buf, size_t size, relic_arena *a, %s_%s *out, relic_error *err);\n",
                           s->structs[i]->name, fs[k]->name, fs[k]->codec_stype->name, P, s->structs[i]->name, fs[k]->name,
                           fs[k]->codec_stype->name, fs[k]->name, P, s->structs[i]->name, fs[k]->name, P, fs[k]->codec_stype->name);
                free(t.data);
            }
    }
    for (int i = 0; i < s->nstructs; i++) {
        gen_field *fs[512];
        int nf = em_fields(s->structs[i], fs, 512);
        for (int k = 0; k < nf; k++)
            if (fs[k]->hook)
                out_printf(o, "/** Hand-written check of %s.%s (runtime/), called by the validator. */\n"
                              "relic_status relic_hook_%s(const uint8_t *p, size_t n, relic_error *err);\n",
                           s->structs[i]->name, fs[k]->name, fs[k]->hook);
    }
    out_printf(o, "\n#ifdef __cplusplus\n}\n#endif\n#endif /* %s */\n", guard);
}
