/* mutate_scratch.h — the scratch arena the mutator tests hand to the
 * mutators (relic_mutate and the others take the caller's arena): a heap
 * arena released at the next call, so a test of thousands of mutations
 * holds one call's memory at a time. Not for two calls in one expression. */
#ifndef RELIC_TEST_MUTATE_SCRATCH_H
#define RELIC_TEST_MUTATE_SCRATCH_H

#include "relic.h"

static inline relic_arena *test_scratch(void)
{
    static relic_arena a;
    relic_arena_release(&a);
    relic_arena_init_heap(&a, 0);
    return &a;
}

#endif
