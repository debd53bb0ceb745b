/* common.c — input loading, validation messages and atomic output for the
 * `relic` subcommands. */
#include <string.h>

#include "formats.h"

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

typedef struct cli_sink {
    relic_out *out;
    relic_error err;
} cli_sink;

static relic_status sink_to_out(void *ctx, const uint8_t *p, size_t n)
{
    cli_sink *s = ctx;
    return relic_out_write(s->out, p, n, &s->err);
}

/* JSON goes out in 1 MiB pieces: a dump of any size needs no more memory. */
#define CLI_JSON_CHUNK ((size_t)1 << 20)

int cli_write_json(const cli_format *fmt, const cli_input *in, const char *out_path)
{
    relic_out o;
    relic_error err;
    cli_sink s;
    relic_buf b;
    if (strcmp(out_path, in->path) == 0 && strcmp(out_path, "-") != 0) {
        fprintf(stderr, "relic: refusing to overwrite the input file '%s'\n", out_path);
        return 1;
    }
    if (relic_out_open(&o, out_path, in->path, &err) != RELIC_OK) {
        fprintf(stderr, "relic: %s\n", err.message);
        return 1;
    }
    memset(&s, 0, sizeof s);
    s.out = &o;
    relic_buf_init_sink(&b, CLI_JSON_CHUNK, sink_to_out, &s);
    int rc = fmt->to_json(in, &b);
    if (rc == 0 && relic_buf_flush(&b) != 0) {
        fprintf(stderr, "relic: %s\n", s.err.message[0] ? s.err.message : "cannot write the JSON output");
        rc = 1;
    }
    relic_buf_free(&b);
    if (rc != 0) {
        relic_out_abort(&o);
    } else if (relic_out_commit(&o, &err) != RELIC_OK) {
        fprintf(stderr, "relic: %s\n", err.message);
        rc = 1;
    }
    return rc;
}
