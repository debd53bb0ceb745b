/* cmd_container.c — the container subcommands for ERF/MOD/HAK/SAV/NWM and
 * RIM (runtime/include/relic/relic_erf.h):
 *   relic ls CONTAINER                          name, type id, size, offset
 *   relic extract CONTAINER [MEMBER...] [-C DIR] members as DIR/resref.ext
 *   relic pack DIR OUT.mod [--nwn2]             a container from a directory
 * `extract` of the whole container also writes DIR/.relic-container.json
 * (the `relic dump` listing: header, localized strings, entry order and
 * offsets); `pack` reads it when present, so packing an extracted directory
 * gives the container back byte for byte (when members were edited, added
 * or removed: the manifest's header and order, packed layout, and ResIDs
 * renumbered when the set changed). Without it, pack takes the
 * directory's regular files not starting with '.', ResRef = the file name
 * before its last '.', lower-cased, type from the extension (a decimal id
 * for unknown types), in order of ResRef then type id (byte order), ResID =
 * index, and the packed layout (xoreos, src/aurora/erffile.cpp; neverwinter.nim, erf.nim measured layout). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "erf_cli.h"
#include "key_cli.h"
#include "relic_gen.h"
#include "relic_json.h"

/* ---------------------------------------------------------------------- */
/* ls                                                                     */
/* ---------------------------------------------------------------------- */

static void ls_usage(FILE *f)
{
    fprintf(f, "usage: relic ls [--json] CONTAINER...\n"
               "List the resources of ERF/MOD/HAK/SAV/NWM and RIM containers: name (resref.ext), type id,\n"
               "size and offset in bytes, one per line in table order. A KEY (chitin.key): every key with\n"
               "its BIF, index and size (the BIFs found beside the KEY; '-' when absent); a BIF: index, ID,\n"
               "type, size and offset of each resource, those past the end of the file marked; a talk\n"
               "table (TLK): every StrRef with its flags, sound and text.\n"
               "  --json   one JSON object (one line) per container: file, format, and for ERF/RIM members\n"
               "           [{name, resref, type, id, offset, size}]; KEY bifs [{index, name, found}] and\n"
               "           members [{name, resref, type, id, bif, bif_index, index, size}]; BIF members\n"
               "           [{index, id, type, offset, size, past_end}]; TLK language_id and entries\n"
               "           [{strref, flags, sound, size, text}] (docs/cli.md)\n"
               "Exit status: 0 success, 1 invalid container, 2 usage error.\n");
}

/* `ls --json`: one line per container. */
static void ls_json(relic_buf *o, const char *path, const relic_erf_archive *ar)
{
    relic_buf_puts(o, "{\"file\": ");
    cli_json_text(o, path, strlen(path));
    relic_buf_puts(o, ar->kind == RELIC_ERF_KIND_RIM ? ", \"format\": \"rim\", \"members\": [" : ", \"format\": \"erf\", \"members\": [");
    for (uint32_t k = 0; k < ar->count; k++) {
        if (k) relic_buf_puts(o, ", ");
        cli_erf_entry_json(ar, k, o);
    }
    relic_buf_puts(o, "]}\n");
}

int cmd_ls(int argc, char **argv)
{
    int n = 0, bad = 0, json = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            ls_usage(stdout);
            return EXIT_VALID;
        }
        if (!strcmp(argv[i], "--json")) {
            json = 1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "relic ls: unknown option '%s'\n", argv[i]);
            return EXIT_USAGE;
        }
        n++;
    }
    if (!n) {
        ls_usage(stderr);
        return EXIT_USAGE;
    }
    for (int i = 1; i < argc; i++) {
        cli_input in;
        relic_arena a;
        relic_erf_archive ar;
        char name[CLI_ERF_SHOWN_MAX];
        if (!strcmp(argv[i], "--json")) continue;
        if (cli_load(argv[i], &in)) {
            bad = 1;
            continue;
        }
        relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
        if (json && (in.format == RELIC_FORMAT_KEY || in.format == RELIC_FORMAT_BIF || in.format == RELIC_FORMAT_TLK)) {
            relic_buf o; /* fmt_key.c, fmt_tlk.c */
            relic_buf_init(&o, 0);
            int rc = in.format == RELIC_FORMAT_KEY ? cli_key_ls_json(&in, &o)
                : in.format == RELIC_FORMAT_BIF    ? cli_bif_ls_json(&in, &o)
                                                   : cli_tlk_ls_json(&in, &o);
            if (rc || o.failed || fwrite(o.data, 1, o.size, stdout) != o.size) bad = 1;
            relic_buf_free(&o);
        } else if (in.format == RELIC_FORMAT_KEY || in.format == RELIC_FORMAT_BIF) { /* fmt_key.c */
            if (n > 1) printf("%s:\n", argv[i]);
            bad |= in.format == RELIC_FORMAT_KEY ? cli_key_ls(&in) : cli_bif_ls(&in);
        } else if (in.format == RELIC_FORMAT_TLK) { /* fmt_tlk.c */
            if (n > 1) printf("%s:\n", argv[i]);
            bad |= cli_tlk_ls(&in);
        } else if (in.format != RELIC_FORMAT_ERF) {
            cli_errorf(argv[i], 0, "not an ERF/MOD/HAK/SAV/NWM, RIM, KEY or BIF container (detected: %s)",
                       relic_format_name(in.format));
            bad = 1;
        } else if (cli_erf_open(&in, &a, &ar)) {
            bad = 1;
        } else if (json) {
            relic_buf o;
            relic_buf_init(&o, 0);
            ls_json(&o, argv[i], &ar);
            if (o.failed || fwrite(o.data, 1, o.size, stdout) != o.size) bad = 1;
            relic_buf_free(&o);
        } else {
            if (n > 1) printf("%s:\n", argv[i]);
            printf("%-37s %5s %10s %10s\n", "name", "type", "size", "offset");
            for (uint32_t k = 0; k < ar.count; k++)
                printf("%-37s %5u %10u %10u\n", cli_erf_shown_name(&ar, k, name, sizeof name),
                       (unsigned)ar.entries[k].res_type, (unsigned)ar.entries[k].size, (unsigned)ar.entries[k].offset);
        }
        relic_arena_release(&a);
        cli_unload(&in);
    }
    return bad ? EXIT_INVALID : EXIT_VALID;
}

/* ---------------------------------------------------------------------- */
/* extract                                                                */
/* ---------------------------------------------------------------------- */

/* A member's file name: letters, digits, '_', '-' and '.' kept, anything
 * else (a '/' in a ResRef) as '_'; an empty ResRef as "_". */
static void safe_name(char *dst, size_t n, const char *name)
{
    size_t k = 0;
    for (const char *s = name; *s && k + 1 < n; s++) {
        unsigned char c = (unsigned char)*s;
        dst[k++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                c == '-' || c == '.'
            ? (char)c
            : '_';
    }
    dst[k] = 0;
    if (dst[0] == '.' && k + 1 < n) {
        memmove(dst + 1, dst, k + 1);
        dst[0] = '_';
    }
}

void cli_extract_container_usage(FILE *f)
{
    fprintf(f, "usage: relic extract CONTAINER [MEMBER...] [-C DIR]\n"
               "Write the members of an ERF/MOD/HAK/SAV/NWM or RIM container (all of them, or those named as\n"
               "resref.ext) into DIR (default: the current directory) as DIR/resref.ext. Extracting all of\n"
               "them also writes DIR/" CLI_ERF_MANIFEST " (header and entry order), with which relic pack\n"
               "rebuilds the container byte for byte.\n");
}

int cli_extract_container(const cli_input *in, const cli_extract_args *x)
{
    const char *in_path = in->path, *dir = x->dir ? x->dir : ".";
    int nmembers = x->nmembers;
    if (x->names || x->swp || x->mips) {
        fprintf(stderr, "relic extract: --names, --swp and --mips are not for containers\n");
        cli_extract_container_usage(stderr);
        return EXIT_USAGE;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cli_errorf(dir, 0, "cannot create the directory: %s", strerror(errno));
        return EXIT_INVALID;
    }
    relic_arena a;
    relic_erf_archive ar;
    char name[CLI_ERF_SHOWN_MAX], safe[RELIC_ERF_RESREF_MAX + 24], path[4096];
    int rc = 0;
    unsigned written = 0;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (cli_erf_open(in, &a, &ar)) rc = 1;
    uint8_t *want = rc ? NULL : relic_arena_alloc(&a, ar.count + 1, 1);
    if (!rc && !want) rc = 1;
    /* which members: all, or those named (each must exist) */
    for (int i = 0; !rc && i < nmembers; i++) {
        uint32_t k;
        if (!relic_erf_find(&ar, x->members[i], &k)) {
            cli_errorf(in_path, 0, "no member '%s' (see relic ls)", x->members[i]);
            rc = 1;
        } else {
            want[k] = 1;
        }
    }
    uint32_t d1, d2;
    if (!rc && cli_erf_duplicate(&ar, &a, &d1, &d2) && (!nmembers || (want[d1] && want[d2]))) {
        cli_errorf(in_path, 0, "entries %u and %u are both '%s'; a directory cannot hold both (nothing written)",
                   (unsigned)d1, (unsigned)d2, cli_erf_shown_name(&ar, d1, name, sizeof name));
        rc = 1;
    }
    cli_batch_begin(); /* every member and the manifest, or none */
    for (uint32_t k = 0; !rc && k < ar.count; k++) {
        if (nmembers && !want[k]) continue;
        safe_name(safe, sizeof safe, relic_erf_entry_name(&ar, k, name, sizeof name));
        snprintf(path, sizeof path, "%s/%s", dir, safe);
        rc = cli_write(path, ar.entries[k].data, ar.entries[k].size, in_path);
        written += rc == 0;
    }
    if (!rc && !nmembers) {
        relic_buf j;
        relic_buf_init(&j, 0);
        snprintf(path, sizeof path, "%s/%s", dir, CLI_ERF_MANIFEST);
        rc = cli_erf_json(&ar, &j) || cli_write(path, j.data, j.size, in_path);
        relic_buf_free(&j);
    }
    rc = cli_batch_end(!rc);
    if (!rc) printf("%s: %u member%s in %s%s\n", in_path, written, written == 1 ? "" : "s", dir,
                    nmembers ? "" : " (and " CLI_ERF_MANIFEST ")");
    relic_arena_release(&a);
    return rc ? EXIT_INVALID : EXIT_VALID;
}

/* ---------------------------------------------------------------------- */
/* pack                                                                   */
/* ---------------------------------------------------------------------- */

static void pack_usage(FILE *f)
{
    fprintf(f, "usage: relic pack DIR OUT.mod|.erf|.hak|.sav|.nwm|.rim|.key [--nwn2]\n"
               "Build a container from the files of DIR; the container type is OUT's extension. With\n"
               "DIR/" CLI_ERF_MANIFEST " (written by relic extract) its header, member order and layout\n"
               "are used, so an extracted container packs back byte for byte; files not listed there\n"
               "follow, sorted, listed files removed from DIR are left out, and when anything changed\n"
               "the data are packed back to back. Otherwise members are DIR's regular files not starting\n"
               "with '.', ResRef = the name before the last '.' (lower-cased), type from the extension (or a\n"
               "decimal type id), in order of ResRef, then type id; ResID = index; header, strings, keys,\n"
               "resource list, then the data back to back, as real files are laid out.\n"
               "ERF V1.0 (NWN1/KotOR, 16-character ResRefs) unless --nwn2 (V1.1, 32 characters); build date from SOURCE_DATE_EPOCH, else today.\n"
               "OUT.key: the files (resref.ext, sorted) into one BIF, OUT's directory/data/OUT-name.bif,\n"
               "and a KEY V1 indexing it, laid out as the games' chitin.key and BIFs are.\n"
               "Exit status: 0 success, 1 failure, 2 usage error.\n");
}

typedef struct pack_member {
    char file[256]; /* file name in DIR */
    relic_erf_entry e;
    relic_mapping map;
    int listed; /* from the manifest */
} pack_member;

typedef struct pack_state {
    relic_arena a;
    pack_member *m;
    size_t n, cap;
} pack_state;

static pack_member *add_member(pack_state *ps)
{
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? ps->cap * 2 : 64;
        pack_member *m = relic_arena_array(&ps->a, cap, sizeof *m, 8);
        if (!m) return NULL;
        if (ps->n) memcpy(m, ps->m, ps->n * sizeof *m);
        ps->m = m;
        ps->cap = cap;
    }
    pack_member *p = &ps->m[ps->n++];
    memset(p, 0, sizeof *p);
    return p;
}

static int lowerc(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static int by_resref_type(const void *x, const void *y)
{
    const pack_member *a = x, *b = y;
    int c = strcmp(a->e.resref, b->e.resref);
    return c ? c : (a->e.res_type > b->e.res_type) - (a->e.res_type < b->e.res_type);
}

/* Header, localized strings and entry order from the manifest (its header
 * when it is of the output's kind; relic_erf_listing_read, the reader the
 * ABI's container writer shares); returns 0 on success, 1 on a bad
 * manifest. *used tells whether its header applies. */
static int read_manifest(const char *path, relic_erf_archive *ar, pack_state *ps, int *used)
{
    relic_mapping mp;
    relic_error err;
    relic_erf_listing l;
    *used = 0;
    if (relic_map_file(path, CLI_MAX_PIPE_INPUT, &mp, &err) != RELIC_OK) return 0; /* no manifest */
    int rc = relic_erf_listing_read((const char *)mp.bytes.data, mp.bytes.size, RELIC_ERF_LISTING_COMPLETE, &ps->a, &l, &err) != RELIC_OK;
    if (!rc && (*used = l.ar.kind == ar->kind)) {
        if (ar->kind == RELIC_ERF_KIND_RIM) {
            ar->rim.header = l.ar.rim.header;
        } else { /* the output's extension decides the file type */
            memcpy(l.ar.erf.header.file_type, ar->erf.header.file_type, sizeof l.ar.erf.header.file_type);
            ar->erf = l.ar.erf;
        }
        ar->file_size = l.ar.file_size;
    }
    for (uint32_t i = 0; !rc && i < l.ar.count; i++) {
        pack_member *m = add_member(ps);
        if (!m) {
            rc = relic_fail(&err, RELIC_E_NOMEM, 0, "entries", "out of memory") != RELIC_OK;
            break;
        }
        safe_name(m->file, sizeof m->file, l.names[i]);
        m->e = l.ar.entries[i];
        m->listed = 1;
    }
    if (rc) cli_error(path, &err);
    relic_unmap(&mp);
    return rc;
}

/* The directory's regular files not starting with '.' and not listed. */
static int add_directory(const char *dir, relic_erf_game game, pack_state *ps)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    size_t first_new = ps->n;
    if (!d) {
        cli_errorf(dir, 0, "cannot open the directory: %s", strerror(errno));
        return 1;
    }
    while ((de = readdir(d))) {
        char path[4096];
        struct stat st;
        if (de->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        int listed = 0;
        for (size_t i = 0; i < first_new; i++) listed |= !strcmp(ps->m[i].file, de->d_name);
        if (listed) continue;
        const char *dot = strrchr(de->d_name, '.');
        size_t stem = dot ? (size_t)(dot - de->d_name) : strlen(de->d_name);
        uint32_t type;
        if (!dot || !relic_erf_type_from_extension(dot + 1, game, &type)) {
            cli_errorf(path, 0, "unknown resource type '%s' (use a known extension or a decimal type id)",
                       dot ? dot + 1 : "");
            closedir(d);
            return 1;
        }
        if (stem > RELIC_ERF_RESREF_MAX || stem == 0) {
            cli_errorf(path, 0, "a ResRef has 1 to %d characters", RELIC_ERF_RESREF_MAX);
            closedir(d);
            return 1;
        }
        pack_member *m = add_member(ps);
        if (!m) {
            closedir(d);
            return 1;
        }
        snprintf(m->file, sizeof m->file, "%s", de->d_name);
        for (size_t k = 0; k < stem; k++) m->e.resref[k] = (char)lowerc((unsigned char)de->d_name[k]);
        m->e.res_type = type;
    }
    closedir(d);
    qsort(ps->m + first_new, ps->n - first_new, sizeof *ps->m, by_resref_type);
    for (size_t i = first_new; i < ps->n; i++) ps->m[i].e.res_id = (uint32_t)i;
    return 0;
}

static void build_date(relic_erf_header *h)
{
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    time_t t = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    h->build_year = (uint32_t)tm.tm_year;
    h->build_day = (uint32_t)tm.tm_yday;
}

int cmd_pack(int argc, char **argv)
{
    const char *dir = NULL, *out_path = NULL;
    int nwn2 = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            pack_usage(stdout);
            return EXIT_VALID;
        }
        if (!strcmp(argv[i], "--nwn2")) nwn2 = 1;
        else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "relic pack: unknown option '%s'\n", argv[i]);
            return EXIT_USAGE;
        } else if (!dir) dir = argv[i];
        else if (!out_path) out_path = argv[i];
        else {
            pack_usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (!dir || !out_path) {
        pack_usage(stderr);
        return EXIT_USAGE;
    }
    char ext[8], ft[4];
    relic_path_extension(out_path, ext, sizeof ext);
    if (!strcmp(ext, "key")) return cli_key_pack(dir, out_path); /* a KEY and its BIF: fmt_key.c */
    static const char *const kinds[] = {"erf", "mod", "hak", "sav", "nwm", "rim"};
    int k = -1;
    for (int i = 0; i < 6; i++)
        if (!strcmp(ext, kinds[i])) k = i;
    if (k < 0) {
        fprintf(stderr, "relic pack: %s: the extension must be erf, mod, hak, sav, nwm or rim\n", out_path);
        return EXIT_USAGE;
    }
    for (int i = 0; i < 3; i++) ft[i] = (char)(ext[i] - 32);
    ft[3] = ' ';
    relic_erf_archive ar;
    pack_state ps;
    memset(&ps, 0, sizeof ps);
    relic_arena_init_heap(&ps.a, CLI_ARENA_LIMIT);
    relic_erf_init(&ar, k == 5 ? RELIC_ERF_KIND_RIM : RELIC_ERF_KIND_ERF, ft, nwn2 ? RELIC_ERF_GAME_NWN2 : RELIC_ERF_GAME_KOTOR);
    if (ar.kind == RELIC_ERF_KIND_ERF) build_date(&ar.erf.header);
    char path[4096];
    int used = 0, rc = 0;
    snprintf(path, sizeof path, "%s/%s", dir, CLI_ERF_MANIFEST);
    rc = read_manifest(path, &ar, &ps, &used);
    size_t kept = 0;
    int changed = 0, resized = 0;
    /* members the manifest lists whose files were removed are left out */
    for (size_t i = 0; !rc && i < ps.n; i++) {
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, ps.m[i].file);
        if (stat(path, &st) != 0 && errno == ENOENT) {
            fprintf(stderr, "relic pack: note: %s is listed in %s but not in %s: left out\n", ps.m[i].file, CLI_ERF_MANIFEST, dir);
            changed = 1;
            continue;
        }
        ps.m[kept++] = ps.m[i];
    }
    ps.n = kept;
    if (!rc) rc = add_directory(dir, relic_erf_game_of(&ar), &ps);
    if (ps.n != kept) changed = 1; /* files the manifest does not list */
    if (used && changed) {
        /* members added or removed: the manifest's layout cannot hold, ids are the new indices */
        for (size_t i = 0; i < ps.n; i++) ps.m[i].e.res_id = (uint32_t)i;
    }
    /* the members' bytes, mapped */
    for (size_t i = 0; !rc && i < ps.n; i++) {
        relic_error err;
        snprintf(path, sizeof path, "%s/%s", dir, ps.m[i].file);
        if (relic_map_file(path, 0, &ps.m[i].map, &err) != RELIC_OK) {
            cli_error(path, &err);
            rc = 1;
            break;
        }
        if (ps.m[i].map.bytes.size > UINT32_MAX) {
            cli_errorf(path, 0, "larger than 4 GiB");
            rc = 1;
            break;
        }
        ps.m[i].e.data = ps.m[i].map.bytes.data;
        if (ps.m[i].listed && ps.m[i].e.size != ps.m[i].map.bytes.size) resized = 1;
        ps.m[i].e.size = (uint32_t)ps.m[i].map.bytes.size;
    }
    if (!rc && ps.n > UINT32_MAX) rc = 1;
    if (!rc) {
        ar.count = (uint32_t)ps.n;
        ar.entries = relic_arena_array(&ps.a, ps.n ? ps.n : 1, sizeof *ar.entries, 8);
        if (!ar.entries) rc = 1;
        for (size_t i = 0; !rc && i < ps.n; i++) ar.entries[i] = ps.m[i].e;
    }
    uint32_t d1, d2;
    if (!rc && cli_erf_duplicate(&ar, &ps.a, &d1, &d2)) {
        cli_errorf(dir, 0, "%s and %s give the same resource name (ResRefs are compared without case)", ps.m[d1].file,
                   ps.m[d2].file);
        rc = 1;
    }
    if (!rc) {
        relic_buf b;
        relic_error err;
        int fell_back = 0;
        relic_arena chk;
        relic_erf_archive back;
        relic_buf_init(&b, 0);
        relic_arena_init_heap(&chk, CLI_ARENA_LIMIT);
        if (cli_erf_write(&ar, used && !changed && !resized ? RELIC_ERF_LAYOUT_KEEP : RELIC_ERF_LAYOUT_PACKED, &b, &fell_back,
                          &err) != RELIC_OK) {
            cli_error(out_path, &err);
            rc = 1;
        } else if (relic_erf_open(b.data, b.size, &chk, &back, &err) != RELIC_OK) {
            cli_error_in(out_path, "internal error: the packed container does not validate", &err);
            rc = 1;
        } else {
            rc = cli_write(out_path, b.data, b.size, NULL);
            if (!rc)
                printf("%s: %u member%s, %zu bytes%s\n", out_path, (unsigned)ar.count, ar.count == 1 ? "" : "s", b.size,
                       !used ? "" : changed ? " (members added or removed: packed layout)"
                           : resized        ? " (members changed size: packed layout)"
                           : fell_back      ? " (the manifest's layout does not fit: packed layout)"
                                            : " (the manifest's layout)");
        }
        relic_arena_release(&chk);
        relic_buf_free(&b);
    }
    for (size_t i = 0; i < ps.n; i++) relic_unmap(&ps.m[i].map);
    relic_arena_release(&ps.a);
    return rc ? EXIT_INVALID : EXIT_VALID;
}
