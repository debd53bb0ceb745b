/* cmd_mutate.c — `relic mutate IN [IN2...] -n COUNT -o DIR [--seed S]
 * [--invalid]`: COUNT mutated files for users to feed to their own readers,
 * made by each format's generated structure-aware mutator (issue 8;
 * runtime/include/relic/relic_mutate.h; GFF and BWM mostly by their tree and geometry
 * mutators, TPM/TRI/TRR one file in 4 by the token-level text mutator), plus DIR/manifest.json naming, per file, what
 * changed (field path, operation, old and new value). Output k starts from
 * input k mod N and splices from the next input of the same format.
 * Valid mode: every file passes `relic check` (the schema validator and
 * the format's rules between tables). --invalid: every file is rejected by
 * the format's validator and by `relic check`. Files are pairwise distinct and differ from the
 * inputs; the same seed gives the same files. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats.h"
#include "mutators.h"
#include "relic_gen.h"

#define MAX_INPUTS 256
/* seeds tried per output before giving up on it */
#define SEEDS_PER_OUTPUT 64

static void usage(FILE *f)
{
    fprintf(f,
            "usage: relic mutate IN [IN2...] -n COUNT -o DIR [--seed S] [--invalid]\n"
            "Write COUNT structure-aware mutants of the inputs into DIR, with DIR/manifest.json\n"
            "listing what each changed (field path, operation, old and new value).\n\n"
            "  -n COUNT     number of files to write (1..1000000)\n"
            "  -o DIR       output directory (created when missing)\n"
            "  --seed S     PRNG seed (default 1); the same seed gives the same files\n"
            "  --invalid    values outside documented ranges and enums, stale counts, offsets and\n"
            "               magics: every file fails validation (default: every file passes `relic check`)\n\n"
            "Output k mutates input k mod N and may splice structs from another input of the same\n"
            "format. Formats: bwm, gff, erf/mod/rim, tpa, cau, grf/scn (and SZDD .gr_/.sc_), pid, trn/trx,\n"
            "wtd, tpm, tri, trr, spz and swp (a raw swp has no invalid form).\n");
}

/* A text format's token-level mutant (relic_mutate_tokens) in out, its
 * edits logged as "line L col C" paths in res. The mode is not the
 * mutator's to keep: the caller's `relic check` picks the outputs. */
static relic_status token_mutant(const relic_token_vocab *v, const uint8_t *in, size_t n, const uint8_t *in2,
                                 size_t n2, uint64_t seed, unsigned flags, relic_arena *scratch, relic_buf *out,
                                 relic_mutate_result *res, relic_error *err)
{
    /* the edits add at most a few lines (the vocabulary's, or the second input's) */
    size_t max = n + n2 + 4096, size = 0;
    out->size = 0;
    out->failed = 0;
    if (!relic_buf_extend(out, max)) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for a mutant of %zu bytes", max);
    relic_token_log log;
    relic_status st = relic_mutate_tokens(v, in, n, in2, n2, seed, flags & RELIC_MUTATE_CROSSOVER, scratch, out->data,
                                          max, &size, &log, err);
    out->size = st == RELIC_OK ? size : 0;
    memset(res, 0, sizeof *res);
    res->attempts = 1;
    for (int i = 0; st == RELIC_OK && i < log.nlog && i < RELIC_MUTATE_MAX_LOG; i++) {
        relic_mutation *m = &res->log[res->nlog++];
        snprintf(m->path, sizeof m->path, "line %u col %u", log.log[i].line, log.log[i].col);
        snprintf(m->op, sizeof m->op, "%s", log.log[i].op);
        snprintf(m->old_value, sizeof m->old_value, "%s", log.log[i].old_text);
        snprintf(m->new_value, sizeof m->new_value, "%s", log.log[i].new_text);
    }
    return st;
}

typedef struct mut_input {
    cli_input in;
    const cli_mutator *row;
    const relic_mut_format *mutator;
    char ext[16];
    char stem[128];
} mut_input;

/* The mutator row whose validator takes in, or NULL; *why gets the first
 * validator's rejection (code RELIC_OK when no row is for in's format). */
static const cli_mutator *mutator_for(const cli_input *in, relic_error *why)
{
    relic_error_clear(why);
    const char *name = relic_format_name(in->format);
    char ext[16];
    relic_path_extension(in->path, ext, sizeof ext);
    for (int i = 0; cli_mutators[i].format; i++) {
        if (strcmp(cli_mutators[i].format, name) != 0) continue;
        if (cli_mutators[i].ext && strcmp(cli_mutators[i].ext, ext) != 0) continue;
        relic_error err;
        const relic_mut_format *f = cli_mutator_of(&cli_mutators[i]);
        relic_arena scratch;
        relic_arena_init_heap(&scratch, 0);
        relic_status st = f->validate(in->map.bytes.data, in->map.bytes.size, &scratch, &err);
        relic_arena_release(&scratch);
        if (st == RELIC_OK) return &cli_mutators[i];
        if (why->code == RELIC_OK) *why = err;
    }
    return NULL;
}

/* `relic check` of bytes in memory, its report lines silenced: 0 when valid. */
static unsigned check_quietly(const uint8_t *data, size_t size, const char *name)
{
    cli_input in;
    memset(&in, 0, sizeof in);
    in.path = name;
    in.map.bytes.data = data;
    in.map.bytes.size = size;
    in.format = relic_detect(data, size, name);
    const cli_format *f = cli_format_for(in.format);
    if (!f) return 1;
    fflush(stdout);
    int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY);
    if (saved >= 0 && null >= 0) dup2(null, STDOUT_FILENO);
    unsigned problems = f->hooks->check(&in, 0);
    fflush(stdout);
    if (saved >= 0) {
        dup2(saved, STDOUT_FILENO);
        close(saved);
    }
    if (null >= 0) close(null);
    return problems;
}

/* FNV-1a of the bytes, to keep the outputs distinct. */
static uint64_t digest(const uint8_t *p, size_t n)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ull;
    return h ^ n;
}

static void json_str(relic_buf *b, const char *s)
{
    relic_json_string(b, s, strlen(s));
}

int cmd_mutate(int argc, char **argv)
{
    const char *dir = NULL, *paths[MAX_INPUTS];
    long long count = -1;
    unsigned long long seed = 1;
    int invalid = 0, npaths = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_VALID;
        } else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
            char *end;
            count = strtoll(argv[++i], &end, 10);
            if (*end || count < 1 || count > 1000000) {
                fprintf(stderr, "relic mutate: -n wants 1..1000000\n");
                return EXIT_USAGE;
            }
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) dir = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            char *end;
            seed = strtoull(argv[++i], &end, 0);
            if (*end) {
                fprintf(stderr, "relic mutate: --seed wants a number\n");
                return EXIT_USAGE;
            }
        } else if (!strcmp(argv[i], "--invalid")) invalid = 1;
        else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "relic mutate: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return EXIT_USAGE;
        } else if (npaths < MAX_INPUTS) paths[npaths++] = argv[i];
        else {
            fprintf(stderr, "relic mutate: at most %d inputs\n", MAX_INPUTS);
            return EXIT_USAGE;
        }
    }
    if (npaths == 0 || count < 0 || !dir) {
        usage(stderr);
        return EXIT_USAGE;
    }

    mut_input *ins = calloc((size_t)npaths, sizeof *ins);
    uint64_t *seen = calloc((size_t)count, sizeof *seen);
    if (!ins || !seen) {
        free(ins);
        free(seen);
        fprintf(stderr, "relic mutate: out of memory\n");
        return EXIT_INVALID;
    }
    int status = EXIT_VALID, loaded = 0;
    relic_buf manifest, out;
    relic_buf_init(&manifest, 0);
    relic_buf_init(&out, 0);
    for (int i = 0; i < npaths; i++) {
        mut_input *m = &ins[i];
        if (cli_load(paths[i], &m->in)) {
            status = EXIT_INVALID;
            goto out;
        }
        loaded++;
        relic_error why;
        const cli_mutator *row = mutator_for(&m->in, &why);
        m->row = row;
        m->mutator = row ? cli_mutator_of(row) : NULL;
        if (row && invalid && row->no_invalid) {
            cli_errorf(paths[i], 0, "no invalid %s file exists (%s)",
                       row->ext ? row->ext : relic_format_name(m->in.format), row->no_invalid);
            status = EXIT_INVALID;
            goto out;
        }
        if (!m->mutator) {
            if (why.code != RELIC_OK) cli_error(paths[i], &why); /* where its validator stopped */
            cli_errorf(paths[i], 0, "no structure-aware mutator for this file (detected: %s; it must pass its schema's validator)",
                       relic_format_name(m->in.format));
            status = EXIT_INVALID;
            goto out;
        }
        if (!invalid && check_quietly(m->in.map.bytes.data, m->in.map.bytes.size, paths[i]) != 0) {
            cli_errorf(paths[i], 0, "fails `relic check`; valid-mode mutants start from a valid file (--invalid takes it)");
            status = EXIT_INVALID;
            goto out;
        }
        relic_path_extension(paths[i], m->ext, sizeof m->ext);
        const char *base = strrchr(paths[i], '/');
        base = base ? base + 1 : paths[i];
        snprintf(m->stem, sizeof m->stem, "%s", base);
        char *dot = strrchr(m->stem, '.');
        if (dot && dot != m->stem) *dot = 0;
        for (char *p = m->stem; *p; p++)
            if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20) *p = '_';
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cli_errorf(dir, 0, "cannot create the directory: %s", strerror(errno));
        status = EXIT_INVALID;
        goto out;
    }
    relic_buf_printf(&manifest, "{\n  \"mode\": \"%s\",\n  \"seed\": %llu,\n  \"files\": [", invalid ? "invalid" : "valid", seed);
    long long written = 0;
    for (long long k = 0; k < count; k++) {
        mut_input *m = &ins[k % npaths], *m2 = NULL;
        for (int d = 1; d < npaths && !m2; d++) {
            mut_input *c = &ins[(k + d) % npaths];
            if (c->mutator == m->mutator) m2 = c;
        }
        relic_mutate_result res;
        relic_error err;
        int ok = 0;
        uint64_t h = 0, used_seed = 0;
        char name[512];
        snprintf(name, sizeof name, "%s-%04lld%s%s", m->stem, k, m->ext[0] ? "." : "", m->ext);
        for (unsigned t = 0; t < SEEDS_PER_OUTPUT && !ok; t++) {
            used_seed = seed * 0x9E3779B97F4A7C15ull + (uint64_t)k * 0x100000001B3ull + t;
            const uint8_t *in2 = m2 ? m2->in.map.bytes.data : NULL;
            size_t n2 = m2 ? m2->in.map.bytes.size : 0;
            unsigned flags = invalid ? RELIC_MUTATE_INVALID : 0u;
            /* the mutators' memory: a heap arena per try, given back at once */
            relic_arena scratch;
            relic_arena_init_heap(&scratch, 0);
            relic_status st = m->row->tokens && k % 4 == 2
                ? token_mutant(m->row->tokens, m->in.map.bytes.data, m->in.map.bytes.size, in2, n2, used_seed, flags,
                               &scratch, &out, &res, &err)
                : m->row->tree && k % 4 != 3
                ? m->row->tree(m->in.map.bytes.data, m->in.map.bytes.size, in2, n2, used_seed, flags, &scratch, &out,
                               &res, &err)
                : relic_mutate(m->mutator, m->in.map.bytes.data, m->in.map.bytes.size, in2, n2, used_seed, flags,
                               &scratch, &out, &res, &err);
            relic_arena_release(&scratch);
            if (st != RELIC_OK) continue;
            /* what `relic check` says is what the mode promises */
            if ((check_quietly(out.data, out.size, name) == 0) == invalid) continue;
            h = digest(out.data, out.size);
            int dup = 0;
            for (long long j = 0; j < written && !dup; j++) dup = seen[j] == h;
            for (int j = 0; j < npaths && !dup; j++)
                dup = ins[j].in.map.bytes.size == out.size && memcmp(ins[j].in.map.bytes.data, out.data, out.size) == 0;
            if (!dup) ok = 1;
        }
        if (!ok) {
            cli_errorf(m->in.path, 0, "no %s mutant for output %lld in %d seeds",
                       invalid ? "invalid" : "valid", k, SEEDS_PER_OUTPUT);
            status = EXIT_INVALID;
            break;
        }
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (cli_write(path, out.data, out.size, m->in.path)) {
            status = EXIT_INVALID;
            break;
        }
        seen[written++] = h;
        relic_buf_printf(&manifest, "%s\n    {\"file\": ", k ? "," : "");
        json_str(&manifest, name);
        relic_buf_puts(&manifest, ", \"format\": ");
        json_str(&manifest, m->mutator->name);
        relic_buf_puts(&manifest, ", \"input\": ");
        json_str(&manifest, m->in.path);
        if (m2) {
            relic_buf_puts(&manifest, ", \"second_input\": ");
            json_str(&manifest, m2->in.path);
        }
        relic_buf_printf(&manifest, ", \"seed\": %llu, \"mutations\": [", (unsigned long long)used_seed);
        for (int j = 0; j < res.nlog; j++) {
            relic_buf_puts(&manifest, j ? ",\n      {\"path\": " : "\n      {\"path\": ");
            json_str(&manifest, res.log[j].path);
            relic_buf_puts(&manifest, ", \"op\": ");
            json_str(&manifest, res.log[j].op);
            relic_buf_puts(&manifest, ", \"old\": ");
            json_str(&manifest, res.log[j].old_value);
            relic_buf_puts(&manifest, ", \"new\": ");
            json_str(&manifest, res.log[j].new_value);
            relic_buf_puts(&manifest, "}");
        }
        relic_buf_puts(&manifest, "]}");
    }
    relic_buf_puts(&manifest, "\n  ]\n}\n");
    char mpath[1024];
    snprintf(mpath, sizeof mpath, "%s/manifest.json", dir);
    if (manifest.failed) {
        fprintf(stderr, "relic mutate: out of memory for the manifest\n");
        status = EXIT_INVALID;
    } else if (cli_write(mpath, manifest.data, manifest.size, NULL)) status = EXIT_INVALID;
    else fprintf(stderr, "relic mutate: %lld %s file%s in %s\n", written, invalid ? "invalid" : "valid",
                 written == 1 ? "" : "s", dir);
out:
    relic_buf_free(&manifest);
    relic_buf_free(&out);
    for (int i = 0; i < loaded; i++) cli_unload(&ins[i].in);
    free(ins);
    free(seen);
    return status;
}
