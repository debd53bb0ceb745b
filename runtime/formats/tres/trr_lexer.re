/* trr_lexer.re — the Trespasser TRR text reader: an re2c scanner for its
 * numbers and the "X Y Z" point grammar on top (Trespasser source, Lib/GeomDBase/TerrainLoad.cpp;
 * Trespasser file formats, "TRR"; the importer, TerrainLoad.cpp 525-548, reads values
 * three at a time regardless of lines, and a first value of -1 marks an
 * obsolete format). Implements relic_trr_parse of runtime/include/relic/relic_trr.h. The
 * generated runtime/trr_lexer.c is built by the Makefile's re2c rule. */
#include <math.h>

#include "relic_trr.h"
#include "tres_text.h"

typedef enum trr_token { TOK_EOF, TOK_NUMBER, TOK_BAD } trr_token;

typedef struct trr_lexer {
    const uint8_t *base, *cur, *lim, *tok, *mar, *line_start;
    uint32_t line;
} trr_lexer;

static void newline(trr_lexer *l)
{
    if (l->line < UINT32_MAX) l->line++;
    l->line_start = l->cur;
}

static trr_token lex(trr_lexer *l)
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
            number = [+-]? (digits | frac) exp?;
            other  = [^ \t\v\f\r\n\x00]+;

            $                       { return TOK_EOF; }
            [ \t\v\f]+              { continue; }
            "\r\n" | "\n" | "\r"    { newline(l); continue; }
            number                  { return TOK_NUMBER; }
            other                   { return TOK_BAD; }
            *                       { return TOK_BAD; }
        */
    }
}

static relic_text_pos token_pos(const trr_lexer *l)
{
    relic_text_pos pos;
    size_t col = (size_t)(l->tok - l->line_start) + 1;
    pos.line = l->line;
    pos.col = col > UINT32_MAX ? UINT32_MAX : (uint32_t)col;
    pos.offset = (uint64_t)(l->tok - l->base);
    return pos;
}

relic_status relic_trr_parse(const char *file, const uint8_t *data, size_t size, relic_arena *a,
                             relic_trr_points *out, relic_error *err)
{
    memset(out, 0, sizeof *out);
    static const uint8_t empty[1] = { 0 };
    if (!data && size) return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "no input");
    if (!data) data = empty;
    trr_lexer l;
    memset(&l, 0, sizeof l);
    l.base = l.cur = l.line_start = data;
    l.lim = data + size;
    l.line = 1;
    relic_buf pts; /* grows in place in the caller's arena */
    relic_buf_init_arena(&pts, a, 0);
    relic_status st = RELIC_OK;
    double p[3];
    int k = 0;
    relic_text_pos first = { 1, 1, 0 };
    for (;;) {
        trr_token t = lex(&l);
        if (t == TOK_EOF) break;
        if (t == TOK_BAD) {
            char buf[40];
            size_t len = (size_t)(l.cur - l.tok), q = 0, i;
            for (i = 0; i < len && q + 4 < sizeof buf; i++) buf[q++] = (l.tok[i] >= 0x20 && l.tok[i] < 0x7f) ? (char)l.tok[i] : '?';
            if (i < len) buf[q++] = '.', buf[q++] = '.', buf[q++] = '.';
            buf[q] = 0;
            st = relic_text_fail(err, file, token_pos(&l), RELIC_E_SYNTAX, "expected a coordinate, found '%s'", buf);
            break;
        }
        double v = relic_text_decimal(l.tok, l.cur);
        if (!isfinite(v)) {
            st = relic_text_fail(err, file, token_pos(&l), RELIC_E_RANGE, "coordinate outside the double range");
            break;
        }
        if (k == 0) first = token_pos(&l);
        if (pts.size == 0 && k == 0 && v == -1) {
            st = relic_text_fail(err, file, token_pos(&l), RELIC_E_UNSUPPORTED,
                                 "a first value of -1 marks the obsolete TRR format, which is not supported");
            break;
        }
        p[k++] = v;
        if (k == 3) {
            relic_buf_append(&pts, p, sizeof p);
            k = 0;
        }
    }
    if (st == RELIC_OK && k != 0)
        st = relic_text_fail(err, file, first, RELIC_E_SYNTAX, "the last point has %d of its 3 coordinates", k);
    if (st == RELIC_OK && pts.failed) st = relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory for the points");
    if (st == RELIC_OK) {
        out->count = pts.size / sizeof p;
        out->points = (double (*)[3])(void *)pts.data;
        if (!pts.size || ((uintptr_t)pts.data & 7u) != 0) { /* empty, or not aligned for doubles: copy */
            out->points = relic_arena_alloc(a, pts.size ? pts.size : 1, 8);
            if (!out->points) {
                out->count = 0;
                st = relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory for %zu points", pts.size / sizeof p);
            } else if (pts.size) {
                memcpy(out->points, pts.data, pts.size);
            }
        }
    }
    return st;
}
