/* cmd_foley.c — `relic foley BANK.tpa --velocity V`: the collision
 * ("Foley") table of a bank (Effects.tpa) with each record's sounds and
 * their transfer functions evaluated at impact velocity V (Trespasser source, Lib/Audio/AudioLoader.hpp, Source/Tools/CollisionEditor/Database.cpp; Trespasser file formats, FOLEY TABLE; runtime/formats/tres/tpa_foley.c). */
#include <stdlib.h>

#include "audio_cli.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: relic foley BANK.tpa --velocity V\n"
               "Print the bank's collision (Foley) records: the two sound-material hashes, then for each\n"
               "sound played (impact 1-2, slide) its ID and, at impact velocity V, the volume and pitch\n"
               "(slope x V + intercept, clamped to [min, max]), the Trespasser file-formats document's final volume\n"
               "volume / 10^(attenuation/10), and whether V reaches the sound's minimum velocity.\n"
               "Exit status: 0 success, 1 invalid input, 2 usage error.\n");
}

int cmd_foley(int argc, char **argv)
{
    const char *path = NULL;
    double velocity = 0;
    int have_v = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_VALID;
        }
        if (!strcmp(argv[i], "--velocity") && i + 1 < argc) {
            char *end;
            velocity = strtod(argv[++i], &end);
            if (*end || end == argv[i]) {
                fprintf(stderr, "relic foley: '%s' is not a number\n", argv[i]);
                return EXIT_USAGE;
            }
            have_v = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "relic foley: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return EXIT_USAGE;
        } else if (!path) path = argv[i];
        else {
            usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (!path || !have_v) {
        usage(stderr);
        return EXIT_USAGE;
    }
    cli_input in;
    if (cli_load(path, &in)) return EXIT_INVALID;
    relic_tpa_view v;
    relic_tpa_file m;
    relic_error err;
    relic_arena a;
    int rc = EXIT_VALID;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (relic_tpa_validate(in.map.bytes.data, in.map.bytes.size, &v, &err) != RELIC_OK || relic_tpa_decode(&v, &a, &m, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), path, &err);
        rc = EXIT_INVALID;
    } else {
        printf("%s: %zu collision records at velocity %g\n", path, m.collisions_count, velocity);
        static const char *const kind[3] = {"impact", "impact", "slide"};
        for (size_t i = 0; i < m.collisions_count; i++) {
            const relic_tpa_collision *c = &m.collisions[i];
            uint32_t ids[3];
            const relic_tpa_transfer_function *tfs[3];
            unsigned n = relic_tpa_collision_sounds(c, ids, tfs);
            printf("  [%zu] materials 0x%08X 0x%08X, min delay %g s, %u sound%s\n", i, c->material_low, c->material_high,
                   c->min_delay, n, n == 1 ? "" : "s");
            for (unsigned k = 0; k < n; k++) {
                relic_tpa_transfer_result r;
                relic_tpa_transfer_eval(tfs[k], (float)velocity, &r);
                const char *what = tfs[k] == &c->slide_tf ? kind[2] : kind[0];
                printf("      %-6s 0x%08X  volume %g  pitch %g  final volume %g%s\n", what, ids[k], r.volume, r.pitch,
                       r.final_volume, r.plays ? "" : "  (below minimum velocity: silent)");
            }
        }
    }
    relic_arena_release(&a);
    cli_unload(&in);
    return rc;
}
