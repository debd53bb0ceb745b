/* tpm_model.c — the TPM model's small helpers (runtime/include/relic/relic_tpm.h): block
 * keyword names (Trespasser file formats, TPM "Blocks"), property lookup, and equality of
 * two models, which is what read -> write -> read must keep. */
#include "relic_tpm.h"

const char *relic_tpm_kind_name(relic_tpm_kind k)
{
    switch (k) {
    case RELIC_TPM_FILEINFO: return "fileinfo";
    case RELIC_TPM_INSTANCE: return "instance";
    case RELIC_TPM_MATERIAL: return "material";
    case RELIC_TPM_MESH: return "mesh";
    case RELIC_TPM_SKIN: return "skin";
    case RELIC_TPM_BONE: return "bone";
    }
    return "?";
}

const relic_tpm_prop *relic_tpm_find(const relic_tpm_block *b, const char *key)
{
    for (uint32_t i = 0; i < b->prop_count; i++)
        if (!strcmp(b->props[i].key, key)) return &b->props[i];
    return NULL;
}

static int same_text(const char *a, size_t an, const char *b, size_t bn)
{
    if (an != bn) return 0;
    return an == 0 || memcmp(a, b, an) == 0;
}

static int same_bytes(const void *a, const void *b, size_t n) { return n == 0 || memcmp(a, b, n) == 0; }

static int same_block(const relic_tpm_block *a, const relic_tpm_block *b)
{
    if (a->kind != b->kind || (a->name == NULL) != (b->name == NULL)) return 0;
    if (a->name && !same_text(a->name, a->name_len, b->name, b->name_len)) return 0;
    if (a->prop_count != b->prop_count || a->material_count != b->material_count || a->vertex_count != b->vertex_count ||
        a->texcoord_count != b->texcoord_count || a->normal_count != b->normal_count || a->face_count != b->face_count)
        return 0;
    for (uint32_t i = 0; i < a->prop_count; i++) {
        const relic_tpm_prop *p = &a->props[i], *q = &b->props[i];
        if (strcmp(p->key, q->key) || p->kind != q->kind || p->count != q->count || !same_text(p->text, p->text_len, q->text, q->text_len) ||
            !same_bytes(p->v, q->v, p->count * sizeof p->v[0]))
            return 0;
    }
    for (uint32_t i = 0; i < a->material_count; i++)
        if (strcmp(a->materials[i], b->materials[i])) return 0;
    if ((a->bones == NULL) != (b->bones == NULL) && a->vertex_count) return 0;
    return same_bytes(a->vertices, b->vertices, (size_t)a->vertex_count * sizeof a->vertices[0]) &&
        (!a->bones || !b->bones || same_bytes(a->bones, b->bones, (size_t)a->vertex_count * sizeof a->bones[0])) &&
        same_bytes(a->texcoords, b->texcoords, (size_t)a->texcoord_count * sizeof a->texcoords[0]) &&
        same_bytes(a->normals, b->normals, (size_t)a->normal_count * sizeof a->normals[0]) &&
        same_bytes(a->faces, b->faces, (size_t)a->face_count * sizeof a->faces[0]);
}

int relic_tpm_equal(const relic_tpm_file *a, const relic_tpm_file *b)
{
    if (a->block_count != b->block_count || a->comment_count != b->comment_count) return 0;
    for (uint32_t i = 0; i < a->block_count; i++)
        if (!same_block(&a->blocks[i], &b->blocks[i])) return 0;
    for (uint32_t i = 0; i < a->comment_count; i++) {
        const relic_tpm_comment *c = &a->comments[i], *d = &b->comments[i];
        if (c->block != d->block || c->prop != d->prop || !same_text(c->text, c->len, d->text, d->len)) return 0;
    }
    return 1;
}
