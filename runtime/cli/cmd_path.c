/* cmd_path.c — `relic path AREA.trx X1 Y1 X2 Y2 [--svg OUT.svg]`: the
 * triangle route between two points found with the baked tables (tile path
 * tables inside a tile, the island path table across tiles; runtime/
 * trn_path.c, nwn-lib-d, trn.d; NWN2DataLib, AreaSurfaceMesh.h), its length, and optionally a picture. */
#include <stdlib.h>
#include <string.h>

#include "relic_gen.h"
#include "trn_cli.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: relic path AREA.trx X1 Y1 X2 Y2 [--svg OUT.svg] [--json]\n"
               "Print the triangle route from point (X1, Y1) to (X2, Y2) found with the baked path tables\n"
               "(tile tables inside a tile, the island table across tiles) and its length (metres, start\n"
               "point, triangle centres, end point). --svg draws the walkmesh with the route.\n"
               "  --json   one JSON object: file, from {x, y, triangle, island}, to {...}, triangles [...],\n"
               "           length (docs/cli.md)\n"
               "Exit status: 0 route found, 1 no route or invalid file, 2 usage error.\n");
}

static int number(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return *s && !*end;
}

int cmd_path(int argc, char **argv)
{
    const char *args[5], *svg = NULL;
    int n = 0, json = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_VALID;
        }
        if (!strcmp(argv[i], "--json")) {
            json = 1;
            continue;
        }
        if (!strcmp(argv[i], "--svg") && i + 1 < argc) svg = argv[++i];
        else if (n < 5) args[n++] = argv[i];
        else {
            usage(stderr);
            return EXIT_USAGE;
        }
    }
    double c[4];
    if (n != 5 || !number(args[1], &c[0]) || !number(args[2], &c[1]) || !number(args[3], &c[2]) || !number(args[4], &c[3])) {
        usage(stderr);
        return EXIT_USAGE;
    }
    cli_input in;
    if (cli_load(args[0], &in)) return EXIT_INVALID;
    relic_arena a;
    relic_trn_file m;
    relic_trn_aswm w;
    relic_trn_route route;
    relic_error err;
    size_t packet;
    int rc = EXIT_INVALID;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (in.format != RELIC_FORMAT_TRN) {
        cli_errorf(args[0], 0, "not an NWN2 TRN/TRX file (detected: %s)", relic_format_name(in.format));
        goto out;
    }
    if (cli_trn_load_aswm(&in, &a, &m, &w, &packet)) goto out;
    uint32_t from = relic_trn_triangle_at(&w, c[0], c[1]), to = relic_trn_triangle_at(&w, c[2], c[3]);
    if (from == 0xFFFFFFFFu || to == 0xFFFFFFFFu) {
        cli_errorf(args[0], 0, "(%g, %g) lies on no triangle of the walkmesh", from == 0xFFFFFFFFu ? c[0] : c[2], from == 0xFFFFFFFFu ? c[1] : c[3]);
        goto out;
    }
    if (relic_trn_check_aswm(&w, "aswm", 0, NULL, NULL) != 0) {
        cli_errorf(args[0], 0, "the walkmesh breaks its rules (see relic check)");
        goto out;
    }
    if (relic_trn_route_find(&w, from, to, c[0], c[1], c[2], c[3], &a, &route, &err) != RELIC_OK) {
        cli_error(args[0], &err);
        goto out;
    }
    if (json) {
        relic_buf o;
        relic_buf_init(&o, 0);
        relic_buf_puts(&o, "{\"file\": ");
        cli_json_text(&o, args[0], strlen(args[0]));
        relic_buf_puts(&o, ", \"from\": {\"x\": ");
        relic_json_f64(&o, c[0]);
        relic_buf_puts(&o, ", \"y\": ");
        relic_json_f64(&o, c[1]);
        relic_buf_printf(&o, ", \"triangle\": %u, \"island\": %u}, \"to\": {\"x\": ", (unsigned)from, (unsigned)w.triangles[from].island);
        relic_json_f64(&o, c[2]);
        relic_buf_puts(&o, ", \"y\": ");
        relic_json_f64(&o, c[3]);
        relic_buf_printf(&o, ", \"triangle\": %u, \"island\": %u}, \"triangles\": [", (unsigned)to, (unsigned)w.triangles[to].island);
        for (size_t i = 0; i < route.count; i++) relic_buf_printf(&o, "%s%u", i ? ", " : "", (unsigned)route.triangles[i]);
        relic_buf_puts(&o, "], \"length\": ");
        relic_json_f64(&o, route.length);
        relic_buf_puts(&o, "}\n");
        if (!o.failed) fwrite(o.data, 1, o.size, stdout);
        relic_buf_free(&o);
    } else {
        printf("route from triangle %u (island %u) to triangle %u (island %u): %zu triangles, length %.3f\n", (unsigned)from,
               (unsigned)w.triangles[from].island, (unsigned)to, (unsigned)w.triangles[to].island, route.count, route.length);
        for (size_t i = 0; i < route.count; i++) printf("%s%u", i ? " " : "", (unsigned)route.triangles[i]);
        printf("\n");
    }
    rc = svg ? cli_trn_write_svg(&w, &route, svg, args[0]) : EXIT_VALID;
out:
    relic_arena_release(&a);
    cli_unload(&in);
    return rc;
}
