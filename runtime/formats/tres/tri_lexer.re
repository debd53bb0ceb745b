/* tri_lexer.re — the Trespasser TRI text reader: an re2c scanner for its
 * numbers and the count/triples/count/coordinates grammar on top
 * (Trespasser source, Lib/GeomDBase/TerrainLoad.cpp; Trespasser file formats, "TRI"). Implements relic_tri_parse of
 * runtime/include/relic/relic_tri.h. The generated runtime/tri_lexer.c is built by the
 * Makefile's re2c rule. The scanner reads through a bounds-checked peek, so
 * the input needs no terminator and a NUL byte is an ordinary error. */
#include <math.h>

#include "relic_tri.h"
#include "tres_text.h"

typedef enum tri_token { TOK_EOF, TOK_INT, TOK_NUMBER, TOK_BAD } tri_token;

typedef struct tri_lexer {
    const uint8_t *base, *cur, *lim, *tok, *mar, *line_start;
    uint32_t line;
} tri_lexer;

static void newline(tri_lexer *l)
{
    if (l->line < UINT32_MAX) l->line++;
    l->line_start = l->cur;
}

static tri_token lex(tri_lexer *l)
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
            int    = [+-]? digits;
            frac   = digits "." [0-9]* | "." digits;
            exp    = [eE] [+-]? digits;
            number = [+-]? (frac exp? | digits exp);
            other  = [^ \t\v\f\r\n\x00]+;

            $                       { return TOK_EOF; }
            [ \t\v\f]+              { continue; }
            "\r\n" | "\n" | "\r"    { newline(l); continue; }
            int                     { return TOK_INT; }
            number                  { return TOK_NUMBER; }
            other                   { return TOK_BAD; }
            *                       { return TOK_BAD; }
        */
    }
}

typedef struct tri_parser {
    tri_lexer lx;
    const char *file;
    relic_error *err;
} tri_parser;

static relic_text_pos here(const tri_parser *p)
{
    relic_text_pos pos;
    size_t col = (size_t)(p->lx.tok - p->lx.line_start) + 1;
    pos.line = p->lx.line;
    pos.col = col > UINT32_MAX ? UINT32_MAX : (uint32_t)col;
    pos.offset = (uint64_t)(p->lx.tok - p->lx.base);
    return pos;
}

/* The current token, shortened and made printable, for messages. */
static const char *token_text(const tri_lexer *l, char *buf, size_t n)
{
    size_t len = (size_t)(l->cur - l->tok), k = 0, i;
    for (i = 0; i < len && k + 4 < n; i++) buf[k++] = (l->tok[i] >= 0x20 && l->tok[i] < 0x7f) ? (char)l->tok[i] : '?';
    if (i < len) buf[k++] = '.', buf[k++] = '.', buf[k++] = '.';
    buf[k] = 0;
    return buf;
}

static relic_status unexpected(tri_parser *p, tri_token t, const char *what)
{
    char buf[40];
    if (t == TOK_EOF) return relic_text_fail(p->err, p->file, here(p), RELIC_E_SYNTAX, "the file ends where %s belongs", what);
    return relic_text_fail(p->err, p->file, here(p), RELIC_E_SYNTAX, "expected %s, found '%s'", what,
                           token_text(&p->lx, buf, sizeof buf));
}

/* A non-negative integer token (count or index) into *v (saturating). */
static relic_status read_uint(tri_parser *p, const char *what, uint64_t *v, relic_text_pos *at)
{
    tri_token t = lex(&p->lx);
    *at = here(p);
    if (t != TOK_INT) return unexpected(p, t, what);
    const uint8_t *s = p->lx.tok;
    if (*s == '-') {
        /* "-0" is zero; anything else negative is refused by the caller's range */
        uint64_t mag = 0;
        for (s++; s < p->lx.cur; s++) mag = mag > UINT32_MAX ? mag : mag * 10 + (uint64_t)(*s - '0');
        if (mag) return relic_text_fail(p->err, p->file, *at, RELIC_E_INDEX, "%s is negative", what);
        *v = 0;
        return RELIC_OK;
    }
    if (*s == '+') s++;
    uint64_t x = 0;
    for (; s < p->lx.cur; s++) x = x > UINT32_MAX ? x : x * 10 + (uint64_t)(*s - '0');
    *v = x;
    return RELIC_OK;
}

/* A count of elements needing at least min_bytes each in the rest of the file. */
static relic_status read_count(tri_parser *p, const char *what, size_t min_bytes, uint32_t *count)
{
    uint64_t v;
    relic_text_pos at;
    relic_status st = read_uint(p, what, &v, &at);
    if (st != RELIC_OK) return st;
    const uint64_t rest = (uint64_t)(p->lx.lim - p->lx.cur);
    if (v > RELIC_TRI_MAX_COUNT || v > rest / min_bytes + 1)
        return relic_text_fail(p->err, p->file, at, RELIC_E_LIMIT,
                               "%s %llu is more than the rest of the file (%llu bytes) can hold", what,
                               (unsigned long long)v, (unsigned long long)rest);
    *count = (uint32_t)v;
    return RELIC_OK;
}

relic_status relic_tri_parse(const char *file, const uint8_t *data, size_t size, relic_arena *a, relic_tri_mesh *out,
                             relic_error *err)
{
    memset(out, 0, sizeof *out);
    static const uint8_t empty[1] = { 0 };
    if (!data && size) return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "no input");
    if (!data) data = empty;
    tri_parser p;
    memset(&p, 0, sizeof p);
    p.lx.base = p.lx.cur = p.lx.line_start = data;
    p.lx.lim = data + size;
    p.lx.line = 1;
    p.file = file;
    p.err = err;
    relic_tri_mesh m;
    memset(&m, 0, sizeof m);
    relic_status st = read_count(&p, "the triangle count", 6, &m.triangle_count);
    if (st != RELIC_OK) return st;
    m.triangles = relic_arena_array(a, m.triangle_count ? m.triangle_count : 1, sizeof *m.triangles, 4);
    if (!m.triangles) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory for %u triangles", m.triangle_count);
    uint64_t max_index = 0;
    relic_text_pos max_at = { 0, 0, 0 };
    int any = 0;
    for (uint32_t i = 0; i < m.triangle_count; i++)
        for (int k = 0; k < 3; k++) {
            uint64_t v;
            relic_text_pos at;
            if ((st = read_uint(&p, "a vertex index", &v, &at)) != RELIC_OK) return st;
            if (v > UINT32_MAX)
                return relic_text_fail(err, file, at, RELIC_E_INDEX, "vertex index %llu is out of range",
                                       (unsigned long long)v);
            if (!any || v > max_index) max_index = v, max_at = at, any = 1;
            m.triangles[i][k] = (uint32_t)v;
        }
    if ((st = read_count(&p, "the vertex count", 6, &m.vertex_count)) != RELIC_OK) return st;
    if (any && max_index >= m.vertex_count)
        return relic_text_fail(err, file, max_at, RELIC_E_INDEX, "vertex index %llu is not below the vertex count %u",
                               (unsigned long long)max_index, m.vertex_count);
    m.vertices = relic_arena_array(a, m.vertex_count ? m.vertex_count : 1, sizeof *m.vertices, 8);
    if (!m.vertices) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory for %u vertices", m.vertex_count);
    for (uint32_t i = 0; i < m.vertex_count; i++)
        for (int k = 0; k < 3; k++) {
            tri_token t = lex(&p.lx);
            if (t != TOK_INT && t != TOK_NUMBER) return unexpected(&p, t, "a vertex coordinate");
            double v = relic_text_decimal(p.lx.tok, p.lx.cur);
            if (!isfinite(v))
                return relic_text_fail(err, file, here(&p), RELIC_E_RANGE, "coordinate outside the double range");
            m.vertices[i][k] = v;
        }
    tri_token t = lex(&p.lx);
    if (t != TOK_EOF) {
        char buf[40];
        return relic_text_fail(err, file, here(&p), RELIC_E_SYNTAX, "unexpected '%s' after the last vertex",
                               token_text(&p.lx, buf, sizeof buf));
    }
    *out = m;
    return RELIC_OK;
}
