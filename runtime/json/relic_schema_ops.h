/* relic_schema_ops.h — a schema format's generated entry points, type-erased
 * over its view and model, so that one copy of the load / validate / decode /
 * write / JSON steps serves every such format: the relic command's
 * (runtime/cli/schema_io.c) and the foreign-call ABI's (abi_json.c).
 * Internal to the JSON layer and the layers above it. MIT licence. */
#ifndef RELIC_SCHEMA_OPS_H
#define RELIC_SCHEMA_OPS_H

#include "relic.h"

typedef struct relic_schema_ops {
    const char *name; /* the format's short name: "bwm" */
    const char *what; /* the file in messages: "walkmesh", "bank" */
    size_t view_size; /* sizeof the view, sizeof the model, in bytes */
    size_t model_size;
    relic_status (*validate)(const uint8_t *data, size_t size, void *view, relic_error *err);
    relic_status (*decode)(const void *view, relic_arena *a, void *model, relic_error *err);
    /* the writer's layout pass when it has one (TRN), else NULL */
    relic_status (*layout)(void *model, relic_arena *a, relic_error *err);
    relic_status (*write)(const void *model, relic_buf *out, relic_error *err);
    relic_status (*json_print)(const void *model, relic_buf *out, relic_error *err);
    relic_status (*json_read)(const char *text, size_t size, relic_arena *a, void *model, relic_error *err);
    /* the same JSON as json_print of the decoded model, printed from the
     * validated view (no decode); NULL for a format that cannot */
    relic_status (*json_print_view)(const void *view, relic_buf *out, relic_error *err);
} relic_schema_ops;

/* The wrappers of format F (relic_F_validate, relic_F_decode, relic_F_write,
 * relic_F_json_print, relic_F_json_read) over its view type V and model
 * type M, and `static const relic_schema_ops F_schema` with layout L (NULL
 * or a function) naming the file WHAT. RELIC_SCHEMA_OPS_VIEW adds
 * relic_F_json_print_view, for the formats relic-gen writes one for. */
#define RELIC_SCHEMA_OPS_WITH(F, V, M, L, WHAT, PV)                                                      \
    static relic_status F##_validate_(const uint8_t *d, size_t n, void *v, relic_error *e)               \
    {                                                                                                    \
        return relic_##F##_validate(d, n, (V *)v, e);                                                    \
    }                                                                                                    \
    static relic_status F##_decode_(const void *v, relic_arena *a, void *m, relic_error *e)              \
    {                                                                                                    \
        return relic_##F##_decode((const V *)v, a, (M *)m, e);                                           \
    }                                                                                                    \
    static relic_status F##_write_(const void *m, relic_buf *o, relic_error *e)                          \
    {                                                                                                    \
        return relic_##F##_write((const M *)m, o, e);                                                    \
    }                                                                                                    \
    static relic_status F##_json_print_(const void *m, relic_buf *o, relic_error *e)                     \
    {                                                                                                    \
        return relic_##F##_json_print((const M *)m, o, e);                                               \
    }                                                                                                    \
    static relic_status F##_json_read_(const char *t, size_t n, relic_arena *a, void *m, relic_error *e) \
    {                                                                                                    \
        return relic_##F##_json_read(t, n, a, (M *)m, e);                                                \
    }                                                                                                    \
    static const relic_schema_ops F##_schema = {#F, WHAT, sizeof(V), sizeof(M), F##_validate_,           \
                                                F##_decode_, L, F##_write_, F##_json_print_,             \
                                                F##_json_read_, PV}
#define RELIC_SCHEMA_OPS(F, V, M, L, WHAT) RELIC_SCHEMA_OPS_WITH(F, V, M, L, WHAT, NULL)
#define RELIC_SCHEMA_OPS_VIEW(F, V, M, L, WHAT)                                           \
    static relic_status F##_json_print_view_(const void *v, relic_buf *o, relic_error *e) \
    {                                                                                     \
        return relic_##F##_json_print_view((const V *)v, o, e);                           \
    }                                                                                     \
    RELIC_SCHEMA_OPS_WITH(F, V, M, L, WHAT, F##_json_print_view_)

#endif
