/* lexer.re — re2c scanner for the schema language (gen/SCHEMA.md).
 * Build: re2c -W --no-generation-date -o gen/lexer.c gen/lexer.re
 * Comments run from '#' or "//" to the end of the line; whitespace is free. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"

void gen_lexer_init(gen_lexer *lx, const char *file, const char *buf, size_t len)
{
    lx->file = file;
    lx->buf = lx->cur = lx->line_start = buf;
    lx->lim = buf + len;
    lx->line = 1;
}

static gen_loc here(const gen_lexer *lx, const char *at)
{
    gen_loc l = { lx->file, lx->line, (int)(at - lx->line_start) + 1 };
    return l;
}

/* Decode the body of a string literal (between the quotes). */
static int unescape(gen_lexer *lx, const char *s, const char *e, gen_token *t)
{
    char *out = gen_alloc((size_t)(e - s) + 1);
    int n = 0;
    while (s < e) {
        if (*s != '\\') { out[n++] = *s++; continue; }
        s++;
        switch (*s) {
        case 'n': out[n++] = '\n'; s++; break;
        case 't': out[n++] = '\t'; s++; break;
        case '0': out[n++] = '\0'; s++; break;
        case '\\': out[n++] = '\\'; s++; break;
        case '"': out[n++] = '"'; s++; break;
        case 'x': {
            int v = 0, k;
            s++;
            for (k = 0; k < 2; k++, s++) {
                char c = *s;
                int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                      : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
                if (d < 0) { gen_error(here(lx, s), "bad \\x escape: two hex digits expected"); return 0; }
                v = v * 16 + d;
            }
            out[n++] = (char)v;
            break;
        }
        default:
            gen_error(here(lx, s - 1), "unknown escape '\\%c' in string", *s);
            return 0;
        }
    }
    out[n] = 0;
    t->sval = out;
    t->slen = n;
    return 1;
}

void gen_lex(gen_lexer *lx, gen_token *t)
{
    const char *YYMARKER;
    const char *tok;
    memset(t, 0, sizeof *t);
loop:
    tok = lx->cur;
    t->loc = here(lx, tok);
    t->start = tok;
#define YYCURSOR lx->cur
    /*!re2c
        re2c:define:YYCTYPE = "unsigned char";
        re2c:yyfill:enable = 0;

        end = "\x00";
        nl = "\n";
        ws = [ \t\r]+;
        comment = ("#" | "//") [^\n\x00]*;
        ident = [a-zA-Z_][a-zA-Z0-9_]*;
        dec = [0-9]+;
        hex = "0x" [0-9a-fA-F]+;
        strchar = [^"\\\n\x00] | "\\" [^\n\x00];

        end {
            if (tok < lx->lim) {
                gen_error(t->loc, "NUL byte in schema text");
                t->kind = T_ERROR;
                return;
            }
            lx->cur = tok;
            t->kind = T_EOF;
            return;
        }
        nl { lx->line++; lx->line_start = lx->cur; goto loop; }
        ws | comment { goto loop; }

        ident { t->kind = T_IDENT; t->len = (int)(lx->cur - tok); return; }
        dec | hex {
            char *endp;
            errno = 0;
            t->ival = (int64_t)strtoull(tok, &endp, 0);
            t->len = (int)(lx->cur - tok);
            if (errno == ERANGE || (uint64_t)t->ival > (uint64_t)INT64_MAX) {
                gen_error(t->loc, "integer literal '%.*s' is too large", t->len, tok);
                t->kind = T_ERROR;
                return;
            }
            t->kind = T_INT;
            return;
        }
        ["] strchar* ["] {
            t->len = (int)(lx->cur - tok);
            t->kind = unescape(lx, tok + 1, lx->cur - 1, t) ? T_STRING : T_ERROR;
            return;
        }
        ["] strchar* {
            gen_error(t->loc, "unterminated string");
            t->kind = T_ERROR;
            return;
        }
        ".." { t->kind = T_PUNCT; t->punct = PU_DOTDOT; t->len = 2; return; }
        "<<" { t->kind = T_PUNCT; t->punct = PU_SHL; t->len = 2; return; }
        ">>" { t->kind = T_PUNCT; t->punct = PU_SHR; t->len = 2; return; }
        "==" { t->kind = T_PUNCT; t->punct = PU_EQ; t->len = 2; return; }
        "!=" { t->kind = T_PUNCT; t->punct = PU_NE; t->len = 2; return; }
        "<=" { t->kind = T_PUNCT; t->punct = PU_LE; t->len = 2; return; }
        ">=" { t->kind = T_PUNCT; t->punct = PU_GE; t->len = 2; return; }
        "&&" { t->kind = T_PUNCT; t->punct = PU_LAND; t->len = 2; return; }
        "||" { t->kind = T_PUNCT; t->punct = PU_LOR; t->len = 2; return; }
        [{}()[\];:,=.*+\-/%&|^~!<>] { t->kind = T_PUNCT; t->punct = (unsigned char)*tok; t->len = 1; return; }
        * {
            gen_error(t->loc, "unexpected character '%c' (0x%02x)",
                      (*tok >= 32 && *tok < 127) ? *tok : '?', (unsigned char)*tok);
            t->kind = T_ERROR;
            return;
        }
    */
#undef YYCURSOR
}
