/* relic_abi.h — plain exported entry points for foreign callers (Python's
 * ctypes, other FFIs): no static inline accessors, no structs, only bytes,
 * format names and plain problem values. The Python package
 * (python/relic/) is the first user. Detection and checks are in librelic
 * (runtime/formats/abi.c); JSON and writing in librelic-json
 * (runtime/json/abi_json.c). */
#ifndef RELIC_ABI_H
#define RELIC_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One problem, as `relic check` prints it: code (a relic_status value;
 *  relic_status_name names it), byte offset in the input (for a TRX
 *  walkmesh rule: in the inflated ASWM), field path such as "faces[12].v[2]"
 *  ("" when none) and message. The strings live only during the call. */
typedef void (*relic_abi_problem_fn)(void *user, int code, uint64_t offset, const char *path, const char *message);

/** Output bytes handed to the caller (they live only during the call). */
typedef void (*relic_abi_sink_fn)(void *user, const uint8_t *data, size_t size);

/** The short name of the format of data (size bytes; name: a file name for
 *  its extension, or NULL): "bwm", "trn", "gff", ... as relic_detect finds
 *  it (magic first, then extension); NULL when unknown. */
const char *relic_abi_detect(const uint8_t *data, size_t size, const char *name);

/** Check data as format (a relic_abi_detect name) the way `relic check`
 *  does without --strict: the generated validator, then the format's table
 *  rules (BWM: the AABB, adjacency and perimeter rules; TRN/TRX: the
 *  container, each inflated ASWM walkmesh, terrain packets; GFF: the tree
 *  rules of relic_gff_open; CAU, ERF, GROFF, PID, TPA, WTD: the validator
 *  alone). Each problem goes to fn (NULL: counted only). Returns the number
 *  of problems (0: valid), or -1 for a format this entry point does not
 *  check. Scratch memory: a heap arena of at most 1 GiB, released before
 *  return. Source: the formats' documents as docs/references.md lists them. */
int relic_abi_check(const char *format, const uint8_t *data, size_t size, relic_abi_problem_fn fn, void *user);

/** The JSON form of data as `relic dump` prints it (formats "bwm", "trn",
 *  "cau", "pid", "tpa": the schema's JSON; "gff": nwn_gff's JSON, text as
 *  UTF-8 where NWN2's else cp1252), handed whole to sink. Returns 0, or the
 *  number of problems sent to fn (the input does not validate; or -1 for a
 *  format without this entry point). */
int relic_abi_to_json(const char *format, const uint8_t *data, size_t size, relic_abi_sink_fn sink, void *sink_user,
                      relic_abi_problem_fn fn, void *user);

/** The file of format made from JSON text (the form relic_abi_to_json
 *  gives) through the format's C writer: counts, offsets and sizes are
 *  recomputed (TRN's layout pass first), and the written bytes are
 *  validated again before they go to sink. Returns 0, the number of
 *  problems sent to fn (JSON that does not read; a file that does not
 *  validate), or -1 for a format without this entry point. */
int relic_abi_from_json(const char *format, const char *json, size_t size, relic_abi_sink_fn sink, void *sink_user,
                        relic_abi_problem_fn fn, void *user);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_ABI_H */
