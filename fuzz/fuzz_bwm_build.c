/* fuzz_bwm_build.c — libFuzzer target for the hand-written BWM builders
 * (runtime/formats/kotor/bwm_build.c via relic_bwm_from_mesh): adjacency, edges and
 * perimeter loops, AABB tree, face planes, on meshes decoded from the fuzz
 * input (shared, duplicated and degenerate vertices, non-manifold edges,
 * mixed materials). Oracles: building never fails on valid indices; the
 * writer's output validates and keeps every table rule, strict ones
 * included; its JSON reads back to the same bytes.
 * Build and run: make fuzz (or build-fuzz/fuzz_bwm_build -max_total_time=60). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdlib.h>
#include <string.h>

#include "relic_bwm.h"
#include "fuzz_scratch.h"

/* relic_bwm_check with its scratch in fuzz_scratch.h's slot 2, rewound at once */
static unsigned bwm_check_scratch(const relic_bwm_view *v, int strict, relic_report_fn report, void *ctx)
{
    relic_arena a;
    fuzz_scratch_arena(&a, 2, 0);
    unsigned problems = relic_bwm_check(v, strict, &a, report, ctx);
    relic_arena_release(&a);
    return problems;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void report_abort(void *ctx, const relic_error *e)
{
    (void)ctx;
    relic_error_print(stderr, "fuzz_bwm_build", e);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    uint32_t nv = (uint32_t)data[0] % 32 + 3; /* a small vertex pool */
    uint32_t nf = (uint32_t)(size - 1) / 4;   /* 4 bytes per face */
    if (nf > 4096) nf = 4096;
    /* the mesh, the model and its tables in slot 0, the written and printed bytes in slot 1,
     * memory mapped once: a heap arena and heap buffers per run were ASan mmap/munmap calls,
     * copies and page faults, two thirds of the target's time (issue 18, perf) */
    relic_arena a, bufs;
    fuzz_scratch_arena(&a, 0, 0);
    fuzz_scratch_arena(&bufs, 1, 0);
    float(*v)[3] = relic_arena_array(&a, nv, sizeof *v, _Alignof(float));
    uint32_t(*f)[3] = relic_arena_array(&a, nf ? nf : 1, sizeof *f, _Alignof(uint32_t));
    uint32_t *mat = relic_arena_array(&a, nf ? nf : 1, sizeof *mat, _Alignof(uint32_t));
    if (!v || !f || !mat) abort();
    /* vertices on a coarse grid so faces share edges often */
    for (uint32_t i = 0; i < nv; i++) {
        v[i][0] = (float)(i % 5);
        v[i][1] = (float)((i / 5) % 5);
        v[i][2] = (float)(i / 25) * 0.5f;
    }
    static const uint32_t mats[4] = {RELIC_BWM_SURFACE_MATERIAL_STONE, RELIC_BWM_SURFACE_MATERIAL_METAL,
                                     RELIC_BWM_SURFACE_MATERIAL_NONWALK, RELIC_BWM_SURFACE_MATERIAL_GRASS};
    for (uint32_t i = 0; i < nf; i++) {
        const uint8_t *p = data + 1 + 4 * i;
        f[i][0] = p[0] % nv;
        f[i][1] = p[1] % nv;
        f[i][2] = p[2] % nv;
        mat[i] = mats[p[3] % 4];
    }
    relic_bwm_mesh mesh = {(const float(*)[3])v, nv, (const uint32_t(*)[3])f, mat, nf};
    relic_error err;
    relic_bwm_file m;
    uint32_t type = data[0] & 0x80 ? RELIC_BWM_WALKMESH_TYPE_PLACEABLE_OR_DOOR : RELIC_BWM_WALKMESH_TYPE_AREA;
    if (relic_bwm_from_mesh(&mesh, type, &a, &m, &err) != RELIC_OK) {
        relic_error_print(stderr, "build", &err);
        abort();
    }
    relic_buf out, js, back;
    relic_buf_init_arena(&out, &bufs, 0);
    relic_buf_init_arena(&js, &bufs, 0);
    relic_buf_init_arena(&back, &bufs, 0);
    relic_bwm_view view;
    relic_bwm_file m2;
    if (relic_bwm_write(&m, &out, &err) != RELIC_OK || relic_bwm_validate(out.data, out.size, &view, &err) != RELIC_OK) {
        relic_error_print(stderr, "write/validate", &err);
        abort();
    }
    bwm_check_scratch(&view, 1, report_abort, NULL);
    if (relic_bwm_json_print(&m, &js, &err) != RELIC_OK ||
        relic_bwm_json_read((const char *)js.data, js.size, &a, &m2, &err) != RELIC_OK ||
        relic_bwm_write(&m2, &back, &err) != RELIC_OK || back.size != out.size || memcmp(back.data, out.data, out.size) != 0) {
        fprintf(stderr, "JSON round trip differs\n");
        abort();
    }
    relic_buf_free(&out);
    relic_buf_free(&js);
    relic_buf_free(&back);
    relic_arena_release(&bufs);
    relic_arena_release(&a);
    return 0;
}
