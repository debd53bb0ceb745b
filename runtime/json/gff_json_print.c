/* gff_json_print.c — the nwn_gff JSON form of a validated GFF, printed
 * straight from the file's bytes (neverwinter.nim, gffjson.nim; xoreos-tools, src/xml/gff3dumper.cpp; neverwinter.nim
 * gffjson.nim and nwn_gff.nim): a root object with "__data_type", one
 * member per field {"type", "value"} (VOID as base64 in "value64"),
 * locstrings as {"<StringID>": text, "id": StrRef}, "__struct_id" as a
 * signed 32-bit number (nwn_gff keeps ids in an int32), every object's keys
 * in nwn_gff's order (Nim's stable sort with cmpIgnoreCase: ASCII
 * lower-case, then length; equal keys keep file order), strings escaped as
 * Nim's escapeJson does, floats as runtime/formats/aurora/gff_float.c, compact, ending
 * with a newline. Relic's additions, skipped by nwn_gff as "__" keys:
 * "__field_order" (a struct whose fields are not in key order in the file),
 * "__dupN__Label" (earlier duplicates of a label, and labels that start
 * with "__"), "__substring_order" (locstring substrings not in key order)
 * and "__encoding" (UTF-8 text), so that JSON -> GFF gives the file back.
 *
 * Speed: the sorted key order, the escaped keys and the constant text of
 * every member are computed once per struct layout (the sequence of label
 * indices and types), found again by a hash of that sequence; values are
 * printed by hand (integers by digit pairs, text by runs) into a 64 KiB
 * staging buffer that goes to the relic_buf when full (straight to its sink
 * when it streams and holds nothing). */
#include <math.h>
#include <stdlib.h>

#include "gff_text.h"
#include "relic_gff.h"
#include "relic_json.h"

/* ---------------------------------------------------------------------- */
/* Output staging                                                         */
/* ---------------------------------------------------------------------- */

#define OUT_CAP ((size_t)1 << 16)

typedef struct jout {
    uint8_t *p, *end, *base;
    relic_buf *o;
} jout;

static void out_flush(jout *w)
{
    relic_buf *o = w->o;
    size_t n = (size_t)(w->p - w->base);
    w->p = w->base;
    if (!n) return;
    if (o->sink && o->size == 0 && !o->failed) {
        /* a streaming buffer with nothing held: the staged bytes go straight to its sink */
        if (o->sink(o->sink_ctx, w->base, n) != RELIC_OK) o->failed = 1;
        return;
    }
    relic_buf_append(o, w->base, n);
}

/* Room for n <= 64 bytes at w->p. */
static inline uint8_t *room(jout *w, size_t n)
{
    if ((size_t)(w->end - w->p) < n) out_flush(w);
    return w->p;
}

static void out_bytes(jout *w, const void *src, size_t n)
{
    if ((size_t)(w->end - w->p) < n) {
        out_flush(w);
        if (n > OUT_CAP / 2) {
            relic_buf *o = w->o;
            if (o->sink && o->size == 0 && !o->failed) {
                if (o->sink(o->sink_ctx, src, n) != RELIC_OK) o->failed = 1;
            } else relic_buf_append(o, src, n);
            return;
        }
    }
    memcpy(w->p, src, n);
    w->p += n;
}

static inline void out_char(jout *w, char c)
{
    room(w, 1);
    *w->p++ = (uint8_t)c;
}

#define OUT_LIT(w, s) out_bytes((w), (s), sizeof(s) - 1)

static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Decimal digits of v ending at e; returns the first. */
static inline char *u64_digits(uint64_t v, char *e)
{
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        e -= 2;
        memcpy(e, digit_pairs + 2 * r, 2);
    }
    if (v >= 10) {
        e -= 2;
        memcpy(e, digit_pairs + 2 * v, 2);
    } else *--e = (char)('0' + v);
    return e;
}

static inline void out_u64(jout *w, uint64_t v)
{
    char b[24], *q = u64_digits(v, b + sizeof b);
    uint8_t *p = room(w, 24);
    size_t n = (size_t)(b + sizeof b - q);
    memcpy(p, q, n);
    w->p += n;
}

static inline void out_i64(jout *w, int64_t v)
{
    if (v < 0) {
        out_char(w, '-');
        out_u64(w, (uint64_t)0 - (uint64_t)v);
    } else out_u64(w, (uint64_t)v);
}

/* ---------------------------------------------------------------------- */
/* Text                                                                   */
/* ---------------------------------------------------------------------- */

/* Nim's escapeJson for one ASCII byte that is not printed as it is:
 * \" \\ \b \t \n \f \r, \u000b, \u0000-\u0007 and \u000E-\u001F (upper-case
 * hex); returns the length written to q (<= 6). */
static size_t escape_ascii(uint8_t c, uint8_t *q)
{
    static const char hex[] = "0123456789ABCDEF";
    const char *s = NULL;
    switch (c) {
    case '"': s = "\\\""; break;
    case '\\': s = "\\\\"; break;
    case '\b': s = "\\b"; break;
    case '\t': s = "\\t"; break;
    case '\n': s = "\\n"; break;
    case '\f': s = "\\f"; break;
    case '\r': s = "\\r"; break;
    case 0x0B: s = "\\u000b"; break;
    default: break;
    }
    if (s) {
        size_t n = strlen(s);
        memcpy(q, s, n);
        return n;
    }
    if (c < 0x20) {
        memcpy(q, "\\u00", 4);
        q[4] = (uint8_t)hex[c >> 4];
        q[5] = (uint8_t)hex[c & 15];
        return 6;
    }
    q[0] = c;
    return 1;
}

/* Bytes printed as they are: printable ASCII but " and \ (and DEL, which
 * Nim does not escape). */
#define PLAIN(c) ((c) >= 0x20 && (c) < 0x80 && (c) != '"' && (c) != '\\')

/* A JSON string of game text: cp1252 (each byte through the table) or
 * UTF-8 (validated, copied). Returns n, or the position of the first byte
 * that is not valid UTF-8. */
static size_t put_text(jout *w, const uint8_t *p, size_t n, int utf8)
{
    size_t i = 0;
    out_char(w, '"');
    while (i < n) {
        size_t j = i;
        while (j < n && PLAIN(p[j])) j++;
        if (j > i) {
            out_bytes(w, p + i, j - i);
            i = j;
            if (i == n) break;
        }
        uint8_t c = p[i], *q = room(w, 8);
        if (c < 0x80) {
            w->p += escape_ascii(c, q);
            i++;
        } else if (!utf8) {
            w->p += relic_cp1252_utf8(c, q);
            i++;
        } else {
            uint32_t cp;
            size_t l = relic_utf8_next(p + i, n - i, &cp);
            if (!l) return i;
            memcpy(q, p + i, l);
            w->p += l;
            i += l;
        }
    }
    out_char(w, '"');
    return n;
}

/* A key as escaped, quoted JSON into q (room for 6 * n + 2): bytes of
 * UTF-8 (from_cp1252 0) or of cp1252 (1); returns its length. */
static size_t escape_key(const uint8_t *p, size_t n, int from_cp1252, uint8_t *q)
{
    size_t k = 0;
    q[k++] = '"';
    for (size_t i = 0; i < n; i++) {
        if (p[i] < 0x80) k += escape_ascii(p[i], q + k);
        else if (from_cp1252) k += relic_cp1252_utf8(p[i], q + k);
        else q[k++] = p[i];
    }
    q[k++] = '"';
    return k;
}

static void put_base64(jout *w, const uint8_t *p, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    out_char(w, '"');
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        uint8_t *q = room(w, 4);
        q[0] = (uint8_t)tab[v >> 18];
        q[1] = (uint8_t)tab[(v >> 12) & 63];
        q[2] = (uint8_t)(i + 1 < n ? tab[(v >> 6) & 63] : '=');
        q[3] = (uint8_t)(i + 2 < n ? tab[v & 63] : '=');
        w->p += 4;
    }
    out_char(w, '"');
}

static void put_f32(jout *w, float v)
{
    char b[32];
    if (!isfinite(v)) {
        /* nwn_gff has no number for these: relic's exact bits, as its readers take them */
        uint32_t u;
        static const char hex[] = "0123456789abcdef";
        memcpy(&u, &v, 4);
        OUT_LIT(w, "\"0x");
        for (int k = 28; k >= 0; k -= 4) out_char(w, hex[(u >> k) & 15]);
        out_char(w, '"');
        return;
    }
    out_bytes(w, b, relic_gff_format_double((double)v, b));
}

static void put_f64(jout *w, double v)
{
    char b[32];
    if (!isfinite(v)) {
        uint64_t u;
        static const char hex[] = "0123456789abcdef";
        memcpy(&u, &v, 8);
        OUT_LIT(w, "\"0x");
        for (int k = 60; k >= 0; k -= 4) out_char(w, hex[(u >> k) & 15]);
        out_char(w, '"');
        return;
    }
    out_bytes(w, b, relic_gff_format_double(v, b));
}

/* nwn_gff's key order: Nim's cmpIgnoreCase (ASCII lower-case, then length). */
static int cmp_ignore_case(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    size_t m = na < nb ? na : nb;
    for (size_t i = 0; i < m; i++) {
        int ca = a[i], cb = b[i];
        if (ca >= 'A' && ca <= 'Z') ca += 32;
        if (cb >= 'A' && cb <= 'Z') cb += 32;
        if (ca != cb) return ca - cb;
    }
    return na < nb ? -1 : na > nb;
}

/* ---------------------------------------------------------------------- */
/* Struct layouts                                                         */
/* ---------------------------------------------------------------------- */

enum { K_FIELD,
       K_DATA_TYPE,
       K_STRUCT_ID,
       K_FIELD_ORDER,
       K_ENCODING,
       K_LAYOUT };

/* One member of a struct's object, in printing order. */
typedef struct slot {
    uint8_t kind;
    uint8_t type;        /* K_FIELD: the field type */
    uint32_t pos;        /* K_FIELD: the field's position in the struct */
    uint32_t keylen;     /* K_FIELD: length of "Key":{ at the start of text */
    const uint8_t *text; /* constant text: "Key":{"type":"word","value": ... */
    size_t len;
} slot;

/* A struct layout: the label index and type of each field in file order,
 * whether the struct is the root and has an id; and how it prints. */
typedef struct layout {
    struct layout *next;
    uint64_t hash;
    uint32_t n, flags, nslot;
    const uint64_t *key;
    slot *slots;
} layout;

#define F_ROOT 1u
#define F_HAS_ID 2u

typedef struct pstate {
    const relic_gff_doc *d;
    jout w;
    int utf8;
    const uint8_t *layout_text; /* "__layout":..., NULL for the default family in its own order */
    size_t layout_len;
    relic_error *err;
    relic_arena *arena; /* layouts, their text and every scratch array (the caller's) */
    layout **buckets;
    uint32_t nbuckets;
    uint64_t *kbuf; /* the current struct's key sequence */
    size_t kcap;
    struct sub {
        uint32_t id;
        uint32_t pos;
        const uint8_t *text;
        uint32_t len;
        char dec[11];
        uint8_t declen;
    } * subs;
    size_t scap;
    void *sortmem;   /* relic_sort's scratch for scap subs, and each substring's place: */
    size_t sortcap;  /* reused by every locstring, so printing takes memory for the largest */
    uint32_t *order; /* one, not for each field (a value shared by many fields) */
    struct {
        uint32_t field;
        int64_t index;
    } path[RELIC_GFF_MAX_DEPTH + 2];
    relic_gff_strref_text_fn strref_text; /* "__tlk" beside a StrRef's locstring, NULL: none */
    void *strref_ctx;
} pstate;

/* One field while a layout is built. */
typedef struct lfield {
    uint8_t name[80]; /* the key: the label (through cp1252), or "__dupN__" + label */
    size_t nlen;
    uint32_t pos, type;
    const uint8_t *label;
    size_t label_len;
} lfield;

static int lf_exact_cmp(const void *a, const void *b)
{
    const lfield *x = *(const lfield *const *)a, *y = *(const lfield *const *)b;
    size_t m = x->label_len < y->label_len ? x->label_len : y->label_len;
    int c = memcmp(x->label, y->label, m);
    if (c == 0) c = x->label_len < y->label_len ? -1 : x->label_len > y->label_len;
    return c ? c : (x->pos < y->pos ? -1 : x->pos > y->pos);
}

static int lf_key_cmp(const void *a, const void *b)
{
    const lfield *x = *(const lfield *const *)a, *y = *(const lfield *const *)b;
    int c = cmp_ignore_case(x->name, x->nlen, y->name, y->nlen);
    return c ? c : (x->pos < y->pos ? -1 : x->pos > y->pos);
}

static void *arena_copy(relic_arena *a, const void *p, size_t n)
{
    void *q = relic_arena_alloc(a, n ? n : 1, 1);
    if (q && n) memcpy(q, p, n);
    return q;
}

static relic_status nomem(pstate *ps)
{
    return relic_fail(ps->err, RELIC_E_NOMEM, 0, NULL, "out of memory printing JSON");
}

/* Sort the fields of a struct into nwn_gff's key order and lay out the
 * constant text of each member. n fields from key[] (label << 5 | type). */
/* "__" keys a struct can have: __data_type, __encoding, __field_order, __layout, __struct_id */
#define MAX_SPECIALS 5

static relic_status build_layout(pstate *ps, const uint64_t *key, uint32_t n, uint32_t flags, uint64_t hash,
                                 layout **out)
{
    const relic_gff_doc *d = ps->d;
    relic_arena *a = ps->arena;
    lfield *lf = relic_arena_array(a, n ? n : 1, sizeof *lf, 8);
    lfield **by = relic_arena_array(a, n ? n : 1, sizeof *by, 8);
    layout *L = relic_arena_alloc(a, sizeof *L, 8);
    relic_status st = RELIC_OK;
    if (!lf || !by || !L) {
        st = nomem(ps);
        goto done;
    }
    L->n = n;
    L->flags = flags;
    L->hash = hash;
    L->key = arena_copy(a, key, (size_t)n * 8);
    /* the fields and up to MAX_SPECIALS "__" keys (n + 4 left no slot for the fifth, written
     * past the array into the next arena allocation: fuzz_gff, regressions/fuzz_gff) */
    L->slots = relic_arena_array(a, (size_t)n + MAX_SPECIALS, sizeof *L->slots, 8);
    if (!L->key || !L->slots) {
        st = nomem(ps);
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t l = (uint32_t)(key[i] >> 5);
        const uint8_t *name = d->v.labels + 16 * (size_t)l;
        size_t len = 0;
        while (len < 16 && name[len]) len++;
        lf[i].label = name;
        lf[i].label_len = len;
        lf[i].pos = i;
        lf[i].type = (uint32_t)(key[i] & 31);
        by[i] = &lf[i];
    }
    /* duplicates: equal labels are adjacent in exact order; each earlier one
     * is keyed "__dupN__Label", N = the later duplicates */
    /* relic_sort: stable like glibc's qsort, its buffer from the arena (qsort mallocs past 1 KiB) */
    if (n > 1 && relic_sort(by, n, sizeof *by, lf_exact_cmp, a) != RELIC_OK) {
        st = nomem(ps);
        goto done;
    }
    /* run_end: one past the run of equal labels holding i, found once per
     * run (a struct of n fields with one label costs n, not n^2 / 2) */
    for (uint32_t i = 0, run_end = 0; i < n; i++) {
        lfield *f = by[i];
        if (i >= run_end)
            for (run_end = i + 1; run_end < n && by[run_end]->label_len == f->label_len &&
                 memcmp(by[run_end]->label, f->label, f->label_len) == 0;
                 run_end++) {
            }
        const uint32_t later = run_end - i - 1;
        size_t k = 0;
        if (later || (f->label_len >= 2 && f->label[0] == '_' && f->label[1] == '_')) {
            char pre[24];
            int m = snprintf(pre, sizeof pre, "__dup%u__", (unsigned)later);
            memcpy(f->name, pre, (size_t)m);
            k = (size_t)m;
        }
        for (size_t c = 0; c < f->label_len; c++) {
            uint8_t u[3];
            size_t ul = relic_cp1252_utf8(f->label[c], u);
            memcpy(f->name + k, u, ul);
            k += ul;
        }
        f->nlen = k;
    }
    /* key order; equal keys (ignoring case) keep file order, as Nim's stable sort */
    if (n > 1 && relic_sort(by, n, sizeof *by, lf_key_cmp, a) != RELIC_OK) {
        st = nomem(ps);
        goto done;
    }
    int in_order = 1;
    for (uint32_t i = 0; i < n; i++) in_order &= by[i]->pos == i;

    /* the members: fields and the "__" keys, merged in key order */
    struct special {
        const char *name;
        int kind;
    } special[MAX_SPECIALS];
    int nspecial = 0;
    if (flags & F_ROOT) special[nspecial++] = (struct special){"__data_type", K_DATA_TYPE};
    if (ps->utf8 && (flags & F_ROOT)) special[nspecial++] = (struct special){"__encoding", K_ENCODING};
    if (!in_order) special[nspecial++] = (struct special){"__field_order", K_FIELD_ORDER};
    /* the writer's layout family, when not the default one (gff_layout.c) */
    if (ps->layout_text && (flags & F_ROOT)) special[nspecial++] = (struct special){"__layout", K_LAYOUT};
    if (flags & F_HAS_ID) special[nspecial++] = (struct special){"__struct_id", K_STRUCT_ID};
    /* specials are already in key order: __data_type < __encoding < __field_order < __layout < __struct_id */
    uint32_t fi = 0, si = 0, ns = 0;
    uint8_t tmp[6 * 80 + 64];
    while (fi < n || si < (uint32_t)nspecial) {
        int take_special = si < (uint32_t)nspecial &&
            (fi == n || cmp_ignore_case((const uint8_t *)special[si].name, strlen(special[si].name), by[fi]->name, by[fi]->nlen) < 0);
        slot *sl = &L->slots[ns++];
        memset(sl, 0, sizeof *sl);
        size_t k;
        if (!take_special) {
            lfield *f = by[fi++];
            const char *tn = relic_gff_type_name(f->type);
            k = escape_key(f->name, f->nlen, 0, tmp);
            tmp[k++] = ':';
            tmp[k++] = '{';
            sl->keylen = (uint32_t)k;
            if (f->type == RELIC_GFF_FIELD_TYPE_STRUCT) {
                memcpy(tmp + k, "\"__struct_id\":", 14);
                k += 14;
            } else {
                k += (size_t)sprintf((char *)tmp + k, "\"type\":\"%s\",\"%s\":", tn ? tn : "?",
                                     f->type == RELIC_GFF_FIELD_TYPE_VOID ? "value64" : "value");
            }
            sl->kind = K_FIELD;
            sl->type = (uint8_t)f->type;
            sl->pos = f->pos;
            if (!(sl->text = arena_copy(a, tmp, k))) {
                st = nomem(ps);
                goto done;
            }
            sl->len = k;
            continue;
        }
        sl->kind = (uint8_t)special[si].kind;
        switch (special[si++].kind) {
        case K_DATA_TYPE:
            k = (size_t)sprintf((char *)tmp, "\"__data_type\":");
            k += escape_key((const uint8_t *)relic_gff_file_type(d), 4, 1, tmp + k);
            break;
        case K_ENCODING: k = (size_t)sprintf((char *)tmp, "\"__encoding\":\"utf-8\""); break;
        case K_LAYOUT:
            sl->text = ps->layout_text;
            sl->len = ps->layout_len;
            continue;
        case K_STRUCT_ID: k = (size_t)sprintf((char *)tmp, "\"__struct_id\":"); break;
        default: { /* K_FIELD_ORDER: the keys in file order */
            size_t total = 20;
            for (uint32_t i = 0; i < n; i++) total += 6 * lf[i].nlen + 3;
            uint8_t *t = relic_arena_alloc(a, total, 1);
            if (!t) {
                st = nomem(ps);
                goto done;
            }
            k = (size_t)sprintf((char *)t, "\"__field_order\":[");
            for (uint32_t i = 0; i < n; i++) {
                if (i) t[k++] = ',';
                k += escape_key(lf[i].name, lf[i].nlen, 0, t + k);
            }
            t[k++] = ']';
            sl->text = t;
            sl->len = k;
            continue;
        }
        }
        if (!(sl->text = arena_copy(a, tmp, k))) {
            st = nomem(ps);
            goto done;
        }
        sl->len = k;
    }
    L->nslot = ns;
    *out = L;
done:
    return st;
}

/* ---------------------------------------------------------------------- */
/* Printing                                                               */
/* ---------------------------------------------------------------------- */

/* The label path of the field being printed ("Creature List/3/FirstName"). */
static void path_of(const pstate *ps, uint32_t depth, char *buf, size_t cap)
{
    size_t k = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i <= depth && k + 24 < cap; i++) {
        size_t len;
        const char *l = relic_gff_field_label(ps->d, ps->path[i].field, &len);
        k += (size_t)snprintf(buf + k, cap - k, "%s%.*s", i ? "/" : "", (int)len, l);
        if (i < depth && ps->path[i].index >= 0 && k + 24 < cap)
            k += (size_t)snprintf(buf + k, cap - k, "/%lld", (long long)ps->path[i].index);
    }
}

static relic_status bad_text(pstate *ps, uint32_t depth, const uint8_t *at, const char *what)
{
    char path[RELIC_ERROR_PATH_MAX];
    path_of(ps, depth, path, sizeof path);
    return relic_fail(ps->err, RELIC_E_SYNTAX, (uint64_t)(at - ps->d->v.base), path,
                      "%s is not valid UTF-8 (it may be windows-1252: --encoding cp1252)", what);
}

static int sub_cmp(const void *a, const void *b)
{
    const struct sub *x = a, *y = b;
    int c = cmp_ignore_case((const uint8_t *)x->dec, x->declen, (const uint8_t *)y->dec, y->declen);
    return c ? c : (x->pos < y->pos ? -1 : x->pos > y->pos);
}

/* "__tlk":"text", (a StrRef's text from the talk table, for people; the
 * reader skips it): UTF-8 as NWN2 writes it, else cp1252 (NWN1, KotOR). */
static void put_tlk(jout *w, const char *text, size_t n)
{
    const uint8_t *t = (const uint8_t *)text;
    int utf8 = 1;
    for (size_t i = 0; i < n && utf8;) {
        uint32_t cp;
        size_t l = t[i] < 0x80 ? 1 : relic_utf8_next(t + i, n - i, &cp);
        if (!l) utf8 = 0;
        i += l;
    }
    OUT_LIT(w, "\"__tlk\":");
    put_text(w, t, n, utf8);
    out_char(w, ',');
}

static relic_status print_locstring(pstate *ps, const slot *sl, const uint8_t *p, uint32_t depth)
{
    jout *w = &ps->w;
    uint32_t strref = relic_load_u32le(p + 4), count = relic_load_u32le(p + 8);
    const uint8_t *q = p + 12;
    if (count > ps->scap) {
        size_t cap = count < 2 * ps->scap ? 2 * ps->scap : count < 16 ? 16
                                                                      : count;
        void *g = relic_arena_array(ps->arena, cap, sizeof *ps->subs, 8); /* refilled below: no copy */
        size_t sortcap = (cap + 1) * sizeof *ps->subs + 16;
        void *sm = relic_arena_alloc(ps->arena, sortcap, 16);
        uint32_t *order = relic_arena_array(ps->arena, cap, sizeof *order, 4);
        if (!g || !sm || !order) return nomem(ps);
        ps->subs = g;
        ps->scap = cap;
        ps->sortmem = sm;
        ps->sortcap = sortcap;
        ps->order = order;
    }
    int sorted = 1;
    for (uint32_t i = 0; i < count; i++) {
        struct sub *s = &ps->subs[i];
        s->id = relic_load_u32le(q);
        s->len = relic_load_u32le(q + 4);
        s->text = q + 8;
        s->pos = i;
        q += 8 + (size_t)s->len;
        char b[16], *e = u64_digits(s->id, b + sizeof b);
        s->declen = (uint8_t)(b + sizeof b - e);
        memcpy(s->dec, e, s->declen);
        if (i && sub_cmp(&ps->subs[i - 1], s) >= 0) sorted = 0;
        if (i && ps->subs[i - 1].id == s->id) sorted = 0; /* a repeat: found below */
    }
    const char *tt = NULL;
    size_t tn = 0;
    if (ps->strref_text && strref != RELIC_GFF_NONE && !ps->strref_text(ps->strref_ctx, strref, &tt, &tn)) tt = NULL;
    if (!sorted) {
        relic_arena sorting;
        relic_arena_init_buffer(&sorting, ps->sortmem, ps->sortcap);
        if (relic_sort(ps->subs, count, sizeof *ps->subs, sub_cmp, &sorting) != RELIC_OK) return nomem(ps);
        for (uint32_t i = 1; i < count; i++)
            if (ps->subs[i].id == ps->subs[i - 1].id) {
                char path[RELIC_ERROR_PATH_MAX];
                path_of(ps, depth, path, sizeof path);
                return relic_fail(ps->err, RELIC_E_UNSUPPORTED, (uint64_t)(p - ps->d->v.base), path,
                                  "two substrings with StringID %u: nwn_gff JSON cannot hold both",
                                  (unsigned)ps->subs[i].id);
            }
        /* the file order, for the way back: each substring's StringID */
        out_bytes(w, sl->text, sl->keylen);
        if (tt) put_tlk(w, tt, tn);
        OUT_LIT(w, "\"__substring_order\":[");
        uint32_t *order = ps->order;
        for (uint32_t i = 0; i < count; i++) order[ps->subs[i].pos] = ps->subs[i].id;
        for (uint32_t i = 0; i < count; i++) {
            if (i) out_char(w, ',');
            out_u64(w, order[i]);
        }
        OUT_LIT(w, "],");
        out_bytes(w, sl->text + sl->keylen, sl->len - sl->keylen);
    } else if (tt) {
        out_bytes(w, sl->text, sl->keylen);
        put_tlk(w, tt, tn);
        out_bytes(w, sl->text + sl->keylen, sl->len - sl->keylen);
    } else {
        out_bytes(w, sl->text, sl->len);
    }
    out_char(w, '{');
    for (uint32_t i = 0; i < count; i++) {
        const struct sub *s = &ps->subs[i];
        if (i) out_char(w, ',');
        uint8_t *o = room(w, 16);
        o[0] = '"';
        memcpy(o + 1, s->dec, s->declen);
        o[1 + s->declen] = '"';
        o[2 + s->declen] = ':';
        w->p += 3 + s->declen;
        size_t at = put_text(w, s->text, s->len, ps->utf8);
        if (at != s->len) return bad_text(ps, depth, s->text + at, "a locstring substring");
    }
    if (strref != RELIC_GFF_NONE) {
        if (count) out_char(w, ',');
        OUT_LIT(w, "\"id\":");
        out_u64(w, strref);
    }
    out_char(w, '}');
    return RELIC_OK;
}

static relic_status print_struct(pstate *ps, uint32_t s, uint32_t depth, uint32_t flags);

static relic_status print_field(pstate *ps, const slot *sl, uint32_t f, uint32_t depth)
{
    const relic_gff_doc *d = ps->d;
    jout *w = &ps->w;
    uint32_t raw = relic_load_u32le(d->v.fields + 12 * (size_t)f + 8);
    const uint8_t *p = d->v.field_data + raw;
    relic_status st;
    ps->path[depth].field = f;
    ps->path[depth].index = -1;
    switch (sl->type) {
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING:
        if ((st = print_locstring(ps, sl, p, depth)) != RELIC_OK) return st;
        out_char(w, '}');
        return RELIC_OK;
    case RELIC_GFF_FIELD_TYPE_STRUCT: {
        uint32_t id = relic_gff_doc_struct_id(d, raw);
        out_bytes(w, sl->text, sl->len);
        out_i64(w, (int32_t)id);
        OUT_LIT(w, ",\"type\":\"struct\",\"value\":");
        if ((st = print_struct(ps, raw, depth + 1, id != RELIC_GFF_NONE ? F_HAS_ID : 0)) != RELIC_OK) return st;
        out_char(w, '}');
        return RELIC_OK;
    }
    default: break;
    }
    out_bytes(w, sl->text, sl->len);
    switch (sl->type) {
    case RELIC_GFF_FIELD_TYPE_BYTE: out_u64(w, raw & 0xFFu); break;
    case RELIC_GFF_FIELD_TYPE_CHAR: out_i64(w, (int8_t)(uint8_t)raw); break;
    case RELIC_GFF_FIELD_TYPE_WORD: out_u64(w, raw & 0xFFFFu); break;
    case RELIC_GFF_FIELD_TYPE_SHORT: out_i64(w, (int16_t)(uint16_t)raw); break;
    case RELIC_GFF_FIELD_TYPE_DWORD: out_u64(w, raw); break;
    case RELIC_GFF_FIELD_TYPE_INT: out_i64(w, (int32_t)raw); break;
    case RELIC_GFF_FIELD_TYPE_DWORD64: out_u64(w, relic_load_u64le(p)); break;
    case RELIC_GFF_FIELD_TYPE_INT64: out_i64(w, (int64_t)relic_load_u64le(p)); break;
    case RELIC_GFF_FIELD_TYPE_FLOAT: {
        float v;
        memcpy(&v, &raw, 4);
        put_f32(w, v);
        break;
    }
    case RELIC_GFF_FIELD_TYPE_DOUBLE: put_f64(w, relic_load_f64le(p)); break;
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING: {
        uint32_t n = relic_load_u32le(p);
        size_t at = put_text(w, p + 4, n, ps->utf8);
        if (at != n) return bad_text(ps, depth, p + 4 + at, "the text");
        break;
    }
    case RELIC_GFF_FIELD_TYPE_RESREF:
        /* ResRefs are names, not text: shown through cp1252 whatever the encoding */
        put_text(w, p + 1, p[0], 0);
        break;
    case RELIC_GFF_FIELD_TYPE_VOID: put_base64(w, p + 4, relic_load_u32le(p)); break;
    case RELIC_GFF_FIELD_TYPE_LIST: {
        const uint8_t *l = d->v.list_indices + raw;
        uint32_t count = relic_load_u32le(l);
        out_char(w, '[');
        for (uint32_t i = 0; i < count; i++) {
            uint32_t s = relic_load_u32le(l + 4 + 4 * (size_t)i);
            if (i) out_char(w, ',');
            ps->path[depth].index = i;
            st = print_struct(ps, s, depth + 1, relic_gff_doc_struct_id(d, s) != RELIC_GFF_NONE ? F_HAS_ID : 0);
            if (st != RELIC_OK) return st;
        }
        out_char(w, ']');
        break;
    }
    case RELIC_GFF_FIELD_TYPE_ORIENTATION:
    case RELIC_GFF_FIELD_TYPE_VECTOR:
        out_char(w, '[');
        for (int k = 0; k < (sl->type == RELIC_GFF_FIELD_TYPE_ORIENTATION ? 4 : 3); k++) {
            if (k) out_char(w, ',');
            put_f32(w, relic_load_f32le(p + 4 * k));
        }
        out_char(w, ']');
        break;
    default: break;
    }
    out_char(w, '}');
    return RELIC_OK;
}

static uint64_t mix(uint64_t h, uint64_t k)
{
    h = (h ^ k) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

static relic_status print_struct(pstate *ps, uint32_t s, uint32_t depth, uint32_t flags)
{
    const relic_gff_doc *d = ps->d;
    const uint8_t *sp = d->v.structs + 12 * (size_t)s;
    uint32_t id = relic_load_u32le(sp), data = relic_load_u32le(sp + 4), n = relic_load_u32le(sp + 8);
    relic_status st;
    if (depth > RELIC_GFF_MAX_DEPTH)
        return relic_fail(ps->err, RELIC_E_LIMIT, 0, NULL, "structs nest deeper than %d", RELIC_GFF_MAX_DEPTH);
    if (n > ps->kcap) {
        size_t cap = n < 2 * ps->kcap ? 2 * ps->kcap : n;
        void *g = relic_arena_array(ps->arena, cap, sizeof *ps->kbuf, 8); /* refilled below: no copy */
        if (!g) return nomem(ps);
        ps->kbuf = g;
        ps->kcap = cap;
    }
    uint64_t h = mix(0x51ED27u, flags);
    const uint32_t *fidx = n == 1 ? &data : NULL;
    const uint8_t *fi_bytes = d->v.field_indices + (n == 1 ? 0 : (size_t)data);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t f = fidx ? data : relic_load_u32le(fi_bytes + 4 * (size_t)i);
        const uint8_t *fp = d->v.fields + 12 * (size_t)f;
        uint64_t k = (uint64_t)relic_load_u32le(fp + 4) << 5 | relic_load_u32le(fp);
        ps->kbuf[i] = k;
        h = mix(h, k);
    }
    layout *L = ps->buckets[h & (ps->nbuckets - 1)];
    while (L && !(L->hash == h && L->n == n && L->flags == flags && memcmp(L->key, ps->kbuf, (size_t)n * 8) == 0))
        L = L->next;
    if (!L) {
        if ((st = build_layout(ps, ps->kbuf, n, flags, h, &L)) != RELIC_OK) return st;
        L->next = ps->buckets[h & (ps->nbuckets - 1)];
        ps->buckets[h & (ps->nbuckets - 1)] = L;
    }
    jout *w = &ps->w;
    out_char(w, '{');
    for (uint32_t j = 0; j < L->nslot; j++) {
        const slot *sl = &L->slots[j];
        if (j) out_char(w, ',');
        if (sl->kind == K_FIELD) {
            st = print_field(ps, sl, fidx ? data : relic_load_u32le(fi_bytes + 4 * (size_t)sl->pos), depth);
            if (st != RELIC_OK) return st;
            /* a sink that failed (a full disk, a bound on the output) ends the print
             * here, not after the rest of the tree is formatted for nothing */
            if (ps->w.o->failed) return nomem(ps);
        } else {
            out_bytes(w, sl->text, sl->len);
            if (sl->kind == K_STRUCT_ID) out_i64(w, (int32_t)id);
        }
    }
    out_char(w, '}');
    return RELIC_OK;
}

relic_gff_encoding relic_gff_detect_encoding(const relic_gff_doc *d)
{
    int non_ascii = 0;
    /* fields may share or overlap their text (validation allows it): past
     * twice the field data read, the text seen so far decides, so that the
     * look stays linear in the file */
    uint64_t seen = 0;
    const uint64_t budget = 2 * (uint64_t)d->v.field_data_count + 64;
    for (uint32_t f = 0; f < d->field_count && seen <= budget; f++) {
        const uint8_t *fp = d->v.fields + 12 * (size_t)f;
        uint32_t type = relic_load_u32le(fp);
        const uint8_t *p = d->v.field_data + relic_load_u32le(fp + 8);
        uint32_t count = 1;
        const uint8_t *text;
        uint32_t len;
        if (type == RELIC_GFF_FIELD_TYPE_CEXOSTRING) {
            len = relic_load_u32le(p);
            text = p + 4;
            seen += 4 + (uint64_t)len;
        } else if (type == RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING) {
            count = relic_load_u32le(p + 8);
            p += 12;
            len = 0;
            text = p;
        } else continue;
        for (uint32_t i = 0; i < count && seen <= budget; i++) {
            if (type == RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING) {
                len = relic_load_u32le(p + 4);
                text = p + 8;
                p += 8 + (size_t)len;
                seen += 8 + (uint64_t)len;
            }
            for (uint32_t k = 0; k < len;) {
                uint32_t cp;
                if (text[k] < 0x80) {
                    k++;
                    continue;
                }
                size_t l = relic_utf8_next(text + k, len - k, &cp);
                if (!l) return RELIC_GFF_ENC_CP1252;
                non_ascii = 1;
                k += (uint32_t)l;
            }
        }
    }
    return non_ascii ? RELIC_GFF_ENC_UTF8 : RELIC_GFF_ENC_CP1252;
}

/* The root's "__layout" member: the family's name, or an object with it
 * and the order record's runs of each kind that differs
 * (relic_gff_order_of); nothing for the default family in its own order. */
static relic_status layout_member(pstate *ps, relic_gff_layout fam, relic_arena *a)
{
    relic_gff_order o;
    relic_status st = relic_gff_order_of(ps->d, fam, a, &o, ps->err);
    if (st != RELIC_OK) return st;
    const char *name = relic_gff_family_of(fam)->name;
    if (!relic_gff_order_used(&o)) {
        if (fam == RELIC_GFF_LAYOUT_DEFAULT) return RELIC_OK;
        size_t n = 16 + strlen(name);
        char *t = relic_arena_alloc(a, n, 1);
        if (!t) return nomem(ps);
        ps->layout_len = (size_t)snprintf(t, n, "\"__layout\":\"%s\"", name);
        ps->layout_text = (const uint8_t *)t;
        return RELIC_OK;
    }
    size_t cap = 64 + strlen(name);
    for (int k = 0; k < RELIC_GFF_ORDER_KINDS; k++) cap += 24 + 22 * (size_t)o.nruns[k];
    char *t = relic_arena_alloc(a, cap, 1);
    if (!t) return nomem(ps);
    size_t n = (size_t)snprintf(t, cap, "\"__layout\":{\"family\":\"%s\"", name);
    for (int k = 0; k < RELIC_GFF_ORDER_KINDS; k++) {
        if (!o.nruns[k]) continue;
        n += (size_t)snprintf(t + n, cap - n, ",\"%s\":[", relic_gff_order_names[k]);
        for (uint32_t r = 0; r < 2 * o.nruns[k]; r++)
            n += (size_t)snprintf(t + n, cap - n, "%s%u", r ? "," : "", (unsigned)o.runs[k][r]);
        t[n++] = ']';
    }
    t[n++] = '}';
    ps->layout_text = (const uint8_t *)t;
    ps->layout_len = n;
    return RELIC_OK;
}

/* The JSON of d, naming layout family fam in "__layout" . */
static relic_status print_doc_family(const relic_gff_doc *d, relic_gff_encoding enc, relic_gff_layout fam, relic_buf *out,
                                     relic_arena *scratch, relic_gff_strref_text_fn fn, void *ctx, relic_error *err)
{
    pstate *ps = relic_arena_alloc(scratch, sizeof *ps, _Alignof(pstate));
    uint8_t *stage = relic_arena_alloc(scratch, OUT_CAP, 8);
    relic_status st;
    if (!ps || !stage) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory printing JSON");
    ps->strref_text = fn;
    ps->strref_ctx = ctx;
    if (enc == RELIC_GFF_ENC_AUTO) enc = relic_gff_detect_encoding(d);
    ps->d = d;
    ps->utf8 = enc == RELIC_GFF_ENC_UTF8;
    ps->err = err;
    if ((st = layout_member(ps, fam, scratch)) != RELIC_OK) return st;
    ps->w.base = ps->w.p = stage;
    ps->w.end = stage + OUT_CAP;
    ps->w.o = out;
    ps->arena = scratch;
    ps->nbuckets = 64;
    while (ps->nbuckets < d->struct_count && ps->nbuckets < (1u << 16)) ps->nbuckets <<= 1;
    ps->buckets = relic_arena_array(scratch, ps->nbuckets, sizeof *ps->buckets, 8);
    if (!ps->buckets) st = relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory printing JSON");
    else st = print_struct(ps, 0, 0, F_ROOT | (relic_gff_doc_struct_id(d, 0) != RELIC_GFF_NONE ? F_HAS_ID : 0));
    if (st == RELIC_OK) {
        out_char(&ps->w, '\n');
        out_flush(&ps->w);
        if (out->failed) st = relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory printing JSON");
    }
    return st;
}

relic_status relic_gff_json_print_doc_in(const relic_gff_doc *d, relic_gff_encoding enc, relic_buf *out,
                                         relic_arena *scratch, relic_error *err)
{
    return print_doc_family(d, enc, relic_gff_detect_family(d), out, scratch, NULL, NULL, err);
}

relic_status relic_gff_json_print_doc_strrefs_in(const relic_gff_doc *d, relic_gff_encoding enc, relic_gff_strref_text_fn fn,
                                                 void *ctx, relic_buf *out, relic_arena *scratch, relic_error *err)
{
    if (!scratch) return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "no scratch arena");
    return print_doc_family(d, enc, relic_gff_detect_family(d), out, scratch, fn, ctx, err);
}

/* The wrappers below take their scratch from where out grows (relic_json_out_scratch). */
#define NO_SCRATCH(err, twin) \
    relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "an output buffer over caller memory needs a scratch arena: " twin)

relic_status relic_gff_json_print_doc_strrefs(const relic_gff_doc *d, relic_gff_encoding enc, relic_gff_strref_text_fn fn,
                                              void *ctx, relic_buf *out, relic_error *err)
{
    relic_arena heap, *scratch = relic_json_out_scratch(out, &heap);
    if (!scratch) return NO_SCRATCH(err, "relic_gff_json_print_doc_strrefs_in");
    relic_status st = relic_gff_json_print_doc_strrefs_in(d, enc, fn, ctx, out, scratch, err);
    relic_json_release_scratch(scratch, &heap);
    return st;
}

relic_status relic_gff_json_print_doc(const relic_gff_doc *d, relic_gff_encoding enc, relic_buf *out,
                                      relic_error *err)
{
    relic_arena heap, *scratch = relic_json_out_scratch(out, &heap);
    if (!scratch) return NO_SCRATCH(err, "relic_gff_json_print_doc_in");
    relic_status st = relic_gff_json_print_doc_in(d, enc, out, scratch, err);
    relic_json_release_scratch(scratch, &heap);
    return st;
}

relic_status relic_gff_json_print_tree_in(const relic_gff_tree *t, relic_gff_encoding enc, relic_buf *out,
                                          relic_arena *scratch, relic_error *err)
{
    relic_buf bin;
    relic_gff_doc d;
    relic_status st;
    if (!t->root) return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "a GFF tree without its top-level struct");
    if (!scratch) return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "no scratch arena");
    relic_buf_init_arena(&bin, scratch, 0);
    st = relic_gff_write_tree(t, t->family, scratch, &bin, NULL, err);
    if (st == RELIC_OK && bin.failed) st = relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory writing the GFF");
    if (st == RELIC_OK) st = relic_gff_open(bin.data, bin.size, scratch, NULL, NULL, &d, err);
    /* the tree's family, not the one detected again from the bytes written in it: the
     * detection is not idempotent (an NWN1-toolset tree whose top-level field-index block
     * falls last reads back as post-order; fuzz_gff, regressions/fuzz_gff) */
    if (st == RELIC_OK) st = print_doc_family(&d, enc, t->family, out, scratch, NULL, NULL, err);
    return st;
}

relic_status relic_gff_json_print_tree(const relic_gff_tree *t, relic_gff_encoding enc, relic_buf *out,
                                       relic_error *err)
{
    relic_arena heap, *scratch = relic_json_out_scratch(out, &heap);
    if (!scratch) return NO_SCRATCH(err, "relic_gff_json_print_tree_in");
    relic_status st = relic_gff_json_print_tree_in(t, enc, out, scratch, err);
    relic_json_release_scratch(scratch, &heap);
    return st;
}
