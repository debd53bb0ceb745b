/* convert.c — `relic convert IN OUT`: conversions chosen by the output's
 * extension and the input's detected format:
 *   wok/pwk/dwk -> json | obj | svg | wok/pwk/dwk (re-written)
 *   json        -> wok/pwk/dwk (byte-exact inverse of dump)
 *   obj         -> wok/pwk/dwk (every derived table built from geometry) */
#include <string.h>

#include "cli.h"

int cli_bwm_to_json(const relic_bwm_view *v, relic_buf *out);
/* mesh_io.c */
int cli_bwm_export(const relic_bwm_bwm *m, const char *name, const char *ext, relic_buf *out);
int cli_obj_import(const cli_input *in, uint32_t type, relic_arena *a, relic_bwm_bwm *out);

static void usage(FILE *f)
{
    fprintf(f,
        "usage: relic convert IN OUT\n"
        "Convert IN to the format OUT's extension names:\n"
        "  x.wok|x.pwk|x.dwk -> y.json   JSON (as relic dump)\n"
        "  x.wok|x.pwk|x.dwk -> y.obj    Wavefront OBJ, one group per surface material\n"
        "  x.wok|x.pwk|x.dwk -> y.svg    top-down picture coloured by material, perimeters and\n"
        "                                transitions drawn\n"
        "  x.json            -> y.wok    the binary file again, byte for byte\n"
        "  x.obj             -> y.wok    a complete walkmesh: materials from the OBJ material names\n"
        "                                (usemtl stone, metal, nonwalk, ... or a surfacemat id), faces\n"
        "                                walkable first, normals, adjacency, edges, perimeters, AABB\n"
        "                                (.pwk/.dwk: placeable/door walkmesh without the area tables)\n"
        "The output is written atomically; IN is never overwritten.\n"
        "Exit status: 0 success, 1 invalid input or failed conversion, 2 usage error.\n");
}

static int is_bwm_ext(const char *ext) { return !strcmp(ext, "wok") || !strcmp(ext, "pwk") || !strcmp(ext, "dwk"); }

static int write_model(const relic_bwm_bwm *m, const char *out_path, const char *in_path)
{
    relic_buf out;
    relic_error err;
    relic_bwm_view check;
    int rc = 0;
    relic_buf_init(&out, 0);
    if (relic_bwm_write(m, &out, &err) != RELIC_OK) {
        relic_error_print(stderr, out_path, &err);
        rc = 1;
    } else if (relic_bwm_validate(out.data, out.size, &check, &err) != RELIC_OK) {
        /* a writer's output always validates; if not, it is relic's bug: say so, write nothing */
        fprintf(stderr, "relic: internal error: the written walkmesh does not validate: ");
        relic_error_print(stderr, out_path, &err);
        rc = 1;
    } else {
        rc = cli_write(out_path, out.data, out.size, in_path);
    }
    relic_buf_free(&out);
    return rc;
}

int cmd_convert(int argc, char **argv)
{
    const char *paths[2];
    int n = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) { usage(stdout); return EXIT_VALID; }
        if (argv[i][0] == '-' && argv[i][1]) { fprintf(stderr, "relic convert: unknown option '%s'\n", argv[i]); usage(stderr); return EXIT_USAGE; }
        if (n == 2) { usage(stderr); return EXIT_USAGE; }
        paths[n++] = argv[i];
    }
    if (n != 2) { usage(stderr); return EXIT_USAGE; }
    const char *in_path = paths[0], *out_path = paths[1];
    char ext[16];
    relic_path_extension(out_path, ext, sizeof ext);
    if (!is_bwm_ext(ext) && strcmp(ext, "json") && strcmp(ext, "obj") && strcmp(ext, "svg")) {
        fprintf(stderr, "relic convert: cannot tell the output format from '%s' (use .wok .pwk .dwk .json .obj .svg)\n", out_path);
        return EXIT_USAGE;
    }
    cli_input in;
    if (cli_load(in_path, &in)) return EXIT_INVALID;
    relic_arena a;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    relic_error err;
    relic_bwm_bwm m;
    int rc = EXIT_VALID;

    if (in.format == RELIC_FORMAT_BWM) {
        relic_bwm_view v;
        if (cli_validate_bwm(&in, &v)) rc = EXIT_INVALID;
        else if (!strcmp(ext, "json")) {
            relic_buf out;
            relic_buf_init(&out, 0);
            if (cli_bwm_to_json(&v, &out) || cli_write(out_path, out.data, out.size, in_path)) rc = EXIT_INVALID;
            relic_buf_free(&out);
        } else if (relic_bwm_decode(&v, &a, &m, &err) != RELIC_OK) {
            relic_error_print(stderr, in_path, &err);
            rc = EXIT_INVALID;
        } else if (is_bwm_ext(ext)) {
            rc = write_model(&m, out_path, in_path) ? EXIT_INVALID : EXIT_VALID;
        } else {
            relic_buf out;
            relic_buf_init(&out, 0);
            if (cli_bwm_export(&m, in_path, ext, &out) || cli_write(out_path, out.data, out.size, in_path)) rc = EXIT_INVALID;
            relic_buf_free(&out);
        }
    } else if (in.format == RELIC_FORMAT_JSON && is_bwm_ext(ext)) {
        if (relic_bwm_json_read((const char *)in.map.bytes.data, in.map.bytes.size, &a, &m, &err) != RELIC_OK) {
            relic_error_print(stdout, in_path, &err);
            rc = EXIT_INVALID;
        } else {
            rc = write_model(&m, out_path, in_path) ? EXIT_INVALID : EXIT_VALID;
        }
    } else if (in.format == RELIC_FORMAT_OBJ && is_bwm_ext(ext)) {
        uint32_t type = !strcmp(ext, "wok") ? RELIC_BWM_WALKMESH_TYPE_AREA : RELIC_BWM_WALKMESH_TYPE_PLACEABLE_OR_DOOR;
        if (cli_obj_import(&in, type, &a, &m)) rc = EXIT_INVALID;
        else rc = write_model(&m, out_path, in_path) ? EXIT_INVALID : EXIT_VALID;
    } else {
        fprintf(stderr, "relic convert: no conversion from %s to .%s\n", relic_format_name(in.format), ext);
        rc = EXIT_INVALID;
    }
    relic_arena_release(&a);
    cli_unload(&in);
    return rc;
}
