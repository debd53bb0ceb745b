/* cmd_pack_textures.c — `relic pack-textures DIR out.pid out.swp|out.spz`:
 * a Trespasser texture directory (PID) and swap file (SWP, or SPZ =
 * LZSS-compressed SWP) built from the PNG files of DIR by relic_swp_pack
 * (runtime/formats/tres/swp_pack.c; Trespasser source, Lib/Loader/ImageLoader.cpp, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp, Source/Tools/LZSS/LZSS.cpp; Trespasser file formats
 * "PID", "SWP"). The file names `relic extract` writes come back in:
 * <ID>.png or <ID>-<name>.png with <ID> 8 hex digits, <stem>.bump.png
 * holding a texture's bump angles; mip-level files (<ID>.<W>x<H>.png) are
 * skipped, the levels are made again. Any other <stem>.png gets the
 * texture ID of the name <stem> (Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp, diffuse 1.0). */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>

#include "cli.h"
#include "relic_swp.h"
#include "relic_tres_names.h"
#include "progress.h"

#define ID_DIGITS 8
#define MAX_OCCLUSION 64

static void usage(FILE *f)
{
    fprintf(f, "usage: relic pack-textures DIR OUT.pid OUT.swp|OUT.spz [--occlusion ID]...\n"
               "Build a Trespasser texture directory and swap file from the PNG files of DIR. A file named\n"
               "<ID>.png or <ID>-<anything>.png (ID: 8 hex digits, as relic extract writes them) keeps that\n"
               "texture ID; any other <name>.png gets the texture hash of <name>. <stem>.bump.png makes <stem>\n"
               "bump-mapped (R = azimuth x 4, G = elevation x 17); <ID>.<W>x<H>.png files are ignored.\n"
               "Images with partial alpha become 16-bit 4444 colour, others 8-bit palettised (alpha 0 =\n"
               "palette index 0, transparent); mip levels are made down to a side below 16. --occlusion marks\n"
               "a texture ID as an occlusion texture. OUT.spz is the SWP compressed (LZSS, best ratio).\n"
               "Exit status: 0 success, 1 invalid input or failed write, 2 usage error.\n");
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static int hexval(int c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                               : c >= 'A' && c <= 'F'                                   ? c - 'A' + 10
                                                                                        : -1; }

/* 1 when s starts with 8 hex digits followed by end, '-' or '.' */
static int parse_id(const char *s, size_t n, uint32_t *id)
{
    if (n < ID_DIGITS) return 0;
    uint32_t v = 0;
    for (int i = 0; i < ID_DIGITS; i++) {
        int d = hexval((unsigned char)s[i]);
        if (d < 0) return 0;
        v = v << 4 | (uint32_t)d;
    }
    if (n > ID_DIGITS && s[ID_DIGITS] != '-' && s[ID_DIGITS] != '.') return 0;
    *id = v;
    return 1;
}

/* <ID>.<W>x<H> */
static int is_mip_name(const char *stem, size_t n)
{
    uint32_t id;
    if (!parse_id(stem, n, &id) || n <= ID_DIGITS || stem[ID_DIGITS] != '.') return 0;
    const char *p = stem + ID_DIGITS + 1, *end = stem + n;
    int xs = 0, digits = 0;
    for (; p < end; p++) {
        if (*p == 'x' && digits && !xs) {
            xs = 1;
            digits = 0;
        } else if (*p >= '0' && *p <= '9') digits++;
        else return 0;
    }
    return xs && digits;
}

static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static int read_png(const char *path, relic_arena *a, relic_image *im)
{
    relic_error err;
    relic_mapping m;
    if (relic_map_file(path, CLI_MAX_PIPE_INPUT, &m, &err) != RELIC_OK) {
        cli_error(path, &err);
        return 1;
    }
    relic_status st = relic_png_read_rgba(m.bytes.data, m.bytes.size, RELIC_SWP_MAX_SIDE, a, im, &err);
    relic_unmap(&m);
    if (st != RELIC_OK) {
        cli_error(path, &err);
        return 1;
    }
    return 0;
}

int cmd_pack_textures(int argc, char **argv)
{
    const char *dir = NULL, *pid_path = NULL, *swp_path = NULL;
    uint32_t occl[MAX_OCCLUSION];
    size_t nocc = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_VALID;
        }
        if (!strcmp(argv[i], "--occlusion") && i + 1 < argc) {
            uint32_t id;
            if (strlen(argv[i + 1]) != ID_DIGITS || !parse_id(argv[i + 1], ID_DIGITS, &id) || nocc == MAX_OCCLUSION) {
                fprintf(stderr, "relic pack-textures: --occlusion takes a texture ID of 8 hex digits (at most %d)\n", MAX_OCCLUSION);
                return EXIT_USAGE;
            }
            occl[nocc++] = id;
            i++;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "relic pack-textures: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return EXIT_USAGE;
        } else if (!dir) dir = argv[i];
        else if (!pid_path) pid_path = argv[i];
        else if (!swp_path) swp_path = argv[i];
        else {
            usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (!dir || !pid_path || !swp_path) {
        usage(stderr);
        return EXIT_USAGE;
    }
    char ext[16];
    int spz = !strcmp(relic_path_extension(swp_path, ext, sizeof ext), "spz");
    int pid_ok = !strcmp(relic_path_extension(pid_path, ext, sizeof ext), "pid");
    int swp_ok = spz || !strcmp(relic_path_extension(swp_path, ext, sizeof ext), "swp");
    if (!pid_ok || !swp_ok) {
        fprintf(stderr, "relic pack-textures: the outputs are a .pid and a .swp or .spz\n");
        return EXIT_USAGE;
    }
    DIR *d = opendir(dir);
    if (!d) {
        cli_errorf(dir, 0, "cannot open the directory: %s", strerror(errno));
        return EXIT_INVALID;
    }
    relic_arena a;
    relic_error err;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    size_t cap = 64, nfiles = 0;
    char **files = malloc(cap * sizeof *files);
    struct dirent *e;
    int rc = files ? 0 : 1;
    while (!rc && (e = readdir(d))) {
        if (e->d_name[0] == '.' || !ends_with(e->d_name, ".png") || ends_with(e->d_name, ".bump.png")) continue;
        size_t n = strlen(e->d_name) - 4;
        if (is_mip_name(e->d_name, n)) continue;
        if (nfiles == cap) {
            char **g = realloc(files, 2 * cap * sizeof *files);
            if (!g) {
                rc = 1;
                break;
            }
            files = g;
            cap *= 2;
        }
        if (!(files[nfiles++] = relic_arena_strndup(&a, e->d_name, strlen(e->d_name)))) rc = 1;
    }
    closedir(d);
    if (rc) cli_errorf(dir, 0, "no memory for the file list");
    if (nfiles) qsort(files, nfiles, sizeof *files, by_name);
    relic_swp_texture *t = rc ? NULL : relic_arena_array(&a, nfiles ? nfiles : 1, sizeof *t, 8);
    if (!rc && !t) {
        cli_errorf(dir, 0, "no memory for %zu textures", nfiles);
        rc = 1;
    }
    char path[4200];
    cli_progress tick;
    char what[96];
    snprintf(what, sizeof what, "pack-textures: %.80s", dir);
    cli_progress_tick_begin(&tick, what, 0);
    for (size_t i = 0; !rc && i < nfiles; i++) {
        size_t n = strlen(files[i]) - 4;
        memset(&t[i], 0, sizeof t[i]);
        if (!parse_id(files[i], n, &t[i].id)) t[i].id = relic_tres_texture_id(files[i], n, NULL, 0, RELIC_TRES_DEFAULT_DIFFUSE);
        for (size_t k = 0; k < nocc; k++) t[i].occlusion |= occl[k] == t[i].id;
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        if (read_png(path, &a, &t[i].image)) {
            rc = 1;
            break;
        }
        snprintf(path, sizeof path, "%s/%.*s.bump.png", dir, (int)n, files[i]);
        FILE *f = fopen(path, "rb");
        if (f) {
            fclose(f);
            relic_image *b = relic_arena_alloc(&a, sizeof *b, 8);
            if (!b || read_png(path, &a, b)) {
                rc = 1;
                break;
            }
            t[i].bump = b;
        }
    }
    relic_pid_file pid;
    relic_buf swp, pidbuf, spzbuf;
    relic_buf_init(&swp, 0);
    relic_buf_init(&pidbuf, 0);
    relic_buf_init(&spzbuf, 0);
    relic_pid_view check;
    relic_status packed = rc ? RELIC_OK : relic_swp_pack(t, nfiles, &a, &pid, &swp, &err);
    cli_progress_end(&tick);
    if (!rc && packed != RELIC_OK) {
        if (err.path[0] && !strncmp(err.path, "textures[", 9)) {
            size_t k = strtoul(err.path + 9, NULL, 10);
            if (k < nfiles) {
                snprintf(path, sizeof path, "%s/%s", dir, files[k]);
                err.path[0] = '\0'; /* the file is the texture */
                cli_error(path, &err);
            } else {
                cli_error(dir, &err);
            }
        } else {
            cli_error(dir, &err);
        }
        rc = 1;
    }
    if (!rc && (relic_pid_write(&pid, &pidbuf, &err) != RELIC_OK || relic_pid_validate(pidbuf.data, pidbuf.size, &check, &err) != RELIC_OK)) {
        cli_error(pid_path, &err);
        rc = 1;
    }
    relic_arena sa; /* encoder scratch */
    relic_arena_init_heap(&sa, 0);
    relic_status est = !rc && spz ? relic_lzss_container_encode(RELIC_LZSS_SPZ, RELIC_LZSS_BEST, 0, swp.data, swp.size, &sa, &spzbuf, &err)
                                  : RELIC_OK;
    relic_arena_release(&sa);
    if (est != RELIC_OK) {
        cli_error(swp_path, &err);
        rc = 1;
    }
    if (!rc) {
        /* the PID indexes the swap file: both or neither */
        cli_batch_begin();
        rc = cli_write(swp_path, spz ? spzbuf.data : swp.data, spz ? spzbuf.size : swp.size, NULL);
        if (!rc) rc = cli_write(pid_path, pidbuf.data, pidbuf.size, NULL);
        rc = cli_batch_end(!rc);
    }
    if (!rc)
        printf("%s: %zu textures, %zu rasters, %zu palettes; %s: %zu bytes of SWP%s\n", pid_path, nfiles,
               pid.rasters_count, pid.palettes_count, swp_path, swp.size, spz ? " (LZSS-compressed)" : "");
    relic_buf_free(&swp);
    relic_buf_free(&pidbuf);
    relic_buf_free(&spzbuf);
    free(files);
    relic_arena_release(&a);
    return rc ? EXIT_INVALID : EXIT_VALID;
}
