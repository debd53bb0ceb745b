/* fuzz_tri.c — libFuzzer target for the TRI terrain triangulation reader
 * (runtime/formats/tres/tri_lexer.re) and writer (runtime/formats/tres/tri_write.c). Oracles: no
 * read out of bounds (ASan), no undefined arithmetic (UBSan), every
 * failure carries a "file:line:col" message, memory stays within the
 * arena, and what was read writes out and reads back to the same mesh.
 * Build and run: make fuzz (or build-fuzz/fuzz_tri -max_total_time=60). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdlib.h>
#include <string.h>

#include "relic_tri.h"
#include "fuzz_scratch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Structure-aware LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver
 * (fuzz_mutator.h) over relic_mutator_tri; -DRELIC_NO_CUSTOM_MUTATOR leaves libFuzzer's
 * byte-level mutator. */
#define FUZZ_MUTATORS relic_mutator_tri
#include "fuzz_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_arena a;
    relic_tri_mesh m, m2;
    relic_error err;
    fuzz_scratch_arena(&a, 0, (size_t)64 << 20);
    relic_status st = relic_tri_parse("f.tri", data, size, &a, &m, &err);
    if (st != RELIC_OK && (err.message[0] == 0 || strncmp(err.message, "f.tri:", 6) != 0) && st != RELIC_E_NOMEM) abort();
    if (st == RELIC_OK) {
        relic_buf out;
        relic_buf_init(&out, 0);
        if (relic_tri_write(&m, &out, &err) != RELIC_OK) abort();
        if (relic_tri_parse(NULL, out.data, out.size, &a, &m2, &err) != RELIC_OK) abort();
        if (m2.vertex_count != m.vertex_count || m2.triangle_count != m.triangle_count) abort();
        if (m.triangle_count && memcmp(m.triangles, m2.triangles, sizeof(uint32_t[3]) * m.triangle_count)) abort();
        for (uint32_t i = 0; i < m.vertex_count; i++)
            for (int k = 0; k < 3; k++)
                if (m.vertices[i][k] != m2.vertices[i][k]) abort();
        relic_buf_free(&out);
    }
    relic_arena_release(&a);
    return 0;
}
