/* obj_lexer.re — the Wavefront OBJ reader: an re2c scanner for OBJ tokens
 * and the line grammar on top of it, plus OBJ -> BWM geometry.
 *
 * Implements runtime/include/relic/obj.h (see there for the accepted subset). The
 * generated runtime/obj_lexer.c is committed; regenerate it with
 *   re2c -W --no-generation-date -o runtime/obj_lexer.c runtime/export/obj_lexer.re
 * Material names and walkability: PyKotor, common/geometry.py; kotorblender, constants.py through
 * runtime/include/relic/bwm_build.h.
 *
 * The input is read twice: a first pass checks everything and counts
 * vertices, triangles and names, so that the second pass fills arrays of
 * exactly the right size (no growing, no waste, memory linear in the
 * input). The scanner reads through a bounds-checked peek, so the input
 * needs no terminator and a NUL byte inside it is an ordinary error.
 * Numbers are converted without the C library (whose strtod follows the
 * locale): exactly for up to 19 significant digits and exponents within
 * ±22, within an ulp of double otherwise, then rounded to float. */
#include "obj.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>

/* ---------------------------------------------------------------------- */
/* Scanner                                                                 */
/* ---------------------------------------------------------------------- */

typedef enum obj_token {
    TOK_EOF,
    TOK_EOL,
    TOK_INT,    /* [+-]digits */
    TOK_REF,    /* v/vt, v//vn, v/vt/vn */
    TOK_NUMBER, /* a decimal number with a fraction or exponent */
    TOK_WORD,   /* [A-Za-z_][A-Za-z0-9_]* */
    TOK_OTHER,  /* any other run of printable bytes */
    TOK_BAD     /* a byte that cannot appear (NUL, lone control character) */
} obj_token;

typedef struct obj_lexer {
    const uint8_t *base;       /* first input byte */
    const uint8_t *cur;        /* next byte to scan */
    const uint8_t *lim;        /* one past the last input byte */
    const uint8_t *tok;        /* start of the last token */
    const uint8_t *mar;        /* re2c backtracking marker */
    const uint8_t *line_start; /* first byte of the current line */
    uint32_t line;             /* 1-based line of cur */
} obj_lexer;

static void lexer_newline(obj_lexer *l)
{
    if (l->line < UINT32_MAX)
        l->line++;
    l->line_start = l->cur;
}

static obj_token lex(obj_lexer *l)
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
            word   = [A-Za-z_] [A-Za-z0-9_]*;
            other  = [^ \t\v\f\r\n#\x00-\x08\x0e-\x1f\x7f]+;

            $                       { return TOK_EOF; }
            [ \t\v\f]+              { continue; }
            "\\" ("\r\n" | "\n")    { lexer_newline(l); continue; }
            "#" [^\r\n]*            { continue; }
            "\r\n" | "\n" | "\r"    { return TOK_EOL; }
            int                     { return TOK_INT; }
            int "/" int | int "//" int | int "/" int "/" int { return TOK_REF; }
            number                  { return TOK_NUMBER; }
            word                    { return TOK_WORD; }
            other                   { return TOK_OTHER; }
            *                       { return TOK_BAD; }
        */
    }
}

/* ---------------------------------------------------------------------- */
/* Parser state and errors                                                 */
/* ---------------------------------------------------------------------- */

typedef struct obj_parser {
    obj_lexer lx;
    const char *file;
    relic_error *err;
    relic_arena *arena;
    relic_obj_mesh *out;
    int fill; /* 0: checking and counting pass, 1: filling pass */
    /* counts so far in this pass */
    uint32_t nv, nvt, nvn, ntri, nusemtl;
    uint32_t material; /* current material index (fill pass) */
    int have_material;
    /* distinct names (fill pass): open-addressing table of indices + 1 */
    uint32_t *name_slots;
    uint32_t name_mask;
} obj_parser;

static const char *file_label(const char *file)
{
    return file != NULL ? file : "<obj>";
}

static relic_obj_pos pos_of(const obj_lexer *l, const uint8_t *at)
{
    relic_obj_pos p;
    size_t col = (size_t)(at - l->line_start) + 1;
    p.line = l->line;
    p.col = col > UINT32_MAX ? UINT32_MAX : (uint32_t)col;
    p.offset = (uint64_t)(at - l->base);
    return p;
}

static relic_status vfail_pos(relic_error *err, const char *file, relic_obj_pos p, relic_status code,
                              const char *fmt, va_list ap)
{
    char what[RELIC_ERROR_MESSAGE_MAX];
    vsnprintf(what, sizeof what, fmt, ap);
    return relic_fail(err, code, p.offset, NULL, "%s:%u:%u: %s", file_label(file), p.line, p.col, what);
}

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static relic_status fail_pos(relic_error *err, const char *file, relic_obj_pos p, relic_status code,
                             const char *fmt, ...)
{
    relic_status st;
    va_list ap;
    va_start(ap, fmt);
    st = vfail_pos(err, file, p, code, fmt, ap);
    va_end(ap);
    return st;
}

/* An error at byte `at` of the current line. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static relic_status fail_at(obj_parser *p, const uint8_t *at, relic_status code, const char *fmt, ...)
{
    relic_status st;
    va_list ap;
    va_start(ap, fmt);
    st = vfail_pos(p->err, p->file, pos_of(&p->lx, at), code, fmt, ap);
    va_end(ap);
    return st;
}

/* The token text for messages, shortened and made printable. */
static const char *token_text(const obj_lexer *l, char *buf, size_t n)
{
    size_t len = (size_t)(l->cur - l->tok), i, k = 0;
    if (n == 0)
        return "";
    for (i = 0; i < len && k + 4 < n; i++) {
        uint8_t c = l->tok[i];
        buf[k++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    if (i < len && k + 3 < n) {
        buf[k++] = '.';
        buf[k++] = '.';
        buf[k++] = '.';
    }
    buf[k] = '\0';
    return buf;
}

/* ---------------------------------------------------------------------- */
/* Numbers                                                                 */
/* ---------------------------------------------------------------------- */

#define MAX_EXACT_POW10 22
#define MAX_MANTISSA_DIGITS 19
#define MAX_EXPONENT_MAGNITUDE 100000 /* saturation: far beyond any double */

static const double pow10_table[MAX_EXACT_POW10 + 1] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* Decimal text (syntax already checked by the scanner) to double. */
static double decimal_to_double(const uint8_t *s, const uint8_t *end)
{
    uint64_t mant = 0;
    int digits = 0, neg = 0;
    long exp10 = 0;
    double v;

    if (s < end && (*s == '+' || *s == '-'))
        neg = *s++ == '-';
    for (; s < end && *s >= '0' && *s <= '9'; s++) {
        if (digits < MAX_MANTISSA_DIGITS) {
            if (mant != 0 || *s != '0') {
                mant = mant * 10 + (uint64_t)(*s - '0');
                digits += mant != 0;
            }
        } else if (exp10 < MAX_EXPONENT_MAGNITUDE) {
            exp10++; /* dropped integer digit */
        }
    }
    if (s < end && *s == '.') {
        for (s++; s < end && *s >= '0' && *s <= '9'; s++) {
            if (digits < MAX_MANTISSA_DIGITS) {
                if (mant != 0 || *s != '0') {
                    mant = mant * 10 + (uint64_t)(*s - '0');
                    digits += mant != 0;
                }
                if (exp10 > -MAX_EXPONENT_MAGNITUDE)
                    exp10--;
            }
        }
    }
    if (s < end && (*s == 'e' || *s == 'E')) {
        long e = 0;
        int eneg = 0;
        s++;
        if (s < end && (*s == '+' || *s == '-'))
            eneg = *s++ == '-';
        for (; s < end && *s >= '0' && *s <= '9'; s++)
            if (e < MAX_EXPONENT_MAGNITUDE)
                e = e * 10 + (*s - '0');
        exp10 += eneg ? -e : e;
    }
    if (mant == 0)
        return neg ? -0.0 : 0.0;
    v = (double)mant;
    if (exp10 >= 0) {
        while (exp10 > MAX_EXACT_POW10 && !isinf(v)) {
            v *= pow10_table[MAX_EXACT_POW10];
            exp10 -= MAX_EXACT_POW10;
        }
        if (!isinf(v))
            v *= pow10_table[exp10 > MAX_EXACT_POW10 ? MAX_EXACT_POW10 : exp10];
    } else {
        while (exp10 < -MAX_EXACT_POW10 && v != 0.0) {
            v /= pow10_table[MAX_EXACT_POW10];
            exp10 += MAX_EXACT_POW10;
        }
        if (v != 0.0)
            v /= pow10_table[-exp10 > MAX_EXACT_POW10 ? MAX_EXACT_POW10 : -exp10];
    }
    return neg ? -v : v;
}

/* Decimal integer text ([+-]digits) to int64, saturating far outside any
 * valid index. */
#define INDEX_SATURATION ((int64_t)1 << 40)

static int64_t decimal_to_int(const uint8_t *s, const uint8_t *end)
{
    int64_t v = 0;
    int neg = 0;
    if (s < end && (*s == '+' || *s == '-'))
        neg = *s++ == '-';
    for (; s < end && *s >= '0' && *s <= '9'; s++)
        if (v < INDEX_SATURATION)
            v = v * 10 + (*s - '0');
    return neg ? -v : v;
}

/* ---------------------------------------------------------------------- */
/* Statements                                                              */
/* ---------------------------------------------------------------------- */

static int token_is(const obj_lexer *l, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(l->cur - l->tok) == n && memcmp(l->tok, word, n) == 0;
}

static relic_status expect_eol(obj_parser *p, obj_token t, const char *what)
{
    char buf[40];
    if (t == TOK_EOL || t == TOK_EOF)
        return RELIC_OK;
    return fail_at(p, p->lx.tok, RELIC_E_SYNTAX, "unexpected '%s' after %s", token_text(&p->lx, buf, sizeof buf),
                   what);
}

static relic_status skip_line(obj_parser *p)
{
    obj_token t;
    while ((t = lex(&p->lx)) != TOK_EOL && t != TOK_EOF)
        if (t == TOK_BAD)
            return fail_at(p, p->lx.tok, RELIC_E_SYNTAX, "unexpected byte 0x%02x", (unsigned)*p->lx.tok);
    return RELIC_OK;
}

/* A line of numbers: `v` (3, 4, 6 or 7 of them: x y z, then an optional w
 * and optional r g b), `vn` (3), `vt` and `vp` (1 to 3). keep (NULL: keep
 * nothing) receives the first up to 3 numbers, the rest of it zeroed. */
static relic_status numbers_line(obj_parser *p, const char *kw, unsigned min, unsigned max, float keep[3])
{
    const uint8_t *kw_at = p->lx.tok;
    unsigned n = 0;
    obj_token t;
    char buf[40];
    if (keep != NULL)
        keep[0] = keep[1] = keep[2] = 0.0f;
    for (;;) {
        t = lex(&p->lx);
        if (t == TOK_EOL || t == TOK_EOF)
            break;
        if (t != TOK_INT && t != TOK_NUMBER)
            return fail_at(p, p->lx.tok, RELIC_E_SYNTAX, "expected a number in '%s', found '%s'", kw,
                           token_text(&p->lx, buf, sizeof buf));
        if (n >= max)
            return fail_at(p, p->lx.tok, RELIC_E_SYNTAX, "'%s' takes at most %u numbers", kw, max);
        if (keep != NULL && n < 3) {
            double d = decimal_to_double(p->lx.tok, p->lx.cur);
            float f = (float)d;
            if (!isfinite(d) || isinf(f))
                return fail_at(p, p->lx.tok, RELIC_E_RANGE, "coordinate %s is outside the float range",
                               token_text(&p->lx, buf, sizeof buf));
            keep[n] = f;
        }
        n++;
    }
    if (strcmp(kw, "v") == 0 && (n < 3 || n == 5))
        return fail_at(p, kw_at, RELIC_E_SYNTAX, "'v' takes 3 numbers (x y z), optionally w and r g b; found %u", n);
    if (n < min)
        return fail_at(p, kw_at, RELIC_E_SYNTAX, "'%s' needs %s%u numbers, found %u", kw,
                       min == max ? "" : "at least ", min, n);
    return RELIC_OK;
}

/* A 1-based (or negative, counting back) OBJ index against count elements
 * defined so far: 0-based result, or an error at `at`. */
static relic_status resolve_index(obj_parser *p, const uint8_t *at, const uint8_t *end, uint32_t count,
                                  const char *what, uint32_t *out)
{
    int64_t v = decimal_to_int(at, end);
    if (v == 0)
        return fail_at(p, at, RELIC_E_INDEX, "%s index 0: OBJ indices start at 1 (or count back from -1)", what);
    if (v > 0 && v <= (int64_t)count) {
        *out = (uint32_t)(v - 1);
        return RELIC_OK;
    }
    if (v < 0 && -v <= (int64_t)count) {
        *out = (uint32_t)((int64_t)count + v);
        return RELIC_OK;
    }
    return fail_at(p, at, RELIC_E_INDEX, "%s index %lld but only %u %s defined so far", what, (long long)v, count,
                   count == 1 ? "is" : "are");
}

/* One corner: v, v/vt, v//vn or v/vt/vn: 0-based indices, vt and vn
 * RELIC_OBJ_NONE when absent. */
static relic_status corner(obj_parser *p, uint32_t *v, uint32_t *vt, uint32_t *vn)
{
    const uint8_t *s = p->lx.tok, *end = p->lx.cur, *q;
    relic_status st;
    int part;

    *vt = *vn = RELIC_OBJ_NONE;
    for (q = s; q < end && *q != '/'; q++) {}
    if ((st = resolve_index(p, s, q, p->nv, "vertex", v)) != RELIC_OK)
        return st;
    for (part = 1; q < end; part++) {
        const uint8_t *c = ++q;
        for (; q < end && *q != '/'; q++) {}
        if (q == c)
            continue; /* v//vn: no texture coordinate */
        if ((st = resolve_index(p, c, q, part == 1 ? p->nvt : p->nvn, part == 1 ? "texture coordinate" : "normal",
                                part == 1 ? vt : vn)) != RELIC_OK)
            return st;
    }
    return RELIC_OK;
}

static relic_status face_line(obj_parser *p, int is_face)
{
    const uint8_t *kw_at = p->lx.tok;
    const char *kw = is_face ? "f" : (token_is(&p->lx, "l") ? "l" : "p");
    uint32_t first[3] = {0, 0, 0}, prev[3] = {0, 0, 0}, c[3], corners = 0, kw_line = p->lx.line;
    relic_status st;
    obj_token t;
    char buf[40];

    for (;;) {
        t = lex(&p->lx);
        if (t == TOK_EOL || t == TOK_EOF)
            break;
        if (t != TOK_INT && t != TOK_REF)
            return fail_at(p, p->lx.tok, RELIC_E_SYNTAX, "expected a vertex index in '%s', found '%s'", kw,
                           token_text(&p->lx, buf, sizeof buf));
        if ((st = corner(p, &c[0], &c[1], &c[2])) != RELIC_OK)
            return st;
        if (corners < UINT32_MAX)
            corners++;
        if (!is_face)
            continue;
        if (corners == 1) {
            memcpy(first, c, sizeof first);
        } else if (corners >= 3) {
            if (p->ntri >= RELIC_OBJ_MAX_ELEMENTS)
                return fail_at(p, p->lx.tok, RELIC_E_LIMIT, "more than %u triangles", RELIC_OBJ_MAX_ELEMENTS);
            if (p->fill) {
                relic_obj_mesh *o = p->out;
                o->faces[p->ntri][0] = first[0];
                o->faces[p->ntri][1] = prev[0];
                o->faces[p->ntri][2] = c[0];
                o->face_texcoords[p->ntri][0] = first[1];
                o->face_texcoords[p->ntri][1] = prev[1];
                o->face_texcoords[p->ntri][2] = c[1];
                o->face_normals[p->ntri][0] = first[2];
                o->face_normals[p->ntri][1] = prev[2];
                o->face_normals[p->ntri][2] = c[2];
                o->face_material[p->ntri] = p->have_material ? p->material : RELIC_OBJ_NO_MATERIAL;
                o->face_line[p->ntri] = kw_line;
                if (!p->have_material && o->first_unnamed.line == 0)
                    o->first_unnamed = pos_of(&p->lx, kw_at);
            }
            p->ntri++;
        }
        memcpy(prev, c, sizeof prev);
    }
    if (is_face && corners < 3)
        return fail_at(p, kw_at, RELIC_E_SYNTAX, "a face needs at least 3 vertices, found %u", corners);
    if (!is_face && corners < 1)
        return fail_at(p, kw_at, RELIC_E_SYNTAX, "'%s' needs at least 1 vertex", kw);
    return RELIC_OK;
}

static uint32_t name_hash(const uint8_t *s, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= s[i];
        h *= 16777619u;
    }
    return h;
}

static relic_status usemtl_line(obj_parser *p)
{
    const uint8_t *name, *kw_at = p->lx.tok;
    size_t len;
    obj_token t = lex(&p->lx);

    if (t == TOK_EOL || t == TOK_EOF)
        return fail_at(p, kw_at, RELIC_E_SYNTAX, "'usemtl' needs a material name");
    if (t == TOK_BAD)
        return fail_at(p, p->lx.tok, RELIC_E_SYNTAX, "unexpected byte 0x%02x", (unsigned)*p->lx.tok);
    name = p->lx.tok;
    len = (size_t)(p->lx.cur - p->lx.tok);
    if (len > RELIC_OBJ_MAX_NAME)
        return fail_at(p, name, RELIC_E_LIMIT, "material name longer than %u bytes", RELIC_OBJ_MAX_NAME);
    {
        relic_obj_pos at = pos_of(&p->lx, name);
        relic_status st = expect_eol(p, lex(&p->lx), "the material name (names are one word)");
        if (st != RELIC_OK)
            return st;
        if (p->nusemtl == UINT32_MAX)
            return fail_at(p, name, RELIC_E_LIMIT, "too many usemtl statements");
        p->nusemtl++;
        if (p->fill) {
            relic_obj_mesh *o = p->out;
            uint32_t slot = name_hash(name, len) & p->name_mask, idx;
            for (;;) {
                idx = p->name_slots[slot];
                if (idx == 0)
                    break;
                if (strlen(o->material_names[idx - 1]) == len && memcmp(o->material_names[idx - 1], name, len) == 0)
                    break;
                slot = (slot + 1) & p->name_mask;
            }
            if (idx == 0) {
                idx = ++o->material_count;
                o->material_names[idx - 1] = relic_arena_strndup(p->arena, (const char *)name, len);
                if (o->material_names[idx - 1] == NULL)
                    return fail_at(p, name, RELIC_E_NOMEM, "out of memory for material names");
                o->material_pos[idx - 1] = at;
                p->name_slots[slot] = idx;
            }
            p->material = idx - 1;
        }
        p->have_material = 1;
    }
    return RELIC_OK;
}

/* Statements accepted and ignored (their arguments are not interpreted). */
static const char *const ignored_statements[] = {
    "g", "o", "s", "mtllib", "usemap", "maplib", "lod", "bevel", "c_interp", "d_interp", "shadow_obj", "trace_obj",
};

static relic_status run_pass(obj_parser *p)
{
    relic_status st = RELIC_OK;
    char buf[40];
    obj_token t;
    size_t i;

    p->nv = p->nvt = p->nvn = p->ntri = p->nusemtl = 0;
    p->have_material = 0;
    p->material = 0;
    p->lx.cur = p->lx.base;
    p->lx.line = 1;
    p->lx.line_start = p->lx.base;
    for (;;) {
        t = lex(&p->lx);
        if (t == TOK_EOF)
            return RELIC_OK;
        if (t == TOK_EOL) {
            lexer_newline(&p->lx);
            continue;
        }
        if (t == TOK_BAD)
            return fail_at(p, p->lx.tok, RELIC_E_SYNTAX, "unexpected byte 0x%02x", (unsigned)*p->lx.tok);
        if (t != TOK_WORD)
            return fail_at(p, p->lx.tok, RELIC_E_SYNTAX, "expected a statement keyword, found '%s'",
                           token_text(&p->lx, buf, sizeof buf));
        if (token_is(&p->lx, "v")) {
            float xyz[3];
            const uint8_t *at = p->lx.tok;
            if ((st = numbers_line(p, "v", 3, 7, xyz)) != RELIC_OK)
                return st;
            if (p->nv >= RELIC_OBJ_MAX_ELEMENTS)
                return fail_at(p, at, RELIC_E_LIMIT, "more than %u vertices", RELIC_OBJ_MAX_ELEMENTS);
            if (p->fill)
                memcpy(p->out->vertices[p->nv], xyz, sizeof xyz);
            p->nv++;
        } else if (token_is(&p->lx, "vn")) {
            float xyz[3];
            const uint8_t *at = p->lx.tok;
            if ((st = numbers_line(p, "vn", 3, 3, xyz)) != RELIC_OK)
                return st;
            if (p->nvn >= RELIC_OBJ_MAX_ELEMENTS)
                return fail_at(p, at, RELIC_E_LIMIT, "more than %u normals", RELIC_OBJ_MAX_ELEMENTS);
            if (p->fill)
                memcpy(p->out->normals[p->nvn], xyz, sizeof xyz);
            p->nvn++;
        } else if (token_is(&p->lx, "vt")) {
            float uvw[3];
            const uint8_t *at = p->lx.tok;
            if ((st = numbers_line(p, "vt", 1, 3, uvw)) != RELIC_OK)
                return st;
            if (p->nvt >= RELIC_OBJ_MAX_ELEMENTS)
                return fail_at(p, at, RELIC_E_LIMIT, "more than %u texture coordinates", RELIC_OBJ_MAX_ELEMENTS);
            if (p->fill)
                memcpy(p->out->texcoords[p->nvt], uvw, sizeof p->out->texcoords[p->nvt]);
            p->nvt++;
        } else if (token_is(&p->lx, "vp")) {
            if ((st = numbers_line(p, "vp", 1, 3, NULL)) != RELIC_OK)
                return st;
        } else if (token_is(&p->lx, "f")) {
            if ((st = face_line(p, 1)) != RELIC_OK)
                return st;
        } else if (token_is(&p->lx, "l") || token_is(&p->lx, "p")) {
            if ((st = face_line(p, 0)) != RELIC_OK)
                return st;
        } else if (token_is(&p->lx, "usemtl")) {
            if ((st = usemtl_line(p)) != RELIC_OK)
                return st;
        } else {
            for (i = 0; i < sizeof ignored_statements / sizeof ignored_statements[0]; i++)
                if (token_is(&p->lx, ignored_statements[i]))
                    break;
            if (i == sizeof ignored_statements / sizeof ignored_statements[0])
                return fail_at(p, p->lx.tok, RELIC_E_SYNTAX, "unknown statement '%s'",
                               token_text(&p->lx, buf, sizeof buf));
            if ((st = skip_line(p)) != RELIC_OK)
                return st;
        }
        /* every statement handler stops after its end of line */
        if (p->lx.tok < p->lx.lim)
            lexer_newline(&p->lx);
    }
}

relic_status relic_obj_parse(const char *file, const uint8_t *data, size_t size, relic_arena *a,
                             relic_obj_mesh *out, relic_error *err)
{
    obj_parser p;
    relic_status st;
    uint32_t slots = 1;

    if (out != NULL)
        memset(out, 0, sizeof *out);
    if (out == NULL || a == NULL || (data == NULL && size != 0))
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "%s: NULL argument", file_label(file));
    memset(&p, 0, sizeof p);
    p.file = file;
    p.err = err;
    p.arena = a;
    p.out = out;
    p.lx.base = data != NULL ? data : (const uint8_t *)"";
    p.lx.lim = p.lx.base + size;

    if ((st = run_pass(&p)) != RELIC_OK)
        return st;

    out->vertices = relic_arena_array(a, p.nv, sizeof *out->vertices, _Alignof(float));
    out->normals = relic_arena_array(a, p.nvn, sizeof *out->normals, _Alignof(float));
    out->texcoords = relic_arena_array(a, p.nvt, sizeof *out->texcoords, _Alignof(float));
    out->face_texcoords = relic_arena_array(a, p.ntri, sizeof *out->face_texcoords, _Alignof(uint32_t));
    out->face_normals = relic_arena_array(a, p.ntri, sizeof *out->face_normals, _Alignof(uint32_t));
    out->faces = relic_arena_array(a, p.ntri, sizeof *out->faces, _Alignof(uint32_t));
    out->face_material = relic_arena_array(a, p.ntri, sizeof *out->face_material, _Alignof(uint32_t));
    out->face_line = relic_arena_array(a, p.ntri, sizeof *out->face_line, _Alignof(uint32_t));
    out->material_names = relic_arena_array(a, p.nusemtl, sizeof *out->material_names, _Alignof(char *));
    out->material_pos = relic_arena_array(a, p.nusemtl, sizeof *out->material_pos, _Alignof(relic_obj_pos));
    while (slots < p.nusemtl * 2ull && slots < (1u << 31))
        slots <<= 1;
    p.name_slots = relic_arena_array(a, slots, sizeof *p.name_slots, _Alignof(uint32_t));
    p.name_mask = slots - 1;
    if (!out->vertices || !out->normals || !out->texcoords || !out->face_texcoords || !out->face_normals ||
        !out->faces || !out->face_material || !out->face_line || !out->material_names || !out->material_pos ||
        !p.name_slots) {
        memset(out, 0, sizeof *out);
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "%s: out of memory for %u vertices and %u triangles",
                          file_label(file), p.nv, p.ntri);
    }
    p.fill = 1;
    if ((st = run_pass(&p)) != RELIC_OK) {
        memset(out, 0, sizeof *out);
        return st;
    }
    out->vertex_count = p.nv;
    out->face_count = p.ntri;
    out->normal_count = p.nvn;
    out->texcoord_count = p.nvt;
    return RELIC_OK;
}

/* ---------------------------------------------------------------------- */
/* Material names (PyKotor, common/geometry.py; kotorblender, constants.py)   */
/* ---------------------------------------------------------------------- */

/* Names other tools use for the same rows (PyKotor). */
static const struct {
    const char *name;
    uint32_t id;
} material_aliases[] = {
    {"Undefined", 0},
    {"NonWalkGrass", 19},
};

/* surfacemat.2da rows with a name: 0..30 (relic_bwm_material_name). */
#define NAMED_MATERIAL_ROWS 31u

static int ascii_lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int same_ignoring_case(const char *a, const char *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (ascii_lower((unsigned char)a[i]) != ascii_lower((unsigned char)b[i]) || a[i] == '\0')
            return 0;
    return 1;
}

/* All digits, at least one: the value (up to INT32_MAX) or -1. */
static int64_t all_digits(const char *s)
{
    int64_t v = 0;
    if (*s == '\0')
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (*s - '0');
        if (v > INT32_MAX)
            return -1;
    }
    return v;
}

int64_t relic_obj_material_id(const char *name)
{
    static const char *const prefixes[] = {"surfacemat", "material", "mat"};
    size_t n, i;
    uint32_t id;

    if (name == NULL)
        return -1;
    n = strlen(name);
    for (id = 0; id < NAMED_MATERIAL_ROWS; id++) {
        const char *t = relic_bwm_material_name(id);
        if (t != NULL && strlen(t) == n && same_ignoring_case(name, t, n))
            return id;
    }
    for (i = 0; i < sizeof material_aliases / sizeof material_aliases[0]; i++)
        if (strlen(material_aliases[i].name) == n && same_ignoring_case(name, material_aliases[i].name, n))
            return material_aliases[i].id;
    if (all_digits(name) >= 0)
        return all_digits(name);
    for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t k = strlen(prefixes[i]);
        if (n > k && same_ignoring_case(name, prefixes[i], k)) {
            const char *rest = name + k;
            if (*rest == '_' || *rest == '-')
                rest++;
            return all_digits(rest);
        }
    }
    return -1;
}

const char *relic_obj_material_label(uint32_t material, char *buf, size_t n)
{
    const char *t = relic_bwm_material_name(material);
    if (buf == NULL || n == 0)
        return "";
    if (t != NULL)
        snprintf(buf, n, "%s", t);
    else
        snprintf(buf, n, "surfacemat_%u", material);
    return buf;
}

/* ---------------------------------------------------------------------- */
/* OBJ -> BWM geometry                                                     */
/* ---------------------------------------------------------------------- */

relic_status relic_obj_to_bwm(const char *file, const relic_obj_mesh *obj, relic_arena *a,
                              relic_bwm_mesh *out, uint32_t *walkable_count, relic_error *err)
{
    uint32_t *ids, (*faces)[3], *mats, i, k = 0, walk = 0;
    int pass;

    if (out != NULL)
        memset(out, 0, sizeof *out);
    if (walkable_count != NULL)
        *walkable_count = 0;
    if (obj == NULL || a == NULL || out == NULL || walkable_count == NULL)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "%s: NULL argument", file_label(file));
    if (obj->first_unnamed.line != 0)
        return fail_pos(err, file, obj->first_unnamed, RELIC_E_RANGE,
                        "face has no surface material: put 'usemtl NAME' (e.g. usemtl Stone) before it");
    ids = relic_arena_array(a, obj->material_count, sizeof *ids, _Alignof(uint32_t));
    faces = relic_arena_array(a, obj->face_count, sizeof *faces, _Alignof(uint32_t));
    mats = relic_arena_array(a, obj->face_count, sizeof *mats, _Alignof(uint32_t));
    if (ids == NULL || faces == NULL || mats == NULL)
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "%s: out of memory for %u faces", file_label(file),
                          obj->face_count);
    for (i = 0; i < obj->material_count; i++) {
        int64_t id = relic_obj_material_id(obj->material_names[i]);
        if (id < 0)
            return fail_pos(err, file, obj->material_pos[i], RELIC_E_RANGE,
                            "unknown surface material '%s' (use a name such as Stone, Metal or NonWalk, "
                            "a surfacemat.2da row number, or surfacemat_N)",
                            obj->material_names[i]);
        ids[i] = (uint32_t)id;
    }
    for (i = 0; i < obj->face_count; i++)
        if (obj->face_material[i] >= obj->material_count)
            return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "%s: face %u has material %u of %u", file_label(file),
                              i, obj->face_material[i], obj->material_count);
    for (pass = 0; pass < 2; pass++)
        for (i = 0; i < obj->face_count; i++) {
            uint32_t m = ids[obj->face_material[i]];
            if (relic_bwm_material_walkable(m) != (pass == 0))
                continue;
            memcpy(faces[k], obj->faces[i], sizeof faces[k]);
            mats[k++] = m;
            walk += pass == 0;
        }
    out->vertices = (const float (*)[3])obj->vertices;
    out->vertex_count = obj->vertex_count;
    out->faces = (const uint32_t (*)[3])faces;
    out->materials = mats;
    out->face_count = obj->face_count;
    *walkable_count = walk;
    return RELIC_OK;
}
