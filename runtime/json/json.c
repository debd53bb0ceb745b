/* json.c — JSON output helpers shared by every generated printer, and the
 * json-c based reading helpers of the generated readers (relic_json.h).
 * Floats print in the shortest of %.7g / %.9g (f32) or %.15g / %.17g (f64)
 * that reads back to the same bits; NaN and infinities, which JSON cannot
 * hold, print as a string of their bits ("0x7fc00000"). Strings are bytes
 * shown as Latin-1 code points, so any byte sequence survives a round trip. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "relic_gen.h"
#include "relic_json.h"

void relic_json_f32(relic_buf *o, float v)
{
    char b[48];
    if (!isfinite(v)) {
        uint32_t u;
        memcpy(&u, &v, 4);
        relic_buf_printf(o, "\"0x%08" PRIx32 "\"", u);
        return;
    }
    relic_buf_append(o, b, relic_f32_shortest(v, b));
}

void relic_json_f64(relic_buf *o, double v)
{
    char b[48];
    if (!isfinite(v)) {
        uint64_t u;
        memcpy(&u, &v, 8);
        relic_buf_printf(o, "\"0x%016" PRIx64 "\"", u);
        return;
    }
    if (v == 0 && signbit(v)) { relic_buf_puts(o, "-0.0"); return; }
    snprintf(b, sizeof b, "%.15g", v);
    if (strtod(b, NULL) != v) snprintf(b, sizeof b, "%.17g", v);
    relic_buf_puts(o, b);
}

void relic_json_string(relic_buf *o, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    relic_buf_puts(o, "\"");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') { char e[3] = { '\\', (char)c, 0 }; relic_buf_puts(o, e); }
        else if (c == '\n') relic_buf_puts(o, "\\n");
        else if (c == '\t') relic_buf_puts(o, "\\t");
        else if (c < 0x20 || c >= 0x7f) {
            char e[7] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0 };
            relic_buf_puts(o, e);
        } else relic_buf_append(o, &c, 1);
    }
    relic_buf_puts(o, "\"");
}

void relic_json_hex(relic_buf *o, const uint8_t *p, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    relic_buf_puts(o, "\"");
    uint8_t *d = relic_buf_extend(o, n * 2);
    if (d)
        for (size_t i = 0; i < n; i++) { d[2 * i] = (uint8_t)hex[p[i] >> 4]; d[2 * i + 1] = (uint8_t)hex[p[i] & 15]; }
    relic_buf_puts(o, "\"");
}

void relic_json_u64(relic_buf *o, uint64_t v)
{
    char b[24];
    size_t n = sizeof b;
    do { b[--n] = (char)('0' + v % 10); v /= 10; } while (v);
    relic_buf_append(o, b + n, sizeof b - n);
}

void relic_json_i64(relic_buf *o, int64_t v)
{
    if (v < 0) {
        relic_buf_append(o, "-", 1);
        relic_json_u64(o, (uint64_t)0 - (uint64_t)v);
    } else {
        relic_json_u64(o, (uint64_t)v);
    }
}

void relic_json_indent(relic_buf *o, int depth)
{
    static const char sp[] = "                                                                ";
    size_t n = (size_t)depth * 2;
    while (n > 0) {
        size_t k = n < sizeof sp - 1 ? n : sizeof sp - 1;
        relic_buf_append(o, sp, k);
        n -= k;
    }
}

/* ---------------------------------------------------------------- reading */

relic_status relic_jr_parse(const char *text, size_t len, json_object **out, relic_error *err)
{
    json_tokener *tok = json_tokener_new_ex(64);
    if (!tok) return relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot create a JSON parser");
    if (len > INT32_MAX) { json_tokener_free(tok); return relic_fail(err, RELIC_E_LIMIT, 0, "", "JSON text over 2 GiB"); }
    json_object *doc = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error je = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    if (je == json_tokener_continue) je = json_tokener_error_parse_eof;
    if (!doc || je != json_tokener_success) {
        relic_status st = relic_fail(err, RELIC_E_SYNTAX, end, "", "invalid JSON at byte %zu: %s", end, json_tokener_error_desc(je));
        json_object_put(doc);
        json_tokener_free(tok);
        return st;
    }
    /* only whitespace may follow the document */
    for (size_t i = end; i < len; i++)
        if (text[i] != ' ' && text[i] != '\n' && text[i] != '\r' && text[i] != '\t') {
            json_object_put(doc);
            json_tokener_free(tok);
            return relic_fail(err, RELIC_E_SYNTAX, i, "", "unexpected text after the JSON document at byte %zu", i);
        }
    json_tokener_free(tok);
    *out = doc;
    return RELIC_OK;
}

void relic_jr_push(relic_jr *r, const char *name, int64_t index)
{
    size_t cap = sizeof r->path;
    int n;
    if (name) n = snprintf(r->path + r->plen, cap - r->plen, "%s%s", r->plen ? "." : "", name);
    else n = snprintf(r->path + r->plen, cap - r->plen, "[%lld]", (long long)index);
    r->plen += (n > 0 && (size_t)n < cap - r->plen) ? (size_t)n : 0;
    /* remember the length before this segment in the byte after the NUL is not possible; pop rescans */
}

void relic_jr_pop(relic_jr *r)
{
    /* drop the last segment: either "[k]" or ".name" / "name" */
    if (r->plen == 0) return;
    size_t i = r->plen;
    if (r->path[i - 1] == ']') {
        while (i > 0 && r->path[i - 1] != '[') i--;
        i = i ? i - 1 : 0;
    } else {
        while (i > 0 && r->path[i - 1] != '.' && r->path[i - 1] != ']') i--;
        if (i > 0 && r->path[i - 1] == '.') i--;
    }
    r->plen = i;
    r->path[i] = 0;
}

relic_status relic_jr_fail(relic_jr *r, relic_status code, const char *fmt, ...)
{
    char msg[RELIC_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return relic_fail(r->err, code, 0, r->path, "%s", msg);
}

relic_status relic_jr_check_format(relic_jr *r, json_object *doc, const char *name)
{
    json_object *f;
    if (!json_object_is_type(doc, json_type_object)) return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a JSON object at the top");
    if (!json_object_object_get_ex(doc, "format", &f)) return RELIC_OK;
    if (!json_object_is_type(f, json_type_string) || strcmp(json_object_get_string(f), name) != 0)
        return relic_jr_fail(r, RELIC_E_UNSUPPORTED, "this JSON is not the %s format (\"format\": %s)", name, json_object_to_json_string(f));
    return RELIC_OK;
}

relic_status relic_jr_member(relic_jr *r, json_object *obj, const char *key, int required, json_object **out)
{
    *out = NULL;
    if (!json_object_object_get_ex(obj, key, out) || !*out) {
        *out = NULL;
        if (required) return relic_jr_fail(r, RELIC_E_ARGUMENT, "missing member \"%s\"", key);
    }
    return RELIC_OK;
}

relic_status relic_jr_int(relic_jr *r, json_object *v, int64_t lo, uint64_t hi, int64_t *out)
{
    if (!v || !json_object_is_type(v, json_type_int)) return relic_jr_fail(r, RELIC_E_SYNTAX, "expected an integer");
    int64_t s = json_object_get_int64(v);
    if (s == INT64_MAX) {
        uint64_t u = json_object_get_uint64(v);
        if (u > hi) return relic_jr_fail(r, RELIC_E_RANGE, "%llu does not fit (max %llu)", (unsigned long long)u, (unsigned long long)hi);
        *out = (int64_t)u;
        return RELIC_OK;
    }
    if (s < lo || (s >= 0 && (uint64_t)s > hi))
        return relic_jr_fail(r, RELIC_E_RANGE, "%lld does not fit (range %lld..%llu)", (long long)s, (long long)lo, (unsigned long long)hi);
    *out = s;
    return RELIC_OK;
}

relic_status relic_jr_enum(relic_jr *r, json_object *v, int (*from_name)(const char *, int64_t *),
                           int64_t lo, uint64_t hi, int64_t *out)
{
    if (v && json_object_is_type(v, json_type_string)) {
        if (from_name(json_object_get_string(v), out)) return RELIC_OK;
        return relic_jr_fail(r, RELIC_E_RANGE, "unknown name \"%s\"", json_object_get_string(v));
    }
    return relic_jr_int(r, v, lo, hi, out);
}

/* A "0x..." string of IEEE bits: 1 and *bits when it is one. */
static int bits_string(json_object *v, unsigned long long max, unsigned long long *bits)
{
    const char *s = json_object_get_string(v);
    char *end;
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2]) return 0;
    *bits = strtoull(s + 2, &end, 16);
    return *end == 0 && *bits <= max;
}

relic_status relic_jr_f32(relic_jr *r, json_object *v, float *out)
{
    if (v && json_object_is_type(v, json_type_string)) {
        unsigned long long bits;
        if (!bits_string(v, 0xFFFFFFFFull, &bits))
            return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a number or \"0x…\" float bits, found \"%s\"", json_object_get_string(v));
        uint32_t u = (uint32_t)bits;
        memcpy(out, &u, 4);
        return RELIC_OK;
    }
    if (v && json_object_is_type(v, json_type_double)) {
        /* the literal text, so the float is the one nearest the decimal */
        *out = strtof(json_object_to_json_string(v), NULL);
        return RELIC_OK;
    }
    if (v && json_object_is_type(v, json_type_int)) {
        *out = (float)json_object_get_int64(v);
        return RELIC_OK;
    }
    return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a number");
}

relic_status relic_jr_f64(relic_jr *r, json_object *v, double *out)
{
    if (v && json_object_is_type(v, json_type_string)) {
        unsigned long long bits;
        if (!bits_string(v, ~0ull, &bits))
            return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a number or \"0x…\" float bits, found \"%s\"", json_object_get_string(v));
        uint64_t u = bits;
        memcpy(out, &u, 8);
        return RELIC_OK;
    }
    if (v && json_object_is_type(v, json_type_double)) {
        *out = strtod(json_object_to_json_string(v), NULL);
        return RELIC_OK;
    }
    if (v && json_object_is_type(v, json_type_int)) {
        *out = (double)json_object_get_int64(v);
        return RELIC_OK;
    }
    return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a number");
}

relic_status relic_jr_array(relic_jr *r, json_object *v, size_t *n)
{
    if (!v || !json_object_is_type(v, json_type_array)) return relic_jr_fail(r, RELIC_E_SYNTAX, "expected an array");
    *n = json_object_array_length(v);
    return RELIC_OK;
}

/* Decode a JSON string's UTF-8 into Latin-1 bytes; code points > 0xFF fail. */
static relic_status latin1(relic_jr *r, json_object *v, char *dst, size_t cap, size_t *n)
{
    if (!v || !json_object_is_type(v, json_type_string)) return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a string");
    const unsigned char *s = (const unsigned char *)json_object_get_string(v);
    size_t len = (size_t)json_object_get_string_len(v), k = 0;
    for (size_t i = 0; i < len;) {
        unsigned cp;
        if (s[i] < 0x80) cp = s[i++];
        else if ((s[i] & 0xE0) == 0xC0 && i + 1 < len) { cp = ((s[i] & 0x1Fu) << 6) | (s[i + 1] & 0x3Fu); i += 2; }
        else return relic_jr_fail(r, RELIC_E_RANGE, "character beyond U+00FF in a byte string");
        if (cp > 0xFF) return relic_jr_fail(r, RELIC_E_RANGE, "character beyond U+00FF in a byte string");
        if (k >= cap) return relic_jr_fail(r, RELIC_E_RANGE, "string longer than %zu bytes", cap);
        dst[k++] = (char)cp;
    }
    *n = k;
    return RELIC_OK;
}

relic_status relic_jr_fixed_string(relic_jr *r, json_object *v, char *dst, size_t n)
{
    size_t k;
    memset(dst, 0, n);
    return latin1(r, v, dst, n, &k);
}

relic_status relic_jr_string(relic_jr *r, json_object *v, char **dst, size_t *n)
{
    if (!v || !json_object_is_type(v, json_type_string)) return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a string");
    size_t cap = (size_t)json_object_get_string_len(v);
    char *p = relic_arena_alloc(r->arena, cap + 1, 1);
    if (!p) return relic_jr_fail(r, RELIC_E_NOMEM, "out of memory for a %zu-byte string", cap);
    *dst = p;
    return latin1(r, v, p, cap, n);
}

static int hexval(int c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1; }

static relic_status unhex(relic_jr *r, json_object *v, uint8_t *dst, size_t n)
{
    const char *s = json_object_get_string(v);
    for (size_t i = 0; i < n; i++) {
        int a = hexval(s[2 * i]), b = hexval(s[2 * i + 1]);
        if (a < 0 || b < 0) return relic_jr_fail(r, RELIC_E_SYNTAX, "bad hex digit at character %zu", 2 * i);
        dst[i] = (uint8_t)(a * 16 + b);
    }
    return RELIC_OK;
}

relic_status relic_jr_fixed_hex(relic_jr *r, json_object *v, uint8_t *dst, size_t n)
{
    if (!v || !json_object_is_type(v, json_type_string)) return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a hex string");
    if ((size_t)json_object_get_string_len(v) != 2 * n) return relic_jr_fail(r, RELIC_E_RANGE, "expected %zu hex digits", 2 * n);
    return unhex(r, v, dst, n);
}

relic_status relic_jr_hex(relic_jr *r, json_object *v, uint8_t **dst, size_t *n)
{
    if (!v || !json_object_is_type(v, json_type_string)) return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a hex string");
    size_t len = (size_t)json_object_get_string_len(v);
    if (len % 2) return relic_jr_fail(r, RELIC_E_SYNTAX, "odd number of hex digits");
    *n = len / 2;
    *dst = relic_arena_alloc(r->arena, *n ? *n : 1, 1);
    if (!*dst) return relic_jr_fail(r, RELIC_E_NOMEM, "out of memory for %zu bytes", *n);
    return unhex(r, v, *dst, *n);
}
