/* json_scan.c — a strict JSON reader for relic_gff_json_to_gff's fast
 * path (json_scan.h has the contract).
 *
 * Why not yajl here: yajl reads a byte at a time through a lexer state
 * machine and a parser state stack, and was 61% of JSON -> GFF's
 * instructions (docs/benchmarks.md, "JSON -> GFF"). This reader takes
 * the whole text at once, so a token is a loop over bytes it can see:
 * strings eight bytes a step, numbers and literals straight through, and
 * nesting a bit per level. It reports the same events through the same
 * callback table, so the converter is one; whatever it is not sure of it
 * refuses, and the caller goes back to yajl, which stays the reader of
 * record (every message about bad JSON is yajl's). */
#include <string.h>

#include "json_scan.h"

typedef const unsigned char *ptr;

typedef struct scan {
    ptr end;
    relic_arena *a;
    unsigned char *buf; /* escaped strings, decoded */
    size_t cap;
} scan;

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* RFC 8259 §2: space, horizontal tab, line feed, carriage return. */
static ptr skip_ws(ptr p, ptr end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) p++;
    return p;
}

/* Compact text has no whitespace between tokens: one compare decides. */
#define WS(p, end) ((p) < (end) && *(p) <= ' ' ? skip_ws(p, end) : (p))

/* The length of the well-formed UTF-8 sequence at p (RFC 3629 §4: no
 * overlong form, no surrogate, nothing past U+10FFFF), 0 if there is none. */
static int utf8_len(ptr p, ptr end)
{
    const unsigned c = p[0];
    const ptrdiff_t room = end - p;
    if (c < 0xC2) return 0;
    if (c < 0xE0) return room >= 2 && (p[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c < 0xF0) {
        if (room < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80) return 0;
        if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] >= 0xA0)) return 0;
        return 3;
    }
    if (c < 0xF5) {
        if (room < 4 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80) return 0;
        if ((c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] >= 0x90)) return 0;
        return 4;
    }
    return 0;
}

/* A byte a string cannot pass over without a look: the quote, the
 * backslash, a control character, the start of a multi-byte character. */
static int special(unsigned c) { return c == '"' || c == '\\' || c < 0x20 || c >= 0x80; }

/* The 0-based position of the first special byte among the eight at p,
 * 8 when there is none. Loaded little-endian, so byte i is bits 8i ..
 * 8i + 7, and the lowest flag of each test is exact (a borrow only runs
 * upwards): that is the one taken. */
static unsigned first_special(ptr p)
{
    const uint64_t w = relic_load_u64le(p);
    const uint64_t q = w ^ (ONES * '"'), b = w ^ (ONES * '\\');
    const uint64_t m = (((q - ONES) & ~q) | ((b - ONES) & ~b) | ((w - ONES * 0x20) & ~w) | w) & HIGHS;
    return m ? (unsigned)__builtin_ctzll(m) / 8 : 8;
}

static int hex4(ptr p, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        const unsigned c = p[i];
        unsigned d;
        if (c - '0' < 10)
            d = c - '0';
        else if ((c | 0x20) - 'a' < 6)
            d = (c | 0x20) - 'a' + 10;
        else
            return 0;
        v = v << 4 | d;
    }
    *out = v;
    return 1;
}

/* The escaped string p .. q (without its quotes; every escape in it known
 * to be complete) decoded into s->buf: *n bytes. 0 for a \u escape of a
 * surrogate (yajl pairs them its own way) or no memory. */
static int decode(scan *s, ptr p, ptr q, size_t *n)
{
    const size_t need = (size_t)(q - p) + 1;
    if (need > s->cap) {
        size_t cap = s->cap ? s->cap : 256;
        while (cap < need) cap *= 2;
        if (!(s->buf = relic_arena_alloc(s->a, cap, 1))) return 0;
        s->cap = cap;
    }
    unsigned char *o = s->buf;
    while (p < q) {
        if (*p != '\\') {
            *o++ = *p++;
            continue;
        }
        const unsigned e = p[1];
        p += 2;
        switch (e) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        default: { /* 'u', checked by string() */
            unsigned cp = 0;
            hex4(p, &cp);
            p += 4;
            if (cp - 0xD800 < 0x800) return 0;
            if (cp < 0x80) {
                *o++ = (unsigned char)cp;
            } else if (cp < 0x800) {
                *o++ = (unsigned char)(0xC0 | cp >> 6);
                *o++ = (unsigned char)(0x80 | (cp & 0x3F));
            } else {
                *o++ = (unsigned char)(0xE0 | cp >> 12);
                *o++ = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
                *o++ = (unsigned char)(0x80 | (cp & 0x3F));
            }
        }
        }
    }
    *n = (size_t)(o - s->buf);
    return 1;
}

/* The string whose opening quote is at *pp: its text in *out, *n bytes,
 * *pp past its closing quote. 0 when it is not a well-formed string. */
static int string(scan *s, ptr *pp, ptr *out, size_t *n)
{
    ptr p = *pp + 1;
    const ptr start = p, end = s->end;
    int escaped = 0;
    for (;;) {
        if (end - p >= 8) {
            const unsigned at = first_special(p);
            p += at;
            if (at == 8) continue;
        } else {
            while (p < end && !special(*p)) p++;
            if (p >= end) return 0;
        }
        const unsigned c = *p;
        if (c == '"') break;
        if (c == '\\') {
            if (end - p < 2) return 0;
            const unsigned e = p[1];
            if (e == 'u') {
                unsigned cp;
                if (end - p < 6 || !hex4(p + 2, &cp)) return 0;
                p += 6;
            } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
                p += 2;
            } else {
                return 0;
            }
            escaped = 1;
            continue;
        }
        if (c < 0x20) return 0;
        const int k = utf8_len(p, end);
        if (!k) return 0;
        p += k;
    }
    *pp = p + 1;
    if (!escaped) {
        *out = start;
        *n = (size_t)(p - start);
        return 1;
    }
    if (!decode(s, start, p, n)) return 0;
    *out = s->buf;
    return 1;
}

/* RFC 8259 §6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static ptr number(ptr p, ptr end)
{
    if (p < end && *p == '-') p++;
    if (p < end && *p == '0') {
        p++;
    } else if (p < end && (unsigned)(*p - '1') < 9) {
        while (++p < end && (unsigned)(*p - '0') < 10) {}
    } else {
        return NULL;
    }
    if (p < end && *p == '.') {
        if (++p >= end || (unsigned)(*p - '0') >= 10) return NULL;
        while (++p < end && (unsigned)(*p - '0') < 10) {}
    }
    if (p < end && (*p | 0x20) == 'e') {
        if (++p < end && (*p == '+' || *p == '-')) p++;
        if (p >= end || (unsigned)(*p - '0') >= 10) return NULL;
        while (++p < end && (unsigned)(*p - '0') < 10) {}
    }
    return p;
}

static int literal(ptr p, ptr end, const char *word, size_t n)
{
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

/* A callback that said 0 stops the scan, as it stops yajl. */
#define EVENT(call)            \
    do {                       \
        if (!(call)) return 0; \
    } while (0)

int relic_json_scan(const char *text, size_t len, const yajl_callbacks *cb, void *ctx, relic_arena *a)
{
    uint64_t object[RELIC_JSON_SCAN_MAX_DEPTH / 64] = {0}; /* bit per level: 1 an object, 0 an array */
    unsigned depth = 0;
    scan s = {(ptr)text + len, a, NULL, 0};
    const ptr end = s.end;
    ptr p = WS((ptr)text, end);
    ptr str;
    size_t n;
    if (!cb->yajl_number) return 0; /* numbers as text only */
value:
    if (p >= end) return 0;
    switch (*p) {
    case '{':
    case '[': {
        const int is_object = *p == '{';
        if (is_object)
            EVENT(!cb->yajl_start_map || cb->yajl_start_map(ctx));
        else
            EVENT(!cb->yajl_start_array || cb->yajl_start_array(ctx));
        p = WS(p + 1, end);
        if (p < end && *p == (is_object ? '}' : ']')) {
            p++;
            if (is_object)
                EVENT(!cb->yajl_end_map || cb->yajl_end_map(ctx));
            else
                EVENT(!cb->yajl_end_array || cb->yajl_end_array(ctx));
            goto after;
        }
        if (depth == RELIC_JSON_SCAN_MAX_DEPTH) return 0;
        const uint64_t bit = (uint64_t)1 << (depth % 64);
        object[depth / 64] = is_object ? object[depth / 64] | bit : object[depth / 64] & ~bit;
        depth++;
        if (is_object) goto key;
        goto value;
    }
    case '"':
        if (!string(&s, &p, &str, &n)) return 0;
        EVENT(!cb->yajl_string || cb->yajl_string(ctx, str, n));
        goto after;
    case 't':
        if (!literal(p, end, "true", 4)) return 0;
        p += 4;
        EVENT(!cb->yajl_boolean || cb->yajl_boolean(ctx, 1));
        goto after;
    case 'f':
        if (!literal(p, end, "false", 5)) return 0;
        p += 5;
        EVENT(!cb->yajl_boolean || cb->yajl_boolean(ctx, 0));
        goto after;
    case 'n':
        if (!literal(p, end, "null", 4)) return 0;
        p += 4;
        EVENT(!cb->yajl_null || cb->yajl_null(ctx));
        goto after;
    default: {
        const ptr q = number(p, end);
        if (!q) return 0;
        EVENT(cb->yajl_number(ctx, (const char *)p, (size_t)(q - p)));
        p = q;
        goto after;
    }
    }
key:
    if (p >= end || *p != '"' || !string(&s, &p, &str, &n)) return 0;
    EVENT(!cb->yajl_map_key || cb->yajl_map_key(ctx, str, n));
    p = WS(p, end);
    if (p >= end || *p != ':') return 0;
    p = WS(p + 1, end);
    goto value;
after:
    p = WS(p, end);
    if (depth == 0) return p == end;
    if (p >= end) return 0;
    {
        const int in_object = (int)(object[(depth - 1) / 64] >> ((depth - 1) % 64) & 1);
        if (*p == ',') {
            p = WS(p + 1, end);
            if (in_object) goto key;
            goto value;
        }
        if (*p == (in_object ? '}' : ']')) {
            p++;
            depth--;
            if (in_object)
                EVENT(!cb->yajl_end_map || cb->yajl_end_map(ctx));
            else
                EVENT(!cb->yajl_end_array || cb->yajl_end_array(ctx));
            goto after;
        }
    }
    return 0;
}
