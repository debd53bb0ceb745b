/* cmd_bake.c — `relic bake IN.trn OUT.trx`: bake the ASWM walkmesh of a TRN
 * (or re-bake a TRX) with runtime/trn_bake*.c (nwn-lib-d, trn.d bake): border
 * removal, triangles by tile, path tables, islands, island links and the
 * island path table; the other packets are kept as they are. The output is
 * written only when the baked walkmesh passes the validator's and the strict
 * rules. Only the ASWM packet is decoded: it is read straight from the
 * mapped input and the output streams the other packets' bytes from there
 * (relic_trn_write_replacing), with no model of the whole file and no
 * output buffer; the packets' layout is the one the model's writer gives. */
#include <stdlib.h>
#include <string.h>

#include "relic_gen.h"
#include "trn_cli.h"
#include "progress.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: relic bake IN.trn|IN.trx OUT.trx [--keep-borders] [--level N]\n"
               "Bake the walkmesh of an NWN2 TRN (or re-bake a TRX): remove the border tiles, order the\n"
               "triangles by tile, build every tile's path table, the islands, their links and the island\n"
               "path table. TRRN, WATR and other packets are copied. --keep-borders keeps the border\n"
               "tiles' triangles; --level N sets the zlib level of the walkmesh (default 1; 6 is the toolset's\n"
               "and nwn-lib-d's, 3.6%% smaller and 3x the deflate time).\n"
               "Exit status: 0 success, 1 invalid input or failed bake, 2 usage error.\n");
}

typedef struct cli_sink_out {
    relic_out out;
    relic_error err;
} cli_sink_out;

/* zlib level of the baked walkmesh: 1, not the toolset's 6
 * (RELIC_TRN_ASWM_ZLIB_LEVEL). On the largest corpus TRN level 6 spends
 * 31 ms deflating 643 KB of walkmesh where level 1 spends 7 ms, for a
 * stream 3.6% smaller (236,642 against 245,136 bytes; 0.3% of the file);
 * docs/benchmarks.md has the table. Any level is a plain zlib stream that
 * the game and nwn-lib-d read. */
#define BAKE_ZLIB_LEVEL 1

/* The walkmesh checked: its file, and the problems reported so far. */
typedef struct checked {
    const char *file;
    unsigned seen;
} checked;

/* The output file the spliced TRN streams into. */
static relic_status to_out(void *ctx, const uint8_t *data, size_t size)
{
    cli_sink_out *o = ctx;
    return relic_out_write(&o->out, data, size, &o->err);
}

static void count(void *ctx, const relic_error *e)
{
    checked *c = ctx;
    c->seen++;
    cli_error(c->file, e);
}

/* v with packet `packet` replaced by aswm, written atomically to out_path. */
static int write_baked(const relic_trn_view *v, size_t packet, const relic_trn_packet *aswm, const char *out_path,
                       const char *in_path)
{
    cli_sink_out o;
    if (relic_out_open(&o.out, out_path, in_path, &o.err) != RELIC_OK) {
        cli_error(out_path, &o.err);
        return EXIT_INVALID;
    }
    if (relic_trn_write_replacing(v, packet, aswm, to_out, &o, &o.err) != RELIC_OK ||
        relic_out_commit(&o.out, &o.err) != RELIC_OK) {
        relic_out_abort(&o.out);
        cli_error(out_path, &o.err);
        return EXIT_INVALID;
    }
    return EXIT_VALID;
}

int cmd_bake(int argc, char **argv)
{
    const char *in_path = NULL, *out_path = NULL;
    relic_trn_bake_options opt = {0};
    int level = BAKE_ZLIB_LEVEL;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_VALID;
        }
        if (!strcmp(argv[i], "--keep-borders")) opt.keep_borders = 1;
        else if (!strcmp(argv[i], "--level") && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 0 || v > 9) {
                fprintf(stderr, "relic bake: --level takes 0..9\n");
                return EXIT_USAGE;
            }
            level = (int)v;
        } else if (!in_path) in_path = argv[i];
        else if (!out_path) out_path = argv[i];
        else {
            usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (!in_path || !out_path) {
        usage(stderr);
        return EXIT_USAGE;
    }
    cli_input in;
    if (cli_load(in_path, &in)) return EXIT_INVALID;
    if (in.format != RELIC_FORMAT_TRN) {
        cli_errorf(in_path, 0, "not an NWN2 TRN/TRX file (detected: %s)", relic_format_name(in.format));
        cli_unload(&in);
        return EXIT_INVALID;
    }
    relic_arena a;
    cli_huge_arena mem; /* the bake's memory: its page faults cost more than the bake */
    relic_trn_view v;
    relic_trn_packet aswm = {0};
    relic_trn_aswm w, baked;
    relic_error err;
    size_t packet;
    int rc = EXIT_INVALID;
    cli_huge_arena_init(&mem, &a);
    if (cli_schema_view(&cli_format_trn, &in, &v)) goto out;
    if (relic_trn_view_aswm_read(&v, CLI_TRN_ASWM_LIMIT, &a, &w, &packet, &err) != RELIC_OK) {
        if (err.code == RELIC_E_ARGUMENT) cli_error(in_path, &err); /* no ASWM packet */
        else cli_report(cli_problem_stream(), in_path, &err);
        goto out;
    }
    checked seen = {in_path, 0};
    unsigned problems = relic_trn_check_aswm(&w, "aswm", 20, count, &seen);
    if (problems) {
        cli_errorf(in_path, 0, "the walkmesh is invalid; not baked");
        goto out;
    }
    cli_progress tick;
    char what[96];
    snprintf(what, sizeof what, "bake: %.80s", in_path);
    cli_progress_tick_begin(&tick, what, 0);
    relic_status baked_st = relic_trn_bake(&w, &opt, &a, &baked, &err);
    if (baked_st == RELIC_OK) baked_st = relic_trn_aswm_pack(&baked, level, &a, &aswm, &err);
    cli_progress_end(&tick);
    if (baked_st != RELIC_OK) {
        relic_gen_path_prefix(&err, "aswm", -1);
        cli_error(in_path, &err);
        goto out;
    }
    seen.file = out_path; /* the baked walkmesh, before it is written */
    problems = relic_trn_check_aswm(&baked, "aswm", 20, count, &seen);
    if (problems == 0) problems = relic_trn_check_aswm_strict(&baked, "aswm", 20, &a, count, &seen);
    if (problems) {
        cli_errorf(out_path, 0, "internal error: the baked walkmesh breaks %u rules", problems);
        goto out;
    }
    rc = write_baked(&v, packet, &aswm, out_path, in_path);
    if (rc == EXIT_VALID)
        printf("%s: %zu triangles in %u x %u tiles, %zu islands\n", out_path, baked.triangles_count, (unsigned)baked.grid_width,
               (unsigned)baked.grid_height, baked.islands_count);
out:
    cli_huge_arena_release(&mem, &a);
    cli_unload(&in);
    return rc;
}
