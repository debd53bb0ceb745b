/* fmt_tpm.c — the `relic` command for Trespasser Models text (.tpm, by
 * extension; Trespasser file formats, "TPM - Models", runtime/include/relic/relic_tpm.h): info (blocks,
 * geometry counts, bounds), check (the reader's errors with their line and column;
 * --strict adds the TPM document's advice: a fileinfo block with formatversion,
 * unit-length normals, degenerate faces, faces grouped by material), JSON,
 * convert to OBJ or to TPM again (normalised text), and OBJ -> TPM. */
#include <math.h>
#include <string.h>

#include "formats.h"
#include "obj.h"
#include "relic_tpm.h"


static int load(const cli_input *in, relic_arena *a, relic_tpm_file *m, FILE *to)
{
    relic_error err;
    relic_arena_init_heap(a, CLI_ARENA_LIMIT);
    if (relic_tpm_parse(in->path, in->map.bytes.data, in->map.bytes.size, a, m, &err) != RELIC_OK) {
        cli_report(to, in->path, &err);
        return 1;
    }
    return 0;
}

static int tpm_info(const cli_input *in)
{
    relic_arena a;
    relic_tpm_file m;
    if (load(in, &a, &m, stdout)) {
        relic_arena_release(&a);
        return 1;
    }
    unsigned count[RELIC_TPM_BONE + 1] = {0};
    uint64_t v = 0, f = 0;
    for (uint32_t i = 0; i < m.block_count; i++) {
        count[m.blocks[i].kind]++;
        v += m.blocks[i].vertex_count;
        f += m.blocks[i].face_count;
    }
    printf("%s: Trespasser TPM model text, %u blocks: %u instances, %u materials, %u meshes, %u skins, %u bones%s; %u comments\n",
           in->path, m.block_count, count[RELIC_TPM_INSTANCE], count[RELIC_TPM_MATERIAL], count[RELIC_TPM_MESH],
           count[RELIC_TPM_SKIN], count[RELIC_TPM_BONE], count[RELIC_TPM_FILEINFO] ? ", fileinfo" : "", m.comment_count);
    for (uint32_t i = 0; i < m.block_count; i++) {
        const relic_tpm_block *b = &m.blocks[i];
        if (b->kind == RELIC_TPM_FILEINFO) {
            const relic_tpm_prop *p = relic_tpm_find(b, "formatversion");
            if (p) printf("  format version %s\n", p->text);
            continue;
        }
        if (b->kind != RELIC_TPM_MESH && b->kind != RELIC_TPM_SKIN) continue;
        printf("  %s \"%s\": %u vertices, %u texture coordinates, %u normals, %u faces, %u materials", relic_tpm_kind_name(b->kind),
               b->name, b->vertex_count, b->texcoord_count, b->normal_count, b->face_count, b->material_count);
        if (b->vertex_count) {
            float lo[3], hi[3];
            for (int k = 0; k < 3; k++) lo[k] = hi[k] = b->vertices[0][k];
            for (uint32_t j = 1; j < b->vertex_count; j++)
                for (int k = 0; k < 3; k++) {
                    if (b->vertices[j][k] < lo[k]) lo[k] = b->vertices[j][k];
                    if (b->vertices[j][k] > hi[k]) hi[k] = b->vertices[j][k];
                }
            printf("; X %g..%g, Y %g..%g, Z %g..%g", lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
        }
        printf("\n");
    }
    printf("  %llu vertices and %llu faces in all\n", (unsigned long long)v, (unsigned long long)f);
    relic_arena_release(&a);
    return 0;
}

static unsigned tpm_check(const cli_input *in, int strict)
{
    relic_arena a;
    relic_tpm_file m;
    unsigned problems = 0;
    if (load(in, &a, &m, stdout)) {
        relic_arena_release(&a);
        return 1;
    }
    if (strict) {
        const relic_tpm_block *fi = NULL;
        for (uint32_t i = 0; i < m.block_count; i++)
            if (m.blocks[i].kind == RELIC_TPM_FILEINFO) fi = &m.blocks[i];
        if (!fi || !relic_tpm_find(fi, "formatversion")) {
            cli_problemf(in->path, 0, NULL, "no fileinfo block with a formatversion (the one property a reader needs)");
            problems++;
        }
        for (uint32_t i = 0; i < m.block_count; i++) {
            const relic_tpm_block *b = &m.blocks[i];
            for (uint32_t j = 0; j < b->normal_count; j++) {
                const float *n = b->normals[j];
                double len = sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);
                if (fabs(len - 1.0) > 1e-3) {
                    if (problems < 20)
                        cli_problemf(in->path, b->where.offset, NULL,
                                     "line %u: %s \"%s\": normal %u has length %g (normals should be normalised)", b->where.line,
                                     relic_tpm_kind_name(b->kind), b->name, j + 1, len);
                    problems++;
                }
            }
            uint32_t groups = 0;
            for (uint32_t j = 0; j < b->face_count; j++) {
                const uint32_t *v = b->faces[j].v;
                if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) {
                    if (problems < 20)
                        cli_problemf(in->path, b->where.offset, NULL, "line %u: %s \"%s\": face %u repeats a vertex", b->where.line,
                                     relic_tpm_kind_name(b->kind), b->name, j + 1);
                    problems++;
                }
                groups += j == 0 || b->faces[j].material != b->faces[j - 1].material;
            }
            uint32_t used = 0;
            uint8_t *seen = relic_arena_alloc(&a, (size_t)b->material_count + 1, 1);
            if (seen) {
                memset(seen, 0, (size_t)b->material_count + 1);
                for (uint32_t j = 0; j < b->face_count; j++)
                    if (!seen[b->faces[j].material]) {
                        seen[b->faces[j].material] = 1;
                        used++;
                    }
            }
            if (groups > used) {
                if (problems < 20)
                    cli_problemf(in->path, b->where.offset, NULL,
                                 "line %u: %s \"%s\": faces of one material are not grouped (%u runs of %u materials)",
                                 b->where.line, relic_tpm_kind_name(b->kind), b->name, groups, used);
                problems++;
            }
        }
    }
    relic_arena_release(&a);
    return problems;
}

static int tpm_to_json(const cli_input *in, relic_buf *out)
{
    relic_arena a;
    relic_tpm_file m;
    if (load(in, &a, &m, stderr)) {
        relic_arena_release(&a);
        return 1;
    }
    relic_tpm_json(&m, out);
    relic_arena_release(&a);
    return 0;
}

static int tpm_from_json(const cli_input *in, const char *out_path)
{
    (void)in;
    (void)out_path;
    return -1;
}

static int tpm_convert(const cli_input *in, const char *out_path, const char *ext)
{
    const int obj = !strcmp(ext, "obj");
    if (!obj && strcmp(ext, "tpm")) return -1;
    relic_arena a;
    relic_tpm_file m;
    relic_buf buf;
    relic_error err;
    int rc = 1;
    relic_buf_init(&buf, 0);
    if (!load(in, &a, &m, stderr)) {
        if ((obj ? relic_tpm_to_obj(&m, &buf, &err) : relic_tpm_write(&m, &buf, &err)) != RELIC_OK)
            cli_error(out_path, &err);
        else
            rc = cli_write(out_path, buf.data, buf.size, in->path);
    }
    relic_buf_free(&buf);
    relic_arena_release(&a);
    return rc;
}

/* OBJ -> TPM: one mesh named after the OBJ file, with a fileinfo block and
 * an instance of it. */
static int tpm_import(const cli_input *in, const char *out_path, const char *ext)
{
    if (in->format != RELIC_FORMAT_OBJ || strcmp(ext, "tpm")) return -1;
    relic_arena a;
    relic_error err;
    relic_obj_mesh obj;
    relic_tpm_file m;
    relic_buf buf;
    int rc = 1;
    char name[256];
    const char *base = strrchr(in->path, '/');
    base = base ? base + 1 : in->path;
    const char *dot = strrchr(base, '.');
    size_t n = dot ? (size_t)(dot - base) : strlen(base);
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), base);
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    relic_buf_init(&buf, 0);
    if (relic_obj_parse(in->path, in->map.bytes.data, in->map.bytes.size, &a, &obj, &err) != RELIC_OK) {
        cli_error(in->path, &err);
    } else if (relic_tpm_from_obj(&obj, name, &a, &m, &err) != RELIC_OK || relic_tpm_write(&m, &buf, &err) != RELIC_OK) {
        cli_error(out_path, &err);
    } else {
        rc = cli_write(out_path, buf.data, buf.size, in->path);
    }
    relic_buf_free(&buf);
    relic_arena_release(&a);
    return rc;
}

const cli_hooks cli_tpm_hooks = {
    tpm_info,
    tpm_check,
    tpm_to_json,
    tpm_from_json,
    NULL,
    tpm_convert,
    tpm_import,
    "  x.tpm -> y.obj|y.tpm|y.json                      TPM model text to OBJ, normalised TPM, JSON\n"
    "  x.obj -> y.tpm                                   an OBJ mesh as a TPM model (positions, UVs, normals,\n"
    "                                                   faces, materials)\n",
    NULL, /* json_max_output: no bound */
};
