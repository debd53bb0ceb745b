/* gen_json.c — the one JSON printer and reader of every generated format,
 * driven by the field tables relic-gen writes (relic_json_table.h): one row
 * per member instead of a printer and a reader written out per struct. */
#include <string.h>

#include "relic_gen.h"
#include "relic_json_table.h"

static int64_t load_int(const void *p, int size, int sgn)
{
    switch (size) {
    case 1: return sgn ? (int64_t) * (const int8_t *)p : (int64_t) * (const uint8_t *)p;
    case 2: return sgn ? (int64_t) * (const int16_t *)p : (int64_t) * (const uint16_t *)p;
    case 4: return sgn ? (int64_t) * (const int32_t *)p : (int64_t) * (const uint32_t *)p;
    default: return *(const int64_t *)p;
    }
}

static void store_int(void *p, int size, int64_t v)
{
    switch (size) {
    case 1: *(uint8_t *)p = (uint8_t)v; break;
    case 2: *(uint16_t *)p = (uint16_t)v; break;
    case 4: *(uint32_t *)p = (uint32_t)v; break;
    default: *(int64_t *)p = v; break;
    }
}

/* The elements of f in model m: its array (fixed in place, or counted) and how many. */
static const void *elems(const relic_jt_field *f, const void *m, size_t *count)
{
    const char *at = (const char *)m + f->offset;
    if (f->flags & RELIC_JT_COUNTED) {
        const void *p;
        memcpy(&p, at, sizeof p);
        memcpy(count, (const char *)m + f->count_off, sizeof *count);
        return p;
    }
    *count = f->n ? f->n : 1;
    return at;
}

static size_t elem_size(const relic_jt_field *f) { return f->kind == RELIC_JT_STRUCT ? f->sub->size : f->size; }


/* ---------------------------------------------------------------- printer */

/* The printer writes into a window of the output buffer's spare capacity
 * (relic_buf_reserve) and hands it back in one step (relic_buf_commit),
 * instead of one bounds-checked append per token. Near a buffer's limit,
 * where no window can be had, it appends token by token, so a full buffer
 * fails exactly where it did. */
#define JP_WINDOW ((size_t)1 << 16)
#define JP_TOKEN 64 /* the longest number or punctuation run written at once */

/* Recently printed f32s and their text: mesh files repeat values (an AABB
 * box's corners are vertex coordinates, flat floors share one normal), and a
 * copy is cheaper than a conversion. Direct-mapped by the bits. */
#define JP_MEMO 1024
#define JP_MEMO_TEXT 11
typedef struct jp_memo {
    uint32_t bits;
    uint8_t len; /* 0: empty */
    char text[JP_MEMO_TEXT];
} jp_memo;

typedef struct jp {
    relic_buf *o;
    char *p, *end; /* the window; NULL when none */
    jp_memo *memo; /* JP_MEMO entries, or NULL */
    /* the last enum name printed, quoted (runs of one material are the rule) */
    const relic_jt_field *ef;
    int64_t ev;
    const char *es;
    size_t en;
    char eq[JP_TOKEN];
} jp;

static void jp_sync(jp *w)
{
    if (w->p) relic_buf_commit(w->o, (size_t)(w->p - (char *)w->o->data) - w->o->size);
    w->p = w->end = NULL;
}

/* Room for n (<= JP_TOKEN) bytes at w->p, or NULL: then use jp_slow. */
static char *jp_refill(jp *w, size_t n)
{
    jp_sync(w);
    relic_buf *o = w->o;
    size_t want = JP_WINDOW;
    if (o->limit) {
        if (o->failed || o->size > o->limit || o->limit - o->size < n) return NULL;
        if (o->limit - o->size < want) want = o->limit - o->size;
    }
    uint8_t *q = relic_buf_reserve(o, want);
    if (!q) return NULL;
    w->p = (char *)q;
    w->end = (char *)q + want;
    return w->p;
}

static inline char *jp_need(jp *w, size_t n)
{
    if (w->p && (size_t)(w->end - w->p) >= n) return w->p;
    return jp_refill(w, n);
}

static void jp_put_slow(jp *w, const char *s, size_t n)
{
    jp_sync(w);
    relic_buf_append(w->o, s, n);
}

static inline void jp_put(jp *w, const char *s, size_t n)
{
    char *d = n <= JP_TOKEN ? jp_need(w, n) : NULL;
    if (d) {
        memcpy(d, s, n);
        w->p = d + n;
        return;
    }
    jp_put_slow(w, s, n);
}
#define JP_PUTS(w, lit) jp_put((w), (lit), sizeof(lit) - 1)

static const char spaces[JP_TOKEN + 1] = "                                                                ";

static inline void jp_indent(jp *w, int depth)
{
    size_t n = (size_t)depth * 2;
    char *d = n <= JP_TOKEN ? jp_need(w, JP_TOKEN) : NULL;
    if (d) {
        memcpy(d, spaces, JP_TOKEN); /* a whole block: one fixed-size copy */
        w->p = d + n;
        return;
    }
    jp_sync(w);
    relic_json_indent(w->o, depth);
}

static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                     "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                     "8081828384858687888990919293949596979899";

static const uint64_t pow10_u64[20] = {1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
                                       1000000000u, 10000000000u, 100000000000u, 1000000000000u, 10000000000000u,
                                       100000000000000u, 1000000000000000u, 10000000000000000u,
                                       100000000000000000u, 1000000000000000000u, 10000000000000000000u};

/* Decimal digits of v: from its bit length (log10(2) ~ 1233/4096), then one compare. */
static inline int u64_digits(uint64_t v)
{
    if (v < 10) return 1;
    const int bits = 64 - __builtin_clzll(v);
    const int t = (bits * 1233) >> 12;
    return t + (t < 20 && v >= pow10_u64[t]);
}

/* Decimal text of v (with a '-' when neg) at d (room for 21 bytes); returns its length. */
static size_t fmt_u64(char *d, uint64_t v, int neg)
{
    if (neg) *d++ = '-';
    const int nd = u64_digits(v);
    char *q = d + nd;
    while (v >= 100) {
        q -= 2;
        memcpy(q, digit_pairs + 2 * (v % 100), 2);
        v /= 100;
    }
    if (v >= 10) memcpy(q - 2, digit_pairs + 2 * v, 2);
    else q[-1] = (char)('0' + v);
    return (size_t)nd + (neg != 0);
}

/* JSON text of an f32 at d (room for JP_TOKEN bytes): relic_json_f32's. */
static size_t fmt_f32(char *d, float v)
{
    static const char hex[] = "0123456789abcdef";
    uint32_t u;
    memcpy(&u, &v, 4);
    if (((u >> 23) & 0xFF) == 0xFF) { /* NaN and infinities: their bits */
        memcpy(d, "\"0x", 3);
        for (int i = 0; i < 8; i++) d[3 + i] = hex[(u >> (28 - 4 * i)) & 15];
        d[11] = '"';
        return 12;
    }
    return relic_f32_shortest(v, d);
}

/* Loads of a value from the model (native) or from the file (view: le or be). */
static inline int64_t load_at(const relic_jt_field *f, const uint8_t *p, int view)
{
    if (!view) return load_int(p, f->size, f->sgn);
    uint64_t u;
    switch (f->size) {
    case 1: u = p[0]; break;
    case 2: u = f->be ? relic_load_u16be(p) : relic_load_u16le(p); break;
    case 4: u = f->be ? relic_load_u32be(p) : relic_load_u32le(p); break;
    default: return (int64_t)(f->be ? relic_load_u64be(p) : relic_load_u64le(p));
    }
    if (f->sgn && f->size < 8 && (u >> (f->size * 8 - 1)) & 1) u |= ~(uint64_t)0 << (f->size * 8);
    return (int64_t)u;
}

static void print_number(jp *w, const relic_jt_field *f, const uint8_t *p, int view)
{
    char *d;
    switch (f->kind) {
    case RELIC_JT_F32: {
        float v;
        if (!view) memcpy(&v, p, 4);
        else v = f->be ? relic_load_f32be(p) : relic_load_f32le(p);
        char t[JP_TOKEN];
        if ((d = jp_need(w, JP_TOKEN)) == NULL) {
            jp_put_slow(w, t, fmt_f32(t, v));
            return;
        }
        uint32_t bits;
        memcpy(&bits, &v, 4);
        jp_memo *e = w->memo ? &w->memo[(bits * 2654435761u) >> 22] : NULL;
        if (e && e->len && e->bits == bits) {
            memcpy(d, e->text, JP_MEMO_TEXT);
            w->p = d + e->len;
            return;
        }
        size_t n = fmt_f32(d, v);
        w->p = d + n;
        if (e && n <= JP_MEMO_TEXT) {
            e->bits = bits;
            e->len = (uint8_t)n;
            memcpy(e->text, d, n);
        }
        return;
    }
    case RELIC_JT_F64: {
        double v;
        if (!view) memcpy(&v, p, 8);
        else v = f->be ? relic_load_f64be(p) : relic_load_f64le(p);
        jp_sync(w);
        relic_json_f64(w->o, v);
        return;
    }
    case RELIC_JT_ENUM: {
        const int64_t v = load_at(f, p, view);
        if (w->ef != f || w->ev != v) {
            w->ef = f;
            w->ev = v;
            w->es = f->name_of(v);
            w->en = w->es ? strlen(w->es) : 0;
            if (w->es && w->en + 2 <= JP_TOKEN) {
                w->eq[0] = '"';
                memcpy(w->eq + 1, w->es, w->en);
                w->eq[w->en + 1] = '"';
            }
        }
        if (w->es) { /* schema identifiers: nothing to escape */
            if (w->en + 2 <= JP_TOKEN && (d = jp_need(w, JP_TOKEN)) != NULL) {
                memcpy(d, w->eq, JP_TOKEN);
                w->p = d + w->en + 2;
                return;
            }
            JP_PUTS(w, "\"");
            jp_put(w, w->es, w->en);
            JP_PUTS(w, "\"");
            return;
        }
        char t[JP_TOKEN];
        jp_put(w, t, fmt_u64(t, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, v < 0));
        return;
    }
    default: {
        const int64_t v = load_at(f, p, view);
        const int neg = f->sgn && v < 0;
        const uint64_t u = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
        char t[JP_TOKEN];
        if ((d = jp_need(w, JP_TOKEN)) != NULL) w->p = d + fmt_u64(d, u, neg);
        else jp_put_slow(w, t, fmt_u64(t, u, neg));
    }
    }
}

static void print_struct(jp *w, const relic_jt_struct *t, const uint8_t *m, int view, const void *root, int depth);
static void print_tuple(jp *w, const relic_jt_struct *t, const uint8_t *m, int view, const void *root);
static void print_member(jp *w, const relic_jt_field *f, const uint8_t *p, size_t count, int view, const void *root,
                         int depth);

/* The text before each member of struct t printed at depth, built once for
 * a whole array of them: ",\n", the indent and "name": (the first without
 * the comma), in JP_TOKEN-byte slots so that each is one fixed-size copy. */
#define JP_RECORD_FIELDS 16
typedef struct record_text {
    char pre[JP_RECORD_FIELDS][JP_TOKEN];
    uint8_t len[JP_RECORD_FIELDS];
    char close[JP_TOKEN]; /* "\n", the indent, "}" */
    uint8_t close_len;
} record_text;

static int record_text_init(record_text *rt, const relic_jt_struct *t, int depth)
{
    if (t->tuple || t->has || t->format || t->nfields > JP_RECORD_FIELDS || (size_t)depth * 2 + 4 > JP_TOKEN) return 0;
    for (size_t i = 0; i < t->nfields; i++) {
        const relic_jt_field *f = &t->fields[i];
        size_t n = 0, ind = (size_t)(depth + 1) * 2;
        if (2 + ind + f->name_len + 4 > JP_TOKEN) return 0;
        char *d = rt->pre[i];
        memset(d, ' ', JP_TOKEN);
        if (i) {
            memcpy(d, ",\n", 2);
            n = 2;
        }
        n += ind;
        d[n++] = '"';
        memcpy(d + n, f->name, f->name_len);
        n += f->name_len;
        memcpy(d + n, "\": ", 3);
        rt->len[i] = (uint8_t)(n + 3);
    }
    memset(rt->close, ' ', JP_TOKEN);
    rt->close[0] = '\n';
    rt->close[1 + (size_t)depth * 2] = '}';
    rt->close_len = (uint8_t)(2 + (size_t)depth * 2);
    return 1;
}

/* count structs t (a record: not a tuple, no branches) at p, es bytes apart,
 * as the elements of a JSON array at depth; 0 (nothing printed) when t is
 * not such a record. */
static int print_records(jp *w, const relic_jt_struct *t, const uint8_t *p, size_t count, size_t es, int view,
                         const void *root, int depth)
{
    record_text rt;
    if (!record_text_init(&rt, t, depth)) return 0;
    char lead[JP_TOKEN]; /* "\n" or ",\n", then the indent and "{\n" */
    memset(lead, ' ', JP_TOKEN);
    memcpy(lead, ",\n", 2);
    lead[2 + (size_t)depth * 2] = '{';
    lead[3 + (size_t)depth * 2] = '\n';
    const size_t lead_len = 4 + (size_t)depth * 2;
    for (size_t k = 0; k < count; k++) {
        const uint8_t *m = p + k * es;
        char *d = jp_need(w, JP_TOKEN);
        if (!d) { /* near a limit: the general path, token by token */
            if (k) JP_PUTS(w, ",\n");
            else JP_PUTS(w, "\n");
            jp_indent(w, depth);
            print_struct(w, t, m, view, root, depth);
            continue;
        }
        memcpy(d, k ? lead : lead + 1, JP_TOKEN - 1);
        w->p = d + lead_len - (k == 0);
        for (size_t i = 0; i < t->nfields; i++) {
            const relic_jt_field *f = &t->fields[i];
            if ((d = jp_need(w, JP_TOKEN)) != NULL) {
                memcpy(d, rt.pre[i], JP_TOKEN);
                w->p = d + rt.len[i];
            } else {
                jp_put(w, rt.pre[i], rt.len[i]);
            }
            size_t n = 0;
            const uint8_t *q = view ? m + f->pos : m + f->offset;
            if (!view && (f->flags & RELIC_JT_COUNTED)) q = elems(f, m, &n);
            if (f->kind == RELIC_JT_STRUCT && !(f->flags & RELIC_JT_COUNTED) && !f->n && f->sub->tuple)
                print_tuple(w, f->sub, q, view, root);
            else if (f->kind != RELIC_JT_STRUCT && !f->n && !(f->flags & RELIC_JT_COUNTED) && f->kind != RELIC_JT_CHAR &&
                     f->kind != RELIC_JT_BYTES)
                print_number(w, f, q, view);
            else
                print_member(w, f, q, n, view, root, depth);
        }
        if ((d = jp_need(w, JP_TOKEN)) != NULL) {
            memcpy(d, rt.close, JP_TOKEN);
            w->p = d + rt.close_len;
        } else {
            jp_put(w, rt.close, rt.close_len);
        }
    }
    return 1;
}

/* Member f whose elements start at p (count of them when counted, else its
 * fixed dimensions), from the model or (view) from the file. */
static void print_member(jp *w, const relic_jt_field *f, const uint8_t *p, size_t count, int view, const void *root,
                         int depth)
{
    const int counted = f->flags & RELIC_JT_COUNTED;
    if (!counted) count = f->n ? f->n : 1;
    if (f->kind == RELIC_JT_CHAR) {
        if (!counted)
            while (count && p[count - 1] == 0) count--;
        jp_sync(w);
        relic_json_string(w->o, (const char *)p, count);
        return;
    }
    if (f->kind == RELIC_JT_BYTES) {
        jp_sync(w);
        relic_json_hex(w->o, p, count);
        return;
    }
    const size_t es = f->kind == RELIC_JT_STRUCT ? (view ? f->sub->fsize : f->sub->size) : f->size;
    if (!counted && f->n == 0) {
        if (f->kind == RELIC_JT_STRUCT) print_struct(w, f->sub, p, view, root, depth + 1);
        else print_number(w, f, p, view);
        return;
    }
    /* arrays: the outer count, and numbers per element (an inner fixed array) */
    size_t outer = counted ? count : f->dim0, inner = counted ? (f->n ? f->n : 1) : f->n / f->dim0;
    JP_PUTS(w, "[");
    if (f->kind == RELIC_JT_STRUCT && outer && print_records(w, f->sub, p, outer, es, view, root, depth + 2)) {
        JP_PUTS(w, "\n");
        jp_indent(w, depth + 1);
        JP_PUTS(w, "]");
        return;
    }
    for (size_t k = 0; k < outer; k++) {
        if (f->kind == RELIC_JT_STRUCT) {
            if (k) JP_PUTS(w, ",\n");
            else JP_PUTS(w, "\n");
            jp_indent(w, depth + 2);
            print_struct(w, f->sub, p + k * es, view, root, depth + 2);
            continue;
        }
        /* numbers: 16 to a line */
        if (k) {
            if (k % 16) JP_PUTS(w, ", ");
            else JP_PUTS(w, ",\n");
        }
        if (k % 16 == 0) {
            if (!k) JP_PUTS(w, "\n");
            jp_indent(w, depth + 2);
        }
        if (inner > 1) JP_PUTS(w, "[");
        for (size_t q = 0; q < inner; q++) {
            if (q) JP_PUTS(w, ", ");
            print_number(w, f, p + (k * inner + q) * es, view);
        }
        if (inner > 1) JP_PUTS(w, "]");
    }
    if (outer) {
        JP_PUTS(w, "\n");
        jp_indent(w, depth + 1);
    }
    JP_PUTS(w, "]");
}

/* Where f lies in struct m: its model offset, or its place in the file. */
static const uint8_t *member_at(const relic_jt_field *f, const uint8_t *m, int view)
{
    return m + (view ? f->pos : f->offset);
}

static void print_tuple(jp *w, const relic_jt_struct *t, const uint8_t *m, int view, const void *root)
{
    int first = 1;
    JP_PUTS(w, "[");
    for (size_t i = 0; i < t->nfields; i++) {
        const relic_jt_field *f = &t->fields[i];
        if (t->has && !t->has(m, root, i)) continue;
        const uint8_t *p = member_at(f, m, view);
        const int flat = t->nfields == 1 && f->n; /* a tuple of one array prints as the array */
        if (!first) JP_PUTS(w, ", ");
        first = 0;
        if (f->n && !flat) JP_PUTS(w, "[");
        for (size_t k = 0; k < (f->n ? f->n : 1); k++) {
            if (k) JP_PUTS(w, ", ");
            print_number(w, f, p + k * f->size, view);
        }
        if (f->n && !flat) JP_PUTS(w, "]");
    }
    JP_PUTS(w, "]");
}

static void print_name(jp *w, const relic_jt_struct *t, const relic_jt_field *f, int first, int depth)
{
    if (!first) JP_PUTS(w, ",\n");
    jp_indent(w, depth + 1);
    JP_PUTS(w, "\"");
    jp_put(w, f->name, f->name_len);
    JP_PUTS(w, "\": ");
    (void)t;
}

static void open_object(jp *w, const relic_jt_struct *t, int depth)
{
    JP_PUTS(w, "{\n");
    if (t->format) {
        jp_indent(w, depth + 1);
        JP_PUTS(w, "\"format\": ");
        jp_sync(w);
        relic_json_string(w->o, t->format, strlen(t->format));
    }
}

static void close_object(jp *w, int depth)
{
    JP_PUTS(w, "\n");
    jp_indent(w, depth);
    JP_PUTS(w, "}");
}

/* Struct t at m: a model (its C layout; counted members through their
 * pointers) or, when view, its bytes in the file (every member at pos). */
static void print_struct(jp *w, const relic_jt_struct *t, const uint8_t *m, int view, const void *root, int depth)
{
    if (t->tuple) {
        print_tuple(w, t, m, view, root);
        return;
    }
    int first = !t->format;
    open_object(w, t, depth);
    for (size_t i = 0; i < t->nfields; i++) {
        const relic_jt_field *f = &t->fields[i];
        if (t->has && !t->has(m, root, i)) continue;
        print_name(w, t, f, first, depth);
        first = 0;
        size_t count = 0;
        const uint8_t *p = member_at(f, m, view);
        if (!view && (f->flags & RELIC_JT_COUNTED)) p = elems(f, m, &count);
        print_member(w, f, p, count, view, root, depth);
    }
    close_object(w, depth);
}

relic_status relic_jt_print_doc(const relic_jt_struct *t, const void *m, relic_buf *out, relic_error *err)
{
    jp_memo memo[JP_MEMO];
    memset(memo, 0, sizeof memo);
    jp w = {out, NULL, NULL, memo, NULL, 0, NULL, 0, {0}};
    print_struct(&w, t, m, 0, m, 0);
    JP_PUTS(&w, "\n");
    jp_sync(&w);
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot grow the JSON output");
    return RELIC_OK;
}

/* ------------------------------------------------ walking variable structs */

/* Load the scalars of struct t, fixed in the file at p, into its model at m
 * (for the conditions and counts of the members after it). */
static void load_scalars(const relic_jt_struct *t, const uint8_t *p, uint8_t *m)
{
    for (size_t i = 0; i < t->nfields; i++) {
        const relic_jt_field *f = &t->fields[i];
        const uint8_t *q = p + f->pos;
        uint8_t *d = m + f->offset;
        const size_t n = f->n ? f->n : 1;
        if (f->kind == RELIC_JT_STRUCT) {
            for (size_t k = 0; k < n; k++) load_scalars(f->sub, q + k * f->sub->fsize, d + k * f->sub->size);
        } else if (f->kind == RELIC_JT_CHAR || f->kind == RELIC_JT_BYTES) {
            memcpy(d, q, n);
        } else if (f->kind == RELIC_JT_F32 || f->kind == RELIC_JT_F64) {
            for (size_t k = 0; k < n; k++) {
                if (f->kind == RELIC_JT_F32) {
                    float v = f->be ? relic_load_f32be(q + 4 * k) : relic_load_f32le(q + 4 * k);
                    memcpy(d + 4 * k, &v, 4);
                } else {
                    double v = f->be ? relic_load_f64be(q + 8 * k) : relic_load_f64le(q + 8 * k);
                    memcpy(d + 8 * k, &v, 8);
                }
            }
        } else {
            for (size_t k = 0; k < n; k++) store_int(d + k * f->size, f->size, load_at(f, q + k * f->size, 1));
        }
    }
}

static size_t walk_struct(jp *w, const relic_jt_struct *t, const uint8_t *p, uint8_t *m, const void *root, int depth);

/* count elements of struct type t from p, as a JSON array at depth (its
 * elements at depth + 1); returns their bytes. */
static size_t walk_array(jp *w, const relic_jt_struct *t, const uint8_t *p, size_t count, const void *root, int depth)
{
    _Alignas(16) uint8_t scratch[RELIC_JT_SCRATCH];
    size_t off = 0;
    if (t->size > sizeof scratch) { /* relic-gen prints no such struct by walking; refuse, never overflow */
        jp_sync(w);
        w->o->failed = 1;
        return 0;
    }
    JP_PUTS(w, "[");
    for (size_t k = 0; k < count; k++) {
        if (k) JP_PUTS(w, ",\n");
        else JP_PUTS(w, "\n");
        jp_indent(w, depth + 1);
        memset(scratch, 0, t->size < sizeof scratch ? t->size : sizeof scratch);
        off += walk_struct(w, t, p + off, scratch, root, depth + 1);
    }
    if (count) {
        JP_PUTS(w, "\n");
        jp_indent(w, depth);
    }
    JP_PUTS(w, "]");
    return off;
}

/* Struct t whose validated bytes start at p, each member after the one
 * before it: printed at depth, its scalars loaded into its model m (zeroed,
 * t->size bytes) as the conditions and counts of later members need them.
 * Returns its size in bytes. */
static size_t walk_struct(jp *w, const relic_jt_struct *t, const uint8_t *p, uint8_t *m, const void *root, int depth)
{
    if (t->fixed) {
        load_scalars(t, p, m);
        print_struct(w, t, p, 1, root, depth);
        return t->fsize;
    }
    size_t off = 0;
    int first = 1;
    if (t->tuple) JP_PUTS(w, "[");
    else open_object(w, t, depth);
    if (t->format) first = 0;
    for (size_t i = 0; i < t->nfields; i++) {
        const relic_jt_field *f = &t->fields[i];
        if (t->has && !t->has(m, root, i)) continue;
        if (t->tuple) {
            if (!first) JP_PUTS(w, ", ");
        } else {
            print_name(w, t, f, first, depth);
        }
        first = 0;
        const uint8_t *q = p + off;
        uint8_t *d = m + f->offset;
        const size_t per = f->n ? f->n : 1;
        if (f->flags & RELIC_JT_COUNTED) { /* its count from the members before it */
            const int64_t c = t->count ? t->count(m, root, i) : 0;
            const size_t n = c > 0 ? (size_t)c : 0;
            memcpy(m + f->count_off, &n, sizeof n);
            if (f->kind == RELIC_JT_STRUCT && !f->sub->fixed) {
                off += walk_array(w, f->sub, q, n, root, depth + 1);
                continue;
            }
            print_member(w, f, q, n, 1, root, depth);
            const size_t es = f->kind == RELIC_JT_STRUCT ? f->sub->fsize : f->size;
            off += n * per * es;
            continue;
        }
        if (f->kind == RELIC_JT_STRUCT) {
            if (f->n) { /* a fixed array of structs */
                if (!f->sub->fixed) {
                    off += walk_array(w, f->sub, q, f->n, root, depth + 1);
                } else {
                    for (size_t k = 0; k < f->n; k++) load_scalars(f->sub, q + k * f->sub->fsize, d + k * f->sub->size);
                    print_member(w, f, q, 0, 1, root, depth);
                    off += f->n * f->sub->fsize;
                }
                continue;
            }
            off += walk_struct(w, f->sub, q, d, root, depth + 1);
            continue;
        }
        /* numbers, fixed strings and bytes: print them, keep them for later members */
        relic_jt_field one = *f;
        one.pos = 0;
        const relic_jt_struct just_f = {&one, 1, t->size, t->align, 0, NULL, NULL, 0, 0, NULL, 1};
        load_scalars(&just_f, q, m);
        if (t->tuple) {
            for (size_t k = 0; k < per; k++) {
                if (k) JP_PUTS(w, ", ");
                print_number(w, f, q + k * f->size, 1);
            }
        } else {
            print_member(w, f, q, 0, 1, root, depth);
        }
        off += per * f->size;
    }
    if (t->tuple) JP_PUTS(w, "]");
    else close_object(w, depth);
    return off;
}

relic_status relic_jt_print_view_open(const relic_jt_struct *t, const void *view, relic_buf *out, relic_error *err)
{
    /* the root's scalars come decoded in the view; its other members are
     * pointers (and counts) into the file */
    const uint8_t *v = view;
    const uint8_t *values = v + t->view_values;
    jp_memo memo[JP_MEMO];
    memset(memo, 0, sizeof memo);
    jp w = {out, NULL, NULL, memo, NULL, 0, NULL, 0, {0}};
    int first = !t->format;
    open_object(&w, t, 0);
    for (size_t i = 0; i < t->nfields; i++) {
        const relic_jt_field *f = &t->fields[i];
        if (t->has && !t->has(values, values, i)) continue;
        print_name(&w, t, f, first, 0);
        first = 0;
        if (f->view_off == RELIC_JT_NOPOS) {
            print_member(&w, f, values + f->offset, 0, 0, values, 0);
            continue;
        }
        const uint8_t *p;
        size_t count = 0;
        memcpy(&p, v + f->view_off, sizeof p);
        if (f->view_count_off != RELIC_JT_NOPOS) memcpy(&count, v + f->view_count_off, sizeof count);
        if (f->kind == RELIC_JT_STRUCT && !f->sub->fixed) { /* elements of varying size: walk them */
            if (f->flags & RELIC_JT_COUNTED) {
                walk_array(&w, f->sub, p, count, values, 1);
            } else if (f->n) {
                walk_array(&w, f->sub, p, f->n, values, 1);
            } else {
                _Alignas(16) uint8_t scratch[RELIC_JT_SCRATCH];
                memset(scratch, 0, sizeof scratch);
                if (f->sub->size <= sizeof scratch) walk_struct(&w, f->sub, p, scratch, values, 1);
                else out->failed = 1; /* relic-gen prints no such struct by walking */
            }
            continue;
        }
        print_member(&w, f, p, count, 1, values, 0);
    }
    JP_PUTS(&w, "\n"); /* close_object's first line: the caller's members or "}" follow */
    jp_sync(&w);
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot grow the JSON output");
    return RELIC_OK;
}

relic_status relic_jt_print_view_doc(const relic_jt_struct *t, const void *view, relic_buf *out, relic_error *err)
{
    relic_status st = relic_jt_print_view_open(t, view, out, err);
    if (st) return st;
    relic_buf_puts(out, "}\n");
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, "", "cannot grow the JSON output");
    return RELIC_OK;
}

/* ---------------------------------------------------------------- reader */

static relic_status read_number(relic_jr *r, const relic_jt_field *f, const relic_jv *v, void *p)
{
    if (f->kind == RELIC_JT_F32) return relic_jr_f32(r, v, (float *)p);
    if (f->kind == RELIC_JT_F64) return relic_jr_f64(r, v, (double *)p);
    const int bits = f->size * 8;
    const int64_t lo = f->sgn ? (bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1))) : 0;
    const uint64_t hi = f->sgn ? (bits == 64 ? (uint64_t)INT64_MAX : ((uint64_t)1 << (bits - 1)) - 1)
                               : (bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1);
    int64_t iv;
    relic_status st = f->kind == RELIC_JT_ENUM ? relic_jr_enum(r, v, f->from_name, lo, hi, &iv)
                                               : relic_jr_int(r, v, lo, hi, &iv);
    if (st == RELIC_OK) store_int(p, f->size, iv);
    return st;
}

static relic_status read_member(relic_jr *r, const relic_jt_field *f, const relic_jv *v, void *m, const void *root)
{
    char *at = (char *)m + f->offset;
    const int counted = f->flags & RELIC_JT_COUNTED;
    relic_status st;
    if (f->kind == RELIC_JT_CHAR || f->kind == RELIC_JT_BYTES) {
        if (counted) {
            size_t n = 0;
            if (f->kind == RELIC_JT_CHAR) {
                char *s = NULL;
                st = relic_jr_string(r, v, &s, &n);
                memcpy(at, &s, sizeof s);
            } else {
                uint8_t *b = NULL;
                st = relic_jr_hex(r, v, &b, &n);
                memcpy(at, &b, sizeof b);
            }
            memcpy((char *)m + f->count_off, &n, sizeof n);
            return st;
        }
        return f->kind == RELIC_JT_CHAR ? relic_jr_fixed_string(r, v, at, f->n) : relic_jr_fixed_hex(r, v, (uint8_t *)at, f->n);
    }
    if (!counted && f->n == 0)
        return f->kind == RELIC_JT_STRUCT ? relic_jt_read(r, f->sub, v, at, root) : read_number(r, f, v, at);
    size_t n;
    if ((st = relic_jr_array(r, v, &n)) != RELIC_OK) return st;
    const size_t es = elem_size(f);
    size_t inner = counted ? (f->n ? f->n : 1) : f->n / f->dim0;
    char *p = at;
    if (counted) {
        p = n ? relic_arena_array(r->arena, n, es * inner, f->kind == RELIC_JT_STRUCT ? f->sub->align : f->size) : NULL;
        if (!p && n) return relic_jr_fail(r, RELIC_E_NOMEM, "out of memory for %zu elements", n);
        memcpy(at, &p, sizeof p);
        memcpy((char *)m + f->count_off, &n, sizeof n);
    } else if (n != f->dim0) {
        return relic_jr_fail(r, RELIC_E_ARGUMENT, "expected %u elements, found %zu", (unsigned)f->dim0, n);
    }
    for (size_t k = 0; k < n; k++) {
        const relic_jv *e = relic_jv_at(v, k);
        relic_jr_push(r, NULL, (int64_t)k);
        if (f->kind == RELIC_JT_STRUCT) {
            st = relic_jt_read(r, f->sub, e, p + k * es, root);
        } else if (inner > 1) {
            size_t ni;
            if ((st = relic_jr_array(r, e, &ni)) != RELIC_OK) return st;
            if (ni != inner) return relic_jr_fail(r, RELIC_E_ARGUMENT, "expected %zu elements, found %zu", inner, ni);
            for (size_t q = 0; q < inner && st == RELIC_OK; q++) st = read_number(r, f, relic_jv_at(e, q), p + (k * inner + q) * es);
        } else {
            st = read_number(r, f, e, p + k * es);
        }
        if (st != RELIC_OK) return st;
        relic_jr_pop(r);
    }
    return RELIC_OK;
}

relic_status relic_jt_read(relic_jr *r, const relic_jt_struct *t, const relic_jv *obj, void *m, const void *root)
{
    relic_status st;
    const int flat = t->tuple && t->nfields == 1 && t->fields[0].n; /* the member reader checks the array */
    if (t->tuple && !flat) {
        size_t n;
        if ((st = relic_jr_array(r, obj, &n)) != RELIC_OK) return st;
        if (n != t->nfields) return relic_jr_fail(r, RELIC_E_ARGUMENT, "expected %u values, found %zu", (unsigned)t->nfields, n);
    } else if (!t->tuple && !relic_jv_is(obj, RELIC_JV_OBJECT)) {
        return relic_jr_fail(r, RELIC_E_SYNTAX, "expected an object");
    }
    for (size_t i = 0; i < t->nfields; i++) {
        const relic_jt_field *f = &t->fields[i];
        if (t->has && !t->has(m, root, i)) continue;
        const relic_jv *v = NULL;
        relic_jr_push(r, f->name, -1);
        if (flat) v = obj;
        else if (t->tuple) v = relic_jv_at(obj, i);
        else if ((st = relic_jr_member(r, obj, f->name, !(f->flags & RELIC_JT_OPTIONAL), &v)) != RELIC_OK) return st;
        if (v && (st = read_member(r, f, v, m, root)) != RELIC_OK) return st;
        relic_jr_pop(r);
    }
    return RELIC_OK;
}

relic_status relic_jt_read_value(const relic_jt_struct *t, const relic_jv *doc, relic_arena *a, void *out, relic_error *err)
{
    relic_error scratch;
    if (!err) err = &scratch;
    relic_error_clear(err);
    memset(out, 0, t->size);
    relic_jr r = {a, err, {0}, 0};
    relic_status st = relic_jr_check_format(&r, doc, t->format);
    if (st == RELIC_OK) st = relic_jt_read(&r, t, doc, out, out);
    return st;
}

relic_status relic_jt_read_doc(const relic_jt_struct *t, const char *text, size_t len, relic_arena *a, void *out,
                               relic_error *err)
{
    relic_error scratch;
    if (!err) err = &scratch;
    const relic_jv *doc = NULL;
    relic_status st = relic_jr_parse(text, len, a, &doc, err);
    if (st == RELIC_OK) return relic_jt_read_value(t, doc, a, out, err); /* zeroes out, clears err */
    memset(out, 0, t->size);
    return st;
}
