/* fuzz_wtd_encode.c — libFuzzer target for the WTD encoder round trip
 * (runtime/formats/tres/wtd_forward.c, wtd_encode.c, wtd_encode_grid.c, wtd_mesh.c):
 * the input picks a grid size (1..32 by 1..32, or 1..64 by 1..64 for one
 * input in 4: the encoder's cost grows with the grid, and a 64 x 64 grid
 * adds one level to the same code; padded to a power of two),
 * a threshold and the heights (16-bit pairs, sign-extended and scaled by
 * a shift). Oracles: the encoder succeeds; relic's reader accepts the file
 * and it decodes to the padded grid exactly when no threshold is set, and
 * to within the reported maximum error when one is; the node count is 1 + 4
 * x significant nodes; the leaf triangulation builds.
 * Build and run: make fuzz (or build-fuzz/fuzz_wtd_encode -max_total_time=60). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdlib.h>
#include <string.h>

#include "relic_wtd.h"
#include "fuzz_scratch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SIDE_MAX 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4) return 0;
    const uint32_t side = (data[0] & 0xC0) == 0xC0 ? SIDE_MAX : SIDE_MAX / 2; /* bits the width leaves */
    const uint32_t w = 1 + data[0] % side, h = 1 + data[1] % side;
    const uint32_t threshold = data[2] & 0x80 ? data[2] & 0x7F : 0;
    const unsigned shift = data[3] % 10;
    data += 4;
    size -= 4;
    static int32_t grid[SIDE_MAX * SIDE_MAX], padded[SIDE_MAX * SIDE_MAX];
    for (uint32_t i = 0; i < w * h; i++) {
        int16_t v = 0;
        if (size >= 2 * (size_t)(i + 1)) v = (int16_t)(data[2 * i] | data[2 * i + 1] << 8);
        grid[i] = (int32_t)v * (1 << shift);
    }
    const uint32_t n = relic_wtd_grid_size(w, h);
    relic_wtd_pad(grid, w, h, padded, n);
    relic_wtd_mapping m;
    relic_wtd_mapping_init(&m, n, -10, 20, 0.25, 0.01);
    relic_arena a;
    fuzz_scratch_arena(&a, 0, (size_t)64 << 20);
    relic_arena bufs; /* the file in slot 1: a heap buffer freed every run was page faults */
    fuzz_scratch_arena(&bufs, 1, 0);
    relic_buf out;
    relic_buf_init_arena(&out, &bufs, 0);
    relic_error err;
    relic_wtd_encode_stats st;
    relic_wtd_encode_options opt = {threshold, w, h};
    if (relic_wtd_encode(padded, n, &m, &opt, &a, &out, &st, &err) != RELIC_OK) abort();
    relic_wtd_terrain t;
    if (relic_wtd_decode_terrain(out.data, out.size, &a, &t, &err) != RELIC_OK) abort();
    if (t.header.node_count != 1 + 4 * t.stats.significant) abort();
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            int64_t d = (int64_t)t.heights[(size_t)y * n + x] - grid[(size_t)y * w + x];
            if (d < 0) d = -d;
            if (st.dropped == 0 ? d != 0 : d > st.max_error) abort();
        }
    relic_wtd_mesh mesh;
    if (relic_wtd_mesh_build(out.data, out.size, &t, &a, &mesh, &err) != RELIC_OK) abort();
    relic_arena_release(&bufs);
    relic_arena_release(&a);
    return 0;
}
