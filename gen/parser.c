/* parser.c — recursive-descent parser for the schema language: tokens from
 * gen/lexer.re into the tree of gen/ast.h. Syntax only; names, types and
 * sizes are resolved and checked in gen/sema.c. Reference: gen/SCHEMA.md. */
#include <stdlib.h>
#include <string.h>

#include "lexer.h"

typedef struct parser {
    gen_lexer lx;
    gen_token tok;  /* current token */
    gen_token next; /* one token of look-ahead */
    int failed;     /* stop at the first syntax error: later ones are noise */
    gen_schema *s;
} parser;

static void advance(parser *p)
{
    p->tok = p->next;
    if (p->tok.kind != T_EOF) {
        do gen_lex(&p->lx, &p->next);
        while (p->next.kind == T_ERROR && (p->failed = 1, 0));
    }
}

static int is_punct(const parser *p, int c) { return p->tok.kind == T_PUNCT && p->tok.punct == c; }
static int is_word(const parser *p, const char *w)
{
    return p->tok.kind == T_IDENT && (int)strlen(w) == p->tok.len && memcmp(p->tok.start, w, (size_t)p->tok.len) == 0;
}

static const char *describe(const gen_token *t, char *buf, size_t n)
{
    switch (t->kind) {
    case T_EOF: return "end of file";
    case T_STRING: return "a string";
    case T_INT: snprintf(buf, n, "'%.*s'", t->len, t->start); return buf;
    default: snprintf(buf, n, "'%.*s'", t->len > 40 ? 40 : t->len, t->start); return buf;
    }
}

static void syntax(parser *p, const char *what)
{
    char b[64];
    if (!p->failed) gen_error(p->tok.loc, "expected %s, found %s", what, describe(&p->tok, b, sizeof b));
    p->failed = 1;
}

static int expect_punct(parser *p, int c, const char *what)
{
    if (!is_punct(p, c)) {
        syntax(p, what);
        return 0;
    }
    advance(p);
    return 1;
}

static const char *expect_ident(parser *p, const char *what)
{
    if (p->tok.kind != T_IDENT) {
        syntax(p, what);
        return NULL;
    }
    const char *s = gen_strndup(p->tok.start, (size_t)p->tok.len);
    advance(p);
    return s;
}

static const char *expect_string(parser *p, const char *what)
{
    if (p->tok.kind != T_STRING) {
        syntax(p, what);
        return NULL;
    }
    const char *s = p->tok.sval;
    advance(p);
    return s;
}

static int expect_int(parser *p, int64_t *v, const char *what)
{
    int neg = 0;
    if (is_punct(p, '-')) {
        neg = 1;
        advance(p);
    }
    if (p->tok.kind != T_INT) {
        syntax(p, what);
        return 0;
    }
    *v = neg ? -p->tok.ival : p->tok.ival;
    advance(p);
    return 1;
}

/* ---------------------------------------------------------------- expressions */

static gen_expr *new_expr(gen_expr_kind k, gen_loc loc)
{
    gen_expr *e = gen_alloc(sizeof *e);
    e->kind = k;
    e->loc = loc;
    return e;
}

static gen_expr *parse_expr(parser *p);

static int parse_path(parser *p, gen_expr *e)
{
    do {
        if (e->npath == 8) {
            gen_error(p->tok.loc, "name path is too long (at most 8 parts)");
            p->failed = 1;
            return 0;
        }
        const char *n = expect_ident(p, "a field name");
        if (!n) return 0;
        e->path[e->npath++] = n;
        if (!is_punct(p, '.')) break;
        advance(p);
    } while (1);
    return 1;
}

static gen_expr *parse_primary(parser *p)
{
    gen_loc loc = p->tok.loc;
    if (p->tok.kind == T_INT) {
        gen_expr *e = new_expr(EX_INT, loc);
        e->ival = p->tok.ival;
        advance(p);
        return e;
    }
    if (is_punct(p, '(')) {
        advance(p);
        gen_expr *e = parse_expr(p);
        if (!e || !expect_punct(p, ')', "')'")) return NULL;
        return e;
    }
    if (p->tok.kind == T_IDENT) {
        if (is_word(p, "it")) {
            advance(p);
            return new_expr(EX_IT, loc);
        }
        static const char *fnames[] = {"count", "offset", "size"};
        for (int f = 0; f < 3; f++) {
            if (is_word(p, fnames[f]) && p->next.kind == T_PUNCT && p->next.punct == '(') {
                gen_expr *e = new_expr(EX_CALL, loc);
                e->func = (gen_func)f;
                advance(p);
                advance(p);
                if (!parse_path(p, e) || !expect_punct(p, ')', "')' after the member name")) return NULL;
                return e;
            }
        }
        gen_expr *e = new_expr(EX_NAME, loc);
        if (!parse_path(p, e)) return NULL;
        return e;
    }
    syntax(p, "an expression");
    return NULL;
}

static gen_expr *parse_unary(parser *p)
{
    gen_loc loc = p->tok.loc;
    gen_op op;
    if (is_punct(p, '-')) op = OP_NEG;
    else if (is_punct(p, '!')) op = OP_NOT;
    else if (is_punct(p, '~')) op = OP_BNOT;
    else return parse_primary(p);
    advance(p);
    gen_expr *a = parse_unary(p);
    if (!a) return NULL;
    if (op == OP_NEG && a->kind == EX_INT) {
        a->ival = -a->ival;
        a->loc = loc;
        return a;
    }
    gen_expr *e = new_expr(EX_UNARY, loc);
    e->op = op;
    e->a = a;
    return e;
}

/* Binary operators by precedence level, lowest first. */
static const struct {
    int punct;
    gen_op op;
    int level;
} binops[] = {
    {PU_LOR, OP_LOR, 0},
    {PU_LAND, OP_LAND, 1},
    {'|', OP_BOR, 2},
    {'^', OP_BXOR, 3},
    {'&', OP_BAND, 4},
    {PU_EQ, OP_EQ, 5},
    {PU_NE, OP_NE, 5},
    {'<', OP_LT, 6},
    {PU_LE, OP_LE, 6},
    {'>', OP_GT, 6},
    {PU_GE, OP_GE, 6},
    {PU_SHL, OP_SHL, 7},
    {PU_SHR, OP_SHR, 7},
    {'+', OP_ADD, 8},
    {'-', OP_SUB, 8},
    {'*', OP_MUL, 9},
    {'/', OP_DIV, 9},
    {'%', OP_MOD, 9},
};
#define MAX_LEVEL 9

static gen_expr *parse_level(parser *p, int level)
{
    if (level > MAX_LEVEL) return parse_unary(p);
    gen_expr *a = parse_level(p, level + 1);
    while (a && p->tok.kind == T_PUNCT) {
        size_t i;
        for (i = 0; i < sizeof binops / sizeof binops[0]; i++)
            if (binops[i].punct == p->tok.punct && binops[i].level == level) break;
        if (i == sizeof binops / sizeof binops[0]) break;
        gen_expr *e = new_expr(EX_BINARY, p->tok.loc);
        e->op = binops[i].op;
        advance(p);
        e->a = a;
        e->b = parse_level(p, level + 1);
        if (!e->b) return NULL;
        a = e;
    }
    return a;
}

static gen_expr *parse_expr(parser *p) { return parse_level(p, 0); }

/* ---------------------------------------------------------------- types */

/* u32, i16be, f32le, char, bytes ... -> prim and endianness; P_NONE otherwise. */
static gen_prim prim_of(const char *w, gen_endian *en)
{
    static const struct {
        const char *n;
        gen_prim p;
    } names[] = {
        {"u8", P_U8},
        {"u16", P_U16},
        {"u32", P_U32},
        {"u64", P_U64},
        {"i8", P_I8},
        {"i16", P_I16},
        {"i32", P_I32},
        {"i64", P_I64},
        {"f32", P_F32},
        {"f64", P_F64},
        {"char", P_CHAR},
        {"bytes", P_BYTES},
    };
    size_t len = strlen(w);
    *en = EN_DEFAULT;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i].n);
        if (len == n && memcmp(w, names[i].n, n) == 0) return names[i].p;
        if (len == n + 2 && memcmp(w, names[i].n, n) == 0 && names[i].p != P_CHAR && names[i].p != P_BYTES) {
            if (strcmp(w + n, "le") == 0) {
                *en = EN_LITTLE;
                return names[i].p;
            }
            if (strcmp(w + n, "be") == 0) {
                *en = EN_BIG;
                return names[i].p;
            }
        }
    }
    return P_NONE;
}

/* `[...]` after a type or a name: fixed dimension, count expression or `..`. */
static int parse_dims(parser *p, gen_field *f)
{
    while (is_punct(p, '[')) {
        gen_loc loc = p->tok.loc;
        advance(p);
        if (is_punct(p, PU_DOTDOT)) {
            advance(p);
            if (f->count || f->count_rest) {
                gen_error(loc, "field '%s' has more than one variable dimension", f->name ? f->name : "?");
                p->failed = 1;
                return 0;
            }
            f->count_rest = 1;
        } else {
            gen_expr *e = parse_expr(p);
            if (!e) return 0;
            if (e->kind == EX_INT && !f->count && !f->count_rest) {
                if (e->ival <= 0 || e->ival > 1 << 20) {
                    gen_error(e->loc, "fixed dimension %lld is out of range 1..1048576", (long long)e->ival);
                    p->failed = 1;
                    return 0;
                }
                if (f->ndims == 4) {
                    gen_error(loc, "at most 4 fixed dimensions");
                    p->failed = 1;
                    return 0;
                }
                f->dims[f->ndims++] = (int)e->ival;
            } else {
                if (f->count || f->count_rest) {
                    gen_error(loc, "field '%s' has more than one variable dimension", f->name ? f->name : "?");
                    p->failed = 1;
                    return 0;
                }
                if (f->ndims) {
                    gen_error(loc, "a variable dimension must come before fixed ones");
                    p->failed = 1;
                    return 0;
                }
                f->count = e;
            }
        }
        if (!expect_punct(p, ']', "']'")) return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------- members */

/* `for GAME...` after a typed GFF rule: the games it belongs to (nwn1 nwn2
 * kotor1 kotor2, kotor = kotor1 kotor2), as GEN_GAME_* bits; 0 when no
 * `for` follows (every game). -1 on a syntax error. */
static int parse_games(parser *p)
{
    if (!is_word(p, "for")) return 0;
    advance(p);
    int mask = 0;
    for (;;) {
        if (is_word(p, "nwn1")) mask |= GEN_GAME_NWN1;
        else if (is_word(p, "nwn2")) mask |= GEN_GAME_NWN2;
        else if (is_word(p, "kotor1")) mask |= GEN_GAME_KOTOR1;
        else if (is_word(p, "kotor2")) mask |= GEN_GAME_KOTOR2;
        else if (is_word(p, "kotor")) mask |= GEN_GAME_KOTOR1 | GEN_GAME_KOTOR2;
        else break;
        advance(p);
    }
    if (!mask) {
        syntax(p, "a game after 'for' (nwn1, nwn2, kotor1, kotor2, kotor)");
        return -1;
    }
    return mask;
}

static int parse_members(parser *p, gen_member **out, int *n, int in_switch);

/* The attributes binary and typed GFF fields share: "doc", `: enum`,
 * `in lo..hi`, `source "ref"`. Returns 1 when one was parsed, 0 when the
 * token is none of them, -1 on a syntax error. name is for messages. */
static int parse_shared_attr(parser *p, gen_field *f, const char *name)
{
    gen_loc loc = p->tok.loc;
    if (p->tok.kind == T_STRING) {
        if (f->doc) {
            gen_error(loc, "field '%s' has two doc strings", name);
            p->failed = 1;
            return -1;
        }
        f->doc = p->tok.sval;
        advance(p);
    } else if (is_punct(p, ':')) {
        advance(p);
        if (!(f->enum_name = expect_ident(p, "an enum or flags name"))) return -1;
        if ((f->enum_games = parse_games(p)) < 0) return -1;
    } else if (is_word(p, "in")) {
        advance(p);
        f->has_range = 1;
        if (!expect_int(p, &f->range_lo, "the range's lower bound")) return -1;
        if (!expect_punct(p, PU_DOTDOT, "'..' in the range")) return -1;
        if (!expect_int(p, &f->range_hi, "the range's upper bound")) return -1;
        if ((f->range_games = parse_games(p)) < 0) return -1;
    } else if (is_word(p, "source")) {
        advance(p);
        if (!(f->source = expect_string(p, "a source reference string"))) return -1;
    } else {
        return 0;
    }
    return 1;
}

static gen_field *parse_field(parser *p)
{
    gen_field *f = gen_alloc(sizeof *f);
    f->loc = p->tok.loc;
    f->fixed_offset = -1;
    const char *type = expect_ident(p, "a type");
    if (!type) return NULL;
    f->prim = prim_of(type, &f->endian);
    if (f->prim == P_NONE) f->type_name = type;
    if (!parse_dims(p, f)) return NULL;
    f->loc = p->tok.loc;
    f->name = expect_ident(p, "a field name");
    if (!f->name) return NULL;
    if (!parse_dims(p, f)) return NULL;
    for (;;) {
        gen_loc loc = p->tok.loc;
        if (is_punct(p, ';')) {
            advance(p);
            return f;
        }
        int shared = parse_shared_attr(p, f, f->name);
        if (shared < 0) return NULL;
        if (shared) {
            continue;
        } else if (is_word(p, "at")) {
            advance(p);
            if (f->at) {
                gen_error(loc, "field '%s' has two 'at' placements", f->name);
                p->failed = 1;
                return NULL;
            }
            if (!(f->at = parse_expr(p))) return NULL;
        } else if (is_punct(p, '=')) {
            advance(p);
            if (p->tok.kind == T_STRING) {
                f->const_str = p->tok.sval;
                f->const_len = p->tok.slen;
                advance(p);
            } else if (!(f->init = parse_expr(p))) {
                return NULL;
            }
        } else if (is_word(p, "check")) {
            advance(p);
            if (!expect_punct(p, '(', "'(' after check")) return NULL;
            if (!(f->check = parse_expr(p))) return NULL;
            if (!expect_punct(p, ')', "')'")) return NULL;
        } else if (is_word(p, "codec")) {
            advance(p);
            if (!(f->codec = expect_ident(p, "a codec name"))) return NULL;
            if (!expect_punct(p, '(', "'(' and the decoded size")) return NULL;
            if (!(f->codec_size = parse_expr(p))) return NULL;
            if (!expect_punct(p, ')', "')'")) return NULL;
            if (!is_word(p, "as")) {
                syntax(p, "'as' and the struct the decoded bytes hold");
                return NULL;
            }
            advance(p);
            if (!(f->codec_as = expect_ident(p, "a struct name"))) return NULL;
        } else if (is_word(p, "hook")) {
            advance(p);
            if (!(f->hook = expect_ident(p, "a hook name"))) return NULL;
        } else if (is_word(p, "deferred")) {
            advance(p);
            f->deferred = 1;
        } else {
            syntax(p, "';' or a field attribute (at, :, =, in, check, codec, hook, source, \"doc\")");
            return NULL;
        }
    }
}

/* Typed GFF field: GFFTYPE LABEL [as CNAME] [of STRUCT] [: ENUM [for GAMES]]
 * [in LO..HI [for GAMES]] [also GFFTYPE for GAMES] ["doc"] [source "ref"];
 * LABEL is an identifier or a string. */
static gen_field *parse_gff_field(parser *p)
{
    gen_field *f = gen_alloc(sizeof *f);
    f->loc = p->tok.loc;
    f->fixed_offset = -1;
    f->alt_gff_type = -1;
    const char *type = expect_ident(p, "a GFF type (byte, int, cexostring, list, ...)");
    if (!type) return NULL;
    if ((f->gff_type = gen_gff_type_of(type)) < 0) {
        gen_error(f->loc, "'%s' is not a GFF type (byte char word short dword int dword64 int64 float double "
                          "cexostring resref cexolocstring void struct list orientation vector any)",
                  type);
        p->failed = 1;
        return NULL;
    }
    f->loc = p->tok.loc;
    if (p->tok.kind == T_STRING) {
        if ((int)strlen(p->tok.sval) != p->tok.slen) {
            gen_error(f->loc, "a GFF label cannot hold a NUL byte");
            p->failed = 1;
            return NULL;
        }
        f->label = p->tok.sval;
        advance(p);
    } else if (!(f->label = expect_ident(p, "the field's GFF label"))) {
        return NULL;
    }
    for (;;) {
        if (is_punct(p, ';')) {
            advance(p);
            return f;
        }
        int shared = parse_shared_attr(p, f, f->label);
        if (shared < 0) return NULL;
        if (shared) {
            continue;
        } else if (is_word(p, "as")) {
            advance(p);
            if (!(f->name = expect_ident(p, "the C name of the field"))) return NULL;
        } else if (is_word(p, "of")) {
            advance(p);
            if (!(f->type_name = expect_ident(p, "the struct of the field or of the list's elements"))) return NULL;
        } else if (is_word(p, "also")) {
            advance(p);
            const char *alt = expect_ident(p, "the GFF type those games also write");
            if (!alt) return NULL;
            if ((f->alt_gff_type = gen_gff_type_of(alt)) < 0) {
                gen_error(f->loc, "'%s' is not a GFF type", alt);
                p->failed = 1;
                return NULL;
            }
            if ((f->alt_games = parse_games(p)) <= 0) {
                if (f->alt_games == 0) syntax(p, "'for GAMES' after 'also TYPE'");
                return NULL;
            }
        } else {
            syntax(p, "';' or a GFF field attribute (as, of, :, in, also, source, \"doc\")");
            return NULL;
        }
    }
}

static int push_member(gen_member **arr, int *n, gen_member m)
{
    *arr = realloc(*arr, sizeof **arr * (size_t)(*n + 1));
    if (!*arr) {
        fprintf(stderr, "relic-gen: out of memory\n");
        exit(3);
    }
    (*arr)[(*n)++] = m;
    return 1;
}

static int parse_block(parser *p, gen_member **out, int *n)
{
    if (!expect_punct(p, '{', "'{'")) return 0;
    if (!parse_members(p, out, n, 0)) return 0;
    return expect_punct(p, '}', "'}'");
}

static int parse_switch(parser *p, gen_member *m)
{
    if (!expect_punct(p, '(', "'(' and the tag")) return 0;
    if (!(m->cond = parse_expr(p))) return 0;
    if (!expect_punct(p, ')', "')'")) return 0;
    if (!expect_punct(p, '{', "'{'")) return 0;
    while (!is_punct(p, '}')) {
        gen_case c = {0};
        c.loc = p->tok.loc;
        if (is_word(p, "case")) {
            advance(p);
            do {
                int64_t v;
                if (!expect_int(p, &v, "a case value")) return 0;
                c.values = realloc(c.values, sizeof *c.values * (size_t)(c.nvalues + 1));
                c.values[c.nvalues++] = v;
                if (!is_punct(p, ',')) break;
                advance(p);
            } while (1);
        } else if (is_word(p, "default")) {
            advance(p);
        } else {
            syntax(p, "'case', 'default' or '}'");
            return 0;
        }
        if (!expect_punct(p, ':', "':'")) return 0;
        if (!parse_members(p, &c.members, &c.nmembers, 1)) return 0;
        m->cases = realloc(m->cases, sizeof *m->cases * (size_t)(m->ncases + 1));
        m->cases[m->ncases++] = c;
    }
    advance(p);
    return 1;
}

/* Members until '}' (or, inside a switch, until the next case/default). */
static int parse_members(parser *p, gen_member **out, int *n, int in_switch)
{
    while (!p->failed) {
        gen_member m = {0};
        m.loc = p->tok.loc;
        if (is_punct(p, '}') || p->tok.kind == T_EOF) return 1;
        if (in_switch && (is_word(p, "case") || is_word(p, "default"))) return 1;
        if (p->s->format.is_gff) {
            m.kind = M_FIELD;
            if (!(m.field = parse_gff_field(p))) return 0;
        } else if (is_word(p, "if")) {
            advance(p);
            m.kind = M_IF;
            if (!expect_punct(p, '(', "'(' and a condition")) return 0;
            if (!(m.cond = parse_expr(p))) return 0;
            if (!expect_punct(p, ')', "')'")) return 0;
            if (!parse_block(p, &m.then_m, &m.nthen)) return 0;
            if (is_word(p, "else")) {
                advance(p);
                if (!parse_block(p, &m.else_m, &m.nelse)) return 0;
            }
        } else if (is_word(p, "switch")) {
            advance(p);
            m.kind = M_SWITCH;
            if (!parse_switch(p, &m)) return 0;
        } else if (is_word(p, "check")) {
            advance(p);
            m.kind = M_CHECK;
            if (!expect_punct(p, '(', "'(' and a condition")) return 0;
            if (!(m.cond = parse_expr(p))) return 0;
            if (!expect_punct(p, ')', "')'")) return 0;
            if (p->tok.kind == T_STRING) {
                m.doc = p->tok.sval;
                advance(p);
            }
            if (!expect_punct(p, ';', "';'")) return 0;
        } else {
            m.kind = M_FIELD;
            if (!(m.field = parse_field(p))) return 0;
        }
        push_member(out, n, m);
    }
    return 0;
}

/* ---------------------------------------------------------------- declarations */

static int parse_doc_source(parser *p, const char **doc, const char **source)
{
    for (;;) {
        if (p->tok.kind == T_STRING) {
            if (*doc) {
                gen_error(p->tok.loc, "two doc strings");
                p->failed = 1;
                return 0;
            }
            *doc = p->tok.sval;
            advance(p);
        } else if (is_word(p, "source")) {
            advance(p);
            if (!(*source = expect_string(p, "a source reference string"))) return 0;
        } else {
            return 1;
        }
    }
}

static int parse_struct(parser *p)
{
    gen_struct *st = gen_alloc(sizeof *st);
    st->loc = p->tok.loc;
    advance(p);
    st->doc_size = -1;
    st->fixed_size = -1;
    st->loc = p->tok.loc;
    if (!(st->name = expect_ident(p, "a struct name"))) return 0;
    for (;;) {
        if (is_word(p, "size")) {
            advance(p);
            if (!expect_int(p, &st->doc_size, "the documented size in bytes")) return 0;
        } else if (is_word(p, "tuple")) {
            advance(p);
            st->tuple = 1;
        } else if (is_word(p, "id")) {
            advance(p);
            st->has_id = 1;
            if (is_word(p, "any")) {
                advance(p);
                st->id_any = 1;
            } else {
                int64_t id;
                if (!expect_int(p, &id, "the StructID or 'any'")) return 0;
                int games = parse_games(p);
                if (games < 0) return 0;
                if (games) { /* `id N for GAMES`, repeatable */
                    if (st->nids == (int)(sizeof st->ids / sizeof st->ids[0])) {
                        syntax(p, "at most 8 'id N for GAMES'");
                        return 0;
                    }
                    st->ids[st->nids] = id;
                    st->id_games[st->nids++] = games;
                }
                if (!games || st->nids == 1) st->gff_id = id;
            }
        } else break;
    }
    if (!parse_doc_source(p, &st->doc, &st->source)) return 0;
    if (!parse_block(p, &st->members, &st->nmembers)) return 0;
    p->s->structs = realloc(p->s->structs, sizeof *p->s->structs * (size_t)(p->s->nstructs + 1));
    p->s->structs[p->s->nstructs++] = st;
    return 1;
}

static int parse_enum(parser *p, int is_flags)
{
    gen_enum *en = gen_alloc(sizeof *en);
    advance(p);
    en->loc = p->tok.loc;
    en->is_flags = is_flags;
    if (!(en->name = expect_ident(p, is_flags ? "a flags name" : "an enum name"))) return 0;
    if (!expect_punct(p, ':', "':' and the integer type")) return 0;
    gen_loc tloc = p->tok.loc;
    const char *t = expect_ident(p, "an integer type");
    if (!t) return 0;
    gen_endian en_ignored;
    en->base = prim_of(t, &en_ignored);
    if (en->base == P_NONE || en->base == P_CHAR || en->base == P_BYTES || gen_prim_is_float(en->base)) {
        gen_error(tloc, "'%s' is not an integer type", t);
        p->failed = 1;
        return 0;
    }
    if (is_word(p, "open")) {
        advance(p);
        en->open = 1;
    }
    if (!parse_doc_source(p, &en->doc, &en->source)) return 0;
    if (!expect_punct(p, '{', "'{'")) return 0;
    while (!is_punct(p, '}')) {
        gen_enum_item it = {0};
        it.loc = p->tok.loc;
        if (!(it.name = expect_ident(p, "an item name or '}'"))) return 0;
        if (!expect_punct(p, '=', "'=' and the item's value")) return 0;
        if (!expect_int(p, &it.value, "an integer value")) return 0;
        if (p->tok.kind == T_STRING) {
            it.doc = p->tok.sval;
            advance(p);
        }
        if (!expect_punct(p, ';', "';'")) return 0;
        en->items = realloc(en->items, sizeof *en->items * (size_t)(en->nitems + 1));
        en->items[en->nitems++] = it;
    }
    advance(p);
    p->s->enums = realloc(p->s->enums, sizeof *p->s->enums * (size_t)(p->s->nenums + 1));
    p->s->enums[p->s->nenums++] = en;
    return 1;
}

static int parse_format(parser *p)
{
    gen_format *f = &p->s->format;
    if (p->s->has_format) {
        gen_error(p->tok.loc, "a schema holds one format declaration");
        p->failed = 1;
        return 0;
    }
    p->s->has_format = 1;
    advance(p);
    f->loc = p->tok.loc;
    if (!(f->name = expect_ident(p, "the format name"))) return 0;
    if (p->tok.kind == T_STRING) {
        f->doc = p->tok.sval;
        advance(p);
    }
    if (!expect_punct(p, '{', "'{'")) return 0;
    while (!is_punct(p, '}')) {
        gen_loc loc = p->tok.loc;
        if (is_word(p, "source")) {
            advance(p);
            if (!(f->source = expect_string(p, "a source reference string"))) return 0;
        } else if (is_word(p, "extensions")) {
            advance(p);
            while (p->tok.kind == T_IDENT) {
                if (f->nextensions == 64) {
                    gen_error(p->tok.loc, "at most 64 extensions");
                    p->failed = 1;
                    return 0;
                }
                f->extensions[f->nextensions++] = expect_ident(p, "an extension");
            }
        } else if (is_word(p, "endian")) {
            advance(p);
            if (is_word(p, "little")) f->endian = EN_LITTLE;
            else if (is_word(p, "big")) f->endian = EN_BIG;
            else {
                syntax(p, "'little' or 'big'");
                return 0;
            }
            advance(p);
        } else if (is_word(p, "root")) {
            advance(p);
            if (!(f->root_name = expect_ident(p, "the root struct name"))) return 0;
        } else if (is_word(p, "gff")) {
            advance(p);
            if (p->s->nstructs) {
                gen_error(loc, "in a typed GFF schema the format block comes before the structs");
                p->failed = 1;
                return 0;
            }
            f->is_gff = 1;
            if (p->tok.kind == T_STRING) {
                if (p->tok.slen != 4) {
                    gen_error(p->tok.loc, "a GFF FileType has 4 characters (space-padded: \"ARE \")");
                    p->failed = 1;
                    return 0;
                }
                f->gff_type = p->tok.sval;
                advance(p);
            }
        } else if (is_word(p, "use")) {
            advance(p);
            if (f->nuses == 8) {
                gen_error(loc, "at most 8 'use' lines");
                p->failed = 1;
                return 0;
            }
            if (!(f->uses[f->nuses++] = expect_ident(p, "the name of a schema beside this one"))) return 0;
        } else if (is_word(p, "detect")) {
            advance(p);
            f->detect = 1;
            if (is_word(p, "hook")) {
                advance(p);
                if (!(f->detect_hook = expect_ident(p, "a detection function name"))) return 0;
            } else {
                while (p->tok.kind == T_IDENT) {
                    if (f->ndetect_fields == 8) {
                        gen_error(p->tok.loc, "at most 8 detect fields");
                        p->failed = 1;
                        return 0;
                    }
                    f->detect_fields[f->ndetect_fields++] = expect_ident(p, "a constant header field");
                }
            }
        } else if (is_word(p, "layout")) {
            advance(p);
            if (!(f->layout_hook = expect_ident(p, "the name of a layout function"))) return 0;
        } else if (is_word(p, "pairs")) {
            advance(p);
            if (!(f->pairs = expect_ident(p, "the name of the paired format"))) return 0;
        } else {
            syntax(p, "source, extensions, endian, root, detect, layout, gff, use, pairs or '}'");
            return 0;
        }
        (void)loc;
        if (!expect_punct(p, ';', "';'")) return 0;
    }
    advance(p);
    return 1;
}

/* `use NAME;`: the structs and enums of NAME.schema beside this file join
 * the schema, marked external (declared and emitted by NAME itself). */
static int load_uses(gen_schema *s, const char *path)
{
    static int depth;
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path + 1) : 0;
    for (int u = 0; u < s->format.nuses; u++) {
        char other[1024];
        snprintf(other, sizeof other, "%.*s%s.schema", dirlen, path, s->format.uses[u]);
        if (depth > 4) {
            gen_error(s->format.loc, "'use' nests too deeply (at %s)", other);
            return 0;
        }
        depth++;
        gen_schema *o = gen_parse_file(other);
        depth--;
        if (!o || gen_check(o) != 0) return 0;
        if (!o->format.is_gff || o->format.gff_type) {
            gen_error(s->format.loc, "'use %s': %s is not a common typed GFF schema (`gff;` without a FileType)",
                      s->format.uses[u], other);
            return 0;
        }
        for (int i = 0; i < o->nstructs; i++) {
            if (!o->structs[i]->external) o->structs[i]->external = o->format.name;
            s->structs = realloc(s->structs, sizeof *s->structs * (size_t)(s->nstructs + 1));
            s->structs[s->nstructs++] = o->structs[i];
        }
        for (int i = 0; i < o->nenums; i++) {
            if (!o->enums[i]->external) o->enums[i]->external = o->format.name;
            s->enums = realloc(s->enums, sizeof *s->enums * (size_t)(s->nenums + 1));
            s->enums[s->nenums++] = o->enums[i];
        }
    }
    return 1;
}

gen_schema *gen_parse_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    gen_loc nowhere = {path, 0, 0};
    if (!fp) {
        gen_error(nowhere, "cannot open schema");
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = gen_alloc(cap);
    for (;;) {
        size_t n = fread(buf + len, 1, cap - len - 1, fp);
        len += n;
        if (n == 0) break;
        if (len + 1 == cap) {
            char *nb = gen_alloc(cap * 2);
            memcpy(nb, buf, len);
            buf = nb;
            cap *= 2;
        }
    }
    fclose(fp);
    buf[len] = 0;

    parser p = {0};
    p.s = gen_alloc(sizeof *p.s);
    p.s->file = path;
    gen_lexer_init(&p.lx, path, buf, len);
    gen_lex(&p.lx, &p.next);
    if (p.next.kind == T_ERROR) p.failed = 1;
    advance(&p);
    while (!p.failed && p.tok.kind != T_EOF) {
        if (is_word(&p, "format")) parse_format(&p);
        else if (is_word(&p, "struct")) parse_struct(&p);
        else if (is_word(&p, "enum")) parse_enum(&p, 0);
        else if (is_word(&p, "flags")) parse_enum(&p, 1);
        else syntax(&p, "'format', 'struct', 'enum' or 'flags'");
    }
    if (p.failed || gen_error_count()) return NULL;
    if (!load_uses(p.s, path)) return NULL;
    return p.s;
}
