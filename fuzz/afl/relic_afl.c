/* relic_afl.c — librelic-afl.so: relic's structure-aware mutators as an
 * AFL++ custom mutator library (AFL++ docs/custom_mutators.md; the hooks
 * are declared here with plain C types, since Debian's afl++ package ships
 * no headers). Use:
 *   AFL_CUSTOM_MUTATOR_LIBRARY=/path/librelic-afl.so [RELIC_AFL_FORMAT=bwm] afl-fuzz -i seeds -o out -- ./reader @@
 * RELIC_AFL_FORMAT names the format (relic_mutate_buffer_format's names);
 * unset, each queue entry's format is detected from its bytes. Every
 * mutation is relic_mutate_buffer (runtime/mutate/mutate_any.c) with AFL++'s
 * splice partner as the second input; an entry relic has no mutator for,
 * or no mutant of, gets one byte changed instead, so every call executes
 * something. afl_custom_describe names the mutator in queue file names
 * ("relic-bwm"), which is how a user (and tests/afl_test.sh) sees the
 * custom stage at work. All memory is allocated once at init: the output
 * buffer (AFL++'s 1 MiB MAX_FILE) and the mutators' scratch arena. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relic_mutate_formats.h"

/* AFL++'s MAX_FILE: the largest max_size it passes */
#define RELIC_AFL_MAX ((size_t)1 << 20)
#define RELIC_AFL_SCRATCH ((size_t)64 << 20)

typedef struct relic_afl {
    uint32_t rng;
    char format[16]; /* RELIC_AFL_FORMAT, or "" */
    char describe[32];
    uint8_t *out; /* RELIC_AFL_MAX bytes */
    uint8_t *scratch_mem;
    relic_arena scratch;
} relic_afl;

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf,
                       size_t add_buf_size, size_t max_size);
const char *afl_custom_describe(void *data, size_t max_description_len);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed)
{
    (void)afl;
    relic_afl *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->rng = seed ? seed : 1u;
    const char *f = getenv("RELIC_AFL_FORMAT");
    if (f && f[0]) {
        if (!relic_mutate_buffer_format(f, NULL, 0)) {
            fprintf(stderr, "relic-afl: RELIC_AFL_FORMAT=%s: relic has no mutator for this format\n", f);
            free(m);
            return NULL;
        }
        snprintf(m->format, sizeof m->format, "%s", f);
    }
    m->out = malloc(RELIC_AFL_MAX + 1);
    m->scratch_mem = malloc(RELIC_AFL_SCRATCH);
    if (!m->out || !m->scratch_mem) {
        afl_custom_deinit(m);
        return NULL;
    }
    snprintf(m->describe, sizeof m->describe, "relic");
    return m;
}

/* xorshift32: the seeds relic_mutate_buffer gets */
static uint32_t next(relic_afl *m)
{
    uint32_t x = m->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return m->rng = x;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf,
                       size_t add_buf_size, size_t max_size)
{
    relic_afl *m = data;
    size_t max = max_size < RELIC_AFL_MAX ? max_size : RELIC_AFL_MAX;
    size_t n = buf_size < max ? buf_size : max;
    *out_buf = buf; /* never NULL: fatal in AFL++ 4.04c */
    if (n == 0) return 0;
    memcpy(m->out, buf, n);
    const char *name = relic_mutate_buffer_format(m->format, m->out, n);
    size_t got = 0;
    if (name) {
        relic_arena_init_buffer(&m->scratch, m->scratch_mem, RELIC_AFL_SCRATCH);
        got = relic_mutate_buffer(name, m->out, n, max, add_buf, add_buf_size, next(m), &m->scratch);
    }
    if (got) {
        snprintf(m->describe, sizeof m->describe, "relic-%s", name);
    } else {
        /* no structure-aware mutant: one byte changed, so the call still runs */
        memcpy(m->out, buf, n);
        m->out[next(m) % n] ^= (uint8_t)(1u + next(m) % 255u);
        got = n;
        snprintf(m->describe, sizeof m->describe, "relic-byte");
    }
    *out_buf = m->out;
    return got;
}

const char *afl_custom_describe(void *data, size_t max_description_len)
{
    relic_afl *m = data;
    if (max_description_len < sizeof m->describe) m->describe[max_description_len] = 0;
    return m->describe;
}

void afl_custom_deinit(void *data)
{
    relic_afl *m = data;
    if (!m) return;
    free(m->out);
    free(m->scratch_mem);
    free(m);
}
