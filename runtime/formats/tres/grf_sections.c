/* grf_sections.c — which kind each GROFF section is, and the dispatch of
 * validate / decode / write to that kind's generated code (one schema
 * per section kind and GROFF version: schema/tres/grf_*.schema,
 * scn_*.schema) or to the hand-written value table (grf_valuetable.c).
 * Kinds: content flags (Trespasser source, Lib/Groff/Groff.hpp), the GRF .header version
 * (Trespasser source, Lib/Groff/GroffIO.cpp: 11..15, bit 31 = optimised), section names of SCN/savegames (Trespasser source, Lib/Loader/SaveFile.cpp,
 * Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp); Trespasser file formats, "GRF", "SCN/Savegame". */
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
#include "grf_object.h"
#include "grf_region.h"
#include "grf_region_v11.h"
#include "relic_gen.h"
#include "relic_grf.h"
#include "relic_tres_names.h"
#include "scn_bmp.h"
#include "scn_header.h"
#include "scn_hierarchy.h"
#include "scn_instance.h"
#include "scn_instance44.h"
#include "scn_partitions.h"
#include "scn_partitions24.h"
#include "scn_text.h"

/* Trespasser source, Lib/Groff/GroffIO.cpp: .header version bits */
#define VERSION_MASK 0x7FFFFFFFu
#define VERSION_OPTIMISED 0x80000000u
/* first version with 44-byte region records, wrap vertices, pivots, flat colours (Trespasser source, Lib/Groff/GroffIO.cpp) */
#define VERSION_REGION_HANDLES 12u
#define VERSION_WRAP 13u
#define VERSION_PIVOT 14u
#define VERSION_FLAT_COLOURS 15u

typedef struct kind_ops {
    const char *name;
    relic_status (*validate)(const uint8_t *p, size_t n, relic_error *err);
    relic_status (*decode)(const uint8_t *p, size_t n, relic_arena *a, void **m, relic_error *err);
    relic_status (*write)(const void *m, relic_buf *out, relic_error *err);
    /* a root ending in `T x[..]` of fixed-size T: bytes before it and T's size
     * (the generated validator takes as many whole elements as fit and
     * ignores a partial one, which would not round-trip: rejected here) */
    size_t tail_head, tail_elem;
} kind_ops;

static void *alloc_model(relic_arena *a, size_t size)
{
    void *p = relic_arena_alloc(a, size, 8);
    if (p) memset(p, 0, size);
    return p;
}

/* Thunks from the generic signatures to a generated format's functions. */
#define KIND_FNS(F)                                                                                   \
    static relic_status val_##F(const uint8_t *p, size_t n, relic_error *e)                           \
    {                                                                                                 \
        relic_##F##_view v;                                                                           \
        return relic_##F##_validate(p, n, &v, e);                                                     \
    }                                                                                                 \
    static relic_status dec_##F(const uint8_t *p, size_t n, relic_arena *a, void **m, relic_error *e) \
    {                                                                                                 \
        relic_##F##_view v;                                                                           \
        relic_status st = relic_##F##_validate(p, n, &v, e);                                          \
        if (st) return st;                                                                            \
        relic_##F##_file *x = alloc_model(a, sizeof *x);                                              \
        if (!x) return relic_fail(e, RELIC_E_NOMEM, 0, "", "out of memory");                          \
        *m = x;                                                                                       \
        return relic_##F##_decode(&v, a, x, e);                                                       \
    }                                                                                                 \
    static relic_status wr_##F(const void *m, relic_buf *o, relic_error *e) { return relic_##F##_write(m, o, e); }

KIND_FNS(grf_header)
KIND_FNS(grf_region)
KIND_FNS(grf_region_v11)
KIND_FNS(grf_object)
KIND_FNS(grf_geometry)
KIND_FNS(grf_geometry_v13)
KIND_FNS(grf_geometry_v11)
KIND_FNS(grf_mesh)
KIND_FNS(grf_mapping)
KIND_FNS(grf_mapping_ref)
KIND_FNS(grf_material)
KIND_FNS(grf_material_v11)
KIND_FNS(scn_header)
KIND_FNS(scn_partitions)
KIND_FNS(scn_partitions24)
KIND_FNS(scn_hierarchy)
KIND_FNS(scn_instance)
KIND_FNS(scn_instance44)
KIND_FNS(scn_text)
KIND_FNS(scn_bmp)

static relic_status val_vt(const uint8_t *p, size_t n, relic_error *e)
{
    return relic_grf_value_table_parse(p, n, NULL, NULL, e);
}
static relic_status dec_vt(const uint8_t *p, size_t n, relic_arena *a, void **m, relic_error *e)
{
    relic_grf_value_table *x = alloc_model(a, sizeof *x);
    if (!x) return relic_fail(e, RELIC_E_NOMEM, 0, "", "out of memory");
    *m = x;
    return relic_grf_value_table_parse(p, n, a, x, e);
}
static relic_status wr_vt(const void *m, relic_buf *o, relic_error *e) { return relic_grf_value_table_write(m, o, e); }

#define OPS(NAME, F)                         \
    {                                        \
        NAME, val_##F, dec_##F, wr_##F, 0, 0 \
    }
#define OPS_TAIL(NAME, F, HEAD, ELEM)              \
    {                                              \
        NAME, val_##F, dec_##F, wr_##F, HEAD, ELEM \
    }
static const kind_ops ops[RELIC_GRF_KIND_COUNT] = {
    [RELIC_GRF_OPAQUE] = {"opaque", NULL, NULL, NULL, 0, 0},
    [RELIC_GRF_HEADER] = OPS("header", grf_header),
    [RELIC_GRF_REGION] = OPS("region", grf_region),
    [RELIC_GRF_REGION_V11] = OPS("region_v11", grf_region_v11),
    [RELIC_GRF_OBJECT] = OPS("object", grf_object),
    [RELIC_GRF_GEOMETRY] = OPS("geometry", grf_geometry),
    [RELIC_GRF_GEOMETRY_V13] = OPS("geometry_v13", grf_geometry_v13),
    [RELIC_GRF_GEOMETRY_V11] = OPS("geometry_v11", grf_geometry_v11),
    [RELIC_GRF_MESH] = OPS("mesh", grf_mesh),
    [RELIC_GRF_MAPPING] = OPS("mapping", grf_mapping),
    [RELIC_GRF_MAPPING_REF] = OPS("mapping_ref", grf_mapping_ref),
    [RELIC_GRF_MATERIAL] = OPS("material", grf_material),
    [RELIC_GRF_MATERIAL_V11] = OPS("material_v11", grf_material_v11),
    [RELIC_GRF_VALUE_TABLE] = OPS("value_table", vt),
    [RELIC_SCN_HEADER] = OPS("scn_header", scn_header),
    [RELIC_SCN_PARTITIONS] = OPS_TAIL("scn_partitions", scn_partitions, 1, RELIC_SCN_PARTITIONS_PARTITION_SIZE),
    [RELIC_SCN_PARTITIONS24] = OPS_TAIL("scn_partitions24", scn_partitions24, 1, RELIC_SCN_PARTITIONS24_PARTITION_SIZE),
    [RELIC_SCN_HIERARCHY] = OPS_TAIL("scn_hierarchy", scn_hierarchy, 0, RELIC_SCN_HIERARCHY_NODE_SIZE),
    [RELIC_SCN_INSTANCE] = OPS("scn_instance", scn_instance),
    [RELIC_SCN_INSTANCE44] = OPS("scn_instance44", scn_instance44),
    [RELIC_SCN_TEXT] = OPS("scn_text", scn_text),
    [RELIC_SCN_BMP] = OPS("scn_bmp", scn_bmp),
};

const char *relic_grf_kind_name(relic_grf_kind k)
{
    return (unsigned)k < RELIC_GRF_KIND_COUNT ? ops[k].name : NULL;
}

int relic_grf_kind_from_name(const char *name)
{
    for (int k = 0; k < RELIC_GRF_KIND_COUNT; k++)
        if (!strcmp(ops[k].name, name)) return k;
    return -1;
}

relic_grf_layout relic_grf_layout_of(const relic_groff_file *m)
{
    relic_grf_layout l = {0, 0, m->sections_count > 0};
    int have = 0;
    for (size_t i = 0; i < m->sections_count; i++) {
        if (m->sections[i].content != RELIC_GROFF_CONTENT_SPECIAL) l.is_scene = 0;
        if (m->sections[i].content != RELIC_GROFF_CONTENT_HEADER || have) continue;
        relic_bytes b = relic_groff_model_section_data(m, i);
        relic_grf_header_view v;
        relic_error err;
        have = 1;
        if (b.data && relic_grf_header_validate(b.data, b.size, &v, &err) == RELIC_OK) {
            l.version = v.values.version & VERSION_MASK;
            l.optimised = (v.values.version & VERSION_OPTIMISED) != 0;
        }
    }
    return l;
}

/* The optimised form's header (Trespasser source, Lib/Groff/GroffIO.cpp: material, colour flag, colour,
 * pivot, then five u32 counts at byte 24) gives exactly n bytes: 44 + 12
 * points + 32 vertices + 4 pointers + 40 polygons + 12 wrap points. */
#define MESH_COUNTS_OFFSET 24u
#define MESH_HEADER_SIZE 44u

static int mesh_size_fits(const uint8_t *p, size_t n)
{
    if (n < MESH_HEADER_SIZE) return 0;
    const uint8_t *q = p + MESH_COUNTS_OFFSET;
    uint64_t pts = relic_load_u32le(q), vts = relic_load_u32le(q + 4), ptr = relic_load_u32le(q + 8),
             wrp = relic_load_u32le(q + 12), pol = relic_load_u32le(q + 16);
    return MESH_HEADER_SIZE + RELIC_GRF_MESH_VEC3F_SIZE * (pts + wrp) + RELIC_GRF_MESH_VERTEX_SIZE * vts + 4 * ptr +
        RELIC_GRF_MESH_POLYGON_SIZE * pol ==
        n;
}

static int is_name(const char *name, const char *want) { return name && !strcmp(name, want); }

/* The kind of section i; names: every section's name, or NULL to look
 * the one needed up (special sections are classified by name). */
static relic_grf_kind classify(const relic_groff_file *m, size_t i, const relic_grf_layout *l, const char *const *names)
{
    if (i >= m->sections_count) return RELIC_GRF_OPAQUE;
    uint32_t c = m->sections[i].content, v = l->version;
    relic_bytes b = relic_groff_model_section_data(m, i);
    if (!b.data && m->sections[i].data_size) return RELIC_GRF_OPAQUE;
    if (c == RELIC_GROFF_CONTENT_SPECIAL) {
        const char *name = names ? names[i] : relic_groff_model_section_name(m, i);
        uint32_t h;
        if (!name) return RELIC_GRF_OPAQUE;
        if (is_name(name, "Header")) return RELIC_SCN_HEADER;
        if (is_name(name, "Partitions")) {
            size_t entries = b.size ? b.size - 1 : 0; /* after the leading byte */
            int fits28 = entries % RELIC_SCN_PARTITIONS_PARTITION_SIZE == 0;
            int fits24 = entries % RELIC_SCN_PARTITIONS24_PARTITION_SIZE == 0;
            return !fits28 && fits24 ? RELIC_SCN_PARTITIONS24 : RELIC_SCN_PARTITIONS;
        }
        if (is_name(name, "Hierarchy") || is_name(name, "TerrainHierarchy") || is_name(name, "TriggerHierarchy"))
            return RELIC_SCN_HIERARCHY;
        if (is_name(name, "SaveGameName") || is_name(name, "SaveSCNName")) return RELIC_SCN_TEXT;
        if (is_name(name, "SaveBMP")) return RELIC_SCN_BMP;
        if (relic_tres_parse_section_name(name, strlen(name), &h)) {
            if (b.size == RELIC_SCN_INSTANCE_FILE_SIZE) return RELIC_SCN_INSTANCE;
            if (b.size == RELIC_SCN_INSTANCE44_FILE_SIZE) return RELIC_SCN_INSTANCE44;
        }
        return RELIC_GRF_OPAQUE;
    }
    switch (c) {
    case RELIC_GROFF_CONTENT_HEADER: return RELIC_GRF_HEADER;
    case RELIC_GROFF_CONTENT_ATTRIBUTES: return RELIC_GRF_VALUE_TABLE;
    case RELIC_GROFF_CONTENT_OBJECT: return RELIC_GRF_OBJECT;
    default: break;
    }
    if (!v) return RELIC_GRF_OPAQUE;
    switch (c) {
    case RELIC_GROFF_CONTENT_REGION: return v >= VERSION_REGION_HANDLES ? RELIC_GRF_REGION : RELIC_GRF_REGION_V11;
    case RELIC_GROFF_CONTENT_GEOMETRY:
        if (l->optimised && mesh_size_fits(b.data, b.size)) return RELIC_GRF_MESH;
        return v >= VERSION_PIVOT ? RELIC_GRF_GEOMETRY : v >= VERSION_WRAP ? RELIC_GRF_GEOMETRY_V13
                                                                           : RELIC_GRF_GEOMETRY_V11;
    case RELIC_GROFF_CONTENT_MAPPING:
        return b.size == RELIC_GRF_MAPPING_REF_FILE_SIZE ? RELIC_GRF_MAPPING_REF : RELIC_GRF_MAPPING;
    case RELIC_GROFF_CONTENT_MATERIAL: return v >= VERSION_FLAT_COLOURS ? RELIC_GRF_MATERIAL : RELIC_GRF_MATERIAL_V11;
    default: return RELIC_GRF_OPAQUE;
    }
}

relic_grf_kind relic_grf_classify(const relic_groff_file *m, size_t i, const relic_grf_layout *l)
{
    return classify(m, i, l, NULL);
}

relic_status relic_grf_classify_all(const relic_groff_file *m, const relic_grf_layout *l, relic_arena *a,
                                    relic_grf_kind *kinds, relic_error *err)
{
    const char **names = NULL;
    int special = 0;
    for (size_t i = 0; i < m->sections_count && !special; i++) special = m->sections[i].content == RELIC_GROFF_CONTENT_SPECIAL;
    if (special) {
        relic_status st = relic_groff_model_section_names(m, a, &names, err);
        if (st != RELIC_OK) return st;
    }
    for (size_t i = 0; i < m->sections_count; i++) kinds[i] = classify(m, i, l, names);
    return RELIC_OK;
}

/* A section must be exactly its kind's layout, so that it round-trips: a
 * partial element after the last whole one of a trailing [..] array, or
 * bytes after a layout fixed by its counts (the generated validators accept
 * input longer than the root: if the same bytes less one still validate,
 * the layout ends before the last byte). */
static relic_status whole_tail(relic_grf_kind k, const uint8_t *p, size_t n, relic_error *err)
{
    size_t head = ops[k].tail_head, elem = ops[k].tail_elem;
    if (!elem) {
        relic_error e;
        if (k == RELIC_GRF_VALUE_TABLE || k == RELIC_SCN_TEXT || k == RELIC_SCN_BMP || !ops[k].validate || !n ||
            ops[k].validate(p, n - 1, &e) != RELIC_OK)
            return RELIC_OK;
        return relic_fail(err, RELIC_E_LAYOUT, n - 1, "", "bytes after the end of the section's layout");
    }
    if (n < head || (n - head) % elem == 0) return RELIC_OK;
    return relic_fail(err, RELIC_E_LAYOUT, n - (n - head) % elem, "", "%zu bytes after the last whole %zu-byte entry",
                      (n - head) % elem, elem);
}

relic_status relic_grf_section_validate(relic_grf_kind k, const uint8_t *p, size_t n, relic_error *err)
{
    if ((unsigned)k >= RELIC_GRF_KIND_COUNT) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "no such section kind");
    relic_status st = ops[k].validate ? ops[k].validate(p, n, err) : RELIC_OK;
    return st ? st : whole_tail(k, p, n, err);
}

relic_status relic_grf_section_decode(relic_grf_kind k, const uint8_t *p, size_t n, relic_arena *a, void **model,
                                      relic_error *err)
{
    static const uint8_t no_bytes[1];
    *model = NULL;
    if ((unsigned)k >= RELIC_GRF_KIND_COUNT) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "no such section kind");
    /* an empty section may come as (NULL, 0): the generated readers add offsets to p (UBSan, fuzz_grf_sections) */
    if (!p && !n) p = no_bytes;
    relic_status st = ops[k].decode ? ops[k].decode(p, n, a, model, err) : RELIC_OK;
    return st ? st : whole_tail(k, p, n, err);
}

relic_status relic_grf_section_write(relic_grf_kind k, const void *model, relic_buf *out, relic_error *err)
{
    if ((unsigned)k >= RELIC_GRF_KIND_COUNT || !ops[k].write)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "section kind %d has no writer", (int)k);
    return ops[k].write(model, out, err);
}
