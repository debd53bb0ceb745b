/* gff_patch.c — in-place patching of a GFF field whose value has a fixed
 * size (`relic set`): the text is parsed as the field's type and range
 * first, then the bytes are stored where the value lies, so the layout does
 * not change and nothing else is touched. Inline values (BYTE, CHAR, WORD,
 * SHORT, DWORD, INT, FLOAT) live in the field record's DataOrDataOffset, low
 * bytes first, the unused high bytes kept as they are (SHORT and CHAR are
 * sign-extended by real files, so those are rewritten sign-extended);
 * DWORD64, INT64, DOUBLE, Orientation and Vector live in the field data.
 * Sources: xoreos, src/aurora/gff3file.h; neverwinter.nim, gff.nim (types, inline storage), xoreos, src/aurora/gff3file.cpp; neverwinter.nim, gff.nim (complex data). */
#include <errno.h>
#include <stdlib.h>

#include "relic_gff.h"

int relic_gff_type_is_fixed(uint32_t type)
{
    return type <= RELIC_GFF_FIELD_TYPE_DOUBLE || type == RELIC_GFF_FIELD_TYPE_ORIENTATION ||
        type == RELIC_GFF_FIELD_TYPE_VECTOR;
}

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (!*s || *s == '-' || *s == ' ') return 0;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end) return 0;
    *out = v;
    return 1;
}

static int parse_i64(const char *s, int64_t *out)
{
    char *end;
    if (!*s || *s == ' ') return 0;
    errno = 0;
    long long v = strtoll(s, &end, 0);
    if (errno || *end) return 0;
    *out = v;
    return 1;
}

/* n floats separated by spaces or commas. */
static int parse_floats(const char *s, float *out, int n)
{
    for (int i = 0; i < n; i++) {
        char *end;
        while (*s == ' ' || *s == ',') s++;
        if (!*s) return 0;
        errno = 0;
        out[i] = strtof(s, &end);
        if (end == s || errno == ERANGE) return 0;
        s = end;
    }
    while (*s == ' ') s++;
    return *s == 0;
}

relic_status relic_gff_patch(uint8_t *data, const relic_gff_doc *d, uint32_t f, const char *text, relic_error *err)
{
    static const struct {
        uint64_t umax;
        int64_t imin, imax;
    } lim[] = {
        [RELIC_GFF_FIELD_TYPE_BYTE] = {0xFF, 0, 0},
        [RELIC_GFF_FIELD_TYPE_CHAR] = {0, -128, 127},
        [RELIC_GFF_FIELD_TYPE_WORD] = {0xFFFF, 0, 0},
        [RELIC_GFF_FIELD_TYPE_SHORT] = {0, -32768, 32767},
        [RELIC_GFF_FIELD_TYPE_DWORD] = {0xFFFFFFFFu, 0, 0},
        [RELIC_GFF_FIELD_TYPE_INT] = {0, INT32_MIN, INT32_MAX},
        [RELIC_GFF_FIELD_TYPE_DWORD64] = {UINT64_MAX, 0, 0},
        [RELIC_GFF_FIELD_TYPE_INT64] = {0, INT64_MIN, INT64_MAX},
    };
    uint32_t type = relic_gff_field_type_of(d, f);
    const uint8_t *rec = d->v.fields + 12 * (size_t)f;
    size_t rec_off = (size_t)(rec - d->v.base);
    size_t len;
    const char *label = relic_gff_field_label(d, f, &len);
    char path[24];
    snprintf(path, sizeof path, "%.*s", (int)len, label);
    if (!relic_gff_type_is_fixed(type))
        return relic_fail(err, RELIC_E_UNSUPPORTED, rec_off, path,
                          "a %s value has no fixed size: it cannot be patched in place", relic_gff_type_name(type));
    uint32_t inline_v = relic_load_u32le(rec + 8);
    size_t data_off = (size_t)(d->v.field_data - d->v.base) + inline_v; /* for types in the field data */
    uint64_t u = 0;
    int64_t i = 0;
    float fv[4];
    double dv = 0;
    char *end;
    switch (type) {
    case RELIC_GFF_FIELD_TYPE_BYTE:
    case RELIC_GFF_FIELD_TYPE_WORD:
    case RELIC_GFF_FIELD_TYPE_DWORD:
    case RELIC_GFF_FIELD_TYPE_DWORD64:
        if (!parse_u64(text, &u) || u > lim[type].umax)
            return relic_fail(err, RELIC_E_RANGE, rec_off, path, "'%s' is not a %s value (0..%llu)", text,
                              relic_gff_type_name(type), (unsigned long long)lim[type].umax);
        break;
    case RELIC_GFF_FIELD_TYPE_CHAR:
    case RELIC_GFF_FIELD_TYPE_SHORT:
    case RELIC_GFF_FIELD_TYPE_INT:
    case RELIC_GFF_FIELD_TYPE_INT64:
        if (!parse_i64(text, &i) || i < lim[type].imin || i > lim[type].imax)
            return relic_fail(err, RELIC_E_RANGE, rec_off, path, "'%s' is not a %s value (%lld..%lld)", text,
                              relic_gff_type_name(type), (long long)lim[type].imin, (long long)lim[type].imax);
        break;
    case RELIC_GFF_FIELD_TYPE_FLOAT:
        if (!parse_floats(text, fv, 1))
            return relic_fail(err, RELIC_E_RANGE, rec_off, path, "'%s' is not a float", text);
        break;
    case RELIC_GFF_FIELD_TYPE_DOUBLE:
        errno = 0;
        dv = strtod(text, &end);
        if (end == text || *end || errno == ERANGE)
            return relic_fail(err, RELIC_E_RANGE, rec_off, path, "'%s' is not a double", text);
        break;
    case RELIC_GFF_FIELD_TYPE_ORIENTATION:
    case RELIC_GFF_FIELD_TYPE_VECTOR:
        if (!parse_floats(text, fv, type == RELIC_GFF_FIELD_TYPE_VECTOR ? 3 : 4))
            return relic_fail(err, RELIC_E_RANGE, rec_off, path, "'%s' is not %d floats", text,
                              type == RELIC_GFF_FIELD_TYPE_VECTOR ? 3 : 4);
        break;
    }
    /* parsed and in range: store */
    uint8_t *w = data + rec_off + 8;
    switch (type) {
    case RELIC_GFF_FIELD_TYPE_BYTE: w[0] = (uint8_t)u; break;
    case RELIC_GFF_FIELD_TYPE_WORD: relic_store_u16le(w, (uint16_t)u); break;
    case RELIC_GFF_FIELD_TYPE_DWORD: relic_store_u32le(w, (uint32_t)u); break;
    case RELIC_GFF_FIELD_TYPE_CHAR: w[0] = (uint8_t)(int8_t)i; break;
    case RELIC_GFF_FIELD_TYPE_SHORT:
        /* real files sign-extend a SHORT into the whole u32; keep that when the file did */
        if ((inline_v >> 16) == 0xFFFF || (inline_v >> 16) == 0) relic_store_u32le(w, (uint32_t)(int32_t)i);
        else relic_store_u16le(w, (uint16_t)(int16_t)i);
        break;
    case RELIC_GFF_FIELD_TYPE_INT: relic_store_u32le(w, (uint32_t)(int32_t)i); break;
    case RELIC_GFF_FIELD_TYPE_FLOAT: relic_store_f32le(w, fv[0]); break;
    case RELIC_GFF_FIELD_TYPE_DWORD64: relic_store_u64le(data + data_off, u); break;
    case RELIC_GFF_FIELD_TYPE_INT64: relic_store_u64le(data + data_off, (uint64_t)i); break;
    case RELIC_GFF_FIELD_TYPE_DOUBLE: relic_store_f64le(data + data_off, dv); break;
    case RELIC_GFF_FIELD_TYPE_ORIENTATION:
    case RELIC_GFF_FIELD_TYPE_VECTOR:
        for (int k = 0; k < (type == RELIC_GFF_FIELD_TYPE_VECTOR ? 3 : 4); k++) relic_store_f32le(data + data_off + 4 * k, fv[k]);
        break;
    }
    return RELIC_OK;
}
