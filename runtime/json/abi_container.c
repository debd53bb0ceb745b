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

/* An optional unsigned member of obj into *dst (left as is when absent). */
static relic_status opt_u32(relic_jr *r, const relic_jv *obj, const char *key, uint64_t hi, uint32_t *dst,
                            int *present)
{
    const relic_jv *v;
    int64_t x;
    if (present) *present = 0;
    relic_status st = relic_jr_member(r, obj, key, 0, &v);
    if (st != RELIC_OK || !v) return st;
    relic_jr_push(r, key, -1);
    st = relic_jr_int(r, v, 0, hi, &x);
    relic_jr_pop(r);
    if (st == RELIC_OK) *dst = (uint32_t)x;
    if (present) *present = st == RELIC_OK;
    return st;
}

/* The header fields and localized strings of an ERF listing. */
static relic_status erf_header(relic_jr *r, const relic_jv *doc, relic_erf_archive *ar)
{
    const relic_jv *v, *ls;
    char ft[5] = {0};
    size_t n;
    relic_erf_header *h = &ar->erf.header;
    relic_status st = relic_jr_member(r, doc, "file_type", 1, &v);
    relic_jr_push(r, "file_type", -1);
    if (st == RELIC_OK) st = relic_jr_fixed_string(r, v, ft, 4);
    relic_jr_pop(r);
    if (st == RELIC_OK) st = relic_jr_member(r, doc, "version", 1, &v);
    if (st != RELIC_OK) return st;
    int v11 = relic_jv_str_eq(v, "V1.1");
    if (!v11 && !relic_jv_str_eq(v, "V1.0")) {
        relic_jr_push(r, "version", -1);
        return relic_jr_fail(r, RELIC_E_RANGE, "not \"V1.0\" or \"V1.1\"");
    }
    relic_erf_init(ar, RELIC_ERF_KIND_ERF, ft, v11 ? RELIC_ERF_GAME_NWN2 : RELIC_ERF_GAME_KOTOR);
    static const char *const keys[] = {"build_year", "build_day", "description_str_ref", "offset_to_localized_string",
                                       "offset_to_key_list", "offset_to_resource_list"};
    uint32_t *dst[] = {&h->build_year, &h->build_day, &h->description_str_ref, &h->offset_to_localized_string,
                       &h->offset_to_key_list, &h->offset_to_resource_list};
    for (size_t i = 0; st == RELIC_OK && i < sizeof keys / sizeof keys[0]; i++) st = opt_u32(r, doc, keys[i], UINT32_MAX, dst[i], NULL);
    if (st == RELIC_OK) st = relic_jr_member(r, doc, "reserved", 0, &v);
    if (st == RELIC_OK && v) {
        relic_jr_push(r, "reserved", -1);
        st = relic_jr_fixed_hex(r, v, h->reserved, sizeof h->reserved);
        relic_jr_pop(r);
    }
    if (st == RELIC_OK) st = relic_jr_member(r, doc, "localized_strings", 0, &ls);
    if (st != RELIC_OK || !ls) return st;
    relic_jr_push(r, "localized_strings", -1);
    if ((st = relic_jr_array(r, ls, &n)) != RELIC_OK) return st;
    ar->erf.localized_strings = relic_arena_array(r->arena, n ? n : 1, sizeof *ar->erf.localized_strings, 8);
    if (!ar->erf.localized_strings) return relic_jr_fail(r, RELIC_E_NOMEM, "out of memory for %zu strings", n);
    ar->erf.localized_strings_count = n;
    for (size_t i = 0; st == RELIC_OK && i < n; i++) {
        const relic_jv *s = relic_jv_at(ls, i);
        relic_erf_localized_string *d = &ar->erf.localized_strings[i];
        char *text;
        relic_jr_push(r, NULL, (int64_t)i);
        st = opt_u32(r, s, "language_id", UINT32_MAX, &d->language_id, NULL);
        if (st == RELIC_OK) st = relic_jr_member(r, s, "text", 1, &v);
        if (st == RELIC_OK) st = relic_jr_string(r, v, &text, &d->text_count);
        if (st == RELIC_OK) d->text = (uint8_t *)text;
        relic_jr_pop(r);
    }
    relic_jr_pop(r);
    return st;
}

/* Entry i of an ERF/RIM listing, its bytes given. "resref" and "type" may
 * come from "name" (resref.ext); "id" left out is the entry's index. *kept
 * is cleared when the entry gives no offset or its size is not the data's. */
static relic_status erf_entry(relic_jr *r, const relic_jv *e, uint32_t i, relic_erf_game game, relic_erf_entry *d,
                              int *kept)
{
    const relic_jv *v;
    char *s = NULL;
    size_t len = 0;
    int has_type = 0, has_offset = 0, has_size = 0;
    uint32_t size = d->size;
    relic_status st = relic_jr_member(r, e, "resref", 0, &v);
    if (st == RELIC_OK && v) {
        relic_jr_push(r, "resref", -1);
        st = relic_jr_string(r, v, &s, &len);
        if (st == RELIC_OK && (len == 0 || len > RELIC_ERF_RESREF_MAX || strlen(s) != len))
            st = relic_jr_fail(r, RELIC_E_RANGE, "a ResRef has 1 to %d characters, no NUL", RELIC_ERF_RESREF_MAX);
        relic_jr_pop(r);
        if (st == RELIC_OK) memcpy(d->resref, s, len);
    }
    if (st == RELIC_OK) st = opt_u32(r, e, "type", UINT32_MAX, &d->res_type, &has_type);
    if (st == RELIC_OK && (!s || !has_type)) {
        /* from the name: resref before the last '.', type from the extension */
        char *name;
        size_t nlen;
        if ((st = relic_jr_member(r, e, "name", 1, &v)) != RELIC_OK) return st;
        relic_jr_push(r, "name", -1);
        st = relic_jr_string(r, v, &name, &nlen);
        const char *dot = st == RELIC_OK ? strrchr(name, '.') : NULL;
        size_t stem = dot ? (size_t)(dot - name) : nlen;
        if (st == RELIC_OK && !has_type && (!dot || !relic_erf_type_from_extension(dot + 1, game, &d->res_type)))
            st = relic_jr_fail(r, RELIC_E_RANGE, "'%s': no \"type\" and no known extension (or decimal type id) in the name",
                               name);
        if (st == RELIC_OK && !s) {
            if (stem == 0 || stem > RELIC_ERF_RESREF_MAX || strlen(name) != nlen)
                st = relic_jr_fail(r, RELIC_E_RANGE, "'%s': a ResRef has 1 to %d characters", name, RELIC_ERF_RESREF_MAX);
            else
                memcpy(d->resref, name, stem);
        }
        relic_jr_pop(r);
    }
    d->res_id = i;
    if (st == RELIC_OK) st = opt_u32(r, e, "id", UINT32_MAX, &d->res_id, NULL);
    if (st == RELIC_OK) st = opt_u32(r, e, "unused", 0xFFFF, &d->unused, NULL);
    if (st == RELIC_OK) st = opt_u32(r, e, "offset", UINT32_MAX, &d->offset, &has_offset);
    if (st == RELIC_OK) st = opt_u32(r, e, "size", UINT32_MAX, &size, &has_size);
    if (!has_offset || !has_size || size != d->size) *kept = 0;
    return st;
}

static relic_status erf_from_listing(relic_jr *r, const relic_jv *doc, const uint8_t *const *data, const uint64_t *sizes,
                                     size_t n, relic_buf *out)
{
    relic_erf_archive ar;
    const relic_jv *v, *es;
    size_t count;
    int rim, kept = 1, has_file_size = 0;
    uint32_t file_size = 0;
    relic_status st = relic_jr_member(r, doc, "format", 1, &v);
    if (st != RELIC_OK) return st;
    rim = relic_jv_str_eq(v, "rim");
    if (rim) {
        relic_erf_init(&ar, RELIC_ERF_KIND_RIM, NULL, RELIC_ERF_GAME_KOTOR);
        st = opt_u32(r, doc, "reserved_0", UINT32_MAX, &ar.rim.header.reserved_0, NULL);
        if (st == RELIC_OK) st = opt_u32(r, doc, "offset_to_entries", UINT32_MAX, &ar.rim.header.offset_to_entries, NULL);
        if (st == RELIC_OK) st = relic_jr_member(r, doc, "reserved", 0, &v);
        if (st == RELIC_OK && v) {
            relic_jr_push(r, "reserved", -1);
            st = relic_jr_fixed_hex(r, v, ar.rim.header.reserved, sizeof ar.rim.header.reserved);
            relic_jr_pop(r);
        }
    } else {
        st = erf_header(r, doc, &ar);
    }
    if (st == RELIC_OK) st = opt_u32(r, doc, "file_size", UINT32_MAX, &file_size, &has_file_size);
    if (st == RELIC_OK) st = relic_jr_member(r, doc, "entries", 1, &es);
    if (st != RELIC_OK) return st;
    relic_jr_push(r, "entries", -1);
    if ((st = relic_jr_array(r, es, &count)) != RELIC_OK) return st;
    if (count != n) return relic_jr_fail(r, RELIC_E_ARGUMENT, "%zu entries listed, %zu members' bytes given", count, n);
    if (n > UINT32_MAX) return relic_jr_fail(r, RELIC_E_LIMIT, "%zu entries", n);
    ar.count = (uint32_t)n;
    ar.entries = relic_arena_array(r->arena, n ? n : 1, sizeof *ar.entries, 8);
    if (!ar.entries) return relic_jr_fail(r, RELIC_E_NOMEM, "out of memory for %zu entries", n);
    memset(ar.entries, 0, (n ? n : 1) * sizeof *ar.entries);
    for (size_t i = 0; st == RELIC_OK && i < n; i++) {
        relic_jr_push(r, NULL, (int64_t)i);
        if (sizes[i] > UINT32_MAX) st = relic_jr_fail(r, RELIC_E_LIMIT, "%llu bytes: beyond 4 GiB", (unsigned long long)sizes[i]);
        ar.entries[i].data = data[i];
        ar.entries[i].size = (uint32_t)sizes[i];
        if (st == RELIC_OK) st = erf_entry(r, relic_jv_at(es, i), (uint32_t)i, relic_erf_game_of(&ar), &ar.entries[i], &kept);
        relic_jr_pop(r);
    }
    relic_jr_pop(r);
    if (st != RELIC_OK) return st;
    /* the listing's layout holds only for data inside the file it describes */
    for (uint32_t i = 0; kept && i < ar.count; i++)
        if (!has_file_size || (uint64_t)ar.entries[i].offset + ar.entries[i].size > file_size) kept = 0;
    ar.file_size = kept ? file_size : 0;
    return relic_erf_archive_write(&ar, kept ? RELIC_ERF_LAYOUT_KEEP : RELIC_ERF_LAYOUT_PACKED, r->arena, out, NULL, r->err);
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
        st = bif ? bif_from_listing(&r, json, json_size, data, sizes, n, &out) : erf_from_listing(&r, doc, data, sizes, n, &out);
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
