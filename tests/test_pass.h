/* test_pass.h — lets a cmocka test's loop over the real files of ../shared/corpus (or over
 * their samples) take a sample in make test's sanitizer pass, which repeats the plain pass.
 *
 * make test runs every test twice: built plainly (the unit stage), then under ASan+UBSan
 * (the asan stage, `make check-asan`, which sets CORPUS_SWEEPS=0 as it does for the shell
 * tests' corpus sweeps). A loop marked with test_take() runs every item in the plain pass, and
 * when a test is run by hand; in the sanitizer pass it runs the first item and then one in
 * TEST_PASS_STRIDE, so the sanitizers still see every code path on real data while the
 * sweep over every file, and the runs of other programs on each (sox), happen once. */
#ifndef RELIC_TEST_PASS_H
#define RELIC_TEST_PASS_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define TEST_PASS_STRIDE 8

/* 1 in make test's sanitizer pass (CORPUS_SWEEPS=0 in the environment), else 0 */
static inline int test_pass_sampled(void)
{
    const char *s = getenv("CORPUS_SWEEPS");
    return s && strcmp(s, "0") == 0;
}

/* whether a loop marked as sampled runs its item i (0-based) in this pass */
static inline int test_take(size_t i)
{
    return !test_pass_sampled() || i % TEST_PASS_STRIDE == 0;
}

#endif
