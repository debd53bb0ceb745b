/* trn_terrain_obj.c — the terrain and water of a TRN/TRX file out to
 * Wavefront OBJ: one group per TRRN megatile (positions, uv, normals) and
 * one per WATR packet (positions, uv; only the triangles flagged as
 * holding water). Facts: nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp (TRRN vertex: position,
 * normal, uv range 0..10), nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp (WATR per-triangle flag 0 = water). */
#include <math.h>
#include <stdio.h>

#include "relic_gen.h"
#include "relic_trn.h"

static double fin(float v) { return isfinite(v) ? (double)v : 0.0; }

static void megatile(const relic_trrn_file *t, size_t packet, uint64_t *base, uint64_t *tex, uint64_t *norm, relic_buf *out)
{
    relic_buf_printf(out, "g terrain_%zu\n", packet);
    for (size_t i = 0; i < t->vertices_count; i++) {
        const relic_trrn_terrain_vertex *v = &t->vertices[i];
        relic_buf_printf(out, "v %.9g %.9g %.9g\nvt %.9g %.9g\nvn %.9g %.9g %.9g\n", fin(v->position[0]), fin(v->position[1]),
                         fin(v->position[2]), fin(v->uv[0]), fin(v->uv[1]), fin(v->normal[0]), fin(v->normal[1]), fin(v->normal[2]));
    }
    for (size_t i = 0; i < t->triangles_count; i++) {
        const unsigned k[3] = {t->triangles[i].a, t->triangles[i].b, t->triangles[i].c};
        relic_buf_puts(out, "f");
        for (int j = 0; j < 3; j++)
            relic_buf_printf(out, " %llu/%llu/%llu", (unsigned long long)(*base + k[j] + 1), (unsigned long long)(*tex + k[j] + 1),
                             (unsigned long long)(*norm + k[j] + 1));
        relic_buf_puts(out, "\n");
    }
    *base += t->vertices_count;
    *tex += t->vertices_count;
    *norm += t->vertices_count;
}

static void water(const relic_watr_file *w, size_t packet, uint64_t *base, uint64_t *tex, relic_buf *out)
{
    relic_buf_printf(out, "g water_%zu\n", packet);
    for (size_t i = 0; i < w->vertices_count; i++) {
        const relic_watr_water_vertex *v = &w->vertices[i];
        relic_buf_printf(out, "v %.9g %.9g %.9g\nvt %.9g %.9g\n", fin(v->position[0]), fin(v->position[1]), fin(v->position[2]),
                         fin(v->uv[0]), fin(v->uv[1]));
    }
    for (size_t i = 0; i < w->triangles_count; i++) {
        if (w->triangle_flags[i] != 0) continue; /* 1 = no water */
        const unsigned k[3] = {w->triangles[i].a, w->triangles[i].b, w->triangles[i].c};
        relic_buf_puts(out, "f");
        for (int j = 0; j < 3; j++)
            relic_buf_printf(out, " %llu/%llu", (unsigned long long)(*base + k[j] + 1), (unsigned long long)(*tex + k[j] + 1));
        relic_buf_puts(out, "\n");
    }
    *base += w->vertices_count;
    *tex += w->vertices_count;
}

relic_status relic_trn_terrain_obj(const relic_trn_file *m, relic_arena *a, relic_buf *out, relic_error *err)
{
    size_t found = 0;
    uint64_t base = 0, tex = 0, norm = 0; /* OBJ numbers v, vt and vn separately */
    relic_buf_puts(out, "# NWN2 terrain (TRRN) and water (WATR) (relic)\n");
    for (size_t i = 0; i < m->packets_count; i++) {
        const relic_trn_packet *p = &m->packets[i];
        relic_status st;
        if (p->type == RELIC_TRN_PACKET_TYPE_TRRN) {
            relic_trrn_file t;
            if ((st = relic_trn_trrn_read(p->data, p->data_count, a, &t, err)) != RELIC_OK) {
                relic_gen_path_prefix(err, "trrn", -1);
                relic_gen_path_prefix(err, "packets", (int64_t)i);
                return st;
            }
            megatile(&t, i, &base, &tex, &norm, out);
            found++;
        } else if (p->type == RELIC_TRN_PACKET_TYPE_WATR) {
            relic_watr_file w;
            if ((st = relic_trn_watr_read(p->data, p->data_count, a, &w, err)) != RELIC_OK) {
                relic_gen_path_prefix(err, "watr", -1);
                relic_gen_path_prefix(err, "packets", (int64_t)i);
                return st;
            }
            water(&w, i, &base, &tex, out);
            found++;
        }
    }
    if (!found) return relic_fail(err, RELIC_E_UNSUPPORTED, 0, "packets", "no TRRN or WATR packet: the file holds no terrain");
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, "", "the output could not grow");
    return RELIC_OK;
}
