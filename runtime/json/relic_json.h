/* relic_json.h — JSON reading support for the generated readers and the
 * hand-written ones: yajl's parse events build a document (relic_jv nodes)
 * in the caller's arena, walked with a JSON path kept for error messages.
 * yajl itself takes its memory from the same arena (relic_json_mem). Not
 * public. */
#ifndef RELIC_JSON_H
#define RELIC_JSON_H

#include <setjmp.h>
#include <yajl/yajl_common.h>

#include "relic.h"

/* ---------------------------------------------------------------------- */
/* yajl's allocator over an arena                                         */
/* ---------------------------------------------------------------------- */

/** yajl's allocator functions over arena (free is a no-op; realloc grows in
 *  place when the block is the arena's newest, else allocates and copies).
 *  yajl does not check its allocations, so an exhausted arena longjmps to
 *  nomem: the caller does `if (setjmp(m.nomem)) ...RELIC_E_NOMEM...` before
 *  the first yajl call (nothing to free: every byte lives in the arena). */
typedef struct relic_json_mem {
    relic_arena *arena;
    yajl_alloc_funcs funcs;
    jmp_buf nomem;
} relic_json_mem;
void relic_json_mem_init(relic_json_mem *m, relic_arena *a);
/** Arena memory for the JSON layer's own use: longjmps to m->nomem when the
 *  arena is exhausted (zero-filled, aligned to 8). */
void *relic_json_mem_alloc(relic_json_mem *m, size_t size);
/** 1 when the arena can still supply a block of n bytes to yajl (so a call
 *  that allocates a little, such as yajl_get_error, will not longjmp). */
int relic_json_mem_room(const relic_json_mem *m, size_t n);

/* ---------------------------------------------------------------------- */
/* The document                                                           */
/* ---------------------------------------------------------------------- */

typedef enum relic_jv_kind {
    RELIC_JV_NULL,
    RELIC_JV_FALSE,
    RELIC_JV_TRUE,
    RELIC_JV_NUMBER,
    RELIC_JV_STRING,
    RELIC_JV_ARRAY,
    RELIC_JV_OBJECT
} relic_jv_kind;

/** One JSON value. Strings hold yajl's UTF-8 (len bytes, not NUL-terminated:
 *  they point into the JSON text when it has no escapes); numbers hold their
 *  literal text, so 64-bit integers and float bits stay exact. Arrays and
 *  objects hold len items; an object item's key is its member name. */
typedef struct relic_jv relic_jv;
struct relic_jv {
    union {
        const char *s;    /* RELIC_JV_STRING, RELIC_JV_NUMBER */
        relic_jv **items; /* RELIC_JV_ARRAY, RELIC_JV_OBJECT (after parsing) */
        relic_jv *first;  /* while parsing: the first item */
    } u;
    relic_jv *next;  /* while parsing: the next item of the parent */
    const char *key; /* as an object member: its name (klen bytes) */
    uint32_t len, klen;
    uint32_t hint;  /* object: the item after the last one found */
    uint8_t kind;   /* relic_jv_kind */
    uint8_t is_int; /* number: no fraction, no exponent */
};

/** Member key of obj, or NULL (also when obj is not an object). Members are
 *  usually read in the order they were written, so the search starts after
 *  the last member found; with a repeated key, the one found is the first
 *  after that point. */
const relic_jv *relic_jv_get(const relic_jv *obj, const char *key);
/** Item i of an array, or NULL (out of range, or not an array). */
const relic_jv *relic_jv_at(const relic_jv *arr, size_t i);
static inline int relic_jv_is(const relic_jv *v, relic_jv_kind k) { return v && v->kind == k; }
/** 1 when v is a string equal to s. */
int relic_jv_str_eq(const relic_jv *v, const char *s);
/** v as compact JSON text (strings as UTF-8, numbers as written). */
void relic_jv_print(relic_buf *o, const relic_jv *v);

/* ---------------------------------------------------------------------- */
/* Reading with a path                                                    */
/* ---------------------------------------------------------------------- */

/** Reader state: arena for arrays, error out, the JSON path of the value
 *  being read ("faces[3].v[1]"). */
typedef struct relic_jr {
    relic_arena *arena;
    relic_error *err;
    char path[RELIC_ERROR_PATH_MAX];
    size_t plen;
} relic_jr;

/** Parse len bytes of JSON text into a document in arena a (yajl's memory
 *  too; the document may point into text, which must outlive it). Errors:
 *  RELIC_E_SYNTAX with the byte offset, RELIC_E_LIMIT (nesting deeper than
 *  512, a string over 4 GiB), RELIC_E_NOMEM when a runs out. */
relic_status relic_jr_parse(const char *text, size_t len, relic_arena *a, const relic_jv **out, relic_error *err);
/** doc must be an object; when it has a "format" member, it must equal name. */
relic_status relic_jr_check_format(relic_jr *r, const relic_jv *doc, const char *name);
/** Enter a member (name, index < 0) or an array element (name NULL, index). */
void relic_jr_push(relic_jr *r, const char *name, int64_t index);
void relic_jr_pop(relic_jr *r);
/** Fail with the current path. */
relic_status relic_jr_fail(relic_jr *r, relic_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/** Member key of obj into *out (NULL when absent and not required). */
relic_status relic_jr_member(relic_jr *r, const relic_jv *obj, const char *key, int required, const relic_jv **out);
/** An integer in [lo, hi] (hi as unsigned so u64 fits); the result is the
 *  value's bits as int64_t. */
relic_status relic_jr_int(relic_jr *r, const relic_jv *v, int64_t lo, uint64_t hi, int64_t *out);
/** An enum: a name known to from_name, or an integer in [lo, hi]. */
relic_status relic_jr_enum(relic_jr *r, const relic_jv *v, int (*from_name)(const char *, int64_t *),
                           int64_t lo, uint64_t hi, int64_t *out);
/** A number, or for exactness a string "0x…" of the IEEE bits (NaN payloads
 *  and signalling NaNs survive: bits are copied, never converted). */
relic_status relic_jr_f32(relic_jr *r, const relic_jv *v, float *out);
relic_status relic_jr_f64(relic_jr *r, const relic_jv *v, double *out);
/** A JSON array; its length into *n. */
relic_status relic_jr_array(relic_jr *r, const relic_jv *v, size_t *n);
/** A string of Latin-1 code points into n bytes, NUL-padded. */
relic_status relic_jr_fixed_string(relic_jr *r, const relic_jv *v, char *dst, size_t n);
/** A string of Latin-1 code points into an arena copy (NUL-terminated). */
relic_status relic_jr_string(relic_jr *r, const relic_jv *v, char **dst, size_t *n);
/** Hex digits into n bytes / into an arena copy. */
relic_status relic_jr_fixed_hex(relic_jr *r, const relic_jv *v, uint8_t *dst, size_t n);
relic_status relic_jr_hex(relic_jr *r, const relic_jv *v, uint8_t **dst, size_t *n);

/** Output: hex digits of n bytes as a JSON string. */
void relic_json_hex(relic_buf *o, const uint8_t *p, size_t n);

/** The scratch of a printer without an arena argument (relic_gff_json_print_doc,
 *  relic_gff_json_print_tree, relic_grf_json_print, ...): it comes from where
 *  out grows. An arena buffer: that arena. A heap buffer (relic_buf_init,
 *  relic_buf_init_sink): the heap the caller chose for out, through *heap,
 *  which the printer releases (relic_json_release_scratch). A buffer over
 *  caller memory (relic_buf_init_fixed) has nothing to take scratch from:
 *  NULL, and the printer refuses it (its _in twin takes an arena). */
static inline relic_arena *relic_json_out_scratch(relic_buf *out, relic_arena *heap)
{
    if (out->arena) return out->arena;
    if (out->fixed) return NULL;
    relic_arena_init_heap(heap, 0);
    return heap;
}
static inline void relic_json_release_scratch(relic_arena *scratch, relic_arena *heap)
{
    if (scratch == heap) relic_arena_release(heap);
}

#endif
