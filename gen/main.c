/* main.c — relic-gen: schema files in, generated C, Markdown and fuzz
 * targets out. Pipeline: lexer (lexer.re) -> parser.c -> sema.c -> one
 * emitter per artifact. Output files are rewritten only when their bytes
 * change, so `make` rebuilds only what a schema change touches. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ast.h"
#include "emit.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: relic-gen [options] SCHEMA...\n"
            "Generate relic's C code from schema files (language: gen/SCHEMA.md).\n\n"
            "  -o DIR         generated C goes to DIR/<family>/ (default: generated)\n"
            "  --docs DIR     Markdown references go to DIR (default: generated/docs)\n"
            "  --fuzz DIR     libFuzzer targets go to DIR (default: fuzz)\n"
            "  --python DIR   Python modules go to DIR/<family>_<format>.py (none without it)\n"
            "  --check        parse and check only; write nothing\n"
            "  --report OLD NEW  print what changes from schema OLD to NEW for users of the\n"
            "                 bindings (types, fields, offsets, sizes, C symbols, JSON keys)\n"
            "                 and whether existing files still read; write nothing\n"
            "  -h, --help     this help\n\n"
            "<family> is the schema's directory name (schema/kotor/bwm.schema -> kotor).\n"
            "Errors are printed as file:line:col: message; exit status 1 when any.\n");
}

static int mkdirs(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
    return 0;
}

/* Write only when the content differs. */
static int write_if_changed(const char *dir, const char *name, const gen_out *o)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (mkdirs(dir) != 0) {
        fprintf(stderr, "relic-gen: cannot create %s: %s\n", dir, strerror(errno));
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (f) {
        char *old = malloc(o->size + 1);
        size_t n = old ? fread(old, 1, o->size + 1, f) : 0;
        fclose(f);
        int same = old && n == o->size && memcmp(old, o->data, o->size) == 0;
        free(old);
        if (same) return 0;
    }
    char tmp[1200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    f = fopen(tmp, "wb");
    if (!f || fwrite(o->data, 1, o->size, f) != o->size || fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "relic-gen: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

/* Runs of blank lines in C output squeezed to one, as a hand-written file
 * has them (an emitter part that prints nothing leaves its blank line). */
static void one_blank_line(gen_out *o)
{
    size_t w = 0;
    for (size_t r = 0; r < o->size; r++) {
        if (o->data[r] == '\n' && w >= 2 && o->data[w - 1] == '\n' && o->data[w - 2] == '\n') continue;
        o->data[w++] = o->data[r];
    }
    o->size = w;
    if (o->data) o->data[w] = 0;
}

/* write_if_changed of dir/<pattern with %s = the format name>; 1 on failure. */
static int put(const char *dir, const char *pattern, const gen_schema *s, gen_out *o)
{
    char name[300];
    em_c_names(s, o);
    snprintf(name, sizeof name, pattern, s->format.name);
    return write_if_changed(dir, name, o) != 0;
}

static const char *family_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return "misc";
    const char *start = slash;
    while (start > path && start[-1] != '/') start--;
    return gen_strndup(start, (size_t)(slash - start));
}

/* A typed GFF schema: header, tables and reference (no validator, JSON,
 * fuzz target or mutator: the file is read by the GFF reader). */
static int emit_gff(gen_schema *s, const char *outdir, const char *docsdir)
{
    gen_out h = {0}, c = {0}, d = {0};
    emit_gff_header(s, &h);
    emit_gff_source(s, &c);
    emit_gff_docs(s, &d);
    if (gen_error_count()) return 1;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", outdir, s->family);
    one_blank_line(&h);
    one_blank_line(&c);
    return put(dir, "%s.h", s, &h) | put(dir, "%s.c", s, &c) | put(docsdir, "%s.md", s, &d);
}

/* --report OLD NEW: both must parse and check. */
static int report(const char *old_path, const char *new_path)
{
    gen_schema *o = gen_parse_file(old_path);
    if (!o || gen_check(o) != 0) return 1;
    o->family = family_of(old_path);
    gen_schema *n = gen_parse_file(new_path);
    if (!n || gen_check(n) != 0) return 1;
    n->family = family_of(new_path);
    gen_out out = {0};
    gen_report(o, n, &out);
    em_c_names(n, &out);
    fwrite(out.data, 1, out.size, stdout);
    return 0;
}

int main(int argc, char **argv)
{
    const char *outdir = "generated", *docsdir = "generated/docs", *fuzzdir = "fuzz", *pydir = NULL;
    int check_only = 0, nschemas = 0, failed = 0;
    const char *schemas[256];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) outdir = argv[++i];
        else if (!strcmp(argv[i], "--docs") && i + 1 < argc) docsdir = argv[++i];
        else if (!strcmp(argv[i], "--fuzz") && i + 1 < argc) fuzzdir = argv[++i];
        else if (!strcmp(argv[i], "--python") && i + 1 < argc) pydir = argv[++i];
        else if (!strcmp(argv[i], "--check")) check_only = 1;
        else if (!strcmp(argv[i], "--report") && i + 2 < argc) return report(argv[i + 1], argv[i + 2]);
        else if (argv[i][0] == '-') {
            fprintf(stderr, "relic-gen: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else if (nschemas < 256) schemas[nschemas++] = argv[i];
    }
    if (nschemas == 0) {
        usage(stderr);
        return 2;
    }
    gen_schema *detected[256], *all[256];
    int ndetected = 0, nall = 0;
    for (int i = 0; i < nschemas; i++) {
        gen_schema *s = gen_parse_file(schemas[i]);
        if (!s || gen_check(s) != 0) {
            failed = 1;
            continue;
        }
        s->family = family_of(schemas[i]);
        if (check_only) continue;
        if (pydir) {
            gen_out py = {0};
            char name[300];
            emit_python(s, &py);
            snprintf(name, sizeof name, "%s_%s.py", s->family, s->format.name);
            failed |= write_if_changed(pydir, name, &py) != 0;
            all[nall++] = s;
        }
        if (s->format.is_gff) {
            failed |= emit_gff(s, outdir, docsdir);
            continue;
        }
        gen_out h = {0}, c = {0}, j = {0}, d = {0}, z = {0}, mc = {0}, dict = {0};
        emit_header(s, &h);
        emit_source(s, &c);
        emit_json(s, &j);
        emit_json_ops(s, &j);
        emit_docs(s, &d);
        emit_fuzz(s, &z);
        emit_mutate(s, &mc);
        emit_fuzz_dict(s, &dict);
        if (gen_error_count()) {
            failed = 1;
            continue;
        }
        if (s->format.detect) detected[ndetected++] = s;
        char dir[1024], ddir[1100];
        snprintf(dir, sizeof dir, "%s/%s", outdir, s->family);
        snprintf(ddir, sizeof ddir, "%s/dict", fuzzdir);
        one_blank_line(&h);
        one_blank_line(&c);
        one_blank_line(&j);
        one_blank_line(&mc);
        failed |= put(dir, "%s.h", s, &h) | put(dir, "%s.c", s, &c) | put(dir, "%s_json.c", s, &j) |
            put(docsdir, "%s.md", s, &d) | put(fuzzdir, "gen_%s.c", s, &z) |
            put(dir, "%s_mutate.c", s, &mc) | put(ddir, "gen_%s.dict", s, &dict);
    }
    if (!check_only && !failed && ndetected) {
        /* the detection table, over every schema given (one run regenerates it whole) */
        gen_out r = {0};
        char dir[1100];
        emit_detect_registry(detected, ndetected, &r);
        snprintf(dir, sizeof dir, "%s/registry", outdir);
        failed |= write_if_changed(dir, "formats.c", &r) != 0;
    }
    if (!check_only && !failed && pydir) {
        gen_out r = {0};
        emit_python_index(all, nall, &r);
        failed |= write_if_changed(pydir, "__init__.py", &r) != 0;
    }
    return failed ? 1 : 0;
}
