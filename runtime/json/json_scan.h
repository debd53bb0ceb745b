/* json_scan.h — internal: a strict JSON reader over a whole text in
 * memory, reporting yajl's events (json_scan.c). The GFF fast path
 * (gff_json_flat.c) reads with it; every other reader, and every error
 * message, stays yajl's. */
#ifndef RELIC_JSON_SCAN_H
#define RELIC_JSON_SCAN_H

#include <stddef.h>
#include <yajl/yajl_parse.h>

#include "relic.h"

/* Containers nested deeper than this are left to yajl (the scan says 0). */
#define RELIC_JSON_SCAN_MAX_DEPTH 1024

/* Read text[0 .. len) as one JSON value (RFC 8259, "The JavaScript Object
 * Notation (JSON) Data Interchange Format"), calling cb's events with ctx
 * in text order, as yajl_parse with yajl's default options would: a
 * number as its text (cb->yajl_number; yajl_integer and yajl_double are
 * never called), a string or key without escapes as a pointer into text,
 * an escaped one decoded into a buffer from a that the next string may
 * reuse; a NULL callback skips its event.
 *
 * Returns 1 when the whole text is one value and every callback said 1.
 * Returns 0, at the first point it knows, when the text is not JSON, a
 * callback said 0, the buffer could not grow in a, or the text uses a
 * form this reader leaves to yajl rather than copy yajl's own reading of
 * it: whitespace other than space, tab, LF and CR; UTF-8 that is not
 * well-formed by RFC 3629 (yajl takes overlong and surrogate forms); a
 * \u escape of a UTF-16 surrogate; nesting past RELIC_JSON_SCAN_MAX_DEPTH.
 * So what it accepts, yajl accepts with the same events; a caller that
 * gets 0 after events were reported starts again with yajl. Never reads
 * outside text. */
int relic_json_scan(const char *text, size_t len, const yajl_callbacks *cb, void *ctx, relic_arena *a);

#endif
