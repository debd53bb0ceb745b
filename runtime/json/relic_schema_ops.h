/* relic_schema_ops.h — a schema format's descriptor for the relic command
 * (runtime/cli/formats.c, schema_io.c) and the foreign-call ABI (abi_json.c):
 * its generated entry points, type-erased over its view and model, so that one
 * copy of the load / validate / decode / write / JSON steps serves every such
 * format. relic-gen emits one per detected format, relic_<f>_schema_ops, at
 * the end of generated/<family>/<f>_json.c. Internal to the JSON layer and the
 * layers above it. MIT licence. */
#ifndef RELIC_SCHEMA_OPS_H
#define RELIC_SCHEMA_OPS_H

#include "relic.h"
#include "relic_gen.h"

typedef struct relic_schema_ops {
    /* name, extensions, detection, view and model sizes, validate, decode,
     * layout (NULL but for TRN), write: generated/<f>.c */
    const relic_gen_ops *gen;
    relic_status (*json_print)(const void *model, relic_buf *out, relic_error *err);
    relic_status (*json_read)(const char *text, size_t size, relic_arena *a, void *model, relic_error *err);
    /* the same JSON as json_print of the decoded model, printed from the
     * validated view (no decode); NULL for a format that cannot */
    relic_status (*json_print_view)(const void *view, relic_buf *out, relic_error *err);
} relic_schema_ops;

#endif
