/* tpm_json.c — the JSON form of a TPM model (runtime/include/relic/relic_tpm.h), what
 * `relic dump model.tpm` prints: blocks with their properties (value kind,
 * text and numbers), material tables, geometry (floats in their shortest
 * exact form, 1-based indices as in the text, Trespasser file formats, TPM "Mesh") and the
 * comments with their places. Output only. */
#include "relic_gen.h"
#include "relic_tpm.h"

static void floats(relic_buf *o, const float *v, unsigned n)
{
    RELIC_PUTS(o, "[");
    for (unsigned i = 0; i < n; i++) {
        if (i) RELIC_PUTS(o, ",");
        relic_json_f32(o, v[i]);
    }
    RELIC_PUTS(o, "]");
}

static void u32s(relic_buf *o, const uint32_t *v, unsigned n)
{
    RELIC_PUTS(o, "[");
    for (unsigned i = 0; i < n; i++) {
        if (i) RELIC_PUTS(o, ",");
        relic_json_u64(o, v[i]);
    }
    RELIC_PUTS(o, "]");
}

static void key(relic_buf *o, const char *k) { relic_buf_printf(o, ",\n   \"%s\": [", k); }

void relic_tpm_json(const relic_tpm_file *m, relic_buf *o)
{
    static const char *const kinds[4] = {"text", "string", "number", "tuple"};
    RELIC_PUTS(o, "{\"format\": \"tpm\", \"blocks\": [");
    for (uint32_t i = 0; i < m->block_count; i++) {
        const relic_tpm_block *b = &m->blocks[i];
        relic_buf_printf(o, "%s\n  {\"kind\": \"%s\"", i ? "," : "", relic_tpm_kind_name(b->kind));
        if (b->name) {
            RELIC_PUTS(o, ", \"name\": ");
            relic_json_string(o, b->name, b->name_len);
        }
        RELIC_PUTS(o, ", \"properties\": [");
        for (uint32_t j = 0; j < b->prop_count; j++) {
            const relic_tpm_prop *p = &b->props[j];
            relic_buf_printf(o, "%s\n   {\"key\": ", j ? "," : "");
            relic_json_string(o, p->key, strlen(p->key));
            relic_buf_printf(o, ", \"kind\": \"%s\", \"text\": ", kinds[p->kind & 3]);
            relic_json_string(o, p->text ? p->text : "", p->text_len);
            if (p->count) {
                RELIC_PUTS(o, ", \"values\": ");
                floats(o, p->v, p->count);
            }
            RELIC_PUTS(o, "}");
        }
        RELIC_PUTS(o, "]");
        if (b->kind == RELIC_TPM_MESH || b->kind == RELIC_TPM_SKIN) {
            key(o, "materials");
            for (uint32_t j = 0; j < b->material_count; j++) {
                if (j) RELIC_PUTS(o, ", ");
                relic_json_string(o, b->materials[j], strlen(b->materials[j]));
            }
            RELIC_PUTS(o, "]");
            key(o, "vertices");
            for (uint32_t j = 0; j < b->vertex_count; j++) {
                if (j) RELIC_PUTS(o, ", ");
                floats(o, b->vertices[j], 3);
            }
            RELIC_PUTS(o, "]");
            if (b->kind == RELIC_TPM_SKIN) {
                key(o, "bones");
                for (uint32_t j = 0; j < b->vertex_count; j++) {
                    if (j) RELIC_PUTS(o, ", ");
                    relic_json_u64(o, b->bones[j]);
                }
                RELIC_PUTS(o, "]");
            }
            key(o, "texcoords");
            for (uint32_t j = 0; j < b->texcoord_count; j++) {
                if (j) RELIC_PUTS(o, ", ");
                floats(o, b->texcoords[j], 2);
            }
            RELIC_PUTS(o, "]");
            key(o, "normals");
            for (uint32_t j = 0; j < b->normal_count; j++) {
                if (j) RELIC_PUTS(o, ", ");
                floats(o, b->normals[j], 3);
            }
            RELIC_PUTS(o, "]");
            key(o, "faces");
            for (uint32_t j = 0; j < b->face_count; j++) {
                const relic_tpm_face *f = &b->faces[j];
                relic_buf_puts(o, j ? ",\n    {\"v\": " : "\n    {\"v\": ");
                u32s(o, f->v, 3);
                RELIC_PUTS(o, ", \"t\": ");
                u32s(o, f->t, 3);
                RELIC_PUTS(o, ", \"n\": ");
                u32s(o, f->n, 3);
                RELIC_PUTS(o, ", \"m\": ");
                relic_json_u64(o, f->material);
                RELIC_PUTS(o, "}");
            }
            RELIC_PUTS(o, "]");
        }
        RELIC_PUTS(o, "}");
    }
    relic_buf_puts(o, m->block_count ? "\n ],\n \"comments\": [" : "],\n \"comments\": [");
    for (uint32_t i = 0; i < m->comment_count; i++) {
        const relic_tpm_comment *c = &m->comments[i];
        relic_buf_printf(o, "%s\n  {\"block\": %u, ", i ? "," : "", c->block);
        if (c->prop == RELIC_TPM_OUTSIDE) RELIC_PUTS(o, "\"outside\": true");
        else relic_buf_printf(o, "\"before_property\": %u", c->prop);
        RELIC_PUTS(o, ", \"text\": ");
        relic_json_string(o, c->text, c->len);
        RELIC_PUTS(o, "}");
    }
    relic_buf_puts(o, m->comment_count ? "\n ]}\n" : "]}\n");
}
