/* fuzz_tpm.c — libFuzzer target for the TPM reader (runtime/formats/tres/tpm_lexer.re),
 * writer (runtime/formats/tres/tpm_write.c), JSON and OBJ output. Oracles: every
 * rejection carries a "FILE:LINE:COL: " message and an offset inside the
 * input; every accepted model writes, and the written text reads back to an
 * equal model (read -> write -> read identity) whose text is the same again.
 * Build and run: make fuzz (or build-fuzz/fuzz_tpm -max_total_time=60). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h, through fuzz_mutator.h) */
#include <stdlib.h>
#include <string.h>

#include "relic_tpm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Structure-aware LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver
 * (fuzz_mutator.h) over relic_mutator_tpm, and 7 calls in 8 first to the
 * token-level mutator over relic_tokens_tpm (the lexer's spellings the
 * writer never prints; also about 8 times cheaper than a parse and a
 * write); -DRELIC_NO_CUSTOM_MUTATOR leaves libFuzzer's byte-level mutator. */
#define FUZZ_MUTATORS relic_mutator_tpm
#define FUZZ_TOKENS relic_tokens_tpm
#define FUZZ_TOKEN_SHARE 7
#define FUZZ_BYTE_SHARE 4
#define FUZZ_STACKED 1
#include "fuzz_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_arena a;
    relic_error err;
    relic_tpm_file m, back;
    relic_arena_init_heap(&a, 64u << 20);
    relic_status st = relic_tpm_parse("fuzz.tpm", data, size, &a, &m, &err);
    if (st != RELIC_OK) {
        if (strncmp(err.message, "fuzz.tpm:", 9) != 0 && st != RELIC_E_NOMEM && st != RELIC_E_LIMIT) abort();
        if (err.offset > size) abort();
        relic_arena_release(&a);
        return 0;
    }
    relic_buf text, again, other;
    relic_buf_init(&text, 0);
    relic_buf_init(&again, 0);
    relic_buf_init(&other, 0);
    if (relic_tpm_write(&m, &text, &err) != RELIC_OK) {
        relic_error_print(stderr, "write", &err);
        abort();
    }
    if (relic_tpm_parse("written.tpm", text.data, text.size, &a, &back, &err) != RELIC_OK) {
        fprintf(stderr, "%s\n", err.message);
        abort();
    }
    if (!relic_tpm_equal(&m, &back)) abort();
    if (relic_tpm_write(&back, &again, &err) != RELIC_OK || again.size != text.size || (text.size && memcmp(again.data, text.data, text.size)))
        abort();
    relic_tpm_json(&m, &other);
    if (relic_tpm_to_obj(&m, &other, &err) != RELIC_OK) abort();
    relic_buf_free(&text);
    relic_buf_free(&again);
    relic_buf_free(&other);
    relic_arena_release(&a);
    return 0;
}
