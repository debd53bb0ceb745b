/* fuzz_mutator.h — the structure-aware LLVMFuzzerCustomMutator and
 * LLVMFuzzerCustomCrossOver of the hand-written targets whose format has a
 * relic_mut_format (relic_mutate_formats.h: ERF/RIM, WTD, TPM, TRI, TRR,
 * TRN/TRX walkmeshes, SZDD GROFF) or a tree mutator (GFF: relic_gff_mutate),
 * the same as the generated targets' (fuzz/gen_<f>.c): decode,
 * change one to three fields, arrays or sub-structures, write with the
 * format's writer. One call in FUZZ_BYTE_SHARE (default 8), and every
 * input no listed mutator loads, goes to libFuzzer's byte-level mutator
 * (fuzz_tpm sets 4: the writers print one normalised form, so the
 * lexers' other spellings come from byte-level changes); one in
 * FUZZ_INVALID_SHARE (default 4) uses the invalid mode (values outside
 * their ranges, stale fields); with
 * FUZZ_STACKED 1, one in 8 gives the structure-aware output to the
 * byte-level mutator too. Deterministic
 * for a seed. A target includes this after defining FUZZ_MUTATORS, a
 * comma-separated list of functions returning a const relic_mut_format *
 * (tried in order), or FUZZ_TREE_MUTATOR, a function of relic_gff_mutate's
 * signature (in, in2, seed, flags -> out). A text format may also define FUZZ_TOKENS, a
 * relic_token_vocab (relic_tokens_tpm, _tri, _trr): then FUZZ_TOKEN_SHARE
 * calls in 8 (default 4) of the mutator and of the cross-over go first
 * to the token-level mutator (relic_mutate_tokens: respelled
 * numbers, keyword case, blanks and line ends, comments, strings, lines
 * moved or taken from the other input), which also takes inputs the
 * reader rejects.
 * The mutators' memory is fuzz_scratch.h's mapped arenas
 * (fuzz_mutator_arenas): no heap arena per call (a target includes this
 * after defining _DEFAULT_SOURCE).
 * Compiled out with -DRELIC_NO_CUSTOM_MUTATOR (libFuzzer's byte level). */
#ifndef RELIC_FUZZ_MUTATOR_H
#define RELIC_FUZZ_MUTATOR_H

#ifndef RELIC_NO_CUSTOM_MUTATOR
#include <string.h>

#include "fuzz_scratch.h"
#include "relic_mutate_formats.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed);

#ifdef FUZZ_MUTATORS
static const relic_mut_format *(*const fuzz_mutators[])(void) = {FUZZ_MUTATORS};
#endif

/* The tree mutator, or relic_mutate with each listed format in turn; the
 * output's size, or 0. */
static size_t fuzz_structured(const uint8_t *d1, size_t n1, const uint8_t *d2, size_t n2, unsigned seed,
                              unsigned flags, uint8_t *out, size_t max)
{
#ifdef FUZZ_TREE_MUTATOR
    size_t count = 1;
#else
    size_t count = sizeof fuzz_mutators / sizeof fuzz_mutators[0];
#endif
    for (size_t k = 0; k < count; k++) {
        relic_arena scratch, out_arena;
        relic_buf b;
        relic_error err;
        fuzz_mutator_arenas(&scratch, &out_arena, &b, max);
#ifdef FUZZ_TREE_MUTATOR
        relic_status st = FUZZ_TREE_MUTATOR(d1, n1, d2, n2, seed, flags, &scratch, &b, NULL, &err);
#else
        relic_status st = relic_mutate(fuzz_mutators[k](), d1, n1, d2, n2, seed, flags, &scratch, &b, NULL, &err);
#endif
        size_t n = st == RELIC_OK && b.size <= max && b.size ? b.size : 0;
        if (n) memcpy(out, b.data, n);
        if (n) return n;
    }
    return 0;
}

#ifndef FUZZ_BYTE_SHARE
#define FUZZ_BYTE_SHARE 8
#endif
#ifndef FUZZ_STACKED
#define FUZZ_STACKED 0
#endif
#ifndef FUZZ_INVALID_SHARE
#define FUZZ_INVALID_SHARE 4
#endif
/* Which mutator and cross-over calls try the structure-aware path: by
 * default every cross-over and the calls FUZZ_BYTE_SHARE leaves. A target
 * whose structure-aware calls are costly (fuzz_trn_aswm: inflating and
 * re-packing walkmeshes, and libFuzzer chains up to five mutations per run)
 * defines both to take a share from seed bits the other choices do not use. */
#ifndef FUZZ_STRUCTURED_TURN
#define FUZZ_STRUCTURED_TURN(seed) ((seed) % FUZZ_BYTE_SHARE != 0)
#endif
#ifndef FUZZ_CROSSOVER_TURN
#define FUZZ_CROSSOVER_TURN(seed) 1
#endif

#ifdef FUZZ_TOKENS
#ifndef FUZZ_TOKEN_SHARE
#define FUZZ_TOKEN_SHARE 4
#endif
/* relic_mutate_tokens over FUZZ_TOKENS's vocabulary; the output's size, or
 * 0 when it made nothing (out of memory). out may be d1. */
static size_t fuzz_tokens(const uint8_t *d1, size_t n1, const uint8_t *d2, size_t n2, unsigned seed, unsigned flags,
                          uint8_t *out, size_t max)
{
    size_t n = 0;
    relic_error err;
    relic_arena scratch;
    fuzz_scratch_arena(&scratch, 4, 0);
    if (relic_mutate_tokens(&FUZZ_TOKENS, d1, n1, d2, n2, seed, flags, &scratch, out, max, &n, NULL, &err) != RELIC_OK)
        return 0;
    return n;
}
/* Whether this call goes to the token mutator: FUZZ_TOKEN_SHARE in 8,
 * drawn from bits of the seed the other choices do not use. */
#define FUZZ_TOKEN_TURN(seed) (((seed) >> 11) % 8 < FUZZ_TOKEN_SHARE)
#endif

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
#ifdef FUZZ_TOKENS
    if (FUZZ_TOKEN_TURN(seed)) {
        size_t n = fuzz_tokens(data, size, NULL, 0, seed, 0, data, max_size);
        if (n || !size) return FUZZ_STACKED && seed % 8 == 3 ? LLVMFuzzerMutate(data, n, max_size) : n;
    }
#endif
    if (FUZZ_STRUCTURED_TURN(seed)) {
        unsigned flags = RELIC_MUTATE_UNCHECKED | (seed % FUZZ_INVALID_SHARE == 1 ? RELIC_MUTATE_INVALID : 0u);
        size_t n = fuzz_structured(data, size, NULL, 0, seed, flags, data, max_size);
        if (n) return FUZZ_STACKED && seed % 8 == 3 ? LLVMFuzzerMutate(data, n, max_size) : n;
    }
    return LLVMFuzzerMutate(data, size, max_size);
}

/* Splice a struct, an array element or a whole array of the second input
 * into the first; when either does not load, the first's prefix and the
 * second's suffix. */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed)
{
#ifdef FUZZ_TOKENS
    if (FUZZ_TOKEN_TURN(seed)) {
        size_t n = fuzz_tokens(data1, size1, data2, size2, seed, RELIC_MUTATE_CROSSOVER, out, max_out_size);
        if (n) return n;
    }
#endif
    size_t n = FUZZ_CROSSOVER_TURN(seed) ? fuzz_structured(data1, size1, data2, size2, seed,
                                                           RELIC_MUTATE_UNCHECKED | RELIC_MUTATE_CROSSOVER, out, max_out_size)
                                         : 0;
    if (n) return n;
    return relic_mutate_splice_bytes(data1, size1, data2, size2, out, max_out_size, seed);
}
#endif
#endif
