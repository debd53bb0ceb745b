/* gff_json.c — reading the nwn_gff JSON form (neverwinter.nim, gffjson.nim; xoreos-tools, src/xml/gff3dumper.cpp; the
 * printer is runtime/json/gff_json_print.c) into a GFF tree: a root object with
 * "__data_type", one member per field {"type", "value"} ("value64" base64
 * for VOID, or nwn_gff's raw "value"), locstrings as {"<StringID>": text,
 * "id": StrRef} (nwn_gff's legacy "id" beside "value" too), "__struct_id"
 * (-1 or absent = none; negative numbers are nwn_gff's int32 form), and
 * relic's own "__" keys: "__field_order", "__dupN__Label",
 * "__substring_order" and "__encoding". Text is converted from JSON's UTF-8
 * to the game's code page (cp1252 or UTF-8; ResRefs, labels and the file
 * type always cp1252).
 *
 * The common shape (the one relic and nwn_gff print) is read in one pass
 * from the events of relic_json_scan (json_scan.c), straight into the tree
 * (read_tree_stream). Anything else, and every error, is parsed by yajl
 * (Debian libyajl-dev, an event parser): its events build a compact document in a scratch arena (one node per JSON value, numbers
 * kept as their text so 64-bit integers stay exact), which is then read
 * into the tree. Work and memory are linear in the text: an object's
 * members are found by a scan of the few members of a field object, or, for
 * "__field_order", through a sorted copy of the struct's keys. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <yajl/yajl_parse.h>

#include "relic_json.h"

#include "gff_text.h"
#include "json_scan.h"
#include "relic_gff.h"

/* ---------------------------------------------------------------------- */
/* The document                                                           */
/* ---------------------------------------------------------------------- */

enum { J_OBJ,
       J_ARR,
       J_STR,
       J_NUM,
       J_TRUE,
       J_FALSE,
       J_NULL };

typedef struct jnode {
    struct jnode *next; /* next member / element */
    union {
        struct jnode *first; /* J_OBJ, J_ARR: first member / element */
        const char *s;       /* J_STR: the UTF-8 text; J_NUM: the number's text */
    } u;
    const char *key;    /* as a member: its key */
    uint32_t klen, len; /* key length; J_STR/J_NUM: text length, J_OBJ/J_ARR: member count */
    uint32_t kind;
} jnode;
/* Keys and texts point into the JSON text when yajl hands them over from
 * there (no escapes), else into a copy in the scratch arena; neither is
 * NUL-terminated: lengths are used throughout. */

/* Containers deeper than this are refused while parsing (three JSON levels
 * per struct level, and a few more). */
#define JSON_MAX_DEPTH (3 * RELIC_GFF_MAX_DEPTH + 8)

typedef struct bstate {
    relic_arena *a;
    const char *text, *text_end; /* the JSON text */
    jnode *root;
    jnode *open[JSON_MAX_DEPTH + 1];
    jnode *last[JSON_MAX_DEPTH + 1];
    int depth;
    const char *key; /* pending member key */
    uint32_t klen;
    int too_deep, nomem;
} bstate;

/* Bytes yajl hands over: in place when they lie in the JSON text. */
static const char *keep(bstate *b, const void *p, size_t n)
{
    const char *c = p;
    if (c >= b->text && c <= b->text_end && n <= (size_t)(b->text_end - c)) return c;
    char *q = relic_arena_alloc(b->a, n + 1, 1);
    if (q) {
        memcpy(q, p, n);
        q[n] = 0;
    }
    return q;
}

static jnode *add_node(bstate *b, uint8_t kind)
{
    jnode *n = relic_arena_alloc(b->a, sizeof *n, 8);
    if (!n) {
        b->nomem = 1;
        return NULL;
    }
    memset(n, 0, sizeof *n);
    n->kind = kind;
    if (b->depth == 0) {
        b->root = n;
    } else {
        jnode *parent = b->open[b->depth - 1];
        if (parent->kind == J_OBJ) {
            n->key = b->key;
            n->klen = b->klen;
        }
        if (b->last[b->depth - 1]) b->last[b->depth - 1]->next = n;
        else parent->u.first = n;
        b->last[b->depth - 1] = n;
        parent->len++;
    }
    return n;
}

static int on_null(void *ctx) { return add_node(ctx, J_NULL) != NULL; }
static int on_bool(void *ctx, int v) { return add_node(ctx, v ? J_TRUE : J_FALSE) != NULL; }

static int on_number(void *ctx, const char *p, size_t n)
{
    bstate *b = ctx;
    jnode *j = add_node(b, J_NUM);
    if (!j || !(j->u.s = keep(b, p, n))) {
        b->nomem = 1;
        return 0;
    }
    j->len = (uint32_t)n;
    return 1;
}

static int on_string(void *ctx, const unsigned char *p, size_t n)
{
    bstate *b = ctx;
    jnode *j = add_node(b, J_STR);
    if (!j || !(j->u.s = keep(b, p, n))) {
        b->nomem = 1;
        return 0;
    }
    j->len = (uint32_t)n;
    return 1;
}

static int on_key(void *ctx, const unsigned char *p, size_t n)
{
    bstate *b = ctx;
    if (!(b->key = keep(b, p, n))) {
        b->nomem = 1;
        return 0;
    }
    b->klen = (uint32_t)n;
    return 1;
}

static int on_open(bstate *b, uint8_t kind)
{
    if (b->depth >= JSON_MAX_DEPTH) {
        b->too_deep = 1;
        return 0;
    }
    jnode *j = add_node(b, kind);
    if (!j) return 0;
    b->open[b->depth] = j;
    b->last[b->depth] = NULL;
    b->depth++;
    return 1;
}

static int on_start_map(void *ctx) { return on_open(ctx, J_OBJ); }
static int on_start_array(void *ctx) { return on_open(ctx, J_ARR); }
static int on_close(void *ctx)
{
    ((bstate *)ctx)->depth--;
    return 1;
}

static const yajl_callbacks callbacks = {
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

/* ---------------------------------------------------------------------- */
/* Reading                                                                */
/* ---------------------------------------------------------------------- */

typedef struct rstate {
    relic_arena *a; /* the tree's arena */
    relic_error *err;
    relic_gff_encoding enc;
    /* the JSON path, built only for an error message */
    struct {
        const char *key;
        uint32_t klen;
        int64_t index;
    } path[JSON_MAX_DEPTH + 8];
    int depth;
} rstate;

static void push_n(rstate *rs, const char *key, size_t klen, int64_t index)
{
    rs->path[rs->depth].key = key;
    rs->path[rs->depth].klen = (uint32_t)klen;
    rs->path[rs->depth].index = index;
    rs->depth++;
}

static void push(rstate *rs, const char *key, int64_t index) { push_n(rs, key, key ? strlen(key) : 0, index); }
static void pop(rstate *rs) { rs->depth--; }

static relic_status fail(rstate *rs, relic_status code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static relic_status fail(rstate *rs, relic_status code, const char *fmt, ...)
{
    char path[RELIC_ERROR_PATH_MAX], msg[RELIC_ERROR_MESSAGE_MAX];
    size_t k = 0;
    path[0] = 0;
    for (int i = 0; i < rs->depth && k + 8 < sizeof path; i++) {
        int w = rs->path[i].key ? snprintf(path + k, sizeof path - k, "%s%.*s", k ? "." : "", (int)rs->path[i].klen, rs->path[i].key)
                                : snprintf(path + k, sizeof path - k, "[%lld]", (long long)rs->path[i].index);
        k = w < 0 ? k : k + (size_t)w >= sizeof path ? sizeof path - 1
                                                     : k + (size_t)w;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return relic_fail(rs->err, code, 0, path, "%s", msg);
}

/* The last member of obj named key, or NULL. */
static const jnode *member(const jnode *obj, const char *key)
{
    const jnode *found = NULL;
    size_t n = strlen(key);
    for (const jnode *m = obj->u.first; m; m = m->next)
        if (m->klen == n && memcmp(m->key, key, n) == 0) found = m;
    return found;
}

static int is_dup_key(const jnode *m) { return m->klen >= 5 && memcmp(m->key, "__dup", 5) == 0; }
/* A member of a struct object that is a field ("__dupN__" keys are). */
static int is_field_key(const jnode *m)
{
    return !(m->klen >= 2 && m->key[0] == '_' && m->key[1] == '_') || is_dup_key(m);
}

/* Text of a string or number node, NUL-terminated in buf (cap bytes); NULL
 * when longer. */
static const char *cstr(const jnode *v, char *buf, size_t cap)
{
    if (v->len >= cap) return NULL;
    memcpy(buf, v->u.s, v->len);
    buf[v->len] = 0;
    return buf;
}

int relic_gff_encoding_from_name(const char *name, relic_gff_encoding *out)
{
    static const struct {
        const char *name;
        relic_gff_encoding enc;
    } names[] = {
        {"cp1252", RELIC_GFF_ENC_CP1252},
        {"windows-1252", RELIC_GFF_ENC_CP1252},
        {"utf8", RELIC_GFF_ENC_UTF8},
        {"utf-8", RELIC_GFF_ENC_UTF8},
        {"auto", RELIC_GFF_ENC_AUTO},
    };
    for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++) {
        size_t k = 0;
        while (names[i].name[k] && (name[k] | 0x20) == names[i].name[k]) k++;
        if (!names[i].name[k] && !name[k]) {
            *out = names[i].enc;
            return 1;
        }
    }
    return 0;
}

/* An integer in [lo, hi] (hi as unsigned so u64 fits); the value's bits. */
static relic_status get_int(rstate *rs, const jnode *v, int64_t lo, uint64_t hi, int64_t *out)
{
    if (!v || v->kind != J_NUM) return fail(rs, RELIC_E_ARGUMENT, "expected an integer");
    const char *p = v->u.s, *e = p + v->len;
    int neg = p<e && * p == '-', shown = v->len> 40 ? 40 : (int)v->len;
    uint64_t m = 0;
    p += neg;
    if (p == e) return fail(rs, RELIC_E_SYNTAX, "expected an integer, found %.*s", shown, v->u.s);
    for (; p < e; p++) {
        if (*p < '0' || *p > '9') return fail(rs, RELIC_E_RANGE, "expected an integer, found %.*s", shown, v->u.s);
        if (m > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) return fail(rs, RELIC_E_RANGE, "%.*s is out of range", shown, v->u.s);
        m = m * 10 + (uint64_t)(*p - '0');
    }
    if (neg ? (m > (uint64_t)0 - (uint64_t)lo || (lo >= 0 && m != 0)) : m > hi)
        return fail(rs, RELIC_E_RANGE, "%.*s is out of range [%lld, %llu]", shown, v->u.s, (long long)lo, (unsigned long long)hi);
    *out = neg ? (int64_t)((uint64_t)0 - m) : (int64_t)m;
    return RELIC_OK;
}

/* Bits written as "0x…" (non-finite values), or nwn_gff's "nan"/"inf"/"-inf". */
static int special_float(const jnode *v, int bits, uint64_t *out, double *d)
{
    char buf[24];
    const char *s = cstr(v, buf, sizeof buf);
    if (!s) return 0;
    if (strcmp(s, "nan") == 0) {
        *d = NAN;
        return 2;
    }
    if (strcmp(s, "inf") == 0) {
        *d = INFINITY;
        return 2;
    }
    if (strcmp(s, "-inf") == 0) {
        *d = -INFINITY;
        return 2;
    }
    if (s[0] != '0' || (s[1] | 0x20) != 'x' || v->len != 2 + (uint32_t)bits / 4) return 0;
    uint64_t u = 0;
    for (const char *p = s + 2; *p; p++) {
        int c = *p, dgt = c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10
                                                                                                  : -1;
        if (dgt < 0) return 0;
        u = u << 4 | (uint64_t)dgt;
    }
    *out = u;
    return 1;
}

static relic_status get_double(rstate *rs, const jnode *v, int f32, double *out, uint64_t *bits, int *is_bits)
{
    *is_bits = 0;
    if (v && v->kind == J_STR) {
        int k = special_float(v, f32 ? 32 : 64, bits, out);
        if (k == 1) {
            *is_bits = 1;
            return RELIC_OK;
        }
        if (k == 2) return RELIC_OK;
    }
    char buf[512];
    if (!v || v->kind != J_NUM) return fail(rs, RELIC_E_SYNTAX, "expected a number or \"0x…\" float bits");
    if (!cstr(v, buf, sizeof buf)) return fail(rs, RELIC_E_RANGE, "a number of %u characters", (unsigned)v->len);
    *out = strtod(buf, NULL);
    return RELIC_OK;
}

/* JSON text (UTF-8) to game bytes in the tree's arena. */
enum { TEXT_GAME,
       TEXT_RAW,
       TEXT_CP1252 };
static relic_status get_text(rstate *rs, const jnode *v, int mode, uint8_t **out, size_t *n)
{
    if (!v || v->kind != J_STR) return fail(rs, RELIC_E_ARGUMENT, "expected a string");
    const uint8_t *p = (const uint8_t *)v->u.s;
    size_t len = v->len, k = 0;
    uint8_t *dst = relic_arena_alloc(rs->a, len ? len : 1, 1);
    if (!dst) return fail(rs, RELIC_E_NOMEM, "arena exhausted");
    if (mode == TEXT_RAW) {
        memcpy(dst, p, len); /* yajl has checked the UTF-8 */
        k = len;
    } else if (mode == TEXT_GAME && rs->enc == RELIC_GFF_ENC_UTF8) {
        /* yajl checks raw bytes but turns a lone \uD800-\uDFFF escape into
         * bytes that are not UTF-8; the file's text must be UTF-8 */
        for (size_t i = 0; i < len;) {
            uint32_t cp;
            size_t l = p[i] < 0x80 ? 1 : relic_utf8_next(p + i, len - i, &cp);
            if (!l) return fail(rs, RELIC_E_SYNTAX, "not UTF-8 at byte %zu of the string (a lone surrogate escape?)", i);
            i += l;
        }
        memcpy(dst, p, len);
        k = len;
    } else {
        for (size_t i = 0; i < len;) {
            if (p[i] < 0x80) {
                dst[k++] = p[i++];
                continue;
            }
            uint32_t cp;
            size_t l = relic_utf8_next(p + i, len - i, &cp);
            if (!l) return fail(rs, RELIC_E_SYNTAX, "invalid UTF-8 at byte %zu of the string", i);
            if (!relic_cp_to_cp1252(cp, &dst[k]))
                return fail(rs, RELIC_E_RANGE, "character U+%04X (byte %zu of the text) has no windows-1252 byte "
                                               "(the text may be UTF-8: --encoding utf8)",
                            (unsigned)cp, i);
            k++;
            i += l;
        }
    }
    *out = dst;
    *n = k;
    return RELIC_OK;
}

static int b64_val(int c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

static relic_status get_base64(rstate *rs, const jnode *v, uint8_t **out, size_t *n)
{
    if (!v || v->kind != J_STR) return fail(rs, RELIC_E_ARGUMENT, "expected a base64 string");
    const char *p = v->u.s;
    size_t len = v->len, k = 0;
    uint8_t *dst = relic_arena_alloc(rs->a, len / 4 * 3 + 3, 1);
    if (!dst) return fail(rs, RELIC_E_NOMEM, "arena exhausted");
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '=') break;
        if (p[i] == '\n' || p[i] == '\r') continue;
        int d = b64_val((unsigned char)p[i]);
        if (d < 0) return fail(rs, RELIC_E_SYNTAX, "character %zu is not base64", i);
        acc = (acc << 6) | (uint32_t)d;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            dst[k++] = (uint8_t)(acc >> bits);
        }
    }
    *out = dst;
    *n = k;
    return RELIC_OK;
}

static relic_status read_struct(rstate *rs, const jnode *obj, relic_gff_tstruct **out, uint32_t depth);

static int u32_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static relic_status read_locstring(rstate *rs, const jnode *fo, const jnode *jv, relic_gff_tfield *f)
{
    relic_status st = RELIC_OK;
    int64_t iv;
    if (jv->kind != J_OBJ) return fail(rs, RELIC_E_ARGUMENT, "a locstring is an object");
    const jnode *jid = NULL;
    f->v.loc.strref = RELIC_GFF_NONE;
    f->v.loc.s = relic_arena_array(rs->a, jv->len ? jv->len : 1, sizeof *f->v.loc.s, 8);
    if (!f->v.loc.s) return fail(rs, RELIC_E_NOMEM, "arena exhausted");
    for (const jnode *m = jv->u.first; m; m = m->next) {
        if (m->klen == 2 && memcmp(m->key, "id", 2) == 0) {
            jid = m;
            continue;
        }
        uint64_t id = 0;
        for (uint32_t i = 0; i < m->klen && id <= UINT32_MAX; i++)
            id = m->key[i] >= '0' && m->key[i] <= '9' ? id * 10 + (uint64_t)(m->key[i] - '0') : UINT64_MAX;
        if (m->klen == 0 || id > UINT32_MAX)
            return fail(rs, RELIC_E_RANGE, "locstring key '%.*s' is not a StringID", m->klen > 40 ? 40 : (int)m->klen, m->key);
        relic_gff_tsubstring *ss = &f->v.loc.s[f->v.loc.count++];
        ss->string_id = (uint32_t)id;
        push_n(rs, m->key, m->klen, -1);
        st = get_text(rs, m, TEXT_GAME, &ss->text, &ss->len);
        pop(rs);
        if (st != RELIC_OK) return st;
    }
    if (f->v.loc.count > 1) {
        /* a StringID twice (a JSON object with a repeated key): refused */
        uint32_t *ids = relic_arena_array(rs->a, f->v.loc.count, sizeof *ids, _Alignof(uint32_t));
        if (!ids) return fail(rs, RELIC_E_NOMEM, "out of memory");
        for (uint32_t i = 0; i < f->v.loc.count; i++) ids[i] = f->v.loc.s[i].string_id;
        qsort(ids, f->v.loc.count, sizeof *ids, u32_cmp);
        for (uint32_t i = 1; i < f->v.loc.count && st == RELIC_OK; i++)
            if (ids[i] == ids[i - 1]) st = fail(rs, RELIC_E_ARGUMENT, "StringID %u appears twice", (unsigned)ids[i]);
        if (st != RELIC_OK) return st;
    }
    const jnode *ord = member(fo, "__substring_order");
    if (ord) {
        /* put the substrings back in the order the file had */
        push(rs, "__substring_order", -1);
        if (ord->kind != J_ARR) st = fail(rs, RELIC_E_ARGUMENT, "expected an array");
        else if (ord->len != f->v.loc.count)
            st = fail(rs, RELIC_E_ARGUMENT, "lists %u StringIDs for %u substrings", (unsigned)ord->len, (unsigned)f->v.loc.count);
        size_t i = 0;
        for (const jnode *e = ord->u.first; e && st == RELIC_OK; e = e->next, i++) {
            st = get_int(rs, e, 0, 0xFFFFFFFFu, &iv);
            size_t j = i;
            while (st == RELIC_OK && j < f->v.loc.count && f->v.loc.s[j].string_id != (uint32_t)iv) j++;
            if (st == RELIC_OK && j == f->v.loc.count) st = fail(rs, RELIC_E_ARGUMENT, "StringID %lld is not in the value", (long long)iv);
            if (st == RELIC_OK) {
                relic_gff_tsubstring t = f->v.loc.s[i];
                f->v.loc.s[i] = f->v.loc.s[j];
                f->v.loc.s[j] = t;
            }
        }
        pop(rs);
        if (st != RELIC_OK) return st;
    }
    if (!jid) jid = member(fo, "id"); /* legacy: id beside value */
    if (jid) {
        push(rs, "id", -1);
        st = get_int(rs, jid, 0, 0xFFFFFFFFu, &iv);
        pop(rs);
        f->v.loc.strref = (uint32_t)iv;
    }
    return st;
}

/* The field's label from its JSON key (a "__dupN__" prefix dropped),
 * converted to windows-1252, at most 16 characters; src_* none. */
static relic_status set_label(rstate *rs, const char *key, uint32_t klen, relic_gff_tfield *f)
{
    const char *label = key, *kend = key + klen;
    if (klen >= 5 && memcmp(key, "__dup", 5) == 0) {
        const char *p = key + 5;
        while (p < kend && *p >= '0' && *p <= '9') p++;
        if (kend - p >= 2 && p[0] == '_' && p[1] == '_') label = p + 2;
    }
    size_t k = 0, len = (size_t)(kend - label);
    int shown = len > 40 ? 40 : (int)len;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        uint8_t byte;
        size_t l;
        if ((uint8_t)label[i] < 0x80 && label[i] != 0) {
            byte = (uint8_t)label[i];
            l = 1;
        } else {
            l = relic_utf8_next((const uint8_t *)label + i, len - i, &cp);
            if (!l || !relic_cp_to_cp1252(cp, &byte) || cp == 0)
                return fail(rs, RELIC_E_RANGE, "label '%.*s' has a character windows-1252 cannot hold", shown, label);
        }
        if (k == 16) return fail(rs, RELIC_E_RANGE, "label '%.*s' is longer than 16 characters", shown, label);
        f->label[k++] = (char)byte;
        i += l;
    }
    f->label[k] = 0;
    f->src_index = f->src_label = f->src_data = RELIC_GFF_NONE;
    return RELIC_OK;
}

/* A type name's id by its length and bytes (this runs once per field). */
static int type_id(const char *p, uint32_t n, uint32_t *type)
{
    /* clang-format off */
    static const char *const names[] = {
        "byte", "char", "word", "short", "dword", "int", "dword64", "int64", "float", "double",
        "cexostring", "resref", "cexolocstring", "void", "struct", "list", "orientation", "vector",
    };
    /* clang-format on */
    static const uint8_t lens[] = {4, 4, 4, 5, 5, 3, 7, 5, 5, 6, 10, 6, 13, 4, 6, 4, 11, 6};
    _Static_assert(sizeof lens == sizeof names / sizeof names[0], "a length per type name");
    for (uint32_t t = 0; t < sizeof names / sizeof names[0]; t++)
        if (lens[t] == n && names[t][0] == p[0] && memcmp(names[t], p, n) == 0) {
            *type = t;
            return 1;
        }
    return 0;
}

/* The type from a "type" member's value. */
static relic_status set_type(rstate *rs, const jnode *jt, relic_gff_tfield *f)
{
    if (jt->kind != J_STR || jt->len == 0 || !type_id(jt->u.s, jt->len, &f->type))
        return fail(rs, RELIC_E_RANGE, "unknown field type '%.*s'", jt->kind == J_STR && jt->len < 40 ? (int)jt->len : 0,
                    jt->kind == J_STR ? jt->u.s : "");
    return RELIC_OK;
}

/* A value held in one JSON scalar (integers, floats, strings, ResRefs,
 * VOID as raw "value"): 1 and *st; 0 when f's type takes a container. */
static int read_scalar(rstate *rs, const jnode *jv, relic_gff_tfield *f, relic_status *st)
{
    int64_t iv;
    double dv = 0;
    uint64_t bits = 0;
    int is_bits;
    switch (f->type) {
    case RELIC_GFF_FIELD_TYPE_BYTE:
        *st = get_int(rs, jv, 0, 0xFF, &iv);
        f->v.u = (uint64_t)iv;
        return 1;
    case RELIC_GFF_FIELD_TYPE_WORD:
        *st = get_int(rs, jv, 0, 0xFFFF, &iv);
        f->v.u = (uint64_t)iv;
        return 1;
    case RELIC_GFF_FIELD_TYPE_DWORD:
        *st = get_int(rs, jv, 0, 0xFFFFFFFFu, &iv);
        f->v.u = (uint64_t)iv;
        return 1;
    case RELIC_GFF_FIELD_TYPE_DWORD64:
        *st = get_int(rs, jv, 0, UINT64_MAX, &iv);
        f->v.u = (uint64_t)iv;
        return 1;
    case RELIC_GFF_FIELD_TYPE_CHAR: *st = get_int(rs, jv, INT8_MIN, INT8_MAX, &f->v.i); return 1;
    case RELIC_GFF_FIELD_TYPE_SHORT: *st = get_int(rs, jv, INT16_MIN, INT16_MAX, &f->v.i); return 1;
    case RELIC_GFF_FIELD_TYPE_INT: *st = get_int(rs, jv, INT32_MIN, INT32_MAX, &f->v.i); return 1;
    case RELIC_GFF_FIELD_TYPE_INT64: *st = get_int(rs, jv, INT64_MIN, INT64_MAX, &f->v.i); return 1;
    case RELIC_GFF_FIELD_TYPE_FLOAT:
        /* as nwn_gff: the number as an f64, then rounded to f32 */
        *st = get_double(rs, jv, 1, &dv, &bits, &is_bits);
        if (is_bits) {
            uint32_t u = (uint32_t)bits;
            memcpy(&f->v.f32, &u, 4);
        } else f->v.f32 = (float)dv;
        return 1;
    case RELIC_GFF_FIELD_TYPE_DOUBLE:
        *st = get_double(rs, jv, 0, &dv, &bits, &is_bits);
        if (is_bits) memcpy(&f->v.f64, &bits, 8);
        else f->v.f64 = dv;
        return 1;
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING: *st = get_text(rs, jv, TEXT_GAME, &f->v.bytes.p, &f->v.bytes.n); return 1;
    case RELIC_GFF_FIELD_TYPE_RESREF:
        *st = get_text(rs, jv, TEXT_CP1252, &f->v.bytes.p, &f->v.bytes.n);
        if (*st == RELIC_OK && f->v.bytes.n > 255) *st = fail(rs, RELIC_E_RANGE, "a ResRef is at most 255 bytes");
        return 1;
    case RELIC_GFF_FIELD_TYPE_VOID: *st = get_text(rs, jv, TEXT_RAW, &f->v.bytes.p, &f->v.bytes.n); return 1;
    default: return 0;
    }
}

static relic_status read_field(rstate *rs, const jnode *fo, relic_gff_tfield *f, uint32_t depth)
{
    relic_status st = set_label(rs, fo->key, fo->klen, f);
    if (st != RELIC_OK) return st;
    if (fo->kind != J_OBJ) return fail(rs, RELIC_E_ARGUMENT, "a field is an object {type, value}");
    const jnode *jt = member(fo, "type"), *jv;
    if (!jt) return fail(rs, RELIC_E_ARGUMENT, "missing member \"type\"");
    if ((st = set_type(rs, jt, f)) != RELIC_OK) return st;
    if (f->type == RELIC_GFF_FIELD_TYPE_VOID && (jv = member(fo, "value64")) != NULL) {
        push(rs, "value64", -1);
        st = get_base64(rs, jv, &f->v.bytes.p, &f->v.bytes.n);
        pop(rs);
        return st;
    }
    if (!(jv = member(fo, "value"))) return fail(rs, RELIC_E_ARGUMENT, "missing member \"value\"");
    push(rs, "value", -1);
    int64_t iv;
    double dv = 0;
    uint64_t bits = 0;
    int is_bits;
    if (read_scalar(rs, jv, f, &st)) {
        pop(rs);
        return st;
    }
    switch (f->type) {
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING: st = read_locstring(rs, fo, jv, f); break;
    case RELIC_GFF_FIELD_TYPE_STRUCT: {
        st = read_struct(rs, jv, &f->v.child, depth + 1);
        const jnode *sid = member(fo, "__struct_id");
        if (st == RELIC_OK && sid && jv->kind == J_OBJ && !member(jv, "__struct_id")) {
            st = get_int(rs, sid, INT32_MIN, 0xFFFFFFFFu, &iv); /* nwn_gff: int32 */
            f->v.child->id = (uint32_t)iv;
        }
        break;
    }
    case RELIC_GFF_FIELD_TYPE_LIST: {
        if (jv->kind != J_ARR) {
            st = fail(rs, RELIC_E_ARGUMENT, "expected an array");
            break;
        }
        f->v.list.count = jv->len;
        f->v.list.items = relic_arena_array(rs->a, jv->len ? jv->len : 1, sizeof *f->v.list.items, 8);
        if (!f->v.list.items) {
            st = fail(rs, RELIC_E_NOMEM, "arena exhausted");
            break;
        }
        size_t i = 0;
        for (const jnode *e = jv->u.first; e && st == RELIC_OK; e = e->next, i++) {
            push(rs, NULL, (int64_t)i);
            st = read_struct(rs, e, &f->v.list.items[i], depth + 1);
            pop(rs);
        }
        break;
    }
    case RELIC_GFF_FIELD_TYPE_ORIENTATION:
    case RELIC_GFF_FIELD_TYPE_VECTOR: {
        uint32_t want = f->type == RELIC_GFF_FIELD_TYPE_ORIENTATION ? 4 : 3;
        if (jv->kind != J_ARR) {
            st = fail(rs, RELIC_E_ARGUMENT, "expected an array");
            break;
        }
        if (jv->len != want) {
            st = fail(rs, RELIC_E_RANGE, "expected %u numbers, not %u", want, jv->len);
            break;
        }
        size_t i = 0;
        for (const jnode *e = jv->u.first; e && st == RELIC_OK; e = e->next, i++) {
            push(rs, NULL, (int64_t)i);
            st = get_double(rs, e, 1, &dv, &bits, &is_bits);
            if (is_bits) {
                uint32_t u = (uint32_t)bits;
                memcpy(&f->v.vec[i], &u, 4);
            } else f->v.vec[i] = (float)dv;
            pop(rs);
        }
        break;
    }
    }
    pop(rs);
    return st;
}

static int key_cmp(const void *a, const void *b)
{
    const jnode *x = *(const jnode *const *)a, *y = *(const jnode *const *)b;
    size_t m = x->klen < y->klen ? x->klen : y->klen;
    int c = memcmp(x->key, y->key, m);
    return c ? c : (x->klen < y->klen ? -1 : x->klen > y->klen);
}


static relic_status read_struct(rstate *rs, const jnode *obj, relic_gff_tstruct **out, uint32_t depth)
{
    if (depth > RELIC_GFF_MAX_DEPTH) return fail(rs, RELIC_E_LIMIT, "structs nest deeper than %d", RELIC_GFF_MAX_DEPTH);
    if (!obj || obj->kind != J_OBJ) return fail(rs, RELIC_E_ARGUMENT, "a struct is a JSON object");
    relic_gff_tstruct *s = relic_arena_alloc(rs->a, sizeof *s, 8);
    if (!s || !(s->fields = relic_arena_array(rs->a, obj->len ? obj->len : 1, sizeof *s->fields, 8)))
        return fail(rs, RELIC_E_NOMEM, "arena exhausted");
    s->id = RELIC_GFF_NONE;
    s->field_count = 0;
    s->src_index = s->src_data = RELIC_GFF_NONE;
    relic_status st = RELIC_OK;
    int64_t iv;
    const jnode *sid = member(obj, "__struct_id"), *order = member(obj, "__field_order");
    if (sid) {
        push(rs, "__struct_id", -1);
        st = get_int(rs, sid, INT32_MIN, 0xFFFFFFFFu, &iv); /* nwn_gff: int32, -1 = none */
        pop(rs);
        if (st != RELIC_OK) return st;
        s->id = (uint32_t)iv;
    }
    if (!order) {
        for (const jnode *m = obj->u.first; m && st == RELIC_OK; m = m->next) {
            if (!is_field_key(m)) continue;
            push_n(rs, m->key, m->klen, -1);
            st = read_field(rs, m, &s->fields[s->field_count++], depth);
            pop(rs);
        }
        *out = s;
        return st;
    }
    /* the fields in the order "__field_order" gives: keys found through a sorted copy */
    size_t nfields = 0;
    for (const jnode *m = obj->u.first; m; m = m->next) nfields += is_field_key(m);
    const jnode **sorted = relic_arena_array(rs->a, nfields ? nfields : 1, sizeof *sorted, _Alignof(const jnode *));
    uint8_t *used = relic_arena_alloc(rs->a, nfields ? nfields : 1, 1);
    push(rs, "__field_order", -1);
    if (!sorted || !used) st = fail(rs, RELIC_E_NOMEM, "out of memory");
    else if (order->kind != J_ARR) st = fail(rs, RELIC_E_ARGUMENT, "expected an array of keys");
    else if (order->len != nfields) st = fail(rs, RELIC_E_ARGUMENT, "__field_order lists %u of the %zu fields", (unsigned)order->len, nfields);
    if (st == RELIC_OK) {
        size_t k = 0;
        for (const jnode *m = obj->u.first; m; m = m->next)
            if (is_field_key(m)) sorted[k++] = m;
        qsort(sorted, nfields, sizeof *sorted, key_cmp);
        for (size_t i = 1; i < nfields && st == RELIC_OK; i++)
            if (key_cmp(&sorted[i - 1], &sorted[i]) == 0)
                st = fail(rs, RELIC_E_ARGUMENT, "the key \"%.*s\" appears twice", sorted[i]->klen > 40 ? 40 : (int)sorted[i]->klen, sorted[i]->key);
        size_t i = 0;
        for (const jnode *e = order->u.first; e && st == RELIC_OK; e = e->next, i++) {
            jnode probe;
            const jnode *pp = &probe, **hit = NULL;
            if (e->kind == J_STR) {
                probe.key = e->u.s;
                probe.klen = e->len;
                hit = bsearch(&pp, sorted, nfields, sizeof *sorted, key_cmp);
            }
            if (!hit || used[hit - sorted]) {
                st = fail(rs, RELIC_E_ARGUMENT, "entry %zu does not name a field of the struct (or names it twice)", i);
                break;
            }
            used[hit - sorted] = 1;
            pop(rs);
            push_n(rs, (*hit)->key, (*hit)->klen, -1);
            st = read_field(rs, *hit, &s->fields[s->field_count++], depth);
            pop(rs);
            push(rs, "__field_order", -1);
        }
    }
    pop(rs);
    *out = s;
    return st;
}

/* The root's "__layout": a family's name, or an object of the family and
 * the order record's runs ({"family":"bioware","structs":[0,1,5,9,...]}:
 * (first, count) pairs per kind that differs from the family's order). */
static relic_status read_layout(rstate *rs, const jnode *je, relic_gff_tree *out)
{
    const jnode *name = je;
    relic_status st = RELIC_OK;
    push(rs, "__layout", -1);
    if (je->kind == J_OBJ) {
        relic_gff_order *o = relic_arena_alloc(rs->a, sizeof *o, 8);
        if (!o) st = fail(rs, RELIC_E_NOMEM, "out of memory");
        name = NULL;
        for (const jnode *m = je->u.first; m && st == RELIC_OK; m = m->next) {
            if (m->klen == 6 && memcmp(m->key, "family", 6) == 0) {
                name = m;
                continue;
            }
            int k = 0;
            while (k < RELIC_GFF_ORDER_KINDS && !(strlen(relic_gff_order_names[k]) == m->klen && memcmp(relic_gff_order_names[k], m->key, m->klen) == 0))
                k++;
            push_n(rs, m->key, m->klen, -1);
            if (k == RELIC_GFF_ORDER_KINDS)
                st = fail(rs, RELIC_E_ARGUMENT, "unknown member (family, structs, fields, labels, field_data, "
                                                "field_indices or list_indices)");
            else if (m->kind != J_ARR || m->len == 0 || m->len % 2)
                st = fail(rs, RELIC_E_ARGUMENT, "expected a non-empty array of (first, count) pairs");
            else if (o->nruns[k])
                st = fail(rs, RELIC_E_ARGUMENT, "given twice");
            uint32_t *r = st == RELIC_OK ? relic_arena_array(rs->a, m->len, 4, 4) : NULL;
            if (st == RELIC_OK && !r) st = fail(rs, RELIC_E_NOMEM, "out of memory");
            uint32_t i = 0;
            for (const jnode *e = m->u.first; e && st == RELIC_OK; e = e->next, i++) {
                int64_t v = 0;
                push(rs, NULL, i);
                st = get_int(rs, e, 0, UINT32_MAX, &v);
                r[i] = (uint32_t)v;
                pop(rs);
            }
            if (st == RELIC_OK) {
                o->runs[k] = r;
                o->nruns[k] = m->len / 2;
            }
            pop(rs);
        }
        if (st == RELIC_OK && !name) st = fail(rs, RELIC_E_ARGUMENT, "an object without its \"family\"");
        out->order = o;
    }
    if (st == RELIC_OK) {
        char lname[24], names[160];
        size_t k = 0;
        const relic_gff_family *fam = NULL;
        if (name != je) push(rs, "family", -1);
        if (name->kind != J_STR || !cstr(name, lname, sizeof lname) || !(fam = relic_gff_family_by_name(lname, strlen(lname)))) {
            names[0] = 0;
            for (size_t i = 0; i < relic_gff_family_count && k < sizeof names; i++)
                k += (size_t)snprintf(names + k, sizeof names - k, "%s%s", i ? ", " : "", relic_gff_families[i].name);
            st = fail(rs, RELIC_E_RANGE, "unknown layout family (%s)", names);
        } else {
            out->family = fam->layout;
        }
        if (name != je) pop(rs);
    }
    pop(rs);
    return st;
}

/* ---------------------------------------------------------------------- */
/* Reading straight from yajl's events                                    */
/* ---------------------------------------------------------------------- */

/* The common shape (what relic's printer and nwn_gff write: a field object
 * with "type" before "value" or "value64", "__struct_id" before the value,
 * "__encoding" before any text) is built into the tree as yajl reports it,
 * with no document in between. Anything else (a "__layout" object,
 * "__substring_order", a legacy "id" beside a locstring's value, keys in
 * another order, and every error) sets bail and stops yajl; the document
 * path above then reads the text again and decides, with its messages and
 * paths. The fields, list items and substrings of the open containers live
 * on stacks (arrays in the arena, grown by doubling), each copied to an
 * exact array when its container closes. */

enum { SF_STRUCT,
       SF_FIELD,
       SF_LIST,
       SF_LOC,
       SF_VEC,
       SF_ORDER };

typedef struct skey {
    const char *p;
    uint32_t n;
} skey;

typedef struct sframe {
    uint8_t kind;
    uint8_t got_type, got_value, has_sid, has_order, has_id;
    uint32_t base;  /* SF_STRUCT: its first field on the field stack; SF_LIST: first item; SF_LOC: first substring; SF_ORDER: first key */
    uint32_t field; /* SF_FIELD, SF_LIST, SF_LOC, SF_VEC: the field on the field stack */
    uint32_t depth; /* SF_STRUCT: nesting (root 0) */
    uint32_t order_base, order_n, vec_n;
    int64_t sid; /* SF_FIELD: its "__struct_id" */
    relic_gff_tstruct *s;
} sframe;

typedef struct sstate {
    rstate *rs;
    relic_arena *a;
    const char *text, *text_end;
    relic_gff_tree *out;
    int top; /* frames in use */
    sframe fr[JSON_MAX_DEPTH + 1];
    relic_gff_tfield *fst;
    skey *kst; /* each stacked field's JSON key */
    uint32_t fst_n, fst_cap;
    relic_gff_tstruct **ist;
    uint32_t ist_n, ist_cap;
    skey *ost;
    uint32_t ost_n, ost_cap;
    relic_gff_tsubstring *sst;
    uint32_t sst_n, sst_cap;
    const skey **sorted; /* close_struct's scratch for "__field_order" */
    uint8_t *used;
    uint32_t sort_cap;
    const char *key;
    uint32_t klen;
    int bail, text_seen, enc_auto, have_type;
} sstate;

#define BAIL(ss) ((ss)->bail = 1, 0)

/* Bytes yajl hands over, in place when they lie in the JSON text. */
static const char *keep_text(sstate *ss, const void *p, size_t n)
{
    const char *c = p;
    if (c >= ss->text && c <= ss->text_end && n <= (size_t)(ss->text_end - c)) return c;
    char *q = relic_arena_alloc(ss->a, n + 1, 1);
    if (q) {
        memcpy(q, p, n);
        q[n] = 0;
    }
    return q;
}

static int key_is(const sstate *ss, const char *k, uint32_t n) { return ss->klen == n && memcmp(ss->key, k, n) == 0; }

/* Room for one more element on a stack of *cap elements of size each. */
static int stack_room(sstate *ss, void **arr, uint32_t n, uint32_t *cap, size_t size)
{
    if (n < *cap) return 1;
    uint32_t nc = *cap ? *cap * 2 : 64;
    void *p = relic_arena_array(ss->a, nc, size, 8);
    if (!p) return 0;
    if (n) memcpy(p, *arr, (size_t)n * size);
    *arr = p;
    *cap = nc;
    return 1;
}

static int push_field(sstate *ss)
{
    uint32_t c1 = ss->fst_cap, c2 = ss->fst_cap;
    if (ss->fst_n == ss->fst_cap &&
        (!stack_room(ss, (void **)&ss->fst, ss->fst_n, &c1, sizeof *ss->fst) ||
         !stack_room(ss, (void **)&ss->kst, ss->fst_n, &c2, sizeof *ss->kst)))
        return 0;
    ss->fst_cap = c1;
    relic_gff_tfield *f = &ss->fst[ss->fst_n];
    *f = (relic_gff_tfield){0};
    ss->kst[ss->fst_n].p = ss->key;
    ss->kst[ss->fst_n].n = ss->klen;
    ss->fst_n++;
    return set_label(ss->rs, ss->key, ss->klen, f) == RELIC_OK;
}

static sframe *push_frame(sstate *ss, uint8_t kind)
{
    if (ss->top >= JSON_MAX_DEPTH) return NULL;
    sframe *fr = &ss->fr[ss->top++];
    memset(fr, 0, sizeof *fr);
    fr->kind = kind;
    return fr;
}

static int open_struct(sstate *ss, uint32_t depth, uint32_t id)
{
    if (depth > RELIC_GFF_MAX_DEPTH) return 0;
    relic_gff_tstruct *s = relic_arena_alloc(ss->a, sizeof *s, 8);
    sframe *fr = push_frame(ss, SF_STRUCT);
    if (!s || !fr) return 0;
    s->id = id;
    s->src_index = s->src_data = RELIC_GFF_NONE;
    fr->s = s;
    fr->base = ss->fst_n;
    fr->depth = depth;
    fr->order_base = ss->ost_n;
    return 1;
}

static int skey_cmp(const void *a, const void *b)
{
    const skey *x = *(const skey *const *)a, *y = *(const skey *const *)b;
    size_t m = x->n < y->n ? x->n : y->n;
    int c = memcmp(x->p, y->p, m);
    return c ? c : (x->n < y->n ? -1 : x->n > y->n);
}

/* The struct's fields from the stack into their exact array, in the order
 * "__field_order" gives when there is one. */
static int close_struct(sstate *ss, sframe *fr)
{
    relic_gff_tstruct *s = fr->s;
    uint32_t n = ss->fst_n - fr->base;
    s->fields = relic_arena_array(ss->a, n ? n : 1, sizeof *s->fields, 8);
    if (!s->fields) return 0;
    s->field_count = n;
    if (!fr->has_order) {
        if (n) memcpy(s->fields, ss->fst + fr->base, (size_t)n * sizeof *s->fields);
    } else {
        if (fr->order_n != n) return 0;
        if (n > ss->sort_cap) {
            /* one scratch pair for every struct, grown by doubling */
            uint32_t cap = ss->sort_cap ? ss->sort_cap : 64;
            while (cap < n) cap *= 2;
            ss->sorted = relic_arena_array(ss->a, cap, sizeof *ss->sorted, _Alignof(const skey *));
            ss->used = relic_arena_alloc(ss->a, cap, 1);
            if (!ss->sorted || !ss->used) return 0;
            ss->sort_cap = cap;
        }
        const skey **sorted = ss->sorted;
        uint8_t *used = ss->used;
        memset(used, 0, n);
        for (uint32_t i = 0; i < n; i++) sorted[i] = &ss->kst[fr->base + i];
        qsort(sorted, n, sizeof *sorted, skey_cmp);
        for (uint32_t i = 1; i < n; i++)
            if (skey_cmp(&sorted[i - 1], &sorted[i]) == 0) return 0;
        for (uint32_t i = 0; i < n; i++) {
            const skey *want = &ss->ost[fr->order_base + i], **hit = bsearch(&want, sorted, n, sizeof *sorted, skey_cmp);
            if (!hit || used[hit - sorted]) return 0;
            used[hit - sorted] = 1;
            s->fields[i] = ss->fst[*hit - ss->kst];
        }
    }
    ss->fst_n = fr->base;
    ss->ost_n = fr->order_base;
    return 1;
}

static int s_scalar(sstate *ss, uint32_t kind, const char *p, size_t n)
{
    if (ss->top == 0) return BAIL(ss);
    sframe *fr = &ss->fr[ss->top - 1];
    rstate *rs = ss->rs;
    jnode v;
    memset(&v, 0, sizeof v);
    v.kind = kind;
    v.u.s = p;
    v.len = (uint32_t)n;
    int64_t iv;
    switch (fr->kind) {
    case SF_FIELD: {
        relic_gff_tfield *f = &ss->fst[fr->field];
        relic_status st = RELIC_OK;
        if (key_is(ss, "type", 4)) {
            if (fr->got_type || set_type(rs, &v, f) != RELIC_OK) return BAIL(ss);
            fr->got_type = 1;
            return 1;
        }
        if (key_is(ss, "value", 5)) {
            if (!fr->got_type || fr->got_value) return BAIL(ss);
            if (f->type == RELIC_GFF_FIELD_TYPE_CEXOSTRING) ss->text_seen = 1;
            if (!read_scalar(rs, &v, f, &st) || st != RELIC_OK) return BAIL(ss);
            fr->got_value = 1;
            return 1;
        }
        if (key_is(ss, "value64", 7)) {
            /* VOID as base64 (what relic prints) */
            if (!fr->got_type || fr->got_value || f->type != RELIC_GFF_FIELD_TYPE_VOID ||
                get_base64(rs, &v, &f->v.bytes.p, &f->v.bytes.n) != RELIC_OK)
                return BAIL(ss);
            fr->got_value = 1;
            return 1;
        }
        if (key_is(ss, "__struct_id", 11)) {
            if (fr->has_sid || fr->got_value || get_int(rs, &v, INT32_MIN, 0xFFFFFFFFu, &fr->sid) != RELIC_OK) return BAIL(ss);
            fr->has_sid = 1;
            return 1;
        }
        return BAIL(ss);
    }
    case SF_STRUCT: {
        if (key_is(ss, "__struct_id", 11)) {
            if (get_int(rs, &v, INT32_MIN, 0xFFFFFFFFu, &iv) != RELIC_OK) return BAIL(ss);
            fr->s->id = (uint32_t)iv;
            return 1;
        }
        if (fr->depth != 0) return BAIL(ss);
        if (key_is(ss, "__data_type", 11)) {
            uint8_t *type;
            size_t tl;
            if (ss->have_type || get_text(rs, &v, TEXT_CP1252, &type, &tl) != RELIC_OK || tl != 4) return BAIL(ss);
            memcpy(ss->out->file_type, type, 4);
            ss->have_type = 1;
            return 1;
        }
        if (key_is(ss, "__encoding", 10)) {
            char ename[24];
            relic_gff_encoding e;
            if (!ss->enc_auto) return 1; /* the caller's choice wins */
            if (ss->text_seen || kind != J_STR || !cstr(&v, ename, sizeof ename) || !relic_gff_encoding_from_name(ename, &e) ||
                e == RELIC_GFF_ENC_AUTO)
                return BAIL(ss);
            rs->enc = e;
            return 1;
        }
        if (key_is(ss, "__layout", 8)) {
            char lname[24];
            const relic_gff_family *fam;
            if (kind != J_STR || !cstr(&v, lname, sizeof lname) || !(fam = relic_gff_family_by_name(lname, strlen(lname))))
                return BAIL(ss);
            ss->out->family = fam->layout;
            return 1;
        }
        return BAIL(ss);
    }
    case SF_LOC: {
        relic_gff_tfield *f = &ss->fst[fr->field];
        if (key_is(ss, "id", 2)) {
            if (fr->has_id || get_int(rs, &v, 0, 0xFFFFFFFFu, &iv) != RELIC_OK) return BAIL(ss);
            f->v.loc.strref = (uint32_t)iv;
            fr->has_id = 1;
            return 1;
        }
        uint64_t id = 0;
        for (uint32_t i = 0; i < ss->klen && id <= UINT32_MAX; i++)
            id = ss->key[i] >= '0' && ss->key[i] <= '9' ? id * 10 + (uint64_t)(ss->key[i] - '0') : UINT64_MAX;
        if (ss->klen == 0 || id > UINT32_MAX || ss->sst_n - fr->base >= 64) return BAIL(ss);
        if (!stack_room(ss, (void **)&ss->sst, ss->sst_n, &ss->sst_cap, sizeof *ss->sst)) return BAIL(ss);
        relic_gff_tsubstring *sub = &ss->sst[ss->sst_n];
        sub->string_id = (uint32_t)id;
        ss->text_seen = 1;
        if (get_text(rs, &v, TEXT_GAME, &sub->text, &sub->len) != RELIC_OK) return BAIL(ss);
        for (uint32_t i = fr->base; i < ss->sst_n; i++)
            if (ss->sst[i].string_id == sub->string_id) return BAIL(ss);
        ss->sst_n++;
        return 1;
    }
    case SF_VEC: {
        relic_gff_tfield *f = &ss->fst[fr->field];
        uint32_t want = f->type == RELIC_GFF_FIELD_TYPE_ORIENTATION ? 4 : 3;
        double dv = 0;
        uint64_t bits = 0;
        int is_bits;
        if (fr->vec_n >= want || get_double(rs, &v, 1, &dv, &bits, &is_bits) != RELIC_OK) return BAIL(ss);
        if (is_bits) {
            uint32_t u = (uint32_t)bits;
            memcpy(&f->v.vec[fr->vec_n], &u, 4);
        } else f->v.vec[fr->vec_n] = (float)dv;
        fr->vec_n++;
        return 1;
    }
    case SF_ORDER:
        if (kind != J_STR || !stack_room(ss, (void **)&ss->ost, ss->ost_n, &ss->ost_cap, sizeof *ss->ost)) return BAIL(ss);
        ss->ost[ss->ost_n].p = keep_text(ss, p, n);
        ss->ost[ss->ost_n].n = (uint32_t)n;
        if (!ss->ost[ss->ost_n].p) return BAIL(ss);
        ss->ost_n++;
        return 1;
    default: return BAIL(ss);
    }
}

static int s_null(void *ctx) { return s_scalar(ctx, J_NULL, "", 0); }
static int s_bool(void *ctx, int b) { return s_scalar(ctx, b ? J_TRUE : J_FALSE, "", 0); }
static int s_number(void *ctx, const char *p, size_t n) { return s_scalar(ctx, J_NUM, p, n); }
static int s_string(void *ctx, const unsigned char *p, size_t n) { return s_scalar(ctx, J_STR, (const char *)p, n); }

static int s_key(void *ctx, const unsigned char *p, size_t n)
{
    sstate *ss = ctx;
    if (!(ss->key = keep_text(ss, p, n))) return BAIL(ss);
    ss->klen = (uint32_t)n;
    return 1;
}

static int s_start_map(void *ctx)
{
    sstate *ss = ctx;
    if (ss->top == 0) return ss->out->root ? BAIL(ss) : open_struct(ss, 0, RELIC_GFF_NONE) ? 1
                                                                                           : BAIL(ss);
    sframe *fr = &ss->fr[ss->top - 1];
    if (fr->kind == SF_STRUCT) {
        /* a field object: its key is a field key */
        if (ss->klen >= 2 && ss->key[0] == '_' && ss->key[1] == '_' && !(ss->klen >= 5 && memcmp(ss->key, "__dup", 5) == 0))
            return BAIL(ss);
        if (!push_field(ss)) return BAIL(ss);
        sframe *ff = push_frame(ss, SF_FIELD);
        if (!ff) return BAIL(ss);
        ff->field = ss->fst_n - 1;
        return 1;
    }
    if (fr->kind == SF_LIST) return open_struct(ss, ss->fr[ss->top - 3].depth + 1, RELIC_GFF_NONE) ? 1 : BAIL(ss);
    if (fr->kind != SF_FIELD || !key_is(ss, "value", 5) || !fr->got_type || fr->got_value) return BAIL(ss);
    relic_gff_tfield *f = &ss->fst[fr->field];
    fr->got_value = 1;
    if (f->type == RELIC_GFF_FIELD_TYPE_STRUCT) {
        /* the field's "__struct_id" unless the struct says its own */
        uint32_t field = fr->field;
        if (!open_struct(ss, ss->fr[ss->top - 2].depth + 1, fr->has_sid ? (uint32_t)fr->sid : RELIC_GFF_NONE)) return BAIL(ss);
        ss->fst[field].v.child = ss->fr[ss->top - 1].s;
        return 1;
    }
    if (f->type != RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING) return BAIL(ss);
    uint32_t field = fr->field;
    sframe *lf = push_frame(ss, SF_LOC);
    if (!lf) return BAIL(ss);
    lf->field = field;
    lf->base = ss->sst_n;
    f->v.loc.strref = RELIC_GFF_NONE;
    return 1;
}

static int s_end_map(void *ctx)
{
    sstate *ss = ctx;
    sframe *fr = &ss->fr[ss->top - 1];
    if (fr->kind == SF_STRUCT) {
        relic_gff_tstruct *s = fr->s;
        if (!close_struct(ss, fr)) return BAIL(ss);
        ss->top--;
        if (ss->top == 0) {
            ss->out->root = s;
            return 1;
        }
        sframe *up = &ss->fr[ss->top - 1];
        if (up->kind == SF_LIST) {
            if (!stack_room(ss, (void **)&ss->ist, ss->ist_n, &ss->ist_cap, sizeof *ss->ist)) return BAIL(ss);
            ss->ist[ss->ist_n++] = s;
        }
        return 1;
    }
    if (fr->kind == SF_FIELD) {
        if (!fr->got_type || !fr->got_value) return BAIL(ss);
        ss->top--;
        return 1;
    }
    if (fr->kind == SF_LOC) {
        relic_gff_tfield *f = &ss->fst[fr->field];
        uint32_t n = ss->sst_n - fr->base;
        f->v.loc.s = relic_arena_array(ss->a, n ? n : 1, sizeof *f->v.loc.s, 8);
        if (!f->v.loc.s) return BAIL(ss);
        if (n) memcpy(f->v.loc.s, ss->sst + fr->base, (size_t)n * sizeof *f->v.loc.s);
        f->v.loc.count = n;
        ss->sst_n = fr->base;
        ss->top--;
        return 1;
    }
    return BAIL(ss);
}

static int s_start_array(void *ctx)
{
    sstate *ss = ctx;
    if (ss->top == 0) return BAIL(ss);
    sframe *fr = &ss->fr[ss->top - 1];
    if (fr->kind == SF_STRUCT) {
        if (!key_is(ss, "__field_order", 13) || fr->has_order) return BAIL(ss);
        fr->has_order = 1;
        sframe *of = push_frame(ss, SF_ORDER);
        if (!of) return BAIL(ss);
        of->base = ss->ost_n;
        return 1;
    }
    if (fr->kind != SF_FIELD || !key_is(ss, "value", 5) || !fr->got_type || fr->got_value) return BAIL(ss);
    uint32_t type = ss->fst[fr->field].type, field = fr->field;
    fr->got_value = 1;
    sframe *af;
    if (type == RELIC_GFF_FIELD_TYPE_LIST) {
        if (!(af = push_frame(ss, SF_LIST))) return BAIL(ss);
        af->base = ss->ist_n;
    } else if (type == RELIC_GFF_FIELD_TYPE_VECTOR || type == RELIC_GFF_FIELD_TYPE_ORIENTATION) {
        if (!(af = push_frame(ss, SF_VEC))) return BAIL(ss);
    } else {
        return BAIL(ss);
    }
    af->field = field;
    return 1;
}

static int s_end_array(void *ctx)
{
    sstate *ss = ctx;
    sframe *fr = &ss->fr[ss->top - 1];
    if (fr->kind == SF_LIST) {
        relic_gff_tfield *f = &ss->fst[fr->field];
        uint32_t n = ss->ist_n - fr->base;
        f->v.list.items = relic_arena_array(ss->a, n ? n : 1, sizeof *f->v.list.items, 8);
        if (!f->v.list.items) return BAIL(ss);
        if (n) memcpy(f->v.list.items, ss->ist + fr->base, (size_t)n * sizeof *f->v.list.items);
        f->v.list.count = n;
        ss->ist_n = fr->base;
    } else if (fr->kind == SF_VEC) {
        if (fr->vec_n != (ss->fst[fr->field].type == RELIC_GFF_FIELD_TYPE_ORIENTATION ? 4u : 3u)) return BAIL(ss);
    } else if (fr->kind == SF_ORDER) {
        ss->fr[ss->top - 2].order_n = ss->ost_n - fr->base;
    } else {
        return BAIL(ss);
    }
    ss->top--;
    return 1;
}

static const yajl_callbacks stream_callbacks = {
    s_null,
    s_bool,
    NULL,
    NULL,
    s_number,
    s_string,
    s_start_map,
    s_key,
    s_end_map,
    s_start_array,
    s_end_array,
};

/* 1 and the tree when the text has the common shape and no error (read
 * by relic_json_scan); 0 (the arena holds what was built) to leave it to
 * the document path, which reads with yajl and names any error. */
static int read_tree_stream(const char *text, size_t len, relic_gff_encoding enc, relic_arena *a, relic_gff_tree *out)
{
    relic_error scratch_err;
    sstate *ss = relic_arena_alloc(a, sizeof *ss, _Alignof(sstate));
    rstate *rs = relic_arena_alloc(a, sizeof *rs, _Alignof(rstate));
    if (!ss || !rs) return 0;
    memset(out, 0, sizeof *out);
    rs->a = a;
    rs->err = &scratch_err;
    rs->enc = enc == RELIC_GFF_ENC_AUTO ? RELIC_GFF_ENC_CP1252 : enc;
    ss->enc_auto = enc == RELIC_GFF_ENC_AUTO;
    ss->rs = rs;
    ss->a = a;
    ss->text = text;
    ss->text_end = text + len;
    ss->out = out;
    return relic_json_scan(text, len, &stream_callbacks, ss, a) && !ss->bail && out->root && ss->have_type;
}

/* Every byte comes from the caller's arena a: the document (kept there
 * until the caller releases it), yajl's own memory (relic_json_mem) and the
 * tree. */
static relic_status read_tree_dom(const char *text, size_t len, relic_gff_encoding enc, relic_arena *a,
                                  relic_gff_tree *out, relic_error *err)
{
    relic_json_mem mem;
    bstate *b = relic_arena_alloc(a, sizeof *b, _Alignof(bstate));
    rstate *rs = relic_arena_alloc(a, sizeof *rs, _Alignof(rstate));
    yajl_handle volatile h = NULL;
    relic_status st = RELIC_OK;
    memset(out, 0, sizeof *out);
    if (!b || !rs) return relic_fail(err, RELIC_E_NOMEM, 0, "", "out of memory");
    b->a = a;
    b->text = text;
    b->text_end = text + len;
    relic_json_mem_init(&mem, a);
    if (setjmp(mem.nomem)) /* yajl or the document ran out of arena */
        return relic_fail(err, RELIC_E_NOMEM, h ? yajl_get_bytes_consumed(h) : 0, "", "out of memory parsing JSON");
    h = yajl_alloc(&callbacks, &mem.funcs, b);
    {
        yajl_status ys = yajl_parse(h, (const unsigned char *)text, len);
        if (ys == yajl_status_ok) ys = yajl_complete_parse(h);
        if (ys != yajl_status_ok || !b->root) {
            size_t at = yajl_get_bytes_consumed(h);
            if (b->nomem) st = relic_fail(err, RELIC_E_NOMEM, at, "", "out of memory parsing JSON");
            else if (b->too_deep) st = relic_fail(err, RELIC_E_LIMIT, at, "", "JSON nested deeper than %d at byte %zu", JSON_MAX_DEPTH, at);
            else {
                unsigned char *msg = relic_json_mem_room(&mem, 256) ? yajl_get_error(h, 0, NULL, 0) : NULL;
                st = relic_fail(err, RELIC_E_SYNTAX, at, "", "invalid JSON at byte %zu: %s", at, msg ? (const char *)msg : "?");
            }
        }
    }
    rs->a = a;
    rs->err = err;
    rs->enc = enc;
    const jnode *root = b->root, *dt = NULL, *je;
    if (st == RELIC_OK && rs->enc == RELIC_GFF_ENC_AUTO) {
        /* what the printer recorded; windows-1252 when nothing */
        rs->enc = RELIC_GFF_ENC_CP1252;
        char ename[24];
        if (root->kind == J_OBJ && (je = member(root, "__encoding")) != NULL &&
            (je->kind != J_STR || !cstr(je, ename, sizeof ename) || !relic_gff_encoding_from_name(ename, &rs->enc) ||
             rs->enc == RELIC_GFF_ENC_AUTO))
            st = relic_fail(err, RELIC_E_RANGE, 0, "__encoding", "unknown text encoding (utf-8 or windows-1252)");
    }
    if (st == RELIC_OK && root->kind == J_OBJ && (je = member(root, "__layout")) != NULL)
        st = read_layout(rs, je, out);
    if (st == RELIC_OK) {
        uint8_t *type = NULL;
        size_t type_len = 0;
        if (root->kind != J_OBJ || !(dt = member(root, "__data_type")) ||
            get_text(rs, dt, TEXT_CP1252, &type, &type_len) != RELIC_OK || type_len != 4) {
            st = relic_fail(err, RELIC_E_ARGUMENT, 0, "__data_type",
                            "a GFF JSON document is an object with \"__data_type\" of 4 characters (\"UTC \")");
        } else {
            memcpy(out->file_type, type, 4);
            st = read_struct(rs, root, &out->root, 0);
        }
    }
    if (st == RELIC_OK && relic_gff_order_used(out->order)) {
        /* the order record against the tree: one trial write checks each kind is a permutation */
        relic_buf trial;
        relic_buf_init_arena(&trial, a, 0);
        st = relic_gff_write_tree(out, out->family, a, &trial, NULL, err);
    }
    return st;
}

relic_status relic_gff_json_read_tree(const char *text, size_t len, relic_gff_encoding enc, relic_arena *a,
                                      relic_gff_tree *out, relic_error *err)
{
    if (read_tree_stream(text, len, enc, a, out)) {
        relic_error_clear(err);
        return RELIC_OK;
    }
    return read_tree_dom(text, len, enc, a, out, err);
}
