/* tpm_obj.c — TPM models to and from Wavefront OBJ (runtime/include/relic/relic_tpm.h):
 * the meshes and skins of a model as OBJ objects (Trespasser file formats, TPM "Mesh": one
 * position, texture-coordinate and normal array per mesh, 1-based indices,
 * a per-mesh material table; OBJ's indices are 1-based over the whole file,
 * so each object's indices are offset by what came before), and one OBJ
 * mesh read by runtime/include/relic/obj.h as a TPM model with a fileinfo block, an
 * instance and the mesh. Coordinates are kept as they are (TPM is Z-up as
 * Trespasser and 3ds Max, the TPM document "Coordinate System"; no axes are swapped). */
#include <math.h>

#include "obj.h"
#include "relic_gen.h"
#include "relic_tpm.h"

/** The TPM format version relic writes in the fileinfo block it makes
 *  (the TPM document's example and the version of its draft). */
#define TPM_FORMAT_VERSION "1.0.1"

static relic_status put_floats(relic_buf *o, const char *tag, const float *v, unsigned n, relic_error *err)
{
    char t[48];
    relic_buf_puts(o, tag);
    for (unsigned i = 0; i < n; i++) {
        if (!isfinite(v[i])) return relic_fail(err, RELIC_E_RANGE, 0, NULL, "a non-finite coordinate has no OBJ form");
        relic_buf_append(o, " ", 1);
        relic_buf_append(o, t, relic_f32_shortest(v[i], t));
    }
    relic_buf_append(o, "\n", 1);
    return RELIC_OK;
}

relic_status relic_tpm_to_obj(const relic_tpm_file *m, relic_buf *o, relic_error *err)
{
    relic_status st;
    uint64_t base_v = 0, base_t = 0, base_n = 0;
    relic_buf_puts(o, "# Wavefront OBJ written by relic from a TPM model (meshes and skins; Z up as in Trespasser)\n");
    for (uint32_t i = 0; i < m->block_count; i++) {
        const relic_tpm_block *b = &m->blocks[i];
        if (b->kind != RELIC_TPM_MESH && b->kind != RELIC_TPM_SKIN) {
            relic_buf_printf(o, "# %s", relic_tpm_kind_name(b->kind));
            if (b->name) relic_buf_printf(o, " \"%.*s\"", (int)(b->name_len > 200 ? 200 : b->name_len), b->name);
            relic_buf_puts(o, " (no OBJ form)\n");
            continue;
        }
        relic_buf_printf(o, "o %.*s\n", (int)(b->name_len > 1000 ? 1000 : b->name_len), b->name ? b->name : "");
        if (b->kind == RELIC_TPM_SKIN) relic_buf_puts(o, "# a skin: the bone index of each vertex has no OBJ form\n");
        for (uint32_t j = 0; j < b->vertex_count; j++)
            if ((st = put_floats(o, "v", b->vertices[j], 3, err)) != RELIC_OK) return st;
        for (uint32_t j = 0; j < b->texcoord_count; j++)
            if ((st = put_floats(o, "vt", b->texcoords[j], 2, err)) != RELIC_OK) return st;
        for (uint32_t j = 0; j < b->normal_count; j++)
            if ((st = put_floats(o, "vn", b->normals[j], 3, err)) != RELIC_OK) return st;
        uint32_t current = 0;
        for (uint32_t j = 0; j < b->face_count; j++) {
            const relic_tpm_face *f = &b->faces[j];
            if (f->material != current) {
                current = f->material;
                if (current >= 1 && current <= b->material_count) relic_buf_printf(o, "usemtl %s\n", b->materials[current - 1]);
                else relic_buf_puts(o, "usemtl none\n");
            }
            relic_buf_puts(o, "f");
            for (int k = 0; k < 3; k++) {
                relic_buf_printf(o, " %llu", (unsigned long long)(base_v + f->v[k]));
                if (f->t[k] || f->n[k]) {
                    relic_buf_puts(o, "/");
                    if (f->t[k]) relic_buf_printf(o, "%llu", (unsigned long long)(base_t + f->t[k]));
                    if (f->n[k]) relic_buf_printf(o, "/%llu", (unsigned long long)(base_n + f->n[k]));
                }
            }
            relic_buf_puts(o, "\n");
        }
        base_v += b->vertex_count;
        base_t += b->texcoord_count;
        base_n += b->normal_count;
    }
    if (o->failed) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "cannot grow the output");
    return RELIC_OK;
}

/* A property with its value text, as the reader would make it. */
static relic_status prop(relic_arena *a, relic_tpm_prop *p, const char *key, const char *text, relic_error *err)
{
    memset(p, 0, sizeof *p);
    p->text_len = strlen(text);
    p->key = relic_arena_strndup(a, key, strlen(key));
    p->text = relic_arena_strndup(a, text, p->text_len);
    if (!p->key || !p->text) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory");
    p->kind = relic_tpm_classify(text, p->text_len, p->v, &p->count);
    if (p->kind == RELIC_TPM_STRING) { /* the contents, without the quotes */
        p->text_len -= 2;
        memmove(p->text, p->text + 1, p->text_len);
        p->text[p->text_len] = 0;
    }
    return RELIC_OK;
}

relic_status relic_tpm_from_obj(const relic_obj_mesh *obj, const char *name, relic_arena *a, relic_tpm_file *out,
                                relic_error *err)
{
    memset(out, 0, sizeof *out);
    if (!obj || !name || !a) return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "relic_tpm_from_obj: NULL argument");
    size_t nlen = strlen(name);
    for (size_t i = 0; i < nlen; i++)
        if (name[i] == '"' || name[i] == '\n' || name[i] == '\r')
            return relic_fail(err, RELIC_E_ARGUMENT, 0, "name", "a TPM name cannot hold '\"' or a line break");
    relic_tpm_block *b = relic_arena_array(a, 3, sizeof *b, _Alignof(relic_tpm_block));
    relic_tpm_prop *props = relic_arena_array(a, 5, sizeof *props, _Alignof(relic_tpm_prop));
    relic_tpm_face *faces = relic_arena_array(a, obj->face_count ? obj->face_count : 1, sizeof *faces, _Alignof(relic_tpm_face));
    char *quoted = relic_arena_alloc(a, nlen + 3, 1);
    if (!b || !props || !faces || !quoted) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory for %u faces", obj->face_count);
    memset(b, 0, 3 * sizeof *b);
    quoted[0] = '"';
    memcpy(quoted + 1, name, nlen);
    quoted[nlen + 1] = '"';
    quoted[nlen + 2] = 0;
    relic_status st;
    if ((st = prop(a, &props[0], "formatversion", TPM_FORMAT_VERSION, err)) != RELIC_OK ||
        (st = prop(a, &props[1], "mesh", quoted, err)) != RELIC_OK ||
        (st = prop(a, &props[2], "position", "(0,0,0)", err)) != RELIC_OK ||
        (st = prop(a, &props[3], "rotation", "(0,0,0)", err)) != RELIC_OK ||
        (st = prop(a, &props[4], "scale", "1", err)) != RELIC_OK)
        return st;
    b[0].kind = RELIC_TPM_FILEINFO;
    b[0].props = &props[0];
    b[0].prop_count = 1;
    for (int k = 1; k < 3; k++) {
        b[k].name = relic_arena_strndup(a, name, nlen);
        b[k].name_len = nlen;
        if (!b[k].name) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "no memory");
    }
    b[1].kind = RELIC_TPM_INSTANCE;
    b[1].props = &props[1];
    b[1].prop_count = 4;
    b[2].kind = RELIC_TPM_MESH;
    b[2].materials = obj->material_names;
    b[2].material_count = obj->material_count;
    b[2].vertices = obj->vertices;
    b[2].vertex_count = obj->vertex_count;
    b[2].texcoords = obj->texcoords;
    b[2].texcoord_count = obj->texcoord_count;
    b[2].normals = obj->normals;
    b[2].normal_count = obj->normal_count;
    for (uint32_t i = 0; i < obj->face_count; i++) {
        memset(&faces[i], 0, sizeof faces[i]);
        for (int k = 0; k < 3; k++) {
            faces[i].v[k] = obj->faces[i][k] + 1;
            /* RELIC_OBJ_NONE + 1 wraps to 0: TPM's "none" */
            faces[i].t[k] = obj->face_texcoords ? obj->face_texcoords[i][k] + 1 : 0;
            faces[i].n[k] = obj->face_normals ? obj->face_normals[i][k] + 1 : 0;
        }
        faces[i].material = obj->face_material[i] == RELIC_OBJ_NO_MATERIAL ? 0 : obj->face_material[i] + 1;
    }
    b[2].faces = faces;
    b[2].face_count = obj->face_count;
    out->blocks = b;
    out->block_count = 3;
    return RELIC_OK;
}
