/* fuzz_sample.h — pick a deterministic sample of inputs for a target's
 * expensive oracle (re-deflating a walkmesh, re-encoding ADPCM, LZSS's
 * optimal parse): the same input always makes the same choice, so a crash
 * reproduces, while the cheap oracles run on every input and keep the
 * target fast (issue 18: the slow targets ran at 7-74 executions/s). */
#ifndef RELIC_FUZZ_SAMPLE_H
#define RELIC_FUZZ_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

/* 1 for about one input in `one_in` (a power of two), chosen by an FNV-1a
 * hash of the input's first 4 KiB and its size. */
static inline int fuzz_sampled(const uint8_t *data, size_t size, unsigned one_in)
{
    uint32_t h = 2166136261u ^ (uint32_t)size;
    size_t n = size < 4096 ? size : 4096;
    for (size_t i = 0; i < n; i++) h = (h ^ data[i]) * 16777619u;
    h ^= h >> 15;
    return (h & (one_in - 1)) == 0;
}

#endif
