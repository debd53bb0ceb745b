/* mutate_text.c — structure-aware mutators for the Trespasser text formats
 * (`relic mutate` and the fuzz targets, issue 8): TRI triangle meshes, TRR point clouds and TPM
 * scene files (Trespasser source, Lib/Std/Hash.cpp; Trespasser file formats, TPM). They have no
 * schema (re2c readers), so the tables the generic engine (runtime/mutate/mutate.c)
 * walks are written here, over a mirror of each reader's model with size_t
 * counts: TRI vertices and triangles (index triples), TRR points, TPM
 * blocks with their vertices (and skin bone indices, resized together),
 * texture coordinates, normals, faces (1-based v/t/n indices and material)
 * and properties (whole elements: duplicated, removed, swapped, spliced).
 * Files are written with the formats' own writers (relic_tri_write,
 * relic_trr_write, relic_tpm_write) and validated with their readers, as
 * `relic check` does. Values come from the engine: boundary integers (an
 * index past its array makes an invalid file), floats including NaN and
 * infinities (which the writers refuse or the readers reject). The invalid
 * mode also flips a bit of the first byte (a count, a coordinate or a
 * block keyword). */
#include <string.h>

#include "mutate_arena.h"
#include "relic_mutate_formats.h"
#include "relic_tpm.h"
#include "relic_tri.h"
#include "relic_trr.h"

/* The first byte of the text: the invalid mode's stale value. */
static const relic_mut_patch first_byte[] = {
    {"text[0]", 0u, 1, 0, RELIC_MUT_PATCH_CONST},
};

/* ---- TRI ---- */

typedef struct tri_model {
    double (*vertices)[3];
    size_t vertex_count;
    uint32_t (*triangles)[3];
    size_t triangle_count;
} tri_model;

static const relic_mut_field tri_fields[] = {
    {"vertices", RELIC_MUT_FLOAT, RELIC_MUTF_VAR | RELIC_MUTF_RESIZE, 8, -1, 0, 3u, offsetof(tri_model, vertices),
     offsetof(tri_model, vertex_count), sizeof(double), NULL, 0, 0, 0, 0, 0, 0},
    {"triangles", RELIC_MUT_INT, RELIC_MUTF_VAR | RELIC_MUTF_RESIZE, 4, -1, 1, 3u, offsetof(tri_model, triangles),
     offsetof(tri_model, triangle_count), sizeof(uint32_t), NULL, 0, 0, 0, 0, 0, 0},
};
static const relic_mut_struct tri_structs[] = {{"tri", sizeof(tri_model), tri_fields, 2}};

static relic_status tri_validate(const uint8_t *data, size_t size, relic_arena *scratch, relic_error *err)
{
    relic_tri_mesh m;
    mut_mark mk = mut_arena_mark(scratch);
    relic_status st = relic_tri_parse(NULL, data, size, scratch, &m, err);
    mut_arena_rewind(scratch, mk);
    return st;
}

static relic_status tri_load(const uint8_t *data, size_t size, relic_arena *a, void **model, relic_error *err)
{
    relic_tri_mesh t;
    relic_status st = relic_tri_parse(NULL, data, size, a, &t, err);
    if (st != RELIC_OK) return st;
    tri_model *m = relic_arena_alloc(a, sizeof *m, 16);
    if (!m) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the model");
    m->vertices = t.vertices;
    m->vertex_count = t.vertex_count;
    m->triangles = t.triangles;
    m->triangle_count = t.triangle_count;
    *model = m;
    return RELIC_OK;
}

static relic_status tri_write(const void *model, relic_buf *out, relic_arena *scratch, relic_error *err)
{
    (void)scratch;
    const tri_model *m = model;
    if (m->vertex_count > RELIC_TRI_MAX_COUNT || m->triangle_count > RELIC_TRI_MAX_COUNT)
        return relic_fail(err, RELIC_E_LIMIT, 0, "", "more than %u vertices or triangles", (unsigned)RELIC_TRI_MAX_COUNT);
    relic_tri_mesh t = {m->vertices, (uint32_t)m->vertex_count, m->triangles, (uint32_t)m->triangle_count};
    return relic_tri_write(&t, out, err);
}

const relic_mut_format *relic_mutator_tri(void)
{
    static const relic_mut_format f = {"tri", tri_structs, 1, 0, first_byte, 1, tri_load, tri_write, tri_validate};
    return &f;
}

/* ---- TRR ---- */

typedef struct trr_model {
    double (*points)[3];
    size_t count;
} trr_model;

static const relic_mut_field trr_fields[] = {
    {"points", RELIC_MUT_FLOAT, RELIC_MUTF_VAR | RELIC_MUTF_RESIZE, 8, -1, 0, 3u, offsetof(trr_model, points),
     offsetof(trr_model, count), sizeof(double), NULL, 0, 0, 0, 0, 0, 0},
};
static const relic_mut_struct trr_structs[] = {{"trr", sizeof(trr_model), trr_fields, 1}};

static relic_status trr_validate(const uint8_t *data, size_t size, relic_arena *scratch, relic_error *err)
{
    relic_trr_points p;
    mut_mark mk = mut_arena_mark(scratch);
    relic_status st = relic_trr_parse(NULL, data, size, scratch, &p, err);
    mut_arena_rewind(scratch, mk);
    return st;
}

static relic_status trr_load(const uint8_t *data, size_t size, relic_arena *a, void **model, relic_error *err)
{
    relic_trr_points p;
    relic_status st = relic_trr_parse(NULL, data, size, a, &p, err);
    if (st != RELIC_OK) return st;
    trr_model *m = relic_arena_alloc(a, sizeof *m, 16);
    if (!m) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the model");
    m->points = p.points;
    m->count = p.count;
    *model = m;
    return RELIC_OK;
}

static relic_status trr_write(const void *model, relic_buf *out, relic_arena *scratch, relic_error *err)
{
    (void)scratch;
    const trr_model *m = model;
    relic_trr_points p = {m->points, m->count};
    return relic_trr_write(&p, out, err);
}

const relic_mut_format *relic_mutator_trr(void)
{
    static const relic_mut_format f = {"trr", trr_structs, 1, 0, first_byte, 1, trr_load, trr_write, trr_validate};
    return &f;
}

/* ---- TPM ---- */

/* One block: the reader's block (names, materials, kind: kept), and the
 * arrays the engine changes, with size_t counts. */
typedef struct tpm_mblock {
    float (*vertices)[3];
    size_t vertex_count;
    uint32_t *bones; /* skins; a zero array of vertex_count for meshes */
    size_t bone_count;
    float (*texcoords)[2];
    size_t texcoord_count;
    float (*normals)[3];
    size_t normal_count;
    relic_tpm_face *faces;
    size_t face_count;
    relic_tpm_prop *props;
    size_t prop_count;
    relic_tpm_block b;
} tpm_mblock;

typedef struct tpm_model {
    tpm_mblock *blocks;
    size_t block_count;
    relic_tpm_comment *comments;
    uint32_t comment_count;
} tpm_model;

enum { TPM_FACE,
       TPM_PROP,
       TPM_BLOCK,
       TPM_FILE };

static const relic_mut_field tpm_face_fields[] = {
    {"v", RELIC_MUT_INT, 0, 4, -1, -1, 3u, offsetof(relic_tpm_face, v), 0, 4, NULL, 0, 0, 0, 0, 0, 0},
    {"t", RELIC_MUT_INT, 0, 4, -1, -1, 3u, offsetof(relic_tpm_face, t), 0, 4, NULL, 0, 0, 0, 0, 0, 0},
    {"n", RELIC_MUT_INT, 0, 4, -1, -1, 3u, offsetof(relic_tpm_face, n), 0, 4, NULL, 0, 0, 0, 0, 0, 0},
    {"material", RELIC_MUT_INT, 0, 4, -1, -1, 1u, offsetof(relic_tpm_face, material), 0, 4, NULL, 0, 0, 0, 0, 0, 0},
};

static const relic_mut_field tpm_block_fields[] = {
    {"v", RELIC_MUT_FLOAT, RELIC_MUTF_VAR | RELIC_MUTF_RESIZE, 4, -1, 0, 3u, offsetof(tpm_mblock, vertices),
     offsetof(tpm_mblock, vertex_count), sizeof(float), NULL, 0, 0, 0, 0, 0, 0},
    {"bones", RELIC_MUT_INT, RELIC_MUTF_VAR | RELIC_MUTF_RESIZE, 4, -1, 0, 1u, offsetof(tpm_mblock, bones),
     offsetof(tpm_mblock, bone_count), sizeof(uint32_t), NULL, 0, 0, 0, 0, 0, 0},
    {"t", RELIC_MUT_FLOAT, RELIC_MUTF_VAR | RELIC_MUTF_RESIZE, 4, -1, 2, 2u, offsetof(tpm_mblock, texcoords),
     offsetof(tpm_mblock, texcoord_count), sizeof(float), NULL, 0, 0, 0, 0, 0, 0},
    {"n", RELIC_MUT_FLOAT, RELIC_MUTF_VAR | RELIC_MUTF_RESIZE, 4, -1, 3, 3u, offsetof(tpm_mblock, normals),
     offsetof(tpm_mblock, normal_count), sizeof(float), NULL, 0, 0, 0, 0, 0, 0},
    {"f", RELIC_MUT_STRUCT, RELIC_MUTF_VAR | RELIC_MUTF_RESIZE, 0, TPM_FACE, 4, 1u, offsetof(tpm_mblock, faces),
     offsetof(tpm_mblock, face_count), sizeof(relic_tpm_face), NULL, 0, 0, 0, 0, 0, 0},
    {"props", RELIC_MUT_STRUCT, RELIC_MUTF_VAR | RELIC_MUTF_RESIZE, 0, TPM_PROP, 5, 1u, offsetof(tpm_mblock, props),
     offsetof(tpm_mblock, prop_count), sizeof(relic_tpm_prop), NULL, 0, 0, 0, 0, 0, 0},
};

static const relic_mut_field tpm_file_fields[] = {
    {"blocks", RELIC_MUT_STRUCT, RELIC_MUTF_VAR | RELIC_MUTF_RESIZE, 0, TPM_BLOCK, 0, 1u, offsetof(tpm_model, blocks),
     offsetof(tpm_model, block_count), sizeof(tpm_mblock), NULL, 0, 0, 0, 0, 0, 0},
};

/* Properties are changed as whole elements only (their value text is
 * what the writer prints), so the prop struct lists no fields. */
static const relic_mut_struct tpm_structs[] = {
    {"face", sizeof(relic_tpm_face), tpm_face_fields, 4},
    {"prop", sizeof(relic_tpm_prop), NULL, 0},
    {"block", sizeof(tpm_mblock), tpm_block_fields, 6},
    {"tpm", sizeof(tpm_model), tpm_file_fields, 1},
};

static relic_status tpm_validate(const uint8_t *data, size_t size, relic_arena *scratch, relic_error *err)
{
    relic_tpm_file f;
    mut_mark mk = mut_arena_mark(scratch);
    relic_status st = relic_tpm_parse(NULL, data, size, scratch, &f, err);
    mut_arena_rewind(scratch, mk);
    return st;
}

static relic_status tpm_load(const uint8_t *data, size_t size, relic_arena *a, void **model, relic_error *err)
{
    relic_tpm_file f;
    relic_status st = relic_tpm_parse(NULL, data, size, a, &f, err);
    if (st != RELIC_OK) return st;
    tpm_model *m = relic_arena_alloc(a, sizeof *m, 16);
    tpm_mblock *bl = relic_arena_array(a, f.block_count ? f.block_count : 1, sizeof *bl, 16);
    if (!m || !bl) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the model");
    memset(bl, 0, (f.block_count ? f.block_count : 1) * sizeof *bl);
    for (uint32_t i = 0; i < f.block_count; i++) {
        const relic_tpm_block *b = &f.blocks[i];
        tpm_mblock *o = &bl[i];
        o->b = *b;
        o->vertices = b->vertices;
        o->vertex_count = b->vertex_count;
        o->bones = b->bones;
        if (!o->bones && b->vertex_count) {
            o->bones = relic_arena_array(a, b->vertex_count, sizeof *o->bones, 4);
            if (!o->bones) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the model");
            memset(o->bones, 0, b->vertex_count * sizeof *o->bones);
        }
        o->bone_count = b->vertex_count;
        o->texcoords = b->texcoords;
        o->texcoord_count = b->texcoord_count;
        o->normals = b->normals;
        o->normal_count = b->normal_count;
        o->faces = b->faces;
        o->face_count = b->face_count;
        o->props = b->props;
        o->prop_count = b->prop_count;
    }
    m->blocks = bl;
    m->block_count = f.block_count;
    m->comments = f.comments;
    m->comment_count = f.comment_count;
    *model = m;
    return RELIC_OK;
}

static relic_status tpm_write(const void *model, relic_buf *out, relic_arena *scratch, relic_error *err)
{
    const tpm_model *m = model;
    if (m->block_count > RELIC_TPM_MAX_ELEMENTS)
        return relic_fail(err, RELIC_E_LIMIT, 0, "blocks", "%zu blocks", m->block_count);
    mut_mark mk = mut_arena_mark(scratch);
    relic_tpm_file f = {NULL, (uint32_t)m->block_count, m->comments, m->comment_count};
    f.blocks = relic_arena_array(scratch, m->block_count ? m->block_count : 1, sizeof *f.blocks, 16);
    relic_status st = f.blocks ? RELIC_OK : relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the blocks");
    for (size_t i = 0; st == RELIC_OK && i < m->block_count; i++) {
        const tpm_mblock *o = &m->blocks[i];
        relic_tpm_block *b = &f.blocks[i];
        if (o->vertex_count > RELIC_TPM_MAX_ELEMENTS || o->texcoord_count > RELIC_TPM_MAX_ELEMENTS ||
            o->normal_count > RELIC_TPM_MAX_ELEMENTS || o->face_count > RELIC_TPM_MAX_ELEMENTS ||
            o->prop_count > RELIC_TPM_MAX_ELEMENTS || o->bone_count != o->vertex_count) {
            st = relic_fail(err, RELIC_E_LIMIT, 0, "blocks", "block %zu: counts out of range", i);
            break;
        }
        *b = o->b;
        b->vertices = o->vertices;
        b->vertex_count = (uint32_t)o->vertex_count;
        b->bones = o->b.bones ? o->bones : NULL; /* meshes carry no bone indices */
        b->texcoords = o->texcoords;
        b->texcoord_count = (uint32_t)o->texcoord_count;
        b->normals = o->normals;
        b->normal_count = (uint32_t)o->normal_count;
        b->faces = o->faces;
        b->face_count = (uint32_t)o->face_count;
        b->props = o->props;
        b->prop_count = (uint32_t)o->prop_count;
    }
    if (st == RELIC_OK) st = relic_tpm_write(&f, out, err);
    mut_arena_rewind(scratch, mk);
    return st;
}

const relic_mut_format *relic_mutator_tpm(void)
{
    static const relic_mut_format f = {"tpm", tpm_structs, 4, TPM_FILE, first_byte, 1, tpm_load, tpm_write,
                                       tpm_validate};
    return &f;
}
