/* convert.c — `relic convert IN OUT`: the conversion is chosen by IN's
 * detected format and OUT's extension, through the format table
 * (formats.c): a binary file to JSON or to what its format offers; JSON to
 * the binary format OUT names; another format (OBJ) imported into it. */
#include <string.h>

#include "audio_cli.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: relic convert IN OUT [--to FORMAT] [--adpcm] [--captions FILE] [--relief|--preview] [--extent X0,Y0,X1,Y1] [--max-height M] [--threshold T] [--max-grid N] [--encoding cp1252|utf8|auto] [--max-output N] [--terrain] [--textures PID --swp SWP]\nConvert IN to the format OUT's extension names:\n");
    for (int i = 0; cli_formats[i]; i++) fputs(cli_formats[i]->hooks->help, f);
    fprintf(f, "IN - reads standard input (the format from its magic bytes); OUT - writes standard output,\n"
               "in the format --to names (an extension: json, obj, svg, png, wav, wok, ...); --to also\n"
               "overrides OUT's extension.\n"
               "The output is written atomically; IN is never overwritten.\n"
               "Exit status: 0 success, 1 invalid input or failed conversion, 2 usage error.\n");
}

int cmd_convert(int argc, char **argv)
{
    const char *paths[2], *captions = NULL, *to = NULL;
    int n = 0, adpcm = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_VALID;
        }
        /* WAV -> CAU options: the conversion `relic encode` makes (cli_cau_from_wav) */
        if (!strcmp(argv[i], "--adpcm")) {
            adpcm = 1;
            continue;
        }
        if (!strcmp(argv[i], "--captions") && i + 1 < argc) {
            captions = argv[++i];
            continue;
        }
        if (!strcmp(argv[i], "--to") && i + 1 < argc) {
            to = argv[++i];
            continue;
        }
        if (!strncmp(argv[i], "--to=", 5)) {
            to = argv[i] + 5;
            continue;
        }
        int taken = cli_convert_take_option(argc, argv, &i);
        if (taken < 0) {
            usage(stderr);
            return EXIT_USAGE;
        }
        if (taken) continue;
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "relic convert: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return EXIT_USAGE;
        }
        if (n == 2) {
            usage(stderr);
            return EXIT_USAGE;
        }
        paths[n++] = argv[i];
    }
    if (n != 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    return cli_convert_to(paths[0], paths[1], to, adpcm, captions);
}

int cli_convert_to(const char *in_path, const char *out_path, const char *to, int adpcm, const char *captions)
{
    char ext[16];
    if (to) {
        /* FORMAT as an extension, lower case, without a dot */
        size_t k = 0;
        for (const char *p = to[0] == '.' ? to + 1 : to; *p && k + 1 < sizeof ext; p++)
            ext[k++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
        ext[k] = 0;
    } else {
        relic_path_extension(out_path, ext, sizeof ext);
        if (!ext[0] && !strcmp(out_path, "-")) {
            fprintf(stderr, "relic convert: standard output has no extension: say which format with --to FORMAT (json, obj, svg, ...)\n");
            return EXIT_USAGE;
        }
    }
    int audio_options = adpcm || captions;
    if (audio_options && strcmp(ext, "cau")) {
        fprintf(stderr, "relic convert: --adpcm and --captions make a .cau sample from a WAV\n");
        return EXIT_USAGE;
    }
    const cli_format *target = cli_format_for_ext(ext);
    if (!target && strcmp(ext, "json") && strcmp(ext, "obj") && strcmp(ext, "svg") && strcmp(ext, "png") && strcmp(ext, "wav")) {
        if (to) fprintf(stderr, "relic convert: --to %s is not a format relic writes\n", to);
        else fprintf(stderr, "relic convert: cannot tell the output format from '%s'\n", out_path);
        usage(stderr);
        return EXIT_USAGE;
    }
    cli_input in;
    if (cli_load(in_path, &in)) return EXIT_INVALID;
    /* one dispatch on the input mapped once: its format and OUT's extension */
    const cli_format *source = cli_format_for(in.format);
    int rc = -1;
    if (audio_options) {
        rc = cli_cau_from_wav(&in, out_path, adpcm, captions);
    } else if (source && !strcmp(ext, "json")) {
        rc = cli_write_json(source, &in, out_path);
    } else if (source && cli_format_has_ext(source, ext) && (source->schema || source->hooks->rewrite)) {
        rc = cli_format_rewrite(source, &in, out_path);
    } else if (source && source->hooks->convert) {
        rc = source->hooks->convert(&in, out_path, ext);
    } else if (in.format == RELIC_FORMAT_JSON && target) {
        rc = cli_format_from_json(target, &in, out_path);
    } else if (target && target->hooks->import) {
        rc = target->hooks->import(&in, out_path, ext);
    }
    if (rc >= 0) cli_convert_unused_options();
    if (rc < 0) cli_errorf(in_path, 0, "no conversion from %s to .%s (see relic convert --help)", relic_format_name(in.format), ext);
    cli_unload(&in);
    return rc == 0 ? EXIT_VALID : EXIT_INVALID;
}
