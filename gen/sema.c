/* sema.c — semantic checks of a parsed schema: names resolve, types fit,
 * documented sizes match the fields, expressions refer to fields that exist
 * and can be evaluated, derived fields name real members. Also computes
 * every struct's fixed size and every field's fixed offset for the emitters.
 * Each problem is reported as `file:line:col: message`. */
#include <string.h>

#include "ast.h"

typedef struct scope {
    gen_schema *s;
    gen_struct *st;   /* struct being checked */
    gen_field *field; /* field whose check/at/count is being checked */
    int allow_it;
    int pos; /* fields before the member being checked (use-before-read check) */
} scope;

/* Words that cannot name a field: C keywords (fields become C struct members). */
/* clang-format off */
static const char *c_keywords[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
    "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
    "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
    "volatile", "while", "_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic",
    "_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local", NULL
};
/* clang-format on */

/* Struct names that would clash with the generated API relic_<format>_<name>. */
static const char *reserved_struct_names[] = {
    "view", "vctx", "dctx", "wctx", "jr", "extensions", "validate", "decode", "write", "json_print",
    "json_read", NULL};

static int in_list(const char *const *list, const char *w)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], w) == 0) return 1;
    return 0;
}

/* Smallest order of a root field whose type holds st (directly or nested). */
static int holds_struct(const gen_struct *outer, const gen_struct *st, int depth);
static int holds_in(const gen_member *m, int n, const gen_struct *st, int depth)
{
    for (int i = 0; i < n; i++) {
        if (m[i].kind == M_FIELD) {
            const gen_struct *t = m[i].field->stype;
            if (t && (t == st || holds_struct(t, st, depth + 1))) return 1;
        } else if (m[i].kind == M_IF) {
            if (holds_in(m[i].then_m, m[i].nthen, st, depth) || holds_in(m[i].else_m, m[i].nelse, st, depth)) return 1;
        } else if (m[i].kind == M_SWITCH) {
            for (int c = 0; c < m[i].ncases; c++)
                if (holds_in(m[i].cases[c].members, m[i].cases[c].nmembers, st, depth)) return 1;
        }
    }
    return 0;
}
static int holds_struct(const gen_struct *outer, const gen_struct *st, int depth)
{
    if (depth > 64) return 0;
    return holds_in(outer->members, outer->nmembers, st, depth);
}

/* Codecs with a runtime implementation (runtime/include/relic/relic_codec.h). */
static const char *known_codecs[] = {"zlib", "lzss", NULL};

/* Visit every field of a member list, including those inside if/switch. */
typedef void (*field_fn)(gen_field *f, void *ctx);
static void each_field(gen_member *m, int n, field_fn fn, void *ctx)
{
    for (int i = 0; i < n; i++) {
        if (m[i].kind == M_FIELD) fn(m[i].field, ctx);
        else if (m[i].kind == M_IF) {
            each_field(m[i].then_m, m[i].nthen, fn, ctx);
            each_field(m[i].else_m, m[i].nelse, fn, ctx);
        } else if (m[i].kind == M_SWITCH) {
            for (int c = 0; c < m[i].ncases; c++) each_field(m[i].cases[c].members, m[i].cases[c].nmembers, fn, ctx);
        }
    }
}

static gen_field *find_field_in(gen_member *m, int n, const char *name)
{
    for (int i = 0; i < n; i++) {
        gen_field *f = NULL;
        if (m[i].kind == M_FIELD && strcmp(m[i].field->name, name) == 0) return m[i].field;
        if (m[i].kind == M_IF) {
            if ((f = find_field_in(m[i].then_m, m[i].nthen, name))) return f;
            if ((f = find_field_in(m[i].else_m, m[i].nelse, name))) return f;
        } else if (m[i].kind == M_SWITCH) {
            for (int c = 0; c < m[i].ncases; c++)
                if ((f = find_field_in(m[i].cases[c].members, m[i].cases[c].nmembers, name))) return f;
        }
    }
    return NULL;
}

gen_field *gen_find_field(gen_struct *st, const char *name) { return find_field_in(st->members, st->nmembers, name); }

static int is_int_prim(gen_prim p) { return p != P_NONE && p != P_CHAR && p != P_BYTES && !gen_prim_is_float(p); }
static int is_scalar(const gen_field *f) { return !f->count && !f->count_rest && f->ndims == 0; }
static int em_is_scalar_field(const gen_field *f) { return is_scalar(f); }

/* ---------------------------------------------------------------- expressions */

static void check_expr(scope *sc, gen_expr *e, int want_member);

static int has_root_ref(const gen_expr *e)
{
    if (!e) return 0;
    if ((e->kind == EX_NAME || e->kind == EX_CALL) && e->root_scope) return 1;
    return has_root_ref(e->a) || has_root_ref(e->b);
}

/* Resolve a dotted path: first in the current struct, then in the root. */
static gen_field *resolve_path(scope *sc, gen_expr *e, int want_member)
{
    gen_struct *root = sc->s->format.root;
    gen_field *f = gen_find_field(sc->st, e->path[0]);
    e->root_scope = 0;
    if (!f && root && root != sc->st) {
        f = gen_find_field(root, e->path[0]);
        e->root_scope = 1;
    }
    if (!f) {
        gen_error(e->loc, "unknown field '%s'%s", e->path[0],
                  root && root != sc->st ? " (looked in this struct and in the root struct)" : "");
        return NULL;
    }
    e->head = f;
    if (!e->root_scope && f->order >= sc->pos && f != sc->field) {
        gen_error(e->loc, "'%s' is used before it is read (it comes later in '%s')", f->name, sc->st->name);
        return NULL;
    }
    if (e->root_scope) {
        int first = 1 << 30;
        for (int i = 0; i < root->nmembers; i++) {
            gen_field *fs = NULL;
            if (root->members[i].kind == M_FIELD) fs = root->members[i].field;
            if (fs && fs->stype && (fs->stype == sc->st || holds_struct(fs->stype, sc->st, 0)) && fs->order < first) first = fs->order;
        }
        if (first != 1 << 30 && f->order >= first) {
            gen_error(e->loc, "root field '%s' is used before it is read (struct '%s' is read earlier in the root)", f->name, sc->st->name);
            return NULL;
        }
    }
    for (int i = 1; i < e->npath; i++) {
        if (!f->stype || !is_scalar(f)) {
            gen_error(e->loc, "'%s' is not a struct field, so '.%s' cannot follow it", f->name, e->path[i]);
            return NULL;
        }
        gen_field *g = gen_find_field(f->stype, e->path[i]);
        if (!g) {
            gen_error(e->loc, "struct '%s' has no field '%s'", f->stype->name, e->path[i]);
            return NULL;
        }
        f = g;
    }
    if (!want_member) {
        if (!is_int_prim(f->prim) || !is_scalar(f)) {
            gen_error(e->loc, "'%s' is not an integer scalar, so it cannot be used in an expression", f->name);
            return NULL;
        }
    }
    return f;
}

static void check_expr(scope *sc, gen_expr *e, int want_member)
{
    (void)want_member;
    switch (e->kind) {
    case EX_INT: break;
    case EX_IT:
        if (!sc->allow_it) gen_error(e->loc, "'it' is only allowed inside a field's check (...)");
        else if (sc->field && (!is_int_prim(sc->field->prim)))
            gen_error(e->loc, "'it' in the check of '%s' must be an integer", sc->field->name);
        break;
    case EX_NAME:
        e->ref = resolve_path(sc, e, 0);
        if (e->ref && e->root_scope && !sc->st->uses_root) {
            sc->st->uses_root = 1;
            sc->st->root_loc = e->loc;
        }
        break;
    case EX_CALL:
        gen_error(e->loc, "count(), offset() and size() may only give a derived field its value (\"u32 n = count(items);\")");
        break;
    case EX_UNARY: check_expr(sc, e->a, 0); break;
    case EX_BINARY:
        check_expr(sc, e->a, 0);
        check_expr(sc, e->b, 0);
        if ((e->op == OP_DIV || e->op == OP_MOD) && e->b->kind == EX_INT && e->b->ival == 0)
            gen_error(e->b->loc, "division by zero");
        break;
    }
}

/* ---------------------------------------------------------------- fields */

static void check_field(scope *sc, gen_field *f)
{
    gen_schema *s = sc->s;
    gen_struct *root = s->format.root;
    f->owner = sc->st;
    sc->pos = f->order;
    if (in_list(c_keywords, f->name)) gen_error(f->loc, "field name '%s' is a C keyword", f->name);
    {
        size_t l = strlen(f->name);
        if (l > 6 && strcmp(f->name + l - 6, "_count") == 0) {
            char base[256];
            snprintf(base, sizeof base, "%.*s", (int)(l - 6), f->name);
            gen_field *arr = gen_find_field(sc->st, base);
            if (arr && (arr->count || arr->count_rest))
                gen_error(f->loc, "field '%s' clashes with the element count the model keeps for array '%s'", f->name, base);
        }
    }
    if (f->endian == EN_DEFAULT) f->endian = s->format.endian ? s->format.endian : EN_LITTLE;

    if (f->prim == P_NONE) {
        f->stype = gen_find_struct(s, f->type_name);
        if (!f->stype) {
            if (gen_find_enum(s, f->type_name))
                gen_error(f->loc, "'%s' is an enum: write the integer type and ': %s' (e.g. \"u32 %s : %s;\")",
                          f->type_name, f->type_name, f->name, f->type_name);
            else
                gen_error(f->loc, "unknown type '%s'", f->type_name);
            return;
        }
        if (f->stype == sc->st) {
            gen_error(f->loc, "struct '%s' contains itself", sc->st->name);
            return;
        }
    }
    if ((f->prim == P_CHAR || f->prim == P_BYTES) && f->ndims == 0 && !f->count && !f->count_rest)
        gen_error(f->loc, "'%s' needs a length: %s[N] or %s %s[expr]", f->name, gen_prim_name(f->prim),
                  gen_prim_name(f->prim), f->name);
    if (f->ndims > 1 && (f->prim == P_CHAR || f->prim == P_BYTES))
        gen_error(f->loc, "'%s': char and bytes fields take one dimension", f->name);

    if (f->enum_name) {
        f->etype = gen_find_enum(s, f->enum_name);
        if (!f->etype) gen_error(f->loc, "unknown enum or flags '%s'", f->enum_name);
        else if (!is_int_prim(f->prim))
            gen_error(f->loc, "'%s' is typed by '%s' but is not an integer field", f->name, f->enum_name);
        else if (gen_prim_size(f->prim) != gen_prim_size(f->etype->base))
            gen_error(f->loc, "'%s' is %s but enum '%s' is %s", f->name, gen_prim_name(f->prim),
                      f->etype->name, gen_prim_name(f->etype->base));
    }

    if (f->const_str) {
        if (f->prim != P_CHAR) gen_error(f->loc, "a string constant needs a char[N] field, '%s' is not one", f->name);
        else if (f->count || f->count_rest || f->ndims != 1)
            gen_error(f->loc, "a string constant needs a fixed length: char[%d] %s", f->const_len, f->name);
        else if (f->ndims == 1 && f->const_len != f->dims[0])
            gen_error(f->loc, "constant \"%s\" has %d bytes but '%s' is char[%d]", f->const_str, f->const_len, f->name, f->dims[0]);
    }

    if (f->init) {
        if (f->init->kind == EX_CALL) {
            f->is_derived = 1;
            if (!is_int_prim(f->prim) || !is_scalar(f))
                gen_error(f->loc, "derived field '%s' must be an integer scalar", f->name);
            gen_expr *e = f->init;
            gen_field *t = gen_find_field(sc->st, e->path[0]);
            e->root_scope = 0;
            if (!t && root && root != sc->st) {
                t = gen_find_field(root, e->path[0]);
                e->root_scope = 1;
            }
            if (!t) {
                gen_error(e->loc, "%s() names unknown member '%s'", e->func == FN_COUNT ? "count" : e->func == FN_OFFSET ? "offset"
                                                                                                                         : "size",
                          e->path[0]);
                return;
            }
            if (e->npath > 1) {
                gen_error(e->loc, "derived fields name a member of this struct or of the root, not a path");
                return;
            }
            e->ref = t;
            if (e->func == FN_COUNT && !t->count && !t->count_rest)
                gen_error(e->loc, "count(%s): '%s' is not a variable-length array", t->name, t->name);
            if (e->func == FN_OFFSET && !t->at && e->root_scope == 0 && sc->st != root)
                gen_error(e->loc, "offset(%s): only members placed with 'at', or root members, have an offset", t->name);
            if (e->root_scope && sc->st != root) {
                /* the holder must be reachable from the root without arrays, so the writer can fill it */
                int ok = 0;
                for (int i = 0; root && i < root->nmembers; i++)
                    if (root->members[i].kind == M_FIELD && root->members[i].field->stype == sc->st && is_scalar(root->members[i].field)) ok = 1;
                if (!ok)
                    gen_error(f->loc, "derived field '%s' names root member '%s', so struct '%s' must be a plain (non-array) member of the root",
                              f->name, t->name, sc->st->name);
            }
        } else if (f->init->kind == EX_INT) {
            if (!is_int_prim(f->prim) || !is_scalar(f)) gen_error(f->loc, "integer constant on non-integer field '%s'", f->name);
        } else {
            gen_error(f->init->loc, "'= ...' takes a constant (integer or string) or count()/offset()/size()");
        }
    }

    if (f->has_range) {
        if (!is_int_prim(f->prim) && !gen_prim_is_float(f->prim))
            gen_error(f->loc, "range on '%s', which is not a number", f->name);
        if (f->range_lo > f->range_hi)
            gen_error(f->loc, "empty range %lld..%lld", (long long)f->range_lo, (long long)f->range_hi);
        if (is_int_prim(f->prim) && !gen_prim_is_signed(f->prim) && f->range_lo < 0)
            gen_error(f->loc, "range starts below 0 on unsigned field '%s'", f->name);
    }

    sc->field = f;
    if (f->count) check_expr(sc, f->count, 0);
    if (f->at) {
        if (sc->st != root) gen_error(f->at->loc, "'at' places members of the root struct only; '%s' is in '%s'", f->name, sc->st->name);
        check_expr(sc, f->at, 0);
    }
    if (f->check) {
        if (!is_int_prim(f->prim)) gen_error(f->check->loc, "check on '%s': only integer fields have checks", f->name);
        sc->allow_it = 1;
        check_expr(sc, f->check, 0);
        sc->allow_it = 0;
    }
    if (f->deferred && !(f->at && f->count && f->type_name && sc->st == sc->s->format.root))
        gen_error(f->loc, "deferred on '%s': only arrays of structs placed with 'at' in the root struct defer their element checks", f->name);
    if (f->codec || f->hook) {
        if (f->prim != P_BYTES) gen_error(f->loc, "%s on '%s': only bytes fields carry a %s", f->codec ? "codec" : "hook", f->name, f->codec ? "codec" : "hook");
    }
    if (f->codec) {
        int k = 0;
        while (known_codecs[k] && strcmp(known_codecs[k], f->codec) != 0) k++;
        if (!known_codecs[k]) gen_error(f->loc, "unknown codec '%s' (known: zlib, lzss)", f->codec);
        check_expr(sc, f->codec_size, 0);
        if (has_root_ref(f->codec_size))
            gen_error(f->codec_size->loc, "the decoded size of '%s' must be computed from fields of '%s'", f->name, sc->st->name);
        f->codec_stype = gen_find_struct(s, f->codec_as);
        if (!f->codec_stype) gen_error(f->loc, "codec target '%s' is not a struct", f->codec_as);
    }
    sc->field = NULL;
}

/* Names are unique within a struct, across if/switch bodies. */
typedef struct dup_ctx {
    gen_field *seen[512];
    int n;
} dup_ctx;
static void dup_visit(gen_field *f, void *vctx)
{
    dup_ctx *d = vctx;
    for (int i = 0; i < d->n; i++)
        if (strcmp(d->seen[i]->name, f->name) == 0) {
            gen_error(f->loc, "duplicate field '%s' (first at line %d)", f->name, d->seen[i]->loc.line);
            return;
        }
    if (d->n < 512) d->seen[d->n++] = f;
}

/* Order of the first field at or after member i (fields before it are read). */
static int first_field_order(const gen_member *m, int n)
{
    for (int i = 0; i < n; i++) {
        if (m[i].kind == M_FIELD) return m[i].field->order;
        if (m[i].kind == M_IF) {
            int o = first_field_order(m[i].then_m, m[i].nthen);
            if (o >= 0) return o;
            o = first_field_order(m[i].else_m, m[i].nelse);
            if (o >= 0) return o;
        }
        if (m[i].kind == M_SWITCH)
            for (int c = 0; c < m[i].ncases; c++) {
                int o = first_field_order(m[i].cases[c].members, m[i].cases[c].nmembers);
                if (o >= 0) return o;
            }
    }
    return -1;
}
static int next_order(const gen_member *m, int i, int n)
{
    int o = first_field_order(m + i, n - i);
    return o >= 0 ? o : 1 << 29;
}

typedef struct order_ctx {
    int next;
} order_ctx;
static void order_visit(gen_field *f, void *ctx) { f->order = ((order_ctx *)ctx)->next++; }

static void resolve_type_visit(gen_field *f, void *ctx)
{
    if (f->prim == P_NONE && f->type_name) f->stype = gen_find_struct((gen_schema *)ctx, f->type_name);
}

static void check_members(scope *sc, gen_member *m, int n)
{
    for (int i = 0; i < n; i++) {
        switch (m[i].kind) {
        case M_FIELD: check_field(sc, m[i].field); break;
        case M_CHECK:
            sc->pos = next_order(m, i, n);
            check_expr(sc, m[i].cond, 0);
            break;
        case M_IF:
            sc->pos = next_order(m, i, n);
            check_expr(sc, m[i].cond, 0);
            check_members(sc, m[i].then_m, m[i].nthen);
            check_members(sc, m[i].else_m, m[i].nelse);
            break;
        case M_SWITCH: {
            int ndefault = 0;
            sc->pos = next_order(m, i, n);
            check_expr(sc, m[i].cond, 0);
            for (int c = 0; c < m[i].ncases; c++) {
                gen_case *cs = &m[i].cases[c];
                if (cs->nvalues == 0 && ++ndefault > 1) gen_error(cs->loc, "switch has two default cases");
                for (int v = 0; v < cs->nvalues; v++)
                    for (int c2 = 0; c2 <= c; c2++)
                        for (int v2 = 0; v2 < m[i].cases[c2].nvalues; v2++)
                            if ((c2 < c || v2 < v) && m[i].cases[c2].values[v2] == cs->values[v])
                                gen_error(cs->loc, "duplicate case value %lld", (long long)cs->values[v]);
                check_members(sc, cs->members, cs->nmembers);
            }
            break;
        }
        }
    }
}

/* ---------------------------------------------------------------- layout */

static int64_t field_fixed_size(gen_field *f)
{
    if (f->count || f->count_rest) return -1;
    int64_t elem = f->stype ? f->stype->fixed_size : gen_prim_size(f->prim);
    if (elem < 0) return -1;
    for (int i = 0; i < f->ndims; i++) elem *= f->dims[i];
    return elem;
}

static int layout_state[4096];

/* Sequential size of a member list, -1 when it varies; assigns fixed offsets. */
static int64_t layout_members(gen_member *m, int n, int64_t start);

static void layout_struct(gen_schema *s, gen_struct *st, int idx);

static void layout_deps(gen_schema *s, gen_member *m, int n)
{
    for (int i = 0; i < n; i++) {
        if (m[i].kind == M_FIELD) {
            gen_field *f = m[i].field;
            gen_struct *t = f->stype;
            if (t) {
                for (int k = 0; k < s->nstructs; k++)
                    if (s->structs[k] == t) layout_struct(s, t, k);
            }
        } else if (m[i].kind == M_IF) {
            layout_deps(s, m[i].then_m, m[i].nthen);
            layout_deps(s, m[i].else_m, m[i].nelse);
        } else if (m[i].kind == M_SWITCH) {
            for (int c = 0; c < m[i].ncases; c++) layout_deps(s, m[i].cases[c].members, m[i].cases[c].nmembers);
        }
    }
}

static int64_t layout_members(gen_member *m, int n, int64_t start)
{
    int64_t off = start;
    for (int i = 0; i < n; i++) {
        if (m[i].kind == M_FIELD) {
            gen_field *f = m[i].field;
            if (f->at) {
                f->fixed_offset = -1;
                continue;
            }
            f->fixed_offset = off;
            int64_t sz = field_fixed_size(f);
            off = (off < 0 || sz < 0) ? -1 : off + sz;
        } else if (m[i].kind == M_IF) {
            layout_members(m[i].then_m, m[i].nthen, -1);
            layout_members(m[i].else_m, m[i].nelse, -1);
            off = -1;
        } else if (m[i].kind == M_SWITCH) {
            for (int c = 0; c < m[i].ncases; c++) layout_members(m[i].cases[c].members, m[i].cases[c].nmembers, -1);
            off = -1;
        }
    }
    return off < 0 ? -1 : off - (start < 0 ? 0 : start);
}

static void layout_struct(gen_schema *s, gen_struct *st, int idx)
{
    if (idx >= 4096 || layout_state[idx] == 2) return;
    if (layout_state[idx] == 1) {
        gen_error(st->loc, "struct '%s' contains itself through its fields", st->name);
        layout_state[idx] = 2;
        return;
    }
    layout_state[idx] = 1;
    layout_deps(s, st->members, st->nmembers);
    st->fixed_size = layout_members(st->members, st->nmembers, 0);
    layout_state[idx] = 2;
    if (st->doc_size >= 0) {
        if (st->fixed_size < 0)
            gen_error(st->loc, "struct '%s' is documented as %lld bytes but its size varies", st->name, (long long)st->doc_size);
        else if (st->fixed_size != st->doc_size)
            gen_error(st->loc, "struct '%s' is documented as %lld bytes but its fields add up to %lld",
                      st->name, (long long)st->doc_size, (long long)st->fixed_size);
    }
}

/* ---------------------------------------------------------------- reachability */

static void mark_used(gen_struct *st);
static void mark_visit(gen_field *f, void *ctx)
{
    (void)ctx;
    if (f->stype) mark_used(f->stype);
    if (f->codec_stype) mark_used(f->codec_stype);
}
static void mark_used(gen_struct *st)
{
    if (st->used) return;
    st->used = 1;
    each_field(st->members, st->nmembers, mark_visit, NULL);
}

/* Mark fields named by count/at/size expressions as used in the layout. */
static void mark_layout_expr(gen_expr *e)
{
    if (!e) return;
    if (e->kind == EX_NAME && e->ref) e->ref->used_in_layout = 1;
    mark_layout_expr(e->a);
    mark_layout_expr(e->b);
}
static void layout_visit(gen_field *f, void *ctx)
{
    (void)ctx;
    mark_layout_expr(f->count);
    mark_layout_expr(f->at);
    mark_layout_expr(f->codec_size);
}

/* A codec region is parsed on its own: nothing in it may name the root. */
static void region_check(const gen_struct *st, const gen_field *f, int depth);
static void region_visit(gen_field *g, void *ctx)
{
    const gen_field *f = ctx;
    if (g->stype) region_check(g->stype, f, 1);
}
static void region_check(const gen_struct *st, const gen_field *f, int depth)
{
    if (depth > 64) return;
    if (st->uses_root)
        gen_error(st->root_loc, "struct '%s' is decoded from codec region '%s', so it may only name its own fields, not the root's",
                  st->name, f->name);
    each_field(((gen_struct *)st)->members, st->nmembers, region_visit, (void *)f);
}
static void codec_region_visit(gen_field *f, void *ctx)
{
    gen_struct *root = ctx;
    if (!f->codec_stype) return;
    if (f->codec_stype == root) {
        gen_error(f->loc, "codec target '%s' is the root struct", f->codec_as);
        return;
    }
    region_check(f->codec_stype, f, 0);
}

/* Checks that need sizes: offset() targets the writer can place, no arrays of empty structs. */
static void post_layout_visit(gen_field *f, void *ctx)
{
    (void)ctx;
    if (f->is_derived && f->init->func == FN_OFFSET && f->init->ref) {
        const gen_field *t = f->init->ref;
        if (!t->at && (t->fixed_offset < 0 || !t->owner || !t->owner->is_root))
            gen_error(f->init->loc, "offset(%s): '%s' has no fixed offset; place it with 'at' or before any variable-size member of the root",
                      t->name, t->name);
    }
    if (f->stype && f->stype->fixed_size == 0 && !em_is_scalar_field(f))
        gen_error(f->loc, "struct '%s' takes no bytes, so '%s' cannot be an array of it", f->stype->name, f->name);
}

static void tuple_check(gen_struct *st)
{
    if (!st->tuple) return;
    for (int i = 0; i < st->nmembers; i++) {
        gen_member *m = &st->members[i];
        if (m->kind != M_FIELD || m->field->stype || m->field->count || m->field->count_rest ||
            m->field->prim == P_CHAR || m->field->prim == P_BYTES || m->field->is_derived || m->field->const_str) {
            gen_error(st->loc, "tuple struct '%s' may hold only plain number fields", st->name);
            return;
        }
    }
}

/* Duplicate struct and enum names; enum and flags items (names, values that
 * fit the type, single bits). Shared with the typed GFF checks. */
void gen_check_decls(gen_schema *s)
{
    for (int i = 0; i < s->nstructs; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(s->structs[i]->name, s->structs[j]->name) == 0)
                gen_error(s->structs[i]->loc, "duplicate struct '%s' (first at line %d)", s->structs[i]->name, s->structs[j]->loc.line);
    for (int i = 0; i < s->nenums; i++) {
        gen_enum *e = s->enums[i];
        for (int j = 0; j < i; j++)
            if (strcmp(e->name, s->enums[j]->name) == 0)
                gen_error(e->loc, "duplicate enum '%s' (first at line %d)", e->name, s->enums[j]->loc.line);
        if (gen_find_struct(s, e->name)) gen_error(e->loc, "'%s' names both a struct and an enum", e->name);
        for (int k = 0; k < e->nitems; k++) {
            for (int l = 0; l < k; l++) {
                if (strcmp(e->items[k].name, e->items[l].name) == 0)
                    gen_error(e->items[k].loc, "duplicate item '%s' in '%s'", e->items[k].name, e->name);
                else if (e->items[k].value == e->items[l].value && !e->is_flags)
                    gen_error(e->items[k].loc, "'%s' repeats the value %lld of '%s'", e->items[k].name, (long long)e->items[k].value, e->items[l].name);
            }
            int bits = gen_prim_size(e->base) * 8;
            int64_t v = e->items[k].value;
            int ok = gen_prim_is_signed(e->base) ? (bits == 64 || (v >= -(INT64_C(1) << (bits - 1)) && v < (INT64_C(1) << (bits - 1))))
                                                 : (v >= 0 && (bits == 64 || v < (INT64_C(1) << bits)));
            if (!ok) gen_error(e->items[k].loc, "value %lld of '%s' does not fit %s", (long long)v, e->items[k].name, gen_prim_name(e->base));
            if (e->is_flags && (v <= 0 || (v & (v - 1)) != 0))
                gen_error(e->items[k].loc, "flag '%s' = %lld is not a single bit", e->items[k].name, (long long)v);
        }
    }
}

int gen_check(gen_schema *s)
{
    int before = gen_error_count();
    gen_loc top = {s->file, 1, 1};
    if (!s->has_format) {
        gen_error(top, "missing 'format NAME { ... }' declaration");
        return gen_error_count() - before;
    }
    gen_format *fmt = &s->format;
    if (fmt->is_gff) {
        gen_check_decls(s);
        gen_check_gff(s);
        return gen_error_count() - before;
    }
    if (!fmt->root_name) gen_error(fmt->loc, "format '%s' has no 'root STRUCT;'", fmt->name);
    else if (!(fmt->root = gen_find_struct(s, fmt->root_name)))
        gen_error(fmt->loc, "root struct '%s' is not declared", fmt->root_name);
    if (!fmt->doc) gen_error(fmt->loc, "format '%s' needs a doc string", fmt->name);
    if (!fmt->source) gen_error(fmt->loc, "format '%s' needs a source reference (source \"...\";)", fmt->name);
    if (fmt->root) fmt->root->is_root = 1;
    gen_check_decls(s);
    if (gen_error_count() > before) return gen_error_count() - before;

    for (int i = 0; i < s->nstructs; i++) {
        dup_ctx d = {.n = 0};
        each_field(s->structs[i]->members, s->structs[i]->nmembers, dup_visit, &d);
    }
    /* Types first (resolve stype), so paths into nested structs resolve. */
    for (int i = 0; i < s->nstructs; i++) {
        order_ctx oc = {0};
        each_field(s->structs[i]->members, s->structs[i]->nmembers, order_visit, &oc);
        each_field(s->structs[i]->members, s->structs[i]->nmembers, resolve_type_visit, s);
        if (in_list(reserved_struct_names, s->structs[i]->name))
            gen_error(s->structs[i]->loc, "struct name '%s' is reserved: relic_%s_%s is part of the generated API",
                      s->structs[i]->name, fmt->name, s->structs[i]->name);
    }
    for (int i = 0; i < s->nstructs; i++) {
        scope sc = {s, s->structs[i], NULL, 0, 0};
        check_members(&sc, s->structs[i]->members, s->structs[i]->nmembers);
    }
    if (gen_error_count() > before) return gen_error_count() - before;
    for (int i = 0; i < s->nstructs; i++)
        each_field(s->structs[i]->members, s->structs[i]->nmembers, codec_region_visit, fmt->root);
    memset(layout_state, 0, sizeof layout_state);
    for (int i = 0; i < s->nstructs; i++) layout_struct(s, s->structs[i], i);
    for (int i = 0; i < s->nstructs; i++)
        each_field(s->structs[i]->members, s->structs[i]->nmembers, post_layout_visit, NULL);
    for (int i = 0; i < s->nstructs; i++) {
        tuple_check(s->structs[i]);
        each_field(s->structs[i]->members, s->structs[i]->nmembers, layout_visit, NULL);
    }
    if (fmt->root) {
        mark_used(fmt->root);
        for (int i = 0; i < s->nstructs; i++)
            if (!s->structs[i]->used)
                gen_error(s->structs[i]->loc, "struct '%s' is never used (not reachable from root '%s')", s->structs[i]->name, fmt->root->name);
    }
    return gen_error_count() - before;
}
