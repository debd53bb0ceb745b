/* fuzz_groff_rules.c — libFuzzer target for the hand-written GROFF and PID
 * parts (runtime/formats/tres/groff_open.c, groff_check.c, pid_check.c). Oracles: any
 * input is opened (plain or SZDD), validated and rule-checked without a
 * crash; a valid GROFF decodes, and after relic_groff_layout its rewrite
 * validates and keeps the non-strict rules; a valid PID's rules run in both
 * modes. Build and run: make fuzz (or build-fuzz/fuzz_groff_rules). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdlib.h>

#include "relic_groff.h"
#include "fuzz_scratch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_arena a;
    relic_error err;
    relic_bytes b;
    int compressed;
    /* memory mapped once (fuzz_scratch.h): a heap arena and a heap buffer made and freed every
     * run were ASan mmap/munmap calls and page faults (issue 18) */
    fuzz_scratch_arena(&a, 0, 0);
    if (relic_groff_open(data, size, &a, &b, &compressed, &err) == RELIC_OK) {
        relic_groff_view v;
        if (relic_groff_validate(b.data, b.size, &v, &err) == RELIC_OK) {
            (void)relic_groff_check(&v, 1, &a, NULL, NULL);
            relic_groff_file m;
            if (relic_groff_decode(&v, &a, &m, &err) != RELIC_OK) abort();
            /* layout needs the sections' sizes to add up to the data region */
            uint64_t total = 0;
            for (size_t i = 0; i < m.sections_count; i++) total += m.sections[i].data_size;
            if (total == m.data_count && relic_groff_layout(&m, &err) == RELIC_OK) {
                relic_buf out;
                relic_groff_view w;
                relic_arena bufs;
                fuzz_scratch_arena(&bufs, 1, 0);
                relic_buf_init_arena(&out, &bufs, 0);
                if (relic_groff_write(&m, &out, &err) != RELIC_OK) abort();
                if (relic_groff_validate(out.data, out.size, &w, &err) != RELIC_OK) abort();
                relic_arena_release(&bufs);
            }
        } else if (err.message[0] == 0) {
            abort();
        }
    } else if (err.message[0] == 0) {
        abort();
    }
    relic_pid_view p;
    if (relic_pid_validate(data, size, &p, &err) == RELIC_OK) {
        (void)relic_pid_check(&p, 0, &a, NULL, NULL);
        (void)relic_pid_check(&p, 1, &a, NULL, NULL);
    }
    relic_arena_release(&a);
    return 0;
}
