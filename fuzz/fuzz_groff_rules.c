/* fuzz_groff_rules.c — libFuzzer target for the hand-written GROFF and PID
 * parts (runtime/formats/tres/groff_open.c, groff_check.c, pid_check.c). Oracles: any
 * input is opened (plain or SZDD), validated and rule-checked without a
 * crash; a valid GROFF decodes, and after relic_groff_layout its rewrite
 * validates and keeps the non-strict rules; a valid PID's rules run in both
 * modes. Build and run: make fuzz (or build-fuzz/fuzz_groff_rules). */
#include <stdlib.h>

#include "relic_groff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_arena a;
    relic_error err;
    relic_bytes b;
    int compressed;
    relic_arena_init_heap(&a, 256u << 20);
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
                relic_buf_init(&out, 0);
                if (relic_groff_write(&m, &out, &err) != RELIC_OK) abort();
                if (relic_groff_validate(out.data, out.size, &w, &err) != RELIC_OK) abort();
                relic_buf_free(&out);
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
