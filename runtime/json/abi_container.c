/* abi_container.c — relic_abi_container_write (librelic-json): an
 * ERF/MOD/HAK/SAV/NWM, RIM or BIF written from its `relic dump` listing
 * plus each member's bytes, for foreign callers (python/relic/: the
 * container models' write()). The listing is the JSON `relic extract`
 * leaves as the manifest `relic pack` reads; the same C writers then lay
 * the file out: the listing's own layout when it still holds (an unchanged
 * model gives its input back byte for byte), else the packed layout real
 * files use. Sources: xoreos, src/aurora/erffile.cpp, rimfile.cpp,
 * biffile.cpp; neverwinter.nim, erf.nim; BioWare, "Key and BIF File
 * Formats" 3. Memory: one heap arena per call, released before return. */
#include <string.h>

#include "bif.h"
#include "relic.h"
#include "relic_abi.h"
#include "relic_erf.h"
#include "relic_json.h"
#include "relic_key.h"

#define ABI_ARENA_LIMIT ((size_t)1 << 30)

/* ERF/RIM: the listing read as `relic pack` reads its manifest (with
 * members it may leave out), each entry given its bytes. The listing's
 * layout holds when every entry gives its offset and a size that is its
 * data's, inside the file_size it gives. */
static relic_status erf_from_listing(relic_jr *r, const char *json, size_t json_size, const uint8_t *const *data,
                                     const uint64_t *sizes, size_t n, relic_buf *out)
{
    relic_erf_listing l;
    relic_status st = relic_erf_listing_read(json, json_size, 0, r->arena, &l, r->err);
    if (st != RELIC_OK) return st;
    relic_erf_archive *ar = &l.ar;
    relic_jr_push(r, "entries", -1);
    if (ar->count != n) return relic_jr_fail(r, RELIC_E_ARGUMENT, "%u entries listed, %zu members' bytes given", ar->count, n);
    int kept = 1;
    for (uint32_t i = 0; i < ar->count; i++) {
        relic_erf_entry *e = &ar->entries[i];
        if (sizes[i] > UINT32_MAX) {
            relic_jr_push(r, NULL, (int64_t)i);
            return relic_jr_fail(r, RELIC_E_LIMIT, "%llu bytes: beyond 4 GiB", (unsigned long long)sizes[i]);
        }
        if (!l.placed[i] || !l.has_file_size || e->size != sizes[i] || (uint64_t)e->offset + sizes[i] > ar->file_size) kept = 0;
        e->data = data[i];
        e->size = (uint32_t)sizes[i];
    }
    relic_jr_pop(r);
    if (!kept) ar->file_size = 0;
    return relic_erf_archive_write(ar, kept ? RELIC_ERF_LAYOUT_KEEP : RELIC_ERF_LAYOUT_PACKED, r->arena, out, NULL, r->err);
}

/* BIF: the generated reader takes the listing; each resource at its offset
 * when every offset lies after the table and every size is the data's (the
 * file then ends with the last datum), else back to back after the table. */
static relic_status bif_from_listing(relic_jr *r, const char *json, size_t json_size, const uint8_t *const *data,
                                     const uint64_t *sizes, size_t n, relic_buf *out)
{
    relic_bif_file m;
    relic_status st = relic_bif_json_read(json, json_size, r->arena, &m, r->err);
    if (st != RELIC_OK) return st;
    if (m.variable_resources_count != n) {
        relic_jr_push(r, "variable_resources", -1);
        return relic_jr_fail(r, RELIC_E_ARGUMENT, "%zu resources listed, %zu members' bytes given", m.variable_resources_count, n);
    }
    uint64_t table_end = RELIC_BIF_HEADER_SIZE + (uint64_t)RELIC_BIF_VARIABLE_RESOURCE_SIZE * n, end = table_end;
    int kept = 1;
    for (size_t i = 0; i < n; i++) {
        const relic_bif_variable_resource *e = &m.variable_resources[i];
        if (sizes[i] != e->file_size || (sizes[i] && e->offset < table_end)) kept = 0;
        if (kept && e->offset + sizes[i] > end) end = e->offset + sizes[i];
    }
    if (!kept) {
        end = table_end;
        for (size_t i = 0; i < n; i++) {
            m.variable_resources[i].offset = (uint32_t)end;
            m.variable_resources[i].file_size = (uint32_t)sizes[i];
            end += sizes[i];
            if (end > UINT32_MAX) {
                relic_jr_push(r, "variable_resources", -1);
                relic_jr_push(r, NULL, (int64_t)i);
                return relic_jr_fail(r, RELIC_E_LIMIT, "the BIF passes 4 GiB");
            }
        }
    }
    m.header.variable_table_offset = RELIC_BIF_HEADER_SIZE; /* the writer's, as in every real BIF */
    size_t start = out->size;
    if ((st = relic_bif_write(&m, out, r->err)) != RELIC_OK) return st;
    if (out->size - start != table_end)
        return relic_fail(r->err, RELIC_E_LAYOUT, 0, NULL, "internal: the BIF tables take %zu bytes, not %llu",
                          out->size - start, (unsigned long long)table_end);
    uint8_t *dst = relic_buf_extend(out, (size_t)(end - table_end));
    if (!dst) return relic_fail(r->err, RELIC_E_NOMEM, 0, NULL, "out of memory for %llu bytes", (unsigned long long)end);
    memset(dst, 0, (size_t)(end - table_end));
    for (size_t i = 0; i < n; i++)
        if (sizes[i]) memcpy(out->data + start + m.variable_resources[i].offset, data[i], (size_t)sizes[i]);
    return RELIC_OK;
}

int relic_abi_container_write(const char *json, size_t json_size, const uint8_t *const *data, const uint64_t *sizes, size_t n,
                              relic_abi_sink_fn sink, void *sink_user, relic_abi_problem_fn fn, void *user)
{
    relic_arena a;
    relic_buf out;
    relic_error err;
    const relic_jv *doc = NULL, *v = NULL;
    relic_jr r = {&a, &err, "", 0};
    relic_error_clear(&err);
    relic_arena_init_heap(&a, ABI_ARENA_LIMIT);
    relic_buf_init_arena(&out, &a, 0);
    relic_status st = (!json || (n && (!data || !sizes)))
        ? relic_fail(&err, RELIC_E_ARGUMENT, 0, NULL, "NULL listing or member arrays")
        : relic_jr_parse(json, json_size, &a, &doc, &err);
    for (size_t i = 0; st == RELIC_OK && i < n; i++)
        if (sizes[i] && !data[i]) st = relic_fail(&err, RELIC_E_ARGUMENT, 0, NULL, "member %zu: NULL bytes", i);
    if (st == RELIC_OK) st = relic_jr_member(&r, doc, "format", 1, &v);
    int bif = st == RELIC_OK && relic_jv_str_eq(v, "bif");
    if (st == RELIC_OK && !bif && !relic_jv_str_eq(v, "erf") && !relic_jv_str_eq(v, "rim")) {
        relic_arena_release(&a);
        return -1;
    }
    if (st == RELIC_OK)
        st = bif ? bif_from_listing(&r, json, json_size, data, sizes, n, &out) : erf_from_listing(&r, json, json_size, data, sizes, n, &out);
    if (st == RELIC_OK && out.failed) st = relic_fail(&err, RELIC_E_NOMEM, 0, NULL, "output does not fit in memory");
    /* the output validates, data ranges included, before the caller sees it */
    if (st == RELIC_OK) {
        relic_erf_archive back;
        relic_bif_file check;
        st = bif ? relic_bif_open(out.data, out.size, &a, &check, &err) : relic_erf_open(out.data, out.size, &a, &back, &err);
    }
    int bad = st != RELIC_OK;
    if (bad && fn) fn(user, (int)err.code, err.offset, err.path, err.message[0] ? err.message : relic_status_name(err.code));
    else if (!bad && sink) sink(sink_user, out.data, out.size);
    relic_arena_release(&a);
    return bad;
}
