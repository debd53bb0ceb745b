/* fmt_tlk.c — the `relic` command for talk tables (TLK V3.0, dialog.tlk):
 * info, check (the schema's checks, then every entry's text inside the
 * file), and the talk table behind --tlk, which shows a GFF locstring's
 * StrRef as its text in `relic get`, `dump` and `diff`. JSON both ways and
 * re-writing are the schema's (schema_io.c); `relic get dialog.tlk 12345`
 * is in cmd_get.c. Sources: BioWare, "Talk Table File Format"; xoreos,
 * src/aurora/talktable_tlk.cpp; neverwinter.nim, tlk.nim. */
#include <stdlib.h>
#include <string.h>

#include "gff_cli.h"
#include "key_cli.h"
#include "relic_gen.h"

const cli_tlk *cli_tlk_current;

int cli_tlk_load(const char *path, cli_tlk *t)
{
    relic_error err;
    memset(t, 0, sizeof *t);
    if (cli_load(path, &t->in)) return 1;
    if (relic_tlk_open(t->in.map.bytes.data, t->in.map.bytes.size, &t->view, &err) != RELIC_OK) {
        cli_error(path, &err);
        cli_unload(&t->in);
        return 1;
    }
    t->loaded = 1;
    return 0;
}

void cli_tlk_unload(cli_tlk *t)
{
    if (t->loaded) cli_unload(&t->in);
    t->loaded = 0;
}

int cli_tlk_strref_text(void *ctx, uint32_t strref, const char **text, size_t *n)
{
    return relic_tlk_text(&((const cli_tlk *)ctx)->view, strref, text, n);
}

int cli_tlk_option(int argc, char **argv, int *i, cli_tlk *t)
{
    if (strcmp(argv[*i], "--tlk") != 0) return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "relic: --tlk needs a talk table (dialog.tlk)\n");
        return -1;
    }
    if (t->loaded) cli_tlk_unload(t);
    if (cli_tlk_load(argv[++*i], t)) return -1;
    cli_tlk_current = t;
    return 1;
}

int cli_tlk_put(FILE *f, const cli_tlk *t, uint32_t strref)
{
    const char *text;
    size_t n;
    if (!relic_tlk_text(&t->view, strref, &text, &n)) return 0;
    /* UTF-8 as NWN2 writes it; bytes that are not UTF-8 (NWN1, KotOR) as cp1252 */
    cli_gff_put_text(f, (const uint8_t *)text, n, RELIC_GFF_ENC_UTF8);
    return 1;
}

static const char *language_name(uint32_t id)
{
    const char *s = relic_tlk_language_name(id);
    return s ? s : "unknown";
}

static int tlk_info(const cli_input *in)
{
    relic_tlk_view v;
    relic_error err;
    if (relic_tlk_open(in->map.bytes.data, in->map.bytes.size, &v, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &err);
        return 1;
    }
    size_t with_text = 0, with_sound = 0;
    uint64_t bytes = 0;
    for (size_t i = 0; i < v.entries_count; i++) {
        relic_tlk_entry_view e = relic_tlk_entries_at(&v, i);
        uint32_t fl = relic_tlk_entry_flags(e);
        if ((fl & RELIC_TLK_STRING_FLAGS_TEXT_PRESENT) && relic_tlk_entry_string_size(e)) {
            with_text++;
            bytes += relic_tlk_entry_string_size(e);
        }
        with_sound += (fl & RELIC_TLK_STRING_FLAGS_SND_PRESENT) != 0;
    }
    printf("%s: BioWare talk table TLK V3.0, language %u (%s)\n", in->path, (unsigned)v.values.header.language_id,
           language_name(v.values.header.language_id));
    printf("  %zu strings (%zu with text, %llu bytes; %zu with a sound)\n", v.entries_count, with_text,
           (unsigned long long)bytes, with_sound);
    return 0;
}

static unsigned tlk_check(const cli_input *in, int strict)
{
    relic_tlk_view v;
    relic_error err;
    (void)strict;
    if (relic_tlk_open(in->map.bytes.data, in->map.bytes.size, &v, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &err);
        return 1;
    }
    return 0;
}

const cli_hooks cli_tlk_hooks = {
    tlk_info,
    tlk_check,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    "  x.tlk -> y.json|y.tlk                            JSON (header, entries, text), re-written talk table\n"
    "  x.json -> y.tlk                                  the talk table again, byte for byte\n",
    NULL, /* json_max_output: no bound */
};

int cli_tlk_ls(const cli_input *in)
{
    relic_tlk_view v;
    relic_error err;
    if (relic_tlk_open(in->map.bytes.data, in->map.bytes.size, &v, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &err);
        return 1;
    }
    printf("%7s %5s %-16s %s\n", "strref", "flags", "sound", "text");
    for (size_t i = 0; i < v.entries_count; i++) {
        relic_tlk_entry_view e = relic_tlk_entries_at(&v, i);
        const char *text;
        size_t n;
        char sound[4 * 16 + 1], *shown;
        const char *snd = relic_tlk_entry_sound_res_ref(e);
        size_t sn = 0;
        while (sn < 16 && snd[sn]) sn++;
        relic_tlk_text(&v, (uint32_t)i, &text, &n);
        shown = malloc(4 * n + 1); /* control bytes (line breaks) as escapes: one line per string */
        if (!shown) return 1;
        printf("%7zu %5u %-16s %s\n", i, (unsigned)relic_tlk_entry_flags(e), cli_escape(sound, sizeof sound, snd, sn),
               cli_escape(shown, 4 * n + 1, text, n));
        free(shown);
    }
    return 0;
}

/* `ls --json` of a talk table: every entry (docs/cli.md keys). */
int cli_tlk_ls_json(const cli_input *in, relic_buf *o)
{
    relic_tlk_view v;
    relic_error err;
    if (relic_tlk_open(in->map.bytes.data, in->map.bytes.size, &v, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &err);
        return 1;
    }
    relic_buf_puts(o, "{\"file\": ");
    cli_json_text(o, in->path, strlen(in->path));
    relic_buf_puts(o, ", \"format\": \"tlk\", \"language_id\": ");
    relic_json_u64(o, v.values.header.language_id);
    relic_buf_puts(o, ", \"entries\": [");
    for (size_t i = 0; i < v.entries_count; i++) {
        relic_tlk_entry_view e = relic_tlk_entries_at(&v, i);
        const char *text, *snd = relic_tlk_entry_sound_res_ref(e);
        size_t n, sn = 0;
        while (sn < 16 && snd[sn]) sn++;
        relic_tlk_text(&v, (uint32_t)i, &text, &n);
        relic_buf_puts(o, i ? ", {\"strref\": " : "{\"strref\": ");
        relic_json_u64(o, i);
        relic_buf_puts(o, ", \"flags\": ");
        relic_json_u64(o, relic_tlk_entry_flags(e));
        relic_buf_puts(o, ", \"sound\": ");
        cli_json_text(o, snd, sn);
        relic_buf_puts(o, ", \"size\": ");
        relic_json_u64(o, n);
        relic_buf_puts(o, ", \"text\": ");
        cli_json_text(o, text, n);
        relic_buf_puts(o, "}");
    }
    relic_buf_puts(o, "]}\n");
    return 0;
}
