/* key_write.c — KEY V1 and BIF V1 laid out as the games' own files are:
 * the models are filled here and serialised by the generated writers
 * (relic_key_write, relic_bif_write), which compute counts and offsets.
 * KEY: header, file table at 64, the names with a NUL counted in
 * FilenameSize (as every real file and PyKotor do), the key table; Drives
 * 1, Reserved zero. BIF: header, table at 20, data back to back in table
 * order, ID = BIF index << 20 | i. Sources: BioWare, "Key and BIF File
 * Formats" 2-3; PyKotor, io_key.py; measured on NWN1 chitin.key and
 * 2da.bif. */
#include "relic_key.h"

relic_status relic_bif_write_members(const relic_bif_member *members, uint32_t n, uint32_t bif_index,
                                     relic_arena *scratch, relic_buf *out, relic_error *err)
{
    relic_bif_file m;
    memset(&m, 0, sizeof m);
    if ((!members && n) || !scratch || !out)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "NULL members, scratch or output");
    if (n > RELIC_KEY_RES_INDEX(0xFFFFFFFFu) || bif_index >= (1u << (32 - RELIC_KEY_RES_INDEX_BITS)))
        return relic_fail(err, RELIC_E_LIMIT, 0, NULL, "%u resources or BIF index %u beyond a ResID's range",
                          (unsigned)n, (unsigned)bif_index);
    m.variable_resources = relic_arena_array(scratch, n ? n : 1, sizeof *m.variable_resources, 8);
    if (!m.variable_resources) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory for %u entries", (unsigned)n);
    m.variable_resources_count = n;
    m.header.variable_table_offset = RELIC_BIF_HEADER_SIZE;
    uint64_t at = RELIC_BIF_HEADER_SIZE + (uint64_t)RELIC_BIF_VARIABLE_RESOURCE_SIZE * n;
    for (uint32_t i = 0; i < n; i++) {
        relic_bif_variable_resource *r = &m.variable_resources[i];
        if (at + members[i].size > UINT32_MAX)
            return relic_fail(err, RELIC_E_LIMIT, 0, NULL, "resource %u ends beyond 4 GiB", (unsigned)i);
        r->id = (bif_index << RELIC_KEY_RES_INDEX_BITS) | i;
        r->offset = (uint32_t)at;
        r->file_size = members[i].size;
        r->res_type = members[i].res_type;
        at += members[i].size;
    }
    size_t start = out->size;
    relic_status st = relic_bif_write(&m, out, err);
    if (st != RELIC_OK) return st;
    for (uint32_t i = 0; i < n; i++)
        if (members[i].size) relic_buf_append(out, members[i].data, members[i].size);
    if (out->failed) {
        out->size = start;
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "cannot grow the output to %llu bytes", (unsigned long long)at);
    }
    return RELIC_OK;
}

relic_status relic_key_write_index(const char *const *bif_paths, const uint32_t *bif_sizes, uint32_t nbifs,
                                   const relic_key_member *keys, uint32_t nkeys, uint32_t year, uint32_t day,
                                   relic_arena *scratch, relic_buf *out, relic_error *err)
{
    relic_key_file m;
    memset(&m, 0, sizeof m);
    if ((!bif_paths && nbifs) || (!keys && nkeys) || !scratch || !out)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "NULL names, keys, scratch or output");
    if (nbifs >= (1u << (32 - RELIC_KEY_RES_INDEX_BITS)))
        return relic_fail(err, RELIC_E_LIMIT, 0, NULL, "%u BIFs: a ResID holds 4096", (unsigned)nbifs);
    uint64_t names = 0;
    for (uint32_t i = 0; i < nbifs; i++) {
        size_t len = strlen(bif_paths[i]);
        if (len == 0 || len >= UINT16_MAX)
            return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "BIF name %u is empty or too long", (unsigned)i);
        names += len + 1;
    }
    m.files = relic_arena_array(scratch, nbifs ? nbifs : 1, sizeof *m.files, 8);
    m.filenames = relic_arena_alloc(scratch, names ? (size_t)names : 1, 1);
    m.keys = relic_arena_array(scratch, nkeys ? nkeys : 1, sizeof *m.keys, 8);
    if (!m.files || !m.filenames || !m.keys) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory for the tables");
    m.files_count = nbifs;
    m.filenames_count = (size_t)names;
    m.keys_count = nkeys;
    m.header.build_year = year;
    m.header.build_day = day;
    uint64_t at = RELIC_KEY_HEADER_SIZE + (uint64_t)RELIC_KEY_BIF_ENTRY_SIZE * nbifs, o = 0;
    for (uint32_t i = 0; i < nbifs; i++) {
        size_t len = strlen(bif_paths[i]);
        if (at + o > UINT32_MAX) return relic_fail(err, RELIC_E_LIMIT, 0, NULL, "name table beyond 4 GiB");
        for (size_t k = 0; k < len; k++) m.filenames[o + k] = bif_paths[i][k] == '/' ? '\\' : (uint8_t)bif_paths[i][k];
        m.filenames[o + len] = 0;
        m.files[i].file_size = bif_sizes ? bif_sizes[i] : 0;
        m.files[i].filename_offset = (uint32_t)(at + o);
        m.files[i].filename_size = (uint16_t)(len + 1);
        m.files[i].drives = 1;
        o += len + 1;
    }
    for (uint32_t i = 0; i < nkeys; i++) {
        size_t len = strlen(keys[i].resref);
        if (len > RELIC_KEY_RESREF_MAX || keys[i].bif >= nbifs || keys[i].index > RELIC_KEY_RES_INDEX(0xFFFFFFFFu))
            return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "key %u: ResRef over 16 bytes, BIF %u or index %u out of range",
                              (unsigned)i, (unsigned)keys[i].bif, (unsigned)keys[i].index);
        memcpy(m.keys[i].resref, keys[i].resref, len);
        m.keys[i].res_type = keys[i].res_type;
        m.keys[i].res_id = (keys[i].bif << RELIC_KEY_RES_INDEX_BITS) | keys[i].index;
    }
    m.header.offset_to_file_table = RELIC_KEY_HEADER_SIZE;
    m.header.offset_to_key_table = (uint32_t)(at + o); /* the name table's length is read from this */
    return relic_key_write(&m, out, err);
}
