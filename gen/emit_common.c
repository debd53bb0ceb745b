/* emit_common.c — naming and expression code shared by all emitters. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

const char *em_prefix(const gen_schema *s)
{
    static char buf[128];
    snprintf(buf, sizeof buf, "relic_%s", s->format.name);
    return buf;
}

const char *em_upper(const char *s)
{
    static char bufs[8][256];
    static int k;
    char *b = bufs[k++ & 7];
    size_t i = 0;
    for (; s[i] && i < 255; i++) b[i] = (char)toupper((unsigned char)s[i]);
    b[i] = 0;
    return b;
}

int em_is_int(gen_prim p) { return p != P_NONE && p != P_CHAR && p != P_BYTES && !gen_prim_is_float(p); }
int em_is_scalar(const gen_field *f) { return !f->count && !f->count_rest && f->ndims == 0; }

const char *em_elem_ctype(const gen_schema *s, const gen_field *f)
{
    static char bufs[4][160];
    static int k;
    char *b = bufs[k++ & 3];
    if (f->stype) snprintf(b, 160, "%s_%s", em_prefix(s), f->stype->name);
    else snprintf(b, 160, "%s", gen_prim_ctype(f->prim));
    return b;
}

int64_t em_elem_size(const gen_field *f)
{
    return f->stype ? f->stype->fixed_size : gen_prim_size(f->prim);
}

int64_t em_fixed_elems(const gen_field *f)
{
    int64_t n = 1;
    for (int i = 0; i < f->ndims; i++) n *= f->dims[i];
    return n;
}

static const char *io_fn(const gen_field *f, const char *verb)
{
    static char bufs[4][48];
    static int k;
    char *b = bufs[k++ & 3];
    gen_prim p = f->prim == P_CHAR || f->prim == P_BYTES ? P_U8 : f->prim;
    if (gen_prim_size(p) == 1) {
        snprintf(b, 48, "relic_%s_%s", verb, p == P_I8 ? "i8" : "u8");
        return b;
    }
    snprintf(b, 48, "relic_%s_%s%s", verb, gen_prim_is_float(p) ? gen_prim_name(p) : gen_prim_name(p) + 0,
             f->endian == EN_BIG ? "be" : "le");
    /* signed loads go through the unsigned helper and a cast */
    if (gen_prim_is_signed(p) && !gen_prim_is_float(p)) {
        snprintf(b, 48, "relic_%s_u%d%s", verb, gen_prim_size(p) * 8, f->endian == EN_BIG ? "be" : "le");
    }
    return b;
}
const char *em_load_fn(const gen_field *f) { return io_fn(f, "load"); }
const char *em_store_fn(const gen_field *f) { return io_fn(f, "store"); }

int em_field_needs_check(const gen_field *f)
{
    if (f->check || f->const_str || f->init || f->has_range || f->hook || f->codec) return 1;
    if (f->etype && !f->etype->open) return 1;
    if (f->stype && em_struct_needs_check(f->stype)) return 1;
    return 0;
}

static int members_need_check(const gen_member *m, int n)
{
    for (int i = 0; i < n; i++) {
        if (m[i].kind != M_FIELD) return 1;
        const gen_field *f = m[i].field;
        if (em_field_needs_check(f) || f->count || f->count_rest || f->at) return 1;
    }
    return 0;
}

int em_struct_needs_check(const gen_struct *st)
{
    if (st->fixed_size < 0) return 1;
    return members_need_check(st->members, st->nmembers);
}

int em_deferred(const gen_field *f)
{
    return f && f->deferred && f->stype && em_elem_size(f) > 0 && em_struct_needs_check(f->stype);
}

int em_has_deferred(const gen_struct *root)
{
    for (int i = 0; i < root->nmembers; i++)
        if (root->members[i].kind == M_FIELD && em_deferred(root->members[i].field)) return 1;
    return 0;
}

/* clang-format off */
static const char *op_text[] = {
    [OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/", [OP_MOD] = "%", [OP_SHL] = "<<",
    [OP_SHR] = ">>", [OP_BAND] = "&", [OP_BOR] = "|", [OP_BXOR] = "^", [OP_EQ] = "==", [OP_NE] = "!=",
    [OP_LT] = "<", [OP_LE] = "<=", [OP_GT] = ">", [OP_GE] = ">=", [OP_LAND] = "&&", [OP_LOR] = "||",
    [OP_NEG] = "-", [OP_NOT] = "!", [OP_BNOT] = "~",
};
/* clang-format on */
/* clang-format off */
static const char *op_fn[] = {
    [OP_ADD] = "relic_gen_add", [OP_SUB] = "relic_gen_sub", [OP_MUL] = "relic_gen_mul",
    [OP_DIV] = "relic_gen_div", [OP_MOD] = "relic_gen_mod", [OP_SHL] = "relic_gen_shl", [OP_SHR] = "relic_gen_shr",
};
/* clang-format on */

void em_expr(gen_out *o, const gen_expr *e, const char *local, const char *root, const char *it)
{
    switch (e->kind) {
    case EX_INT: out_printf(o, "INT64_C(%lld)", (long long)e->ival); break;
    case EX_IT: out_printf(o, "(%s)", it); break;
    case EX_NAME:
        out_printf(o, "((int64_t)%s", e->root_scope ? root : local);
        for (int i = 0; i < e->npath; i++) out_printf(o, "%s%s", i ? "." : "", e->path[i]);
        out_puts(o, ")");
        break;
    case EX_CALL: out_puts(o, "0"); break;
    case EX_UNARY:
        if (e->op == OP_NEG) {
            out_puts(o, "relic_gen_neg(");
            em_expr(o, e->a, local, root, it);
            out_puts(o, ")");
        } else {
            out_printf(o, "((int64_t)(%s", op_text[e->op]);
            em_expr(o, e->a, local, root, it);
            out_puts(o, "))");
        }
        break;
    case EX_BINARY:
        if (e->op <= OP_SHR) {
            out_printf(o, "%s(", op_fn[e->op]);
            em_expr(o, e->a, local, root, it);
            out_puts(o, ", ");
            em_expr(o, e->b, local, root, it);
            out_puts(o, ")");
        } else {
            out_puts(o, "((int64_t)(");
            em_expr(o, e->a, local, root, it);
            out_printf(o, " %s ", op_text[e->op]);
            em_expr(o, e->b, local, root, it);
            out_puts(o, "))");
        }
        break;
    }
}

static int prec(const gen_expr *e)
{
    if (e->kind != EX_BINARY) return 100;
    switch (e->op) {
    case OP_LOR: return 0;
    case OP_LAND: return 1;
    case OP_BOR: return 2;
    case OP_BXOR: return 3;
    case OP_BAND: return 4;
    case OP_EQ:
    case OP_NE: return 5;
    case OP_LT:
    case OP_LE:
    case OP_GT:
    case OP_GE: return 6;
    case OP_SHL:
    case OP_SHR: return 7;
    case OP_ADD:
    case OP_SUB: return 8;
    default: return 9;
    }
}

void em_expr_text(gen_out *o, const gen_expr *e)
{
    static const char *fnames[] = {"count", "offset", "size"};
    switch (e->kind) {
    case EX_INT:
        if (e->ival > 65535) out_printf(o, "0x%llX", (unsigned long long)e->ival);
        else out_printf(o, "%lld", (long long)e->ival);
        break;
    case EX_IT: out_puts(o, "it"); break;
    case EX_NAME:
    case EX_CALL:
        if (e->kind == EX_CALL) out_printf(o, "%s(", fnames[e->func]);
        for (int i = 0; i < e->npath; i++) out_printf(o, "%s%s", i ? "." : "", e->path[i]);
        if (e->kind == EX_CALL) out_puts(o, ")");
        break;
    case EX_UNARY:
        out_puts(o, op_text[e->op]);
        if (prec(e->a) < 100) {
            out_puts(o, "(");
            em_expr_text(o, e->a);
            out_puts(o, ")");
        } else em_expr_text(o, e->a);
        break;
    case EX_BINARY: {
        int p = prec(e);
        int pa = prec(e->a) < p, pb = prec(e->b) <= p;
        if (pa) out_puts(o, "(");
        em_expr_text(o, e->a);
        if (pa) out_puts(o, ")");
        out_printf(o, " %s ", op_text[e->op]);
        if (pb) out_puts(o, "(");
        em_expr_text(o, e->b);
        if (pb) out_puts(o, ")");
        break;
    }
    }
}

void em_cstring(gen_out *o, const char *s, int len)
{
    out_puts(o, "\"");
    for (int i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') out_printf(o, "\\%c", c);
        else if (c >= 32 && c < 127) out_printf(o, "%c", c);
        else out_printf(o, "\\%03o", c);
    }
    out_puts(o, "\"");
}

int em_struct_order(gen_schema *s, gen_struct **out)
{
    int n = 0;
    int placed[4096] = {0};
    int progress = 1;
    while (n < s->nstructs && progress) {
        progress = 0;
        for (int i = 0; i < s->nstructs; i++) {
            if (placed[i]) continue;
            gen_field *fs[512];
            int nf = em_fields(s->structs[i], fs, 512), ok = 1;
            for (int k = 0; k < nf && ok; k++) {
                /* a struct embedded by value (scalar or fixed array) must come first */
                if (fs[k]->stype && !fs[k]->count && !fs[k]->count_rest)
                    for (int j = 0; j < s->nstructs; j++)
                        if (s->structs[j] == fs[k]->stype && !placed[j]) ok = 0;
            }
            if (ok) {
                placed[i] = 1;
                out[n++] = s->structs[i];
                progress = 1;
            }
        }
    }
    return n;
}

static int collect(const gen_member *m, int n, gen_field **out, int k, int max)
{
    for (int i = 0; i < n; i++) {
        if (m[i].kind == M_FIELD) {
            if (k < max) out[k++] = m[i].field;
        } else if (m[i].kind == M_IF) {
            k = collect(m[i].then_m, m[i].nthen, out, k, max);
            k = collect(m[i].else_m, m[i].nelse, out, k, max);
        } else if (m[i].kind == M_SWITCH) {
            for (int c = 0; c < m[i].ncases; c++) k = collect(m[i].cases[c].members, m[i].cases[c].nmembers, out, k, max);
        }
    }
    return k;
}

int em_fields(const gen_struct *st, gen_field **out, int max) { return collect(st->members, st->nmembers, out, 0, max); }

int em_struct_plain(const gen_struct *st)
{
    if (st->fixed_size < 0) return 0;
    for (int i = 0; i < st->nmembers; i++) {
        const gen_member *m = &st->members[i];
        if (m->kind != M_FIELD) return 0;
        const gen_field *f = m->field;
        if (f->at || f->count || f->count_rest || f->const_str || f->init || f->hook || f->codec) return 0;
        if (f->stype) {
            if (!em_struct_plain(f->stype)) return 0;
            continue;
        }
        if (gen_prim_size(f->prim) > 1 && f->endian != EN_LITTLE) return 0;
    }
    return 1;
}

/* "case V:" labels for n values, several to a line (at most about 100
 * columns); INT64_C only where a value does not fit an int. The last line
 * ends with `tail` instead of a newline. */
void em_case_labels(gen_out *o, const int64_t *v, int n, const char *tail)
{
    int col = 0;
    for (int i = 0; i < n; i++) {
        char l[64];
        if (v[i] >= -2147483647 && v[i] <= 2147483647) snprintf(l, sizeof l, "case %lld:", (long long)v[i]);
        else snprintf(l, sizeof l, "case INT64_C(%lld):", (long long)v[i]);
        int len = (int)strlen(l);
        if (col && col + 1 + len > 100) {
            out_puts(o, "\n");
            col = 0;
        }
        out_printf(o, "%s%s", col ? " " : "    ", l);
        col += (col ? 1 : 4) + len;
    }
    out_printf(o, "%s", tail);
}

int em_branch(gen_out *o, const gen_member *m, const char *local, const char *root, em_body_fn body, void *ctx,
              const char *no_case)
{
    if (m->kind == M_IF) {
        out_puts(o, "    if (");
        em_expr(o, m->cond, local, root, "0");
        out_puts(o, ") {\n");
        body(ctx, m->then_m, m->nthen);
        out_puts(o, "    } else {\n");
        body(ctx, m->else_m, m->nelse);
        out_puts(o, "    }\n");
        return 1;
    }
    if (m->kind != M_SWITCH) return 0;
    int has_default = 0;
    out_puts(o, "    switch (");
    em_expr(o, m->cond, local, root, "0");
    out_puts(o, ") {\n");
    for (int k = 0; k < m->ncases; k++) {
        const gen_case *cs = &m->cases[k];
        if (cs->nvalues == 0) {
            out_puts(o, "    default: {\n");
            has_default = 1;
        } else em_case_labels(o, cs->values, cs->nvalues, " {\n");
        body(ctx, cs->members, cs->nmembers);
        out_puts(o, "    } break;\n");
    }
    if (!has_default) out_printf(o, "    default: %s\n", no_case ? no_case : "break;");
    out_puts(o, "    }\n");
    return 1;
}

static int reach(const gen_struct *from, const gen_struct *st, int depth)
{
    if (from == st) return 1;
    if (depth > 64) return 0;
    gen_field *fs[512];
    int n = em_fields(from, fs, 512);
    for (int i = 0; i < n; i++)
        if (fs[i]->stype && fs[i]->stype != from && reach(fs[i]->stype, st, depth + 1)) return 1;
    return 0;
}

int em_reachable(const gen_struct *root, const gen_struct *st) { return reach(root, st, 0); }

typedef struct corder {
    gen_schema *s;
    gen_struct **out;
    int *proto;
    int state[4096]; /* 0 new, 1 in progress, 2 done */
    int n;
} corder;

static int struct_index(const gen_schema *s, const gen_struct *st)
{
    for (int i = 0; i < s->nstructs; i++)
        if (s->structs[i] == st) return i;
    return -1;
}

static void visit(corder *c, gen_struct *st)
{
    int i = struct_index(c->s, st);
    if (i < 0 || c->state[i] == 2) return;
    if (c->state[i] == 1) {
        c->proto[i] = 1;
        return;
    } /* a cycle: declare it first */
    c->state[i] = 1;
    gen_field *fs[512];
    int nf = em_fields(st, fs, 512);
    for (int k = 0; k < nf; k++)
        if (fs[k]->stype) visit(c, fs[k]->stype);
    c->state[i] = 2;
    c->out[c->n++] = st;
}

int em_callee_order(gen_schema *s, gen_struct **out, int *needs_proto)
{
    static corder c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.out = out;
    c.proto = needs_proto;
    for (int i = 0; i < s->nstructs; i++) needs_proto[i] = 0;
    for (int i = 0; i < s->nstructs; i++) visit(&c, s->structs[i]);
    /* report the flags in the order's positions */
    int tmp[4096];
    for (int i = 0; i < c.n; i++) tmp[i] = needs_proto[struct_index(s, out[i])];
    for (int i = 0; i < c.n; i++) needs_proto[i] = tmp[i];
    return c.n;
}

/* C names without stutter: the root struct, and a struct named as its
 * format, is `file` in C (relic_bwm_bwm -> relic_bwm_file, grf_region's root
 * region: relic_grf_region_region -> relic_grf_region_file), one whose name
 * starts with the format's drops the repeat (relic_gff_gff_struct ->
 * relic_gff_struct; are_flags -> relic_are_flags), upper case alike. Rewrites whole identifiers of a
 * generated text, so the emitters keep naming structs as the schema does
 * (paths, JSON and docs keep those names); the other structs and enums map to
 * themselves, so that the longest name wins (region_entry stays itself). */
void em_c_names(const gen_schema *s, gen_out *o)
{
    enum { MAXN = 256 };
    static char from[MAXN][160], to[MAXN][160];
    int n = 0, renamed = 0;
    const char *F = s->format.name;
    size_t fl = strlen(F);
    for (int i = 0; i < s->nstructs + s->nenums && n < MAXN - 2; i++) {
        const char *S = i < s->nstructs ? s->structs[i]->name : s->enums[i - s->nstructs]->name;
        const char *rest = i < s->nstructs && (s->structs[i] == s->format.root || !strcmp(S, F)) ? "file"
            : !strncmp(S, F, fl) && S[fl] == '_'                                                 ? S + fl + 1
                                                                                                 : S;
        renamed |= rest != S;
        snprintf(from[n], sizeof from[n], "relic_%s_%s", F, S);
        snprintf(to[n], sizeof to[n], "relic_%s_%s", F, rest);
        snprintf(from[n + 1], sizeof from[n + 1], "%s", em_upper(from[n]));
        snprintf(to[n + 1], sizeof to[n + 1], "%s", em_upper(to[n]));
        n += 2;
    }
    if (!renamed) n = 0;
    if (!n || !o->data) return;
    gen_out r = {0};
    const char *p = o->data, *end = o->data + o->size;
#define IDENT(c) ((c) == '_' || ((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') || ((c) >= '0' && (c) <= '9'))
    while (p < end) {
        if (p > o->data && IDENT(p[-1])) {
            out_printf(&r, "%c", *p++);
            continue;
        }
        int best = -1;
        size_t bl = 0;
        for (int k = 0; k < n; k++) {
            size_t l = strlen(from[k]);
            if (l > bl && (size_t)(end - p) >= l && !memcmp(p, from[k], l) && (p + l == end || p[l] == '_' || !IDENT(p[l]))) {
                best = k;
                bl = l;
            }
        }
        if (best < 0) {
            out_printf(&r, "%c", *p++);
            continue;
        }
        out_puts(&r, to[best]);
        p += bl;
    }
#undef IDENT
    free(o->data);
    *o = r;
}
