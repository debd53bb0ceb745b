/* common.c — input loading, validation messages and atomic output for the
 * `relic` subcommands. */
#include <stdarg.h>
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
        else {
            esc[0] = (char)c;
            len = 1;
        }
        if (o + len >= size) break;
        memcpy(out + o, esc, len);
        o += len;
    }
    out[o] = '\0';
    return out;
}

/* The text readers (TPM, TRI, TRR, OBJ, JSON) start their messages with
 * "FILE:LINE:COL: " ("<text>:LINE:COL: " when given bytes without a name);
 * the line names the file once, so that prefix becomes "line L, column C: ".
 * Returns 1 when msg had it. */
static int fold_text_position(const char *file, const char *msg, char *out, size_t size)
{
    static const char unnamed[] = "<text>";
    size_t n = strlen(file);
    unsigned line, col;
    int used = 0;
    if (strncmp(msg, unnamed, sizeof unnamed - 1) == 0 && msg[sizeof unnamed - 1] == ':') n = sizeof unnamed - 1;
    else if (strncmp(msg, file, n) != 0 || msg[n] != ':') return 0;
    if (sscanf(msg + n + 1, "%u:%u: %n", &line, &col, &used) != 2 || used == 0) return 0;
    snprintf(out, size, "line %u, column %u: %s", line, col, msg + n + 1 + used);
    return 1;
}

/* The capture of this thread (cli_report_capture): a batch worker keeps
 * its file's problems to be printed in order by the main thread. */
static _Thread_local cli_report_sink_fn capture_fn;
static _Thread_local void *capture_ctx;

void cli_report_capture(cli_report_sink_fn fn, void *ctx)
{
    capture_fn = fn;
    capture_ctx = ctx;
}

/* Where problem lines go (cli_problem_stream): set once by check and info,
 * before any worker thread starts. */
static int problems_on_stdout;

void cli_problems_to_stdout(void) { problems_on_stdout = 1; }

FILE *cli_problem_stream(void) { return problems_on_stdout ? stdout : stderr; }

void cli_report(FILE *to, const char *file, const relic_error *err)
{
    relic_error e = *err;
    if (!file) file = "-";
    char folded[RELIC_ERROR_MESSAGE_MAX];
    if (fold_text_position(file, err->message, folded, sizeof folded)) memcpy(e.message, folded, sizeof e.message);
    if (capture_fn) {
        capture_fn(capture_ctx, file, &e);
        return;
    }
    relic_error_print(to, file, &e);
}

void cli_error(const char *file, const relic_error *err) { cli_report(stderr, file, err); }

void cli_error_in(const char *file, const char *what, const relic_error *err)
{
    relic_error e = *err;
    /* what is short; the message keeps what fits after it */
    snprintf(e.message, sizeof e.message, "%.64s: %.125s", what, err->message[0] ? err->message : relic_status_name(err->code));
    cli_report(stderr, file, &e);
}

static void vreport(FILE *to, const char *file, uint64_t offset, const char *path, const char *fmt, va_list ap)
{
    relic_error e;
    relic_error_clear(&e);
    e.code = RELIC_E_ARGUMENT;
    e.offset = offset;
    if (path) snprintf(e.path, sizeof e.path, "%s", path);
    vsnprintf(e.message, sizeof e.message, fmt, ap);
    cli_report(to, file, &e);
}

void cli_errorf(const char *file, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(stderr, file, offset, NULL, fmt, ap);
    va_end(ap);
}

void cli_problemf(const char *file, uint64_t offset, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cli_problem_stream(), file, offset, path, fmt, ap);
    va_end(ap);
}

void cli_report_problem(void *ctx, const relic_error *err) { cli_report(cli_problem_stream(), ctx, err); }

int cli_is_help(const char *arg) { return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0; }

int cli_load(const char *path, cli_input *in)
{
    relic_error err;
    memset(in, 0, sizeof *in);
    in->path = path;
    if (relic_map_file(path, CLI_MAX_PIPE_INPUT, &in->map, &err) != RELIC_OK) {
        cli_error(path, &err);
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
            cli_error(batch.outs[i].path, &err);
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
        cli_errorf(path, 0, "refusing to overwrite the input file");
        return 1;
    }
    if (!batch.open) {
        if (relic_write_file_atomic(path, data, size, input, &err) != RELIC_OK) {
            cli_error(path, &err);
            return 1;
        }
        return 0;
    }
    if (batch.count == batch.cap) {
        size_t cap = batch.cap ? 2 * batch.cap : 16;
        relic_out *outs = realloc(batch.outs, cap * sizeof *outs);
        if (!outs) {
            cli_errorf(path, 0, "cannot write: out of memory");
            return 1;
        }
        batch.outs = outs;
        batch.cap = cap;
    }
    if (relic_out_open(&o, path, input, &err) != RELIC_OK) {
        cli_error(path, &err);
        return 1;
    }
    if (relic_out_write(&o, data, size, &err) != RELIC_OK || relic_out_prepare(&o, &err) != RELIC_OK) {
        relic_out_abort(&o);
        cli_error(path, &err);
        return 1;
    }
    batch.outs[batch.count++] = o;
    return 0;
}

typedef struct cli_sink {
    relic_out *out;
    relic_error err;
    int failed, reported;
    uint64_t written, max; /* max 0: no bound */
} cli_sink;

static relic_status sink_to_out(void *ctx, const uint8_t *p, size_t n)
{
    cli_sink *s = ctx;
    if (s->max && n > s->max - s->written) {
        s->failed = 1;
        return relic_fail(&s->err, RELIC_E_LIMIT, 0, NULL,
                          "the JSON passes %llu bytes (--max-output N; a GFF prints a value many fields share once for each)",
                          (unsigned long long)s->max);
    }
    s->written += n;
    relic_status st = relic_out_write(s->out, p, n, &s->err);
    s->failed |= st != RELIC_OK;
    return st;
}

int cli_json_write_failed(const relic_buf *out)
{
    if (out->sink != sink_to_out) return 0;
    cli_sink *s = out->sink_ctx;
    if (!s->failed) return 0;
    if (!s->reported) cli_error(s->out->path, &s->err);
    s->reported = 1;
    return 1;
}

/* JSON goes out in 1 MiB pieces: a dump of any size needs no more memory. */
#define CLI_JSON_CHUNK ((size_t)1 << 20)

/* The bound on a file's JSON: --max-output N (0: none), else its format's
 * default (cli_hooks.json_max_output; a GFF's, fmt_gff.c), else none. */
static int json_max_output(const cli_format *fmt, const cli_input *in, uint64_t *max)
{
    const char *arg = cli_convert_option("--max-output");
    *max = 0;
    if (arg) {
        char *end;
        unsigned long long v = strtoull(arg, &end, 10);
        if (!*arg || *end || arg[0] == '-') {
            cli_errorf(in->path, 0, "--max-output: '%s' is not a byte count", arg);
            return 1;
        }
        *max = v;
    } else if (fmt->hooks->json_max_output) {
        *max = fmt->hooks->json_max_output(in->map.bytes.size);
    }
    return 0;
}

int cli_write_json(const cli_format *fmt, const cli_input *in, const char *out_path)
{
    relic_out o;
    relic_error err;
    cli_sink s;
    relic_buf b;
    if (strcmp(out_path, in->path) == 0 && strcmp(out_path, "-") != 0) {
        cli_errorf(out_path, 0, "refusing to overwrite the input file");
        return 1;
    }
    if (relic_out_open(&o, out_path, in->path, &err) != RELIC_OK) {
        cli_error(out_path, &err);
        return 1;
    }
    memset(&s, 0, sizeof s);
    s.out = &o;
    if (json_max_output(fmt, in, &s.max)) {
        relic_out_abort(&o);
        return 1;
    }
    relic_buf_init_sink(&b, CLI_JSON_CHUNK, sink_to_out, &s);
    int rc = cli_format_to_json(fmt, in, &b);
    if (rc == 0 && relic_buf_flush(&b) != 0) {
        if (!cli_json_write_failed(&b)) cli_errorf(out_path, 0, "cannot make the JSON output");
        rc = 1;
    } else if (rc != 0) {
        cli_json_write_failed(&b); /* the real cause, when the printer saw only a failed buffer */
    }
    relic_buf_free(&b);
    if (rc != 0) {
        relic_out_abort(&o);
    } else if (relic_out_commit(&o, &err) != RELIC_OK) {
        cli_error(out_path, &err);
        rc = 1;
    }
    return rc;
}
