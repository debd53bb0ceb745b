/* cmd_diff.c — `relic diff A B`: the field-level differences between two
 * GFF files (or GFF members of containers, A = module.mod:module.ifo), by
 * path, read in place through the zero-copy getters (runtime/formats/aurora/gff_access.c).
 * Fields are matched by label within a struct (the last of duplicate labels,
 * as relic_gff_find), list elements by index. One line per difference:
 *   ~ PATH: OLD -> NEW      changed value (or type: "dword 3 -> int 3")
 *   - PATH: OLD             only in A
 *   + PATH: NEW             only in B
 * Text is shown as UTF-8, converted from each file's encoding (windows-1252,
 * or UTF-8 for NWN2 files: relic_gff_detect_encoding).
 * Exit status as diff(1): 0 equal, 1 different, 2 trouble (invalid input,
 * usage). Sources: xoreos, src/aurora/gff3file.cpp; neverwinter.nim, gff.nim. */
#include <inttypes.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "erf_cli.h"
#include "gff_cli.h"
#include "gff_text.h"
#include "key_cli.h"
#include "relic_gen.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: relic diff A B [--json] [--encoding cp1252|utf8|auto] [--tlk dialog.tlk]\n"
               "Print the field-level differences between two GFF files, one per line by path:\n"
               "  ~ PATH: OLD -> NEW   changed   - PATH: OLD   only in A   + PATH: NEW   only in B\n"
               "Fields are matched by label, list elements by index; struct ids show as PATH/__struct_id.\n"
               "Text is shown as UTF-8 from each file's encoding (auto: as relic get and set choose it).\n"
               "A GFF member of a container is named CONTAINER:MEMBER (module.mod:module.ifo).\n"
               "--tlk T: a locstring's StrRef is followed by its text in talk table T (strref 13 \"Paladins\").\n"
               "  --json   one JSON object: a, b, same, changes [{op (~ - +), path, a, b}] (docs/cli.md)\n"
               "Exit status: 0 no differences, 1 differences, 2 invalid input or usage error.\n");
}

/* One side: the file, and the GFF in it. */
typedef struct side {
    cli_input in;
    relic_arena a;
    relic_gff_doc d;
    int loaded;
} side;

static int open_side(const char *arg, side *s)
{
    char file[4096];
    const char *member = NULL;
    relic_error err;
    snprintf(file, sizeof file, "%s", arg);
    relic_arena_init_heap(&s->a, CLI_ARENA_LIMIT);
    struct stat st;
    char *colon = strrchr(file, ':');
    if (stat(file, &st) != 0 && colon) { /* FILE:MEMBER */
        *colon = 0;
        member = colon + 1;
    }
    if (cli_load(file, &s->in)) return 1;
    s->loaded = 1;
    const uint8_t *p = s->in.map.bytes.data;
    size_t n = s->in.map.bytes.size;
    if (s->in.format == RELIC_FORMAT_ERF && member) {
        relic_erf_archive ar;
        uint32_t k;
        if (cli_erf_open(&s->in, &s->a, &ar)) return 1;
        if (!relic_erf_find(&ar, member, &k)) {
            cli_errorf(file, 0, "no member '%s' (see relic ls)", member);
            return 1;
        }
        if (relic_erf_open_gff(&ar, k, &s->a, &s->d, &err) != RELIC_OK) {
            cli_error(file, &err);
            return 1;
        }
        return 0;
    } else if (s->in.format != RELIC_FORMAT_GFF || member) {
        cli_errorf(arg, 0, "not a GFF file (detected: %s)", relic_format_name(s->in.format));
        return 1;
    }
    if (relic_gff_open(p, n, &s->a, NULL, NULL, &s->d, &err) != RELIC_OK) {
        cli_error(arg, &err);
        return 1;
    }
    return 0;
}

static void close_side(side *s)
{
    if (s->loaded) cli_unload(&s->in);
    relic_arena_release(&s->a);
}

/* Text quoted, as UTF-8: control bytes, quotes and backslashes escaped;
 * cp1252 bytes converted; in a UTF-8 file, bytes that are not UTF-8 as \xHH. */
static void put_text(relic_buf *o, const uint8_t *p, size_t n, relic_gff_encoding enc)
{
    relic_buf_puts(o, "\"");
    for (size_t i = 0; i < n;) {
        uint8_t c = p[i];
        uint32_t cp;
        size_t step;
        if (c == '"' || c == '\\') {
            relic_buf_printf(o, "\\%c", c);
            i++;
        } else if (c < 0x20 || c == 0x7F) {
            relic_buf_printf(o, "\\x%02x", c);
            i++;
        } else if (c < 0x80) {
            relic_buf_append(o, &c, 1);
            i++;
        } else if (enc != RELIC_GFF_ENC_UTF8) {
            uint8_t u[3];
            relic_buf_append(o, u, relic_cp1252_utf8(c, u));
            i++;
        } else if ((step = relic_utf8_next(p + i, n - i, &cp)) != 0) {
            relic_buf_append(o, p + i, step);
            i += step;
        } else {
            relic_buf_printf(o, "\\x%02x", c);
            i++;
        }
    }
    relic_buf_puts(o, "\"");
}

/* The value of field f as text (exact: floats with enough digits to tell
 * any two apart; text quoted with escapes). */
static void format_value(const relic_gff_doc *d, relic_gff_encoding enc, uint32_t f, relic_buf *o)
{
    relic_error err;
    uint64_t u;
    int64_t i;
    float fl, v[4];
    double db;
    relic_bytes b;
    relic_gff_locstring ls;
    relic_gff_list l;
    uint32_t s;
    switch (relic_gff_field_type_of(d, f)) {
    case RELIC_GFF_FIELD_TYPE_BYTE:
    case RELIC_GFF_FIELD_TYPE_WORD:
    case RELIC_GFF_FIELD_TYPE_DWORD:
    case RELIC_GFF_FIELD_TYPE_DWORD64:
        relic_gff_get_uint(d, f, &u, &err);
        relic_buf_printf(o, "%" PRIu64, u);
        break;
    case RELIC_GFF_FIELD_TYPE_CHAR:
    case RELIC_GFF_FIELD_TYPE_SHORT:
    case RELIC_GFF_FIELD_TYPE_INT:
    case RELIC_GFF_FIELD_TYPE_INT64:
        relic_gff_get_int(d, f, &i, &err);
        relic_buf_printf(o, "%" PRId64, i);
        break;
    case RELIC_GFF_FIELD_TYPE_FLOAT:
        relic_gff_get_float(d, f, &fl, &err);
        relic_buf_printf(o, "%.9g", fl);
        break;
    case RELIC_GFF_FIELD_TYPE_DOUBLE:
        relic_gff_get_double(d, f, &db, &err);
        relic_buf_printf(o, "%.17g", db);
        break;
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING:
        relic_gff_get_string(d, f, &b, &err);
        put_text(o, b.data, b.size, enc);
        break;
    case RELIC_GFF_FIELD_TYPE_RESREF: /* always windows-1252, as get, set and the JSON form */
        relic_gff_get_resref(d, f, &b, &err);
        put_text(o, b.data, b.size, RELIC_GFF_ENC_CP1252);
        break;
    case RELIC_GFF_FIELD_TYPE_VOID:
        relic_gff_get_void(d, f, &b, &err);
        relic_buf_puts(o, "0x");
        for (size_t k = 0; k < b.size; k++) relic_buf_printf(o, "%02x", b.data[k]);
        break;
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING: {
        relic_gff_get_locstring(d, f, &ls, &err);
        const uint8_t *cur = ls.first;
        relic_buf_puts(o, "{");
        if (ls.strref != RELIC_GFF_NONE) {
            const char *tt;
            size_t tn;
            relic_buf_printf(o, "strref %" PRIu32, ls.strref);
            if (cli_tlk_current && cli_tlk_strref_text((void *)cli_tlk_current, ls.strref, &tt, &tn)) { /* --tlk */
                relic_buf_puts(o, " ");
                put_text(o, (const uint8_t *)tt, tn, RELIC_GFF_ENC_UTF8);
            }
            relic_buf_puts(o, ls.count ? ", " : "");
        }
        for (uint32_t k = 0; k < ls.count; k++) {
            uint32_t id;
            relic_gff_locstring_next(&cur, &id, &b);
            relic_buf_printf(o, "%s%" PRIu32 ": ", k ? ", " : "", id);
            put_text(o, b.data, b.size, enc);
        }
        relic_buf_puts(o, "}");
        break;
    }
    case RELIC_GFF_FIELD_TYPE_STRUCT:
        relic_gff_get_struct(d, f, &s, &err);
        relic_buf_printf(o, "struct (%u fields)", (unsigned)relic_gff_doc_struct_field_count(d, s));
        break;
    case RELIC_GFF_FIELD_TYPE_LIST:
        relic_gff_get_list(d, f, &l, &err);
        relic_buf_printf(o, "list of %u", (unsigned)l.count);
        break;
    case RELIC_GFF_FIELD_TYPE_ORIENTATION:
        relic_gff_get_orientation(d, f, v, &err);
        relic_buf_printf(o, "%.9g %.9g %.9g %.9g", v[0], v[1], v[2], v[3]);
        break;
    case RELIC_GFF_FIELD_TYPE_VECTOR:
        relic_gff_get_vector(d, f, v, &err);
        relic_buf_printf(o, "%.9g %.9g %.9g", v[0], v[1], v[2]);
        break;
    }
}

typedef struct differ {
    const relic_gff_doc *a, *b;
    relic_gff_encoding ea, eb; /* their text encodings */
    unsigned count;
    char path[4096];
    size_t plen;
    relic_buf *json; /* --json: the changes array being written, else NULL */
} differ;

/* One difference at path (suffix appended after a '/' when non-NULL): the
 * text line "MARK PATH: A -> B" (either side absent for + and -), or with
 * --json an element {"op", "path", "a", "b"} of the changes array. */
static void emit(differ *df, char mark, const char *suffix, const char *a, size_t alen, const char *b, size_t blen)
{
    char path[sizeof df->path + 32];
    snprintf(path, sizeof path, "%s%s%s", df->path, suffix && df->plen ? "/" : "", suffix ? suffix : "");
    if (df->json) {
        char op[2] = {mark, 0};
        relic_buf *o = df->json;
        relic_buf_puts(o, df->count ? ", {\"op\": " : "{\"op\": ");
        cli_json_text(o, op, 1);
        relic_buf_puts(o, ", \"path\": ");
        cli_json_text(o, path, strlen(path));
        if (a) {
            relic_buf_puts(o, ", \"a\": ");
            cli_json_text(o, a, alen);
        }
        if (b) {
            relic_buf_puts(o, ", \"b\": ");
            cli_json_text(o, b, blen);
        }
        relic_buf_puts(o, "}");
    } else {
        char shown[4 * sizeof path]; /* labels are the file's bytes: escaped, so they cannot drive the terminal */
        printf("%c %s: %.*s%s%.*s\n", mark, cli_escape(shown, sizeof shown, path, strlen(path)), a ? (int)alen : 0,
               a ? a : "", a && b ? " -> " : "", b ? (int)blen : 0, b ? b : "");
    }
    df->count++;
}

static size_t push(differ *df, const char *s, size_t n)
{
    size_t old = df->plen;
    if (df->plen && df->plen + 1 < sizeof df->path) df->path[df->plen++] = '/';
    if (n > sizeof df->path - 1 - df->plen) n = sizeof df->path - 1 - df->plen;
    memcpy(df->path + df->plen, s, n);
    df->plen += n;
    df->path[df->plen] = 0;
    return old;
}

static void pop(differ *df, size_t old)
{
    df->plen = old;
    df->path[old] = 0;
}

static void line(differ *df, char mark, const relic_gff_doc *d1, uint32_t f1, const relic_gff_doc *d2, uint32_t f2)
{
    relic_buf va, vb;
    relic_buf_init(&va, 0);
    relic_buf_init(&vb, 0);
    if (d1) format_value(d1, df->ea, f1, &va);
    if (d2) format_value(d2, df->eb, f2, &vb);
    emit(df, mark, NULL, d1 ? (const char *)va.data : NULL, va.size, d2 ? (const char *)vb.data : NULL, vb.size);
    relic_buf_free(&va);
    relic_buf_free(&vb);
}

static void diff_struct(differ *df, uint32_t sa, uint32_t sb, int depth);

static void diff_field(differ *df, uint32_t fa, uint32_t fb, int depth)
{
    const relic_gff_doc *a = df->a, *b = df->b;
    relic_error err;
    uint32_t ta = relic_gff_field_type_of(a, fa), tb = relic_gff_field_type_of(b, fb);
    if (ta != tb) {
        relic_buf va, vb;
        relic_buf_init(&va, 0);
        relic_buf_init(&vb, 0);
        relic_buf_printf(&va, "%s ", relic_gff_type_name(ta));
        format_value(a, df->ea, fa, &va);
        relic_buf_printf(&vb, "%s ", relic_gff_type_name(tb));
        format_value(b, df->eb, fb, &vb);
        emit(df, '~', NULL, (const char *)va.data, va.size, (const char *)vb.data, vb.size);
        relic_buf_free(&va);
        relic_buf_free(&vb);
        return;
    }
    if (ta == RELIC_GFF_FIELD_TYPE_STRUCT) {
        uint32_t sa, sb;
        relic_gff_get_struct(a, fa, &sa, &err);
        relic_gff_get_struct(b, fb, &sb, &err);
        diff_struct(df, sa, sb, depth + 1);
        return;
    }
    if (ta == RELIC_GFF_FIELD_TYPE_LIST) {
        relic_gff_list la, lb;
        char idx[16];
        relic_gff_get_list(a, fa, &la, &err);
        relic_gff_get_list(b, fb, &lb, &err);
        uint32_t n = la.count > lb.count ? la.count : lb.count;
        for (uint32_t i = 0; i < n; i++) {
            size_t old = push(df, idx, (size_t)snprintf(idx, sizeof idx, "%u", (unsigned)i));
            if (i < la.count && i < lb.count) diff_struct(df, relic_gff_list_at(&la, i), relic_gff_list_at(&lb, i), depth + 1);
            else {
                uint32_t s = i < la.count ? relic_gff_list_at(&la, i) : relic_gff_list_at(&lb, i);
                const relic_gff_doc *d = i < la.count ? a : b;
                char v[48];
                int vn = snprintf(v, sizeof v, "struct (%u fields)", (unsigned)relic_gff_doc_struct_field_count(d, s));
                if (i < la.count) emit(df, '-', NULL, v, (size_t)vn, NULL, 0);
                else emit(df, '+', NULL, NULL, 0, v, (size_t)vn);
            }
            pop(df, old);
        }
        return;
    }
    relic_buf va, vb;
    relic_buf_init(&va, 0);
    relic_buf_init(&vb, 0);
    format_value(a, df->ea, fa, &va);
    format_value(b, df->eb, fb, &vb);
    if (va.size != vb.size || memcmp(va.data, vb.data, va.size) != 0) line(df, '~', a, fa, b, fb);
    relic_buf_free(&va);
    relic_buf_free(&vb);
}

static void diff_struct(differ *df, uint32_t sa, uint32_t sb, int depth)
{
    const relic_gff_doc *a = df->a, *b = df->b;
    if (depth > RELIC_GFF_MAX_DEPTH) return; /* validation bounds the depth; this keeps the recursion obviously bounded */
    if (relic_gff_doc_struct_id(a, sa) != relic_gff_doc_struct_id(b, sb)) {
        char va[16], vb[16];
        int na_ = snprintf(va, sizeof va, "%" PRIu32, relic_gff_doc_struct_id(a, sa));
        int nb_ = snprintf(vb, sizeof vb, "%" PRIu32, relic_gff_doc_struct_id(b, sb));
        emit(df, '~', "__struct_id", va, (size_t)na_, vb, (size_t)nb_);
    }
    uint32_t na = relic_gff_doc_struct_field_count(a, sa), nb = relic_gff_doc_struct_field_count(b, sb);
    for (uint32_t i = 0; i < na; i++) {
        size_t len;
        char label[17];
        uint32_t fa = relic_gff_struct_field(a, sa, i), fb;
        const char *l = relic_gff_field_label(a, fa, &len);
        memcpy(label, l, len);
        label[len] = 0;
        uint32_t last;
        if (relic_gff_find(a, sa, label, &last) && last != fa) continue; /* an earlier duplicate: the last one counts */
        size_t old = push(df, label, len);
        if (relic_gff_find(b, sb, label, &fb)) diff_field(df, fa, fb, depth);
        else line(df, '-', a, fa, NULL, 0);
        pop(df, old);
    }
    for (uint32_t i = 0; i < nb; i++) {
        size_t len;
        char label[17];
        uint32_t fb = relic_gff_struct_field(b, sb, i), fa, last;
        const char *l = relic_gff_field_label(b, fb, &len);
        memcpy(label, l, len);
        label[len] = 0;
        if (relic_gff_find(b, sb, label, &last) && last != fb) continue;
        if (relic_gff_find(a, sa, label, &fa)) continue;
        size_t old = push(df, label, len);
        line(df, '+', NULL, 0, b, fb);
        pop(df, old);
    }
}

int cmd_diff(int argc, char **argv)
{
    const char *args[2], *enc_name = NULL;
    relic_gff_encoding enc;
    cli_tlk tlk = {0};
    int n = 0, t, json = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_VALID;
        }
        if ((t = cli_tlk_option(argc, argv, &i, &tlk)) != 0) {
            if (t < 0) return 2;
            continue;
        }
        if (strcmp(argv[i], "--json") == 0) {
            json = 1;
            continue;
        }
        if (strcmp(argv[i], "--encoding") == 0 && i + 1 < argc) {
            enc_name = argv[++i];
            if (cli_gff_encoding(enc_name, NULL, &enc)) {
                fprintf(stderr, "relic diff: unknown encoding '%s' (cp1252, utf8, auto)\n", enc_name);
                return 2;
            }
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "relic diff: unknown option '%s'\n", argv[i]);
            return 2;
        }
        if (n == 2) {
            usage(stderr);
            return 2;
        }
        args[n++] = argv[i];
    }
    if (n != 2) {
        usage(stderr);
        return 2;
    }
    side sa, sb;
    memset(&sa, 0, sizeof sa);
    memset(&sb, 0, sizeof sb);
    int rc = 2;
    if (open_side(args[0], &sa) == 0 && open_side(args[1], &sb) == 0) {
        differ df;
        relic_buf jo;
        memset(&df, 0, sizeof df);
        relic_buf_init(&jo, 0);
        if (json) df.json = &jo;
        df.a = &sa.d;
        df.b = &sb.d;
        cli_gff_encoding(enc_name, &sa.d, &df.ea); /* the same choice as get, set and dump */
        cli_gff_encoding(enc_name, &sb.d, &df.eb);
        if (memcmp(relic_gff_file_type(&sa.d), relic_gff_file_type(&sb.d), 4) != 0) {
            char va[8], vb[8];
            snprintf(va, sizeof va, "\"%.4s\"", relic_gff_file_type(&sa.d));
            snprintf(vb, sizeof vb, "\"%.4s\"", relic_gff_file_type(&sb.d));
            emit(&df, '~', "__file_type", va, strlen(va), vb, strlen(vb));
        }
        diff_struct(&df, 0, 0, 0);
        rc = df.count ? 1 : 0;
        if (json) {
            /* {"a": A, "b": B, "same": bool, "changes": [...]} on one line */
            relic_buf o;
            relic_buf_init(&o, 0);
            relic_buf_puts(&o, "{\"a\": ");
            cli_json_text(&o, args[0], strlen(args[0]));
            relic_buf_puts(&o, ", \"b\": ");
            cli_json_text(&o, args[1], strlen(args[1]));
            relic_buf_puts(&o, df.count ? ", \"same\": false, \"changes\": [" : ", \"same\": true, \"changes\": [");
            relic_buf_append(&o, jo.data, jo.size);
            relic_buf_puts(&o, "]}\n");
            if (o.failed || jo.failed || fwrite(o.data, 1, o.size, stdout) != o.size) rc = 2;
            relic_buf_free(&o);
        }
        relic_buf_free(&jo);
    }
    close_side(&sa);
    close_side(&sb);
    cli_tlk_unload(&tlk);
    cli_tlk_current = NULL;
    return rc;
}
