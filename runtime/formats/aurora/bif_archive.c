/* bif_archive.c — open a BIF V1: the generated validator checks the header
 * and places the variable resource table; this file places each resource's
 * bytes by its entry and checks them (inside the file, not in the header or
 * table, no two overlapping), reporting every problem for `relic check` of a
 * BIF whose data are cut off, and hands out a resource in place.
 * Sources: BioWare, "Key and BIF File Formats" 3.2; xoreos,
 * src/aurora/biffile.cpp (resources indexed by position); neverwinter.nim,
 * key.nim. */
#include "relic_key.h"

relic_status relic_bif_open_tables(const uint8_t *data, size_t size, relic_arena *a, relic_bif_file *out,
                                   relic_error *err)
{
    relic_bif_view v;
    relic_status st = relic_bif_validate(data, size, &v, err);
    if (st != RELIC_OK) return st;
    return relic_bif_decode(&v, a, out, err);
}

static uint64_t entry_at(const relic_bif_file *b, uint32_t i)
{
    return (uint64_t)b->header.variable_table_offset + (uint64_t)RELIC_BIF_VARIABLE_RESOURCE_SIZE * i;
}

/* Forwards the first problem into err for relic_bif_open. */
static void keep_first(void *ctx, const relic_error *e)
{
    relic_error *first = ctx;
    if (first->code == RELIC_OK) *first = *e;
}

/* Each resource whose data overlap an earlier one's, reported to p. */
typedef struct overlap_report {
    const relic_bif_file *b;
    relic_problems *p;
} overlap_report;

static int report_overlap(void *ctx, const relic_range *r, uint32_t earlier)
{
    const overlap_report *o = ctx;
    char path[48];
    snprintf(path, sizeof path, "variable_resources[%u]", (unsigned)r->index);
    relic_problem(o->p, RELIC_E_LAYOUT, entry_at(o->b, r->index), path,
                  "data 0x%llx..0x%llx overlap those of variable_resources[%u]", (unsigned long long)r->start,
                  (unsigned long long)r->end, (unsigned)earlier);
    return 0;
}

unsigned relic_bif_check_data(const relic_bif_file *b, size_t size, relic_arena *scratch, relic_problems *p)
{
    char path[48];
    unsigned before = p->count;
    uint64_t table_start = b->header.variable_table_offset;
    uint64_t table_end = entry_at(b, (uint32_t)b->variable_resources_count);
    size_t np = 0;
    relic_range *pl = relic_arena_array(scratch, b->variable_resources_count ? b->variable_resources_count : 1, sizeof *pl, 8);
    if (!pl) {
        relic_problem(p, RELIC_E_NOMEM, 0, NULL, "out of memory for %zu entries", b->variable_resources_count);
        return p->count - before;
    }
    for (uint32_t i = 0; i < b->variable_resources_count; i++) {
        const relic_bif_variable_resource *r = &b->variable_resources[i];
        uint64_t end = (uint64_t)r->offset + r->file_size;
        snprintf(path, sizeof path, "variable_resources[%u]", (unsigned)i);
        if (end > size) {
            relic_problem(p, RELIC_E_TRUNCATED, entry_at(b, i), path, "data 0x%x+0x%x pass the end of the file (0x%zx bytes)",
                          (unsigned)r->offset, (unsigned)r->file_size, size);
            continue;
        }
        if (r->file_size == 0) continue;
        if (r->offset < RELIC_BIF_HEADER_SIZE || (r->offset < table_end && end > table_start)) {
            relic_problem(p, RELIC_E_LAYOUT, entry_at(b, i), path, "data 0x%x+0x%x overlap the header (0x0..0x%x) or table (0x%llx..0x%llx)",
                          (unsigned)r->offset, (unsigned)r->file_size, (unsigned)RELIC_BIF_HEADER_SIZE,
                          (unsigned long long)table_start, (unsigned long long)table_end);
            continue;
        }
        pl[np].start = r->offset;
        pl[np].end = end;
        pl[np].index = i;
        np++;
    }
    overlap_report o = {b, p};
    if (relic_find_overlaps(pl, np, scratch, report_overlap, &o) != RELIC_OK)
        relic_problem(p, RELIC_E_NOMEM, 0, NULL, "out of memory sorting %zu entries", np);
    return p->count - before;
}

relic_status relic_bif_open(const uint8_t *data, size_t size, relic_arena *a, relic_bif_file *out, relic_error *err)
{
    relic_status st = relic_bif_open_tables(data, size, a, out, err);
    if (st != RELIC_OK) return st;
    relic_error first;
    relic_error_clear(&first);
    relic_problems p = {keep_first, &first, 0, 1};
    relic_bif_check_data(out, size, a, &p);
    if (p.count == 0) return RELIC_OK;
    if (err) *err = first;
    return first.code;
}

relic_status relic_bif_resource(const relic_bif_file *b, const uint8_t *data, size_t size, uint32_t index,
                                const uint8_t **out, uint32_t *out_size, relic_error *err)
{
    char path[48];
    snprintf(path, sizeof path, "variable_resources[%u]", (unsigned)index);
    if (index >= b->variable_resources_count)
        return relic_fail(err, RELIC_E_INDEX, RELIC_BIF_HEADER_VARIABLE_RESOURCE_COUNT_POS, path,
                          "resource index %u >= VariableResourceCount %zu", (unsigned)index, b->variable_resources_count);
    const relic_bif_variable_resource *r = &b->variable_resources[index];
    if ((uint64_t)r->offset + r->file_size > size)
        return relic_fail(err, RELIC_E_TRUNCATED, entry_at(b, index), path,
                          "data 0x%x+0x%x pass the end of the file (0x%zx bytes)", (unsigned)r->offset,
                          (unsigned)r->file_size, size);
    *out = data + r->offset;
    *out_size = r->file_size;
    return RELIC_OK;
}
