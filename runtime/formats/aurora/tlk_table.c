/* tlk_table.c — a TLK V3.0 talk table: the generated validator checks the
 * header, table and where the text starts; this file checks each entry's
 * text range (no schema field can see the file's end) and looks up the text
 * of a StrRef. Sources: BioWare, "Talk Table File Format" 2.2 (OffsetToString
 * relative to StringEntriesOffset, the flags); xoreos,
 * src/aurora/talktable_tlk.cpp (text only when TEXT_PRESENT is set). */
#include "relic_tlk.h"

relic_status relic_tlk_open(const uint8_t *data, size_t size, relic_tlk_view *out, relic_error *err)
{
    relic_status st = relic_tlk_validate(data, size, out, err);
    if (st != RELIC_OK) return st;
    uint64_t table_end = RELIC_TLK_HEADER_SIZE + (uint64_t)RELIC_TLK_ENTRY_SIZE * out->entries_count;
    uint64_t text_at = out->values.header.string_entries_offset;
    if (text_at < table_end)
        return relic_fail(err, RELIC_E_LAYOUT, RELIC_TLK_HEADER_STRING_ENTRIES_OFFSET_POS, "header.string_entries_offset",
                          "text offset 0x%llx lies inside the string table (which ends at 0x%llx)",
                          (unsigned long long)text_at, (unsigned long long)table_end);
    for (size_t i = 0; i < out->entries_count; i++) {
        relic_tlk_entry_view e = relic_tlk_entries_at(out, i);
        uint64_t off = relic_tlk_entry_offset_to_string(e), n = relic_tlk_entry_string_size(e);
        char path[48];
        if (!(relic_tlk_entry_flags(e) & RELIC_TLK_STRING_FLAGS_TEXT_PRESENT) || n == 0) continue;
        if (off + n > out->strings_count) {
            snprintf(path, sizeof path, "entries[%zu].string_size", i);
            return relic_fail(err, RELIC_E_TRUNCATED,
                              RELIC_TLK_HEADER_SIZE + (uint64_t)RELIC_TLK_ENTRY_SIZE * i + RELIC_TLK_ENTRY_STRING_SIZE_POS,
                              path, "text 0x%llx+0x%llx passes the end of the text (0x%zx bytes)",
                              (unsigned long long)off, (unsigned long long)n, out->strings_count);
        }
    }
    return RELIC_OK;
}

int relic_tlk_text(const relic_tlk_view *v, uint32_t strref, const char **text, size_t *n)
{
    *text = "";
    *n = 0;
    if (strref == RELIC_TLK_STRREF_NONE || strref >= v->entries_count) return 0;
    relic_tlk_entry_view e = relic_tlk_entries_at(v, strref);
    if (relic_tlk_entry_flags(e) & RELIC_TLK_STRING_FLAGS_TEXT_PRESENT) {
        *text = (const char *)v->strings + relic_tlk_entry_offset_to_string(e);
        *n = relic_tlk_entry_string_size(e);
    }
    return 1;
}
