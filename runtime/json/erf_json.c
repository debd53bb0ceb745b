/* erf_json.c — the JSON listing of an ERF/MOD/HAK/SAV/NWM or RIM container
 * (relic_erf.h): header, localized strings, file size and the entry table,
 * what `relic dump` prints, `relic extract` leaves as the manifest `relic
 * pack` reads, and relic_abi_to_json gives foreign callers (their container
 * models add each member's bytes: relic_abi_container_write). The members'
 * bytes are not in it. Sources: xoreos, src/aurora/erffile.cpp,
 * rimfile.cpp; neverwinter.nim, erf.nim. */
#include <string.h>

#include "relic_erf.h"
#include "relic_gen.h"
#include "relic_json.h"

static void json_key(relic_buf *o, const char *k)
{
    relic_buf_puts(o, ",\n  \"");
    relic_buf_puts(o, k);
    relic_buf_puts(o, "\": ");
}

static void json_hex_if_nonzero(relic_buf *o, const char *k, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) {
            json_key(o, k);
            relic_json_hex(o, p, n);
            return;
        }
}

void relic_erf_archive_json_entry(const relic_erf_archive *ar, uint32_t i, relic_buf *o)
{
    char name[RELIC_ERF_RESREF_MAX + 16];
    const relic_erf_entry *e = &ar->entries[i];
    relic_erf_entry_name(ar, i, name, sizeof name);
    relic_buf_puts(o, "{\"name\": ");
    relic_json_string(o, name, strlen(name));
    relic_buf_puts(o, ", \"resref\": ");
    relic_json_string(o, e->resref, strlen(e->resref));
    relic_buf_puts(o, ", \"type\": ");
    relic_json_u64(o, e->res_type);
    relic_buf_puts(o, ", \"id\": ");
    relic_json_u64(o, e->res_id);
    if (e->unused) {
        relic_buf_puts(o, ", \"unused\": ");
        relic_json_u64(o, e->unused);
    }
    relic_buf_puts(o, ", \"offset\": ");
    relic_json_u64(o, e->offset);
    relic_buf_puts(o, ", \"size\": ");
    relic_json_u64(o, e->size);
    relic_buf_puts(o, "}");
}

int relic_erf_archive_json(const relic_erf_archive *ar, relic_buf *o)
{
    if (ar->kind == RELIC_ERF_KIND_RIM) {
        const relic_rim_header *h = &ar->rim.header;
        relic_buf_puts(o, "{\n  \"format\": \"rim\"");
        json_key(o, "reserved_0");
        relic_json_u64(o, h->reserved_0);
        json_key(o, "offset_to_entries");
        relic_json_u64(o, h->offset_to_entries);
        json_hex_if_nonzero(o, "reserved", h->reserved, sizeof h->reserved);
    } else {
        const relic_erf_header *h = &ar->erf.header;
        relic_buf_puts(o, "{\n  \"format\": \"erf\"");
        json_key(o, "file_type");
        relic_json_string(o, h->file_type, 4);
        json_key(o, "version");
        relic_buf_puts(o, h->file_version == RELIC_ERF_VERSION_V1_1 ? "\"V1.1\"" : "\"V1.0\"");
        json_key(o, "build_year");
        relic_json_u64(o, h->build_year);
        json_key(o, "build_day");
        relic_json_u64(o, h->build_day);
        json_key(o, "description_str_ref");
        relic_json_u64(o, h->description_str_ref);
        json_key(o, "offset_to_localized_string");
        relic_json_u64(o, h->offset_to_localized_string);
        json_key(o, "offset_to_key_list");
        relic_json_u64(o, h->offset_to_key_list);
        json_key(o, "offset_to_resource_list");
        relic_json_u64(o, h->offset_to_resource_list);
        json_hex_if_nonzero(o, "reserved", h->reserved, sizeof h->reserved);
        json_key(o, "localized_strings");
        relic_buf_puts(o, "[");
        for (size_t i = 0; i < ar->erf.localized_strings_count; i++) {
            const relic_erf_localized_string *s = &ar->erf.localized_strings[i];
            relic_buf_puts(o, i ? ",\n    {\"language_id\": " : "\n    {\"language_id\": ");
            relic_json_u64(o, s->language_id);
            relic_buf_puts(o, ", \"text\": ");
            relic_json_string(o, (const char *)s->text, s->text_count);
            relic_buf_puts(o, "}");
        }
        relic_buf_puts(o, ar->erf.localized_strings_count ? "\n  ]" : "]");
    }
    json_key(o, "file_size");
    relic_json_u64(o, ar->file_size);
    json_key(o, "entries");
    relic_buf_puts(o, "[");
    for (uint32_t i = 0; i < ar->count; i++) {
        relic_buf_puts(o, i ? ",\n    " : "\n    ");
        relic_erf_archive_json_entry(ar, i, o);
    }
    relic_buf_puts(o, ar->count ? "\n  ]\n}\n" : "]\n}\n");
    return o->failed ? 1 : 0;
}
