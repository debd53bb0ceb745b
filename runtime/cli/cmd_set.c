/* cmd_set.c — `relic set FILE PATH VALUE [--id N]`: change one value of a
 * GFF file, or of a GFF member of a container (PATH = member.ext/Label/...).
 * A value of fixed size (BYTE..DOUBLE, Orientation, Vector) is patched in
 * place in a writable mapping (runtime/formats/aurora/gff_patch.c): the file keeps its
 * layout and every other byte. Any other value (CExoString, CResRef, VOID as
 * hex, a CExoLocString's substring N) changes sizes, so the file is read
 * into a tree, changed, written again in its own layout where that still
 * fits (its writer's layout family otherwise, gff_layout.c), validated, and
 * replaced atomically.
 * Text comes from the command line as UTF-8 and is stored in the file's
 * encoding (xoreos-tools, src/aurora/language.cpp; neverwinter.nim, util.nim: windows-1252 for NWN1/KotOR, UTF-8 for
 * NWN2; relic_gff_detect_encoding, or --encoding), as `relic get` shows it
 * (runtime/cli/gff_encoding.c), so set after get stores the same bytes.
 * The command says which of the two happened. On any error the input is
 * left as it was: values are parsed and range-checked before the first byte
 * is written. Sources: xoreos, src/aurora/gff3file.h, src/aurora/gff3file.cpp, gff3writer.cpp, src/aurora/erffile.cpp; neverwinter.nim, gff.nim, erf.nim; nwn-lib-d, gff.d for members. */
#include <stdlib.h>

#include "erf_cli.h"
#include "gff_cli.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: relic set FILE PATH VALUE [--id N] [--encoding cp1252|utf8|auto]\n"
               "Set one value of a GFF file (or of a GFF member of a container: PATH = module.ifo/Mod_Name).\n"
               "PATH is labels and list indices separated by '/' (Tile_List/3/Tile_ID). Integers are decimal\n"
               "or 0x hex within the type's range; Orientation/Vector take 4/3 numbers separated by spaces\n"
               "or commas; these are patched in place. Strings and ResRefs take VALUE's bytes; VOID takes hex;\n"
               "a CExoLocString sets the text of StringID N (--id, default 0 = English, masculine); those\n"
               "rewrite the file atomically in its own layout when it still fits, else its writer's layout family.\n"
               "Text (UTF-8 on the command line) is stored in the file's encoding: windows-1252, or UTF-8\n"
               "when the file's text is UTF-8 (NWN2); --encoding overrides; the same choice as relic get.\n"
               "Exit status: 0 success, 1 invalid file, bad value or no such field, 2 usage error.\n");
}

/* The tree field that came from field index f of the file. */
static relic_gff_tfield *find_src(relic_gff_tstruct *s, uint32_t f, int depth)
{
    if (!s || depth > RELIC_GFF_MAX_DEPTH) return NULL;
    for (uint32_t i = 0; i < s->field_count; i++) {
        relic_gff_tfield *t = &s->fields[i];
        if (t->src_index == f) return t;
        relic_gff_tfield *r = NULL;
        if (t->type == RELIC_GFF_FIELD_TYPE_STRUCT) r = find_src(t->v.child, f, depth + 1);
        else if (t->type == RELIC_GFF_FIELD_TYPE_LIST)
            for (size_t k = 0; k < t->v.list.count && !r; k++) r = find_src(t->v.list.items[k], f, depth + 1);
        if (r) return r;
    }
    return NULL;
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
        : c >= 'A' && c <= 'F'                                   ? c - 'A' + 10
                                                                 : -1;
}

/* Change a variable-size value of the tree. */
static int set_tree_value(relic_gff_tfield *t, const char *value, uint32_t id, relic_gff_encoding enc, relic_arena *a,
                          const char *label)
{
    size_t n = strlen(value);
    switch (t->type) {
    case RELIC_GFF_FIELD_TYPE_RESREF:
        /* ResRefs are windows-1252 whatever the file's text encoding, as `relic get` shows them */
        t->v.bytes.p = cli_gff_encode_text(value, RELIC_GFF_ENC_CP1252, a, &t->v.bytes.n, "set", label);
        if (!t->v.bytes.p) return 1;
        if (t->v.bytes.n > 32) {
            fprintf(stderr, "relic set: %s: a ResRef has at most 32 characters (16 in NWN1/KotOR)\n", label);
            return 1;
        }
        for (size_t i = 0; i < t->v.bytes.n; i++)
            if (t->v.bytes.p[i] < 0x20 || t->v.bytes.p[i] == 0x7F) {
                fprintf(stderr, "relic set: %s: a ResRef has no control characters\n", label);
                return 1;
            }
        return 0;
    case RELIC_GFF_FIELD_TYPE_CEXOSTRING:
        t->v.bytes.p = cli_gff_encode_text(value, enc, a, &t->v.bytes.n, "set", label);
        return t->v.bytes.p == NULL;
    case RELIC_GFF_FIELD_TYPE_VOID: {
        if (n % 2) {
            fprintf(stderr, "relic set: %s: VOID takes an even number of hex digits\n", label);
            return 1;
        }
        uint8_t *p = relic_arena_alloc(a, n / 2 + 1, 1);
        if (!p) return 1;
        for (size_t i = 0; i < n / 2; i++) {
            int hi = hexval((unsigned char)value[2 * i]), lo = hexval((unsigned char)value[2 * i + 1]);
            if (hi < 0 || lo < 0) {
                fprintf(stderr, "relic set: %s: '%s' is not hex\n", label, value);
                return 1;
            }
            p[i] = (uint8_t)(hi << 4 | lo);
        }
        t->v.bytes.p = p;
        t->v.bytes.n = n / 2;
        return 0;
    }
    case RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING: {
        uint8_t *text = cli_gff_encode_text(value, enc, a, &n, "set", label);
        if (!text) return 1;
        for (uint32_t i = 0; i < t->v.loc.count; i++)
            if (t->v.loc.s[i].string_id == id) {
                t->v.loc.s[i].text = text;
                t->v.loc.s[i].len = n;
                return 0;
            }
        relic_gff_tsubstring *s = relic_arena_array(a, t->v.loc.count + 1, sizeof *s, 8);
        if (!s) return 1;
        if (t->v.loc.count) memcpy(s, t->v.loc.s, t->v.loc.count * sizeof *s);
        s[t->v.loc.count].string_id = id;
        s[t->v.loc.count].text = text;
        s[t->v.loc.count].len = n;
        t->v.loc.s = s;
        t->v.loc.count++;
        return 0;
    }
    default:
        fprintf(stderr, "relic set: %s: a %s cannot be set from text (set its fields instead)\n", label,
                relic_gff_type_name(t->type));
        return 1;
    }
}

/* Where the GFF lies in the file: the whole file or a container member. */
typedef struct gff_span {
    size_t offset, size;
    uint32_t member;
    int in_container;
    const char *path;
} gff_span;

/* Find the GFF in bytes (member name = first component of *path for a
 * container; *path advanced past it). a holds the archive tables. */
static int locate(const cli_input *in, relic_arena *a, relic_erf_archive *ar, gff_span *sp)
{
    const char *path = sp->path;
    memset(sp, 0, sizeof *sp);
    sp->path = path;
    sp->size = in->map.bytes.size;
    if (in->format == RELIC_FORMAT_GFF) return 0;
    if (in->format != RELIC_FORMAT_ERF) {
        cli_errorf(in->path, 0, "not a GFF file or a container (detected: %s)", relic_format_name(in->format));
        return 1;
    }
    if (cli_erf_open(in, a, ar)) return 1;
    const char *slash = strchr(sp->path, '/');
    size_t len = slash ? (size_t)(slash - sp->path) : strlen(sp->path);
    char name[RELIC_ERF_RESREF_MAX + 16];
    if (len >= sizeof name) len = sizeof name - 1;
    memcpy(name, sp->path, len);
    name[len] = 0;
    if (!relic_erf_find(ar, name, &sp->member)) {
        cli_errorf(in->path, 0, "no member '%s' (see relic ls)", name);
        return 1;
    }
    sp->in_container = 1;
    sp->offset = ar->entries[sp->member].offset;
    sp->size = ar->entries[sp->member].size;
    sp->path = slash ? slash + 1 : "";
    return 0;
}

int cmd_set(int argc, char **argv)
{
    const char *args[3];
    int n = 0;
    uint32_t id = 0;
    relic_gff_encoding enc = RELIC_GFF_ENC_AUTO;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_VALID;
        }
        if (!strcmp(argv[i], "--encoding") && i + 1 < argc) {
            if (!relic_gff_encoding_from_name(argv[++i], &enc)) {
                fprintf(stderr, "relic set: unknown encoding '%s' (cp1252, utf8, auto)\n", argv[i]);
                return EXIT_USAGE;
            }
            continue;
        }
        if (!strcmp(argv[i], "--id") && i + 1 < argc) {
            char *end;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (*end || v > 0xFFFFFFFFul) {
                fprintf(stderr, "relic set: bad --id '%s'\n", argv[i]);
                return EXIT_USAGE;
            }
            id = (uint32_t)v;
            continue;
        }
        if (n == 3) {
            usage(stderr);
            return EXIT_USAGE;
        }
        args[n++] = argv[i];
    }
    if (n != 3) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *file = args[0], *value = args[2];
    cli_input in;
    relic_arena a;
    relic_erf_archive ar;
    relic_gff_doc d;
    relic_error err;
    gff_span sp;
    uint32_t f;
    int is_struct, rc = EXIT_INVALID;
    if (cli_load(file, &in)) return EXIT_INVALID;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    sp.path = args[1];
    if (locate(&in, &a, &ar, &sp)) goto out;
    if (relic_gff_open(in.map.bytes.data + sp.offset, sp.size, &a, NULL, NULL, &d, &err) != RELIC_OK) {
        if (sp.in_container) relic_erf_open_gff(&ar, sp.member, &a, &d, &err); /* the error at container offsets */
        cli_report(cli_problem_stream(), file, &err);
        goto out;
    }
    if (relic_gff_resolve(&d, sp.path, &f, &is_struct, &err) != RELIC_OK) {
        cli_error(file, &err);
        goto out;
    }
    if (is_struct) {
        cli_errorf(file, 0, "%s is a struct; name one of its fields", args[1]);
        goto out;
    }
    uint32_t type = relic_gff_field_type_of(&d, f);
    if (relic_gff_type_is_fixed(type)) {
        /* in place: map writable, validate those very bytes again, patch */
        relic_mapping rw;
        relic_gff_doc dw;
        uint32_t fw;
        cli_unload(&in);
        if (relic_map_file_rw(file, &rw, &err) != RELIC_OK) {
            cli_error(file, &err);
            goto out_nounload;
        }
        uint8_t *w = (uint8_t *)(uintptr_t)rw.bytes.data;
        if (sp.offset + sp.size > rw.bytes.size ||
            relic_gff_open(w + sp.offset, sp.size, &a, NULL, NULL, &dw, &err) != RELIC_OK ||
            relic_gff_resolve(&dw, sp.path, &fw, &is_struct, &err) != RELIC_OK || fw != f) {
            cli_errorf(file, 0, "changed while it was being read; nothing written");
        } else if (relic_gff_patch(w + sp.offset, &dw, fw, value, &err) != RELIC_OK) {
            cli_error_in(file, args[1], &err);
        } else {
            printf("%s: %s = %s (%s, patched in place)\n", file, args[1], value, relic_gff_type_name(type));
            rc = EXIT_VALID;
        }
        relic_unmap(&rw);
        goto out_nounload;
    }
    /* size changes: through the tree and the writer */
    relic_gff_tree t;
    relic_gff_tfield *tf;
    relic_buf b;
    int fell_back = 0;
    if (relic_gff_tree_from_doc(&d, &a, &t, &err) != RELIC_OK) {
        cli_error(file, &err);
        goto out;
    }
    tf = find_src(t.root, f, 0);
    if (!tf) {
        cli_errorf(file, 0, "internal error: field %u not in the tree", (unsigned)f);
        goto out;
    }
    if (enc == RELIC_GFF_ENC_AUTO) enc = relic_gff_detect_encoding(&d);
    if (set_tree_value(tf, value, id, enc, &a, args[1])) goto out;
    relic_buf_init(&b, 0);
    if (relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_KEEP, &a, &b, &fell_back, &err) != RELIC_OK) {
        cli_error(file, &err);
    } else {
        relic_gff_doc chk;
        relic_buf whole;
        relic_buf_init(&whole, 0);
        const relic_buf *outb = &b;
        if (relic_gff_open(b.data, b.size, &a, NULL, NULL, &chk, &err) != RELIC_OK) {
            cli_error_in(file, "internal error: the rewritten GFF does not validate", &err);
            outb = NULL;
        } else if (sp.in_container) {
            /* the container again, with the member's new bytes */
            ar.entries[sp.member].data = b.data;
            ar.entries[sp.member].size = (uint32_t)b.size;
            if (cli_erf_write(&ar, RELIC_ERF_LAYOUT_KEEP, &whole, NULL, &err) != RELIC_OK) {
                cli_error(file, &err);
                outb = NULL;
            } else {
                outb = &whole;
            }
        }
        if (outb && relic_write_file_atomic(file, outb->data, outb->size, NULL, &err) != RELIC_OK) {
            cli_error(file, &err);
        } else if (outb) {
            printf("%s: %s = %s (%s, file rewritten: %s)\n", file, args[1], value, relic_gff_type_name(tf->type),
                   fell_back ? "the sizes changed, so in the game's default layout" : "its own layout kept");
            rc = EXIT_VALID;
        }
        relic_buf_free(&whole);
    }
    relic_buf_free(&b);
out:
    cli_unload(&in);
out_nounload:
    relic_arena_release(&a);
    return rc;
}
