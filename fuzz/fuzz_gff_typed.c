/* fuzz_gff_typed.c — libFuzzer target for the typed GFF files
 * (runtime/formats/aurora/gff_schema.c over the tables of schema/aurora/{are,git,gic,ifo,
 * itp}.schema): every file relic_gff_open accepts is checked against every
 * typed schema (whatever its FileType, so all tables meet all shapes) and
 * paired with itself; each documented field of the top-level struct is read
 * through relic_gff_typed_get. Oracles: the sanitizers; a problem always
 * carries a message and a path; a getter either succeeds or fills err.
 * The pairing, whose cost is each schema list times each top-level field,
 * twice, and which never finds a problem in a file paired with itself,
 * runs for one input in FUZZ_PAIRS_ONE_IN (fuzz_sample.h).
 * Seeds: ../shared/corpus/gff. Build and run: make fuzz. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdlib.h>
#include <string.h>

#include "relic_gff_schema.h"
#include "fuzz_sample.h"
#include "fuzz_scratch.h"

#ifndef FUZZ_PAIRS_ONE_IN
#define FUZZ_PAIRS_ONE_IN 8
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Mutation: the GFF tree mutator, whose typed step changes documented
 * fields, types, StructIDs and absent fields of ARE/GIT/GIC/IFO/ITP files
 * (runtime/mutate/gff_schema_mutate.c); -DRELIC_NO_CUSTOM_MUTATOR leaves
 * libFuzzer's byte-level mutator. One mutator call and one cross-over in two
 * (seed bit 5): each reads, changes and writes a whole tree, and at seven in
 * eight the mutator was a third of the target's time (issue 18, perf). */
#define FUZZ_STRUCTURED_TURN(seed) (((seed) >> 5) % 2 == 0)
#define FUZZ_CROSSOVER_TURN(seed) (((seed) >> 5) % 2 == 0)
#include "fuzz_gff_mutator.h"

static void on_problem(void *ctx, const relic_error *err)
{
    (void)ctx;
    if (err->message[0] == 0 || err->path[0] == 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const formats[] = {"are", "git", "gic", "ifo", "itp"};
    relic_arena a;
    relic_gff_doc d;
    relic_error err;
    fuzz_scratch_arena(&a, 0, (size_t)256 << 20);
    if (relic_gff_open(data, size, &a, NULL, NULL, &d, &err) == RELIC_OK) {
        int pairs = fuzz_sampled(data, size, FUZZ_PAIRS_ONE_IN);
        for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++) {
            const relic_gff_schema *sc = relic_gff_schema_named(formats[k]);
            relic_problems pr = {on_problem, NULL, 0, 0};
            if (!sc) abort();
            relic_gff_schema_check(sc, &d, &pr);
            if (pairs) relic_gff_schema_check_pairs(sc, &d, &d, &pr);
            for (uint32_t i = 0; i < sc->root->field_count; i++) {
                union {
                    uint64_t u;
                    double f;
                    relic_bytes b;
                    relic_gff_locstring l;
                    relic_gff_list li;
                    float v[4];
                } out;
                relic_error_clear(&err);
                if (relic_gff_typed_get(&d, 0, sc->root->fields[i].label, sc->root->fields[i].type, &out, &err) != RELIC_OK &&
                    err.message[0] == 0)
                    abort();
            }
        }
    }
    relic_arena_release(&a);
    return 0;
}
