/* fmt_groff.c — the `relic` command for Trespasser GROFF containers (.grf
 * levels, .scn scenes and savegames), plain or SZDD-compressed: info,
 * check (schema validator, runtime/formats/tres/groff_check.c, then every section with
 * its kind's schema and the rules between sections, runtime/formats/tres/grf_file.c),
 * JSON both ways (printed from the sections' views, read back into models:
 * runtime/json/grf_json.c), the level as OBJ +
 * MTL (runtime/export/grf_obj.c), and re-writing, plain (.grf .scn) or
 * SZDD-compressed (.gr_ .sc_). Facts: Trespasser source, Lib/Groff/FileIO.cpp, Lib/Loader/SaveFile.cpp;
 * Trespasser file formats, GROFF. */
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "relic_grf.h"
#include "relic_tpm.h"
#include "relic_groff.h"
#include "relic_lzss.h"
#include "relic_tres_names.h"

/* The textures written beside the OBJ (cli_level_textures), for map_Kd. */
typedef struct level_textures {
    relic_arena *a;
    const char **stems;
    size_t count;
} level_textures;

static const char *texture_file(void *ctx, const char *texture)
{
    level_textures *t = ctx;
    const char *name = cli_level_texture_name(t->a, texture);
    if (!name || !cli_level_texture_stem(t->stems, t->count, name)) return NULL;
    char *file = relic_arena_alloc(t->a, strlen(name) + 5, 1);
    if (file) sprintf(file, "%s.png", name);
    return file;
}

/* relic_grf_export_obj(_textured) with its scratch in a heap arena freed at once */
static relic_status grf_obj_scratch(const relic_grf_file *f, const char *mtl_name, level_textures *tex, relic_buf *obj,
                                    relic_buf *mtl, relic_error *err)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_status st = relic_grf_export_obj_textured(f, mtl_name, tex ? texture_file : NULL, tex, &a, obj, mtl, err);
    relic_arena_release(&a);
    return st;
}

/* relic_tpm_from_grf with its scratch in a heap arena freed at once */
static relic_status tpm_from_grf_scratch(const relic_grf_file *f, relic_buf *out, uint32_t *mesh_count, relic_error *err)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_status st = relic_tpm_from_grf(f, &a, out, mesh_count, err);
    relic_arena_release(&a);
    return st;
}

/* A GRF's ".header" section: u32 magic, u32 GROFF version whose bit 31 marks
 * an optimised GRF (Trespasser source, Lib/Groff/GroffIO.cpp); an SCN's "Header" starts with the i32 save
 * version (Trespasser source, Lib/Loader/SaveFile.cpp). */
#define GRF_HEADER_VERSION_OFFSET 4u
#define GRF_HEADER_MIN_SIZE 8u
#define GRF_VERSION_OPTIMISED 0x80000000u
#define SCN_HEADER_MIN_SIZE 4u
/* content flag bits counted by info: all but "special" (bit 31) */
#define CONTENT_BITS 31

/* grf/scn plain; gr_/sc_ SZDD-compressed, named as COMPRESS.EXE names them */

/* The GROFF bytes of the input (decompressed from SZDD into a) and their view. */
static int open_view(const cli_input *in, relic_arena *a, relic_groff_view *v, int *compressed)
{
    relic_error err;
    relic_bytes b;
    if (relic_groff_open(in->map.bytes.data, in->map.bytes.size, a, &b, compressed, &err) != RELIC_OK ||
        relic_groff_validate(b.data, b.size, v, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &err);
        return 1;
    }
    return 0;
}

static int load_model(const cli_input *in, relic_arena *a, relic_groff_file *m)
{
    relic_groff_view v;
    relic_error err;
    int compressed;
    if (open_view(in, a, &v, &compressed)) return 1;
    if (relic_groff_decode(&v, a, m, &err) != RELIC_OK) {
        cli_error(in->path, &err);
        return 1;
    }
    return 0;
}

/* missing_char: 0 for a plain GROFF, else the SZDD header's last character of the original name */
static int write_model(const relic_groff_file *m, const char *out_path, const char *in_path, uint8_t missing_char)
{
    relic_buf out;
    relic_error err;
    relic_groff_view check;
    int rc;
    relic_buf_init(&out, 0);
    if (relic_groff_write(m, &out, &err) != RELIC_OK) {
        cli_error(out_path, &err);
        rc = 1;
    } else if (relic_groff_validate(out.data, out.size, &check, &err) != RELIC_OK) {
        cli_error_in(out_path, "internal error: the written GROFF does not validate", &err);
        rc = 1;
    } else if (missing_char) {
        relic_buf z;
        relic_buf_init(&z, 0);
        relic_arena sa; /* encoder scratch */
        relic_arena_init_heap(&sa, 0);
        relic_status est = relic_lzss_container_encode(RELIC_LZSS_SZDD, RELIC_LZSS_BEST, missing_char, out.data, out.size,
                                                       &sa, &z, &err);
        relic_arena_release(&sa);
        if (est != RELIC_OK) {
            cli_error(out_path, &err);
            rc = 1;
        } else {
            rc = cli_write(out_path, z.data, z.size, in_path);
        }
        relic_buf_free(&z);
    } else {
        rc = cli_write(out_path, out.data, out.size, in_path);
    }
    relic_buf_free(&out);
    return rc;
}

/* The SZDD missing character for an output extension, 0 for a plain one. */
static uint8_t missing_char_of(const char *ext)
{
    if (!strcmp(ext, "gr_")) return 'f';
    if (!strcmp(ext, "sc_")) return 'n';
    return 0;
}

static int groff_info(const cli_input *in)
{
    relic_arena a;
    relic_groff_view v;
    relic_groff_file m;
    relic_error err;
    int compressed, rc = 0;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    const char **names;
    if (open_view(in, &a, &v, &compressed)) {
        relic_arena_release(&a);
        return 1;
    }
    if (relic_groff_decode(&v, &a, &m, &err) != RELIC_OK || relic_groff_model_section_names(&m, &a, &names, &err) != RELIC_OK) {
        cli_error(in->path, &err);
        relic_arena_release(&a);
        return 1;
    }
    size_t special = 0, hashed = 0;
    unsigned counts[CONTENT_BITS] = {0};
    const char *header_name = NULL;
    relic_bytes header = {NULL, 0};
    for (size_t i = 0; i < m.sections_count; i++) {
        uint32_t c = m.sections[i].content;
        const char *name = names[i];
        uint32_t h;
        if (c & RELIC_GROFF_CONTENT_SPECIAL) special++;
        for (int b = 0; b < CONTENT_BITS; b++)
            if (c & (1u << b)) counts[b]++;
        if (name && relic_tres_parse_section_name(name, strlen(name), &h)) hashed++;
        if (name && (!strcmp(name, ".header") || !strcmp(name, "Header")) && !header.data) {
            header_name = name;
            header = relic_groff_model_section_data(&m, i);
        }
    }
    int scene = special == m.sections_count && m.sections_count > 0;
    printf("%s: Trespasser GROFF container, %s%s\n", in->path, scene ? "scene or savegame (SCN)" : "level (GRF)",
           compressed ? ", SZDD-compressed" : "");
    if (compressed) printf("  %zu bytes compressed, %u decompressed\n", in->map.bytes.size, m.header.file_size);
    printf("  %zu sections, %zu symbols (%u bytes of names)\n", m.sections_count, m.symbols_count, m.header.symbol_table_size);
    if (header_name && !scene && header.size >= GRF_HEADER_MIN_SIZE) {
        uint32_t ver = relic_load_u32le(header.data + GRF_HEADER_VERSION_OFFSET);
        printf("  GROFF version %u%s\n", ver & ~GRF_VERSION_OPTIMISED,
               ver & GRF_VERSION_OPTIMISED ? ", optimised (mesh heaps)" : "");
    } else if (header_name && scene && header.size >= SCN_HEADER_MIN_SIZE) {
        printf("  save version %d\n", (int)relic_load_u32le(header.data));
    }
    if (scene) {
        printf("  %zu of the sections are instance states named by the hash of the instance name\n", hashed);
    } else {
        printf("  content:");
        for (int b = 0; b < CONTENT_BITS; b++) {
            if (!counts[b]) continue;
            const char *n = relic_groff_content_name(1u << b);
            printf(" %s=%u", n ? n : "?", counts[b]);
        }
        printf("\n");
    }
    relic_grf_file f;
    if (relic_grf_file_decode(&m, &a, &f, &err) == RELIC_OK) {
        unsigned kinds[RELIC_GRF_KIND_COUNT] = {0};
        for (size_t i = 0; i < m.sections_count; i++) kinds[f.kinds[i]]++;
        printf("  sections by kind:");
        for (int k = 0; k < RELIC_GRF_KIND_COUNT; k++)
            if (kinds[k]) printf(" %s=%u", relic_grf_kind_name((relic_grf_kind)k), kinds[k]);
        printf("\n");
    } else {
        printf("  a section does not decode: ");
        cli_report(cli_problem_stream(), in->path, &err);
    }
    relic_arena_release(&a);
    return rc;
}

typedef struct report_ctx {
    const char *path;
} report_ctx;

static void report(void *vctx, const relic_error *err)
{
    const report_ctx *c = vctx;
    cli_report(cli_problem_stream(), c->path, err);
}

static unsigned groff_check(const cli_input *in, int strict)
{
    relic_arena a;
    relic_groff_view v;
    int compressed;
    unsigned n;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (open_view(in, &a, &v, &compressed)) n = 1;
    else {
        report_ctx rc = {in->path};
        relic_groff_file m;
        relic_error err;
        n = relic_groff_check(&v, strict, &a, report, &rc);
        if (!n && relic_groff_decode(&v, &a, &m, &err) == RELIC_OK) n = relic_grf_check(&m, &a, report, &rc);
    }
    relic_arena_release(&a);
    return n;
}

/* The whole-file JSON printed from the validated views (relic_grf_view_open,
 * relic_grf_json_print_view: nothing decoded); when a section does not pass
 * its kind's schema, or the sections do not lie back to back, the plain
 * container's JSON (its data as hex), which keeps such a file byte for byte. */
static int groff_to_json(const cli_input *in, relic_buf *out)
{
    relic_arena a;
    relic_error err;
    relic_groff_view v;
    relic_grf_view f;
    int compressed, rc = 0;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (open_view(in, &a, &v, &compressed)) rc = 1;
    else {
        relic_status st = relic_grf_view_open(&v, &a, &f, &err);
        int opened = st == RELIC_OK;
        if (opened) st = relic_grf_json_print_view(&f, out, &err);
        if (st != RELIC_OK && (!opened || st == RELIC_E_UNSUPPORTED)) { /* nothing printed yet */
            cli_error_in(in->path, "sections' data as hex", &err);
            st = relic_groff_json_print_view(&v, out, &err);
        }
        if (st != RELIC_OK) {
            if (!cli_json_write_failed(out)) cli_error(in->path, &err);
            rc = 1;
        }
    }
    relic_arena_release(&a);
    return rc;
}

static int groff_from_json(const cli_input *in, const char *out_path)
{
    relic_arena a;
    relic_error err;
    relic_groff_file m;
    int rc;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (relic_grf_json_read((const char *)in->map.bytes.data, in->map.bytes.size, &a, &m, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &err);
        rc = 1;
    } else {
        char ext[8];
        rc = write_model(&m, out_path, in->path, missing_char_of(relic_path_extension(out_path, ext, sizeof ext)));
    }
    relic_arena_release(&a);
    return rc;
}

/* The level as OBJ at out_path and MTL beside it (same name, .mtl); with
 * --textures PID --swp SWP|SPZ, the textures its materials name as PNG
 * files in the same directory. All files or none. */
static int groff_to_obj(const cli_input *in, const char *out_path)
{
    relic_arena a;
    relic_groff_file m;
    relic_grf_file f;
    relic_error err;
    relic_buf obj, mtl;
    int rc = 1;
    const char *pid_path = cli_convert_option("--textures"), *swp_path = cli_convert_option("--swp");
    if (!pid_path != !swp_path) {
        cli_errorf(in->path, 0, "--textures LEVEL.pid and --swp LEVEL.swp|LEVEL.spz go together");
        return 1;
    }
    size_t n = strlen(out_path);
    char *mtl_path = malloc(n + 5), *dir = malloc(n + 2);
    if (!mtl_path || !dir) {
        free(mtl_path);
        free(dir);
        return 1;
    }
    memcpy(mtl_path, out_path, n + 1);
    char *dot = strrchr(mtl_path, '.'), *slash = strrchr(mtl_path, '/');
    if (dot && (!slash || dot > slash)) strcpy(dot, ".mtl");
    else strcat(mtl_path, ".mtl");
    slash = strrchr(mtl_path, '/');
    /* the textures' directory: the OBJ's */
    if (slash) memcpy(dir, mtl_path, (size_t)(slash - mtl_path)), dir[slash - mtl_path] = 0;
    else strcpy(dir, ".");
    if (slash && slash == mtl_path) strcpy(dir, "/");
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    relic_buf_init(&obj, 0);
    relic_buf_init(&mtl, 0);
    level_textures tex = {&a, NULL, 0};
    /* every file or none: an OBJ without its MTL or textures, or the reverse, is half a result */
    cli_batch_begin();
    if (!load_model(in, &a, &m)) {
        if (relic_grf_file_decode(&m, &a, &f, &err) != RELIC_OK) {
            cli_error(in->path, &err);
        } else if (pid_path && cli_level_textures(pid_path, swp_path, in->path, dir, &a, &tex.stems, &tex.count)) {
            /* reported */
        } else if (grf_obj_scratch(&f, slash ? slash + 1 : mtl_path, pid_path ? &tex : NULL, &obj, &mtl, &err) != RELIC_OK) {
            cli_error(in->path, &err);
        } else {
            rc = cli_write(mtl_path, mtl.data, mtl.size, in->path) || cli_write(out_path, obj.data, obj.size, in->path);
        }
    }
    rc = cli_batch_end(!rc);
    if (!rc && pid_path) printf("%s: %zu texture%s as PNG beside %s\n", in->path, tex.count, tex.count == 1 ? "" : "s", out_path);
    relic_buf_free(&obj);
    relic_buf_free(&mtl);
    relic_arena_release(&a);
    free(mtl_path);
    free(dir);
    return rc;
}

/* The level's models as TPM text (runtime/export/tpm_grf.c). */
static int groff_to_tpm(const cli_input *in, const char *out_path)
{
    relic_arena a;
    relic_groff_file m;
    relic_grf_file f;
    relic_error err;
    relic_buf tpm;
    int rc = 1;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    relic_buf_init(&tpm, 0);
    if (!load_model(in, &a, &m)) {
        if (relic_grf_file_decode(&m, &a, &f, &err) != RELIC_OK || tpm_from_grf_scratch(&f, &tpm, NULL, &err) != RELIC_OK)
            cli_error(in->path, &err);
        else
            rc = cli_write(out_path, tpm.data, tpm.size, in->path);
    }
    relic_buf_free(&tpm);
    relic_arena_release(&a);
    return rc;
}

static int groff_convert(const cli_input *in, const char *out_path, const char *ext)
{
    if (!strcmp(ext, "obj")) return groff_to_obj(in, out_path);
    if (!strcmp(ext, "tpm")) return groff_to_tpm(in, out_path);
    if (strcmp(ext, "grf") && strcmp(ext, "scn") && !missing_char_of(ext)) return -1;
    relic_arena a;
    relic_groff_file m;
    int rc;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    rc = load_model(in, &a, &m) ? 1 : write_model(&m, out_path, in->path, missing_char_of(ext));
    relic_arena_release(&a);
    return rc;
}

const cli_hooks cli_groff_hooks = {
    groff_info,
    groff_check,
    groff_to_json,
    groff_from_json,
    NULL,
    groff_convert,
    NULL,
    "  x.grf|x.scn|x.gr_ -> y.json|y.grf|y.scn|y.gr_   JSON (each section decoded by kind; a level's instances\n"
    "                                                   with their value-table properties), re-written GROFF;\n"
    "                                                   .gr_/.sc_ is SZDD-compressed (COMPRESS.EXE form),\n"
    "                                                   read transparently wherever a GROFF is\n"
    "  x.json -> y.grf|y.scn|y.gr_|y.sc_                the GROFF again, byte for byte\n"
    "  x.grf -> y.obj [--textures x.pid --swp x.spz]    the level: every instance placed, with y.mtl; the\n"
    "                                                   textures it names as PNG beside it (from PID + SWP/SPZ)\n"
    "  x.grf -> y.tpm                                   the level's models as TPM meshes (object space, UVs,\n"
    "                                                   normals, materials) and its instances\n",
    NULL, /* json_max_output: no bound */
};
