/* tri_write.c — Trespasser TRI terrain triangulation text out of a mesh
 * (Trespasser source, Lib/GeomDBase/TerrainLoad.cpp; Trespasser file formats, "TRI"), and the same mesh as
 * Wavefront OBJ. Numbers are the shortest text that reads back exactly. */
#include "relic_tri.h"
#include "tres_text.h"

static void put_vertex(relic_buf *out, const char *prefix, const double v[3])
{
    char a[32], b[32], c[32];
    relic_text_double(v[0], a);
    relic_text_double(v[1], b);
    relic_text_double(v[2], c);
    relic_buf_printf(out, "%s%s %s %s\n", prefix, a, b, c);
}

relic_status relic_tri_write(const relic_tri_mesh *m, relic_buf *out, relic_error *err)
{
    relic_buf_printf(out, "%u\n", m->triangle_count);
    for (uint32_t i = 0; i < m->triangle_count; i++) {
        for (int k = 0; k < 3; k++)
            if (m->triangles[i][k] >= m->vertex_count)
                return relic_fail(err, RELIC_E_INDEX, 0, "triangles", "triangle %u uses vertex %u of %u", i,
                                  m->triangles[i][k], m->vertex_count);
        relic_buf_printf(out, "%u %u %u\n", m->triangles[i][0], m->triangles[i][1], m->triangles[i][2]);
    }
    relic_buf_printf(out, "%u\n", m->vertex_count);
    for (uint32_t i = 0; i < m->vertex_count; i++) put_vertex(out, "", m->vertices[i]);
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, "tri", "the TRI output could not grow");
    return RELIC_OK;
}

relic_status relic_tri_write_obj(const relic_tri_mesh *m, relic_buf *out, relic_error *err)
{
    relic_buf_printf(out, "# %u vertices, %u triangles in world coordinates (metres), Z up (written by relic)\n",
                     m->vertex_count, m->triangle_count);
    for (uint32_t i = 0; i < m->vertex_count; i++) put_vertex(out, "v ", m->vertices[i]);
    for (uint32_t i = 0; i < m->triangle_count; i++)
        relic_buf_printf(out, "f %u %u %u\n", m->triangles[i][0] + 1, m->triangles[i][1] + 1, m->triangles[i][2] + 1);
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, "obj", "the OBJ output could not grow");
    return RELIC_OK;
}
