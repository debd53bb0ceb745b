/* fuzz_bwm.c — libFuzzer target for KotOR BWM walkmeshes as `relic` reads
 * them: the generated validator, the table rules (relic_bwm_check, loose
 * and strict), the exporters, and the builders on the file's own geometry
 * (runtime/formats/kotor/bwm_model.c, bwm_build.c, bwm_export.c; PyKotor wiki, KotOR BWM file format, PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py). gen_bwm covers the generated decoder, writer and JSON alone.
 * Oracles (abort() when one fails):
 *  1. a rejection or a broken rule comes with a filled error (code and
 *     message); strict finds at least the problems loose finds;
 *  2. an accepted walkmesh decodes and writes, the written bytes validate
 *     and break exactly as many table rules (the rules do not depend on
 *     the layout);
 *  3. the OBJ and SVG exporters succeed on a walkmesh that keeps the rules
 *     (an OBJ may refuse a coordinate that is not finite: RELIC_E_RANGE);
 *  4. a walkmesh that keeps the rules, its derived tables rebuilt from its
 *     geometry (relic_bwm_rebuild), writes a file that keeps the strict
 *     rules too, and rebuilding that again gives the same bytes.
 * Mutation: the BWM geometry mutator (relic_bwm_mutate,
 * runtime/mutate/mutate_bwm.c: vertices, faces, materials, transitions changed,
 * patches cropped and spliced, every derived table rebuilt; one try in 4
 * the generated table mutator) via fuzz/fuzz_mutator.h; off with
 * -DRELIC_NO_CUSTOM_MUTATOR (libFuzzer's byte-level mutator).
 * Build and run: make fuzz (or build-fuzz/fuzz_bwm -max_total_time=60). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bwm_export.h"
#include "fuzz_scratch.h"
#include "relic_bwm.h"

#define FUZZ_TREE_MUTATOR relic_bwm_mutate
/* one mutator call and one cross-over in two structure-aware (seed bit 5): each decodes,
 * changes and writes a whole file with heap arenas of its own, which at seven in eight
 * kept the target under 1,000 executions per second (issue 18) */
#define FUZZ_STRUCTURED_TURN(seed) (((seed) >> 5) % 2 == 0)
#define FUZZ_CROSSOVER_TURN(seed) (((seed) >> 5) % 2 == 0)
#define FUZZ_STACKED 1
#include "fuzz_mutator.h"

/* relic_bwm_check with its scratch in fuzz_scratch.h's arena (mapped once, reused every run) */
static unsigned bwm_check_scratch(const relic_bwm_view *v, int strict, relic_report_fn report, void *ctx)
{
    relic_arena a;
    fuzz_scratch_arena(&a, 1, 0);
    unsigned problems = relic_bwm_check(v, strict, &a, report, ctx);
    relic_arena_release(&a);
    return problems;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Walkmeshes up to this many faces get the rebuild oracle: it keeps one
 * execution short on the largest seeds (the mutator's crops stay far
 * below it). */
#define FUZZ_BWM_REBUILD_MAX 4096

static void oracle_failed(const char *what, const relic_error *e)
{
    fprintf(stderr, "fuzz_bwm: %s", what);
    if (e) fprintf(stderr, " (error %d %s at %s @%llu: %s)", (int)e->code, relic_status_name(e->code), e->path,
                   (unsigned long long)e->offset, e->message);
    fputc('\n', stderr);
    abort();
}

static void filled(void *ctx, const relic_error *e)
{
    (void)ctx;
    if (e->code == RELIC_OK || e->message[0] == 0) oracle_failed("a table rule broken without a filled error", e);
}

static void print_problem(void *ctx, const relic_error *e)
{
    (void)ctx;
    relic_error_print(stderr, "fuzz_bwm: strict", e);
}

static int limited(relic_status st) { return st == RELIC_E_NOMEM || st == RELIC_E_LIMIT; }

static void rebuild_oracle(const relic_bwm_file *model, relic_arena *a);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_bwm_view v, v2;
    relic_error err;
    relic_status st = relic_bwm_validate(data, size, &v, &err);
    if (st != RELIC_OK) {
        if (err.code != st || err.message[0] == 0) oracle_failed("a rejection without a filled error", &err);
        return 0;
    }
    unsigned loose = bwm_check_scratch(&v, 0, filled, NULL), strict = bwm_check_scratch(&v, 1, filled, NULL);
    if (strict < loose) oracle_failed("strict finds fewer problems than loose", NULL);

    relic_arena a;
    fuzz_scratch_arena(&a, 0, (size_t)256 << 20);
    relic_buf out, text;
    relic_buf_init(&out, 0);
    relic_buf_init(&text, 0);
    relic_bwm_file m;
    if ((st = relic_bwm_decode(&v, &a, &m, &err)) != RELIC_OK) {
        if (!limited(st)) oracle_failed("a validated walkmesh does not decode", &err);
        goto done;
    }
    if ((st = relic_bwm_write(&m, &out, &err)) != RELIC_OK) {
        if (!limited(st)) oracle_failed("a decoded walkmesh does not write", &err);
        goto done;
    }
    if (relic_bwm_validate(out.data, out.size, &v2, &err) != RELIC_OK) oracle_failed("the written walkmesh does not validate", &err);
    if (bwm_check_scratch(&v2, 0, filled, NULL) != loose) oracle_failed("writing changed how many table rules break", NULL);
    if (loose) goto done;

    relic_bwm_mesh mesh;
    relic_bwm_mesh_of(&m, &mesh);
    st = relic_bwm_export_obj(&mesh, "fuzz", &text, &err);
    if (st != RELIC_OK && st != RELIC_E_RANGE && !limited(st)) oracle_failed("the OBJ exporter refused a valid walkmesh", &err);
    text.size = 0;
    /* as `relic convert x.wok y.svg` (runtime/cli/fmt_bwm.c): a PWK/DWK's
     * edges may lie on any face with an adjacency row */
    relic_bwm_svg_tables t = {relic_bwm_walkable_prefix(&mesh), (const relic_bwm_edge_rec *)(const void *)m.edges,
                              (uint32_t)m.edges_count, m.perimeters, (uint32_t)m.perimeters_count};
    if (t.walkable_count < m.adjacency_count) t.walkable_count = (uint32_t)m.adjacency_count;
    st = relic_bwm_export_svg(&mesh, &t, "fuzz", &text, &err);
    if (st != RELIC_OK && !limited(st)) oracle_failed("the SVG exporter refused a valid walkmesh", &err);
    if (m.faces_count <= FUZZ_BWM_REBUILD_MAX) rebuild_oracle(&m, &a);
done:
    relic_buf_free(&out);
    relic_buf_free(&text);
    relic_arena_release(&a);
    return 0;
}

/* Rebuild every derived table of a copy of model, write, validate, check
 * strictly; rebuild the result again: the same bytes. */
static void rebuild_oracle(const relic_bwm_file *model, relic_arena *a)
{
    relic_bwm_file r = *model;
    relic_error err;
    relic_buf first, second;
    relic_buf_init(&first, 0);
    relic_buf_init(&second, 0);
    relic_bwm_view v;
    relic_status st = relic_bwm_rebuild(&r, RELIC_BWM_REBUILD_ALL, a, &err);
    if (st == RELIC_OK) st = relic_bwm_write(&r, &first, &err);
    if (st != RELIC_OK) {
        if (!limited(st)) oracle_failed("a valid walkmesh's tables do not rebuild", &err);
        goto done;
    }
    if (relic_bwm_validate(first.data, first.size, &v, &err) != RELIC_OK) oracle_failed("a rebuilt walkmesh does not validate", &err);
    if (bwm_check_scratch(&v, 1, NULL, NULL) != 0) {
        bwm_check_scratch(&v, 1, print_problem, NULL);
        oracle_failed("a rebuilt walkmesh breaks a strict table rule", NULL);
    }
    relic_bwm_file again;
    if ((st = relic_bwm_decode(&v, a, &again, &err)) == RELIC_OK) st = relic_bwm_rebuild(&again, RELIC_BWM_REBUILD_ALL, a, &err);
    if (st == RELIC_OK) st = relic_bwm_write(&again, &second, &err);
    if (st != RELIC_OK) {
        if (!limited(st)) oracle_failed("a rebuilt walkmesh does not rebuild again", &err);
        goto done;
    }
    if (second.size != first.size || memcmp(second.data, first.data, first.size) != 0)
        oracle_failed("rebuilding a rebuilt walkmesh changed its bytes", NULL);
done:
    relic_buf_free(&first);
    relic_buf_free(&second);
}
