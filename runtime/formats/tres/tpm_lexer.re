/* tpm_lexer.re — the TPM (Trespasser Models) reader: an re2c scanner for
 * TPM tokens and the block grammar on top of it (Trespasser file formats, "TPM - Models":
 * Conventions, Elements, Fileinfo, Instance, Material, Mesh, Skin, Bone).
 *
 * Implements relic_tpm_parse of runtime/include/relic/relic_tpm.h (see there for the
 * conventions). The generated runtime/tpm_lexer.c is made by the Makefile
 * (re2c -W --no-generation-date -o runtime/tpm_lexer.c runtime/formats/tres/tpm_lexer.re).
 *
 * One pass: geometry arrays grow by doubling in the arena, so memory stays
 * linear in the input. Geometry statements (m, v, t, n, f of meshes and
 * skins) are read token by token on a fast path; any other property keeps
 * its value text up to the end of the line (or a `//` comment), classified
 * as a string, a number, a tuple of 2-4 numbers, or other text. The scanner
 * reads through a bounds-checked peek, so the input needs no terminator
 * and a NUL byte in it is an ordinary error. Numbers are converted by
 * relic_text_decimal (runtime/formats/tres/tres_text.h), not the locale's strtod. */
#include "relic_tpm.h"

#include <float.h>
#include <math.h>

#include "tres_text.h"

/* ---------------------------------------------------------------------- */
/* Scanner                                                                 */
/* ---------------------------------------------------------------------- */

typedef enum tpm_token {
    TOK_EOF,
    TOK_EOL,
    TOK_LBRACE,
    TOK_RBRACE,
    TOK_LPAREN,
    TOK_RPAREN,
    TOK_COMMA,
    TOK_EQ,
    TOK_INT,     /* digits */
    TOK_NUMBER,  /* a signed number, or one with a fraction or exponent */
    TOK_STRING,  /* "..." on one line */
    TOK_OPEN_STRING, /* a '"' with no closing one on its line */
    TOK_WORD,    /* [A-Za-z_$][A-Za-z0-9_$.-]* */
    TOK_COMMENT, /* // to the end of the line */
    TOK_BAD      /* anything else */
} tpm_token;

typedef struct tpm_lexer {
    const uint8_t *base;       /* first input byte */
    const uint8_t *cur;        /* next byte to scan */
    const uint8_t *lim;        /* one past the last input byte */
    const uint8_t *tok;        /* start of the last token */
    const uint8_t *mar;        /* re2c backtracking marker */
    const uint8_t *line_start; /* first byte of the current line */
    uint32_t line;             /* 1-based line of cur */
} tpm_lexer;

static tpm_token lex(tpm_lexer *l)
{
    for (;;) {
        l->tok = l->cur;
        /*!re2c
            re2c:api = custom;
            re2c:api:style = free-form;
            re2c:define:YYCTYPE = "uint8_t";
            re2c:define:YYPEEK = "(l->cur < l->lim ? *l->cur : 0)";
            re2c:define:YYSKIP = "++l->cur;";
            re2c:define:YYBACKUP = "l->mar = l->cur;";
            re2c:define:YYRESTORE = "l->cur = l->mar;";
            re2c:define:YYLESSTHAN = "(l->lim - l->cur < @@)";
            re2c:eof = 0;
            re2c:yyfill:enable = 0;

            digits = [0-9]+;
            frac   = digits "." [0-9]* | "." digits;
            exp    = [eE] [+-]? digits;
            number = [+-] (digits | frac) exp? | (frac exp? | digits exp);
            word   = [A-Za-z_$] [A-Za-z0-9_$.\-]*;

            $                       { return TOK_EOF; }
            [ \t\v\f]+              { continue; }
            "//" [^\r\n\x00]*       { return TOK_COMMENT; }
            "\r\n" | "\n" | "\r"    { return TOK_EOL; }
            "{"                     { return TOK_LBRACE; }
            "}"                     { return TOK_RBRACE; }
            "("                     { return TOK_LPAREN; }
            ")"                     { return TOK_RPAREN; }
            ","                     { return TOK_COMMA; }
            "="                     { return TOK_EQ; }
            digits                  { return TOK_INT; }
            number                  { return TOK_NUMBER; }
            ["] [^"\r\n\x00]* ["]   { return TOK_STRING; }
            ["] [^"\r\n\x00]*       { return TOK_OPEN_STRING; }
            word                    { return TOK_WORD; }
            *                       { return TOK_BAD; }
        */
    }
}

/* ---------------------------------------------------------------------- */
/* Parser state, errors                                                    */
/* ---------------------------------------------------------------------- */

/* The largest index of one kind in a block's faces, and where it stood. */
typedef struct index_max {
    uint32_t value;
    relic_text_pos pos;
} index_max;

typedef struct tpm_parser {
    tpm_lexer lx;
    const char *file;
    relic_error *err;
    relic_arena *arena;
    relic_tpm_file *out;
    uint32_t block_cap, comment_cap;
    int have_fileinfo;
    int pushed;             /* a token was pushed back */
    tpm_token pushed_tok;
    int newline_pending;    /* the last token was a line end: the line advances at the next token */
    size_t max_text;        /* longest text copied into the model (0 = no limit) */
} tpm_parser;

static relic_text_pos pos_at(const tpm_lexer *l, const uint8_t *at)
{
    relic_text_pos p;
    size_t col = (size_t)(at - l->line_start) + 1;
    p.line = l->line;
    p.col = col > UINT32_MAX ? UINT32_MAX : (uint32_t)col;
    p.offset = (uint64_t)(at - l->base);
    return p;
}

#define FAIL(p, at, code, ...) relic_text_fail((p)->err, (p)->file ? (p)->file : "<tpm>", pos_at(&(p)->lx, (at)), (code), __VA_ARGS__)

/* The token text for messages, shortened and made printable. */
static const char *token_text(const tpm_lexer *l, char *buf, size_t n)
{
    size_t len = (size_t)(l->cur - l->tok), i, k = 0;
    for (i = 0; i < len && k + 4 < n; i++) {
        uint8_t c = l->tok[i];
        buf[k++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    if (i < len && k + 3 < n) { buf[k++] = '.'; buf[k++] = '.'; buf[k++] = '.'; }
    buf[k] = '\0';
    return buf;
}

/* What a token is, for "found ...": quoted text, or a description. */
static const char *token_name(tpm_token t, const tpm_lexer *l, char *buf, size_t n)
{
    switch (t) {
    case TOK_EOF: return "the end of the file";
    case TOK_EOL: return "the end of the line";
    case TOK_COMMENT: return "a comment";
    default: {
        char inner[32];
        token_text(l, inner, sizeof inner);
        snprintf(buf, n, "'%s'", inner);
        return buf;
    }
    }
}

static tpm_token next(tpm_parser *p)
{
    if (p->pushed) {
        p->pushed = 0;
        return p->pushed_tok;
    }
    if (p->newline_pending) {
        /* applied only now, so that an error at a line end names its line */
        p->newline_pending = 0;
        if (p->lx.line < UINT32_MAX) p->lx.line++;
        p->lx.line_start = p->lx.cur;
    }
    tpm_token t = lex(&p->lx);
    p->newline_pending = t == TOK_EOL;
    return t;
}

static void push_back(tpm_parser *p, tpm_token t)
{
    p->pushed = 1;
    p->pushed_tok = t;
}

/* Grow an arena array of elem-byte elements to hold count + 1. */
static relic_status grow(tpm_parser *p, void **arr, uint32_t *cap, uint32_t count, size_t elem, size_t align,
                         const char *what)
{
    if (count < *cap) return RELIC_OK;
    if (count >= RELIC_TPM_MAX_ELEMENTS) return FAIL(p, p->lx.tok, RELIC_E_LIMIT, "more than %u %s", RELIC_TPM_MAX_ELEMENTS, what);
    uint32_t nc = *cap ? *cap * 2 : 16;
    if (nc > RELIC_TPM_MAX_ELEMENTS) nc = RELIC_TPM_MAX_ELEMENTS;
    void *n = relic_arena_array(p->arena, nc, elem, align);
    if (!n) return FAIL(p, p->lx.tok, RELIC_E_NOMEM, "no memory for %u %s", nc, what);
    if (count) memcpy(n, *arr, (size_t)count * elem);
    *arr = n;
    *cap = nc;
    return RELIC_OK;
}

static char *copy_text(tpm_parser *p, const uint8_t *s, size_t n)
{
    /* the copy doubles what the file costs: the caller's bound, before it is made */
    if (p->max_text && n > p->max_text) {
        FAIL(p, s, RELIC_E_LIMIT, "%zu bytes of text, over the limit of %zu", n, p->max_text);
        return NULL;
    }
    char *c = relic_arena_strndup(p->arena, (const char *)s, n);
    if (!c) FAIL(p, s, RELIC_E_NOMEM, "no memory for %zu bytes of text", n);
    return c;
}

/* Record the comment token just read. */
static relic_status add_comment(tpm_parser *p, uint32_t block, uint32_t prop)
{
    relic_tpm_file *f = p->out;
    relic_status st = grow(p, (void **)&f->comments, &p->comment_cap, f->comment_count, sizeof *f->comments,
                           _Alignof(relic_tpm_comment), "comments");
    if (st != RELIC_OK) return st;
    relic_tpm_comment *c = &f->comments[f->comment_count];
    c->len = (size_t)(p->lx.cur - p->lx.tok) - 2;
    if (!(c->text = copy_text(p, p->lx.tok + 2, c->len))) return p->err->code;
    c->block = block;
    c->prop = prop;
    f->comment_count++;
    return RELIC_OK;
}

/* ---------------------------------------------------------------------- */
/* Values                                                                  */
/* ---------------------------------------------------------------------- */

static relic_status number_value(tpm_parser *p, float *out)
{
    char buf[48];
    double d = relic_text_decimal(p->lx.tok, p->lx.cur);
    float f = (float)d;
    if (!isfinite(d) || isinf(f))
        return FAIL(p, p->lx.tok, RELIC_E_RANGE, "%s is outside the float range", token_text(&p->lx, buf, sizeof buf));
    *out = f;
    return RELIC_OK;
}

static relic_status index_value(tpm_parser *p, uint32_t *out)
{
    uint64_t v = 0;
    for (const uint8_t *s = p->lx.tok; s < p->lx.cur; s++) {
        v = v * 10 + (uint64_t)(*s - '0');
        if (v > UINT32_MAX) {
            char buf[48];
            return FAIL(p, p->lx.tok, RELIC_E_RANGE, "index %s is over 4294967295", token_text(&p->lx, buf, sizeof buf));
        }
    }
    *out = (uint32_t)v;
    return RELIC_OK;
}

static relic_status expect(tpm_parser *p, tpm_token want, const char *what, const char *in)
{
    char buf[48];
    tpm_token t = next(p);
    if (t == want) return RELIC_OK;
    return FAIL(p, p->lx.tok, RELIC_E_SYNTAX, "expected %s in %s, found %s", what, in, token_name(t, &p->lx, buf, sizeof buf));
}

/* (a,b[,c]) of n numbers. */
static relic_status tuple(tpm_parser *p, float *v, unsigned n, const char *in)
{
    relic_status st;
    char buf[48];
    if ((st = expect(p, TOK_LPAREN, "'('", in)) != RELIC_OK) return st;
    for (unsigned i = 0; i < n; i++) {
        if (i && (st = expect(p, TOK_COMMA, "','", in)) != RELIC_OK) return st;
        tpm_token t = next(p);
        if (t != TOK_INT && t != TOK_NUMBER)
            return FAIL(p, p->lx.tok, RELIC_E_SYNTAX, "expected a number in %s, found %s", in, token_name(t, &p->lx, buf, sizeof buf));
        if ((st = number_value(p, &v[i])) != RELIC_OK) return st;
    }
    return expect(p, TOK_RPAREN, "')'", in);
}

/* (i,j,k) of indices; max tracks the largest of each position's kind. */
static relic_status index_triple(tpm_parser *p, uint32_t v[3], index_max *max, int zero_ok, const char *what)
{
    relic_status st;
    char buf[48];
    if ((st = expect(p, TOK_LPAREN, "'('", "'f'")) != RELIC_OK) return st;
    for (unsigned i = 0; i < 3; i++) {
        if (i && (st = expect(p, TOK_COMMA, "','", "'f'")) != RELIC_OK) return st;
        tpm_token t = next(p);
        if (t != TOK_INT)
            return FAIL(p, p->lx.tok, RELIC_E_SYNTAX, "expected a %s index (an unsigned integer) in 'f', found %s", what,
                        token_name(t, &p->lx, buf, sizeof buf));
        if ((st = index_value(p, &v[i])) != RELIC_OK) return st;
        if (v[i] == 0 && !zero_ok)
            return FAIL(p, p->lx.tok, RELIC_E_INDEX, "%s index 0: indices are 1-based", what);
        if (v[i] > max->value) {
            max->value = v[i];
            max->pos = pos_at(&p->lx, p->lx.tok);
        }
    }
    return expect(p, TOK_RPAREN, "')'", "'f'");
}

/* After a statement: a comment, the end of the line or file, or '}'. */
static relic_status end_statement(tpm_parser *p, uint32_t block, uint32_t prop, const char *what)
{
    char buf[48];
    tpm_token t = next(p);
    if (t == TOK_COMMENT) {
        relic_status st = add_comment(p, block, prop);
        if (st != RELIC_OK) return st;
        t = next(p);
    }
    if (t == TOK_EOL || t == TOK_EOF || t == TOK_RBRACE) {
        if (t != TOK_EOL) push_back(p, t);
        return RELIC_OK;
    }
    return FAIL(p, p->lx.tok, RELIC_E_SYNTAX, "unexpected %s after %s", token_name(t, &p->lx, buf, sizeof buf), what);
}

/* How value text reads back (relic_tpm_write checks TEXT values with it). */
static relic_tpm_value_kind classify(const uint8_t *s, const uint8_t *end, float v[4], unsigned *count)
{
    tpm_lexer l;
    memset(&l, 0, sizeof l);
    l.base = l.cur = l.line_start = s;
    l.lim = end;
    l.line = 1;
    *count = 0;
    tpm_token t = lex(&l);
    if (t == TOK_STRING) return lex(&l) == TOK_EOF ? RELIC_TPM_STRING : RELIC_TPM_TEXT;
    if (t == TOK_INT || t == TOK_NUMBER) {
        double d = relic_text_decimal(l.tok, l.cur);
        if (lex(&l) != TOK_EOF || !isfinite(d) || isinf((float)d)) return RELIC_TPM_TEXT;
        v[0] = (float)d;
        *count = 1;
        return RELIC_TPM_NUMBER;
    }
    if (t != TOK_LPAREN) return RELIC_TPM_TEXT;
    unsigned n = 0;
    for (;;) {
        t = lex(&l);
        if (t != TOK_INT && t != TOK_NUMBER) return RELIC_TPM_TEXT;
        double d = relic_text_decimal(l.tok, l.cur);
        if (n == 4 || !isfinite(d) || isinf((float)d)) return RELIC_TPM_TEXT;
        v[n++] = (float)d;
        t = lex(&l);
        if (t == TOK_RPAREN) break;
        if (t != TOK_COMMA) return RELIC_TPM_TEXT;
    }
    if (n < 2 || lex(&l) != TOK_EOF) return RELIC_TPM_TEXT;
    *count = n;
    return RELIC_TPM_TUPLE;
}

/* A property other than geometry: the value is the rest of the line up to
 * a comment, trimmed. */
static relic_status generic_prop(tpm_parser *p, relic_tpm_block *b, uint32_t block_index, uint32_t *prop_cap,
                                 const uint8_t *key, size_t key_len)
{
    relic_status st;
    if ((st = expect(p, TOK_EQ, "'='", "a property")) != RELIC_OK) return st;
    tpm_lexer *l = &p->lx;
    const uint8_t *s = l->cur, *e;
    while (s < l->lim && (*s == ' ' || *s == '\t' || *s == '\v' || *s == '\f')) s++;
    e = s;
    const uint8_t *comment = NULL;
    while (e < l->lim && *e != '\n' && *e != '\r') {
        if (*e == 0) return FAIL(p, e, RELIC_E_SYNTAX, "NUL byte in a property value");
        if (*e == '"') {
            const uint8_t *q = e + 1;
            while (q < l->lim && *q != '"' && *q != '\n' && *q != '\r' && *q != 0) q++;
            if (q >= l->lim || *q != '"') return FAIL(p, e, RELIC_E_SYNTAX, "string without its closing '\"'");
            e = q + 1;
            continue;
        }
        if (*e == '/' && e + 1 < l->lim && e[1] == '/') { comment = e; break; }
        e++;
    }
    const uint8_t *stop = e;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\v' || e[-1] == '\f')) e--;
    if (e == s) return FAIL(p, s, RELIC_E_SYNTAX, "property '%.*s' has no value", (int)(key_len > 64 ? 64 : key_len), key);
    if ((st = grow(p, (void **)&b->props, prop_cap, b->prop_count, sizeof *b->props, _Alignof(relic_tpm_prop), "properties")) != RELIC_OK)
        return st;
    relic_tpm_prop *pr = &b->props[b->prop_count];
    memset(pr, 0, sizeof *pr);
    pr->kind = classify(s, e, pr->v, &pr->count);
    if (!(pr->key = copy_text(p, key, key_len))) return p->err->code;
    if (pr->kind == RELIC_TPM_STRING) { s++; e--; }
    pr->text_len = (size_t)(e - s);
    if (!(pr->text = copy_text(p, s, pr->text_len))) return p->err->code;
    b->prop_count++;
    /* continue scanning after the value: a comment, then the line end */
    l->cur = stop;
    if (comment) {
        tpm_token t = next(p);
        (void)t; /* the comment token */
        if ((st = add_comment(p, block_index, b->prop_count)) != RELIC_OK) return st;
    }
    return end_statement(p, block_index, b->prop_count, "a property value");
}

/* ---------------------------------------------------------------------- */
/* Fast path for geometry statements                                       */
/* ---------------------------------------------------------------------- */

/* Geometry lines are nearly all of a large file. They are first read by a
 * direct scan that converts numbers as it goes; anything it does not
 * expect (an error, an unusual number, a comment) sends the statement back
 * to the token path above, which reads it again and reports what is wrong.
 * The fast scan accepts exactly what the token path accepts. */

static const double fast_pow10[23] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

static const uint8_t *fast_space(const uint8_t *s, const uint8_t *lim)
{
    while (s < lim && (*s == ' ' || *s == '\t')) s++;
    return s;
}

/* A number as the scanner's int or number token: [+-]? (digits ("."
 * [0-9]*)? | "." digits) ([eE] [+-]? digits)?, rounded to float. NULL when
 * it is not one or is outside what is converted exactly here (more than 15
 * significant digits, exponent beyond 22): the token path handles those. */
static const uint8_t *fast_number(const uint8_t *s, const uint8_t *lim, float *out)
{
    int neg = 0;
    if (s < lim && (*s == '-' || *s == '+')) neg = *s++ == '-';
    uint64_t m = 0;
    int digits = 0, frac = 0, any = 0;
    while (s < lim && (unsigned)(*s - '0') < 10) {
        m = m * 10 + (unsigned)(*s++ - '0');
        digits += m != 0;
        any = 1;
    }
    if (s < lim && *s == '.') {
        s++;
        while (s < lim && (unsigned)(*s - '0') < 10) {
            m = m * 10 + (unsigned)(*s++ - '0');
            digits += m != 0;
            frac++;
            any = 1;
        }
    }
    if (!any || digits > 15) return NULL;
    int e = -frac;
    if (s < lim && (*s == 'e' || *s == 'E')) {
        const uint8_t *q = s + 1;
        int eneg = 0, ev = 0, ed = 0;
        if (q < lim && (*q == '-' || *q == '+')) eneg = *q++ == '-';
        while (q < lim && (unsigned)(*q - '0') < 10 && ed < 4) { ev = ev * 10 + (*q++ - '0'); ed++; }
        if (ed == 0 || ed == 4) return NULL;
        e += eneg ? -ev : ev;
        s = q;
    }
    if (s < lim && ((unsigned)(*s - '0') < 10 || *s == '.' || *s == 'e' || *s == 'E' || *s == '_' || (*s | 32) >= 'a')) return NULL;
    double d = (double)m;
    if (e < -22 || e > 22) return NULL;
    d = e < 0 ? d / fast_pow10[-e] : d * fast_pow10[e];
    float f = (float)(neg ? -d : d);
    if (isinf(f)) return NULL;
    *out = f;
    return s;
}

static const uint8_t *fast_index(const uint8_t *s, const uint8_t *lim, uint32_t *out)
{
    uint64_t v = 0;
    const uint8_t *start = s;
    while (s < lim && (unsigned)(*s - '0') < 10 && s - start < 10) v = v * 10 + (unsigned)(*s++ - '0');
    if (s == start || v > UINT32_MAX || (s < lim && ((unsigned)(*s - '0') < 10 || *s == '.' || (*s | 32) == 'e'))) return NULL;
    *out = (uint32_t)v;
    return s;
}

/* "= (a,b,...)" of n numbers; returns the byte after ')' or NULL. */
static const uint8_t *fast_tuple(const uint8_t *s, const uint8_t *lim, float *v, unsigned n)
{
    s = fast_space(s, lim);
    if (s >= lim || *s != '=') return NULL;
    s = fast_space(s + 1, lim);
    if (s >= lim || *s != '(') return NULL;
    for (unsigned i = 0; i < n; i++) {
        s = fast_space(s + (i ? 1 : 1), lim);
        if (!(s = fast_number(s, lim, &v[i]))) return NULL;
        s = fast_space(s, lim);
        if (s >= lim || *s != (i + 1 < n ? ',' : ')')) return NULL;
    }
    return s + 1;
}

/* The statement must end here: a line end or the end of the input (a
 * comment or '}' go to the token path, which handles them). */
static int fast_end(const uint8_t *s, const uint8_t *lim)
{
    s = fast_space(s, lim);
    return s == lim || *s == '\n' || *s == '\r';
}

static const uint8_t *fast_triple(tpm_parser *p, const uint8_t *s, const uint8_t *lim, uint32_t v[3], index_max *max, int zero_ok)
{
    if (s >= lim || *s != '(') return NULL;
    for (unsigned i = 0; i < 3; i++) {
        s = fast_space(s + 1, lim);
        const uint8_t *at = s;
        if (!(s = fast_index(s, lim, &v[i])) || (v[i] == 0 && !zero_ok)) return NULL;
        if (v[i] > max->value) {
            max->value = v[i];
            max->pos = pos_at(&p->lx, at);
        }
        s = fast_space(s, lim);
        if (s >= lim || *s != (i < 2 ? ',' : ')')) return NULL;
    }
    return s + 1;
}

/* ---------------------------------------------------------------------- */
/* Blocks                                                                  */
/* ---------------------------------------------------------------------- */

typedef struct geometry_caps {
    uint32_t m, v, t, n, f;
    index_max max_v, max_t, max_n, max_m;
} geometry_caps;

/* Room for the geometry of the block starting at s, sized before it is
 * read: each statement is one line, so the lines of the block whose first
 * word is m, v, t, n or f bound their counts (the block ends at the first
 * line starting with '}'). Arrays of that size are allocated at once
 * instead of doubling, which saves copying and zero-filling them again; a
 * count beyond the estimate (a malformed block) still grows by doubling.
 * The scan is bounded by the input and only counts. */
static relic_status presize(tpm_parser *p, relic_tpm_block *b, geometry_caps *g, const uint8_t *s)
{
    const uint8_t *lim = p->lx.lim;
    uint64_t n[5] = { 0, 0, 0, 0, 0 };
    while (s < lim) {
        while (s < lim && (*s == ' ' || *s == '\t')) s++;
        if (s < lim && *s == '}') break;
        const uint8_t *nl = memchr(s, '\n', (size_t)(lim - s));
        size_t len = (size_t)((nl ? nl : lim) - s);
        /* a line counts only when it is long enough for its shortest valid
         * form (m="", v=(0,0,0), t=(0,0), n=(0,0,0),
         * f=(1,1,1),(0,0,0),(0,0,0),0), so the arrays never take more
         * than about 1.6 bytes per input byte */
        if (s + 1 < lim && (s[1] == ' ' || s[1] == '\t' || s[1] == '=')) {
            switch (*s) {
            case 'm': n[0] += len >= 4; break;
            case 'v': n[1] += len >= 9; break;
            case 't': n[2] += len >= 7; break;
            case 'n': n[3] += len >= 9; break;
            case 'f': n[4] += len >= 28; break;
            default: break;
            }
        }
        s = nl ? nl + 1 : lim;
    }
    for (int k = 0; k < 5; k++)
        if (n[k] > RELIC_TPM_MAX_ELEMENTS) n[k] = RELIC_TPM_MAX_ELEMENTS;
    relic_status st = RELIC_OK;
#define PRESIZE(cnt, arr, cap, what)                                                                                      \
    if (st == RELIC_OK && (cnt) > 16) {                                                                                    \
        void *x = relic_arena_array(p->arena, (size_t)(cnt), sizeof *(arr), 16);                                           \
        if (!x) st = FAIL(p, p->lx.tok, RELIC_E_NOMEM, "no memory for %llu %s", (unsigned long long)(cnt), what);          \
        else { (arr) = x; (cap) = (uint32_t)(cnt); }                                                                       \
    }
    PRESIZE(n[0], b->materials, g->m, "materials")
    PRESIZE(n[1], b->vertices, g->v, "vertices")
    if (b->kind == RELIC_TPM_SKIN) { uint32_t c = 0; PRESIZE(n[1], b->bones, c, "vertices") (void)c; }
    PRESIZE(n[2], b->texcoords, g->t, "texture coordinates")
    PRESIZE(n[3], b->normals, g->n, "normals")
    PRESIZE(n[4], b->faces, g->f, "faces")
#undef PRESIZE
    return st;
}

static int key_is(const uint8_t *k, size_t n, char c) { return n == 1 && k[0] == (uint8_t)c; }

/* One geometry statement of a mesh or skin; key is m, v, t, n or f. */
static relic_status geometry(tpm_parser *p, relic_tpm_block *b, uint32_t bi, geometry_caps *g, char key)
{
    relic_status st;
    char buf[48];
    const uint8_t *s = p->lx.cur, *lim = p->lx.lim, *e = NULL;
    if (key == 'v' && b->kind == RELIC_TPM_MESH) {
        if ((st = grow(p, (void **)&b->vertices, &g->v, b->vertex_count, sizeof *b->vertices, _Alignof(float), "vertices")) != RELIC_OK)
            return st;
        e = fast_tuple(s, lim, b->vertices[b->vertex_count], 3);
        if (e && fast_end(e, lim)) b->vertex_count++;
        else e = NULL;
    } else if (key == 't') {
        if ((st = grow(p, (void **)&b->texcoords, &g->t, b->texcoord_count, sizeof *b->texcoords, _Alignof(float), "texture coordinates")) != RELIC_OK)
            return st;
        e = fast_tuple(s, lim, b->texcoords[b->texcoord_count], 2);
        if (e && fast_end(e, lim)) b->texcoord_count++;
        else e = NULL;
    } else if (key == 'n') {
        if ((st = grow(p, (void **)&b->normals, &g->n, b->normal_count, sizeof *b->normals, _Alignof(float), "normals")) != RELIC_OK)
            return st;
        e = fast_tuple(s, lim, b->normals[b->normal_count], 3);
        if (e && fast_end(e, lim)) b->normal_count++;
        else e = NULL;
    } else if (key == 'f') {
        if ((st = grow(p, (void **)&b->faces, &g->f, b->face_count, sizeof *b->faces, _Alignof(relic_tpm_face), "faces")) != RELIC_OK)
            return st;
        relic_tpm_face *f = &b->faces[b->face_count];
        index_max mv = g->max_v, mt = g->max_t, mn = g->max_n, mm = g->max_m;
        e = fast_space(s, lim);
        if (e < lim && *e == '=') e = fast_space(e + 1, lim);
        else e = NULL;
        if (e) e = fast_triple(p, e, lim, f->v, &mv, 0);
        if (e && (e = fast_space(e, lim)) < lim && *e == ',') e = fast_triple(p, fast_space(e + 1, lim), lim, f->t, &mt, 1);
        else e = NULL;
        if (e && (e = fast_space(e, lim)) < lim && *e == ',') e = fast_triple(p, fast_space(e + 1, lim), lim, f->n, &mn, 1);
        else e = NULL;
        if (e && (e = fast_space(e, lim)) < lim && *e == ',') {
            const uint8_t *at = e = fast_space(e + 1, lim);
            e = fast_index(e, lim, &f->material);
            if (e && f->material > mm.value) {
                mm.value = f->material;
                mm.pos = pos_at(&p->lx, at);
            }
        } else {
            e = NULL;
        }
        if (e && fast_end(e, lim)) {
            g->max_v = mv;
            g->max_t = mt;
            g->max_n = mn;
            g->max_m = mm;
            b->face_count++;
        } else {
            e = NULL;
        }
    }
    if (e) {
        p->lx.cur = e;
        return end_statement(p, bi, b->prop_count, "a geometry statement");
    }
    if ((st = expect(p, TOK_EQ, "'='", key == 'f' ? "'f'" : key == 'v' ? "'v'" : key == 't' ? "'t'" : key == 'n' ? "'n'" : "'m'")) != RELIC_OK)
        return st;
    switch (key) {
    case 'm': {
        tpm_token t = next(p);
        if (t == TOK_OPEN_STRING) return FAIL(p, p->lx.tok, RELIC_E_SYNTAX, "string without its closing '\"'");
        if (t != TOK_STRING)
            return FAIL(p, p->lx.tok, RELIC_E_SYNTAX, "expected a material name string in 'm', found %s",
                        token_name(t, &p->lx, buf, sizeof buf));
        if ((st = grow(p, (void **)&b->materials, &g->m, b->material_count, sizeof *b->materials, _Alignof(char *), "materials")) != RELIC_OK)
            return st;
        if (!(b->materials[b->material_count] = copy_text(p, p->lx.tok + 1, (size_t)(p->lx.cur - p->lx.tok) - 2))) return p->err->code;
        b->material_count++;
        return end_statement(p, bi, b->prop_count, "'m'");
    }
    case 'v': {
        uint32_t cap = g->v;
        if ((st = grow(p, (void **)&b->vertices, &g->v, b->vertex_count, sizeof *b->vertices, _Alignof(float), "vertices")) != RELIC_OK)
            return st;
        if (b->kind == RELIC_TPM_SKIN && g->v != cap) {
            uint32_t c2 = cap;
            if ((st = grow(p, (void **)&b->bones, &c2, b->vertex_count, sizeof *b->bones, _Alignof(uint32_t), "vertices")) != RELIC_OK)
                return st;
        }
        if ((st = tuple(p, b->vertices[b->vertex_count], 3, "'v'")) != RELIC_OK) return st;
        if (b->kind == RELIC_TPM_SKIN) {
            if ((st = expect(p, TOK_COMMA, "',' and the bone index", "a skin's 'v'")) != RELIC_OK) return st;
            tpm_token t = next(p);
            if (t != TOK_INT)
                return FAIL(p, p->lx.tok, RELIC_E_SYNTAX, "expected a bone index in a skin's 'v', found %s", token_name(t, &p->lx, buf, sizeof buf));
            if ((st = index_value(p, &b->bones[b->vertex_count])) != RELIC_OK) return st;
        }
        b->vertex_count++;
        return end_statement(p, bi, b->prop_count, "'v'");
    }
    case 't':
        if ((st = grow(p, (void **)&b->texcoords, &g->t, b->texcoord_count, sizeof *b->texcoords, _Alignof(float), "texture coordinates")) != RELIC_OK)
            return st;
        if ((st = tuple(p, b->texcoords[b->texcoord_count], 2, "'t'")) != RELIC_OK) return st;
        b->texcoord_count++;
        return end_statement(p, bi, b->prop_count, "'t'");
    case 'n':
        if ((st = grow(p, (void **)&b->normals, &g->n, b->normal_count, sizeof *b->normals, _Alignof(float), "normals")) != RELIC_OK)
            return st;
        if ((st = tuple(p, b->normals[b->normal_count], 3, "'n'")) != RELIC_OK) return st;
        b->normal_count++;
        return end_statement(p, bi, b->prop_count, "'n'");
    default: {
        if ((st = grow(p, (void **)&b->faces, &g->f, b->face_count, sizeof *b->faces, _Alignof(relic_tpm_face), "faces")) != RELIC_OK)
            return st;
        relic_tpm_face *f = &b->faces[b->face_count];
        if ((st = index_triple(p, f->v, &g->max_v, 0, "vertex")) != RELIC_OK) return st;
        if ((st = expect(p, TOK_COMMA, "','", "'f'")) != RELIC_OK) return st;
        if ((st = index_triple(p, f->t, &g->max_t, 1, "texture coordinate")) != RELIC_OK) return st;
        if ((st = expect(p, TOK_COMMA, "','", "'f'")) != RELIC_OK) return st;
        if ((st = index_triple(p, f->n, &g->max_n, 1, "normal")) != RELIC_OK) return st;
        if ((st = expect(p, TOK_COMMA, "','", "'f'")) != RELIC_OK) return st;
        tpm_token t = next(p);
        if (t != TOK_INT)
            return FAIL(p, p->lx.tok, RELIC_E_SYNTAX, "expected a material index in 'f', found %s", token_name(t, &p->lx, buf, sizeof buf));
        if ((st = index_value(p, &f->material)) != RELIC_OK) return st;
        if (f->material > g->max_m.value) {
            g->max_m.value = f->material;
            g->max_m.pos = pos_at(&p->lx, p->lx.tok);
        }
        b->face_count++;
        return end_statement(p, bi, b->prop_count, "'f'");
    }
    }
}

static relic_status check_max(tpm_parser *p, const relic_tpm_block *b, const index_max *m, uint32_t count, const char *what,
                              const char *plural)
{
    if (m->value <= count) return RELIC_OK;
    return relic_text_fail(p->err, p->file ? p->file : "<tpm>", m->pos, RELIC_E_INDEX, "%s index %u is past the %u %s of %s \"%s\"",
                           what, m->value, count, plural, relic_tpm_kind_name(b->kind), b->name ? b->name : "");
}

static const struct { const char *word; relic_tpm_kind kind; } keywords[] = {
    { "fileinfo", RELIC_TPM_FILEINFO }, { "instance", RELIC_TPM_INSTANCE }, { "material", RELIC_TPM_MATERIAL },
    { "mesh", RELIC_TPM_MESH },         { "skin", RELIC_TPM_SKIN },         { "bone", RELIC_TPM_BONE },
};

static int word_ieq(const uint8_t *s, size_t n, const char *w)
{
    size_t i;
    for (i = 0; i < n && w[i]; i++) {
        uint8_t c = s[i];
        if (c >= 'A' && c <= 'Z') c = (uint8_t)(c + 32);
        if (c != (uint8_t)w[i]) return 0;
    }
    return i == n && w[i] == 0;
}

static relic_status block(tpm_parser *p)
{
    relic_status st;
    char buf[48];
    relic_tpm_file *f = p->out;
    const uint8_t *kw = p->lx.tok;
    size_t kn = (size_t)(p->lx.cur - p->lx.tok);
    int k = -1;
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (word_ieq(kw, kn, keywords[i].word)) k = (int)i;
    if (k < 0)
        return FAIL(p, kw, RELIC_E_SYNTAX, "unknown block '%s' (fileinfo, instance, material, mesh, skin or bone)",
                    token_text(&p->lx, buf, sizeof buf));
    if ((st = grow(p, (void **)&f->blocks, &p->block_cap, f->block_count, sizeof *f->blocks, _Alignof(relic_tpm_block), "blocks")) != RELIC_OK)
        return st;
    uint32_t bi = f->block_count;
    relic_tpm_block *b = &f->blocks[bi];
    memset(b, 0, sizeof *b);
    b->kind = keywords[k].kind;
    relic_text_pos wp = pos_at(&p->lx, kw);
    b->where.line = wp.line;
    b->where.col = wp.col;
    b->where.offset = wp.offset;
    if (b->kind == RELIC_TPM_FILEINFO) {
        if (p->have_fileinfo) return FAIL(p, kw, RELIC_E_SYNTAX, "a second fileinfo block (a file has at most one)");
        p->have_fileinfo = 1;
    } else {
        tpm_token t = next(p);
        if (t == TOK_OPEN_STRING) return FAIL(p, p->lx.tok, RELIC_E_SYNTAX, "string without its closing '\"'");
        if (t != TOK_STRING)
            return FAIL(p, p->lx.tok, RELIC_E_SYNTAX, "expected the name of the %s as a string, found %s", keywords[k].word,
                        token_name(t, &p->lx, buf, sizeof buf));
        b->name_len = (size_t)(p->lx.cur - p->lx.tok) - 2;
        if (!(b->name = copy_text(p, p->lx.tok + 1, b->name_len))) return p->err->code;
    }
    f->block_count++; /* comments before '{' belong inside it */
    tpm_token t;
    while ((t = next(p)) == TOK_EOL || t == TOK_COMMENT)
        if (t == TOK_COMMENT && (st = add_comment(p, bi, 0)) != RELIC_OK) return st;
    if (t != TOK_LBRACE)
        return FAIL(p, p->lx.tok, RELIC_E_SYNTAX, "expected '{' to open %s, found %s", keywords[k].word, token_name(t, &p->lx, buf, sizeof buf));
    int geo = b->kind == RELIC_TPM_MESH || b->kind == RELIC_TPM_SKIN;
    geometry_caps g;
    memset(&g, 0, sizeof g);
    if (geo && (st = presize(p, b, &g, p->lx.cur)) != RELIC_OK) return st;
    uint32_t prop_cap = 0;
    for (;;) {
        t = next(p);
        if (t == TOK_EOL) continue;
        if (t == TOK_RBRACE) break;
        if (t == TOK_COMMENT) {
            if ((st = add_comment(p, bi, b->prop_count)) != RELIC_OK) return st;
            continue;
        }
        if (t == TOK_EOF)
            return relic_text_fail(p->err, p->file ? p->file : "<tpm>", wp, RELIC_E_SYNTAX, "%s has no closing '}'", keywords[k].word);
        if (t != TOK_WORD)
            return FAIL(p, p->lx.tok, RELIC_E_SYNTAX, "expected a property or '}' in %s, found %s", keywords[k].word,
                        token_name(t, &p->lx, buf, sizeof buf));
        const uint8_t *key = p->lx.tok;
        size_t key_len = (size_t)(p->lx.cur - p->lx.tok);
        if (geo && key_len == 1 && (key_is(key, 1, 'm') || key_is(key, 1, 'v') || key_is(key, 1, 't') || key_is(key, 1, 'n') || key_is(key, 1, 'f')))
            st = geometry(p, b, bi, &g, (char)key[0]);
        else
            st = generic_prop(p, b, bi, &prop_cap, key, key_len);
        if (st != RELIC_OK) return st;
    }
    if ((st = check_max(p, b, &g.max_v, b->vertex_count, "vertex", "vertices")) != RELIC_OK ||
        (st = check_max(p, b, &g.max_t, b->texcoord_count, "texture coordinate", "texture coordinates")) != RELIC_OK ||
        (st = check_max(p, b, &g.max_n, b->normal_count, "normal", "normals")) != RELIC_OK ||
        (st = check_max(p, b, &g.max_m, b->material_count, "material", "materials")) != RELIC_OK)
        return st;
    /* after '}': a comment or the end of the line */
    t = next(p);
    if (t == TOK_COMMENT) {
        if ((st = add_comment(p, f->block_count, RELIC_TPM_OUTSIDE)) != RELIC_OK) return st;
        t = next(p);
    }
    if (t != TOK_EOL && t != TOK_EOF)
        return FAIL(p, p->lx.tok, RELIC_E_SYNTAX, "unexpected %s after the closing '}'", token_name(t, &p->lx, buf, sizeof buf));
    if (t == TOK_EOF) push_back(p, t);
    return RELIC_OK;
}

relic_status relic_tpm_parse(const char *file, const uint8_t *data, size_t size, relic_arena *a, relic_tpm_file *out,
                             relic_error *err)
{
    return relic_tpm_parse_max_text(file, data, size, RELIC_TPM_DEFAULT_MAX_TEXT, a, out, err);
}

relic_status relic_tpm_parse_max_text(const char *file, const uint8_t *data, size_t size, size_t max_text, relic_arena *a,
                                      relic_tpm_file *out, relic_error *err)
{
    if (!out || !a || (!data && size)) {
        if (out) memset(out, 0, sizeof *out);
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "relic_tpm_parse: NULL argument");
    }
    memset(out, 0, sizeof *out);
    tpm_parser p;
    memset(&p, 0, sizeof p);
    p.lx.base = p.lx.cur = p.lx.line_start = data ? data : (const uint8_t *)"";
    p.lx.lim = p.lx.base + size;
    p.lx.line = 1;
    p.file = file;
    p.err = err;
    p.arena = a;
    p.out = out;
    p.max_text = max_text;
    relic_status st = RELIC_OK;
    char buf[48];
    for (;;) {
        tpm_token t = next(&p);
        if (t == TOK_EOF) break;
        if (t == TOK_EOL) continue;
        if (t == TOK_COMMENT) {
            if ((st = add_comment(&p, out->block_count, RELIC_TPM_OUTSIDE)) != RELIC_OK) break;
            continue;
        }
        if (t != TOK_WORD) {
            st = FAIL(&p, p.lx.tok, RELIC_E_SYNTAX, "expected a block (fileinfo, instance, material, mesh, skin, bone), found %s",
                      token_name(t, &p.lx, buf, sizeof buf));
            break;
        }
        if ((st = block(&p)) != RELIC_OK) break;
    }
    if (st != RELIC_OK) memset(out, 0, sizeof *out);
    return st;
}

relic_tpm_value_kind relic_tpm_classify(const char *s, size_t n, float v[4], unsigned *count)
{
    return classify((const uint8_t *)s, (const uint8_t *)s + n, v, count);
}
