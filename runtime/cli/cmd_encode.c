/* cmd_encode.c — `relic encode IN.wav OUT.cau [--adpcm] [--captions FILE]`:
 * a Trespasser sample from a WAV file, as PCM or as IMA ADPCM in the game's
 * blocks (Trespasser source, Lib/Audio/AudioADPCM.cpp, Lib/Audio/AudioLoad.cpp), with caption lines from a JSON file
 * in the form `relic extract` writes (Trespasser source, Lib/Audio/AudioLoad.cpp). `relic convert IN.wav
 * OUT.cau` is the PCM case without captions. */
#include "audio_cli.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: relic encode IN.wav OUT.cau [--adpcm] [--captions FILE.json]\n"
               "Make a Trespasser CAU sample from a WAV (PCM 8-32 bits or float, mono or stereo; convert\n"
               "other sound formats to WAV first with sox or ffmpeg).\n"
               "  --adpcm           IMA ADPCM in the game's blocks (1028 bytes mono, 2056 stereo), about\n"
               "                    4:1; without it the samples are stored as PCM (8 or 16 bits as the input)\n"
               "  --captions FILE   caption lines: {\"captions\": [{\"duration\": 2.0, \"text\": \"...\"}, ...]}\n"
               "                    (durations in seconds, rounded to 0.2 s; or \"units\" of 0.2 s)\n"
               "Exit status: 0 success, 1 invalid input or failed write, 2 usage error.\n");
}

int cmd_encode(int argc, char **argv)
{
    const char *paths[2], *captions = NULL;
    int n = 0, adpcm = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_VALID;
        }
        if (!strcmp(argv[i], "--adpcm")) adpcm = 1;
        else if (!strcmp(argv[i], "--captions") && i + 1 < argc) captions = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "relic encode: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return EXIT_USAGE;
        } else if (n < 2) paths[n++] = argv[i];
        else {
            usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (n != 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    cli_input in;
    if (cli_load(paths[0], &in)) return EXIT_INVALID;
    int rc = cli_cau_from_wav(&in, paths[1], adpcm, captions);
    cli_unload(&in);
    return rc ? EXIT_INVALID : EXIT_VALID;
}
