/* common.c — input loading, validation messages and atomic output for the
 * `relic` subcommands. */
#include <string.h>

#include "cli.h"

int cli_is_help(const char *arg) { return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0; }

int cli_load(const char *path, cli_input *in)
{
    relic_error err;
    memset(in, 0, sizeof *in);
    in->path = path;
    if (relic_map_file(path, CLI_MAX_PIPE_INPUT, &in->map, &err) != RELIC_OK) {
        fprintf(stderr, "relic: %s\n", err.message);
        return 1;
    }
    in->format = relic_detect(in->map.bytes.data, in->map.bytes.size, path);
    return 0;
}

void cli_unload(cli_input *in) { relic_unmap(&in->map); }

int cli_write(const char *path, const void *data, size_t size, const char *input)
{
    relic_error err;
    if (input && strcmp(path, input) == 0 && strcmp(path, "-") != 0) {
        fprintf(stderr, "relic: refusing to overwrite the input file '%s'\n", path);
        return 1;
    }
    if (relic_write_file_atomic(path, data, size, input, &err) != RELIC_OK) {
        fprintf(stderr, "relic: %s\n", err.message);
        return 1;
    }
    return 0;
}
