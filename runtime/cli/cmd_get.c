/* cmd_get.c — `relic get FILE PATH`: print one value of a GFF file, found
 * by a path of labels and list indices ("Tile_List/3/Tile_ID"), read in
 * place through the zero-copy getters of runtime/formats/aurora/gff_access.c. Text is
 * printed as UTF-8 from the file's encoding (--encoding, else auto), the
 * form `relic set` takes back (runtime/cli/gff_encoding.c). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "gff_cli.h"
#include "relic_gff.h"
#include "erf_cli.h"
#include "key_cli.h"
#include <stdlib.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: relic get FILE PATH [--id N] [--encoding cp1252|utf8|auto] [--tlk dialog.tlk]\n"
               "       relic get dialog.tlk STRREF\n"
               "       relic get --install DIR RESREF.EXT [PATH]\n"
               "Print one value of a GFF file (ARE, GIT, IFO, UTC, DLG, BIC, ...). PATH is labels and\n"
               "list indices separated by '/' (Mod_Name, Tile_List/3/Tile_ID); an empty PATH is the\n"
               "top-level struct. Locstrings print their StrRef and one line per language; a struct or\n"
               "list prints what it holds. Text is printed as UTF-8, read in the file's encoding (auto:\n"
               "UTF-8 when all its text is, as NWN2 writes it, else cp1252; ResRefs always cp1252),\n"
               "the form `relic set` stores back. --tlk shows a locstring's StrRef as its text in the\n"
               "talk table (a line \"tlk: TEXT\" after \"strref N\"). --id N prints only the text of a\n"
               "locstring's StringID N, bare, so `relic set F P --id N \"$(relic get F P --id N)\"` keeps\n"
               "every language.\n"
               "A talk table (TLK V3.0) and a StrRef: that string's text.\n"
               "--install DIR: the resource looked up in the game's order (DIR/override, then the\n"
               "containers of DIR/modules in name order, then DIR/chitin.key's BIFs); its bytes are\n"
               "written to standard output (its source to standard error), or with PATH one GFF value.\n"
               "Exit status: 0 success, 1 invalid file or no such field, 2 usage error.\n");
}

static void print_struct(const relic_gff_doc *d, uint32_t s)
{
    uint32_t n = relic_gff_doc_struct_field_count(d, s);
    printf("struct id %" PRIu32 " (%s), %u fields:", relic_gff_doc_struct_id(d, s),
           relic_gff_doc_struct_id(d, s) == RELIC_GFF_NONE ? "none" : "set", (unsigned)n);
    for (uint32_t i = 0; i < n; i++) {
        size_t len;
        uint32_t f = relic_gff_struct_field(d, s, i);
        const char *label = relic_gff_field_label(d, f, &len);
        printf(" %.*s:%s", (int)len, label, relic_gff_type_name(relic_gff_field_type_of(d, f)));
    }
    printf("\n");
}

/* NO_ID: every language of a locstring; else only StringID id, bare */
#define NO_ID UINT32_MAX

static int print_field(const relic_gff_doc *d, uint32_t f, relic_gff_encoding enc, uint32_t only_id)
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
        printf("%" PRIu64 "\n", u);
        break;
    case RELIC_GFF_FIELD_TYPE_CHAR:
    case RELIC_GFF_FIELD_TYPE_SHORT:
    case RELIC_GFF_FIELD_TYPE_INT:
    case RELIC_GFF_FIELD_TYPE_INT64:
        relic_gff_get_int(d, f, &i, &err);
        printf("%" PRId64 "\n", i);
        break;
    case RELIC_GFF_FIELD_TYPE_FLOAT:
        relic_gff_get_float(d, f, &fl, &err);
        printf("%.9g\n", fl);
        break;
    case RELIC_GFF_FIELD_TYPE_DOUBLE:
        relic_gff_get_double(d, f, &db, &err);
        printf("%.17g\n", db);
        break;
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING: relic_gff_get_string(d, f, &b, &err); goto text;
    case RELIC_GFF_FIELD_TYPE_RESREF:
        relic_gff_get_resref(d, f, &b, &err);
        enc = RELIC_GFF_ENC_CP1252;
        goto text;
    case RELIC_GFF_FIELD_TYPE_VOID:
        relic_gff_get_void(d, f, &b, &err);
        for (size_t k = 0; k < b.size; k++) printf("%02x", b.data[k]);
        printf("\n");
        break;
    text:
        cli_gff_put_text(stdout, b.data, b.size, enc);
        printf("\n");
        break;
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING: {
        relic_gff_get_locstring(d, f, &ls, &err);
        const uint8_t *cur = ls.first;
        if (ls.strref != RELIC_GFF_NONE && only_id == NO_ID) printf("strref %" PRIu32 "\n", ls.strref);
        if (ls.strref != RELIC_GFF_NONE && only_id == NO_ID && cli_tlk_current) { /* --tlk */
            printf("tlk: ");
            if (!cli_tlk_put(stdout, cli_tlk_current, ls.strref)) printf("(not in the talk table)");
            printf("\n");
        }
        int found = 0;
        for (uint32_t k = 0; k < ls.count; k++) {
            uint32_t id;
            relic_gff_locstring_next(&cur, &id, &b);
            if (only_id != NO_ID) {
                if (id != only_id || found++) continue;
                cli_gff_put_text(stdout, b.data, b.size, enc);
                printf("\n");
                continue;
            }
            /* bare text only where `relic set` without --id puts it back */
            if (ls.count != 1 || ls.strref != RELIC_GFF_NONE || id != 0) printf("%" PRIu32 ": ", id);
            cli_gff_put_text(stdout, b.data, b.size, enc);
            printf("\n");
        }
        if (only_id != NO_ID && !found) return 1;
        break;
    }
    case RELIC_GFF_FIELD_TYPE_STRUCT:
        relic_gff_get_struct(d, f, &s, &err);
        print_struct(d, s);
        break;
    case RELIC_GFF_FIELD_TYPE_LIST:
        relic_gff_get_list(d, f, &l, &err);
        printf("list of %u structs\n", (unsigned)l.count);
        break;
    case RELIC_GFF_FIELD_TYPE_ORIENTATION:
        relic_gff_get_orientation(d, f, v, &err);
        printf("%.9g %.9g %.9g %.9g\n", v[0], v[1], v[2], v[3]);
        break;
    case RELIC_GFF_FIELD_TYPE_VECTOR:
        relic_gff_get_vector(d, f, v, &err);
        printf("%.9g %.9g %.9g\n", v[0], v[1], v[2]);
        break;
    }
    return 0;
}

static int get_main(const char **args, int n, const char *enc_name, const char *install, uint32_t only_id);

int cmd_get(int argc, char **argv)
{
    const char *args[2], *enc_name = NULL, *tlk_path = NULL, *install = NULL;
    relic_gff_encoding enc;
    uint32_t only_id = NO_ID;
    int n = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_VALID;
        }
        if (strcmp(argv[i], "--id") == 0 && i + 1 < argc) {
            char *end;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (*argv[i] < '0' || *argv[i] > '9' || *end || v >= NO_ID) {
                fprintf(stderr, "relic get: --id takes a StringID (0, 1, 2, ...), not '%s'\n", argv[i]);
                return EXIT_USAGE;
            }
            only_id = (uint32_t)v;
            continue;
        }
        if (strcmp(argv[i], "--tlk") == 0 && i + 1 < argc) {
            tlk_path = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "--install") == 0 && i + 1 < argc) {
            install = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "--encoding") == 0 && i + 1 < argc) {
            enc_name = argv[++i];
            if (cli_gff_encoding(enc_name, NULL, &enc)) {
                fprintf(stderr, "relic get: unknown encoding '%s' (cp1252, utf8, auto)\n", enc_name);
                return EXIT_USAGE;
            }
            continue;
        }
        if (n == 2) {
            usage(stderr);
            return EXIT_USAGE;
        }
        args[n++] = argv[i];
    }
    if (n != 2 && !(install && n == 1)) {
        usage(stderr);
        return EXIT_USAGE;
    }
    cli_tlk tlk;
    if (tlk_path) {
        if (cli_tlk_load(tlk_path, &tlk)) return EXIT_INVALID;
        cli_tlk_current = &tlk;
    }
    int grc = get_main(args, n, enc_name, install, only_id);
    if (tlk_path) cli_tlk_unload(&tlk);
    cli_tlk_current = NULL;
    return grc;
}

/* The text of a StrRef of a talk table: `relic get dialog.tlk 12345`. */
static int get_tlk_text(const cli_input *in, const char *arg)
{
    relic_tlk_view v;
    relic_error err;
    char *end;
    unsigned long long ref = strtoull(arg, &end, 0);
    if (!*arg || *end || ref > UINT32_MAX) {
        cli_errorf(in->path, 0, "'%s' is not a StrRef (a number)", arg);
        return EXIT_USAGE;
    }
    if (relic_tlk_open(in->map.bytes.data, in->map.bytes.size, &v, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &err);
        return EXIT_INVALID;
    }
    if (ref >= v.entries_count) {
        cli_errorf(in->path, 0, "StrRef %llu is past the %zu strings of the table", ref, v.entries_count);
        return EXIT_INVALID;
    }
    cli_tlk t = {*in, v, 1};
    cli_tlk_put(stdout, &t, (uint32_t)ref);
    printf("\n");
    return EXIT_VALID;
}

static int get_main(const char **args, int n, const char *enc_name, const char *install, uint32_t only_id)
{
    relic_gff_encoding enc;
    cli_input in;
    uint8_t *found = NULL;
    size_t found_size = 0;
    if (install) {
        /* the resource from the install; args[0] its name, args[1] the GFF path */
        char where[4096];
        int lr = cli_install_lookup(install, args[0], &found, &found_size, where, sizeof where);
        if (lr) {
            if (lr > 0) cli_errorf(install, 0, "no resource '%s' in override/, modules/ or chitin.key", args[0]);
            return EXIT_INVALID;
        }
        fprintf(stderr, "%s: from %s\n", args[0], where);
        if (n == 1) {
            int bad = fwrite(found, 1, found_size, stdout) != found_size || fflush(stdout) != 0;
            free(found);
            return bad ? EXIT_INVALID : EXIT_VALID;
        }
        memset(&in, 0, sizeof in);
        in.path = args[0];
        in.map.bytes.data = found;
        in.map.bytes.size = found_size;
        in.format = relic_detect(found, found_size, args[0]);
    } else if (cli_load(args[0], &in)) {
        return EXIT_INVALID;
    }
    if (in.format == RELIC_FORMAT_TLK) {
        int trc = get_tlk_text(&in, args[1]);
        if (found) free(found);
        else cli_unload(&in);
        return trc;
    }
    relic_arena a;
    relic_gff_doc d;
    relic_error err;
    uint32_t target;
    int is_struct, rc = EXIT_VALID;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    const uint8_t *gff = in.map.bytes.data;
    size_t gff_size = in.map.bytes.size;
    const char *path = args[1];
    if (in.format == RELIC_FORMAT_ERF) {
        /* a GFF member of a container, validated in place: module.ifo/Mod_Name */
        relic_erf_archive ar;
        uint32_t k;
        char member[RELIC_ERF_RESREF_MAX + 16];
        const char *slash = strchr(path, '/');
        size_t len = slash ? (size_t)(slash - path) : strlen(path);
        snprintf(member, sizeof member, "%.*s", (int)(len < sizeof member ? len : sizeof member - 1), path);
        if (cli_erf_open(&in, &a, &ar)) {
            rc = EXIT_INVALID;
            goto done;
        }
        if (!relic_erf_find(&ar, member, &k)) {
            cli_errorf(args[0], 0, "no member '%s' (see relic ls)", member);
            rc = EXIT_INVALID;
            goto done;
        }
        path = slash ? slash + 1 : "";
        if (relic_erf_open_gff(&ar, k, &a, &d, &err) != RELIC_OK) { /* errors at container offsets */
            cli_report(cli_problem_stream(), args[0], &err);
            rc = EXIT_INVALID;
            goto done;
        }
        gff = NULL;
    } else if (in.format != RELIC_FORMAT_GFF) {
        cli_errorf(args[0], 0, "not a GFF file (detected: %s)", relic_format_name(in.format));
        rc = EXIT_INVALID;
        goto done;
    }
    if (gff && relic_gff_open(gff, gff_size, &a, NULL, NULL, &d, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), args[0], &err);
        rc = EXIT_INVALID;
    } else if (relic_gff_resolve(&d, path, &target, &is_struct, &err) != RELIC_OK) {
        cli_error(args[0], &err);
        rc = EXIT_INVALID;
    } else if (is_struct) {
        print_struct(&d, target);
    } else if (only_id != NO_ID && relic_gff_field_type_of(&d, target) != RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING) {
        cli_errorf(args[0], 0, "%s: --id applies to a CExoLocString, not a %s", path,
                   relic_gff_type_name(relic_gff_field_type_of(&d, target)));
        rc = EXIT_INVALID;
    } else {
        cli_gff_encoding(enc_name, &d, &enc);
        if (print_field(&d, target, enc, only_id)) {
            cli_errorf(args[0], 0, "%s has no text of StringID %" PRIu32, path, only_id);
            rc = EXIT_INVALID;
        }
    }
done:
    relic_arena_release(&a);
    if (found) free(found);
    else cli_unload(&in);
    return rc;
}
