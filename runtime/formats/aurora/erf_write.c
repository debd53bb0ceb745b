/* erf_write.c — write an ERF or RIM container: the header and tables by the
 * generated writers (relic_erf_write/relic_rim_write,
 * every count and offset recomputed), then each resource's bytes, either
 * back to back after the tables in entry order (the layout xoreos, src/aurora/erffile.cpp; neverwinter.nim, erf.nim measured in real ERFs, and PyKotor's test.rim) or where the archive
 * says they were (the container's own layout, e.g. the aligned data of
 * KotOR's RIMs, so any container read is written back byte for byte). */
#include <stdlib.h>

#include "relic_erf.h"

static int any_overlap(void *ctx, const relic_range *r, uint32_t earlier)
{
    (void)r, (void)earlier;
    *(int *)ctx = 1;
    return 1;
}

/* 1 when every non-empty datum lies at or after tables_end and no two
 * overlap; *end is the end of the last. */
static int data_fit(const relic_erf_archive *ar, uint64_t tables_end, uint64_t *end, relic_arena *a)
{
    relic_range *p = relic_arena_array(a, ar->count ? ar->count : 1, sizeof *p, 8);
    size_t np = 0;
    *end = tables_end;
    if (!p) return 0;
    for (uint32_t i = 0; i < ar->count; i++) {
        const relic_erf_entry *e = &ar->entries[i];
        uint64_t e_end = (uint64_t)e->offset + e->size;
        if (e->size == 0) {
            if (e->offset > *end) *end = e->offset;
            continue;
        }
        if (e->offset < tables_end) return 0;
        p[np].start = e->offset;
        p[np].end = e_end;
        p[np].index = i;
        np++;
        if (e_end > *end) *end = e_end;
    }
    int overlap = 0;
    if (relic_find_overlaps(p, np, a, any_overlap, &overlap) != RELIC_OK) return 0;
    return !overlap;
}

/* The tables of ar with the entries' offsets (keep = 1: the header's own
 * table offsets; else contiguous from the header), into t. */
static relic_status write_tables(const relic_erf_archive *ar, int keep, relic_arena *a, relic_buf *t, relic_error *err)
{
    if (ar->kind == RELIC_ERF_KIND_RIM) {
        relic_rim_file m = ar->rim;
        m.entries_count = ar->count;
        m.entries = relic_arena_array(a, ar->count ? ar->count : 1, sizeof *m.entries, 8);
        if (!m.entries) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory for %u entries", (unsigned)ar->count);
        if (!keep) m.header.offset_to_entries = RELIC_RIM_HEADER_SIZE;
        for (uint32_t i = 0; i < ar->count; i++) {
            const relic_erf_entry *e = &ar->entries[i];
            relic_rim_entry *r = &m.entries[i];
            size_t len = strlen(e->resref);
            if (len > sizeof r->resref)
                return relic_fail(err, RELIC_E_ARGUMENT, 0, "entries", "ResRef '%s' is longer than %zu characters",
                                  e->resref, sizeof r->resref);
            memcpy(r->resref, e->resref, len);
            r->res_type = e->res_type;
            r->res_id = e->res_id;
            r->offset = e->offset;
            r->size = e->size;
        }
        return relic_rim_write(&m, t, err);
    }
    relic_erf_file m = ar->erf;
    size_t ks = m.header.file_version == RELIC_ERF_VERSION_V1_1 ? 32 : 16;
    m.keys_count = m.resources_count = ar->count;
    m.keys = relic_arena_array(a, ar->count ? ar->count : 1, sizeof *m.keys, 8);
    m.resources = relic_arena_array(a, ar->count ? ar->count : 1, sizeof *m.resources, 8);
    if (!m.keys || !m.resources)
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory for %u entries", (unsigned)ar->count);
    for (uint32_t i = 0; i < ar->count; i++) {
        const relic_erf_entry *e = &ar->entries[i];
        relic_erf_key *k = &m.keys[i];
        size_t len = strlen(e->resref);
        if (len > ks)
            return relic_fail(err, RELIC_E_ARGUMENT, 0, "keys", "ResRef '%s' is longer than %zu characters", e->resref, ks);
        if (e->res_type > 0xFFFF)
            return relic_fail(err, RELIC_E_ARGUMENT, 0, "keys", "type id %u of '%s' does not fit 16 bits",
                              (unsigned)e->res_type, e->resref);
        k->resref = relic_arena_alloc(a, ks + 1, 1);
        if (!k->resref) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory for the key list");
        memcpy(k->resref, e->resref, len);
        k->resref_count = ks;
        k->res_id = e->res_id;
        k->res_type = (uint16_t)e->res_type;
        k->unused = (uint16_t)e->unused;
        m.resources[i].offset_to_resource = e->offset;
        m.resources[i].resource_size = e->size;
    }
    if (!keep) {
        uint64_t loc = 0;
        for (size_t i = 0; i < m.localized_strings_count; i++) loc += 8 + m.localized_strings[i].text_count;
        m.header.offset_to_localized_string = RELIC_ERF_HEADER_SIZE;
        m.header.offset_to_key_list = (uint32_t)(RELIC_ERF_HEADER_SIZE + loc);
        m.header.offset_to_resource_list = (uint32_t)(RELIC_ERF_HEADER_SIZE + loc + (ks + 8) * ar->count);
    }
    return relic_erf_write(&m, t, err);
}

/* 1 when the tables in t lie where the archive's header says. */
static int tables_kept(const relic_erf_archive *ar, const relic_buf *t)
{
    if (ar->kind == RELIC_ERF_KIND_RIM)
        return relic_load_u32le(t->data + RELIC_RIM_HEADER_OFFSET_TO_ENTRIES_POS) == ar->rim.header.offset_to_entries;
    const relic_erf_header *h = &ar->erf.header;
    return relic_load_u32le(t->data + RELIC_ERF_HEADER_OFFSET_TO_KEY_LIST_POS) == h->offset_to_key_list &&
        relic_load_u32le(t->data + RELIC_ERF_HEADER_OFFSET_TO_RESOURCE_LIST_POS) == h->offset_to_resource_list &&
        relic_load_u32le(t->data + RELIC_ERF_HEADER_OFFSET_TO_LOCALIZED_STRING_POS) ==
        h->offset_to_localized_string;
}

relic_status relic_erf_archive_write(const relic_erf_archive *ar, relic_erf_layout layout, relic_arena *scratch, relic_buf *out,
                                     int *fell_back, relic_error *err)
{
    relic_arena *a = scratch;
    relic_buf t;
    relic_status st = RELIC_OK;
    uint64_t end = 0;
    int keep = layout == RELIC_ERF_LAYOUT_KEEP;
    if (fell_back) *fell_back = 0;
    if (!scratch || !out) return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "no scratch arena or output buffer");
    relic_buf_init_arena(&t, a, out->limit);
    if (keep) {
        st = write_tables(ar, 1, a, &t, err);
        if (st == RELIC_OK && (t.failed || !tables_kept(ar, &t) || !data_fit(ar, t.size, &end, a))) keep = 0;
        if (!keep && fell_back) *fell_back = 1;
    }
    relic_erf_archive packed;
    if (st == RELIC_OK && !keep) {
        /* back to back after the tables, in entry order: the tables' size
         * does not depend on the offsets, so measure them, then place */
        packed = *ar;
        packed.file_size = 0;
        packed.entries = relic_arena_array(a, ar->count ? ar->count : 1, sizeof *packed.entries, 8);
        if (!packed.entries) st = relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory for %u entries", (unsigned)ar->count);
        relic_buf_init_arena(&t, a, out->limit);
        if (st == RELIC_OK) st = write_tables(ar, 0, a, &t, err);
        uint64_t pos = t.size;
        for (uint32_t i = 0; st == RELIC_OK && i < ar->count; i++) {
            packed.entries[i] = ar->entries[i];
            packed.entries[i].offset = (uint32_t)pos;
            pos += ar->entries[i].size;
            if (pos > UINT32_MAX) st = relic_fail(err, RELIC_E_LIMIT, pos, NULL, "the container passes 4 GiB");
        }
        end = pos;
        relic_buf_init_arena(&t, a, out->limit);
        if (st == RELIC_OK) st = write_tables(&packed, 0, a, &t, err);
        ar = &packed;
    }
    if (st == RELIC_OK) {
        uint8_t *dst;
        if (ar->file_size > end) end = ar->file_size;
        if (t.failed) st = relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory for the tables");
        else if ((dst = relic_buf_extend(out, (size_t)end)) == NULL)
            st = relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory for %llu bytes", (unsigned long long)end);
        else {
            memcpy(dst, t.data, t.size);
            for (uint32_t i = 0; i < ar->count; i++)
                if (ar->entries[i].size) memcpy(dst + ar->entries[i].offset, ar->entries[i].data, ar->entries[i].size);
        }
    }
    return st;
}
