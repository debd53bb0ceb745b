/* test_fuzz_regressions.c — replays the inputs kept in fuzz/regressions/
 * <target>/ (each a crash the fuzz campaign found and that was fixed, issue
 * 8 "Campaign") through the same entry point as the libFuzzer target, with
 * no clang or libFuzzer needed: the target's source is compiled in here
 * with LLVMFuzzerTestOneInput renamed, so `make check-unit` and, under
 * ASan+UBSan, `make check-asan` run every kept input once. A target's
 * oracles abort() on failure, which fails this test. The check-fuzz step
 * of the Makefile also replays them with the libFuzzer binaries. A new
 * regression directory gets its target included below and a test of its
 * own (structure-aware mutators, which need libFuzzer, are compiled out:
 * RELIC_NO_CUSTOM_MUTATOR is defined before the first target). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS of fuzz_trn_aswm.c */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

/* the targets' structure-aware mutators need libFuzzer: compiled out */
#define RELIC_NO_CUSTOM_MUTATOR

#define LLVMFuzzerTestOneInput fuzz_grf_sections_one
#include "../fuzz/fuzz_grf_sections.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_gff_typed_one
#include "../fuzz/fuzz_gff_typed.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_gff_json_one
#include "../fuzz/fuzz_gff_json.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_trr_one
#include "../fuzz/fuzz_trr.c"
#undef LLVMFuzzerTestOneInput
#undef FUZZ_TREE_MUTATOR /* fuzz_gff_typed's; fuzz_bwm names its own */
#define LLVMFuzzerTestOneInput fuzz_bwm_one
#include "../fuzz/fuzz_bwm.c"
#undef LLVMFuzzerTestOneInput
#undef FUZZ_MUTATORS
#undef FUZZ_STRUCTURED_TURN /* each structure-aware target sets its own share */
#undef FUZZ_CROSSOVER_TURN
#define LLVMFuzzerTestOneInput fuzz_erf_one
#include "../fuzz/fuzz_erf.c"
#undef LLVMFuzzerTestOneInput
#undef FUZZ_MUTATORS
#undef FUZZ_STRUCTURED_TURN
#undef FUZZ_CROSSOVER_TURN
#define count fuzz_trn_aswm_count /* a name fuzz_bwm.c also uses */
#define LLVMFuzzerTestOneInput fuzz_trn_aswm_one
#include "../fuzz/fuzz_trn_aswm.c"
#undef LLVMFuzzerTestOneInput
#undef count
#define LLVMFuzzerTestOneInput fuzz_adpcm_one
#include "../fuzz/fuzz_adpcm.c"
#undef LLVMFuzzerTestOneInput
#undef FUZZ_TREE_MUTATOR
#undef FUZZ_MUTATORS
#undef FUZZ_STRUCTURED_TURN
#undef FUZZ_CROSSOVER_TURN
/* every kept input through every oracle: the fuzzer runs fuzz_gff's JSON ones on a sample */
#define FUZZ_JSON_ONE_IN 1
#define LLVMFuzzerTestOneInput fuzz_gff_one
#include "../fuzz/fuzz_gff.c"
#undef LLVMFuzzerTestOneInput
#undef FUZZ_MUTATORS
#undef FUZZ_STRUCTURED_TURN
#undef FUZZ_CROSSOVER_TURN
#define LLVMFuzzerTestOneInput fuzz_wtd_one
#include "../fuzz/fuzz_wtd.c"
#undef LLVMFuzzerTestOneInput

typedef int (*fuzz_entry)(const uint8_t *data, size_t size);

/* Run entry on every regular file of dir; returns how many. */
static unsigned replay(const char *dir, fuzz_entry entry)
{
    DIR *d = opendir(dir);
    unsigned n = 0;
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        relic_mapping map;
        relic_error err;
        assert_int_equal(relic_map_file(path, 0, &map, &err), RELIC_OK);
        /* a copy of exactly the file's bytes, as libFuzzer passes them */
        uint8_t *copy = malloc(map.bytes.size ? map.bytes.size : 1);
        assert_non_null(copy);
        if (map.bytes.size) memcpy(copy, map.bytes.data, map.bytes.size);
        assert_int_equal(entry(copy, map.bytes.size), 0);
        free(copy);
        relic_unmap(&map);
        n++;
    }
    closedir(d);
    return n;
}

static void replays_fuzz_grf_sections_regressions(void **state)
{
    (void)state;
    assert_true(replay("fuzz/regressions/fuzz_grf_sections", fuzz_grf_sections_one) >= 1);
}

static void replays_fuzz_gff_typed_regressions(void **state)
{
    (void)state;
    assert_true(replay("fuzz/regressions/fuzz_gff_typed", fuzz_gff_typed_one) >= 1);
}

static void replays_fuzz_gff_json_regressions(void **state)
{
    (void)state;
    assert_true(replay("fuzz/regressions/fuzz_gff_json", fuzz_gff_json_one) >= 1);
}

static void replays_fuzz_trr_regressions(void **state)
{
    (void)state;
    assert_true(replay("fuzz/regressions/fuzz_trr", fuzz_trr_one) >= 1);
}

static void replays_fuzz_trn_aswm_regressions(void **state)
{
    (void)state;
    assert_true(replay("fuzz/regressions/fuzz_trn_aswm", fuzz_trn_aswm_one) >= 1);
}

static void replays_fuzz_adpcm_regressions(void **state)
{
    (void)state;
    assert_true(replay("fuzz/regressions/fuzz_adpcm", fuzz_adpcm_one) >= 1);
}

static void replays_fuzz_gff_regressions(void **state)
{
    (void)state;
    assert_true(replay("fuzz/regressions/fuzz_gff", fuzz_gff_one) >= 1);
}

static void replays_fuzz_wtd_regressions(void **state)
{
    (void)state;
    assert_true(replay("fuzz/regressions/fuzz_wtd", fuzz_wtd_one) >= 1);
}

static void replays_fuzz_bwm_regressions(void **state)
{
    (void)state;
    assert_true(replay("fuzz/regressions/fuzz_bwm", fuzz_bwm_one) >= 1);
}

static void replays_fuzz_erf_regressions(void **state)
{
    (void)state;
    assert_true(replay("fuzz/regressions/fuzz_erf", fuzz_erf_one) >= 1);
}

/* Every directory of fuzz/regressions names a target replayed above. */
static void every_regression_directory_is_replayed(void **state)
{
    (void)state;
    static const char *const known[] = {"fuzz_grf_sections", "fuzz_gff_typed", "fuzz_gff_json", "fuzz_trr",
                                        "fuzz_bwm", "fuzz_erf", "fuzz_trn_aswm", "fuzz_adpcm", "fuzz_gff",
                                        "fuzz_wtd"};
    DIR *d = opendir("fuzz/regressions");
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        int found = 0;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) found |= strcmp(known[i], e->d_name) == 0;
        if (!found) fail_msg("fuzz/regressions/%s is not replayed by tests/test_fuzz_regressions.c", e->d_name);
    }
    closedir(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replays_fuzz_grf_sections_regressions),
        cmocka_unit_test(replays_fuzz_gff_typed_regressions),
        cmocka_unit_test(replays_fuzz_gff_json_regressions),
        cmocka_unit_test(replays_fuzz_trr_regressions),
        cmocka_unit_test(replays_fuzz_bwm_regressions),
        cmocka_unit_test(replays_fuzz_erf_regressions),
        cmocka_unit_test(replays_fuzz_trn_aswm_regressions),
        cmocka_unit_test(replays_fuzz_adpcm_regressions),
        cmocka_unit_test(replays_fuzz_gff_regressions),
        cmocka_unit_test(replays_fuzz_wtd_regressions),
        cmocka_unit_test(every_regression_directory_is_replayed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
