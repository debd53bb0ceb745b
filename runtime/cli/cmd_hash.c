/* cmd_hash.c — `relic hash`: Trespasser's string hash with the
 * normalisation of each use (Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp), printed as 8
 * upper-case hex digits, one line per name:
 *   --object (default)  raw bytes: instance handles, SCN section names
 *   --sound             '\' -> '/', ASCII lower case: TPA sample IDs, sound materials
 *   --texture           texture path + --bump path, normalised as --sound,
 *                       continued with the --diffuse float (default 1.0): PID texture IDs
 *   --names GROFF       the names of a GRF (its symbol table) with their
 *                       object hashes: all of them, or those whose hash is one
 *                       of the given SCN section names (hex) */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "relic_audio.h"
#include "relic_groff.h"
#include "relic_tres_names.h"

static void hash_usage(FILE *f)
{
    fprintf(f,
            "usage: relic hash [--json] [--object|--sound|--texture [--bump PATH] [--diffuse F]] NAME...\n"
            "Trespasser's string hash (CRC-32) of each NAME, as 8 upper-case hex digits.\n"
            "  --object   raw name, case kept: instance handles; SCN sections are named by it\n"
            "             (relic hash --object Player -> 9FB57F53); the default\n"
            "  --sound    '\\' as '/', A-Z lower-cased: sound IDs and sound materials\n"
            "  --texture  texture ID of a material: texture path then bump-map path (--bump),\n"
            "             normalised as --sound, then the diffuse value (--diffuse, default 1.0)\n"
            "usage: relic hash --names LEVEL.grf [HEX...]\n"
            "  every name of a GRF (or SCN) with its object hash, or the names whose hash is one\n"
            "  of the HEX values (SCN section names): \"HASH NAME\" lines; exit 1 when one is unknown\n"
            "  --json     one JSON object per line: name, kind (object, sound, texture), hash (8 hex\n"
            "             digits), value (the number); --names: hash, name (null when unknown) (docs/cli.md)\n");
}

/* One --json line. */
static void hash_json(const char *name, size_t n, const char *kind, uint32_t h)
{
    relic_buf o;
    relic_buf_init(&o, 0);
    relic_buf_puts(&o, "{\"name\": ");
    if (name) cli_json_text(&o, name, n);
    else relic_buf_puts(&o, "null");
    if (kind) {
        relic_buf_puts(&o, ", \"kind\": \"");
        relic_buf_puts(&o, kind);
        relic_buf_puts(&o, "\"");
    }
    relic_buf_printf(&o, ", \"hash\": \"%08X\", \"value\": %u}\n", (unsigned)h, (unsigned)h);
    if (!o.failed) fwrite(o.data, 1, o.size, stdout);
    relic_buf_free(&o);
}

static int json_out;

/* `relic hash --names GROFF [HEX...]` */
static int names_of(const char *path, int argc, char **argv, int first)
{
    cli_input in;
    relic_arena a;
    relic_bytes b;
    relic_groff_view v;
    relic_groff_file m;
    relic_error err;
    int compressed, rc = EXIT_VALID;
    if (cli_load(path, &in)) return EXIT_INVALID;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (relic_groff_open(in.map.bytes.data, in.map.bytes.size, &a, &b, &compressed, &err) != RELIC_OK ||
        relic_groff_validate(b.data, b.size, &v, &err) != RELIC_OK || relic_groff_decode(&v, &a, &m, &err) != RELIC_OK) {
        cli_error(path, &err);
        rc = EXIT_INVALID;
    } else if (first >= argc) {
        for (size_t k = 0; k < m.symbols_count; k++) {
            size_t n = m.symbols[k].name_count ? m.symbols[k].name_count - 1 : 0;
            uint32_t h = relic_tres_object_hash(m.symbols[k].name, n);
            if (json_out) hash_json(m.symbols[k].name, n, NULL, h);
            else printf("%08X %.*s\n", (unsigned)h, (int)n, m.symbols[k].name);
        }
    } else {
        for (int i = first; i < argc; i++) {
            uint32_t h;
            int found = 0;
            if (!relic_tres_parse_section_name(argv[i], strlen(argv[i]), &h)) {
                fprintf(stderr, "relic hash: '%s' is not a section name (upper-case hex, no leading zero)\n", argv[i]);
                rc = EXIT_USAGE;
                break;
            }
            for (size_t k = 0; k < m.symbols_count && !found; k++) {
                size_t n = m.symbols[k].name_count ? m.symbols[k].name_count - 1 : 0;
                if (relic_tres_object_hash(m.symbols[k].name, n) == h) {
                    if (json_out) hash_json(m.symbols[k].name, n, NULL, h);
                    else printf("%08X %.*s\n", (unsigned)h, (int)n, m.symbols[k].name);
                    found = 1;
                }
            }
            if (!found) {
                if (json_out) hash_json(NULL, 0, NULL, h);
                else printf("%08X ?\n", (unsigned)h);
                rc = EXIT_INVALID;
            }
        }
    }
    relic_arena_release(&a);
    cli_unload(&in);
    return rc;
}

int cmd_hash(int argc, char **argv)
{
    /* --json anywhere: taken out before the rest is read */
    int kept = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) {
            while (i < argc) argv[kept++] = argv[i++];
            break;
        }
        if (!strcmp(argv[i], "--json")) json_out = 1;
        else argv[kept++] = argv[i];
    }
    argc = kept;
    if (argc >= 2 && !strcmp(argv[1], "--names")) {
        if (argc < 3) {
            hash_usage(stderr);
            return EXIT_USAGE;
        }
        return names_of(argv[2], argc, argv, 3);
    }
    enum { OBJECT,
           SOUND,
           TEXTURE } mode = OBJECT;
    const char *bump = NULL;
    float diffuse = RELIC_TRES_DEFAULT_DIFFUSE;
    int names = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            hash_usage(stdout);
            return EXIT_VALID;
        }
        if (!strcmp(a, "--")) {
            names += argc - i - 1;
            break;
        }
        if (!strcmp(a, "--object")) mode = OBJECT;
        else if (!strcmp(a, "--sound")) mode = SOUND;
        else if (!strcmp(a, "--texture")) mode = TEXTURE;
        else if (!strcmp(a, "--bump") || !strcmp(a, "--diffuse")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "relic hash: %s needs a value\n", a);
                return EXIT_USAGE;
            }
            if (a[2] == 'b') bump = argv[++i];
            else {
                char *end;
                diffuse = strtof(argv[++i], &end);
                if (*end || end == argv[i]) {
                    fprintf(stderr, "relic hash: --diffuse '%s' is not a number\n", argv[i]);
                    return EXIT_USAGE;
                }
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "relic hash: unknown option '%s'\n", a);
            hash_usage(stderr);
            return EXIT_USAGE;
        } else {
            names++;
        }
    }
    if (names == 0) {
        hash_usage(stderr);
        return EXIT_USAGE;
    }
    if ((bump || diffuse != RELIC_TRES_DEFAULT_DIFFUSE) && mode != TEXTURE) {
        fprintf(stderr, "relic hash: --bump and --diffuse go with --texture\n");
        return EXIT_USAGE;
    }
    int after_dashes = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!after_dashes) {
            if (!strcmp(a, "--")) {
                after_dashes = 1;
                continue;
            }
            if (!strcmp(a, "--bump") || !strcmp(a, "--diffuse")) {
                i++;
                continue;
            }
            if (a[0] == '-' && a[1]) continue;
        }
        uint32_t h;
        size_t n = strlen(a);
        if (mode == OBJECT) h = relic_tres_object_hash(a, n);
        else if (mode == SOUND) h = relic_tres_sound_hash(a, n);
        else h = relic_tres_texture_id(a, n, bump, bump ? strlen(bump) : 0, diffuse);
        if (json_out) hash_json(a, n, mode == OBJECT ? "object" : mode == SOUND ? "sound"
                                                                                : "texture",
                                h);
        else printf("%08X\n", (unsigned)h);
    }
    return EXIT_VALID;
}
