/* erf_json.c — the JSON listing of an ERF/MOD/HAK/SAV/NWM or RIM container
 * (relic_erf.h): header, localized strings, file size and the entry table,
 * what `relic dump` prints, `relic extract` leaves as the manifest `relic
 * pack` reads, and relic_abi_to_json gives foreign callers (their container
 * models add each member's bytes: relic_abi_container_write). The members'
 * bytes are not in it. relic_erf_listing_read reads it back, for both `relic
 * pack` (its manifest) and relic_abi_container_write. Sources: xoreos, src/aurora/erffile.cpp,
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

/* ---- reading a listing back (relic_erf_listing_read) ---- */

/* An unsigned member of obj into *dst (left as is when absent and not
 * required); *present, when asked, says whether it was there. */
static relic_status listed_u32(relic_jr *r, const relic_jv *obj, const char *key, int required, uint64_t hi, uint32_t *dst,
                               int *present)
{
    const relic_jv *v;
    int64_t x;
    if (present) *present = 0;
    relic_status st = relic_jr_member(r, obj, key, required, &v);
    if (st != RELIC_OK || !v) return st;
    relic_jr_push(r, key, -1);
    st = relic_jr_int(r, v, 0, hi, &x);
    relic_jr_pop(r);
    if (st == RELIC_OK) *dst = (uint32_t)x;
    if (present) *present = st == RELIC_OK;
    return st;
}

/* "reserved" (optional: printed only when not all zero) into n bytes. */
static relic_status listed_reserved(relic_jr *r, const relic_jv *doc, uint8_t *dst, size_t n)
{
    const relic_jv *v;
    relic_status st = relic_jr_member(r, doc, "reserved", 0, &v);
    if (st != RELIC_OK || !v) return st;
    relic_jr_push(r, "reserved", -1);
    st = relic_jr_fixed_hex(r, v, dst, n);
    relic_jr_pop(r);
    return st;
}

/* An ERF listing's header and localized strings; the archive is started
 * (relic_erf_init) with its file type and version. */
static relic_status listed_erf_header(relic_jr *r, const relic_jv *doc, int req, relic_erf_archive *ar)
{
    const relic_jv *v, *ls;
    char ft[5] = {0};
    size_t n;
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
    relic_erf_header *h = &ar->erf.header;
    static const char *const keys[] = {"build_year", "build_day", "description_str_ref", "offset_to_localized_string",
                                       "offset_to_key_list", "offset_to_resource_list"};
    uint32_t *dst[] = {&h->build_year, &h->build_day, &h->description_str_ref, &h->offset_to_localized_string,
                       &h->offset_to_key_list, &h->offset_to_resource_list};
    for (size_t i = 0; st == RELIC_OK && i < sizeof keys / sizeof keys[0]; i++) st = listed_u32(r, doc, keys[i], req, UINT32_MAX, dst[i], NULL);
    if (st == RELIC_OK) st = listed_reserved(r, doc, h->reserved, sizeof h->reserved);
    if (st == RELIC_OK) st = relic_jr_member(r, doc, "localized_strings", req, &ls);
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
        st = listed_u32(r, s, "language_id", req, UINT32_MAX, &d->language_id, NULL);
        if (st == RELIC_OK) st = relic_jr_member(r, s, "text", 1, &v);
        relic_jr_push(r, "text", -1);
        if (st == RELIC_OK) st = relic_jr_string(r, v, &text, &d->text_count);
        relic_jr_pop(r);
        if (st == RELIC_OK) d->text = (uint8_t *)text;
        relic_jr_pop(r);
    }
    relic_jr_pop(r);
    return st;
}

/* An entry's "name" (required) into *name, its length into *len. */
static relic_status listed_name(relic_jr *r, const relic_jv *e, char **name, size_t *len)
{
    const relic_jv *v;
    relic_status st = relic_jr_member(r, e, "name", 1, &v);
    if (st != RELIC_OK) return st;
    relic_jr_push(r, "name", -1);
    st = relic_jr_string(r, v, name, len);
    relic_jr_pop(r);
    return st;
}

/* Entry i. "name" is kept in *name (read only when req or needed);
 * "resref" and "type", when left out (and req allows it), come from the
 * name (resref.ext); "id" left out is the entry's index. *placed: both
 * "offset" and "size" were given. */
static relic_status listed_entry(relic_jr *r, const relic_jv *e, uint32_t i, int req, relic_erf_game game, relic_erf_entry *d,
                                 char **name, uint8_t *placed)
{
    const relic_jv *v;
    char *s = NULL;
    size_t len = 0, nlen = 0;
    int has_type = 0, has_offset = 0, has_size = 0;
    relic_status st = req ? listed_name(r, e, name, &nlen) : RELIC_OK;
    if (st == RELIC_OK) st = relic_jr_member(r, e, "resref", req, &v);
    if (st == RELIC_OK && v) {
        relic_jr_push(r, "resref", -1);
        st = relic_jr_string(r, v, &s, &len);
        if (st == RELIC_OK && (len == 0 || len > RELIC_ERF_RESREF_MAX || strlen(s) != len))
            st = relic_jr_fail(r, RELIC_E_RANGE, "a ResRef has 1 to %d characters, no NUL", RELIC_ERF_RESREF_MAX);
        relic_jr_pop(r);
        if (st == RELIC_OK) memcpy(d->resref, s, len);
    }
    if (st == RELIC_OK) st = listed_u32(r, e, "type", req, UINT32_MAX, &d->res_type, &has_type);
    if (st == RELIC_OK && (!s || !has_type)) { /* from the name: resref before the last '.', type from the extension */
        if (!*name && (st = listed_name(r, e, name, &nlen)) != RELIC_OK) return st;
        const char *nm = *name;
        const char *dot = strrchr(nm, '.');
        size_t stem = dot ? (size_t)(dot - nm) : nlen;
        relic_jr_push(r, "name", -1);
        if (!has_type && (!dot || !relic_erf_type_from_extension(dot + 1, game, &d->res_type)))
            st = relic_jr_fail(r, RELIC_E_RANGE, "'%s': no \"type\" and no known extension (or decimal type id) in the name", nm);
        if (st == RELIC_OK && !s) {
            if (stem == 0 || stem > RELIC_ERF_RESREF_MAX || strlen(nm) != nlen)
                st = relic_jr_fail(r, RELIC_E_RANGE, "'%s': a ResRef has 1 to %d characters", nm, RELIC_ERF_RESREF_MAX);
            else
                memcpy(d->resref, nm, stem);
        }
        relic_jr_pop(r);
    }
    d->res_id = i;
    if (st == RELIC_OK) st = listed_u32(r, e, "id", req, UINT32_MAX, &d->res_id, NULL);
    if (st == RELIC_OK) st = listed_u32(r, e, "unused", 0, 0xFFFF, &d->unused, NULL);
    if (st == RELIC_OK) st = listed_u32(r, e, "offset", req, UINT32_MAX, &d->offset, &has_offset);
    if (st == RELIC_OK) st = listed_u32(r, e, "size", req, UINT32_MAX, &d->size, &has_size);
    *placed = has_offset && has_size;
    return st;
}

relic_status relic_erf_listing_read(const char *text, size_t len, unsigned flags, relic_arena *a, relic_erf_listing *out,
                                    relic_error *err)
{
    const relic_jv *doc, *v, *es;
    relic_jr r = {a, err, "", 0};
    relic_erf_archive *ar = &out->ar;
    int req = (flags & RELIC_ERF_LISTING_COMPLETE) != 0;
    size_t n;
    memset(out, 0, sizeof *out);
    relic_status st = relic_jr_parse(text, len, a, &doc, err);
    if (st == RELIC_OK) st = relic_jr_member(&r, doc, "format", 1, &v);
    if (st != RELIC_OK) return st;
    if (relic_jv_str_eq(v, "rim")) {
        relic_rim_header *h = &ar->rim.header;
        relic_erf_init(ar, RELIC_ERF_KIND_RIM, NULL, RELIC_ERF_GAME_KOTOR);
        st = listed_u32(&r, doc, "reserved_0", req, UINT32_MAX, &h->reserved_0, NULL);
        if (st == RELIC_OK) st = listed_u32(&r, doc, "offset_to_entries", req, UINT32_MAX, &h->offset_to_entries, NULL);
        if (st == RELIC_OK) st = listed_reserved(&r, doc, h->reserved, sizeof h->reserved);
    } else if (relic_jv_str_eq(v, "erf")) {
        st = listed_erf_header(&r, doc, req, ar);
    } else {
        relic_jr_push(&r, "format", -1);
        return relic_jr_fail(&r, RELIC_E_RANGE, "not \"erf\" or \"rim\"");
    }
    uint32_t file_size = 0;
    if (st == RELIC_OK) st = listed_u32(&r, doc, "file_size", req, UINT32_MAX, &file_size, &out->has_file_size);
    ar->file_size = file_size;
    if (st == RELIC_OK) st = relic_jr_member(&r, doc, "entries", 1, &es);
    if (st != RELIC_OK) return st;
    relic_jr_push(&r, "entries", -1);
    if ((st = relic_jr_array(&r, es, &n)) != RELIC_OK) return st;
    if (n > UINT32_MAX) return relic_jr_fail(&r, RELIC_E_LIMIT, "%zu entries", n);
    ar->count = (uint32_t)n;
    ar->entries = relic_arena_array(a, n ? n : 1, sizeof *ar->entries, 8);
    out->names = relic_arena_array(a, n ? n : 1, sizeof *out->names, 8);
    out->placed = relic_arena_alloc(a, n ? n : 1, 1);
    if (!ar->entries || !out->names || !out->placed) return relic_jr_fail(&r, RELIC_E_NOMEM, "out of memory for %zu entries", n);
    memset(ar->entries, 0, (n ? n : 1) * sizeof *ar->entries);
    relic_erf_game game = relic_erf_game_of(ar);
    for (size_t i = 0; st == RELIC_OK && i < n; i++) {
        out->names[i] = NULL;
        relic_jr_push(&r, NULL, (int64_t)i);
        st = listed_entry(&r, relic_jv_at(es, i), (uint32_t)i, req, game, &ar->entries[i], &out->names[i], &out->placed[i]);
        relic_jr_pop(&r);
    }
    relic_jr_pop(&r);
    return st;
}
