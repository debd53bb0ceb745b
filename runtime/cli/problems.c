/* problems.c — a file's problem lines kept rather than printed, so that
 * `relic check -r` can check on many threads and print in one order, and
 * `--json` can list them: the same relic_error the one printer (common.c)
 * would have printed, with the same file name and folded text position. */
#include <string.h>
#include <stdlib.h>

#include "relic_gen.h"
#include "tree_cli.h"
#include "walk.h"

void cli_problems_init(cli_problems *p, relic_arena *arena)
{
    memset(p, 0, sizeof *p);
    p->last = &p->first;
    p->arena = arena;
}

void cli_problems_keep(void *ctx, const char *file, const relic_error *err)
{
    cli_problems *p = ctx;
    cli_problem *n = relic_arena_alloc(p->arena, sizeof *n, _Alignof(cli_problem));
    char *f = n ? relic_arena_strndup(p->arena, file, strlen(file)) : NULL;
    p->count++;
    if (!f) {
        p->lost = 1;
        return;
    }
    n->next = NULL;
    n->file = f;
    n->err = *err;
    *p->last = n;
    p->last = &n->next;
}

void cli_problems_print(const cli_problems *p)
{
    for (const cli_problem *n = p->first; n; n = n->next) cli_report(cli_problem_stream(), n->file, &n->err);
}

/* Length of the valid UTF-8 sequence at p[0..n) (1..4), 0 when invalid. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    size_t len = p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : p[0] >= 0xE0 ? 3
        : p[0] >= 0xC2 && p[0] <= 0xDF                           ? 2
                                                                 : 0;
    if (!len || len > n) return 0;
    for (size_t k = 1; k < len; k++)
        if ((p[k] & 0xC0) != 0x80) return 0;
    if (len == 3 && ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0))) return 0; /* overlong, surrogate */
    if (len == 4 && ((p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] >= 0x90))) return 0;
    return len;
}

void cli_json_text(relic_buf *o, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    relic_buf_puts(o, "\"");
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        size_t len;
        if (c == '"' || c == '\\') {
            char e[3] = {'\\', (char)c, 0};
            relic_buf_puts(o, e);
            i++;
        } else if (c < 0x20 || c == 0x7F) {
            relic_buf_printf(o, "\\u%04x", c);
            i++;
        } else if (c < 0x80) {
            relic_buf_append(o, p + i, 1);
            i++;
        } else if ((len = utf8_len(p + i, n - i)) != 0) {
            relic_buf_append(o, p + i, len);
            i += len;
        } else {
            relic_buf_printf(o, "\\u%04x", c);
            i++;
        } /* a byte that is not UTF-8: as its Latin-1 character */
    }
    relic_buf_puts(o, "\"");
}

static void json_text(relic_buf *o, const char *s) { cli_json_text(o, s, strlen(s)); }

void cli_problems_json(relic_buf *o, const cli_problems *p)
{
    relic_buf_puts(o, "[");
    for (const cli_problem *n = p->first; n; n = n->next) {
        relic_buf_puts(o, n == p->first ? "{\"path\": " : ", {\"path\": ");
        json_text(o, n->err.path);
        relic_buf_puts(o, ", \"offset\": ");
        relic_json_u64(o, n->err.offset);
        relic_buf_puts(o, ", \"message\": ");
        json_text(o, n->err.message[0] ? n->err.message : relic_status_name(n->err.code));
        relic_buf_puts(o, "}");
    }
    relic_buf_puts(o, "]");
}

void cli_check_begin(cli_check_result *r, const char *file, relic_arena *arena)
{
    memset(r, 0, sizeof *r);
    r->file = file;
    r->format = CLI_UNREAD_FORMAT;
    r->checked = 1; /* an input that cannot be read is a problem of a checked file */
    r->seconds = -1;
    cli_problems_init(&r->lines, arena);
    cli_report_capture(cli_problems_keep, &r->lines);
}

void cli_check_one(const cli_input *in, const cli_container_kind *container_kind, int strict, int skip_unknown,
                   cli_check_result *r)
{
    unsigned n = 0;
    const cli_format *f = cli_format_for(in->format);
    r->format = container_kind ? container_kind->name : relic_format_name(in->format);
    r->size = in->map.bytes.size;
    r->checked = container_kind || f;
    if (container_kind) {
        n = container_kind->check_tables(in, strict);
    } else if (f) {
        n = f->hooks->check(in, strict);
    } else if (!skip_unknown) {
        cli_problemf(in->path, 0, NULL, "not a file relic can check (detected: %s)", relic_format_name(in->format));
        n = 1;
    }
    r->problems += n;
}

void cli_check_end(cli_check_result *r)
{
    cli_report_capture(NULL, NULL);
    if (r->problems < r->lines.count) r->problems = (unsigned)r->lines.count;
}

void cli_check_json(relic_buf *o, const cli_check_result *r)
{
    relic_buf_puts(o, "{\"file\": ");
    json_text(o, r->file);
    relic_buf_puts(o, ", \"format\": ");
    json_text(o, r->format);
    if (r->container) {
        relic_buf_puts(o, ", \"container\": ");
        json_text(o, r->container);
    }
    relic_buf_puts(o, ", \"size\": ");
    relic_json_u64(o, r->size);
    relic_buf_puts(o, r->checked ? ", \"checked\": true" : ", \"checked\": false");
    relic_buf_puts(o, r->checked && r->problems == 0 ? ", \"ok\": true" : ", \"ok\": false");
    relic_buf_puts(o, ", \"problems\": ");
    cli_problems_json(o, &r->lines);
    if (r->seconds >= 0) {
        relic_buf_puts(o, ", \"time_ms\": ");
        relic_json_f64(o, (double)(long long)(r->seconds * 1e6) / 1e3);
    }
    relic_buf_puts(o, "}\n");
}

int cli_flush_stdout(relic_buf *b)
{
    int bad = b->failed || (b->size && fwrite(b->data, 1, b->size, stdout) != b->size);
    b->size = 0;
    return bad;
}
