/* cmd_extract_textures.c — `relic extract LEVEL.pid --swp LEVEL.swp|.spz
 * -C DIR [--names LEVEL.grf] [--mips]`: one PNG per texture of a PID
 * directory (runtime/swp_*.c; Trespasser source, Lib/Loader/ImageLoader.cpp, Trespasser file formats, "PID"),
 * named by texture ID and, when a GRF's symbols give the name it hashes
 * from (Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp: texture path + bump-map path + default diffuse 1.0),
 * by that name too; bump-mapped textures also get their angles as
 * ID.bump.png. An SPZ is decoded as a stream (relic_swp_walk). */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "cli.h"
#include "relic_swp.h"
#include "relic_tres_names.h"

#define MIP_SHIFT 32
/* the sliding window an SPZ may need (rasters span at most 1024 rows of 2 KiB) */
#define SPZ_WINDOW_LIMIT ((uint64_t)256 << 20)

void cli_extract_textures_usage(FILE *f)
{
    fprintf(f, "usage: relic extract LEVEL.pid --swp LEVEL.swp|LEVEL.spz -C DIR [--names LEVEL.grf] [--mips]\n"
               "Write each texture of a Trespasser texture directory as DIR/<texture ID>.png (RGBA; palette\n"
               "index 0 of transparent textures has alpha 0), or DIR/<ID>-<name>.png when --names gives a\n"
               "GRF whose texture and bump-map paths hash to the ID (diffuse 1.0). Bump-mapped textures also\n"
               "give DIR/<ID>.bump.png (R = azimuth x 4, G = elevation x 17). --mips adds every mip level as\n"
               "DIR/<ID>.<W>x<H>.png. The pixels come from the SWP, or from the SPZ decoded as a stream.\n");
}

typedef struct tex_name {
    uint32_t id;
    const char *name; /* texture file name without directory and extension */
} tex_name;

static int by_id(const void *a, const void *b)
{
    const tex_name *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* "Map\demo\Blaht2.bmp" -> "Blaht2" (safe characters only) */
static const char *short_name(relic_arena *a, const char *s, size_t n)
{
    size_t b = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '\\' || s[i] == '/') b = i + 1;
    size_t e = n;
    for (size_t i = n; i > b; i--)
        if (s[i - 1] == '.') {
            e = i - 1;
            break;
        }
    char *o = relic_arena_alloc(a, e - b + 1, 1);
    if (!o) return NULL;
    for (size_t i = b; i < e; i++) {
        unsigned char c = (unsigned char)s[i];
        o[i - b] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ? (char)c : '_';
    }
    o[e - b] = 0;
    return o;
}

/* every (texture, bump) pair of the GRF's .bmp symbols, and each alone */
static int load_names(const char *path, relic_arena *a, tex_name **out, size_t *count)
{
    cli_input in;
    relic_bytes b;
    relic_groff_view v;
    relic_groff_file m;
    relic_error err;
    int compressed;
    if (cli_load(path, &in)) return 1;
    if (relic_groff_open(in.map.bytes.data, in.map.bytes.size, a, &b, &compressed, &err) != RELIC_OK ||
        relic_groff_validate(b.data, b.size, &v, &err) != RELIC_OK || relic_groff_decode(&v, a, &m, &err) != RELIC_OK) {
        cli_error(path, &err);
        cli_unload(&in);
        return 1;
    }
    size_t nb = 0;
    const char **bmp = relic_arena_array(a, m.symbols_count ? m.symbols_count : 1, sizeof *bmp, sizeof(void *));
    size_t *blen = relic_arena_array(a, m.symbols_count ? m.symbols_count : 1, sizeof *blen, sizeof(size_t));
    if (!bmp || !blen) {
        cli_unload(&in);
        cli_errorf(path, 0, "no memory for the GRF names");
        return 1;
    }
    for (size_t k = 0; k < m.symbols_count; k++) {
        size_t n = m.symbols[k].name_count ? m.symbols[k].name_count - 1 : 0;
        if (n > 4 && (m.symbols[k].name[n - 4] == '.') &&
            (m.symbols[k].name[n - 3] | 0x20) == 'b' && (m.symbols[k].name[n - 2] | 0x20) == 'm' && (m.symbols[k].name[n - 1] | 0x20) == 'p') {
            bmp[nb] = m.symbols[k].name;
            blen[nb++] = n;
        }
    }
    size_t total = nb * (nb + 1), t = 0;
    tex_name *e = relic_arena_array(a, total ? total : 1, sizeof *e, 8);
    if (!e) {
        cli_unload(&in);
        cli_errorf(path, 0, "no memory for %zu name pairs", total);
        return 1;
    }
    for (size_t i = 0; i < nb; i++) {
        const char *sn = short_name(a, bmp[i], blen[i]);
        if (!sn) {
            cli_unload(&in);
            cli_errorf(path, 0, "no memory for the GRF names");
            return 1;
        }
        e[t].id = relic_tres_texture_id(bmp[i], blen[i], NULL, 0, RELIC_TRES_DEFAULT_DIFFUSE);
        e[t++].name = sn;
        for (size_t j = 0; j < nb; j++) {
            e[t].id = relic_tres_texture_id(bmp[i], blen[i], bmp[j], blen[j], RELIC_TRES_DEFAULT_DIFFUSE);
            e[t++].name = sn;
        }
    }
    qsort(e, t, sizeof *e, by_id);
    cli_unload(&in);
    *out = e;
    *count = t;
    return 0;
}

typedef struct extract_ctx {
    const relic_pid_view *v;
    relic_swp_palettes pal;
    const char *dir, *pid_path;
    const tex_name *names;
    size_t nnames;
    int mips;
    uint8_t *rgba;
    unsigned written;
    /* level mode (cli_level_textures): named top levels only, as DIR/<name>.png, each name once */
    int level;
    relic_arena *a;
    const char **stems;
    size_t nstems, cap;
} extract_ctx;

static const char *name_of(const extract_ctx *c, uint32_t id)
{
    size_t lo = 0, hi = c->nnames;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->names[mid].id < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < c->nnames && c->names[lo].id == id ? c->names[lo].name : NULL;
}

static relic_status write_png(extract_ctx *c, const char *path, uint32_t w, uint32_t h, relic_error *err)
{
    relic_buf png;
    relic_buf_init(&png, 0);
    relic_status st = relic_png_write_rgba(c->rgba, w, h, &png, err);
    if (st == RELIC_OK && cli_write(path, png.data, png.size, c->pid_path)) st = relic_fail(err, RELIC_E_IO, 0, "", "cannot write %s", path);
    relic_buf_free(&png);
    c->written += st == RELIC_OK;
    return st;
}

/* Level mode: the first texture of each name, top level only; bump angles are not a colour texture. */
static relic_status level_raster(extract_ctx *c, size_t i, const char *name, const uint8_t *swp, uint64_t base,
                                 size_t size, relic_error *err)
{
    if (!name || cli_level_texture_stem(c->stems, c->nstems, name)) return RELIC_OK;
    if (c->nstems == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        const char **grown = relic_arena_array(c->a, cap, sizeof *grown, sizeof(void *));
        if (!grown) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the texture names");
        if (c->nstems) memcpy(grown, c->stems, c->nstems * sizeof *grown);
        c->stems = grown;
        c->cap = cap;
    }
    relic_pid_raster_view r = relic_pid_rasters_at(c->v, i);
    char path[4200];
    relic_status st = relic_swp_raster_rgba(c->v, &c->pal, i, swp, base, size, c->rgba, err);
    if (st != RELIC_OK) return st;
    snprintf(path, sizeof path, "%s/%s.png", c->dir, name);
    if ((st = write_png(c, path, relic_pid_raster_width(r), relic_pid_raster_height(r), err)) == RELIC_OK)
        c->stems[c->nstems++] = name;
    return st;
}

static relic_status one_raster(void *vctx, size_t i, const uint8_t *swp, uint64_t base, size_t size, relic_error *err)
{
    extract_ctx *c = vctx;
    relic_pid_raster_view r = relic_pid_rasters_at(c->v, i);
    uint64_t key = relic_pid_raster_key(r);
    int mip = (key >> MIP_SHIFT) != 0;
    if (mip && !c->mips) return RELIC_OK;
    uint32_t id = (uint32_t)key, w = relic_pid_raster_width(r), h = relic_pid_raster_height(r);
    char stem[4096], path[4200];
    const char *name = name_of(c, id);
    if (c->level) return level_raster(c, i, name, swp, base, size, err);
    if (mip) snprintf(stem, sizeof stem, "%s/%08X.%ux%u", c->dir, id, w, h);
    else if (name) snprintf(stem, sizeof stem, "%s/%08X-%s", c->dir, id, name);
    else snprintf(stem, sizeof stem, "%s/%08X", c->dir, id);
    relic_status st = relic_swp_raster_rgba(c->v, &c->pal, i, swp, base, size, c->rgba, err);
    if (st != RELIC_OK) return st;
    snprintf(path, sizeof path, "%s.png", stem);
    if ((st = write_png(c, path, w, h, err)) != RELIC_OK) return st;
    relic_swp_kind kind;
    if (relic_swp_raster_kind(c->v, i, &kind, err) == RELIC_OK && kind == RELIC_SWP_BUMP) {
        if ((st = relic_swp_bump(c->v, i, swp, base, size, c->rgba, err)) != RELIC_OK) return st;
        snprintf(path, sizeof path, "%s.bump.png", stem);
        st = write_png(c, path, w, h, err);
    }
    return st;
}

/* Validate the PID, then every raster of the SWP/SPZ through one_raster. */
static int walk_textures(extract_ctx *c, relic_pid_view *v, const cli_input *pid, const cli_input *swp, int spz,
                         relic_arena *a)
{
    relic_error err;
    c->v = v;
    if (relic_pid_validate(pid->map.bytes.data, pid->map.bytes.size, v, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), pid->path, &err);
        return 1;
    }
    if (relic_swp_palettes_find(c->v, a, &c->pal, &err) != RELIC_OK ||
        !(c->rgba = relic_arena_array(a, (size_t)RELIC_SWP_MAX_SIDE * RELIC_SWP_MAX_SIDE, 4, 16))) {
        cli_errorf(pid->path, 0, "no memory to decode textures");
        return 1;
    }
    if (relic_swp_walk(c->v, swp->map.bytes.data, swp->map.bytes.size, spz, SPZ_WINDOW_LIMIT, a, one_raster, c, &err) !=
        RELIC_OK) {
        /* offsets name the PID (raster fields) or, for pixels and the stream, the SWP/SPZ */
        cli_report(cli_problem_stream(), strncmp(err.path, "rasters[", 8) == 0 && !strstr(err.path, "pixels") ? pid->path : swp->path, &err);
        return 1;
    }
    return 0;
}

int cli_level_texture_stem(const char *const *stems, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(stems[i], name)) return 1;
    return 0;
}

const char *cli_level_texture_name(relic_arena *a, const char *texture)
{
    return short_name(a, texture, strlen(texture));
}

int cli_level_textures(const char *pid_path, const char *swp_path, const char *grf_path, const char *dir, relic_arena *a,
                       const char ***stems, size_t *count)
{
    extract_ctx c;
    relic_pid_view v;
    cli_input pid, swp;
    char ext[16];
    memset(&c, 0, sizeof c);
    c.v = &v;
    c.dir = dir;
    c.pid_path = pid_path;
    c.level = 1;
    c.a = a;
    if (load_names(grf_path, a, (tex_name **)&c.names, &c.nnames)) return 1;
    if (cli_load(pid_path, &pid)) return 1;
    if (cli_load(swp_path, &swp)) {
        cli_unload(&pid);
        return 1;
    }
    int rc = walk_textures(&c, &v, &pid, &swp, !strcmp(relic_path_extension(swp_path, ext, sizeof ext), "spz"), a);
    cli_unload(&swp);
    cli_unload(&pid);
    *stems = c.stems;
    *count = c.nstems;
    return rc;
}

int cli_extract_textures(const cli_input *pid, const cli_extract_args *x)
{
    const char *pid_path = pid->path, *swp_path = x->swp, *dir = x->dir, *names_path = x->names;
    int mips = x->mips;
    if (!swp_path || !dir || x->nmembers) {
        cli_extract_textures_usage(stderr);
        return EXIT_USAGE;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cli_errorf(dir, 0, "cannot create the directory: %s", strerror(errno));
        return EXIT_INVALID;
    }
    relic_arena a;
    relic_pid_view v;
    cli_input swp;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    extract_ctx c;
    memset(&c, 0, sizeof c);
    if ((names_path && load_names(names_path, &a, (tex_name **)&c.names, &c.nnames)) || cli_load(swp_path, &swp)) {
        relic_arena_release(&a);
        return EXIT_INVALID;
    }
    int rc = 0;
    char ext[16];
    int spz = !strcmp(relic_path_extension(swp_path, ext, sizeof ext), "spz");
    c.v = &v;
    c.dir = dir;
    c.pid_path = pid_path;
    c.mips = mips;
    cli_batch_begin(); /* every PNG, or none */
    rc = walk_textures(&c, &v, pid, &swp, spz, &a);
    rc = cli_batch_end(!rc);
    if (!rc) printf("%s: %u PNG file%s in %s\n", pid_path, c.written, c.written == 1 ? "" : "s", dir);
    cli_unload(&swp);
    relic_arena_release(&a);
    return rc ? EXIT_INVALID : EXIT_VALID;
}
