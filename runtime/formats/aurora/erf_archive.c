/* erf_archive.c — open an ERF (V1.0/V1.1) or RIM container: the generated
 * validators check the header and tables, then this file places each
 * resource's bytes by its table entry and checks them (inside the file, not
 * inside the header or a table, no two overlapping), and gives zero-copy
 * access to members by name, including a member GFF validated in place.
 * Sources: xoreos, src/aurora/erffile.cpp; neverwinter.nim, erf.nim (ERF header, lists, measured layout: data
 * after the tables, back to back, in key order); xoreos rimfile.cpp (RIM
 * header and 32-byte entries; KotOR's RIMs leave gaps between data). */
#include <stdlib.h>

#include "relic_erf.h"

/* "ERF ", "MOD ", "HAK ", "SAV ", "NWM ": the ERF FileTypes (xoreos, src/aurora/erffile.cpp; neverwinter.nim, erf.nim; NWM
 * from the list of NWN1 premium module containers). */
static const char erf_file_types[][4] = {{'E', 'R', 'F', ' '}, {'M', 'O', 'D', ' '}, {'H', 'A', 'K', ' '}, {'S', 'A', 'V', ' '}, {'N', 'W', 'M', ' '}};

static int erf_type_known(const uint8_t *p)
{
    for (size_t i = 0; i < sizeof erf_file_types / sizeof erf_file_types[0]; i++)
        if (memcmp(p, erf_file_types[i], 4) == 0) return 1;
    return 0;
}

int relic_erf_detect(const uint8_t *data, size_t size)
{
    if (size < 8) return 0;
    if (memcmp(data, RELIC_RIM_HEADER_FILE_TYPE_VALUE, 4) == 0 && memcmp(data + 4, RELIC_RIM_HEADER_FILE_VERSION_VALUE, 4) == 0)
        return 1;
    uint32_t v = relic_load_u32le(data + RELIC_ERF_HEADER_FILE_VERSION_POS);
    return erf_type_known(data) && (v == RELIC_ERF_VERSION_V1_0 || v == RELIC_ERF_VERSION_V1_1);
}

relic_erf_game relic_erf_game_of(const relic_erf_archive *ar)
{
    return ar->kind == RELIC_ERF_KIND_ERF && ar->erf.header.file_version == RELIC_ERF_VERSION_V1_1 ? RELIC_ERF_GAME_NWN2
                                                                                                   : RELIC_ERF_GAME_KOTOR;
}

/* A span of the container that resource data may not enter. */
typedef struct span {
    uint64_t start, end;
    const char *what;
} span;

/* The first entry whose data overlap an earlier one's (relic_find_overlaps). */
typedef struct first_overlap {
    const relic_range *r;
    uint32_t earlier;
} first_overlap;

static int keep_first_overlap(void *ctx, const relic_range *r, uint32_t earlier)
{
    first_overlap *f = ctx;
    f->r = r;
    f->earlier = earlier;
    return 1;
}

/* The checks between entries and tables (the schema cannot place per-entry
 * data). table_name/entry_pos/entry_size name and locate each entry's record. */
static relic_status check_data(const relic_erf_archive *ar, size_t size, const span *tables, size_t ntables,
                               const char *table_name, uint64_t entry_pos, uint64_t entry_size, relic_arena *a,
                               relic_error *err)
{
    char path[48];
    relic_range *p = relic_arena_array(a, ar->count ? ar->count : 1, sizeof *p, 8);
    size_t np = 0;
    if (!p) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory for %u entries", (unsigned)ar->count);
    for (uint32_t i = 0; i < ar->count; i++) {
        const relic_erf_entry *e = &ar->entries[i];
        uint64_t at = entry_pos + entry_size * i, end = (uint64_t)e->offset + e->size;
        snprintf(path, sizeof path, "%s[%u]", table_name, (unsigned)i);
        if (end > size)
            return relic_fail(err, RELIC_E_TRUNCATED, at, path, "data 0x%x+0x%x pass the end of the file (0x%zx bytes)",
                              (unsigned)e->offset, (unsigned)e->size, size);
        if (e->size == 0) continue;
        for (size_t t = 0; t < ntables; t++)
            if (e->offset < tables[t].end && end > tables[t].start)
                return relic_fail(err, RELIC_E_LAYOUT, at, path, "data 0x%x+0x%x overlap the %s (0x%llx..0x%llx)",
                                  (unsigned)e->offset, (unsigned)e->size, tables[t].what,
                                  (unsigned long long)tables[t].start, (unsigned long long)tables[t].end);
        p[np].start = e->offset;
        p[np].end = end;
        p[np].index = i;
        np++;
    }
    first_overlap f = {NULL, 0};
    if (relic_find_overlaps(p, np, a, keep_first_overlap, &f) != RELIC_OK)
        return relic_fail(err, RELIC_E_NOMEM, 0, table_name, "out of memory sorting %zu entries", np);
    if (f.r) {
        const relic_erf_entry *e = &ar->entries[f.earlier];
        snprintf(path, sizeof path, "%s[%u]", table_name, (unsigned)f.r->index);
        return relic_fail(err, RELIC_E_LAYOUT, entry_pos + entry_size * f.r->index, path,
                          "data 0x%llx+0x%llx overlap those of %s[%u] (0x%x..0x%llx)", (unsigned long long)f.r->start,
                          (unsigned long long)(f.r->end - f.r->start), table_name, (unsigned)f.earlier,
                          (unsigned)e->offset, (unsigned long long)e->offset + e->size);
    }
    return RELIC_OK;
}

/* Copy a NUL-padded name of n bytes. */
static void copy_resref(char *dst, const char *src, size_t n)
{
    size_t len = 0;
    while (len < n && len < RELIC_ERF_RESREF_MAX && src[len]) len++;
    memcpy(dst, src, len);
    dst[len] = 0;
}

static relic_status open_erf(const uint8_t *data, size_t size, relic_arena *a, relic_erf_archive *ar, relic_error *err)
{
    relic_erf_view v;
    relic_status st = relic_erf_validate(data, size, &v, err);
    if (st == RELIC_OK) st = relic_erf_decode(&v, a, &ar->erf, err);
    if (st != RELIC_OK) return st;
    const relic_erf_header *h = &ar->erf.header;
    if (!erf_type_known(data))
        return relic_fail(err, RELIC_E_MAGIC, RELIC_ERF_HEADER_FILE_TYPE_POS, "header.file_type",
                          "file type \"%.4s\" is not ERF, MOD, HAK, SAV or NWM", (const char *)data);
    ar->kind = RELIC_ERF_KIND_ERF;
    ar->count = (uint32_t)ar->erf.keys_count;
    ar->entries = relic_arena_array(a, ar->count ? ar->count : 1, sizeof *ar->entries, 8);
    if (!ar->entries) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory for %u entries", (unsigned)ar->count);
    for (uint32_t i = 0; i < ar->count; i++) {
        relic_erf_entry *e = &ar->entries[i];
        const relic_erf_key *k = &ar->erf.keys[i];
        copy_resref(e->resref, k->resref, k->resref_count);
        e->res_type = k->res_type;
        e->res_id = k->res_id;
        e->unused = k->unused;
        e->offset = ar->erf.resources[i].offset_to_resource;
        e->size = ar->erf.resources[i].resource_size;
        e->data = data + (e->offset <= size ? e->offset : size);
    }
    uint64_t key_size = h->file_version == RELIC_ERF_VERSION_V1_1 ? 40 : 24;
    span tables[4] = {
        {0, RELIC_ERF_HEADER_SIZE, "header"},
        {h->offset_to_localized_string, (uint64_t)h->offset_to_localized_string + h->localized_string_size,
         "localized string list"},
        {h->offset_to_key_list, h->offset_to_key_list + key_size * ar->count, "key list"},
        {h->offset_to_resource_list, h->offset_to_resource_list + (uint64_t)RELIC_ERF_RESOURCE_SIZE * ar->count,
         "resource list"},
    };
    return check_data(ar, size, tables, 4, "resources", h->offset_to_resource_list, RELIC_ERF_RESOURCE_SIZE, a, err);
}

static relic_status open_rim(const uint8_t *data, size_t size, relic_arena *a, relic_erf_archive *ar, relic_error *err)
{
    relic_rim_view v;
    relic_status st = relic_rim_validate(data, size, &v, err);
    if (st == RELIC_OK) st = relic_rim_decode(&v, a, &ar->rim, err);
    if (st != RELIC_OK) return st;
    ar->kind = RELIC_ERF_KIND_RIM;
    ar->count = (uint32_t)ar->rim.entries_count;
    ar->entries = relic_arena_array(a, ar->count ? ar->count : 1, sizeof *ar->entries, 8);
    if (!ar->entries) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory for %u entries", (unsigned)ar->count);
    for (uint32_t i = 0; i < ar->count; i++) {
        relic_erf_entry *e = &ar->entries[i];
        const relic_rim_entry *r = &ar->rim.entries[i];
        copy_resref(e->resref, r->resref, sizeof r->resref);
        e->res_type = r->res_type;
        e->res_id = r->res_id;
        e->offset = r->offset;
        e->size = r->size;
        e->data = data + (e->offset <= size ? e->offset : size);
    }
    uint64_t to = ar->rim.header.offset_to_entries;
    span tables[2] = {
        {0, RELIC_RIM_HEADER_SIZE, "header"},
        {to, to + (uint64_t)RELIC_RIM_ENTRY_SIZE * ar->count, "entry table"},
    };
    return check_data(ar, size, tables, 2, "entries", to, RELIC_RIM_ENTRY_SIZE, a, err);
}

relic_status relic_erf_open(const uint8_t *data, size_t size, relic_arena *a, relic_erf_archive *out, relic_error *err)
{
    memset(out, 0, sizeof *out);
    out->file_size = size;
    if (size >= 4 && memcmp(data, RELIC_RIM_HEADER_FILE_TYPE_VALUE, 4) == 0) return open_rim(data, size, a, out, err);
    return open_erf(data, size, a, out, err);
}

const char *relic_erf_entry_name(const relic_erf_archive *ar, uint32_t i, char *buf, size_t n)
{
    const relic_erf_entry *e = &ar->entries[i];
    const char *ext = relic_erf_type_extension(e->res_type, relic_erf_game_of(ar));
    if (ext) snprintf(buf, n, "%s.%s", e->resref, ext);
    else snprintf(buf, n, "%s.%u", e->resref, (unsigned)e->res_type);
    return buf;
}

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

int relic_erf_find(const relic_erf_archive *ar, const char *name, uint32_t *index)
{
    const char *dot = strrchr(name, '.');
    uint32_t type;
    if (!dot || !relic_erf_type_from_extension(dot + 1, relic_erf_game_of(ar), &type)) return 0;
    size_t len = (size_t)(dot - name);
    for (uint32_t i = 0; i < ar->count; i++) {
        const relic_erf_entry *e = &ar->entries[i];
        if (e->res_type != type || strlen(e->resref) != len) continue;
        size_t k = 0;
        while (k < len && lower((unsigned char)e->resref[k]) == lower((unsigned char)name[k])) k++;
        if (k == len) {
            *index = i;
            return 1;
        }
    }
    return 0;
}

relic_status relic_erf_open_gff(const relic_erf_archive *ar, uint32_t i, relic_arena *scratch, relic_gff_doc *out,
                                relic_error *err)
{
    const relic_erf_entry *e = &ar->entries[i];
    relic_status st = relic_gff_open(e->data, e->size, scratch, NULL, NULL, out, err);
    if (st != RELIC_OK && err) {
        char name[RELIC_ERF_RESREF_MAX + 16], path[RELIC_ERROR_PATH_MAX];
        relic_erf_entry_name(ar, i, name, sizeof name);
        snprintf(path, sizeof path, "%s:%.*s", name, (int)(sizeof path - sizeof name - 2), err->path);
        memcpy(err->path, path, sizeof path);
        err->offset += e->offset;
    }
    return st;
}

void relic_erf_init(relic_erf_archive *ar, relic_erf_kind kind, const char *file_type, relic_erf_game game)
{
    memset(ar, 0, sizeof *ar);
    ar->kind = kind;
    if (kind == RELIC_ERF_KIND_RIM) {
        memcpy(ar->rim.header.file_type, RELIC_RIM_HEADER_FILE_TYPE_VALUE, 4);
        memcpy(ar->rim.header.file_version, RELIC_RIM_HEADER_FILE_VERSION_VALUE, 4);
        ar->rim.header.offset_to_entries = RELIC_RIM_HEADER_SIZE;
        return;
    }
    memcpy(ar->erf.header.file_type, file_type, 4);
    ar->erf.header.file_version = game == RELIC_ERF_GAME_NWN2 ? RELIC_ERF_VERSION_V1_1 : RELIC_ERF_VERSION_V1_0;
    ar->erf.header.offset_to_localized_string = RELIC_ERF_HEADER_SIZE;
    ar->erf.header.description_str_ref = game == RELIC_ERF_GAME_NWN2 ? 0 : RELIC_GFF_NONE;
}
