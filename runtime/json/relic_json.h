/* relic_json.h — JSON reading support for the generated readers: json-c
 * documents walked with a JSON path kept for error messages. Not public. */
#ifndef RELIC_JSON_H
#define RELIC_JSON_H

#include <json-c/json.h>

#include "relic.h"

/** Reader state: arena for arrays, error out, the JSON path of the value
 *  being read ("faces[3].v[1]"). */
typedef struct relic_jr {
    relic_arena *arena;
    relic_error *err;
    char path[RELIC_ERROR_PATH_MAX];
    size_t plen;
} relic_jr;

/** Parse len bytes of JSON text. Errors: RELIC_E_SYNTAX with the byte offset. */
relic_status relic_jr_parse(const char *text, size_t len, json_object **out, relic_error *err);
/** When doc has a "format" member, it must equal name. */
relic_status relic_jr_check_format(relic_jr *r, json_object *doc, const char *name);
/** Enter a member (name, index < 0) or an array element (name NULL, index). */
void relic_jr_push(relic_jr *r, const char *name, int64_t index);
void relic_jr_pop(relic_jr *r);
/** Fail with the current path. */
relic_status relic_jr_fail(relic_jr *r, relic_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/** Member key of obj into *out (NULL when absent and not required). */
relic_status relic_jr_member(relic_jr *r, json_object *obj, const char *key, int required, json_object **out);
/** An integer in [lo, hi] (hi as unsigned so u64 fits); the result is the
 *  value's bits as int64_t. */
relic_status relic_jr_int(relic_jr *r, json_object *v, int64_t lo, uint64_t hi, int64_t *out);
/** An enum: a name known to from_name, or an integer in [lo, hi]. */
relic_status relic_jr_enum(relic_jr *r, json_object *v, int (*from_name)(const char *, int64_t *),
                           int64_t lo, uint64_t hi, int64_t *out);
/** A number, or for exactness a string "0x…" of the IEEE bits (NaN payloads
 *  and signalling NaNs survive: bits are copied, never converted). */
relic_status relic_jr_f32(relic_jr *r, json_object *v, float *out);
relic_status relic_jr_f64(relic_jr *r, json_object *v, double *out);
/** A JSON array; its length into *n. */
relic_status relic_jr_array(relic_jr *r, json_object *v, size_t *n);
/** A string of Latin-1 code points into n bytes, NUL-padded. */
relic_status relic_jr_fixed_string(relic_jr *r, json_object *v, char *dst, size_t n);
/** A string of Latin-1 code points into an arena copy. */
relic_status relic_jr_string(relic_jr *r, json_object *v, char **dst, size_t *n);
/** Hex digits into n bytes / into an arena copy. */
relic_status relic_jr_fixed_hex(relic_jr *r, json_object *v, uint8_t *dst, size_t n);
relic_status relic_jr_hex(relic_jr *r, json_object *v, uint8_t **dst, size_t *n);

/** Output: hex digits of n bytes as a JSON string. */
void relic_json_hex(relic_buf *o, const uint8_t *p, size_t n);

#endif
