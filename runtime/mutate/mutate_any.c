/* mutate_any.c — relic_mutate_buffer: one entry point over every
 * structure-aware mutator of librelic-mutate, for a fuzzer that is not
 * relic's (a libFuzzer user's LLVMFuzzerCustomMutator, the AFL++ custom
 * mutator library fuzz/afl/relic_afl.c). The format comes by name or from
 * relic_detect; the seed picks the mutator as `relic mutate` does (the tree
 * mutators of GFF and BWM three times in four, the token mutator of the
 * text formats once in four, the tables otherwise) and, one call in four,
 * the invalid mode. Outputs are not validated (RELIC_MUTATE_UNCHECKED): the
 * fuzzer's target is the judge. */
#include <string.h>

#include "bwm.h"
#include "cau.h"
#include "gff.h"
#include "groff.h"
#include "mutate_arena.h"
#include "pid.h"
#include "relic_mutate_formats.h"
#include "tpa.h"
#include "trn.h"

typedef relic_status (*tree_fn)(const uint8_t *in, size_t n, const uint8_t *in2, size_t n2, uint64_t seed,
                                unsigned flags, relic_arena *scratch, relic_buf *out, relic_mutate_result *res,
                                relic_error *err);

/* One format: its tables (tried in order until one loads the input), its
 * tree mutator and its token vocabulary, each possibly absent. */
typedef struct any_row {
    const char *name;
    const relic_mut_format *(*tables[2])(void);
    tree_fn tree;
    const relic_token_vocab *tokens;
} any_row;

static const relic_mut_format *bwm_tables(void) { return &relic_bwm_mutator; }
static const relic_mut_format *gff_tables(void) { return &relic_gff_mutator; }
static const relic_mut_format *groff_tables(void) { return &relic_groff_mutator; }
static const relic_mut_format *trn_tables(void) { return &relic_trn_mutator; }
static const relic_mut_format *tpa_tables(void) { return &relic_tpa_mutator; }
static const relic_mut_format *cau_tables(void) { return &relic_cau_mutator; }
static const relic_mut_format *pid_tables(void) { return &relic_pid_mutator; }

static const any_row rows[] = {
    {"bwm", {bwm_tables, NULL}, relic_bwm_mutate, NULL},
    {"gff", {gff_tables, NULL}, relic_gff_mutate, NULL},
    {"erf", {relic_mutator_erf, relic_mutator_rim}, NULL, NULL},
    {"rim", {relic_mutator_rim, NULL}, NULL, NULL},
    {"trn", {relic_mutator_trn_aswm, trn_tables}, NULL, NULL},
    {"wtd", {relic_mutator_wtd, NULL}, NULL, NULL},
    {"groff", {groff_tables, relic_mutator_groff_szdd}, NULL, NULL},
    {"tpa", {tpa_tables, NULL}, NULL, NULL},
    {"cau", {cau_tables, NULL}, NULL, NULL},
    {"pid", {pid_tables, NULL}, NULL, NULL},
    {"spz", {relic_mutator_spz, NULL}, NULL, NULL},
    {"swp", {relic_mutator_swp, NULL}, NULL, NULL},
    {"tpm", {relic_mutator_tpm, NULL}, NULL, &relic_tokens_tpm},
    {"tri", {relic_mutator_tri, NULL}, NULL, &relic_tokens_tri},
    {"trr", {relic_mutator_trr, NULL}, NULL, &relic_tokens_trr},
};

const char *relic_mutate_buffer_format(const char *format, const uint8_t *data, size_t size)
{
    const char *name = format && format[0] ? format : relic_format_name(relic_detect(data, size, NULL));
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (strcmp(rows[i].name, name) == 0) return rows[i].name;
    return NULL;
}

size_t relic_mutate_buffer(const char *format, uint8_t *data, size_t size, size_t max, const uint8_t *data2,
                           size_t size2, unsigned seed, relic_arena *scratch)
{
    const char *name = relic_mutate_buffer_format(format, data, size);
    if (!name || !data || !scratch || max == 0) return 0;
    const any_row *row = NULL;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0] && !row; i++)
        if (strcmp(rows[i].name, name) == 0) row = &rows[i];
    if (size > max) size = max;
    mut_mark start = mut_arena_mark(scratch);
    /* the output first, so the mutators' rewinds stay above it */
    uint8_t *o = relic_arena_alloc(scratch, max + 1, 16);
    size_t n = 0;
    if (!o) return 0;
    uint64_t s = seed;
    unsigned flags = RELIC_MUTATE_UNCHECKED | (s % 4 == 1 ? RELIC_MUTATE_INVALID : 0u);
    if (data2 && size2 && (s >> 3) % 2) flags |= RELIC_MUTATE_CROSSOVER;
    relic_error err;
    relic_status st = RELIC_E_LIMIT;
    if (row->tokens && (s >> 5) % 4 == 0) {
        st = relic_mutate_tokens(row->tokens, data, size, data2, size2, s, flags & RELIC_MUTATE_CROSSOVER, scratch, o,
                                 max, &n, NULL, &err);
    } else {
        relic_buf out;
        relic_buf_init_fixed(&out, o, max + 1);
        if (row->tree && (s >> 5) % 4 != 3)
            st = row->tree(data, size, data2, size2, s, flags, scratch, &out, NULL, &err);
        for (int k = 0; st != RELIC_OK && k < 2 && row->tables[k]; k++)
            st = relic_mutate(row->tables[k](), data, size, data2, size2, s, flags, scratch, &out, NULL, &err);
        n = st == RELIC_OK && !out.failed && out.size <= max ? out.size : 0;
    }
    if (st != RELIC_OK) n = 0;
    if (n) memcpy(data, o, n);
    mut_arena_rewind(scratch, start);
    return n;
}
