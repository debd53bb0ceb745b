/* gff_json_flat.c — nwn_gff JSON (neverwinter.nim, gffjson.nim) straight to
 * GFF V3.2 bytes (relic_gff_json_to_gff), without the public tree.
 *
 * The events of json_scan.c's strict reader (in yajl's callback table)
 * build the flat model of gff_flat.h as the text streams: a 16-byte
 * record a field (the tree takes 56), each value encoded once into the bytes the file's field data will hold, labels
 * deduplicated as they come, a struct's fields put in "__field_order"'s
 * order when it closes. gff_write.c then lays the records out in the
 * family's order (and an order record's, when the root's "__layout" is an
 * object). Only the shape relic's printer and nwn_gff write is read here
 * ("type" before "value", "__struct_id" and "__substring_order" before
 * the value, "__encoding" before any text, no legacy locstring "id" beside
 * "value"); anything else, and every error, goes to
 * relic_gff_json_read_tree and relic_gff_write_tree, which give the same
 * bytes and say what is wrong, with path and offset. */
#include <math.h>
#include <stdlib.h>

#include "relic_json.h"

#include "gff_flat.h"
#include "gff_json_flat.h"
#include "gff_text.h"
#include "json_scan.h"
#include "relic_gff.h"

/* As gff_json.c: three JSON levels per struct level, and a few more. */
#define FLAT_MAX_DEPTH (3 * RELIC_GFF_MAX_DEPTH + 8)
/* Substrings a locstring may hold here (more: the slow path decides). */
#define FLAT_MAX_SUBSTRINGS 64
#define FLAT_NO_LABEL UINT32_MAX
/* "__dupN__" keys a struct with "__field_order" may hold here (matched by
 * their text, pairwise). */
#define FLAT_MAX_DUPS 64
/* The model's fields and encoded values live in blocks of at most this
 * many bytes (or one block of a larger run): nothing is copied to grow
 * them. A small text gets smaller blocks (a quarter of its size, at least
 * FLAT_MIN_BLOCK: about what its records and values take), since an arena
 * may zero what it hands out. */
#define FLAT_BLOCK ((size_t)1 << 20)
#define FLAT_MIN_BLOCK ((size_t)4096)

enum { F_STRUCT,
       F_FIELD,
       F_LIST,
       F_LOC,
       F_VEC,
       F_ORDER,
       F_SUBORDER,
       F_LAYOUT,
       F_RUNS };

/* A JSON key: a field's, or a "__field_order" entry's. dup: a "__dupN__"
 * key, matched by its text; the others by their label. */
typedef struct fkey {
    const char *p;
    uint32_t n, label, dup;
} fkey;

typedef struct fframe {
    uint8_t kind, got_type, got_value, has_sid, has_order, has_id, has_suborder;
    uint32_t sub_base, sub_n; /* F_FIELD: its "__substring_order" on the sub stack */
    uint32_t dups;            /* F_STRUCT: its "__dupN__" field keys */
    uint32_t base;            /* F_STRUCT: first field on the field stack; F_LIST: first item; F_LOC: first StringID; F_ORDER: first entry */
    uint32_t field;           /* F_FIELD, F_LIST, F_LOC, F_VEC: the field on the field stack */
    uint32_t depth;           /* F_STRUCT: nesting (root 0) */
    uint32_t sidx;            /* F_STRUCT: its index in structs */
    uint32_t order_base, order_n, vec_n;
    int64_t sid; /* F_FIELD: its "__struct_id" */
} fframe;

typedef struct fstate {
    relic_arena *a;
    const char *text, *text_end;
    relic_gff_encoding enc;
    int enc_auto, text_seen, have_type, bail, done;
    relic_gff_layout family;
    char file_type[4];
    const char *key;
    uint32_t klen;
    int top;
    fframe fr[FLAT_MAX_DEPTH + 1];
    /* stacks of the open containers */
    relic_gff_flat_field *fst;
    fkey *kst; /* each stacked field's key */
    uint32_t fst_n, fst_cap;
    uint32_t *ist, ist_n, ist_cap; /* list items (struct indices) */
    fkey *ost;                     /* "__field_order" entries */
    uint32_t ost_n, ost_cap;
    uint32_t *sst, sst_n, sst_cap;    /* StringIDs of the open locstring */
    uint32_t *sub, sub_n, sub_cap;    /* "__substring_order" entries */
    uint32_t *runs, runs_n, runs_cap; /* the "__layout" object's open run list */
    relic_gff_order *order;           /* the "__layout" object's record, NULL when none */
    int layout_seen, family_seen;
    uint8_t *scratch; /* a locstring's substrings while they are reordered */
    uint32_t scratch_cap;
    /* the model */
    relic_gff_flat_struct *structs;
    uint32_t ns, ns_cap;
    relic_gff_flat_field *fblock; /* the current block of fields */
    uint32_t fblock_used, fblock_cap, nf;
    size_t block;    /* bytes a block takes */
    uint8_t *dblock; /* the current block of encoded values */
    size_t dblock_used, dblock_cap, data_size;
    int data_failed;
    uint32_t *lists, lists_n, lists_cap; /* list records */
    char (*labels)[16];
    uint32_t nl, nl_cap;
    uint32_t *hash; /* label index + 1, 0 = empty */
    uint32_t hash_mask;
    uint32_t *stamp, *pos; /* per label: close_struct's matching of "__field_order" */
    uint32_t serial;
    const char *type_name[RELIC_GFF_FIELD_TYPE_VECTOR + 1];
    uint8_t type_pick[16][26]; /* by a type name's length and first letter: its type + 1 (no two share both) */
} fstate;

#define BAIL(fs) ((fs)->bail = 1, 0)

/* Room for one more element of size bytes on an array of *cap, grown by
 * doubling in the arena. */
static int room(fstate *fs, void **arr, uint32_t n, uint32_t *cap, size_t size)
{
    if (n < *cap) return 1;
    if (*cap > UINT32_MAX / 2) return 0;
    uint32_t nc = *cap ? *cap * 2 : 64;
    void *p = relic_arena_array(fs->a, nc, size, 8);
    if (!p) return 0;
    if (n) memcpy(p, *arr, (size_t)n * size);
    *arr = p;
    *cap = nc;
    return 1;
}

static int key_is(const fstate *fs, const char *k, uint32_t n) { return fs->klen == n && memcmp(fs->key, k, n) == 0; }

/* ---------------------------------------------------------------- labels */

/* The 16 NUL-padded windows-1252 bytes of a label (a "__dupN__" prefix
 * dropped: *dup set); 0 when it has no such form (as set_label refuses). */
static int label_bytes(const char *key, uint32_t klen, char out[16], int *dup)
{
    const char *label = key, *kend = key + klen;
    *dup = 0;
    if (klen >= 5 && memcmp(key, "__dup", 5) == 0) {
        const char *p = key + 5;
        while (p < kend && *p >= '0' && *p <= '9') p++;
        if (kend - p >= 2 && p[0] == '_' && p[1] == '_') {
            label = p + 2;
            *dup = 1;
        }
    }
    const size_t len = (size_t)(kend - label);
    size_t k = 0;
    memset(out, 0, 16);
    for (size_t i = 0; i < len;) {
        uint8_t c = (uint8_t)label[i];
        if (c && c < 0x80) {
            if (k == 16) return 0;
            out[k++] = (char)c;
            i++;
            continue;
        }
        uint32_t cp;
        const size_t l = relic_utf8_next((const uint8_t *)label + i, len - i, &cp);
        if (!l || cp == 0 || !relic_cp_to_cp1252(cp, &c) || k == 16) return 0;
        out[k++] = (char)c;
        i += l;
    }
    return 1;
}

static uint32_t no_label(fstate *fs)
{
    fs->bail = 1;
    return FLAT_NO_LABEL;
}

/* The index of a label, added when insert and new; FLAT_NO_LABEL when not
 * found (or out of memory: bail set). */
static uint32_t label_find(fstate *fs, const char key[16], int insert)
{
    uint64_t k0, k1;
    memcpy(&k0, key, 8);
    memcpy(&k1, key + 8, 8);
    for (uint32_t slot = (uint32_t)relic_gff_label_hash(key) & fs->hash_mask;; slot = (slot + 1) & fs->hash_mask) {
        const uint32_t e = fs->hash[slot];
        uint64_t l0, l1;
        if (e) {
            memcpy(&l0, fs->labels[e - 1], 8);
            memcpy(&l1, fs->labels[e - 1] + 8, 8);
            if (l0 == k0 && l1 == k1) return e - 1;
        }
        if (e) continue;
        if (!insert) return FLAT_NO_LABEL;
        uint32_t cap = fs->nl_cap;
        if (!room(fs, (void **)&fs->labels, fs->nl, &cap, 16)) return no_label(fs);
        if (cap != fs->nl_cap) {
            /* the per-label scratch follows the labels' capacity */
            uint32_t *stamp = relic_arena_array(fs->a, cap, 4, 4), *pos = relic_arena_array(fs->a, cap, 4, 4);
            if (!stamp || !pos) return no_label(fs);
            memset(stamp, 0, (size_t)cap * 4);
            if (fs->nl) memcpy(stamp, fs->stamp, (size_t)fs->nl * 4);
            fs->stamp = stamp;
            fs->pos = pos;
            fs->nl_cap = cap;
        }
        const uint32_t idx = fs->nl++;
        memcpy(fs->labels[idx], key, 16);
        fs->hash[slot] = idx + 1;
        if ((uint64_t)fs->nl * 2 > fs->hash_mask) {
            /* twice the slots when half are taken */
            const uint32_t size = (fs->hash_mask + 1) * 2;
            uint32_t *h = relic_arena_array(fs->a, size, 4, 4);
            if (!h) return no_label(fs);
            memset(h, 0, (size_t)size * 4);
            for (uint32_t i = 0; i < fs->nl; i++) {
                uint32_t s = (uint32_t)relic_gff_label_hash(fs->labels[i]) & (size - 1);
                while (h[s]) s = (s + 1) & (size - 1);
                h[s] = i + 1;
            }
            fs->hash = h;
            fs->hash_mask = size - 1;
        }
        return idx;
    }
}

/* ---------------------------------------------------------------- values */

/* A strict decimal integer in [lo, hi] (as gff_json.c's get_int accepts). */
static int flat_int(int kind, const char *p, size_t n, int64_t lo, uint64_t hi, int64_t *out)
{
    if (kind != RELIC_JV_NUMBER || n == 0) return 0;
    const char *e = p + n;
    const int neg = *p == '-';
    uint64_t m = 0;
    p += neg;
    if (p == e) return 0;
    for (; p < e; p++) {
        if (*p < '0' || *p > '9' || m > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) return 0;
        m = m * 10 + (uint64_t)(*p - '0');
    }
    if (neg ? (m > (uint64_t)0 - (uint64_t)lo || (lo >= 0 && m != 0)) : m > hi) return 0;
    *out = neg ? (int64_t)((uint64_t)0 - m) : (int64_t)m;
    return 1;
}

/* A float's or double's bits: a JSON number (strtod, then rounded to f32
 * for bits 32, as nwn_gff does), "0x" and the bits in hex, or nwn_gff's
 * "nan", "inf", "-inf". */
static int flat_real(int kind, const char *p, size_t n, int bits, uint64_t *out)
{
    char buf[512];
    double d;
    if (n >= sizeof buf) return 0;
    memcpy(buf, p, n);
    buf[n] = 0;
    if (kind == RELIC_JV_STRING) {
        if (strcmp(buf, "nan") == 0) d = NAN;
        else if (strcmp(buf, "inf") == 0) d = INFINITY;
        else if (strcmp(buf, "-inf") == 0) d = -INFINITY;
        else {
            if (n != 2 + (size_t)bits / 4 || buf[0] != '0' || (buf[1] | 0x20) != 'x') return 0;
            uint64_t u = 0;
            for (size_t i = 2; i < n; i++) {
                const int c = buf[i] | 0x20;
                const int dg = buf[i] >= '0' && buf[i] <= '9' ? buf[i] - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                                                                                    : -1;
                if (dg < 0) return 0;
                u = u << 4 | (uint64_t)dg;
            }
            *out = u;
            return 1;
        }
    } else if (kind == RELIC_JV_NUMBER) {
        d = strtod(buf, NULL);
    } else {
        return 0;
    }
    if (bits == 32) {
        const float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, 4);
        *out = u;
    } else {
        memcpy(out, &d, 8);
    }
    return 1;
}

enum { T_GAME,
       T_RAW,
       T_CP1252 };

/* JSON text (UTF-8, n bytes) as the file's bytes at dst (room for n):
 * their count, or SIZE_MAX when the text has no such form (the slow path
 * then says why). */
static size_t flat_text(const fstate *fs, const uint8_t *p, size_t n, int mode, uint8_t *dst)
{
    size_t i = 0;
    while (i < n && p[i] < 0x80) i++;
    if (i == n || mode == T_RAW) { /* ASCII, or bytes the reader has checked */
        memcpy(dst, p, n);
        return n;
    }
    if (mode == T_GAME && fs->enc == RELIC_GFF_ENC_UTF8) {
        /* a lone \uD800-\uDFFF escape leaves bytes that are not UTF-8 */
        while (i < n) {
            uint32_t cp;
            const size_t l = p[i] < 0x80 ? 1 : relic_utf8_next(p + i, n - i, &cp);
            if (!l) return SIZE_MAX;
            i += l;
        }
        memcpy(dst, p, n);
        return n;
    }
    size_t k = i;
    memcpy(dst, p, i);
    while (i < n) {
        if (p[i] < 0x80) {
            dst[k++] = p[i++];
            continue;
        }
        uint32_t cp;
        const size_t l = relic_utf8_next(p + i, n - i, &cp);
        if (!l || !relic_cp_to_cp1252(cp, &dst[k])) return SIZE_MAX;
        k++;
        i += l;
    }
    return k;
}

/* Room for n bytes of encoded values, contiguous; NULL when out of
 * memory. keep: bytes at the end of the current block that must stay
 * contiguous with them (a locstring's so far), moved along to a new
 * block. */
static uint8_t *data_room(fstate *fs, size_t n, size_t keep)
{
    if (fs->dblock_cap - fs->dblock_used >= n) return fs->dblock + fs->dblock_used;
    if (n > SIZE_MAX / 2 - keep) return NULL;
    const size_t cap = n + keep > fs->block ? n + keep : fs->block;
    uint8_t *b = relic_arena_alloc(fs->a, cap, 8);
    if (!b) {
        fs->data_failed = 1;
        return NULL;
    }
    if (keep) memcpy(b, fs->dblock + fs->dblock_used - keep, keep);
    fs->dblock = b;
    fs->dblock_used = keep;
    fs->dblock_cap = cap;
    return b + keep;
}

static void data_commit(fstate *fs, size_t n)
{
    fs->dblock_used += n;
    fs->data_size += n;
}

/* A text value appended to the field data after its length (a 4-byte
 * word, or a byte for a ResRef); its address, or NULL. keep: as
 * data_room's. */
static uint8_t *put_text(fstate *fs, int kind, const char *p, size_t n, int mode, int len_bytes, size_t keep)
{
    if (kind != RELIC_JV_STRING || n > UINT32_MAX - 4) return NULL;
    uint8_t *dst = data_room(fs, (size_t)len_bytes + n, keep);
    if (!dst) return NULL;
    const size_t k = flat_text(fs, (const uint8_t *)p, n, mode, dst + len_bytes);
    if (k == SIZE_MAX || (len_bytes == 1 && k > 255)) return NULL;
    if (len_bytes == 1) dst[0] = (uint8_t)k;
    else relic_store_u32le(dst, (uint32_t)k);
    data_commit(fs, (size_t)len_bytes + k);
    return dst;
}

static int b64_digit(int c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63
                                    : -1;
}

/* A VOID's "value64" (base64, as gff_json.c's get_base64 reads it)
 * appended after its length word; its address, or NULL. */
static uint8_t *put_base64(fstate *fs, int kind, const char *p, size_t n)
{
    if (kind != RELIC_JV_STRING || n > UINT32_MAX) return NULL;
    uint8_t *dst = data_room(fs, 4 + n / 4 * 3 + 3, 0);
    if (!dst) return NULL;
    size_t k = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n && p[i] != '='; i++) {
        if (p[i] == '\n' || p[i] == '\r') continue;
        const int d = b64_digit((unsigned char)p[i]);
        if (d < 0) return NULL;
        acc = (acc << 6) | (uint32_t)d;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            dst[4 + k++] = (uint8_t)(acc >> bits);
        }
    }
    relic_store_u32le(dst, (uint32_t)k);
    data_commit(fs, 4 + k);
    return dst;
}

/* n bytes of field data (fixed-size values): their address, or NULL.
 * keep: as data_room's. */
static uint8_t *put_fixed(fstate *fs, const void *p, size_t n, size_t keep)
{
    uint8_t *dst = data_room(fs, n, keep);
    if (!dst) return NULL;
    memcpy(dst, p, n);
    data_commit(fs, n);
    return dst;
}

/* The value of field f from one JSON scalar; 0 when it has none. */
static int scalar_value(fstate *fs, relic_gff_flat_field *f, int kind, const char *p, size_t n)
{
    int64_t iv;
    uint64_t bits;
    uint8_t *at, le[8];
    switch (f->type) {
    case RELIC_GFF_FIELD_TYPE_BYTE:
        if (!flat_int(kind, p, n, 0, 0xFF, &iv)) return 0;
        f->v = (uint64_t)iv;
        return 1;
    case RELIC_GFF_FIELD_TYPE_WORD:
        if (!flat_int(kind, p, n, 0, 0xFFFF, &iv)) return 0;
        f->v = (uint64_t)iv;
        return 1;
    case RELIC_GFF_FIELD_TYPE_DWORD:
        if (!flat_int(kind, p, n, 0, 0xFFFFFFFFu, &iv)) return 0;
        f->v = (uint64_t)iv;
        return 1;
    case RELIC_GFF_FIELD_TYPE_CHAR:
    case RELIC_GFF_FIELD_TYPE_SHORT:
    case RELIC_GFF_FIELD_TYPE_INT: {
        const int64_t lo = f->type == RELIC_GFF_FIELD_TYPE_CHAR ? INT8_MIN : f->type == RELIC_GFF_FIELD_TYPE_SHORT ? INT16_MIN
                                                                                                                   : INT32_MIN;
        if (!flat_int(kind, p, n, lo, (uint64_t)(-(lo + 1)), &iv)) return 0;
        f->v = (uint32_t)(int32_t)iv; /* sign-extended to 32 bits */
        return 1;
    }
    case RELIC_GFF_FIELD_TYPE_DWORD64:
    case RELIC_GFF_FIELD_TYPE_INT64:
        if (!flat_int(kind, p, n, f->type == RELIC_GFF_FIELD_TYPE_INT64 ? INT64_MIN : 0,
                      f->type == RELIC_GFF_FIELD_TYPE_INT64 ? INT64_MAX : UINT64_MAX, &iv))
            return 0;
        relic_store_u64le(le, (uint64_t)iv);
        at = put_fixed(fs, le, 8, 0);
        break;
    case RELIC_GFF_FIELD_TYPE_FLOAT:
        if (!flat_real(kind, p, n, 32, &bits)) return 0;
        f->v = bits;
        return 1;
    case RELIC_GFF_FIELD_TYPE_DOUBLE:
        if (!flat_real(kind, p, n, 64, &bits)) return 0;
        relic_store_u64le(le, bits);
        at = put_fixed(fs, le, 8, 0);
        break;
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING: at = put_text(fs, kind, p, n, T_GAME, 4, 0); break;
    case RELIC_GFF_FIELD_TYPE_RESREF: at = put_text(fs, kind, p, n, T_CP1252, 1, 0); break;
    case RELIC_GFF_FIELD_TYPE_VOID: at = put_text(fs, kind, p, n, T_RAW, 4, 0); break;
    default: return 0;
    }
    if (!at) return 0;
    f->v = (uintptr_t)at;
    return 1;
}

/* ------------------------------------------------------------- containers */

static fframe *push_frame(fstate *fs, uint8_t kind)
{
    if (fs->top >= FLAT_MAX_DEPTH) return NULL;
    fframe *fr = &fs->fr[fs->top++];
    memset(fr, 0, sizeof *fr);
    fr->kind = kind;
    return fr;
}

static int open_struct(fstate *fs, uint32_t depth, uint32_t id)
{
    if (depth > RELIC_GFF_MAX_DEPTH || !room(fs, (void **)&fs->structs, fs->ns, &fs->ns_cap, sizeof *fs->structs)) return 0;
    fframe *fr = push_frame(fs, F_STRUCT);
    if (!fr) return 0;
    fs->structs[fs->ns] = (relic_gff_flat_struct){id, 0, NULL};
    fr->sidx = fs->ns++;
    fr->base = fs->fst_n;
    fr->depth = depth;
    fr->order_base = fs->ost_n;
    return 1;
}

/* The struct's fields from the stack to the model, in "__field_order"'s
 * order when it has one (which must name each field once). */
static int close_struct(fstate *fs, fframe *fr)
{
    const uint32_t n = fs->fst_n - fr->base;
    relic_gff_flat_struct *s = &fs->structs[fr->sidx];
    const relic_gff_flat_field *src = fs->fst + fr->base;
    if (fs->fblock_cap - fs->fblock_used < n) {
        const uint32_t per = (uint32_t)(fs->block / sizeof *fs->fblock), cap = n > per ? n : per;
        if (UINT32_MAX - fs->nf < n || !(fs->fblock = relic_arena_array(fs->a, cap, sizeof *fs->fblock, 8))) return 0;
        fs->fblock_used = 0;
        fs->fblock_cap = cap;
    }
    relic_gff_flat_field *dst = fs->fblock + fs->fblock_used;
    s->fields = dst;
    s->count = n;
    if (!fr->has_order) {
        if (n) memcpy(dst, src, (size_t)n * sizeof *dst);
    } else {
        /* a plain key is found through its label (no label twice among
         * them), a "__dupN__" one by its text among the few such keys */
        const fkey *keys = fs->kst + fr->base, *order = fs->ost + fr->order_base;
        if (fr->order_n != n || fr->dups > FLAT_MAX_DUPS || ++fs->serial == 0) return 0;
        const uint32_t serial = fs->serial;
        for (uint32_t i = 0; i < n; i++) {
            const uint32_t l = keys[i].label;
            if (keys[i].dup) continue;
            if (fs->stamp[l] == serial) return 0;
            fs->stamp[l] = serial;
            fs->pos[l] = i;
        }
        uint64_t used_dups = 0; /* by their rank among the dup keys */
        for (uint32_t i = 0; i < n; i++) {
            const fkey *o = &order[i];
            uint32_t at = UINT32_MAX;
            if (!o->dup) {
                if (fs->stamp[o->label] != serial || fs->pos[o->label] == UINT32_MAX) return 0;
                at = fs->pos[o->label];
                fs->pos[o->label] = UINT32_MAX;
            } else {
                for (uint32_t k = 0, rank = 0; k < n && at == UINT32_MAX; k++) {
                    if (!keys[k].dup) continue;
                    if (keys[k].n == o->n && memcmp(keys[k].p, o->p, o->n) == 0) {
                        if (used_dups >> rank & 1) return 0;
                        used_dups |= (uint64_t)1 << rank;
                        at = k;
                    }
                    rank++;
                }
                if (at == UINT32_MAX) return 0;
            }
            dst[i] = src[at];
        }
    }
    fs->nf += n;
    fs->fblock_used += n;
    fs->fst_n = fr->base;
    fs->ost_n = fr->order_base;
    return 1;
}

/* ------------------------------------------------------------------ events */

static int set_key_slow(fstate *fs, fkey *k, const char *p, size_t n);

/* Key p (n bytes) as k: its label (added when new), whether it is a
 * "__dupN__" key, and its text (copied when the reader holds it: an escaped
 * key). 0 when it is neither a label nor a "__dupN__" label (another
 * "__" key: the slow path decides). */
static int set_key(fstate *fs, fkey *k, const char *p, size_t n)
{
    char label[16];
    if (n == 0 || n > 16 || p[0] == '_') return set_key_slow(fs, k, p, n);
    /* the common key: ASCII without NUL, its own label; checked a word at
     * a time, the padding set non-zero for the check, then cleared */
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    uint64_t w0, w1;
    memset(label, 1, sizeof label);
    memcpy(label, p, n);
    memcpy(&w0, label, 8);
    memcpy(&w1, label + 8, 8);
    if (((w0 | w1) & highs) || ((w0 - ones) & ~w0 & highs) || ((w1 - ones) & ~w1 & highs)) return set_key_slow(fs, k, p, n);
    memset(label + n, 0, sizeof label - n);
    if ((k->label = label_find(fs, label, 1)) == FLAT_NO_LABEL) return 0;
    k->dup = 0;
    k->n = (uint32_t)n;
    k->p = p;
    return 1;
}

/* set_key for keys that are not plain ASCII labels. */
static int set_key_slow(fstate *fs, fkey *k, const char *p, size_t n)
{
    char label[16];
    int dup;
    if (!label_bytes(p, (uint32_t)n, label, &dup) || (n >= 2 && p[0] == '_' && p[1] == '_' && !dup) ||
        (k->label = label_find(fs, label, 1)) == FLAT_NO_LABEL)
        return 0;
    k->dup = (uint32_t)dup;
    k->n = (uint32_t)n;
    k->p = p;
    if (dup && !(p >= fs->text && p <= fs->text_end && n <= (size_t)(fs->text_end - p))) {
        char *q = relic_arena_alloc(fs->a, n ? n : 1, 1);
        if (!q) return 0;
        memcpy(q, p, n);
        k->p = q;
    }
    return 1;
}

static int f_scalar(fstate *fs, int kind, const char *p, size_t n)
{
    if (fs->top == 0) return BAIL(fs);
    fframe *fr = &fs->fr[fs->top - 1];
    int64_t iv;
    switch (fr->kind) {
    case F_FIELD: {
        relic_gff_flat_field *f = &fs->fst[fr->field];
        if (key_is(fs, "type", 4)) {
            if (fr->got_type || kind != RELIC_JV_STRING || n == 0 || n >= 16 || p[0] < 'a' || p[0] > 'z') return BAIL(fs);
            const uint32_t t = (uint32_t)fs->type_pick[n][p[0] - 'a'] - 1;
            if (t > RELIC_GFF_FIELD_TYPE_VECTOR || memcmp(fs->type_name[t], p, n) != 0) return BAIL(fs);
            f->type = t;
            fr->got_type = 1;
            return 1;
        }
        if (key_is(fs, "value", 5)) {
            if (!fr->got_type || fr->got_value) return BAIL(fs);
            if (f->type == RELIC_GFF_FIELD_TYPE_CEXOSTRING) fs->text_seen = 1;
            if (!scalar_value(fs, f, kind, p, n)) return BAIL(fs);
            fr->got_value = 1;
            return 1;
        }
        if (key_is(fs, "value64", 7)) {
            uint8_t *at;
            if (!fr->got_type || fr->got_value || f->type != RELIC_GFF_FIELD_TYPE_VOID || !(at = put_base64(fs, kind, p, n)))
                return BAIL(fs);
            f->v = (uintptr_t)at;
            fr->got_value = 1;
            return 1;
        }
        if (key_is(fs, "__struct_id", 11)) {
            if (fr->has_sid || fr->got_value || !flat_int(kind, p, n, INT32_MIN, 0xFFFFFFFFu, &fr->sid)) return BAIL(fs);
            fr->has_sid = 1;
            return 1;
        }
        return BAIL(fs);
    }
    case F_STRUCT:
        if (key_is(fs, "__struct_id", 11)) {
            if (!flat_int(kind, p, n, INT32_MIN, 0xFFFFFFFFu, &iv)) return BAIL(fs);
            fs->structs[fr->sidx].id = (uint32_t)iv;
            return 1;
        }
        if (fr->depth != 0) return BAIL(fs);
        if (key_is(fs, "__data_type", 11)) {
            uint8_t type[4 * 4];
            if (fs->have_type || kind != RELIC_JV_STRING || n > sizeof type ||
                flat_text(fs, (const uint8_t *)p, n, T_CP1252, type) != 4)
                return BAIL(fs);
            memcpy(fs->file_type, type, 4);
            fs->have_type = 1;
            return 1;
        }
        if (key_is(fs, "__encoding", 10)) {
            char name[24];
            relic_gff_encoding e;
            if (!fs->enc_auto) return 1; /* the caller's choice wins */
            if (fs->text_seen || kind != RELIC_JV_STRING || n >= sizeof name) return BAIL(fs);
            memcpy(name, p, n);
            name[n] = 0;
            if (!relic_gff_encoding_from_name(name, &e) || e == RELIC_GFF_ENC_AUTO) return BAIL(fs);
            fs->enc = e;
            return 1;
        }
        if (key_is(fs, "__layout", 8)) {
            const relic_gff_family *fam;
            if (fs->layout_seen || kind != RELIC_JV_STRING || n >= 24 || !(fam = relic_gff_family_by_name(p, n))) return BAIL(fs);
            fs->family = fam->layout;
            fs->layout_seen = 1;
            return 1;
        }
        return BAIL(fs);
    case F_LOC: {
        relic_gff_flat_field *f = &fs->fst[fr->field];
        if (key_is(fs, "id", 2)) {
            if (fr->has_id || !flat_int(kind, p, n, 0, 0xFFFFFFFFu, &iv)) return BAIL(fs);
            relic_store_u32le((uint8_t *)(uintptr_t)f->v + 4, (uint32_t)iv);
            fr->has_id = 1;
            return 1;
        }
        uint64_t id = 0;
        for (uint32_t i = 0; i < fs->klen && id <= UINT32_MAX; i++)
            id = fs->key[i] >= '0' && fs->key[i] <= '9' ? id * 10 + (uint64_t)(fs->key[i] - '0') : UINT64_MAX;
        if (fs->klen == 0 || id > UINT32_MAX || fs->sst_n - fr->base >= FLAT_MAX_SUBSTRINGS) return BAIL(fs);
        for (uint32_t i = fr->base; i < fs->sst_n; i++)
            if (fs->sst[i] == (uint32_t)id) return BAIL(fs);
        if (!room(fs, (void **)&fs->sst, fs->sst_n, &fs->sst_cap, sizeof *fs->sst)) return BAIL(fs);
        fs->sst[fs->sst_n++] = (uint32_t)id;
        fs->text_seen = 1;
        /* StringID, then the text after its length word, both after the
         * locstring's bytes so far (moved along when a block fills) */
        uint8_t idb[4], *head = (uint8_t *)(uintptr_t)f->v, *at;
        relic_store_u32le(idb, (uint32_t)id);
        size_t sofar = (size_t)(fs->dblock + fs->dblock_used - head);
        if (!(at = put_fixed(fs, idb, 4, sofar))) return BAIL(fs);
        f->v = (uintptr_t)(at - sofar);
        sofar += 4;
        if (!(at = put_text(fs, kind, p, n, T_GAME, 4, sofar))) return BAIL(fs);
        f->v = (uintptr_t)(at - sofar);
        return 1;
    }
    case F_VEC: {
        relic_gff_flat_field *f = &fs->fst[fr->field];
        const uint32_t want = f->type == RELIC_GFF_FIELD_TYPE_ORIENTATION ? 4 : 3;
        uint64_t bits;
        if (fr->vec_n >= want || !flat_real(kind, p, n, 32, &bits)) return BAIL(fs);
        relic_store_u32le((uint8_t *)(uintptr_t)f->v + 4 * fr->vec_n, (uint32_t)bits);
        fr->vec_n++;
        return 1;
    }
    case F_LAYOUT: {
        const relic_gff_family *fam;
        if (!key_is(fs, "family", 6) || fs->family_seen || kind != RELIC_JV_STRING || n >= 24 ||
            !(fam = relic_gff_family_by_name(p, n)))
            return BAIL(fs);
        fs->family = fam->layout;
        fs->family_seen = 1;
        return 1;
    }
    case F_RUNS:
        if (!flat_int(kind, p, n, 0, UINT32_MAX, &iv) || !room(fs, (void **)&fs->runs, fs->runs_n, &fs->runs_cap, sizeof *fs->runs))
            return BAIL(fs);
        fs->runs[fs->runs_n++] = (uint32_t)iv;
        return 1;
    case F_SUBORDER:
        if (!flat_int(kind, p, n, 0, 0xFFFFFFFFu, &iv) || !room(fs, (void **)&fs->sub, fs->sub_n, &fs->sub_cap, sizeof *fs->sub))
            return BAIL(fs);
        fs->sub[fs->sub_n++] = (uint32_t)iv;
        return 1;
    case F_ORDER: {
        fkey *k;
        if (kind != RELIC_JV_STRING || n > UINT32_MAX || !room(fs, (void **)&fs->ost, fs->ost_n, &fs->ost_cap, sizeof *fs->ost) ||
            !(k = &fs->ost[fs->ost_n], set_key(fs, k, p, n)))
            return BAIL(fs);
        fs->ost_n++;
        return 1;
    }
    default: return BAIL(fs);
    }
}

static int f_null(void *ctx) { return f_scalar(ctx, RELIC_JV_NULL, "", 0); }
static int f_bool(void *ctx, int b) { return f_scalar(ctx, b ? RELIC_JV_TRUE : RELIC_JV_FALSE, "", 0); }
static int f_number(void *ctx, const char *p, size_t n) { return f_scalar(ctx, RELIC_JV_NUMBER, p, n); }
static int f_string(void *ctx, const unsigned char *p, size_t n) { return f_scalar(ctx, RELIC_JV_STRING, (const char *)p, n); }

static int f_key(void *ctx, const unsigned char *p, size_t n)
{
    fstate *fs = ctx;
    const char *c = (const char *)p;
    if (n > UINT32_MAX) return BAIL(fs);
    if (!(c >= fs->text && c <= fs->text_end && n <= (size_t)(fs->text_end - c))) {
        /* an escaped key lives in the reader's buffer: keep a copy */
        char *q = relic_arena_alloc(fs->a, n + 1, 1);
        if (!q) return BAIL(fs);
        memcpy(q, p, n);
        c = q;
    }
    fs->key = c;
    fs->klen = (uint32_t)n;
    return 1;
}

static int f_start_map(void *ctx)
{
    fstate *fs = ctx;
    if (fs->top == 0) return fs->ns || !open_struct(fs, 0, RELIC_GFF_NONE) ? BAIL(fs) : 1;
    fframe *fr = &fs->fr[fs->top - 1];
    if (fr->kind == F_STRUCT && fr->depth == 0 && key_is(fs, "__layout", 8)) {
        /* an order record: {"family": name, "<kind>": [first, count, ...], ...} */
        if (fs->layout_seen || !(fs->order = relic_arena_alloc(fs->a, sizeof *fs->order, 8)) || !push_frame(fs, F_LAYOUT))
            return BAIL(fs);
        memset(fs->order, 0, sizeof *fs->order);
        fs->layout_seen = 1;
        return 1;
    }
    if (fr->kind == F_STRUCT) {
        /* a field object, under its field key */
        if (fs->fst_n == fs->fst_cap) {
            uint32_t c1 = fs->fst_cap, c2 = fs->fst_cap;
            if (!room(fs, (void **)&fs->fst, fs->fst_n, &c1, sizeof *fs->fst) ||
                !room(fs, (void **)&fs->kst, fs->fst_n, &c2, sizeof *fs->kst))
                return BAIL(fs);
            fs->fst_cap = c1;
        }
        fkey *k = &fs->kst[fs->fst_n];
        if (!set_key(fs, k, fs->key, fs->klen)) return BAIL(fs);
        fr->dups += k->dup;
        fs->fst[fs->fst_n] = (relic_gff_flat_field){0, k->label, 0};
        fframe *ff = push_frame(fs, F_FIELD);
        if (!ff) return BAIL(fs);
        ff->field = fs->fst_n++;
        return 1;
    }
    if (fr->kind == F_LIST) return open_struct(fs, fs->fr[fs->top - 3].depth + 1, RELIC_GFF_NONE) ? 1 : BAIL(fs);
    if (fr->kind != F_FIELD || !key_is(fs, "value", 5) || !fr->got_type || fr->got_value) return BAIL(fs);
    const uint32_t field = fr->field;
    relic_gff_flat_field *f = &fs->fst[field];
    fr->got_value = 1;
    if (f->type == RELIC_GFF_FIELD_TYPE_STRUCT) {
        /* the field's "__struct_id" unless the struct says its own */
        if (!open_struct(fs, fs->fr[fs->top - 2].depth + 1, fr->has_sid ? (uint32_t)fr->sid : RELIC_GFF_NONE)) return BAIL(fs);
        fs->fst[field].v = fs->fr[fs->top - 1].sidx;
        return 1;
    }
    if (f->type != RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING) return BAIL(fs);
    /* size, StrRef (none until "id"), count: filled as it closes */
    const uint8_t head[12] = {0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
    uint8_t *at = put_fixed(fs, head, sizeof head, 0);
    fframe *lf = push_frame(fs, F_LOC);
    if (!at || !lf) return BAIL(fs);
    fs->fst[field].v = (uintptr_t)at;
    lf->field = field;
    lf->base = fs->sst_n;
    return 1;
}

/* A locstring's n substrings (StringID, length, text; size bytes from p,
 * in the JSON's order, ids[i] the StringID of the i-th) put in the order
 * "__substring_order" gives (order, norder entries): each StringID once. */
static int reorder_substrings(fstate *fs, uint8_t *p, size_t size, const uint32_t *ids, uint32_t n, const uint32_t *order,
                              uint32_t norder)
{
    size_t at[FLAT_MAX_SUBSTRINGS + 1];
    uint64_t used = 0;
    if (norder != n || n > FLAT_MAX_SUBSTRINGS) return 0;
    if (size > fs->scratch_cap) {
        if (size > UINT32_MAX || !(fs->scratch = relic_arena_alloc(fs->a, size, 8))) return 0;
        fs->scratch_cap = (uint32_t)size;
    }
    memcpy(fs->scratch, p, size);
    at[0] = 0;
    for (uint32_t i = 0; i < n; i++) at[i + 1] = at[i] + 8 + relic_load_u32le(fs->scratch + at[i] + 4);
    size_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = 0;
        while (j < n && ids[j] != order[i]) j++;
        if (j == n || (used >> j & 1)) return 0;
        used |= (uint64_t)1 << j;
        memcpy(p + k, fs->scratch + at[j], at[j + 1] - at[j]);
        k += at[j + 1] - at[j];
    }
    return 1;
}

static int f_end_map(void *ctx)
{
    fstate *fs = ctx;
    fframe *fr = &fs->fr[fs->top - 1];
    if (fr->kind == F_STRUCT) {
        const uint32_t sidx = fr->sidx;
        if (!close_struct(fs, fr)) return BAIL(fs);
        fs->top--;
        if (fs->top == 0) {
            fs->done = 1;
            return 1;
        }
        if (fs->fr[fs->top - 1].kind == F_LIST) {
            if (!room(fs, (void **)&fs->ist, fs->ist_n, &fs->ist_cap, sizeof *fs->ist)) return BAIL(fs);
            fs->ist[fs->ist_n++] = sidx;
        }
        return 1;
    }
    if (fr->kind == F_LAYOUT) {
        if (!fs->family_seen) return BAIL(fs);
        fs->top--;
        return 1;
    }
    if (fr->kind == F_FIELD) {
        if (!fr->got_type || !fr->got_value ||
            (fr->has_suborder && fs->fst[fr->field].type != RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING))
            return BAIL(fs);
        fs->sub_n = fr->has_suborder ? fr->sub_base : fs->sub_n;
        fs->top--;
        return 1;
    }
    if (fr->kind == F_LOC) {
        uint8_t *head = (uint8_t *)(uintptr_t)fs->fst[fr->field].v;
        const size_t size = (size_t)(fs->dblock + fs->dblock_used - head) - 4;
        if (size > UINT32_MAX - 4) return BAIL(fs);
        const fframe *ff = &fs->fr[fs->top - 2];
        if (ff->has_suborder && !reorder_substrings(fs, head + 12, size - 8, fs->sst + fr->base, fs->sst_n - fr->base, fs->sub + ff->sub_base, ff->sub_n))
            return BAIL(fs);
        relic_store_u32le(head, (uint32_t)size);
        relic_store_u32le(head + 8, fs->sst_n - fr->base);
        fs->sst_n = fr->base;
        fs->top--;
        return 1;
    }
    return BAIL(fs);
}

static int f_start_array(void *ctx)
{
    fstate *fs = ctx;
    if (fs->top == 0) return BAIL(fs);
    fframe *fr = &fs->fr[fs->top - 1];
    if (fr->kind == F_STRUCT) {
        if (!key_is(fs, "__field_order", 13) || fr->has_order) return BAIL(fs);
        fr->has_order = 1;
        fframe *of = push_frame(fs, F_ORDER);
        if (!of) return BAIL(fs);
        of->base = fs->ost_n;
        return 1;
    }
    if (fr->kind == F_LAYOUT) {
        /* a kind's runs, each kind once */
        uint32_t k = 0;
        while (k < RELIC_GFF_ORDER_KINDS && !(strlen(relic_gff_order_names[k]) == fs->klen && memcmp(relic_gff_order_names[k], fs->key, fs->klen) == 0))
            k++;
        if (k == RELIC_GFF_ORDER_KINDS || fs->order->nruns[k] || fs->order->runs[k]) return BAIL(fs);
        fframe *rf = push_frame(fs, F_RUNS);
        if (!rf) return BAIL(fs);
        rf->field = k;
        rf->base = fs->runs_n;
        fs->order->runs[k] = (const uint32_t *)fs->order; /* taken, until its numbers are in */
        return 1;
    }
    if (fr->kind == F_FIELD && key_is(fs, "__substring_order", 17)) {
        /* the substrings' order in the file, before the value */
        if (fr->got_value || fr->has_suborder) return BAIL(fs);
        fr->has_suborder = 1;
        fr->sub_base = fs->sub_n;
        fframe *sf = push_frame(fs, F_SUBORDER);
        if (!sf) return BAIL(fs);
        sf->base = fs->sub_n;
        return 1;
    }
    if (fr->kind != F_FIELD || !key_is(fs, "value", 5) || !fr->got_type || fr->got_value) return BAIL(fs);
    const uint32_t field = fr->field, type = fs->fst[field].type;
    fr->got_value = 1;
    fframe *af;
    if (type == RELIC_GFF_FIELD_TYPE_LIST) {
        if (!(af = push_frame(fs, F_LIST))) return BAIL(fs);
        af->base = fs->ist_n;
    } else if (type == RELIC_GFF_FIELD_TYPE_VECTOR || type == RELIC_GFF_FIELD_TYPE_ORIENTATION) {
        static const uint8_t zero[16];
        uint8_t *at = put_fixed(fs, zero, type == RELIC_GFF_FIELD_TYPE_ORIENTATION ? 16 : 12, 0);
        if (!at || !(af = push_frame(fs, F_VEC))) return BAIL(fs);
        fs->fst[field].v = (uintptr_t)at;
    } else {
        return BAIL(fs);
    }
    af->field = field;
    return 1;
}

static int f_end_array(void *ctx)
{
    fstate *fs = ctx;
    fframe *fr = &fs->fr[fs->top - 1];
    if (fr->kind == F_LIST) {
        /* the list's record: its count, then its structs */
        const uint32_t n = fs->ist_n - fr->base, at = fs->lists_n;
        if (n >= UINT32_MAX - at) return BAIL(fs);
        while (fs->lists_cap - fs->lists_n <= n)
            if (!room(fs, (void **)&fs->lists, fs->lists_cap, &fs->lists_cap, sizeof *fs->lists)) return BAIL(fs);
        fs->lists[at] = n;
        if (n) memcpy(fs->lists + at + 1, fs->ist + fr->base, (size_t)n * 4);
        fs->lists_n += 1 + n;
        fs->fst[fr->field].v = at;
        fs->ist_n = fr->base;
    } else if (fr->kind == F_VEC) {
        if (fr->vec_n != (fs->fst[fr->field].type == RELIC_GFF_FIELD_TYPE_ORIENTATION ? 4u : 3u)) return BAIL(fs);
    } else if (fr->kind == F_ORDER) {
        fs->fr[fs->top - 2].order_n = fs->ost_n - fr->base;
    } else if (fr->kind == F_RUNS) {
        const uint32_t count = fs->runs_n - fr->base;
        uint32_t *r;
        if (count == 0 || count % 2 || !(r = relic_arena_array(fs->a, count, 4, 4))) return BAIL(fs);
        memcpy(r, fs->runs + fr->base, (size_t)count * 4);
        fs->order->runs[fr->field] = r;
        fs->order->nruns[fr->field] = count / 2;
        fs->runs_n = fr->base;
    } else if (fr->kind == F_SUBORDER) {
        fs->fr[fs->top - 2].sub_n = fs->sub_n - fr->base;
    } else {
        return BAIL(fs);
    }
    fs->top--;
    return 1;
}

static const yajl_callbacks flat_callbacks = {
    f_null,
    f_bool,
    NULL,
    NULL,
    f_number,
    f_string,
    f_start_map,
    f_key,
    f_end_map,
    f_start_array,
    f_end_array,
};

int relic_gff_json_to_gff_flat(const char *text, size_t len, relic_gff_encoding enc, relic_arena *a, relic_buf *out)
{
    fstate *fs = relic_arena_alloc(a, sizeof *fs, _Alignof(fstate));
    const size_t start = out->size;
    if (!fs) return 0;
    memset(fs, 0, sizeof *fs);
    fs->a = a;
    fs->text = text;
    fs->text_end = text + len;
    fs->enc = enc == RELIC_GFF_ENC_AUTO ? RELIC_GFF_ENC_CP1252 : enc;
    fs->enc_auto = enc == RELIC_GFF_ENC_AUTO;
    fs->family = RELIC_GFF_LAYOUT_DEFAULT;
    fs->block = len / 4;
    if (fs->block > FLAT_BLOCK) fs->block = FLAT_BLOCK;
    if (fs->block < FLAT_MIN_BLOCK) fs->block = FLAT_MIN_BLOCK;
    for (uint32_t t = 0; t <= RELIC_GFF_FIELD_TYPE_VECTOR; t++) {
        fs->type_name[t] = relic_gff_type_name(t);
        fs->type_pick[strlen(fs->type_name[t]) & 15][(fs->type_name[t][0] - 'a') % 26] = (uint8_t)(t + 1);
    }
    /* every stack and the first block of fields exist from the start (no
     * arithmetic on NULL for an empty struct) */
    uint32_t c1 = 0, c2 = 0;
    if (!room(fs, (void **)&fs->fst, 0, &c1, sizeof *fs->fst) || !room(fs, (void **)&fs->kst, 0, &c2, sizeof *fs->kst) ||
        !room(fs, (void **)&fs->ist, 0, &fs->ist_cap, sizeof *fs->ist) || !room(fs, (void **)&fs->ost, 0, &fs->ost_cap, sizeof *fs->ost) ||
        !room(fs, (void **)&fs->sst, 0, &fs->sst_cap, sizeof *fs->sst) || !room(fs, (void **)&fs->sub, 0, &fs->sub_cap, sizeof *fs->sub) ||
        !room(fs, (void **)&fs->runs, 0, &fs->runs_cap, sizeof *fs->runs) ||
        !(fs->fblock = relic_arena_array(a, fs->block / sizeof *fs->fblock, sizeof *fs->fblock, 8)))
        return 0;
    fs->fst_cap = c1;
    fs->fblock_cap = (uint32_t)(fs->block / sizeof *fs->fblock);
    fs->hash_mask = 255;
    fs->hash = relic_arena_array(a, fs->hash_mask + 1, 4, 4);
    if (!fs->hash) return 0;
    memset(fs->hash, 0, (size_t)(fs->hash_mask + 1) * 4);
    if (!relic_json_scan(text, len, &flat_callbacks, fs, a) || fs->bail || !fs->done || !fs->have_type || fs->data_failed)
        return 0;
    relic_gff_flat m;
    memcpy(m.file_type, fs->file_type, 4);
    m.structs = fs->structs;
    m.labels = (const char(*)[16])fs->labels;
    m.lists = fs->lists;
    m.struct_count = fs->ns;
    m.field_count = fs->nf;
    m.label_count = fs->nl;
    m.data_size = fs->data_size;
    m.order = fs->order;
    m.list_words = fs->lists_n;
    relic_error scratch_err;
    if (relic_gff_write_flat(&m, fs->family, a, out, &scratch_err) != RELIC_OK) {
        out->size = start;
        out->failed = 0;
        return 0;
    }
    return 1;
}

relic_status relic_gff_json_to_gff(const char *text, size_t len, relic_gff_encoding enc, relic_arena *a, relic_buf *out,
                                   relic_error *err)
{
    relic_gff_tree t;
    relic_status st;
    if (relic_gff_json_to_gff_flat(text, len, enc, a, out)) {
        relic_error_clear(err);
        return RELIC_OK;
    }
    /* the tree's path decides, and names what is wrong */
    if ((st = relic_gff_json_read_tree(text, len, enc, a, &t, err)) != RELIC_OK) return st;
    return relic_gff_write_tree(&t, t.family, a, out, NULL, err);
}
