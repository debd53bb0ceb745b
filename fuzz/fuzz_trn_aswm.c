/* fuzz_trn_aswm.c — libFuzzer target for the decompressed ASWM walkmesh:
 * the zero-copy validator (runtime/formats/nwn2/trn_aswm_view.c) against the model path
 * (the generated decoder of schema/nwn2/trn.schema's aswm plus
 * runtime/formats/nwn2/trn_check.c), fed the same bytes as a stored zlib stream.
 * Oracles: no crash; both accept or both reject; an accepted walkmesh
 * re-serialises (runtime/formats/nwn2/trn_aswm_write.c) to the input bytes.
 * Speed (issue 18: 7 executions/s): the model path reads the bytes directly
 * (relic_trn_packet_aswm_decode_bytes); the trip through a stored zlib
 * stream and relic_trn_packet_aswm_decode runs for one input in 16
 * (fuzz_sample.h), TRN walkmeshes over 64 KiB are skipped, per-run
 * memory comes from buffers mapped once, and the mutator stores the
 * walkmeshes it changes instead of deflating them (max_len 16384). An input
 * that is a whole TRN/TRX file (the seeds: ../shared/corpus/trn, trx) has
 * its first ASWM inflated and checked the same way.
 * Whole TRN/TRX inputs are mutated structure-aware (fuzz/fuzz_mutator.h
 * with relic_mutator_trn_aswm, runtime/mutate/mutate_trn.c: the container's
 * fields and every inflated walkmesh's vertices, edges, triangles, tiles,
 * path tables and islands, deflated again); raw walkmesh inputs and files
 * that do not load fall back to libFuzzer's byte-level mutator.
 * Build and run: make fuzz (or build-fuzz/fuzz_trn_aswm -max_total_time=60). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "relic_codec.h"
#include "relic_trn.h"
#include "fuzz_sample.h"

#define FUZZ_MUTATORS relic_mutator_trn_aswm
/* one mutator call and one cross-over in four structure-aware (seed bits 5-6):
 * at seven in eight, they were nine tenths of the target's time (perf) */
#define FUZZ_STRUCTURED_TURN(seed) (((seed) >> 5) % 4 == 0)
#define FUZZ_CROSSOVER_TURN(seed) (((seed) >> 5) % 4 == 0)
#include "fuzz_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* walkmeshes of real files inflate to 10 KB-4.3 MB; past 64 KiB a run is
 * too slow to explore (a TRN of max_len holds at most about 48 KiB deflated) */
#define WALKMESH_MAX (64u << 10)

/* Per-run memory from buffers mapped once and reused by every run: heap
 * arenas and buffers this large are fresh mappings under ASan each time, and
 * their page faults took a third of the target's time (perf); mapped, not
 * static, so LeakSanitizer does not scan them as globals. */
#define TRN_MEM (16u << 20)
#define MESH_MEM (32u << 20)
static uint8_t *trn_mem, *mesh_mem, *raw_mem;

static void map_buffers(void)
{
    if (trn_mem) return;
    void *p = mmap(NULL, TRN_MEM + MESH_MEM + WALKMESH_MAX + 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) abort();
    trn_mem = p;
    mesh_mem = trn_mem + TRN_MEM;
    raw_mem = mesh_mem + MESH_MEM;
}

static void count(void *ctx, const relic_error *e)
{
    (void)e;
    (*(unsigned *)ctx)++;
}

static void walkmesh(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_trn_view tv;
    relic_error err;
    map_buffers();
    if (size >= 4 && memcmp(data, "NWN2", 4) == 0) {
        relic_arena a;
        relic_trn_file m;
        relic_arena_init_buffer(&a, trn_mem, TRN_MEM);
        if (relic_trn_validate(data, size, &tv, &err) == RELIC_OK && relic_trn_decode(&tv, &a, &m, &err) == RELIC_OK)
            for (size_t i = 0; i < m.packets_count; i++) {
                const relic_trn_packet *p = &m.packets[i];
                if (p->type != RELIC_TRN_PACKET_TYPE_ASWM || p->uncompressed_size > WALKMESH_MAX) continue;
                if (relic_codec_zlib_decode(p->aswm, p->aswm_count, raw_mem, p->uncompressed_size, &a, &err) == RELIC_OK)
                    walkmesh(raw_mem, p->uncompressed_size);
                break;
            }
        return 0;
    }
    walkmesh(data, size);
    return 0;
}

static void walkmesh(const uint8_t *data, size_t size)
{
    relic_arena a;
    relic_error err;
    relic_trn_aswm_view v;
    relic_arena_init_buffer(&a, mesh_mem, MESH_MEM);
    int view_ok = relic_trn_aswm_view_validate(data, size, &a, &v, &err) == RELIC_OK;
    if (!view_ok && err.message[0] == 0) abort();
    relic_buf z;
    relic_buf_init(&z, 0);
    relic_trn_aswm w;
    unsigned seen = 0;
    int decoded;
    if (fuzz_sampled(data, size, 16)) {
        /* the packet path: a stored zlib stream inflated by relic_trn_packet_aswm_decode */
        if (relic_codec_zlib_encode(data, size, 0, &a, &z, &err) != RELIC_OK) abort();
        relic_trn_packet p;
        memset(&p, 0, sizeof p);
        p.type = RELIC_TRN_PACKET_TYPE_ASWM;
        p.aswm = z.data;
        p.aswm_count = z.size;
        p.uncompressed_size = (uint32_t)size;
        decoded = relic_trn_packet_aswm_decode(&p, &a, &w, &err) == RELIC_OK;
    } else {
        decoded = relic_trn_packet_aswm_decode_bytes(data, size, &a, &w, &err) == RELIC_OK;
    }
    int model_ok = decoded && relic_trn_check_aswm(&w, "f", 0, count, &seen) == 0;
    if (view_ok != model_ok) abort();
    if (model_ok) {
        relic_buf out;
        relic_buf_init_arena(&out, &a, 0);
        if (relic_trn_aswm_write(&w, &out, &err) != RELIC_OK || out.size != size || memcmp(out.data, data, size) != 0) abort();
        relic_trn_check_aswm_strict(&w, "f", 0, &a, count, &seen);
    }
    relic_buf_free(&z);
}
