/* relic_gen.h — support the generated code (generated/) relies on:
 * wrapping integer arithmetic for schema expressions (no undefined
 * behaviour whatever the file holds), error-path prefixing, and the JSON
 * number/string helpers shared by every generated printer. Not part of the
 * public API; include relic.h instead. */
#ifndef RELIC_GEN_H
#define RELIC_GEN_H

#include "relic.h"

#include <stdarg.h>

/* Generated per-struct helpers a given schema may not call (an element
 * struct with nothing to check, a codec target): not an error. */
#if defined(__GNUC__)
#define RELIC_GEN_UNUSED __attribute__((unused))
#define RELIC_GEN_ALWAYS_INLINE __attribute__((always_inline))
#define RELIC_GEN_NOINLINE __attribute__((noinline))
#else
#define RELIC_GEN_UNUSED
#define RELIC_GEN_ALWAYS_INLINE
#define RELIC_GEN_NOINLINE
#endif

/* The first line of a generated entry point: err, or a scratch error in its
 * frame when the caller passed NULL (every path below may then fill *err). */
#define RELIC_GEN_ERR_OR_SCRATCH(err) \
    relic_error err##_scratch_;       \
    if (!(err)) (err) = &err##_scratch_
/* The first line of a validator or writer: RELIC_GEN_ERR_OR_SCRATCH, then
 * the error cleared. */
#define RELIC_GEN_ERR_CLEARED(err) \
    RELIC_GEN_ERR_OR_SCRATCH(err); \
    relic_error_clear(err)

/* Schema expressions evaluate in int64 with wrap-around; division by zero
 * and out-of-range shifts give 0, so hostile values cannot trigger UB. */
static inline int64_t relic_gen_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t relic_gen_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static inline int64_t relic_gen_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
static inline int64_t relic_gen_div(int64_t a, int64_t b) { return (b == 0 || (b == -1 && a == INT64_MIN)) ? 0 : a / b; }
static inline int64_t relic_gen_mod(int64_t a, int64_t b) { return (b == 0 || b == -1) ? 0 : a % b; }
static inline int64_t relic_gen_shl(int64_t a, int64_t b) { return (b < 0 || b > 63) ? 0 : (int64_t)((uint64_t)a << b); }
static inline int64_t relic_gen_shr(int64_t a, int64_t b) { return (b < 0 || b > 63) ? 0 : (int64_t)((uint64_t)a >> b); }
static inline int64_t relic_gen_neg(int64_t a) { return (int64_t)(0 - (uint64_t)a); }

/* relic_fail with its arguments as a va_list (runtime/core/error.c). */
relic_status relic_vfail(relic_error *err, relic_status code, uint64_t offset, const char *path,
                         const char *fmt, va_list ap);

/* Prepend "name[index]." (index >= 0) or "name." to err->path. */
void relic_gen_path_prefix(relic_error *err, const char *name, int64_t index);

/* Byte size of count elements of elem bytes at pos, checked against size:
 * returns 0 (and fills err) when pos + count*elem overflows or passes size. */
int relic_gen_span_ok(uint64_t pos, uint64_t count, uint64_t elem, uint64_t size, uint64_t *bytes);

/* An array placed at offset `at` holding count * per elements of elem
 * bytes, checked against an input of size bytes: sets *pos, *n (elements)
 * and *bytes and returns RELIC_OK, else fails naming `name`:
 * RELIC_E_LAYOUT at cur (at outside the input), RELIC_E_RANGE (negative
 * count) or RELIC_E_TRUNCATED (the elements pass the end) at `at`. One call
 * instead of three inline checks in every generated validator. */
relic_status relic_gen_place(relic_error *err, uint64_t cur, int64_t at, int64_t count, uint64_t per,
                             uint64_t elem, uint64_t size, const char *name, uint64_t *pos, uint64_t *n,
                             uint64_t *bytes);

#ifdef RELIC_NO_ERRMSG
/* Without messages the three checks are smaller inline than a call. */
RELIC_GEN_ALWAYS_INLINE static inline relic_status relic_gen_place_inline(relic_error *err, uint64_t cur, int64_t at, int64_t count,
                                                                          uint64_t per, uint64_t elem, uint64_t size, uint64_t *pos,
                                                                          uint64_t *n, uint64_t *bytes)
{
    *pos = *n = *bytes = 0; /* set on every path: no maybe-uninitialized once inlined */
    if (at < 0 || (uint64_t)at > size) return relic_fail_code(err, RELIC_E_LAYOUT, cur);
    if (count < 0) return relic_fail_code(err, RELIC_E_RANGE, (uint64_t)at);
    *n = (uint64_t)count * per;
    if (!relic_gen_span_ok((uint64_t)at, *n, elem, size, bytes)) return relic_fail_code(err, RELIC_E_TRUNCATED, (uint64_t)at);
    *pos = (uint64_t)at;
    return RELIC_OK;
}
#define relic_gen_place(err, cur, at, count, per, elem, size, name, pos, n, bytes) \
    relic_gen_place_inline((err), (cur), (at), (count), (per), (elem), (size), (pos), (n), (bytes))
#endif

/* relic_fail with path "name[index]" (index >= 0) or "name". */
relic_status relic_gen_fail_at(relic_error *err, relic_status code, uint64_t offset, const char *name,
                               int64_t index, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* relic_gen_fail_at with the message "VALUE WHAT" (what: "fails check
 * it < header.face_count", "is not a known walkmesh_type"): one call with
 * no variable arguments at each of the generated checks. */
relic_status relic_gen_fail_check(relic_error *err, relic_status code, uint64_t offset, const char *name,
                                  int64_t index, int64_t value, const char *what);

#ifdef RELIC_NO_ERRMSG /* relic.h: keep the code and offset, drop path and text */
#define relic_gen_fail_check(err, code, offset, ...) relic_fail_code((err), (code), (offset))
#define relic_gen_path_prefix(err, name, index) ((void)(err))
#define relic_gen_fail_at(err, code, offset, ...) relic_fail_code((err), (code), (offset))
#endif

/* 1 when n bytes from pos lie inside an input of total bytes. */
static inline int relic_gen_room(uint64_t total, uint64_t pos, uint64_t n) { return pos <= total && total - pos >= n; }

/* Little-endian host: arrays whose C layout is their file layout (checked by
 * a _Static_assert in the generated .c) are copied with memcpy. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RELIC_GEN_LE 1
#else
#define RELIC_GEN_LE 0
#endif

/* RELIC_E_TRUNCATED at pos, path `path`: "what needs n bytes, R remain". */
relic_status relic_gen_short(relic_error *err, uint64_t pos, uint64_t total, const char *path, const char *what,
                             uint64_t n);

/* A counted array of count * per elements of elem bytes at pos (not placed
 * by an offset): sets *n (elements) and *bytes, else fails naming `name`:
 * RELIC_E_RANGE (negative count) or RELIC_E_TRUNCATED (past the end). */
relic_status relic_gen_span(relic_error *err, uint64_t pos, int64_t count, uint64_t per, uint64_t elem,
                            uint64_t size, const char *name, uint64_t *n, uint64_t *bytes);
/* relic_gen_span of the array at *cur, then past it: *at gets its start
 * (the old *cur), *n its element count, and *cur moves by its bytes. On an
 * error *cur is kept and *at, *n are 0. One call for each counted array a
 * generated reader meets in sequence; inline, so that the reader's cursor
 * stays in a register. */
static inline relic_status relic_gen_take(relic_error *err, uint64_t *cur, int64_t count, uint64_t per, uint64_t elem,
                                          uint64_t size, const char *name, uint64_t *at, uint64_t *n)
{
    uint64_t bytes;
    const relic_status st = relic_gen_span(err, *cur, count, per, elem, size, name, n, &bytes);
    *at = st == RELIC_OK ? *cur : 0;
    if (st == RELIC_OK) *cur += bytes;
    return st;
}

/* Decoding: room for n elements of size bytes in a; NULL when n is 0, and
 * NULL with err filled (RELIC_E_NOMEM at pos, naming name) when a is full. */
void *relic_gen_alloc(relic_arena *a, relic_error *err, uint64_t n, size_t size, size_t align, uint64_t pos,
                      const char *name);

/* Decoding: relic_gen_alloc, then on a little-endian host the n elements
 * copied from src (their file layout is their C layout); a big-endian host
 * fills them element by element after. */
void *relic_gen_copy(relic_arena *a, relic_error *err, const uint8_t *src, uint64_t n, size_t size, size_t align,
                     uint64_t pos, const char *name);
/* Decoding: n bytes from src as a NUL-terminated copy in a (counted strings
 * and byte arrays); NULL with err filled (RELIC_E_NOMEM) when a is full. */
void *relic_gen_dup(relic_arena *a, relic_error *err, const uint8_t *src, uint64_t n, uint64_t pos, const char *name);

#ifdef RELIC_NO_ERRMSG
#define relic_gen_short(err, pos, ...) relic_fail_code((err), RELIC_E_TRUNCATED, (pos))
#endif

/* Prefix err's path with name[index] (index >= 0) or name, and return st:
 * one line per nested call in the generated readers. */
static inline relic_status relic_gen_nest(relic_error *err, relic_status st, const char *name, int64_t index)
{
    (void)name;
    (void)index;
    relic_gen_path_prefix(err, name, index);
    return st;
}

/* Writers: value v of a derived field `name` of schema type `type` (u32 ...)
 * must be at most max, else RELIC_E_LIMIT "v does not fit type". */
relic_status relic_gen_fits(relic_error *err, uint64_t v, uint64_t max, const char *name, const char *type);
/* Writers: *field = v for an unsigned derived field `name` (u8 ... u64),
 * or RELIC_E_LIMIT as relic_gen_fits when v does not fit: one call per
 * derived field. */
#define RELIC_GEN_SETTER(T, CT, MAX)                                                                        \
    static inline relic_status relic_gen_set_##T(relic_error *err, CT *field, uint64_t v, const char *name) \
    {                                                                                                       \
        if (v > (MAX)) return relic_gen_fits(err, v, (MAX), name, #T);                                      \
        *field = (CT)v;                                                                                     \
        return RELIC_OK;                                                                                    \
    }
RELIC_GEN_SETTER(u8, uint8_t, UINT8_MAX)
RELIC_GEN_SETTER(u16, uint16_t, UINT16_MAX)
RELIC_GEN_SETTER(u32, uint32_t, UINT32_MAX)
#undef RELIC_GEN_SETTER
static inline relic_status relic_gen_set_u64(relic_error *err, uint64_t *field, uint64_t v, const char *name)
{
    (void)err;
    (void)name;
    *field = v;
    return RELIC_OK;
}

/* Writers: array `name` at pos holds count elements and the schema ties it to
 * `expr` (text, for the message) = value; RELIC_E_ARGUMENT when they differ. */
relic_status relic_gen_count(relic_error *err, uint64_t pos, const char *name, const char *expr, int64_t value,
                             size_t count);
/* Writers: where the n members placed with `at` go, after seq bytes of
 * sequential members. held[i] is the offset the model holds for member i
 * (RELIC_GEN_NOT_HELD when no field holds it), size[i] its byte size. When every
 * non-empty member has one, none overlaps another or the sequential part, the
 * model's layout is kept (a file is written back as it was; empty members go
 * to the end); else the members follow each other in order from seq. at[i]
 * gets each position, *end the output size. RELIC_E_LIMIT when it overflows. */
#define RELIC_GEN_NOT_HELD UINT64_MAX
relic_status relic_gen_layout(relic_error *err, uint64_t seq, size_t n, const uint64_t *held, const uint64_t *size,
                              uint64_t *at, uint64_t *end);

/* Writers: out grown by n bytes, their start; NULL with err filled when n
 * passes SIZE_MAX (RELIC_E_LIMIT) or out cannot grow (RELIC_E_NOMEM). */
uint8_t *relic_gen_extend(relic_buf *out, uint64_t n, relic_error *err);

/* One name of an enum or flags type, as the generated tables list them. */
typedef struct relic_gen_enum_item {
    int64_t value;
    const char *name;
} relic_gen_enum_item;
/* The name of value in the n items of t, NULL when none has it. */
const char *relic_gen_enum_name(const relic_gen_enum_item *t, size_t n, int64_t value);
/* The value of name in the n items of t into *value: 1, or 0 when no item has it. */
int relic_gen_enum_value(const relic_gen_enum_item *t, size_t n, const char *name, int64_t *value);

/* A schema format's entry points, type-erased over its view and model
 * types, so that one copy of the validate / decode / write steps serves
 * every format: the mutator's load and check (generated/<f>_mutate.c), the
 * relic command and the foreign-call ABI (relic_schema_ops.h). relic-gen
 * emits one per schema, `relic_<f>_ops`, at the end of generated/<f>.c. */
typedef struct relic_gen_ops {
    const char *name;                /* the format's short name: "bwm" */
    const char *const *extensions;   /* the schema's `extensions`, NULL-terminated */
    const relic_format_info *detect; /* name and magic in relic_detect's table; NULL without `detect` */
    size_t view_size, model_size;    /* sizeof relic_<f>_view, sizeof the root's model, in bytes */
    relic_status (*validate)(const uint8_t *data, size_t size, void *view, relic_error *err);
    relic_status (*decode)(const void *view, relic_arena *a, void *model, relic_error *err);
    /* the schema's `layout` pass (counts and offsets a hand-written routine
     * fills before writing: TRN's directory), else NULL */
    relic_status (*layout)(void *model, relic_arena *a, relic_error *err);
    relic_status (*write)(const void *model, relic_buf *out, relic_error *err);
} relic_gen_ops;

/* Validate size bytes of data as ops's format and decode them into a model
 * allocated from a (the view too): *model is set on success. Errors: those
 * of the format's validate and decode; RELIC_E_NOMEM when a is full. */
relic_status relic_gen_ops_load(const relic_gen_ops *ops, const uint8_t *data, size_t size, relic_arena *a, void **model,
                                relic_error *err);
/* Validate only, the view in scratch (RELIC_E_NOMEM when it is full or NULL). */
relic_status relic_gen_ops_check(const relic_gen_ops *ops, const uint8_t *data, size_t size, relic_arena *scratch,
                                 relic_error *err);
/* The shortest decimal text of v that strtof reads back to v (NUL-terminated
 * in out; returns its length). Finite values only. runtime/core/float_text.c. */
size_t relic_f32_shortest(float v, char out[48]);
/* The same text by the slow path alone (candidates in double arithmetic,
 * close calls confirmed with strtof): the reference the fast path is
 * checked against over every float (tests/bench/bench_float_text.c). */
size_t relic_f32_shortest_slow(float v, char out[48]);

/* JSON output helpers. */
void relic_json_f32(relic_buf *o, float v); /* shortest exact form; non-finite as "0x%08x" bits */
void relic_json_f64(relic_buf *o, double v);
void relic_json_string(relic_buf *o, const char *s, size_t n); /* bytes as Latin-1 code points, escaped */
void relic_json_indent(relic_buf *o, int depth);
void relic_json_u64(relic_buf *o, uint64_t v);
void relic_json_i64(relic_buf *o, int64_t v);
/* Append a string literal without strlen. */
#define RELIC_PUTS(o, lit) relic_buf_append((o), (lit), sizeof(lit) - 1)

#endif
