/* common.c — input loading, validation messages and atomic output for the
 * `relic` subcommands. */
#include <stdlib.h>
#include <string.h>

#include "formats.h"

const char *cli_escape(char *out, size_t size, const char *name, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        char esc[5];
        size_t len;
        if (c == '\n') len = (size_t)snprintf(esc, sizeof esc, "\\n");
        else if (c == '\t') len = (size_t)snprintf(esc, sizeof esc, "\\t");
        else if (c == '\r') len = (size_t)snprintf(esc, sizeof esc, "\\r");
        else if (c == '\\') len = (size_t)snprintf(esc, sizeof esc, "\\\\");
        else if (c < 0x20 || c == 0x7F) len = (size_t)snprintf(esc, sizeof esc, "\\x%02x", c);
        else { esc[0] = (char)c; len = 1; }
        if (o + len >= size) break;
        memcpy(out + o, esc, len);
        o += len;
    }
    out[o] = '\0';
    return out;
}

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

/* The open batch (cli_batch_begin): its files are written and synced to
 * temporaries as they come, and renamed only when all of them made it. */
static struct {
    int open;
    relic_out *outs;
    size_t count, cap;
} batch;

void cli_batch_begin(void)
{
    batch.open = 1;
    batch.count = 0;
}

int cli_batch_end(int ok)
{
    relic_error err;
    int rc = ok ? 0 : 1;
    for (size_t i = 0; i < batch.count; i++) {
        if (rc != 0) {
            relic_out_abort(&batch.outs[i]);
        } else if (relic_out_commit(&batch.outs[i], &err) != RELIC_OK) {
            /* a rename refused after the others went through: nothing left to undo safely */
            fprintf(stderr, "relic: %s\n", err.message);
            rc = 1;
        }
    }
    free(batch.outs);
    memset(&batch, 0, sizeof batch);
    return rc;
}

int cli_write(const char *path, const void *data, size_t size, const char *input)
{
    relic_error err;
    relic_out o;
    if (input && strcmp(path, input) == 0 && strcmp(path, "-") != 0) {
        fprintf(stderr, "relic: refusing to overwrite the input file '%s'\n", path);
        return 1;
    }
    if (!batch.open) {
        if (relic_write_file_atomic(path, data, size, input, &err) != RELIC_OK) {
            fprintf(stderr, "relic: %s\n", err.message);
            return 1;
        }
        return 0;
    }
    if (batch.count == batch.cap) {
        size_t cap = batch.cap ? 2 * batch.cap : 16;
        relic_out *outs = realloc(batch.outs, cap * sizeof *outs);
        if (!outs) {
            fprintf(stderr, "relic: cannot write '%s': out of memory\n", path);
            return 1;
        }
        batch.outs = outs;
        batch.cap = cap;
    }
    if (relic_out_open(&o, path, input, &err) != RELIC_OK) {
        fprintf(stderr, "relic: %s\n", err.message);
        return 1;
    }
    if (relic_out_write(&o, data, size, &err) != RELIC_OK || relic_out_prepare(&o, &err) != RELIC_OK) {
        relic_out_abort(&o);
        fprintf(stderr, "relic: %s\n", err.message);
        return 1;
    }
    batch.outs[batch.count++] = o;
    return 0;
}

typedef struct cli_sink {
    relic_out *out;
    relic_error err;
    int failed, reported;
} cli_sink;

static relic_status sink_to_out(void *ctx, const uint8_t *p, size_t n)
{
    cli_sink *s = ctx;
    relic_status st = relic_out_write(s->out, p, n, &s->err);
    s->failed |= st != RELIC_OK;
    return st;
}

int cli_json_write_failed(const relic_buf *out)
{
    if (out->sink != sink_to_out) return 0;
    cli_sink *s = out->sink_ctx;
    if (!s->failed) return 0;
    if (!s->reported) fprintf(stderr, "relic: %s\n", s->err.message);
    s->reported = 1;
    return 1;
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
        if (!cli_json_write_failed(&b)) fprintf(stderr, "relic: %s: cannot make the JSON output\n", out_path);
        rc = 1;
    } else if (rc != 0) {
        cli_json_write_failed(&b); /* the real cause, when the printer saw only a failed buffer */
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
