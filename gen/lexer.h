/* lexer.h — tokens of the schema language (scanner in gen/lexer.re). */
#ifndef RELIC_GEN_LEXER_H
#define RELIC_GEN_LEXER_H

#include "ast.h"

typedef enum gen_tok_kind { T_EOF,
                            T_IDENT,
                            T_INT,
                            T_STRING,
                            T_PUNCT,
                            T_ERROR } gen_tok_kind;

/* Multi-character punctuation; single characters use their own code. */
enum { PU_DOTDOT = 256,
       PU_SHL,
       PU_SHR,
       PU_EQ,
       PU_NE,
       PU_LE,
       PU_GE,
       PU_LAND,
       PU_LOR };

typedef struct gen_token {
    gen_tok_kind kind;
    gen_loc loc;
    const char *start; /* raw text */
    int len;
    int punct;    /* T_PUNCT */
    int64_t ival; /* T_INT */
    char *sval;   /* T_STRING, unescaped, NUL-terminated (may contain NULs: slen) */
    int slen;
} gen_token;

typedef struct gen_lexer {
    const char *file;
    const char *buf, *cur, *lim, *line_start;
    int line;
} gen_lexer;

/* buf must hold len bytes followed by a NUL sentinel. */
void gen_lexer_init(gen_lexer *lx, const char *file, const char *buf, size_t len);
/* Next token; T_ERROR after reporting a lexical error (the lexer then skips one byte). */
void gen_lex(gen_lexer *lx, gen_token *t);

#endif
