/* mutate_tokens.c — a token-level mutator for the line-oriented text
 * formats (issue 8): TPM scene files (Trespasser file formats, "TPM - Models"), TRI
 * triangulations and TRR point clouds (Trespasser source, Lib/Std/Hash.cpp, seed
 * 004 "TRI", "TRR"). The model-level mutators of mutate_text.c print what
 * they change in the writers' one normalised spelling; this one edits the
 * text itself, so the lexers' other spellings are reached: number forms
 * (signs, leading zeros, "5.", ".5", exponents e/E with +/-, long digit
 * runs, values at and past the float, double and u32 limits, subnormals,
 * NaN and infinity words), keywords in other letter cases, tabs, \v, \f,
 * CR and CRLF line ends, comments, open strings and bad bytes, and lines
 * moved, repeated, dropped or taken from a second file.
 *
 * The text is split into tokens (numbers, words, "strings", // comments,
 * punctuation, blank runs, line ends); each change picks one operation of
 * the table `ops` below, which replaces one byte range of the text (a
 * splice); the text is split again before the next change. Deterministic
 * for (input, second input, seed, flags); never more than max bytes out. */
#include <stdio.h>
#include <string.h>

#include "mutate_arena.h"
#include "relic_mutate_formats.h"

/* ---- vocabularies ---- */

#define COUNT(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

/* TPM: block keywords and the properties of Trespasser file formats, "TPM - Models"
 * (fileinfo, instance, material, mesh, skin, bone), the geometry keys. */
/* clang-format off */
static const char *const tpm_words[] = {
    "fileinfo", "instance", "material", "mesh", "skin", "bone", "m", "v", "t", "n", "f",
    "formatversion", "name", "version", "source", "date", "comments", "position", "rotation", "scale",
    "colormap", "bumpmap", "Anim00", "Anim01", "Ratio", "RotationRatio", "PM", "$J", "_", "x.y-z",
};
/* clang-format on */
static const char *const tpm_punct[] = {"{", "}", "(", ")", ",", "=", "\"", "\"\"", "//", "/", "-", "+", "."};
static const char *const tpm_lines[] = {
    "fileinfo",
    "{",
    "}",
    "{ }",
    "} // end",
    "// comment",
    "//",
    " formatversion = 1.0.1",
    " name = \"x\"",
    " version = 0.1.3",
    " date = 7/2/2007 6:03:23 PM",
    " comments = \"a // b\"",
    " mesh = \"a\"",
    " position = (0,0,0)",
    " rotation = (0,0,0)",
    " scale = 1",
    " colormap = \"c.bmp\"",
    " bumpmap = \"b.bmp\"",
    " Anim00 = 7",
    " x = (1,2)",
    " x = (1,2,3,4)",
    " x = (1,2,3,4,5)",
    " x = (1,)",
    " x = ()",
    " x = \"open",
    " x = 1e39",
    " x = -",
    " x =",
    " x = \"a\" \"b\"",
    " m = \"x\"",
    " m = \"\"",
    " m = x",
    " v = (0,0,0)",
    " v = (0,0,0),1",
    " v = (0,0,0),",
    " v = (1e38,-1e38,.5)",
    " t = (0,0)",
    " t = (0,0,0)",
    " n = (0,0,1)",
    " n = (0,0)",
    " f = (1,1,1),(1,1,1),(1,1,1),1",
    " f = (1,1,1),(0,0,0),(0,0,0),0",
    " f = (1,2,3),(0,0,0),(0,0,0),4294967295",
    " f = (0,1,1),(0,0,0),(0,0,0),0",
    " f = (1,1),(0,0,0),(0,0,0),0",
    " f = (1,1,1),(0,0,0),(0,0,0)",
    " f = (1,1,1)(0,0,0),(0,0,0),0",
    "mesh \"a\"",
    "skin \"s\"",
    "bone \"$J\"",
    "instance \"i\"",
    "material \"m\"",
    "mesh",
    "mesh \"a\" {",
    "mesh \"q\"\n{\n m = \"x\"\n v = (0,0,0)\n t = (0,0)\n n = (0,0,1)\n f = (1,1,1),(1,1,1),(1,1,1),1\n}",
    "skin \"q\"\n{\n v = (0,0,0),2\n f = (1,1,1),(0,0,0),(0,0,0),0\n}",
    "fileinfo\n{\n formatversion = 1.0.1\n}",
};

/* TRI: a count, index triples, a count, coordinate triples (all numbers). */
static const char *const tri_words[] = {"nan", "inf", "e", "x"};
static const char *const tri_punct[] = {"-", "+", ".", ",", "(", ")"};
/* clang-format off */
static const char *const tri_lines[] = {
    "0", "1", "2", "3", "0 1 2", "2 1 0", "0 0 0", "1 2 3", "4294967295", "4294967296", "-0", "+1", "-1", "1e0",
    "0.5", "0 0", "1e30 1e30 1e30", "-1e30 0 1",
};
/* clang-format on */

/* TRR: "X Y Z" triples read three values at a time; a first -1 marks the
 * obsolete format. */
static const char *const trr_words[] = {"nan", "inf", "e", "x"};
static const char *const trr_punct[] = {"-", "+", ".", ",", "(", ")"};
/* clang-format off */
static const char *const trr_lines[] = {
    "0 0 0", "-1 0 0", "1 1 1", "0 0", "0", "1e30 1e30 1e30", "1e31 0 0", "0 0 1e31", "-1e30 -1e30 -1e30",
    "4.9e-324 0 0", "0 0 4.9e-324", "1e9 1e9 0", "-1e9 -1e9 0", "0.125 0.125 0.125", "65535 65535 65535",
    "65536 0 -65536", "1e-300 1e-300 1", "3 3 3\n3 3 3",
};
/* clang-format on */

const relic_token_vocab relic_tokens_tpm = {
    "tpm",
    tpm_words,
    COUNT(tpm_words),
    tpm_punct,
    COUNT(tpm_punct),
    tpm_lines,
    COUNT(tpm_lines),
};
const relic_token_vocab relic_tokens_tri = {
    "tri",
    tri_words,
    COUNT(tri_words),
    tri_punct,
    COUNT(tri_punct),
    tri_lines,
    COUNT(tri_lines),
};
const relic_token_vocab relic_tokens_trr = {
    "trr",
    trr_words,
    COUNT(trr_words),
    trr_punct,
    COUNT(trr_punct),
    trr_lines,
    COUNT(trr_lines),
};

/* Numbers at the limits the readers check: float and double range ends,
 * subnormals, u32 and 64-bit integer ends, exactly-representable edges. */
/* clang-format off */
static const char *const special_numbers[] = {
    "0", "-0", "+0", "0.0", "-0.0", "1", "-1", "2", "255", "256", "65535", "65536", "2147483647", "2147483648",
    "-2147483648", "4294967295", "4294967296", "18446744073709551615", "18446744073709551616",
    "99999999999999999999", "3.4028235e38", "3.4028236e38", "-3.4028235e38", "3.5e38", "1e38", "1e39",
    "1.7976931348623157e308", "1.8e308", "1e309", "-1e309", "1.17549435e-38", "1.4e-45", "7e-46", "1e-50",
    "2.2250738585072014e-308", "4.9e-324", "2e-324", "1e-400", "1e30", "1.0000001e30", "-1e30", "0.1", "0.5",
    ".5", "5.", "1e-7", "16777216", "16777217", "9007199254740993", "123456789012345678", "1E+2", "+.5e-3",
};
/* clang-format on */
/* Text that is almost a number. */
/* clang-format off */
static const char *const broken_numbers[] = {
    "1e", "1e+", "-", ".", "+.", "1.2.3", "--1", "+-1", "0x1F", "1,5", "1_0", "nan", "NaN", "inf", "-inf",
    "INF", "infinity", "1e-", "e5", ".e1", "1..2", "1e99999", "1e-99999", "1ee2", "1.e", "-.",
};
/* clang-format on */
static const char *const blanks[] = {"", " ", "\t", "\v", "\f", "  ", " \t\v\f ", "\t\t"};
static const char *const line_ends[] = {"\n", "\r\n", "\r", "\n\r", "\n\n", "\r\r\n", "", " \n", "\t\r\n"};
static const char *const bad_bytes[] = {"\x01", "\x7f", "\x80", "\xff", "#", "@", "\\", "`", ";", ":", "\xc3\xa9", "'"};

/* ---- text, tokens ---- */

enum tok_kind { TK_EOL,
                TK_BLANK,
                TK_COMMENT,
                TK_STRING,
                TK_OPEN,
                TK_NUMBER,
                TK_WORD,
                TK_PUNCT,
                TK_KINDS };

typedef struct tok {
    uint32_t off, len;
    uint8_t kind;
} tok;

/* A change: replace text[pos, pos + del) with ins[0, ins_len). */
typedef struct splice {
    size_t pos, del;
    const uint8_t *ins;
    size_t ins_len;
} splice;

#define SCRATCH 4096 /* bytes one change inserts at most (besides line splices from the second input) */
#define MAX_LINES_COPIED 8

typedef struct mt {
    const relic_token_vocab *v;
    uint64_t rng;
    uint8_t *text; /* the text being changed */
    size_t size, cap, max;
    tok *toks;
    size_t ntok, tok_cap;
    size_t nkind[TK_KINDS];
    const uint8_t *in2; /* second input (crossover), or NULL */
    size_t n2;
    int from2; /* this change takes from the second input */
    uint8_t scratch[SCRATCH];
    uint8_t *alt; /* whole-text rewrites (line ends everywhere) */
    size_t alt_cap;
    relic_arena *a; /* the caller's scratch: every buffer above */
    int nomem;      /* a buffer could not grow: the call fails */
} mt;

/* A buffer of `bytes` in the arena holding the first `keep` bytes of old:
 * the arena's realloc (the old copy stays until relic_mutate_tokens
 * rewinds the arena at its end; buffers double, so at most as much again). */
static void *regrow(mt *c, const void *old, size_t keep, size_t bytes)
{
    void *p = relic_arena_alloc(c->a, bytes ? bytes : 1, 16);
    if (!p) c->nomem = 1;
    if (p && keep) memcpy(p, old, keep);
    return p;
}

/* The mutators' splitmix64 (relic_mutate.h): deterministic for a seed. */
static size_t below(mt *c, size_t n) { return n ? (size_t)(relic_mutate_rand(&c->rng) % n) : 0; }
static int chance(mt *c, unsigned one_in) { return below(c, one_in) == 0; }
static const char *pick(mt *c, const char *const *list, uint32_t n) { return list[below(c, n)]; }

static int is_digit(uint8_t ch) { return ch >= '0' && ch <= '9'; }
static int is_word_start(uint8_t ch) { return (ch | 32) >= 'a' && (ch | 32) <= 'z' ? 1 : ch == '_' || ch == '$'; }
static int is_word_char(uint8_t ch) { return is_word_start(ch) || is_digit(ch) || ch == '.' || ch == '-'; }
static int is_blank(uint8_t ch) { return ch == ' ' || ch == '\t' || ch == '\v' || ch == '\f'; }
static int is_eol(uint8_t ch) { return ch == '\n' || ch == '\r'; }

/* Length of the number at s (TPM's scanner: [+-]? (digits ["." digits*] |
 * "." digits) [(e|E) [+-] digits]), 0 when there is none. */
static size_t number_len(const uint8_t *s, const uint8_t *end)
{
    const uint8_t *p = s;
    if (p < end && (*p == '+' || *p == '-')) p++;
    const uint8_t *d = p;
    while (p < end && is_digit(*p)) p++;
    int int_digits = p > d;
    if (p < end && *p == '.' && (int_digits || (p + 1 < end && is_digit(p[1])))) {
        p++;
        while (p < end && is_digit(*p)) p++;
    } else if (!int_digits) {
        return 0;
    }
    if (p < end && (*p | 32) == 'e') {
        const uint8_t *q = p + 1;
        if (q < end && (*q == '+' || *q == '-')) q++;
        if (q < end && is_digit(*q)) {
            while (q < end && is_digit(*q)) q++;
            p = q;
        }
    }
    return (size_t)(p - s);
}

/* The kind and length of the token at s. */
static uint8_t scan(const uint8_t *s, const uint8_t *end, size_t *len)
{
    const uint8_t *p = s;
    size_t n;
    if (*p == '\r') {
        *len = p + 1 < end && p[1] == '\n' ? 2 : 1;
        return TK_EOL;
    }
    if (*p == '\n') {
        *len = 1;
        return TK_EOL;
    }
    if (is_blank(*p)) {
        while (p < end && is_blank(*p)) p++;
        *len = (size_t)(p - s);
        return TK_BLANK;
    }
    if (*p == '/' && p + 1 < end && p[1] == '/') {
        while (p < end && !is_eol(*p)) p++;
        *len = (size_t)(p - s);
        return TK_COMMENT;
    }
    if (*p == '"') {
        for (p++; p < end && *p != '"' && !is_eol(*p); p++) {}
        if (p < end && *p == '"') {
            *len = (size_t)(p + 1 - s);
            return TK_STRING;
        }
        *len = (size_t)(p - s);
        return TK_OPEN;
    }
    if ((n = number_len(s, end)) != 0) {
        *len = n;
        return TK_NUMBER;
    }
    if (is_word_start(*p)) {
        for (p++; p < end && is_word_char(*p); p++) {}
        *len = (size_t)(p - s);
        return TK_WORD;
    }
    *len = 1;
    return TK_PUNCT;
}

/* Split c->text into c->toks. Returns 0 when out of memory. */
static int tokenize(mt *c)
{
    c->ntok = 0;
    memset(c->nkind, 0, sizeof c->nkind);
    const uint8_t *end = c->text + c->size;
    for (size_t at = 0; at < c->size;) {
        if (c->ntok == c->tok_cap) {
            size_t nc = c->tok_cap ? c->tok_cap * 2 : 256;
            tok *t = nc <= SIZE_MAX / sizeof *t ? regrow(c, c->toks, c->ntok * sizeof *t, nc * sizeof *t) : NULL;
            if (!t) return 0;
            c->toks = t;
            c->tok_cap = nc;
        }
        size_t len;
        uint8_t k = scan(c->text + at, end, &len);
        c->toks[c->ntok++] = (tok){(uint32_t)at, (uint32_t)len, k};
        c->nkind[k]++;
        at += len;
    }
    return 1;
}

/* A random token of kind k (TK_KINDS: any kind but blanks and line ends),
 * or NULL when there is none. */
static const tok *pick_tok(mt *c, int k)
{
    size_t n = k == TK_KINDS ? c->ntok - c->nkind[TK_BLANK] - c->nkind[TK_EOL] : c->nkind[k];
    if (!n) return NULL;
    size_t want = below(c, n);
    for (size_t i = 0; i < c->ntok; i++) {
        int kk = c->toks[i].kind;
        if (k == TK_KINDS ? kk != TK_BLANK && kk != TK_EOL : kk == k) {
            if (want-- == 0) return &c->toks[i];
        }
    }
    return NULL;
}

/* Line containing byte at of buf[0..n): [*start, *end) without its line end; *next after it. */
static void line_around(const uint8_t *buf, size_t n, size_t at, size_t *start, size_t *end, size_t *next)
{
    size_t s = at, e = at;
    while (s > 0 && !is_eol(buf[s - 1])) s--;
    while (e < n && !is_eol(buf[e])) e++;
    size_t x = e;
    if (x < n) x += buf[x] == '\r' && x + 1 < n && buf[x + 1] == '\n' ? 2 : 1;
    *start = s;
    *end = e;
    *next = x;
}

/* Lines [*start, *next) of buf: 1-count lines from a random one. */
static void pick_lines(mt *c, const uint8_t *buf, size_t n, unsigned count, size_t *start, size_t *next)
{
    size_t s, e, x;
    line_around(buf, n, below(c, n), &s, &e, &x);
    *start = s;
    for (unsigned k = 1; k < count && x < n; k++) line_around(buf, n, x, &s, &e, &x);
    *next = x;
}

/* A position at a line start of the text. */
static size_t line_start_pos(mt *c)
{
    if (!c->size) return 0;
    size_t s, e, x;
    line_around(c->text, c->size, below(c, c->size), &s, &e, &x);
    return chance(c, 8) ? c->size : s;
}

static int set_text(splice *sp, const char *s)
{
    sp->ins = (const uint8_t *)s;
    sp->ins_len = strlen(s);
    return 1;
}

/* Copy n bytes to the scratch area (at most SCRATCH - at); returns the length copied. */
static size_t put(mt *c, size_t at, const void *p, size_t n)
{
    if (at >= SCRATCH) return 0;
    if (n > SCRATCH - at) n = SCRATCH - at;
    memcpy(c->scratch + at, p, n);
    return n;
}
static size_t puts_at(mt *c, size_t at, const char *s) { return put(c, at, s, strlen(s)); }

/* ---- numbers ---- */

/* The parts of a number token: sign, integer digits, fraction digits
 * (has_dot), exponent (sign, digits). */
typedef struct num_parts {
    char sign;
    const uint8_t *ip, *fp, *ep;
    size_t il, fl, el;
    int has_dot, has_exp;
    char esign;
} num_parts;

static void split_number(const uint8_t *s, size_t n, num_parts *q)
{
    const uint8_t *end = s + n, *p = s;
    memset(q, 0, sizeof *q);
    if (p < end && (*p == '+' || *p == '-')) q->sign = (char)*p++;
    q->ip = p;
    while (p < end && is_digit(*p)) p++;
    q->il = (size_t)(p - q->ip);
    if (p < end && *p == '.') {
        q->has_dot = 1;
        q->fp = ++p;
        while (p < end && is_digit(*p)) p++;
        q->fl = (size_t)(p - q->fp);
    }
    if (p < end && (*p | 32) == 'e') {
        q->has_exp = 1;
        p++;
        if (p < end && (*p == '+' || *p == '-')) q->esign = (char)*p++;
        q->ep = p;
        q->el = (size_t)(end - p);
    }
}

/* Write parts back with the given pieces changed: the shared tail of the
 * respellings. */
static size_t join_number(mt *c, const num_parts *q, const char *sign, const char *lead, int dot, const char *ftail,
                          const char *exp)
{
    size_t k = 0;
    k += puts_at(c, k, sign);
    k += puts_at(c, k, lead);
    k += put(c, k, q->ip, q->il);
    if (dot) k += puts_at(c, k, ".");
    if (q->fl) k += put(c, k, q->fp, q->fl);
    k += puts_at(c, k, ftail);
    k += puts_at(c, k, exp);
    return k;
}

/* A new spelling of the number s[0..n) into the scratch area: the same
 * value written another way, or another value. Returns its length. */
static size_t respell_number(mt *c, const uint8_t *s, size_t n)
{
    num_parts q;
    split_number(s, n, &q);
    char sign[2] = {q.sign, 0}, expo[48] = "";
    if (q.has_exp) snprintf(expo, sizeof expo, "e%s%.*s", q.esign == '-' ? "-" : q.esign == '+' ? "+"
                                                                                                : "",
                            (int)(q.el > 40 ? 40 : q.el), (const char *)q.ep);
    switch (below(c, 15)) {
    case 0: /* leading zeros */
        return join_number(c, &q, sign, chance(c, 2) ? "0" : "0000", q.has_dot, "", expo);
    case 1: /* an explicit sign, or none */
        return join_number(c, &q, q.sign == '+' ? "" : q.sign == '-' ? (chance(c, 2) ? "-+" : "+")
                                                                     : "+",
                           "",
                           q.has_dot, "", expo);
    case 2: { /* a trailing '.': "5" -> "5.", "5.25" -> "5." */
        num_parts r = q;
        r.fl = 0;
        return join_number(c, &r, sign, q.il ? "" : "0", 1, "", expo);
    }
    case 3: { /* "0.5" -> ".5", ".5" -> "0.5", "5" -> "5." */
        num_parts r = q;
        if (q.il == 1 && q.ip[0] == '0' && q.fl) {
            r.il = 0;
            return join_number(c, &r, sign, "", 1, "", expo);
        }
        return join_number(c, &q, sign, q.il ? "" : "0", 1, "", expo);
    }
    case 4: /* trailing zeros */
        return join_number(c, &q, sign, "", 1, chance(c, 2) ? "000000" : "0", expo);
    case 5: { /* an exponent of zero, or leading zeros in the exponent */
        static const char *const zero_exp[] = {"e0", "E+00", "e-0", "E0"};
        char e2[56];
        snprintf(e2, sizeof e2, "e%s00%.*s", q.esign == '-' ? "-" : "+", (int)(q.el > 40 ? 40 : q.el), (const char *)q.ep);
        return join_number(c, &q, sign, "", q.has_dot, "", q.has_exp ? e2 : pick(c, zero_exp, COUNT(zero_exp)));
    }
    case 6: { /* exponent letter case and sign */
        if (!q.has_exp) return join_number(c, &q, sign, "", q.has_dot, "", chance(c, 2) ? "e+0" : "E-0");
        char e2[48];
        snprintf(e2, sizeof e2, "%s%s%.*s", chance(c, 2) ? "E" : "e", q.esign ? "" : chance(c, 2) ? "+"
                                                                                                  : "-",
                 (int)(q.el > 40 ? 40 : q.el), (const char *)q.ep);
        return join_number(c, &q, sign, "", q.has_dot, "", e2);
    }
    case 7: { /* many digits: past 15 significant digits, or past 127 bytes */
        size_t k = join_number(c, &q, sign, "", 1, "", "");
        size_t zeros = chance(c, 2) ? 12 + below(c, 12) : 120 + below(c, 40);
        for (size_t i = 0; i < zeros && k < SCRATCH - 64; i++) c->scratch[k++] = (uint8_t)(i + 1 == zeros && chance(c, 2) ? '1' : '0');
        return k + puts_at(c, k, expo);
    }
    case 8:
    case 9: /* a value at a limit */
        return puts_at(c, 0, pick(c, special_numbers, COUNT(special_numbers)));
    case 10: /* the sign flipped */
        return join_number(c, &q, q.sign == '-' ? "" : "-", "", q.has_dot, "", expo);
    case 11: { /* an integer one or two off */
        if (q.has_dot || q.has_exp || !q.il || q.il > 18) break;
        long long v = 0;
        for (size_t i = 0; i < q.il; i++) v = v * 10 + (q.ip[i] - '0');
        if (q.sign == '-') v = -v;
        v += chance(c, 2) ? 1 : -1 - (long long)below(c, 2);
        char b[32];
        snprintf(b, sizeof b, "%lld", v);
        return puts_at(c, 0, b);
    }
    case 12: { /* random digits */
        size_t k = puts_at(c, 0, chance(c, 3) ? "-" : "");
        size_t nd = 1 + below(c, 24), dot = chance(c, 2) ? below(c, nd + 1) : nd + 1;
        for (size_t i = 0; i <= nd; i++) {
            if (i == dot) c->scratch[k++] = '.';
            if (i < nd) c->scratch[k++] = (uint8_t)('0' + below(c, 10));
        }
        return k;
    }
    case 13: { /* a large or small exponent */
        static const char *const e[] = {"e38", "e39", "e308", "e309", "e-38", "e-45", "e-46", "e-308", "e-324",
                                        "e-325", "e9999", "e-9999", "E99999", "e22", "e23", "e-22", "e-23", "e30", "e31"};
        return join_number(c, &q, sign, "", q.has_dot, "", pick(c, e, COUNT(e)));
    }
    default:
        break;
    }
    return puts_at(c, 0, pick(c, broken_numbers, COUNT(broken_numbers)));
}

/* ---- operations ---- */

/* Respell a number. */
static int op_number(mt *c, splice *sp)
{
    const tok *t = pick_tok(c, TK_NUMBER);
    if (!t) return 0;
    sp->pos = t->off;
    sp->del = t->len;
    sp->ins = c->scratch;
    sp->ins_len = respell_number(c, c->text + t->off, t->len);
    return 1;
}

/* A word of the vocabulary (or the one there) in another letter case. */
static int op_word(mt *c, splice *sp)
{
    const tok *t = pick_tok(c, chance(c, 4) ? TK_KINDS : TK_WORD);
    if (!t) return 0;
    const char *w = pick(c, c->v->words, c->v->nwords);
    size_t n = strlen(w);
    if (t->kind == TK_WORD && chance(c, 3)) {
        n = t->len;
        n = put(c, 0, c->text + t->off, n);
    } else {
        n = put(c, 0, w, n);
    }
    switch (below(c, 5)) {
    case 0:
        for (size_t i = 0; i < n; i++)
            if ((c->scratch[i] | 32) >= 'a' && (c->scratch[i] | 32) <= 'z') c->scratch[i] &= 0xdf;
        break;
    case 1:
        if (n && c->scratch[0] >= 'a' && c->scratch[0] <= 'z') c->scratch[0] &= 0xdf;
        break;
    case 2:
        for (size_t i = 0; i < n; i++)
            if ((c->scratch[i] | 32) >= 'a' && (c->scratch[i] | 32) <= 'z' && chance(c, 2)) c->scratch[i] ^= 0x20;
        break;
    case 3:
        if (n > 1 && chance(c, 2)) n--;
        else n += put(c, n, "x", 1);
        break;
    default: break;
    }
    sp->pos = t->off;
    sp->del = t->len;
    sp->ins = c->scratch;
    sp->ins_len = n;
    return 1;
}

static int op_delete(mt *c, splice *sp)
{
    const tok *t = pick_tok(c, chance(c, 6) ? (int)below(c, TK_KINDS) : TK_KINDS);
    if (!t) return 0;
    sp->pos = t->off;
    sp->del = t->len;
    return set_text(sp, "");
}

/* A token again, after itself (with or without a blank or ','), or elsewhere. */
static int op_duplicate(mt *c, splice *sp)
{
    static const char *const seps[] = {"", " ", ",", "\t"};
    const tok *t = pick_tok(c, TK_KINDS);
    if (!t) return 0;
    size_t k = puts_at(c, 0, pick(c, seps, COUNT(seps)));
    k += put(c, k, c->text + t->off, t->len);
    sp->pos = chance(c, 4) ? c->toks[below(c, c->ntok)].off : (size_t)t->off + t->len;
    sp->del = 0;
    sp->ins = c->scratch;
    sp->ins_len = k;
    return 1;
}

/* Two tokens of a line (or nearby) swapped. */
static int op_swap(mt *c, splice *sp)
{
    const tok *a = pick_tok(c, TK_KINDS);
    if (!a) return 0;
    size_t i = (size_t)(a - c->toks), j = i + 1;
    while (j < c->ntok && j < i + 8 && (c->toks[j].kind == TK_BLANK || (c->toks[j].kind == TK_EOL && chance(c, 2)))) j++;
    if (j >= c->ntok || c->toks[j].kind == TK_BLANK) return 0;
    const tok *b = &c->toks[j];
    size_t mid = b->off - (a->off + a->len);
    if ((size_t)a->len + b->len + mid > SCRATCH) return 0;
    size_t k = put(c, 0, c->text + b->off, b->len);
    k += put(c, k, c->text + a->off + a->len, mid);
    k += put(c, k, c->text + a->off, a->len);
    sp->pos = a->off;
    sp->del = (size_t)b->off + b->len - a->off;
    sp->ins = c->scratch;
    sp->ins_len = k;
    return 1;
}

/* One to eight lines removed. */
static int op_line_delete(mt *c, splice *sp)
{
    if (!c->size) return 0;
    size_t s, x;
    pick_lines(c, c->text, c->size, 1 + (unsigned)(chance(c, 3) ? below(c, MAX_LINES_COPIED) : 0), &s, &x);
    sp->pos = s;
    sp->del = x - s;
    return set_text(sp, "");
}

/* One to eight lines copied from elsewhere in the text (or from the second
 * input) to a line start. */
static int op_line_copy(mt *c, splice *sp)
{
    const uint8_t *src = c->from2 ? c->in2 : c->text;
    size_t n = c->from2 ? c->n2 : c->size, s, x;
    if (!n) return 0;
    pick_lines(c, src, n, 1 + (unsigned)(chance(c, 3) ? below(c, MAX_LINES_COPIED) : 0), &s, &x);
    size_t k = put(c, 0, src + s, x - s);
    if (!k || !is_eol(c->scratch[k - 1])) k += put(c, k, "\n", 1);
    sp->pos = line_start_pos(c);
    sp->del = 0;
    sp->ins = c->scratch;
    sp->ins_len = k;
    return 1;
}

/* The text up to a line start, then the second input from a line start:
 * the crossover of whole lines (unbounded by SCRATCH: the second input is
 * not the text being changed). */
static int op_line_splice(mt *c, splice *sp)
{
    if (!c->from2 || !c->n2) return 0;
    size_t s, e, x;
    line_around(c->in2, c->n2, below(c, c->n2), &s, &e, &x);
    sp->pos = line_start_pos(c);
    sp->del = c->size - sp->pos;
    sp->ins = c->in2 + s;
    sp->ins_len = c->n2 - s;
    return 1;
}

/* A line and the next one exchanged. */
static int op_line_swap(mt *c, splice *sp)
{
    if (!c->size) return 0;
    size_t s1, e1, x1, s2, e2, x2;
    line_around(c->text, c->size, below(c, c->size), &s1, &e1, &x1);
    if (x1 >= c->size) return 0;
    line_around(c->text, c->size, x1, &s2, &e2, &x2);
    if (x2 - s1 > SCRATCH) return 0;
    size_t k = put(c, 0, c->text + s2, e2 - s2);
    k += put(c, k, c->text + e1, x1 - e1);
    k += put(c, k, c->text + s1, e1 - s1);
    k += put(c, k, c->text + e2, x2 - e2);
    sp->pos = s1;
    sp->del = x2 - s1;
    sp->ins = c->scratch;
    sp->ins_len = k;
    return 1;
}

/* A line typical of the format (possibly broken) at a line start, or in
 * place of a line. */
static int op_template(mt *c, splice *sp)
{
    size_t k = puts_at(c, 0, pick(c, c->v->lines, c->v->nlines));
    k += puts_at(c, k, pick(c, line_ends, 3));
    if (chance(c, 3) && c->size) {
        size_t s, e, x;
        line_around(c->text, c->size, below(c, c->size), &s, &e, &x);
        sp->pos = s;
        sp->del = x - s;
    } else {
        sp->pos = line_start_pos(c);
        sp->del = 0;
    }
    sp->ins = c->scratch;
    sp->ins_len = k;
    return 1;
}

/* Blanks and line ends: one replaced, one added between tokens, or every
 * line end of the text made CR, CRLF or LF. */
static int op_space(mt *c, splice *sp)
{
    int k = (int)below(c, 6);
    if (k == 0 && c->nkind[TK_EOL]) {
        const char *eol = pick(c, line_ends, 3);
        size_t el = strlen(eol), need = c->size + c->nkind[TK_EOL] * el;
        if (need > c->alt_cap) {
            uint8_t *a = regrow(c, NULL, 0, need);
            if (!a) return 0;
            c->alt = a;
            c->alt_cap = need;
        }
        size_t o = 0;
        for (size_t i = 0; i < c->ntok; i++) {
            const tok *t = &c->toks[i];
            if (t->kind == TK_EOL) {
                memcpy(c->alt + o, eol, el);
                o += el;
            } else {
                memcpy(c->alt + o, c->text + t->off, t->len);
                o += t->len;
            }
        }
        sp->pos = 0;
        sp->del = c->size;
        sp->ins = c->alt;
        sp->ins_len = o;
        return 1;
    }
    const tok *t = k <= 2 ? pick_tok(c, k == 1 ? TK_EOL : TK_BLANK) : NULL;
    if (t) {
        sp->pos = t->off;
        sp->del = t->len;
        return set_text(sp, t->kind == TK_EOL ? pick(c, line_ends, COUNT(line_ends)) : pick(c, blanks, COUNT(blanks)));
    }
    if (!c->ntok) return 0;
    sp->pos = c->toks[below(c, c->ntok)].off;
    sp->del = 0;
    return set_text(sp, chance(c, 3) ? pick(c, line_ends, COUNT(line_ends)) : pick(c, blanks, COUNT(blanks)));
}

/* A // comment added (at a line end, before a token, as a line, or
 * commenting a line out), or one removed. */
static int op_comment(mt *c, splice *sp)
{
    static const char *const texts[] = {"// c", "//", "// \"x", "// { }", " //c", "/", "/ /", "// v = (1,2,3)"};
    const tok *t;
    switch (below(c, 4)) {
    case 0:
        if ((t = pick_tok(c, TK_COMMENT)) != NULL) {
            sp->pos = t->off;
            sp->del = t->len;
            return set_text(sp, chance(c, 2) ? "" : "//");
        }
        /* fall through */
    case 1:
        if ((t = pick_tok(c, TK_EOL)) != NULL) {
            sp->pos = t->off;
            sp->del = 0;
            return set_text(sp, pick(c, texts, COUNT(texts)));
        }
        /* fall through */
    case 2:
        sp->pos = line_start_pos(c);
        sp->del = 0;
        return set_text(sp, chance(c, 2) ? "//" : "// a comment line\n");
    default:
        if (!c->ntok) return 0;
        sp->pos = c->toks[below(c, c->ntok)].off;
        sp->del = 0;
        return set_text(sp, pick(c, texts, COUNT(texts)));
    }
}

/* A string opened (its closing quote dropped), closed, emptied, grown,
 * given odd bytes, unquoted; or a quote or a string added. */
static int op_string(mt *c, splice *sp)
{
    const tok *t = pick_tok(c, chance(c, 4) ? TK_OPEN : TK_STRING);
    if (!t) {
        if (!c->ntok) return 0;
        sp->pos = c->toks[below(c, c->ntok)].off;
        sp->del = 0;
        return set_text(sp, pick(c, (const char *const[]){"\"", "\"\"", "\"x\"", " \"a b\" "}, 4));
    }
    sp->pos = t->off;
    sp->del = t->len;
    if (t->kind == TK_OPEN) {
        sp->pos = (size_t)t->off + t->len;
        sp->del = 0;
        return set_text(sp, "\"");
    }
    switch (below(c, 6)) {
    case 0:
        sp->del = 1;
        sp->pos = (size_t)t->off + t->len - 1;
        return set_text(sp, "");
    case 1: return set_text(sp, "\"\"");
    case 2: {
        size_t k = put(c, 0, c->text + t->off, t->len - 1);
        size_t more = chance(c, 2) ? 64 : 300;
        for (size_t i = 0; i < more; i++) k += put(c, k, &"abcdefgh"[i & 7], 1);
        k += put(c, k, "\"", 1);
        sp->ins = c->scratch;
        sp->ins_len = k;
        return 1;
    }
    case 3: return set_text(sp, pick(c, (const char *const[]){"\"\x80\xff\"", "\"a\tb\"", "\"//\"", "\"{\"", "\" \""}, 5));
    case 4: sp->del = 1; return set_text(sp, ""); /* the opening quote dropped */
    default:
        sp->ins = c->scratch;
        sp->ins_len = put(c, 0, c->text + t->off + 1, t->len >= 2 ? t->len - 2 : 0);
        return 1;
    }
}

/* A token of the vocabulary (punctuation, word, number, string) between tokens. */
static int op_insert(mt *c, splice *sp)
{
    sp->pos = c->ntok ? c->toks[below(c, c->ntok + 1) % c->ntok].off : 0;
    if (chance(c, 8)) sp->pos = c->size;
    sp->del = 0;
    switch (below(c, 4)) {
    case 0: return set_text(sp, pick(c, c->v->punct, c->v->npunct));
    case 1: return set_text(sp, pick(c, c->v->words, c->v->nwords));
    case 2: return set_text(sp, pick(c, special_numbers, COUNT(special_numbers)));
    default: {
        size_t k = puts_at(c, 0, pick(c, blanks + 1, COUNT(blanks) - 1));
        k += puts_at(c, k, pick(c, c->v->words, c->v->nwords));
        k += puts_at(c, k, chance(c, 2) ? " = " : " ");
        k += puts_at(c, k, pick(c, special_numbers, COUNT(special_numbers)));
        sp->ins = c->scratch;
        sp->ins_len = k;
        return 1;
    }
    }
}

/* A byte no token starts with (NUL, controls, 8-bit, stray signs). */
static int op_byte(mt *c, splice *sp)
{
    sp->pos = below(c, c->size + 1);
    sp->del = chance(c, 2) && sp->pos < c->size ? 1 : 0;
    if (chance(c, 6)) {
        sp->ins = (const uint8_t *)"\0";
        sp->ins_len = 1;
        return 1;
    }
    return set_text(sp, pick(c, bad_bytes, COUNT(bad_bytes)));
}

/* The operations and their weights (chances out of the total). */
static const struct {
    const char *name;
    int (*fn)(mt *c, splice *sp);
    unsigned weight;
} ops[] = {
    {"number", op_number, 8},
    {"word", op_word, 3},
    {"delete", op_delete, 2},
    {"duplicate", op_duplicate, 2},
    {"swap", op_swap, 1},
    {"line-delete", op_line_delete, 1},
    {"line-copy", op_line_copy, 2},
    {"line-swap", op_line_swap, 1},
    {"template", op_template, 2},
    {"space", op_space, 3},
    {"comment", op_comment, 1},
    {"string", op_string, 1},
    {"insert", op_insert, 2},
    {"byte", op_byte, 1},
    {"line-splice", op_line_splice, 1},
};

static size_t pick_op(mt *c)
{
    unsigned total = 0;
    for (size_t i = 0; i < COUNT(ops); i++) total += ops[i].weight;
    unsigned r = (unsigned)below(c, total);
    for (size_t i = 0; i < COUNT(ops); i++) {
        if (r < ops[i].weight) return i;
        r -= ops[i].weight;
    }
    return 0;
}

/* Apply sp to c->text, cutting the inserted bytes so that the text stays
 * within max. Returns 0 when out of memory. */
static int apply(mt *c, const splice *sp)
{
    size_t keep = c->size - sp->del, ins = sp->ins_len;
    if (keep >= c->max) ins = 0;
    else if (ins > c->max - keep) ins = c->max - keep;
    size_t need = keep + ins;
    if (need > c->cap) {
        size_t nc = c->cap * 2 > need ? c->cap * 2 : need;
        if (nc > c->max) nc = c->max;
        uint8_t *t = regrow(c, c->text, c->size, nc);
        if (!t) return 0;
        c->text = t;
        c->cap = nc;
    }
    if (c->size > sp->pos + sp->del) memmove(c->text + sp->pos + ins, c->text + sp->pos + sp->del, c->size - sp->pos - sp->del);
    if (ins) memcpy(c->text + sp->pos, sp->ins, ins);
    c->size = need;
    return 1;
}

/* Text for the log: printable, shortened. */
static void shown(char *dst, size_t cap, const uint8_t *s, size_t n)
{
    static const char more[] = "...";
    size_t k = 0, i;
    for (i = 0; i < n && k + sizeof more < cap; i++) {
        uint8_t ch = s[i];
        if (ch == '\n' || ch == '\r' || ch == '\t' || ch == '\v' || ch == '\f' || ch == 0 || ch == '\\') {
            if (k + 2 + sizeof more >= cap) break;
            dst[k++] = '\\';
            dst[k++] = ch == '\n' ? 'n' : ch == '\r' ? 'r'
                : ch == '\t'                         ? 't'
                : ch == '\v'                         ? 'v'
                : ch == '\f'                         ? 'f'
                : ch                                 ? '\\'
                                                     : '0';
        } else {
            dst[k++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
        }
    }
    if (i < n) {
        memcpy(dst + k, more, sizeof more - 1);
        k += sizeof more - 1;
    }
    dst[k] = 0;
}

static void log_change(mt *c, const splice *sp, const char *op, relic_token_edit *e)
{
    uint32_t line = 1, col = 1;
    for (size_t i = 0; i < sp->pos; i++) {
        if (c->text[i] == '\n' || (c->text[i] == '\r' && !(i + 1 < c->size && c->text[i + 1] == '\n'))) line++, col = 1;
        else if (c->text[i] != '\r') col++;
    }
    e->line = line;
    e->col = col;
    snprintf(e->op, sizeof e->op, "%s", op);
    shown(e->old_text, sizeof e->old_text, c->text + sp->pos, sp->del);
    shown(e->new_text, sizeof e->new_text, sp->ins, sp->ins_len);
}

relic_status relic_mutate_tokens(const relic_token_vocab *v, const uint8_t *in, size_t n, const uint8_t *in2, size_t n2,
                                 uint64_t seed, unsigned flags, relic_arena *scratch, uint8_t *out, size_t max,
                                 size_t *out_size, relic_token_log *log, relic_error *err)
{
    if (!v || (!in && n) || (!in2 && n2) || !out_size || (!out && max) || !scratch)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "relic_mutate_tokens: NULL argument");
    if (log) log->nlog = 0;
    if ((n < max ? n : max) > UINT32_MAX || n2 > UINT32_MAX)
        return relic_fail(err, RELIC_E_LIMIT, 0, "", "relic_mutate_tokens: texts of 4 GiB or more are not split");
    mut_mark mk = mut_arena_mark(scratch);
    mt *c = relic_arena_alloc(scratch, sizeof *c, 16);
    if (!c) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the token mutator");
    c->a = scratch;
    c->v = v;
    c->rng = seed;
    c->max = max;
    c->in2 = in2;
    c->n2 = in2 ? n2 : 0;
    size_t n0 = n < max ? n : max;
    relic_status st = RELIC_OK;
    c->cap = n0 + 64 < max ? n0 + 64 : max;
    if (!(c->text = regrow(c, NULL, 0, c->cap))) st = RELIC_E_NOMEM;
    /* a change that leaves the text as it was (a respelling to the same
     * bytes) is tried again, a bounded number of times */
    for (int attempt = 0; attempt < 8 && st == RELIC_OK; attempt++) {
        c->size = 0;
        if (!apply(c, &(splice){0, 0, in, n0})) {
            st = RELIC_E_NOMEM;
            break;
        }
        if (log) log->nlog = 0;
        int changes = 1 + (chance(c, 2) ? (int)below(c, 3) : 0);
        for (int k = 0; k < changes && st == RELIC_OK; k++) {
            if (!tokenize(c)) {
                st = RELIC_E_NOMEM;
                break;
            }
            c->from2 = c->n2 && (((flags & RELIC_MUTATE_CROSSOVER) && k == 0) || chance(c, 8));
            splice sp;
            size_t op = 0;
            int ok = 0;
            if (c->from2 && (flags & RELIC_MUTATE_CROSSOVER) && k == 0) {
                /* the crossover's first change: lines of the second input */
                int (*want)(mt *, splice *) = chance(c, 2) ? op_line_copy : op_line_splice;
                while (ops[op].fn != want) op++;
                memset(&sp, 0, sizeof sp);
                ok = want(c, &sp);
            }
            for (int tries = 0; !ok && tries < 16; tries++) {
                memset(&sp, 0, sizeof sp);
                op = pick_op(c);
                ok = ops[op].fn(c, &sp);
            }
            if (c->nomem) {
                st = RELIC_E_NOMEM;
                break;
            }
            if (!ok) continue;
            if (log && log->nlog < RELIC_MUTATE_TOKENS_MAX_LOG)
                log_change(c, &sp, ops[op].name, &log->log[log->nlog++]);
            if (!apply(c, &sp)) st = RELIC_E_NOMEM;
        }
        if (st != RELIC_OK || c->size != n || (n && memcmp(c->text, in, n) != 0)) break;
    }
    if (st == RELIC_OK) {
        if (c->size) memmove(out, c->text, c->size);
        *out_size = c->size;
    } else {
        relic_fail(err, st, 0, "", "no memory for the token mutator");
    }
    mut_arena_rewind(scratch, mk);
    return st;
}
