/* grf_sections_json.c — JSON both ways for each GROFF section kind: the
 * dispatch to that kind's generated printer and reader (schema/tres/grf_*.schema,
 * scn_*.schema) or to the hand-written value table (grf_valuetable_json.c),
 * and to the printers from the validated view (relic_<kind>_json_print_view).
 * The kinds themselves are told apart in formats/tres/grf_sections.c. */
#include <string.h>

#include "grf_geometry.h"
#include "grf_geometry_v11.h"
#include "grf_geometry_v13.h"
#include "grf_header.h"
#include "grf_mapping.h"
#include "grf_mapping_ref.h"
#include "grf_material.h"
#include "grf_material_v11.h"
#include "grf_mesh.h"
#include "grf_sections_json.h"
#include "grf_object.h"
#include "grf_region.h"
#include "grf_region_v11.h"
#include "relic_gen.h"
#include "relic_grf.h"
#include "scn_bmp.h"
#include "scn_header.h"
#include "scn_hierarchy.h"
#include "scn_instance.h"
#include "scn_instance44.h"
#include "scn_partitions.h"
#include "scn_partitions24.h"
#include "scn_text.h"

typedef struct json_ops {
    relic_status (*print)(const void *m, relic_buf *out, relic_error *err);
    relic_status (*read)(const char *t, size_t len, relic_arena *a, void **m, relic_error *err);
    relic_status (*read_value)(const relic_jv *doc, relic_arena *a, void **m, relic_error *err);
    relic_status (*view)(const uint8_t *p, size_t n, relic_arena *a, void **v, relic_error *err);
    relic_status (*print_view)(const void *v, relic_buf *out, relic_error *err);
} json_ops;

static void *alloc_model(relic_arena *a, size_t size)
{
    void *p = relic_arena_alloc(a, size, 8);
    if (p) memset(p, 0, size);
    return p;
}

/* Thunks from the generic signatures to a generated format's functions. */
#define KIND_JSON(F, MODEL)                                                                                             \
    static relic_status jp_##F(const void *m, relic_buf *o, relic_error *e) { return relic_##F##_json_print(m, o, e); } \
    static relic_status jr_##F(const char *t, size_t len, relic_arena *a, void **m, relic_error *e)                     \
    {                                                                                                                   \
        MODEL *x = alloc_model(a, sizeof *x);                                                                           \
        if (!x) return relic_fail(e, RELIC_E_NOMEM, 0, "", "out of memory");                                            \
        *m = x;                                                                                                         \
        return relic_##F##_json_read(t, len, a, x, e);                                                                  \
    }                                                                                                                   \
    static relic_status jrv_##F(const relic_jv *doc, relic_arena *a, void **m, relic_error *e)                          \
    {                                                                                                                   \
        MODEL *x = alloc_model(a, sizeof *x);                                                                           \
        if (!x) return relic_fail(e, RELIC_E_NOMEM, 0, "", "out of memory");                                            \
        *m = x;                                                                                                         \
        return relic_##F##_json_read_value(doc, a, x, e);                                                               \
    }
/* ... and from the validated view: validate into a view from the arena, print from it. */
#define KIND_VIEW(F)                                                                                 \
    static relic_status jv_##F(const uint8_t *p, size_t n, relic_arena *a, void **v, relic_error *e) \
    {                                                                                                \
        relic_##F##_view *x = relic_arena_alloc(a, sizeof *x, 16);                                   \
        if (!x) return relic_fail(e, RELIC_E_NOMEM, 0, "", "out of memory");                         \
        *v = x;                                                                                      \
        return relic_##F##_validate(p, n, x, e);                                                     \
    }                                                                                                \
    static relic_status jpv_##F(const void *v, relic_buf *o, relic_error *e) { return relic_##F##_json_print_view(v, o, e); }
#define KIND(F) KIND_JSON(F, relic_##F##_file) KIND_VIEW(F)

KIND(grf_header)
KIND(grf_region)
KIND(grf_region_v11)
KIND(grf_object)
KIND(grf_geometry)
KIND(grf_geometry_v13)
KIND(grf_geometry_v11)
KIND(grf_mesh)
KIND(grf_mapping)
KIND(grf_mapping_ref)
KIND(grf_material)
KIND(grf_material_v11)
KIND(scn_header)
KIND(scn_partitions)
KIND(scn_partitions24)
KIND(scn_hierarchy)
KIND(scn_instance)
KIND(scn_instance44)
KIND(scn_text)
KIND(scn_bmp)
KIND_JSON(grf_value_table, relic_grf_value_table)
static relic_status jv_grf_value_table(const uint8_t *p, size_t n, relic_arena *a, void **v, relic_error *e)
{
    relic_grf_vt_view *x = relic_arena_alloc(a, sizeof *x, 8);
    if (!x) return relic_fail(e, RELIC_E_NOMEM, 0, "", "out of memory");
    *v = x;
    return relic_grf_value_table_view(p, n, a, x, e);
}
static relic_status jpv_grf_value_table(const void *v, relic_buf *o, relic_error *e)
{
    return relic_grf_value_table_json_print_view(v, o, e);
}

#define OPS(F)                                   \
    {                                            \
        jp_##F, jr_##F, jrv_##F, jv_##F, jpv_##F \
    }
static const json_ops ops[RELIC_GRF_KIND_COUNT] = {
    [RELIC_GRF_HEADER] = OPS(grf_header),
    [RELIC_GRF_REGION] = OPS(grf_region),
    [RELIC_GRF_REGION_V11] = OPS(grf_region_v11),
    [RELIC_GRF_OBJECT] = OPS(grf_object),
    [RELIC_GRF_GEOMETRY] = OPS(grf_geometry),
    [RELIC_GRF_GEOMETRY_V13] = OPS(grf_geometry_v13),
    [RELIC_GRF_GEOMETRY_V11] = OPS(grf_geometry_v11),
    [RELIC_GRF_MESH] = OPS(grf_mesh),
    [RELIC_GRF_MAPPING] = OPS(grf_mapping),
    [RELIC_GRF_MAPPING_REF] = OPS(grf_mapping_ref),
    [RELIC_GRF_MATERIAL] = OPS(grf_material),
    [RELIC_GRF_MATERIAL_V11] = OPS(grf_material_v11),
    [RELIC_GRF_VALUE_TABLE] = OPS(grf_value_table),
    [RELIC_SCN_HEADER] = OPS(scn_header),
    [RELIC_SCN_PARTITIONS] = OPS(scn_partitions),
    [RELIC_SCN_PARTITIONS24] = OPS(scn_partitions24),
    [RELIC_SCN_HIERARCHY] = OPS(scn_hierarchy),
    [RELIC_SCN_INSTANCE] = OPS(scn_instance),
    [RELIC_SCN_INSTANCE44] = OPS(scn_instance44),
    [RELIC_SCN_TEXT] = OPS(scn_text),
    [RELIC_SCN_BMP] = OPS(scn_bmp),
};

relic_status relic_grf_section_json_print(relic_grf_kind k, const void *model, relic_buf *out, relic_error *err)
{
    if ((unsigned)k >= RELIC_GRF_KIND_COUNT || !ops[k].print)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "section kind %d has no JSON form", (int)k);
    return ops[k].print(model, out, err);
}

relic_status relic_grf_section_json_read(relic_grf_kind k, const char *text, size_t len, relic_arena *a, void **model,
                                         relic_error *err)
{
    *model = NULL;
    if ((unsigned)k >= RELIC_GRF_KIND_COUNT || !ops[k].read)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "section kind %d has no JSON form", (int)k);
    return ops[k].read(text, len, a, model, err);
}

relic_status relic_grf_section_json_read_value(relic_grf_kind k, const relic_jv *v, relic_arena *a, void **model,
                                               relic_error *err)
{
    *model = NULL;
    if ((unsigned)k >= RELIC_GRF_KIND_COUNT || !ops[k].read_value)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "section kind %d has no JSON form", (int)k);
    return ops[k].read_value(v, a, model, err);
}

relic_status relic_grf_section_view(relic_grf_kind k, const uint8_t *p, size_t n, relic_arena *a, void **view,
                                    relic_error *err)
{
    static const uint8_t no_bytes[1];
    *view = NULL;
    /* an empty section may come as (NULL, 0): the generated readers add offsets to p */
    if (!p && !n) p = no_bytes;
    /* the checks of relic_grf_section_decode (the schema's, then a whole layout), then the view */
    relic_status st = relic_grf_section_validate(k, p, n, err);
    if (st || k == RELIC_GRF_OPAQUE) return st;
    if ((unsigned)k >= RELIC_GRF_KIND_COUNT || !ops[k].view)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "section kind %d has no JSON form", (int)k);
    return ops[k].view(p, n, a, view, err);
}

relic_status relic_grf_section_json_print_view(relic_grf_kind k, const void *view, relic_buf *out, relic_error *err)
{
    if ((unsigned)k >= RELIC_GRF_KIND_COUNT || !ops[k].print_view)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "section kind %d has no JSON form", (int)k);
    return ops[k].print_view(view, out, err);
}
