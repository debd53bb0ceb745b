/* key_archive.c — open a KEY V1 (chitin.key): the generated validator checks
 * the header and places the file table, the name table and the key table;
 * this file checks what lies between them (each BIF name inside the name
 * table and safe as a relative path, each key's BIF index in range and its
 * ResRef safe as a file name) and names and finds keys.
 * Sources: BioWare, "Key and BIF File Formats" 2.2-2.3; xoreos,
 * src/aurora/keyfile.cpp (names up to the first NUL, '\' -> '/', leading
 * separator dropped, case-insensitive lookup); neverwinter.nim, key.nim (BIF
 * index checked, the last of two equal keys wins). */

#include "relic_erf.h"
#include "relic_key.h"

/* The bytes of a stored BIF name: up to the first NUL (real files count a
 * NUL in FilenameSize, as PyKotor does; neverwinter.nim's writer does not). */
static size_t name_length(const uint8_t *p, size_t n)
{
    const uint8_t *z = memchr(p, 0, n);
    return z ? (size_t)(z - p) : n;
}

/* A BIF name is a relative path: each component a safe member name. */
static const char *path_problem(const uint8_t *p, size_t n, size_t *at)
{
    size_t start = 0;
    if (n && (p[0] == '\\' || p[0] == '/')) start = 1;
    if (start >= n) {
        *at = 0;
        return "empty name";
    }
    for (size_t i = start; i <= n; i++) {
        if (i < n && p[i] != '\\' && p[i] != '/') continue;
        size_t k;
        const char *why = relic_member_name_problem((const char *)p + start, i - start, 1, &k);
        if (i == start) why = "empty path component";
        if (why && (strcmp(why, "leading or trailing space or trailing dot") != 0)) {
            *at = start + k;
            return why;
        }
        start = i + 1;
    }
    return NULL;
}

relic_status relic_key_open(const uint8_t *data, size_t size, relic_arena *a, relic_key_file *out, relic_error *err)
{
    relic_key_view v;
    relic_status st = relic_key_validate(data, size, &v, err);
    if (st != RELIC_OK) return st;
    if ((st = relic_key_decode(&v, a, out, err)) != RELIC_OK) return st;
    const relic_key_header *h = &out->header;
    uint64_t names_at = (uint64_t)h->offset_to_file_table + (uint64_t)RELIC_KEY_BIF_ENTRY_SIZE * h->bif_count;
    char path[48];
    for (uint32_t i = 0; i < h->bif_count; i++) {
        const relic_key_bif_entry *f = &out->files[i];
        uint64_t at = h->offset_to_file_table + (uint64_t)RELIC_KEY_BIF_ENTRY_SIZE * i;
        uint64_t end = (uint64_t)f->filename_offset + f->filename_size;
        size_t k;
        if (f->filename_size == 0 || f->filename_offset < names_at || end > names_at + out->filenames_count) {
            snprintf(path, sizeof path, "files[%u].filename_offset", (unsigned)i);
            return relic_fail(err, RELIC_E_LAYOUT, at + RELIC_KEY_BIF_ENTRY_FILENAME_OFFSET_POS, path,
                              "name 0x%x+0x%x is empty or outside the name table (0x%llx..0x%llx)",
                              (unsigned)f->filename_offset, (unsigned)f->filename_size, (unsigned long long)names_at,
                              (unsigned long long)(names_at + out->filenames_count));
        }
        const uint8_t *p = out->filenames + (f->filename_offset - names_at);
        const char *why = path_problem(p, name_length(p, f->filename_size), &k);
        if (why) {
            snprintf(path, sizeof path, "files[%u].filename", (unsigned)i);
            return relic_fail(err, RELIC_E_RANGE, f->filename_offset + k, path, "BIF name: %s", why);
        }
    }
    for (uint32_t i = 0; i < h->key_count; i++) {
        const relic_key_entry *e = &out->keys[i];
        uint64_t at = h->offset_to_key_table + (uint64_t)RELIC_KEY_ENTRY_SIZE * i;
        size_t k;
        const char *why = relic_member_name_problem(e->resref, name_length((const uint8_t *)e->resref, RELIC_KEY_RESREF_MAX), 0, &k);
        if (why) {
            snprintf(path, sizeof path, "keys[%u].resref", (unsigned)i);
            return relic_fail(err, RELIC_E_RANGE, at + k, path, "ResRef: %s", why);
        }
        if (RELIC_KEY_BIF_INDEX(e->res_id) >= h->bif_count) {
            snprintf(path, sizeof path, "keys[%u].res_id", (unsigned)i);
            return relic_fail(err, RELIC_E_INDEX, at + RELIC_KEY_ENTRY_RES_ID_POS, path,
                              "BIF index %u >= BIFCount %u", (unsigned)RELIC_KEY_BIF_INDEX(e->res_id), (unsigned)h->bif_count);
        }
    }
    return RELIC_OK;
}

const char *relic_key_bif_path(const relic_key_file *k, uint32_t bif, char *buf, size_t n)
{
    if (!n) return buf;
    buf[0] = 0;
    if (bif >= k->files_count) return buf;
    const relic_key_bif_entry *f = &k->files[bif];
    uint64_t names_at = (uint64_t)k->header.offset_to_file_table + (uint64_t)RELIC_KEY_BIF_ENTRY_SIZE * k->files_count;
    if (f->filename_offset < names_at || (uint64_t)f->filename_offset + f->filename_size > names_at + k->filenames_count)
        return buf;
    const uint8_t *p = k->filenames + (f->filename_offset - names_at);
    size_t len = name_length(p, f->filename_size), o = 0, i = 0;
    if (len && (p[0] == '\\' || p[0] == '/')) i = 1;
    for (; i < len && o + 1 < n; i++) buf[o++] = p[i] == '\\' ? '/' : (char)p[i];
    buf[o] = 0;
    return buf;
}

const char *relic_key_resref(const relic_key_file *k, uint32_t i, char *buf)
{
    size_t n = name_length((const uint8_t *)k->keys[i].resref, RELIC_KEY_RESREF_MAX);
    memcpy(buf, k->keys[i].resref, n);
    buf[n] = 0;
    return buf;
}

const char *relic_key_entry_name(const relic_key_file *k, uint32_t i, char *buf, size_t n)
{
    char ref[RELIC_KEY_RESREF_MAX + 1];
    const char *ext = relic_erf_type_extension(k->keys[i].res_type, RELIC_ERF_GAME_KOTOR);
    relic_key_resref(k, i, ref);
    if (ext) snprintf(buf, n, "%s.%s", ref, ext);
    else snprintf(buf, n, "%s.%u", ref, (unsigned)k->keys[i].res_type);
    return buf;
}

/* ASCII case-insensitive equality of n bytes (ResRefs are ASCII; the
 * locale must not decide which key matches). */
static int same_ascii(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x >= 'A' && x <= 'Z') x = (unsigned char)(x + 32);
        if (y >= 'A' && y <= 'Z') y = (unsigned char)(y + 32);
        if (x != y) return 0;
    }
    return 1;
}

int relic_key_find(const relic_key_file *k, const char *name, uint32_t *index)
{
    const char *dot = strrchr(name, '.');
    uint32_t type;
    if (!dot || (size_t)(dot - name) > RELIC_KEY_RESREF_MAX) return 0;
    if (!relic_erf_type_from_extension(dot + 1, RELIC_ERF_GAME_KOTOR, &type)) return 0;
    size_t len = (size_t)(dot - name);
    int found = 0;
    for (uint32_t i = 0; i < k->keys_count; i++) {
        const relic_key_entry *e = &k->keys[i];
        if (e->res_type != type) continue;
        if (name_length((const uint8_t *)e->resref, RELIC_KEY_RESREF_MAX) != len) continue;
        if (!same_ascii(e->resref, name, len)) continue;
        *index = i;
        found = 1; /* keep looking: the last wins */
    }
    return found;
}
