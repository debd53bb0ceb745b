/* gff_access.c — zero-copy access to a validated GFF (relic_gff_open):
 * struct fields, lookup by label, typed getters for field types 0-17, list
 * iteration and path resolution. Nothing here allocates; a type mismatch is
 * a relic_error. Sources: BioWare GFF spec §3-4; xoreos, src/aurora/gff3file.cpp; neverwinter.nim, gff.nim
 * (inline values in the low bytes, complex values in the field data). */
#include <stdlib.h>

#include "relic_gff.h"

/* clang-format off */
static const char *const type_names[] = {
    "byte", "char", "word", "short", "dword", "int", "dword64", "int64", "float", "double",
    "cexostring", "resref", "cexolocstring", "void", "struct", "list", "orientation", "vector",
};
/* clang-format on */
#define TYPE_NAME_COUNT (sizeof type_names / sizeof type_names[0])

const char *relic_gff_type_name(uint32_t type)
{
    return type < TYPE_NAME_COUNT ? type_names[type] : NULL;
}

int relic_gff_type_from_name(const char *name, uint32_t *type)
{
    for (uint32_t i = 0; i < TYPE_NAME_COUNT; i++)
        if (strcmp(name, type_names[i]) == 0) {
            *type = i;
            return 1;
        }
    return 0;
}

const char *relic_gff_field_label(const relic_gff_doc *d, uint32_t f, size_t *len)
{
    uint32_t l = relic_gff_field_label_index(relic_gff_fields_at(&d->v, f));
    const char *name = relic_gff_label_name(relic_gff_labels_at(&d->v, l));
    size_t n = 0;
    while (n < 16 && name[n]) n++;
    *len = n;
    return name;
}

int relic_gff_find(const relic_gff_doc *d, uint32_t s, const char *label, uint32_t *f)
{
    size_t want = 0;
    while (want < 17 && label[want]) want++;
    const uint8_t *sp = d->v.structs + 12 * (size_t)s;
    uint32_t data = relic_load_u32le(sp + 4), n = relic_load_u32le(sp + 8);
    const uint8_t *fi = n == 1 ? NULL : d->v.field_indices + data;
    int found = 0;
    if (want > 16) return 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t fx = fi ? relic_load_u32le(fi + 4 * (size_t)i) : data;
        const char *name = (const char *)d->v.labels + 16 * (size_t)relic_load_u32le(d->v.fields + 12 * (size_t)fx + 4);
        /* equal: the first want bytes match and the label ends there */
        if (memcmp(name, label, want) == 0 && (want == 16 || name[want] == 0)) {
            *f = fx;
            found = 1;
        }
    }
    return found;
}

static uint32_t raw(const relic_gff_doc *d, uint32_t f)
{
    return relic_gff_field_data_or_data_offset(relic_gff_fields_at(&d->v, f));
}

relic_status relic_gff_type_mismatch(const relic_gff_doc *d, uint32_t f, const char *want, relic_error *err)
{
    size_t len;
    const char *label = relic_gff_field_label(d, f, &len);
    const char *have = relic_gff_type_name(relic_gff_field_type_of(d, f));
    char path[32];
    snprintf(path, sizeof path, "fields[%u]", (unsigned)f);
    return relic_fail(err, RELIC_E_ARGUMENT, (uint64_t)(d->v.fields - d->v.base) + 12ull * f, path,
                      "field '%.*s' is a %s, not %s", (int)len, label, have ? have : "?", want);
}

/* The exported getters (relic_gff.h defines each as a macro over its
 * inline body; the parentheses keep the macro from expanding here). */
relic_status(relic_gff_get_uint)(const relic_gff_doc *d, uint32_t f, uint64_t *out, relic_error *err)
{
    return relic_gff_get_uint_(d, f, out, err);
}
relic_status(relic_gff_get_int)(const relic_gff_doc *d, uint32_t f, int64_t *out, relic_error *err)
{
    return relic_gff_get_int_(d, f, out, err);
}
relic_status(relic_gff_get_float)(const relic_gff_doc *d, uint32_t f, float *out, relic_error *err)
{
    return relic_gff_get_float_(d, f, out, err);
}
relic_status(relic_gff_get_double)(const relic_gff_doc *d, uint32_t f, double *out, relic_error *err)
{
    return relic_gff_get_double_(d, f, out, err);
}
relic_status(relic_gff_get_string)(const relic_gff_doc *d, uint32_t f, relic_bytes *out, relic_error *err)
{
    return relic_gff_sized_(d, f, RELIC_GFF_FIELD_TYPE_CEXOSTRING, "a cexostring", out, err);
}
relic_status(relic_gff_get_resref)(const relic_gff_doc *d, uint32_t f, relic_bytes *out, relic_error *err)
{
    return relic_gff_sized_(d, f, RELIC_GFF_FIELD_TYPE_RESREF, "a resref", out, err);
}
relic_status(relic_gff_get_void)(const relic_gff_doc *d, uint32_t f, relic_bytes *out, relic_error *err)
{
    return relic_gff_sized_(d, f, RELIC_GFF_FIELD_TYPE_VOID, "a void", out, err);
}

static const uint8_t *data_of(const relic_gff_doc *d, uint32_t f)
{
    return d->v.field_data + raw(d, f);
}

relic_status relic_gff_get_orientation(const relic_gff_doc *d, uint32_t f, float out[4], relic_error *err)
{
    if (relic_gff_field_type_of(d, f) != RELIC_GFF_FIELD_TYPE_ORIENTATION) return relic_gff_type_mismatch(d, f, "an orientation", err);
    const uint8_t *p = data_of(d, f);
    for (int k = 0; k < 4; k++) out[k] = relic_load_f32le(p + 4 * k);
    return RELIC_OK;
}

relic_status relic_gff_get_vector(const relic_gff_doc *d, uint32_t f, float out[3], relic_error *err)
{
    if (relic_gff_field_type_of(d, f) != RELIC_GFF_FIELD_TYPE_VECTOR) return relic_gff_type_mismatch(d, f, "a vector", err);
    const uint8_t *p = data_of(d, f);
    for (int k = 0; k < 3; k++) out[k] = relic_load_f32le(p + 4 * k);
    return RELIC_OK;
}

relic_status(relic_gff_get_locstring)(const relic_gff_doc *d, uint32_t f, relic_gff_locstring *out, relic_error *err)
{
    return relic_gff_get_locstring_(d, f, out, err);
}

void relic_gff_locstring_next(const uint8_t **cursor, uint32_t *string_id, relic_bytes *text)
{
    const uint8_t *p = *cursor;
    *string_id = relic_load_u32le(p);
    text->size = relic_load_u32le(p + 4);
    text->data = p + 8;
    *cursor = p + 8 + text->size;
}

relic_status(relic_gff_get_struct)(const relic_gff_doc *d, uint32_t f, uint32_t *s, relic_error *err)
{
    return relic_gff_get_struct_(d, f, s, err);
}

relic_status(relic_gff_get_list)(const relic_gff_doc *d, uint32_t f, relic_gff_list *out, relic_error *err)
{
    return relic_gff_get_list_(d, f, out, err);
}

relic_status relic_gff_resolve(const relic_gff_doc *d, const char *path, uint32_t *out, int *is_struct,
                               relic_error *err)
{
    uint32_t s = 0, f = 0;
    int at_struct = 1;
    const char *p = path;
    while (*p) {
        const char *e = p;
        while (*e && *e != '/' && *e != '.') e++;
        size_t n = (size_t)(e - p);
        char comp[32];
        if (n == 0 || n >= sizeof comp)
            return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "bad path component at '%s'", p);
        memcpy(comp, p, n);
        comp[n] = 0;
        if (at_struct) {
            if (!relic_gff_find(d, s, comp, &f))
                return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "no field '%s' in struct %u", comp, (unsigned)s);
            at_struct = 0;
        } else {
            uint32_t type = relic_gff_field_type_of(d, f);
            if (type == RELIC_GFF_FIELD_TYPE_STRUCT) {
                s = raw(d, f);
                if (!relic_gff_find(d, s, comp, &f))
                    return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "no field '%s' in struct %u", comp, (unsigned)s);
            } else if (type == RELIC_GFF_FIELD_TYPE_LIST) {
                relic_gff_list l;
                char *end;
                unsigned long idx = strtoul(comp, &end, 10);
                relic_gff_get_list(d, f, &l, err);
                if (*end || comp[0] < '0' || comp[0] > '9' || idx >= l.count)
                    return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "'%s' is not an index of a list of %u", comp,
                                      (unsigned)l.count);
                s = relic_gff_list_at(&l, (uint32_t)idx);
                at_struct = 1;
            } else {
                return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "'%s' follows a %s field", comp,
                                  relic_gff_type_name(type));
            }
        }
        p = *e ? e + 1 : e;
    }
    if (at_struct) {
        *out = s;
        *is_struct = 1;
    } else {
        *out = f;
        *is_struct = 0;
    }
    return RELIC_OK;
}
