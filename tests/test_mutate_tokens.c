/* test_mutate_tokens.c — the token-level mutator of the Trespasser text
 * formats (runtime/mutate/mutate_tokens.c, relic_mutate_tokens in
 * relic_mutate_formats.h; issue 8): the same seed gives the same bytes,
 * outputs differ from the input and never exceed max, crossover takes
 * lines of the second input, the log names what changed, some outputs are
 * accepted by the TPM and TRR readers (and others rejected), and truncated
 * or garbage inputs never crash it (ASan/UBSan in check-asan). Inputs are
 * small files written here (Trespasser file formats, "TPM - Models" examples, a TRR and a
 * TRI point list). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic.h"
#include "relic_mutate_formats.h"
#include "relic_tpm.h"
#include "relic_tri.h"
#include "relic_trr.h"
#include "mutate_scratch.h"

#define SEEDS 400
#define OUT_MAX 65536

static const char tpm_a[] =
    "fileinfo\n{\n formatversion = 1.0.1\n name = \"NewRaptor.max\"\n}\n\n"
    "instance \"RaptorB\"\n{\n mesh = \"RaptorB\"\n position = (0.00585938,-0.51088,0.0339626)\n scale = 3.05637\n}\n\n"
    "// a comment\nmesh \"Plane01\"\n{\n m = \"wood04\"\n v = (-1.0,-0.5,0.0)\n v = (1.0,-0.5,0.0)\n v = (-1.0,0.5,0.0)\n"
    " t = (0.0,0.0)\n n = (0.0,0.0,1.0)\n f = (3,1,2),(1,1,1),(1,1,1),1\n}\n";
static const char tpm_b[] =
    "skin \"TestSkin\"\n{\n m = \"default\"\n v = (-7.0,-0.5,0.0),1\n v = (1.0,-0.5,0.0),1\n v = (-1.0,0.5,0.0),3\n"
    " f = (3,1,2),(0,0,0),(0,0,0),1\n}\n\nbone \"$JRaptorB23\"\n{\n position = (0.002930,1.740082,0.810120)\n"
    " Ratio = 0.500000\n}\n";
static const char trr_a[] = "0 0 1\n1 0 2\n0 1 3\n1 1 4.5\n2.5 -1 0.125\n";
static const char trr_b[] = "10 10 10\n20 20 20\n";
static const char tri_a[] = "2\n0 1 2\n2 3 0\n4\n-256 0 12.5\n-255.75 0 12.25\n-255.75 0.25 1e1\n-256 .25 -0.125\n";

static const uint8_t *u8(const char *s) { return (const uint8_t *)s; }

static size_t mutate(const relic_token_vocab *v, const char *in, const char *in2, uint64_t seed, unsigned flags,
                     uint8_t *out, size_t max, relic_token_log *log)
{
    size_t n = (size_t)-1;
    relic_error err;
    assert_int_equal(relic_mutate_tokens(v, u8(in), strlen(in), in2 ? u8(in2) : NULL, in2 ? strlen(in2) : 0, seed,
                                         flags, test_scratch(), out, max, &n, log, &err),
                     RELIC_OK);
    assert_true(n <= max);
    return n;
}

static relic_status tpm_read(const uint8_t *p, size_t n)
{
    relic_arena a;
    relic_tpm_file f;
    relic_error err;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    relic_status st = relic_tpm_parse("m.tpm", p, n, &a, &f, &err);
    relic_arena_release(&a);
    return st;
}

static relic_status trr_read(const uint8_t *p, size_t n)
{
    relic_arena a;
    relic_trr_points pts;
    relic_error err;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    relic_status st = relic_trr_parse("m.trr", p, n, &a, &pts, &err);
    relic_arena_release(&a);
    return st;
}

static void same_seed_gives_same_bytes(void **state)
{
    (void)state;
    static uint8_t o1[OUT_MAX], o2[OUT_MAX];
    for (uint64_t s = 0; s < 50; s++) {
        size_t n1 = mutate(&relic_tokens_tpm, tpm_a, tpm_b, s, 0, o1, OUT_MAX, NULL);
        size_t n2 = mutate(&relic_tokens_tpm, tpm_a, tpm_b, s, 0, o2, OUT_MAX, NULL);
        assert_int_equal(n1, n2);
        assert_memory_equal(o1, o2, n1);
    }
}

static void different_seeds_give_different_outputs(void **state)
{
    (void)state;
    static uint8_t o1[OUT_MAX], o2[OUT_MAX];
    int differ = 0;
    for (uint64_t s = 0; s < 20; s++) {
        size_t n1 = mutate(&relic_tokens_tpm, tpm_a, NULL, s, 0, o1, OUT_MAX, NULL);
        size_t n2 = mutate(&relic_tokens_tpm, tpm_a, NULL, s + 1000, 0, o2, OUT_MAX, NULL);
        differ += n1 != n2 || memcmp(o1, o2, n1) != 0;
    }
    assert_true(differ >= 18);
}

static void outputs_differ_from_the_input(void **state)
{
    (void)state;
    static uint8_t o[OUT_MAX];
    const struct {
        const relic_token_vocab *v;
        const char *in;
    } cases[] = {
        {&relic_tokens_tpm, tpm_a}, {&relic_tokens_trr, trr_a}, {&relic_tokens_tri, tri_a}};
    for (size_t k = 0; k < 3; k++) {
        int same = 0;
        for (uint64_t s = 0; s < SEEDS; s++) {
            size_t n = mutate(cases[k].v, cases[k].in, NULL, s, 0, o, OUT_MAX, NULL);
            same += n == strlen(cases[k].in) && memcmp(o, cases[k].in, n) == 0;
        }
        /* a change can undo the one before it; rarely */
        assert_true(same <= SEEDS / 100);
    }
}

static void output_never_exceeds_max(void **state)
{
    (void)state;
    static uint8_t o[OUT_MAX + 16];
    const size_t maxes[] = {0, 1, 7, 64, sizeof tpm_a - 1, sizeof tpm_a + 3};
    for (size_t m = 0; m < sizeof maxes / sizeof maxes[0]; m++)
        for (uint64_t s = 0; s < SEEDS; s++) {
            memset(o, 0xAB, sizeof o);
            size_t n = mutate(&relic_tokens_tpm, tpm_a, tpm_b, s, s % 2 ? RELIC_MUTATE_CROSSOVER : 0, o, maxes[m], NULL);
            assert_true(n <= maxes[m]);
            assert_int_equal(o[maxes[m]], 0xAB); /* nothing written past max */
        }
}

/* The output may be the input's own buffer (LLVMFuzzerCustomMutator). */
static void output_may_overwrite_the_input(void **state)
{
    (void)state;
    static uint8_t buf[OUT_MAX], ref[OUT_MAX];
    for (uint64_t s = 0; s < 50; s++) {
        size_t n0 = strlen(tpm_a), n = 0, nref = mutate(&relic_tokens_tpm, tpm_a, NULL, s, 0, ref, OUT_MAX, NULL);
        relic_error err;
        memcpy(buf, tpm_a, n0);
        assert_int_equal(relic_mutate_tokens(&relic_tokens_tpm, buf, n0, NULL, 0, s, 0, test_scratch(), buf, OUT_MAX, &n, NULL, &err),
                         RELIC_OK);
        assert_int_equal(n, nref);
        assert_memory_equal(buf, ref, n);
    }
}

/* A line only tpm_b has ("Ratio = ..." or "bone") turns up in crossovers. */
static void crossover_takes_lines_of_the_second_input(void **state)
{
    (void)state;
    static uint8_t o[OUT_MAX + 1];
    int took = 0;
    for (uint64_t s = 0; s < 100; s++) {
        relic_token_log log;
        size_t n = mutate(&relic_tokens_tpm, tpm_a, tpm_b, s, RELIC_MUTATE_CROSSOVER, o, OUT_MAX, &log);
        o[n] = 0;
        assert_true(log.nlog >= 1);
        assert_true(strcmp(log.log[0].op, "line-copy") == 0 || strcmp(log.log[0].op, "line-splice") == 0);
        took += strstr((char *)o, "Ratio") || strstr((char *)o, "bone") || strstr((char *)o, "skin") ||
            strstr((char *)o, "-7.0") || strstr((char *)o, "default");
    }
    assert_true(took >= 60);
}

static void crossover_without_a_second_input_still_mutates(void **state)
{
    (void)state;
    static uint8_t o[OUT_MAX];
    size_t n = mutate(&relic_tokens_trr, trr_a, NULL, 5, RELIC_MUTATE_CROSSOVER, o, OUT_MAX, NULL);
    assert_false(n == strlen(trr_a) && memcmp(o, trr_a, n) == 0);
}

static void log_names_line_column_and_tokens(void **state)
{
    (void)state;
    static uint8_t o[OUT_MAX];
    int numbers = 0;
    for (uint64_t s = 0; s < 100; s++) {
        relic_token_log log;
        mutate(&relic_tokens_trr, trr_a, NULL, s, 0, o, OUT_MAX, &log);
        assert_true(log.nlog >= 1 && log.nlog <= RELIC_MUTATE_TOKENS_MAX_LOG);
        for (int i = 0; i < log.nlog; i++) {
            assert_true(log.log[i].line >= 1 && log.log[i].col >= 1);
            assert_true(log.log[i].op[0] != 0);
            if (i == 0 && strcmp(log.log[i].op, "number") == 0) {
                numbers++;
                /* the first change is made on the input: its old token is there, at its line */
                assert_non_null(strstr(trr_a, log.log[i].old_text));
                assert_true(log.log[i].line <= 5);
            }
        }
    }
    assert_true(numbers >= 10);
}

/* Between a tenth and nine tenths of the mutants of a and b are accepted by read. */
static void accepted_share_is_mixed(const relic_token_vocab *v, const char *a, const char *b,
                                    relic_status (*read)(const uint8_t *, size_t))
{
    static uint8_t o[OUT_MAX];
    int ok = 0;
    for (uint64_t s = 0; s < SEEDS; s++) {
        size_t n = mutate(v, a, b, s, 0, o, OUT_MAX, NULL);
        ok += read(o, n) == RELIC_OK;
    }
    assert_true(ok >= SEEDS / 10);
    assert_true(ok <= SEEDS - SEEDS / 10);
}

static void some_tpm_outputs_are_accepted_and_some_rejected(void **state)
{
    (void)state;
    accepted_share_is_mixed(&relic_tokens_tpm, tpm_a, tpm_b, tpm_read);
}

static void some_trr_outputs_are_accepted_and_some_rejected(void **state)
{
    (void)state;
    accepted_share_is_mixed(&relic_tokens_trr, trr_a, trr_b, trr_read);
}

/* Respellings that keep the value: some accepted TRR outputs read back to
 * the same points from different text. */
static void numbers_are_respelled_keeping_their_value(void **state)
{
    (void)state;
    static uint8_t o[OUT_MAX];
    relic_arena a;
    relic_error err;
    relic_trr_points ref, got;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    assert_int_equal(relic_trr_parse(NULL, u8(trr_a), strlen(trr_a), &a, &ref, &err), RELIC_OK);
    int respelled = 0;
    for (uint64_t s = 0; s < SEEDS; s++) {
        size_t n = mutate(&relic_tokens_trr, trr_a, NULL, s, 0, o, OUT_MAX, NULL);
        if (relic_trr_parse(NULL, o, n, &a, &got, &err) == RELIC_OK && got.count == ref.count &&
            memcmp(got.points, ref.points, sizeof(double[3]) * ref.count) == 0)
            respelled++;
    }
    relic_arena_release(&a);
    assert_true(respelled >= 10);
}

/* Every prefix of the inputs (64 cuts), and inputs with single bytes
 * changed, mutate without a crash and within max. */
static void truncated_and_garbage_inputs_never_crash(void **state)
{
    (void)state;
    static uint8_t o[4096], junk[sizeof tpm_a];
    const struct {
        const relic_token_vocab *v;
        const char *in;
    } cases[] = {
        {&relic_tokens_tpm, tpm_a}, {&relic_tokens_trr, trr_a}, {&relic_tokens_tri, tri_a}};
    for (size_t k = 0; k < 3; k++) {
        size_t len = strlen(cases[k].in);
        for (unsigned cut = 0; cut < 64; cut++) {
            size_t n = len * cut / 64, m = 0;
            relic_error err;
            assert_int_equal(relic_mutate_tokens(cases[k].v, u8(cases[k].in), n, u8(tpm_b), cut % 7, cut, 0, test_scratch(), o,
                                                 sizeof o, &m, NULL, &err),
                             RELIC_OK);
            assert_true(m <= sizeof o);
        }
    }
    uint64_t r = 1;
    for (unsigned s = 0; s < 300; s++) {
        size_t len = strlen(tpm_a), m = 0;
        relic_error err;
        memcpy(junk, tpm_a, len);
        for (int j = 0; j < 3; j++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            junk[(r >> 33) % len] = (uint8_t)(r >> 13);
        }
        relic_token_log log;
        assert_int_equal(relic_mutate_tokens(&relic_tokens_tpm, junk, len, junk, len / 2, s,
                                             s % 3 ? 0 : RELIC_MUTATE_CROSSOVER, test_scratch(), o, 200, &m, &log, &err),
                         RELIC_OK);
        assert_true(m <= 200);
    }
}

static void empty_input_and_null_arguments(void **state)
{
    (void)state;
    uint8_t o[256];
    size_t n = 99;
    relic_error err;
    assert_int_equal(relic_mutate_tokens(&relic_tokens_tpm, NULL, 0, NULL, 0, 1, 0, test_scratch(), o, sizeof o, &n, NULL, &err), RELIC_OK);
    assert_true(n <= sizeof o);
    assert_int_equal(relic_mutate_tokens(NULL, u8("x"), 1, NULL, 0, 1, 0, test_scratch(), o, sizeof o, &n, NULL, &err), RELIC_E_ARGUMENT);
    assert_int_equal(relic_mutate_tokens(&relic_tokens_tpm, NULL, 3, NULL, 0, 1, 0, test_scratch(), o, sizeof o, &n, NULL, &err),
                     RELIC_E_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_seed_gives_same_bytes),
        cmocka_unit_test(different_seeds_give_different_outputs),
        cmocka_unit_test(outputs_differ_from_the_input),
        cmocka_unit_test(output_never_exceeds_max),
        cmocka_unit_test(output_may_overwrite_the_input),
        cmocka_unit_test(crossover_takes_lines_of_the_second_input),
        cmocka_unit_test(crossover_without_a_second_input_still_mutates),
        cmocka_unit_test(log_names_line_column_and_tokens),
        cmocka_unit_test(some_tpm_outputs_are_accepted_and_some_rejected),
        cmocka_unit_test(some_trr_outputs_are_accepted_and_some_rejected),
        cmocka_unit_test(numbers_are_respelled_keeping_their_value),
        cmocka_unit_test(truncated_and_garbage_inputs_never_crash),
        cmocka_unit_test(empty_input_and_null_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
