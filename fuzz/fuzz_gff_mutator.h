/* fuzz_gff_mutator.h — the structure-aware LLVMFuzzerCustomMutator and
 * LLVMFuzzerCustomCrossOver of the GFF targets (fuzz_gff.c, fuzz_gff_typed.c):
 * the GFF tree mutator (relic_gff_mutate, runtime/gff_tree_mutate.c: boundary
 * values, type changes, fields dropped or duplicated, list elements, StructIDs,
 * labels, locstrings, splices from the second input, and for files of a typed
 * FileType changes guided by its typed schema), written back with
 * relic_gff_write_tree. Compiled out with -DRELIC_NO_CUSTOM_MUTATOR
 * (libFuzzer's byte-level mutator). */
#ifndef RELIC_FUZZ_GFF_MUTATOR_H
#define RELIC_FUZZ_GFF_MUTATOR_H

#include <string.h>

#include "relic_mutate_formats.h"

#ifndef RELIC_NO_CUSTOM_MUTATOR
/* One call in 8, and every input that does not validate, goes to
 * libFuzzer's byte-level mutator; one in 8 breaks a header offset or count
 * after the tree is written (invalid mode); one in 8 gives the written tree
 * to the byte-level mutator too (a valid structure with a local byte
 * change reaches the validator's deeper checks). Deterministic for a
 * seed. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    if (seed % 8 != 0) {
        relic_buf out;
        relic_error err;
        relic_buf_init(&out, max_size);
        unsigned flags = RELIC_MUTATE_UNCHECKED | (seed % 8 == 1 ? RELIC_MUTATE_INVALID : 0u);
        if (relic_gff_mutate(data, size, NULL, 0, seed, flags, &out, NULL, &err) == RELIC_OK && out.size <= max_size) {
            size_t n = out.size;
            memcpy(data, out.data, n);
            relic_buf_free(&out);
            return seed % 8 == 2 ? LLVMFuzzerMutate(data, n, max_size) : n;
        }
        relic_buf_free(&out);
    }
    return LLVMFuzzerMutate(data, size, max_size);
}

/* A struct, list element or field of the second input spliced into the
 * first; when either does not validate, the first's prefix and the
 * second's suffix. */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed)
{
    relic_buf b;
    relic_error err;
    relic_buf_init(&b, max_out_size);
    if (relic_gff_mutate(data1, size1, data2, size2, seed, RELIC_MUTATE_UNCHECKED | RELIC_MUTATE_CROSSOVER, &b,
                         NULL, &err) == RELIC_OK && b.size <= max_out_size) {
        size_t n = b.size;
        memcpy(out, b.data, n);
        relic_buf_free(&b);
        return n;
    }
    relic_buf_free(&b);
    return relic_mutate_splice_bytes(data1, size1, data2, size2, out, max_out_size, seed);
}
#endif
#endif
