/* fmt_tri.c — the `relic` command for Trespasser TRI terrain triangulation
 * text (.tri, by extension; Trespasser source, Lib/GeomDBase/TerrainLoad.cpp, runtime/include/relic/relic_tri.h):
 * info, check (--strict adds degenerate triangles), JSON of the mesh, and
 * convert to OBJ or to TRI again (normalised text). */
#include <string.h>

#include "formats.h"
#include "relic_tri.h"
#include "tres_text.h"


static int load(const cli_input *in, relic_arena *a, relic_tri_mesh *m, FILE *to)
{
    relic_error err;
    relic_arena_init_heap(a, CLI_ARENA_LIMIT);
    if (relic_tri_parse(in->path, in->map.bytes.data, in->map.bytes.size, a, m, &err) != RELIC_OK) {
        cli_report(to, in->path, &err);
        return 1;
    }
    return 0;
}

static int tri_info(const cli_input *in)
{
    relic_arena a;
    relic_tri_mesh m;
    if (load(in, &a, &m, stdout)) {
        relic_arena_release(&a);
        return 1;
    }
    printf("%s: Trespasser TRI terrain triangulation, %u triangles, %u vertices\n", in->path, m.triangle_count,
           m.vertex_count);
    if (m.vertex_count) {
        double lo[3], hi[3];
        for (int k = 0; k < 3; k++) lo[k] = hi[k] = m.vertices[0][k];
        for (uint32_t i = 1; i < m.vertex_count; i++)
            for (int k = 0; k < 3; k++) {
                if (m.vertices[i][k] < lo[k]) lo[k] = m.vertices[i][k];
                if (m.vertices[i][k] > hi[k]) hi[k] = m.vertices[i][k];
            }
        printf("  X %g..%g, Y %g..%g, Z %g..%g (metres)\n", lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
    }
    relic_arena_release(&a);
    return 0;
}

static unsigned tri_check(const cli_input *in, int strict)
{
    relic_arena a;
    relic_tri_mesh m;
    unsigned problems = 0;
    if (load(in, &a, &m, stdout)) {
        relic_arena_release(&a);
        return 1;
    }
    if (strict)
        for (uint32_t i = 0; i < m.triangle_count; i++) {
            const uint32_t *t = m.triangles[i];
            if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) {
                if (problems < 20) {
                    char field[32];
                    snprintf(field, sizeof field, "triangles[%u]", i);
                    cli_problemf(in->path, 0, field, "(%u %u %u) repeats a vertex", t[0], t[1], t[2]);
                }
                problems++;
            }
        }
    relic_arena_release(&a);
    return problems;
}

static int tri_to_json(const cli_input *in, relic_buf *out)
{
    relic_arena a;
    relic_tri_mesh m;
    if (load(in, &a, &m, stderr)) {
        relic_arena_release(&a);
        return 1;
    }
    relic_buf_printf(out, "{\n  \"format\": \"tri\",\n  \"triangle_count\": %u,\n  \"vertex_count\": %u,\n  \"triangles\": [",
                     m.triangle_count, m.vertex_count);
    for (uint32_t i = 0; i < m.triangle_count; i++)
        relic_buf_printf(out, "%s\n    [%u, %u, %u]", i ? "," : "", m.triangles[i][0], m.triangles[i][1], m.triangles[i][2]);
    relic_buf_puts(out, m.triangle_count ? "\n  ],\n  \"vertices\": [" : "],\n  \"vertices\": [");
    for (uint32_t i = 0; i < m.vertex_count; i++) {
        char x[32], y[32], z[32];
        relic_text_double(m.vertices[i][0], x);
        relic_text_double(m.vertices[i][1], y);
        relic_text_double(m.vertices[i][2], z);
        relic_buf_printf(out, "%s\n    [%s, %s, %s]", i ? "," : "", x, y, z);
    }
    relic_buf_puts(out, m.vertex_count ? "\n  ]\n}\n" : "]\n}\n");
    relic_arena_release(&a);
    return 0;
}

static int tri_from_json(const cli_input *in, const char *out_path)
{
    (void)in;
    (void)out_path;
    return -1;
}

static int tri_convert(const cli_input *in, const char *out_path, const char *ext)
{
    const int obj = !strcmp(ext, "obj");
    if (!obj && strcmp(ext, "tri")) return -1;
    relic_arena a;
    relic_tri_mesh m;
    relic_buf buf;
    relic_error err;
    int rc = 1;
    relic_buf_init(&buf, 0);
    if (!load(in, &a, &m, stderr)) {
        if ((obj ? relic_tri_write_obj(&m, &buf, &err) : relic_tri_write(&m, &buf, &err)) != RELIC_OK)
            cli_error(out_path, &err);
        else
            rc = cli_write(out_path, buf.data, buf.size, in->path);
    }
    relic_buf_free(&buf);
    relic_arena_release(&a);
    return rc;
}

/* clang-format off */
const cli_hooks cli_tri_hooks = {
    tri_info, tri_check, tri_to_json, tri_from_json, NULL, tri_convert, NULL,
    "  x.tri -> y.obj|y.tri|y.json                      TRI terrain triangulation text to OBJ, normalised TRI, JSON\n",
    NULL, /* json_max_output: no bound */
};
/* clang-format on */
