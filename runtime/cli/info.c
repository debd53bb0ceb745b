/* info.c — `relic info [--json] FILE...`: one paragraph per file saying what
 * it is, or one JSON object per file; `relic info -r` walks a tree (cmd_batch.c). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "relic_gen.h"
#include "tree_cli.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: relic info [--json] FILE...\n"
               "       relic info -r [--json] ROOT...   (every file of a tree and every container member)\n"
               "Describe each file (- is standard input): format, type, counts and what else its format has to say.\n"
               "  --json   one JSON object per file: file, format, size, ok, summary, details, problems (docs/cli.md)\n"
               "Exit status: 0 when every file was read, 1 when any was invalid, 2 on usage errors.\n");
}

/* Run the info hook with standard output sent to a temporary file, and
 * hand back what it printed (heap, NUL-terminated) in *text. */
static int info_text(const cli_format *f, const cli_input *in, char **text)
{
    *text = NULL;
    FILE *t = tmpfile();
    if (!t) return -1;
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    if (saved < 0 || dup2(fileno(t), STDOUT_FILENO) < 0) {
        if (saved >= 0) close(saved);
        fclose(t);
        return -1;
    }
    int rc = f->hooks->info(in);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    long n = ftell(t);
    if (n < 0) n = 0;
    rewind(t);
    *text = malloc((size_t)n + 1);
    if (*text) (*text)[fread(*text, 1, (size_t)n, t)] = 0;
    fclose(t);
    return rc;
}

static void json_text(relic_buf *o, const char *s, size_t n) { cli_json_text(o, s, n); }

int cli_info_json(const cli_input *in, const char *container, relic_buf *o)
{
    relic_arena a;
    cli_problems pr;
    char *text = NULL;
    const cli_format *f = cli_format_for(in->format);
    int rc = 0;
    relic_arena_init_heap(&a, 0);
    cli_problems_init(&pr, &a);
    cli_report_capture(cli_problems_keep, &pr);
    if (f && info_text(f, in, &text) != 0) rc = 1;
    cli_report_capture(NULL, NULL);
    if (pr.count) rc = 1;
    relic_buf_puts(o, "{\"file\": ");
    json_text(o, in->path, strlen(in->path));
    relic_buf_puts(o, ", \"format\": ");
    const char *name = relic_format_name(in->format);
    json_text(o, name, strlen(name));
    if (container) {
        relic_buf_puts(o, ", \"container\": ");
        json_text(o, container, strlen(container));
    }
    relic_buf_puts(o, ", \"size\": ");
    relic_json_u64(o, in->map.bytes.size);
    relic_buf_puts(o, f ? ", \"known\": true" : ", \"known\": false");
    relic_buf_puts(o, rc == 0 ? ", \"ok\": true" : ", \"ok\": false");
    /* the paragraph: its first line after "FILE: ", then the indented lines */
    const char *s = text ? text : "";
    size_t plen = strlen(in->path);
    relic_buf_puts(o, ", \"summary\": ");
    const char *eol = strchr(s, '\n');
    size_t len = eol ? (size_t)(eol - s) : strlen(s);
    if (len >= plen + 2 && !strncmp(s, in->path, plen) && s[plen] == ':' && s[plen + 1] == ' ') json_text(o, s + plen + 2, len - plen - 2);
    else if (!f) json_text(o, "relic reads it only as an input to convert", 42);
    else json_text(o, s, len);
    relic_buf_puts(o, ", \"details\": [");
    int first = 1;
    for (s = eol ? eol + 1 : s + len; *s; s = eol ? eol + 1 : s + len) {
        eol = strchr(s, '\n');
        len = eol ? (size_t)(eol - s) : strlen(s);
        size_t skip = 0;
        while (skip < len && s[skip] == ' ') skip++;
        relic_buf_puts(o, first ? "" : ", ");
        json_text(o, s + skip, len - skip);
        first = 0;
    }
    relic_buf_puts(o, "], \"problems\": ");
    cli_problems_json(o, &pr);
    relic_buf_puts(o, "}\n");
    free(text);
    relic_arena_release(&a);
    return rc;
}

int cmd_info(int argc, char **argv)
{
    int bad = 0, n = 0, json = 0;
    cli_problems_to_stdout(); /* the problem lines are this command's report */
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-r")) return cli_info_tree(argc, argv);
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_VALID;
        }
        if (!strcmp(argv[i], "--json")) {
            json = 1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "relic info: unknown option '%s'\n", argv[i]);
            return EXIT_USAGE;
        }
        n++;
    }
    if (!n) {
        usage(stderr);
        return EXIT_USAGE;
    }
    relic_buf out;
    relic_buf_init(&out, 0);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) continue;
        cli_input in;
        if (cli_load(argv[i], &in)) {
            bad = 1;
            continue;
        }
        const cli_format *f = cli_format_for(in.format);
        if (json) {
            bad |= cli_info_json(&in, NULL, &out) != 0;
            if (cli_flush_stdout(&out)) bad = 1;
        } else if (f) {
            bad |= f->hooks->info(&in) != 0;
        } else {
            printf("%s: %s (relic reads it only as an input to convert)\n", argv[i], relic_format_name(in.format));
        }
        cli_unload(&in);
    }
    relic_buf_free(&out);
    return bad ? EXIT_INVALID : EXIT_VALID;
}
