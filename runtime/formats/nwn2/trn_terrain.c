/* trn_terrain.c — decode the TRRN (terrain megatile) and WATR (water)
 * packets of a TRN/TRX file: the container keeps their payloads as opaque
 * bytes; these functions validate them with the layouts of
 * schema/nwn2/trrn.schema and watr.schema, require the payload to be
 * consumed exactly, and add the rules the schemas cannot say: every
 * triangle index below the vertex count and no NaN or infinite vertex
 * position (or TRRN normal)
 * (nwn-lib-d's TRRN/WATR validate). Facts: nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp. */
#include <math.h>

#include "relic_gen.h"
#include "relic_trn.h"

/* Byte size of the grass array at pos (validated: every record lies in v). */
static uint64_t grass_bytes(const relic_trrn_view *v)
{
    if (!v->grasses) return 0;
    uint64_t pos = (uint64_t)(v->grasses - v->base), start = pos;
    for (size_t i = 0; i < v->grasses_count; i++) {
        uint32_t blades = relic_load_u32le(v->base + pos + 64);
        pos += 68 + 36 * (uint64_t)blades;
    }
    return pos - start;
}

/* Triangle i's three vertex indices below vertex_count (the triangles
 * array starts at byte `first` of the payload, 6 bytes per triangle). */
static relic_status check_triangle(size_t i, const uint16_t idx[3], uint32_t vertex_count, uint64_t first, relic_error *err)
{
    for (int k = 0; k < 3; k++)
        if (idx[k] >= vertex_count) {
            char path[64];
            snprintf(path, sizeof path, "triangles[%zu].%c", i, "abc"[k]);
            return relic_fail(err, RELIC_E_INDEX, first + 6 * (uint64_t)i + 2 * (uint64_t)k, path,
                              "vertex index %u is not below vertex_count %u", (unsigned)idx[k], (unsigned)vertex_count);
        }
    return RELIC_OK;
}

/* n floats of vertex i's field (at byte offset at) must be finite: a NaN or
 * infinite position or normal has no place in a terrain or water mesh. */
static relic_status check_finite(const float *f, int n, size_t i, const char *field, uint64_t at, relic_error *err)
{
    for (int k = 0; k < n; k++)
        if (!isfinite(f[k])) {
            char path[64];
            snprintf(path, sizeof path, "vertices[%zu].%s[%d]", i, field, k);
            return relic_fail(err, RELIC_E_RANGE, at + 4 * (uint64_t)k, path, "vertex %s is %s, not a finite number", field,
                              isnan(f[k]) ? "NaN" : f[k] > 0 ? "+infinity"
                                                             : "-infinity");
        }
    return RELIC_OK;
}

relic_status relic_trn_trrn_read(const uint8_t *data, size_t size, relic_arena *a, relic_trrn_file *out, relic_error *err)
{
    relic_trrn_view v;
    relic_status st = relic_trrn_validate(data, size, &v, err);
    if (st != RELIC_OK) return st;
    /* the validator sets every array's start, empty ones included */
    uint64_t end = (uint64_t)(v.dds_b - data) + v.dds_b_count + 4 + grass_bytes(&v);
    if (end != size)
        return relic_fail(err, RELIC_E_LAYOUT, end, "grasses", "%llu bytes follow the TRRN payload's last grass entry",
                          (unsigned long long)(size - end));
    st = relic_trrn_decode(&v, a, out, err);
    if (st != RELIC_OK) return st;
    uint64_t verts = (uint64_t)(v.vertices ? v.vertices - data : 0);
    for (size_t i = 0; i < out->vertices_count; i++) {
        const relic_trrn_terrain_vertex *tv = &out->vertices[i];
        uint64_t at = verts + RELIC_TRRN_TERRAIN_VERTEX_SIZE * (uint64_t)i;
        if ((st = check_finite(tv->position, 3, i, "position", at, err)) != RELIC_OK ||
            (st = check_finite(tv->normal, 3, i, "normal", at + sizeof tv->position, err)) != RELIC_OK)
            return st;
    }
    uint64_t tris = (uint64_t)(v.triangles ? v.triangles - data : 0);
    for (size_t i = 0; i < out->triangles_count; i++) {
        const uint16_t idx[3] = {out->triangles[i].a, out->triangles[i].b, out->triangles[i].c};
        if ((st = check_triangle(i, idx, out->vertices_count, tris, err)) != RELIC_OK) return st;
    }
    return RELIC_OK;
}

relic_status relic_trn_watr_read(const uint8_t *data, size_t size, relic_arena *a, relic_watr_file *out, relic_error *err)
{
    relic_watr_view v;
    relic_status st = relic_watr_validate(data, size, &v, err);
    if (st != RELIC_OK) return st;
    uint64_t end = (uint64_t)(v.dds - data) + v.dds_count + 8;
    if (end != size)
        return relic_fail(err, RELIC_E_LAYOUT, end, "megatile_y", "%llu bytes follow the WATR payload's megatile position",
                          (unsigned long long)(size - end));
    st = relic_watr_decode(&v, a, out, err);
    if (st != RELIC_OK) return st;
    uint64_t wverts = (uint64_t)(v.vertices ? v.vertices - data : 0);
    for (size_t i = 0; i < out->vertices_count; i++)
        if ((st = check_finite(out->vertices[i].position, 3, i, "position",
                               wverts + RELIC_WATR_WATER_VERTEX_SIZE * (uint64_t)i, err)) != RELIC_OK)
            return st;
    uint64_t tris = (uint64_t)(v.triangles ? v.triangles - data : 0);
    for (size_t i = 0; i < out->triangles_count; i++) {
        const uint16_t idx[3] = {out->triangles[i].a, out->triangles[i].b, out->triangles[i].c};
        if ((st = check_triangle(i, idx, out->vertices_count, tris, err)) != RELIC_OK) return st;
    }
    return RELIC_OK;
}

unsigned relic_trn_check_terrain(const relic_trn_file *m, relic_arena *a, relic_report_fn report, void *ctx)
{
    unsigned n = 0;
    for (size_t i = 0; i < m->packets_count; i++) {
        const relic_trn_packet *p = &m->packets[i];
        if (p->type != RELIC_TRN_PACKET_TYPE_TRRN && p->type != RELIC_TRN_PACKET_TYPE_WATR) continue;
        relic_error err;
        relic_status st;
        if (p->type == RELIC_TRN_PACKET_TYPE_TRRN) {
            relic_trrn_file t;
            st = relic_trn_trrn_read(p->data, p->data_count, a, &t, &err);
            if (st != RELIC_OK) relic_gen_path_prefix(&err, "trrn", -1);
        } else {
            relic_watr_file w;
            st = relic_trn_watr_read(p->data, p->data_count, a, &w, &err);
            if (st != RELIC_OK) relic_gen_path_prefix(&err, "watr", -1);
        }
        if (st == RELIC_OK) continue;
        relic_gen_path_prefix(&err, "packets", (int64_t)i);
        report(ctx, &err);
        n++;
    }
    return n;
}
