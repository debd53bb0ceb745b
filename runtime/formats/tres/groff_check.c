/* groff_check.c — the rules of a GROFF container that its schema
 * (schema/tres/groff.schema) cannot state: sections inside the data
 * region, section handles, symbol handles and names, and (strict) the
 * layout the game's writer always produces. Also the model helpers that
 * depend on those rules: section names and data, and re-layout after an
 * edit. Facts: Trespasser source, Lib/Groff/FileIO.cpp (FileIO.cpp 761–1078), Trespasser file formats. */
#include <stdarg.h>
#include <stdlib.h>

#include "relic_groff.h"

#define DIRECTORY_START RELIC_GROFF_HEADER_SIZE
#define SYMBOL_FIXED 12u   /* handle, name length, reference count */
#define WRITER_FLAGS 0x0Cu /* has sections | has symbols */

/* Every rule reports through relic_problem (relic.h). */
typedef relic_problems checker;
#define problem relic_problem

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Offset of the symbol whose handle is h, in sorted (handle << 32 | offset)
 * pairs; 0 when absent (no symbol starts at offset 0: the header does). */
static uint64_t symbol_at(const uint64_t *sorted, size_t n, uint32_t h)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t k = (uint32_t)(sorted[mid] >> 32);
        if (k == h) return sorted[mid] & 0xFFFFFFFFu;
        if (k < h) lo = mid + 1;
        else hi = mid;
    }
    return 0;
}

static int has_handle(const uint32_t *sorted, size_t n, uint32_t h)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] < h) lo = mid + 1;
        else if (sorted[mid] > h) hi = mid;
        else return 1;
    }
    return 0;
}

unsigned relic_groff_check(const relic_groff_view *v, int strict, relic_arena *scratch, relic_report_fn report,
                           void *ctx)
{
    checker c = {report, ctx, 0, 0};
    const relic_groff_header *h = &v->values.header;
    char path[64];
    uint64_t data_start = (uint64_t)(v->data - v->base), data_end = data_start + v->data_count;
    uint64_t sym_start = (uint64_t)(v->symbols - v->base);

    if (h->file_size != v->size)
        problem(&c, RELIC_E_LAYOUT, RELIC_GROFF_HEADER_FILE_SIZE_POS, "header.file_size",
                "%u, but the file has %zu bytes", h->file_size, v->size);
    if (sym_start + h->symbol_table_size != v->size)
        problem(&c, RELIC_E_LAYOUT, sym_start + h->symbol_table_size, "symbols",
                "%llu bytes follow the symbol table", (unsigned long long)(v->size - (sym_start + h->symbol_table_size)));

    /* symbols: names, unique handles */
    uint32_t *handles = relic_arena_array(scratch, v->symbols_count ? v->symbols_count : 1, sizeof *handles, 4);
    /* GROFF files are under 4 GiB (file_size is a u32): an offset fits the low half */
    uint64_t *by_handle = relic_arena_array(scratch, v->symbols_count ? v->symbols_count : 1, sizeof *by_handle, 8);
    const uint8_t *p = v->symbols, *prev_name = NULL;
    for (size_t i = 0; i < v->symbols_count; i++) {
        uint32_t len = relic_load_u32le(p + 4);
        const uint8_t *name = p + SYMBOL_FIXED;
        uint64_t off = (uint64_t)(p - v->base);
        if (handles) handles[i] = relic_load_u32le(p);
        if (by_handle) by_handle[i] = (uint64_t)relic_load_u32le(p) << 32 | (off & 0xFFFFFFFFu);
        snprintf(path, sizeof path, "symbols[%zu].name", i);
        if (len == 0 || name[len - 1] != 0)
            problem(&c, RELIC_E_RANGE, off + SYMBOL_FIXED, path, "the name is not NUL-terminated");
        else if (memchr(name, 0, len - 1))
            problem(&c, RELIC_E_RANGE, off + SYMBOL_FIXED, path, "the name holds a NUL before its end");
        else if (strict && prev_name && strcmp((const char *)prev_name, (const char *)name) > 0)
            problem(&c, RELIC_E_LAYOUT, off, path, "not sorted by name: \"%.60s\" follows \"%.60s\"", name, prev_name);
        if (len && name[len - 1] == 0) prev_name = name;
        else prev_name = NULL;
        p += SYMBOL_FIXED + len;
    }
    if (!handles || !by_handle) {
        problem(&c, RELIC_E_NOMEM, 0, "symbols", "no memory to check %zu symbol handles", v->symbols_count);
    } else {
        if (relic_sort(handles, v->symbols_count, sizeof *handles, cmp_u32, scratch) != RELIC_OK) {
            problem(&c, RELIC_E_NOMEM, 0, "symbols", "no memory to sort %zu symbol handles", v->symbols_count);
            return c.count;
        }
        if (by_handle && relic_sort(by_handle, v->symbols_count, sizeof *by_handle, cmp_u64, scratch) != RELIC_OK) {
            problem(&c, RELIC_E_NOMEM, 0, "symbols", "no memory to sort %zu symbol names", v->symbols_count);
            return c.count;
        }
        for (size_t i = 1; i < v->symbols_count; i++)
            if (handles[i] == handles[i - 1])
                problem(&c, RELIC_E_LAYOUT, sym_start, "symbols", "symbol handle 0x%08X is used twice", handles[i]);
    }

    /* sections */
    uint64_t expect = data_start;
    for (size_t i = 0; i < v->sections_count; i++) {
        relic_groff_section_view s = relic_groff_sections_at(v, i);
        uint64_t at = DIRECTORY_START + (uint64_t)RELIC_GROFF_SECTION_SIZE * i;
        uint64_t off = relic_groff_section_data_offset(s), size = relic_groff_section_data_size(s);
        snprintf(path, sizeof path, "sections[%zu].data_offset", i);
        if (off < data_start || off > data_end || size > data_end - off)
            problem(&c, RELIC_E_LAYOUT, at + RELIC_GROFF_SECTION_DATA_OFFSET_POS, path,
                    "data 0x%llx..0x%llx is outside the data region 0x%llx..0x%llx", (unsigned long long)off,
                    (unsigned long long)(off + size), (unsigned long long)data_start, (unsigned long long)data_end);
        else if (strict && off != expect)
            problem(&c, RELIC_E_LAYOUT, at + RELIC_GROFF_SECTION_DATA_OFFSET_POS, path,
                    "0x%llx; the game's writer puts it right after the previous section, at 0x%llx",
                    (unsigned long long)off, (unsigned long long)expect);
        expect = off + size;
        uint32_t want = RELIC_GROFF_SECTION_HANDLE_BASE + (uint32_t)i;
        if (relic_groff_section_handle(s) != want) {
            snprintf(path, sizeof path, "sections[%zu].handle", i);
            problem(&c, RELIC_E_RANGE, at + RELIC_GROFF_SECTION_HANDLE_POS, path,
                    "0x%08X, but section handles are 0x80000000 + index = 0x%08X", relic_groff_section_handle(s), want);
        }
        if (handles && !has_handle(handles, v->symbols_count, relic_groff_section_name(s))) {
            snprintf(path, sizeof path, "sections[%zu].name", i);
            problem(&c, RELIC_E_INDEX, at + RELIC_GROFF_SECTION_NAME_POS, path,
                    "0x%08X is not a symbol handle", relic_groff_section_name(s));
        } else if (by_handle) {
            /* a section's name becomes a file name and a line on a terminal */
            uint64_t sym = symbol_at(by_handle, v->symbols_count, relic_groff_section_name(s));
            uint32_t len = sym ? relic_load_u32le(v->base + sym + 4) : 0;
            const char *name = (const char *)v->base + sym + SYMBOL_FIXED;
            size_t bad;
            const char *why = len && name[len - 1] == 0 ? relic_member_name_problem(name, strlen(name), strict, &bad) : NULL;
            if (why) {
                snprintf(path, sizeof path, "sections[%zu].name", i);
                problem(&c, RELIC_E_RANGE, sym + SYMBOL_FIXED + bad, path, "the section's name (symbol 0x%08X), byte %zu: %s",
                        relic_groff_section_name(s), bad, why);
            }
        }
        if (strict && (relic_groff_section_flags(s) || relic_groff_section_relocation_offset(s) || relic_groff_section_relocation_count(s))) {
            snprintf(path, sizeof path, "sections[%zu].flags", i);
            problem(&c, RELIC_E_RANGE, at + RELIC_GROFF_SECTION_FLAGS_POS, path,
                    "flags and relocation words are 0 in every file the game writes");
        }
    }
    if (strict && expect != data_end && v->sections_count)
        problem(&c, RELIC_E_LAYOUT, expect, "data", "%llu bytes after the last section belong to none",
                (unsigned long long)(data_end - expect));
    if (strict && (h->flags != WRITER_FLAGS || h->reserved[0] || h->reserved[1] || h->header_crc))
        problem(&c, RELIC_E_RANGE, RELIC_GROFF_HEADER_FLAGS_POS, "header.flags",
                "flags 0x%X, reserved and CRC words: the game writes 0x0C and zeros", h->flags);
    return c.count;
}

const char *relic_groff_model_section_name(const relic_groff_file *m, size_t i)
{
    if (i >= m->sections_count) return NULL;
    uint32_t h = m->sections[i].name;
    for (size_t k = 0; k < m->symbols_count; k++)
        if (m->symbols[k].handle == h) return m->symbols[k].name;
    return NULL;
}

/* The symbols as sorted (handle << 32 | index) keys: equal handles keep
 * their table order, so a lower bound finds the first, as the scan does. */
relic_status relic_groff_model_section_names(const relic_groff_file *m, relic_arena *a, const char ***names,
                                             relic_error *err)
{
    const size_t ns = m->sections_count, ny = m->symbols_count;
    *names = NULL;
    if (ny > UINT32_MAX) return relic_fail(err, RELIC_E_LIMIT, 0, "symbols", "%zu symbols (at most 2^32 - 1)", ny);
    const char **out = relic_arena_array(a, ns ? ns : 1, sizeof *out, _Alignof(const char *));
    uint64_t *keys = relic_arena_array(a, ny ? ny : 1, sizeof *keys, 8);
    if (!out || !keys) return relic_fail(err, RELIC_E_NOMEM, 0, "symbols", "no memory to index %zu symbols", ny);
    for (size_t k = 0; k < ny; k++) keys[k] = (uint64_t)m->symbols[k].handle << 32 | k;
    if (relic_sort(keys, ny, sizeof *keys, cmp_u64, a) != RELIC_OK)
        return relic_fail(err, RELIC_E_NOMEM, 0, "symbols", "no memory to sort %zu symbols", ny);
    for (size_t i = 0; i < ns; i++) {
        uint64_t want = (uint64_t)m->sections[i].name << 32;
        size_t lo = 0, hi = ny;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (keys[mid] < want) lo = mid + 1;
            else hi = mid;
        }
        out[i] = lo < ny && keys[lo] >> 32 == want >> 32 ? m->symbols[keys[lo] & 0xFFFFFFFFu].name : NULL;
    }
    *names = out;
    return RELIC_OK;
}

relic_bytes relic_groff_model_section_data(const relic_groff_file *m, size_t i)
{
    relic_bytes b = {NULL, 0};
    uint64_t start = DIRECTORY_START + (uint64_t)RELIC_GROFF_SECTION_SIZE * m->sections_count;
    if (i >= m->sections_count) return b;
    uint64_t off = m->sections[i].data_offset, size = m->sections[i].data_size;
    if (off < start || off - start > m->data_count || size > m->data_count - (off - start)) return b;
    b.data = m->data + (off - start);
    b.size = (size_t)size;
    return b;
}

relic_status relic_groff_layout(relic_groff_file *m, relic_error *err)
{
    uint64_t start = DIRECTORY_START + (uint64_t)RELIC_GROFF_SECTION_SIZE * m->sections_count, pos = start;
    for (size_t i = 0; i < m->sections_count; i++) {
        m->sections[i].data_offset = (uint32_t)pos;
        m->sections[i].handle = RELIC_GROFF_SECTION_HANDLE_BASE + (uint32_t)i;
        pos += m->sections[i].data_size;
        if (pos > UINT32_MAX) return relic_fail(err, RELIC_E_LIMIT, 0, "sections", "the sections' data pass 4 GiB");
    }
    if (pos - start != m->data_count)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "data", "the sections hold %llu bytes, data has %zu",
                          (unsigned long long)(pos - start), m->data_count);
    uint64_t syms = 0;
    for (size_t k = 0; k < m->symbols_count; k++) {
        m->symbols[k].name_length = (uint32_t)m->symbols[k].name_count;
        syms += SYMBOL_FIXED + m->symbols[k].name_count;
    }
    if (pos + syms > UINT32_MAX) return relic_fail(err, RELIC_E_LIMIT, 0, "symbols", "the file would pass 4 GiB");
    m->header.section_count = (uint32_t)m->sections_count;
    m->header.symbol_count = (uint32_t)m->symbols_count;
    m->header.symbol_table_offset = (uint32_t)pos;
    m->header.symbol_table_size = (uint32_t)syms;
    m->header.file_size = (uint32_t)(pos + syms);
    return RELIC_OK;
}
