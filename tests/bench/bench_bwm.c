/* bench_bwm.c — `make bench`: BWM throughput on a synthetic WOK of at least
 * 1,000,000 faces made by relic's own builders and writer: validate + full
 * traversal (MB/s, and its ratio to memcpy of the same bytes measured in the
 * same run), JSON dump (printed from the validated view, and its ratio to
 * memcpy) and JSON read MB/s (of BWM), write MB/s, build time
 * and peak RSS (before the JSON read). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench_rows.h"
#include "relic_bwm.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A rolling floor: an n x n grid of quads, two faces each, walkable stone
 * with every 7th quad a non-walkable pillar top. */
static void make_grid(uint32_t n, relic_arena *a, relic_bwm_mesh *mesh)
{
    uint32_t nv = (n + 1) * (n + 1), nf = 2 * n * n;
    float(*v)[3] = relic_arena_array(a, nv, sizeof *v, 4);
    uint32_t(*f)[3] = relic_arena_array(a, nf, sizeof *f, 4);
    uint32_t *mat = relic_arena_array(a, nf, sizeof *mat, 4);
    for (uint32_t y = 0; y <= n; y++)
        for (uint32_t x = 0; x <= n; x++) {
            float *p = v[y * (n + 1) + x];
            p[0] = (float)x * 0.5f;
            p[1] = (float)y * 0.5f;
            p[2] = (float)((x * 7 + y * 3) % 11) * 0.01f;
        }
    uint32_t k = 0;
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t x = 0; x < n; x++) {
            uint32_t i0 = y * (n + 1) + x, i1 = i0 + 1, i2 = i0 + n + 2, i3 = i0 + n + 1;
            uint32_t m = ((x + y * n) % 7 == 3) ? RELIC_BWM_SURFACE_MATERIAL_NONWALK : RELIC_BWM_SURFACE_MATERIAL_STONE;
            f[k][0] = i0;
            f[k][1] = i1;
            f[k][2] = i2;
            mat[k++] = m;
            f[k][0] = i0;
            f[k][1] = i2;
            f[k][2] = i3;
            mat[k++] = m;
        }
    mesh->vertices = (const float(*)[3])v;
    mesh->vertex_count = nv;
    mesh->faces = (const uint32_t(*)[3])f;
    mesh->materials = mat;
    mesh->face_count = nf;
}

static relic_status count_sink(void *ctx, const uint8_t *p, size_t n)
{
    (void)p;
    *(size_t *)ctx += n;
    return RELIC_OK;
}

/* Touch every value through the zero-copy accessors. */
static double traverse(const relic_bwm_view *v)
{
    double s = 0;
    uint64_t u = 0;
    for (size_t i = 0; i < v->vertices_count; i++) {
        relic_bwm_vec3f_view p = relic_bwm_vertices_at(v, i);
        s += relic_bwm_vec3f_x(p) + relic_bwm_vec3f_y(p) + relic_bwm_vec3f_z(p);
    }
    for (size_t i = 0; i < v->faces_count; i++) {
        relic_bwm_face_view f = relic_bwm_faces_at(v, i);
        u += relic_bwm_face_v(f, 0) + relic_bwm_face_v(f, 1) + relic_bwm_face_v(f, 2) + relic_bwm_materials_at(v, i);
        relic_bwm_vec3f_view n = relic_bwm_normals_at(v, i);
        s += relic_bwm_vec3f_z(n) + relic_bwm_distances_at(v, i);
    }
    for (size_t i = 0; i < v->aabb_count; i++) {
        relic_bwm_aabb_node_view n = relic_bwm_aabb_at(v, i);
        s += relic_bwm_vec3f_x(relic_bwm_aabb_node_box_min(n)) + relic_bwm_vec3f_x(relic_bwm_aabb_node_box_max(n));
        u += (uint64_t)relic_bwm_aabb_node_face(n) + relic_bwm_aabb_node_child1(n) + relic_bwm_aabb_node_child2(n) +
            relic_bwm_aabb_node_most_significant_plane(n);
    }
    for (size_t i = 0; i < v->adjacency_count; i++) {
        relic_bwm_adjacency_view a = relic_bwm_adjacency_at(v, i);
        u += (uint64_t)(relic_bwm_adjacency_side(a, 0) + relic_bwm_adjacency_side(a, 1) + relic_bwm_adjacency_side(a, 2));
    }
    for (size_t i = 0; i < v->edges_count; i++) u += relic_bwm_edge_edge(relic_bwm_edges_at(v, i));
    for (size_t i = 0; i < v->perimeters_count; i++) u += relic_bwm_perimeters_at(v, i);
    return s + (double)u;
}

int main(int argc, char **argv)
{
    uint32_t n = argc > 1 ? (uint32_t)atoi(argv[1]) : 708; /* 2*708*708 = 1,002,528 faces */
    int reps = 5;
    relic_arena a;
    relic_error err;
    relic_bwm_mesh mesh;
    relic_bwm_file m;
    relic_arena_init_heap(&a, 0);
    make_grid(n, &a, &mesh);
    double t0 = now();
    if (relic_bwm_from_mesh(&mesh, RELIC_BWM_WALKMESH_TYPE_AREA, &a, &m, &err) != RELIC_OK) {
        fprintf(stderr, "build failed: %s\n", err.message);
        return 1;
    }
    double t_build = now() - t0;

    /* the first write pays the kernel for fresh pages; later ones reuse the buffer,
     * as a tool writing many files does */
    relic_buf out;
    double t_write = 1e9, t_first = 0;
    relic_buf_init(&out, 0);
    for (int r = 0; r < reps; r++) {
        out.size = 0;
        t0 = now();
        if (relic_bwm_write(&m, &out, &err) != RELIC_OK) {
            fprintf(stderr, "write: %s\n", err.message);
            return 1;
        }
        double t = now() - t0;
        if (r == 0) t_first = t;
        if (t < t_write) t_write = t;
    }
    double mb = (double)out.size / 1e6;

    uint8_t *copy = malloc(out.size);
    double t_memcpy = 1e9, t_val = 1e9, sink = 0;
    for (int r = 0; r < reps; r++) {
        t0 = now();
        memcpy(copy, out.data, out.size);
        double t = now() - t0;
        if (t < t_memcpy) t_memcpy = t;
        sink += copy[out.size / 2];
        relic_bwm_view v;
        t0 = now();
        if (relic_bwm_validate(out.data, out.size, &v, &err) != RELIC_OK) {
            fprintf(stderr, "validate: %s\n", err.message);
            return 1;
        }
        sink += traverse(&v);
        t = now() - t0;
        if (t < t_val) t_val = t;
    }

    double t_json = 1e9;
    size_t json_size = 0;
    for (int r = 0; r < 3; r++) {
        relic_bwm_view v;
        relic_buf js;
        /* streamed in 1 MiB pieces, as `relic dump` does, to a sink that counts them;
         * printed from the validated view, as `relic dump` does (no decoded copy) */
        relic_buf_init_sink(&js, (size_t)1 << 20, count_sink, &json_size);
        json_size = 0;
        t0 = now();
        if (relic_bwm_validate(out.data, out.size, &v, &err) != RELIC_OK || relic_bwm_json_print_view(&v, &js, &err) != RELIC_OK) {
            fprintf(stderr, "JSON dump: %s\n", err.message);
            return 1;
        }
        relic_buf_flush(&js);
        double t = now() - t0;
        if (t < t_json) t_json = t;
        relic_buf_free(&js);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);

    printf("synthetic WOK: %u faces, %u vertices, %.1f MB (built in %.2f s: planes, adjacency, perimeters, AABB)\n",
           mesh.face_count, mesh.vertex_count, mb, t_build);
    printf("memcpy                    %8.0f MB/s\n", mb / t_memcpy);
    printf("validate + full traversal %8.0f MB/s  (%.0f%% of memcpy)\n", mb / t_val, 100.0 * t_memcpy / t_val);
    printf("JSON dump                 %8.0f MB/s  (%.1f%% of memcpy; %.1f MB of JSON)\n", mb / t_json, 100.0 * t_memcpy / t_json,
           (double)json_size / 1e6);
    char row_in[96], row_rel[64], row_pr[64], row_ra[32];
    bench_fmt(row_in, sizeof row_in, "synthetic WOK, %u faces, %.1f MB", mesh.face_count, mb);
    bench_row("BWM validate + full traversal (in process)", row_in, bench_fmt(row_rel, sizeof row_rel, "%.0f MB/s", mb / t_val),
              bench_fmt(row_pr, sizeof row_pr, "memcpy %.0f MB/s", mb / t_memcpy),
              bench_fmt(row_ra, sizeof row_ra, "%.0f%%", 100.0 * t_memcpy / t_val), "-", -1);
    bench_row("BWM -> JSON dump (in process, streamed, from the view)", row_in,
              bench_fmt(row_rel, sizeof row_rel, "%.0f MB/s", mb / t_json),
              bench_fmt(row_pr, sizeof row_pr, "memcpy %.0f MB/s", mb / t_memcpy),
              bench_fmt(row_ra, sizeof row_ra, "%.1f%%", 100.0 * t_memcpy / t_json), ">= 300 MB/s", mb / t_json >= 300);
    /* JSON -> model: after the peak-RSS reading, which it would dominate */
    double t_read = 1e9;
    size_t json_text = 0;
    {
        relic_bwm_view v;
        relic_arena da;
        relic_bwm_file dm;
        relic_buf js;
        relic_arena_init_heap(&da, 0);
        relic_buf_init(&js, 0);
        relic_bwm_validate(out.data, out.size, &v, &err);
        relic_bwm_decode(&v, &da, &dm, &err);
        relic_bwm_json_print(&dm, &js, &err);
        json_text = js.size;
        for (int r = 0; r < 2; r++) {
            relic_arena ra;
            relic_bwm_file rm;
            relic_arena_init_heap(&ra, 0);
            t0 = now();
            if (relic_bwm_json_read((const char *)js.data, js.size, &ra, &rm, &err) != RELIC_OK) {
                fprintf(stderr, "JSON read: %s\n", err.message);
                return 1;
            }
            double t = now() - t0;
            if (t < t_read) t_read = t;
            relic_arena_release(&ra);
        }
        relic_buf_free(&js);
        relic_arena_release(&da);
    }
    printf("JSON read                 %8.0f MB/s  (%.0f MB/s of JSON)\n", mb / t_read, (double)json_text / 1e6 / t_read);
    printf("write                     %8.0f MB/s  (first write, into fresh memory: %.0f MB/s)\n", mb / t_write, mb / t_first);
    printf("peak RSS                  %8.0f MB\n", (double)ru.ru_maxrss / 1024.0);
    if (sink == 0.5) printf("\n");
    free(copy);
    relic_buf_free(&out);
    relic_arena_release(&a);
    return 0;
}
