/* json.c — JSON output helpers shared by every generated printer, and the
 * reading helpers of the generated readers (relic_json.h): a document built
 * from yajl's parse events in the caller's arena.
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
    if (v == 0 && signbit(v)) {
        relic_buf_puts(o, "-0.0");
        return;
    }
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
        if (c == '"' || c == '\\') {
            char e[3] = {'\\', (char)c, 0};
            relic_buf_puts(o, e);
        } else if (c == '\n') relic_buf_puts(o, "\\n");
        else if (c == '\t') relic_buf_puts(o, "\\t");
        else if (c < 0x20 || c >= 0x7f) {
            char e[7] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0};
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
        for (size_t i = 0; i < n; i++) {
            d[2 * i] = (uint8_t)hex[p[i] >> 4];
            d[2 * i + 1] = (uint8_t)hex[p[i] & 15];
        }
    relic_buf_puts(o, "\"");
}

void relic_json_u64(relic_buf *o, uint64_t v)
{
    char b[24];
    size_t n = sizeof b;
    do {
        b[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
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

/* ------------------------------------------------------ yajl's allocator */

/* Each block carries its size in front, for realloc. */
#define MEM_HEADER ((size_t)16)

static void *mem_malloc(void *ctx, size_t size)
{
    relic_json_mem *m = ctx;
    if (size > SIZE_MAX - MEM_HEADER) longjmp(m->nomem, 1);
    uint8_t *p = relic_arena_alloc(m->arena, size + MEM_HEADER, MEM_HEADER);
    if (!p) longjmp(m->nomem, 1);
    memcpy(p, &size, sizeof size);
    return p + MEM_HEADER;
}

static void *mem_realloc(void *ctx, void *ptr, size_t size)
{
    relic_json_mem *m = ctx;
    relic_arena *a = m->arena;
    if (!ptr) return mem_malloc(ctx, size);
    uint8_t *p = ptr;
    size_t old;
    memcpy(&old, p - MEM_HEADER, sizeof old);
    if (size <= old) return ptr;
    /* the newest block grows in place */
    if (p + old == a->cur && (size_t)(a->end - p) >= size && (a->limit == 0 || size - old <= a->limit - a->used)) {
        a->cur = p + size;
        a->used += size - old;
        memset(p + old, 0, size - old);
        memcpy(p - MEM_HEADER, &size, sizeof size);
        return ptr;
    }
    uint8_t *q = mem_malloc(ctx, size);
    memcpy(q, p, old);
    return q;
}

static void mem_free(void *ctx, void *ptr)
{
    (void)ctx;
    (void)ptr; /* the arena frees everything at once */
}

void relic_json_mem_init(relic_json_mem *m, relic_arena *a)
{
    m->arena = a;
    m->funcs.malloc = mem_malloc;
    m->funcs.realloc = mem_realloc;
    m->funcs.free = mem_free;
    m->funcs.ctx = m;
}

int relic_json_mem_room(const relic_json_mem *m, size_t n)
{
    const relic_arena *a = m->arena;
    if (a->limit != 0 && a->limit - a->used < n + MEM_HEADER) return 0;
    return a->heap || (a->cur && (size_t)(a->end - a->cur) >= n + 2 * MEM_HEADER);
}

void *relic_json_mem_alloc(relic_json_mem *m, size_t size)
{
    void *p = relic_arena_alloc(m->arena, size, 8);
    if (!p) longjmp(m->nomem, 1);
    return p;
}

/* ----------------------------------------------------------- the document */

#include <yajl/yajl_parse.h>

#define JV_MAX_DEPTH 512

typedef struct jbuild {
    relic_json_mem *mem;
    const char *text, *end;
    relic_jv *root;
    relic_jv *open[JV_MAX_DEPTH];
    relic_jv *last[JV_MAX_DEPTH];
    int depth;
    const char *key;
    uint32_t klen;
    int too_deep, too_long;
} jbuild;

/* Bytes yajl hands over: in place when they lie in the JSON text (no
 * escapes), else copied out of yajl's reused decode buffer. */
static const char *keep(jbuild *b, const void *p, size_t n)
{
    const char *c = p;
    if (c >= b->text && c <= b->end && n <= (size_t)(b->end - c)) return c;
    char *q = relic_json_mem_alloc(b->mem, n + 1);
    memcpy(q, p, n);
    return q;
}

static relic_jv *add(jbuild *b, uint8_t kind)
{
    relic_jv *v = relic_json_mem_alloc(b->mem, sizeof *v);
    v->kind = kind;
    if (b->depth == 0) {
        b->root = v;
        return v;
    }
    relic_jv *parent = b->open[b->depth - 1];
    if (parent->kind == RELIC_JV_OBJECT) {
        v->key = b->key;
        v->klen = b->klen;
    }
    if (b->last[b->depth - 1]) b->last[b->depth - 1]->next = v;
    else parent->u.first = v;
    b->last[b->depth - 1] = v;
    if (parent->len == UINT32_MAX) {
        b->too_long = 1;
        return NULL;
    }
    parent->len++;
    return v;
}

static int on_null(void *ctx) { return add(ctx, RELIC_JV_NULL) != NULL; }
static int on_bool(void *ctx, int t) { return add(ctx, t ? RELIC_JV_TRUE : RELIC_JV_FALSE) != NULL; }

static int on_number(void *ctx, const char *p, size_t n)
{
    jbuild *b = ctx;
    relic_jv *v = add(b, RELIC_JV_NUMBER);
    if (!v) return 0;
    if (n > UINT32_MAX) {
        b->too_long = 1;
        return 0;
    }
    v->u.s = keep(b, p, n);
    v->len = (uint32_t)n;
    v->is_int = !memchr(p, '.', n) && !memchr(p, 'e', n) && !memchr(p, 'E', n);
    return 1;
}

static int on_string(void *ctx, const unsigned char *p, size_t n)
{
    jbuild *b = ctx;
    relic_jv *v = add(b, RELIC_JV_STRING);
    if (!v) return 0;
    if (n > UINT32_MAX) {
        b->too_long = 1;
        return 0;
    }
    v->u.s = keep(b, p, n);
    v->len = (uint32_t)n;
    return 1;
}

static int on_key(void *ctx, const unsigned char *p, size_t n)
{
    jbuild *b = ctx;
    if (n > UINT32_MAX) {
        b->too_long = 1;
        return 0;
    }
    b->key = keep(b, p, n);
    b->klen = (uint32_t)n;
    return 1;
}

static int on_open(jbuild *b, uint8_t kind)
{
    if (b->depth >= JV_MAX_DEPTH) {
        b->too_deep = 1;
        return 0;
    }
    relic_jv *v = add(b, kind);
    if (!v) return 0;
    b->open[b->depth] = v;
    b->last[b->depth] = NULL;
    b->depth++;
    return 1;
}

static int on_start_map(void *ctx) { return on_open(ctx, RELIC_JV_OBJECT); }
static int on_start_array(void *ctx) { return on_open(ctx, RELIC_JV_ARRAY); }

/* The items, linked while parsing, become an array for indexed access. */
static int on_close(void *ctx)
{
    jbuild *b = ctx;
    relic_jv *c = b->open[--b->depth];
    relic_jv *it = c->u.first;
    c->u.items = NULL;
    if (c->len) {
        relic_jv **items = relic_json_mem_alloc(b->mem, (size_t)c->len * sizeof *items);
        for (uint32_t i = 0; i < c->len; i++, it = it->next) items[i] = it;
        c->u.items = items;
    }
    return 1;
}

static const yajl_callbacks jv_callbacks = {
    on_null,
    on_bool,
    NULL,
    NULL,
    on_number,
    on_string,
    on_start_map,
    on_key,
    on_close,
    on_start_array,
    on_close,
};

relic_status relic_jr_parse(const char *text, size_t len, relic_arena *a, const relic_jv **out, relic_error *err)
{
    relic_json_mem mem;
    jbuild b;
    yajl_handle volatile h = NULL;
    volatile int phase = 0;
    memset(&b, 0, sizeof b);
    b.mem = &mem;
    b.text = text;
    b.end = text + len;
    *out = NULL;
    relic_json_mem_init(&mem, a);
    if (setjmp(mem.nomem)) {
        if (phase == 2) /* the message itself did not fit */
            return relic_fail(err, RELIC_E_SYNTAX, h ? yajl_get_bytes_consumed(h) : 0, "", "invalid JSON");
        return relic_fail(err, RELIC_E_NOMEM, h ? yajl_get_bytes_consumed(h) : 0, "", "out of memory parsing JSON");
    }
    h = yajl_alloc(&jv_callbacks, &mem.funcs, &b);
    phase = 1;
    yajl_status ys = yajl_parse(h, (const unsigned char *)text, len);
    if (ys == yajl_status_ok) ys = yajl_complete_parse(h);
    if (ys != yajl_status_ok || !b.root) {
        size_t at = yajl_get_bytes_consumed(h);
        if (b.too_deep) return relic_fail(err, RELIC_E_LIMIT, at, "", "JSON nested deeper than %d at byte %zu", JV_MAX_DEPTH, at);
        if (b.too_long) return relic_fail(err, RELIC_E_LIMIT, at, "", "JSON value over 4 GiB at byte %zu", at);
        phase = 2;
        unsigned char *msg = yajl_get_error(h, 0, NULL, 0);
        /* yajl's message: "lexical error: invalid char in json text." and the like */
        return relic_fail(err, RELIC_E_SYNTAX, at, "", "invalid JSON at byte %zu: %s", at, msg ? (const char *)msg : "?");
    }
    *out = b.root;
    return RELIC_OK;
}

const relic_jv *relic_jv_get(const relic_jv *obj, const char *key)
{
    if (!obj || obj->kind != RELIC_JV_OBJECT || !obj->len) return NULL;
    size_t kl = strlen(key);
    uint32_t n = obj->len, i = obj->hint < n ? obj->hint : 0;
    for (uint32_t k = 0; k < n; k++) {
        const relic_jv *m = obj->u.items[i];
        if (m->klen == kl && memcmp(m->key, key, kl) == 0) {
            ((relic_jv *)obj)->hint = i + 1; /* arena memory: the hint is a cache */
            return m;
        }
        if (++i == n) i = 0;
    }
    return NULL;
}

const relic_jv *relic_jv_at(const relic_jv *arr, size_t i)
{
    if (!arr || arr->kind != RELIC_JV_ARRAY || i >= arr->len) return NULL;
    return arr->u.items[i];
}

int relic_jv_str_eq(const relic_jv *v, const char *s)
{
    size_t n = strlen(s);
    return v && v->kind == RELIC_JV_STRING && v->len == n && memcmp(v->u.s, s, n) == 0;
}

static void print_utf8(relic_buf *o, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    relic_buf_append(o, "\"", 1);
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        relic_buf_append(o, s + run, i - run);
        run = i + 1;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            relic_buf_append(o, e, 2);
        } else {
            char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            relic_buf_append(o, e, 6);
        }
    }
    relic_buf_append(o, s + run, n - run);
    relic_buf_append(o, "\"", 1);
}

void relic_jv_print(relic_buf *o, const relic_jv *v)
{
    switch (v->kind) {
    case RELIC_JV_NULL: relic_buf_append(o, "null", 4); break;
    case RELIC_JV_FALSE: relic_buf_append(o, "false", 5); break;
    case RELIC_JV_TRUE: relic_buf_append(o, "true", 4); break;
    case RELIC_JV_NUMBER: relic_buf_append(o, v->u.s, v->len); break;
    case RELIC_JV_STRING: print_utf8(o, v->u.s, v->len); break;
    default:
        relic_buf_append(o, v->kind == RELIC_JV_ARRAY ? "[" : "{", 1);
        for (uint32_t i = 0; i < v->len; i++) {
            const relic_jv *it = v->u.items[i];
            if (i) relic_buf_append(o, ",", 1);
            if (v->kind == RELIC_JV_OBJECT) {
                print_utf8(o, it->key, it->klen);
                relic_buf_append(o, ":", 1);
            }
            relic_jv_print(o, it); /* depth is bounded by the parser's limit */
        }
        relic_buf_append(o, v->kind == RELIC_JV_ARRAY ? "]" : "}", 1);
    }
}

/* ---------------------------------------------------------------- reading */

void relic_jr_push(relic_jr *r, const char *name, int64_t index)
{
    size_t cap = sizeof r->path;
    int n;
    if (name) n = snprintf(r->path + r->plen, cap - r->plen, "%s%s", r->plen ? "." : "", name);
    else n = snprintf(r->path + r->plen, cap - r->plen, "[%lld]", (long long)index);
    r->plen += (n > 0 && (size_t)n < cap - r->plen) ? (size_t)n : 0;
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

/* At most 40 bytes of a value for a message. */
#define SHOW(v) (int)((v)->len < 40 ? (v)->len : 40), (v)->u.s

relic_status relic_jr_check_format(relic_jr *r, const relic_jv *doc, const char *name)
{
    if (!relic_jv_is(doc, RELIC_JV_OBJECT)) return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a JSON object at the top");
    const relic_jv *f = relic_jv_get(doc, "format");
    if (!f) return RELIC_OK;
    if (!relic_jv_str_eq(f, name)) {
        if (f->kind == RELIC_JV_STRING || f->kind == RELIC_JV_NUMBER)
            return relic_jr_fail(r, RELIC_E_UNSUPPORTED, "this JSON is not the %s format (\"format\": %s%.*s%s)", name,
                                 f->kind == RELIC_JV_STRING ? "\"" : "", SHOW(f), f->kind == RELIC_JV_STRING ? "\"" : "");
        return relic_jr_fail(r, RELIC_E_UNSUPPORTED, "this JSON is not the %s format (\"format\" is not a string)", name);
    }
    return RELIC_OK;
}

relic_status relic_jr_member(relic_jr *r, const relic_jv *obj, const char *key, int required, const relic_jv **out)
{
    *out = relic_jv_get(obj, key);
    if (!*out && required) return relic_jr_fail(r, RELIC_E_ARGUMENT, "missing member \"%s\"", key);
    return RELIC_OK;
}

relic_status relic_jr_int(relic_jr *r, const relic_jv *v, int64_t lo, uint64_t hi, int64_t *out)
{
    if (!v || v->kind != RELIC_JV_NUMBER || !v->is_int) return relic_jr_fail(r, RELIC_E_SYNTAX, "expected an integer");
    /* yajl has checked the syntax: -?digits */
    const char *s = v->u.s;
    size_t i = 0, n = v->len;
    int neg = s[0] == '-';
    uint64_t u = 0;
    for (i = (size_t)neg; i < n; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (u > (UINT64_MAX - d) / 10)
            return relic_jr_fail(r, RELIC_E_RANGE, "%.*s does not fit (range %lld..%llu)", SHOW(v), (long long)lo, (unsigned long long)hi);
        u = u * 10 + d;
    }
    if (neg) {
        /* -u >= lo, with lo <= 0 for every caller that allows negatives */
        uint64_t mag = lo < 0 ? (uint64_t)0 - (uint64_t)lo : 0;
        if (u > mag && u != 0)
            return relic_jr_fail(r, RELIC_E_RANGE, "%.*s does not fit (range %lld..%llu)", SHOW(v), (long long)lo, (unsigned long long)hi);
        *out = (int64_t)((uint64_t)0 - u);
        return RELIC_OK;
    }
    if (u > hi || (lo > 0 && u < (uint64_t)lo))
        return relic_jr_fail(r, RELIC_E_RANGE, "%.*s does not fit (range %lld..%llu)", SHOW(v), (long long)lo, (unsigned long long)hi);
    *out = (int64_t)u;
    return RELIC_OK;
}

relic_status relic_jr_enum(relic_jr *r, const relic_jv *v, int (*from_name)(const char *, int64_t *),
                           int64_t lo, uint64_t hi, int64_t *out)
{
    if (v && v->kind == RELIC_JV_STRING) {
        char name[128];
        if (v->len < sizeof name && !memchr(v->u.s, 0, v->len)) {
            memcpy(name, v->u.s, v->len);
            name[v->len] = 0;
            if (from_name(name, out)) return RELIC_OK;
        }
        return relic_jr_fail(r, RELIC_E_RANGE, "unknown name \"%.*s\"", SHOW(v));
    }
    return relic_jr_int(r, v, lo, hi, out);
}

/* A "0x..." string of IEEE bits: 1 and *bits when it is one. */
static int bits_string(const relic_jv *v, unsigned long long max, unsigned long long *bits)
{
    const char *s = v->u.s;
    size_t n = v->len;
    if (n < 3 || n > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return 0;
    unsigned long long x = 0;
    for (size_t i = 2; i < n; i++) {
        int d = s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10
            : s[i] >= 'A' && s[i] <= 'F'                                             ? s[i] - 'A' + 10
                                                                                     : -1;
        if (d < 0) return 0;
        x = x * 16 + (unsigned)d;
    }
    *bits = x;
    return x <= max;
}

/* The number's literal text, NUL-terminated, for strtof/strtod (the float
 * nearest the decimal, as the printer's shortest form needs). */
static relic_status number_text(relic_jr *r, const relic_jv *v, char *buf, size_t cap, const char **out)
{
    if (v->len < cap) {
        memcpy(buf, v->u.s, v->len);
        buf[v->len] = 0;
        *out = buf;
        return RELIC_OK;
    }
    char *p = relic_arena_strndup(r->arena, v->u.s, v->len);
    if (!p) return relic_jr_fail(r, RELIC_E_NOMEM, "out of memory for a %u-digit number", (unsigned)v->len);
    *out = p;
    return RELIC_OK;
}

relic_status relic_jr_f32(relic_jr *r, const relic_jv *v, float *out)
{
    if (v && v->kind == RELIC_JV_STRING) {
        unsigned long long bits;
        if (!bits_string(v, 0xFFFFFFFFull, &bits))
            return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a number or \"0x…\" float bits, found \"%.*s\"", SHOW(v));
        uint32_t u = (uint32_t)bits;
        memcpy(out, &u, 4);
        return RELIC_OK;
    }
    if (v && v->kind == RELIC_JV_NUMBER) {
        char b[64];
        const char *t;
        relic_status st = number_text(r, v, b, sizeof b, &t);
        if (st) return st;
        *out = strtof(t, NULL);
        return RELIC_OK;
    }
    return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a number");
}

relic_status relic_jr_f64(relic_jr *r, const relic_jv *v, double *out)
{
    if (v && v->kind == RELIC_JV_STRING) {
        unsigned long long bits;
        if (!bits_string(v, ~0ull, &bits))
            return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a number or \"0x…\" float bits, found \"%.*s\"", SHOW(v));
        uint64_t u = bits;
        memcpy(out, &u, 8);
        return RELIC_OK;
    }
    if (v && v->kind == RELIC_JV_NUMBER) {
        char b[64];
        const char *t;
        relic_status st = number_text(r, v, b, sizeof b, &t);
        if (st) return st;
        *out = strtod(t, NULL);
        return RELIC_OK;
    }
    return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a number");
}

relic_status relic_jr_array(relic_jr *r, const relic_jv *v, size_t *n)
{
    if (!v || v->kind != RELIC_JV_ARRAY) return relic_jr_fail(r, RELIC_E_SYNTAX, "expected an array");
    *n = v->len;
    return RELIC_OK;
}

/* Decode a JSON string's UTF-8 into Latin-1 bytes; code points > 0xFF fail. */
static relic_status latin1(relic_jr *r, const relic_jv *v, char *dst, size_t cap, size_t *n)
{
    const unsigned char *s = (const unsigned char *)v->u.s;
    size_t len = v->len, k = 0;
    for (size_t i = 0; i < len;) {
        unsigned cp;
        if (s[i] < 0x80) cp = s[i++];
        else if ((s[i] & 0xE0) == 0xC0 && i + 1 < len) {
            cp = ((s[i] & 0x1Fu) << 6) | (s[i + 1] & 0x3Fu);
            i += 2;
        } else return relic_jr_fail(r, RELIC_E_RANGE, "character beyond U+00FF in a byte string");
        if (cp > 0xFF) return relic_jr_fail(r, RELIC_E_RANGE, "character beyond U+00FF in a byte string");
        if (k >= cap) return relic_jr_fail(r, RELIC_E_RANGE, "string longer than %zu bytes", cap);
        dst[k++] = (char)cp;
    }
    *n = k;
    return RELIC_OK;
}

relic_status relic_jr_fixed_string(relic_jr *r, const relic_jv *v, char *dst, size_t n)
{
    size_t k;
    memset(dst, 0, n);
    if (!v || v->kind != RELIC_JV_STRING) return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a string");
    return latin1(r, v, dst, n, &k);
}

relic_status relic_jr_string(relic_jr *r, const relic_jv *v, char **dst, size_t *n)
{
    if (!v || v->kind != RELIC_JV_STRING) return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a string");
    size_t cap = v->len;
    char *p = relic_arena_alloc(r->arena, cap + 1, 1);
    if (!p) return relic_jr_fail(r, RELIC_E_NOMEM, "out of memory for a %zu-byte string", cap);
    *dst = p;
    return latin1(r, v, p, cap, n);
}

static int hexval(int c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                               : c >= 'A' && c <= 'F'                                   ? c - 'A' + 10
                                                                                        : -1; }

static relic_status unhex(relic_jr *r, const relic_jv *v, uint8_t *dst, size_t n)
{
    const char *s = v->u.s;
    for (size_t i = 0; i < n; i++) {
        int a = hexval(s[2 * i]), b = hexval(s[2 * i + 1]);
        if (a < 0 || b < 0) return relic_jr_fail(r, RELIC_E_SYNTAX, "bad hex digit at character %zu", 2 * i);
        dst[i] = (uint8_t)(a * 16 + b);
    }
    return RELIC_OK;
}

relic_status relic_jr_fixed_hex(relic_jr *r, const relic_jv *v, uint8_t *dst, size_t n)
{
    if (!v || v->kind != RELIC_JV_STRING) return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a hex string");
    if ((size_t)v->len != 2 * n) return relic_jr_fail(r, RELIC_E_RANGE, "expected %zu hex digits", 2 * n);
    return unhex(r, v, dst, n);
}

relic_status relic_jr_hex(relic_jr *r, const relic_jv *v, uint8_t **dst, size_t *n)
{
    if (!v || v->kind != RELIC_JV_STRING) return relic_jr_fail(r, RELIC_E_SYNTAX, "expected a hex string");
    size_t len = v->len;
    if (len % 2) return relic_jr_fail(r, RELIC_E_SYNTAX, "odd number of hex digits");
    *n = len / 2;
    *dst = relic_arena_alloc(r->arena, *n ? *n : 1, 1);
    if (!*dst) return relic_jr_fail(r, RELIC_E_NOMEM, "out of memory for %zu bytes", *n);
    return unhex(r, v, *dst, *n);
}
