/* gff_json_flat.h — internal: relic_gff_json_to_gff's fast path alone
 * (gff_json_flat.c), so that tests can tell it from the tree path. */
#ifndef RELIC_GFF_JSON_FLAT_H
#define RELIC_GFF_JSON_FLAT_H

#include "relic_gff.h"

/* 1 and the GFF appended to out when the text has the common shape and
 * converts without error; 0 otherwise, out as it was (what was built
 * stays in a). */
int relic_gff_json_to_gff_flat(const char *text, size_t len, relic_gff_encoding enc, relic_arena *a, relic_buf *out);

#endif
