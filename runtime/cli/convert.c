/* convert.c — `relic convert IN OUT`: the conversion is chosen by IN's
 * detected format and OUT's extension, through the format table
 * (formats.c): a binary file to JSON or to what its format offers; JSON to
 * the binary format OUT names; another format (OBJ) imported into it. */
#include <string.h>

#include "formats.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: relic convert IN OUT [--adpcm] [--captions FILE] [--relief] [--extent X0,Y0,X1,Y1] [--max-height M] [--threshold T] [--encoding cp1252|utf8|auto] [--terrain]\nConvert IN to the format OUT's extension names:\n");
    for (int i = 0; cli_formats[i]; i++) fputs(cli_formats[i]->help, f);
    fprintf(f, "The output is written atomically; IN is never overwritten.\n"
               "Exit status: 0 success, 1 invalid input or failed conversion, 2 usage error.\n");
}

int cmd_convert(int argc, char **argv)
{
    const char *paths[2];
    int n = 0, audio_options = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) { usage(stdout); return EXIT_VALID; }
        /* WAV -> CAU options: the conversion is `relic encode` (cmd_encode.c) */
        if (!strcmp(argv[i], "--adpcm")) { audio_options = 1; continue; }
        if (!strcmp(argv[i], "--captions") && i + 1 < argc) { audio_options = 1; i++; continue; }
        int taken = cli_convert_take_option(argc, argv, &i);
        if (taken < 0) { usage(stderr); return EXIT_USAGE; }
        if (taken) continue;
        if (argv[i][0] == '-' && argv[i][1]) { fprintf(stderr, "relic convert: unknown option '%s'\n", argv[i]); usage(stderr); return EXIT_USAGE; }
        if (n == 2) { usage(stderr); return EXIT_USAGE; }
        paths[n++] = argv[i];
    }
    if (n != 2) { usage(stderr); return EXIT_USAGE; }
    const char *in_path = paths[0], *out_path = paths[1];
    char ext[16];
    relic_path_extension(out_path, ext, sizeof ext);
    if (audio_options) {
        if (strcmp(ext, "cau")) {
            fprintf(stderr, "relic convert: --adpcm and --captions make a .cau sample from a WAV\n");
            return EXIT_USAGE;
        }
        return cmd_encode(argc, argv);
    }
    const cli_format *target = cli_format_for_ext(ext);
    if (!target && strcmp(ext, "json") && strcmp(ext, "obj") && strcmp(ext, "svg") && strcmp(ext, "png") && strcmp(ext, "wav")) {
        fprintf(stderr, "relic convert: cannot tell the output format from '%s'\n", out_path);
        usage(stderr);
        return EXIT_USAGE;
    }
    cli_input in;
    if (cli_load(in_path, &in)) return EXIT_INVALID;
    const cli_format *source = cli_format_for(in.format);
    int rc = -1;
    if (source && !strcmp(ext, "json")) {
        rc = cli_write_json(source, &in, out_path);
    } else if (source) {
        rc = source->convert(&in, out_path, ext);
    } else if (in.format == RELIC_FORMAT_JSON && target) {
        rc = target->from_json(&in, out_path);
    } else if (target && target->import) {
        rc = target->import(&in, out_path, ext);
    }
    if (rc >= 0) cli_convert_unused_options();
    if (rc < 0) cli_errorf(in_path, 0, "no conversion from %s to .%s (see relic convert --help)", relic_format_name(in.format), ext);
    cli_unload(&in);
    return rc == 0 ? EXIT_VALID : EXIT_INVALID;
}
