/* grf_json.c — the JSON form of a whole GROFF file: the container as the
 * generated groff JSON (directory, symbols; the data hex left empty),
 * "contents" with each section's own JSON by kind, and for a level
 * "instances": each region instance with its placement and its value-table
 * properties by name (informational). Printed from the validated views
 * with nothing decoded (relic_grf_view_open + relic_grf_json_print_view:
 * `relic dump`, the ABI); decoded models (relic_grf_json_print, for an
 * edited file) are written back to bytes and printed the same way, so one
 * printer makes both texts. Reading rebuilds the
 * sections from "contents" and lays them out back to back, as the game's
 * writer does (Trespasser source, Lib/Groff/FileIO.cpp, FileIO.cpp 761–911). Value-table
 * links: Trespasser source, Lib/Groff/GroffIO.cpp ("the region records' value-table handle points at an
 * object record listing the object's property records"); Trespasser file formats. */
#include <string.h>

#include "grf_region.h"
#include "grf_region_v11.h"
#include "grf_sections_json.h"
#include "groff.h"
#include "relic_gen.h"
#include "relic_grf.h"
#include "relic_json.h"

#define DIRECTORY_START (RELIC_GROFF_HEADER_SIZE)
/* nested property objects printed at most this deep (cycles stop there) */
#define PROPERTY_DEPTH 8

static int back_to_back(const relic_groff_file *m)
{
    uint64_t pos = DIRECTORY_START + (uint64_t)RELIC_GROFF_SECTION_SIZE * m->sections_count, start = pos;
    for (size_t i = 0; i < m->sections_count; i++) {
        if (m->sections[i].data_offset != pos) return 0;
        pos += m->sections[i].data_size;
    }
    return pos - start == m->data_count && m->header.symbol_table_offset == pos;
}

/* Whether every section of a re-encodes to the size b gives it. */
static int same_sizes(const relic_groff_file *a, const relic_groff_file *b)
{
    for (size_t i = 0; i < a->sections_count; i++)
        if (a->sections[i].data_size != b->sections[i].data_size) return 0;
    return 1;
}

relic_status relic_grf_json_print_in(const relic_grf_file *f, relic_buf *out, relic_arena *scratch, relic_error *err)
{
    if (!scratch) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "no scratch arena");
    const relic_groff_file *m = &f->container;
    if (!back_to_back(m))
        return relic_fail(err, RELIC_E_UNSUPPORTED, 0, "sections",
                          "the sections do not lie back to back in directory order: only the plain container JSON keeps this file");
    /* One printer for both paths: the models written back to bytes (into
     * scratch), then printed from their views as `relic dump` prints a
     * file. The writer lays the sections out on copies of the directory and
     * symbols, not on f's. */
    relic_grf_file w = *f;
    size_t ns = m->sections_count, nsym = m->symbols_count;
    w.container.sections = ns ? relic_arena_array(scratch, ns, sizeof *m->sections, 8) : NULL;
    w.container.symbols = nsym ? relic_arena_array(scratch, nsym, sizeof *m->symbols, 8) : NULL;
    if ((ns && !w.container.sections) || (nsym && !w.container.symbols))
        return relic_fail(err, RELIC_E_NOMEM, 0, "", "out of scratch memory");
    if (ns) memcpy(w.container.sections, m->sections, ns * sizeof *m->sections);
    if (nsym) memcpy(w.container.symbols, m->symbols, nsym * sizeof *m->symbols);
    relic_buf bytes;
    relic_groff_view v;
    relic_grf_view gv;
    relic_buf_init_arena(&bytes, scratch, 0);
    relic_status st = relic_grf_file_write(&w, scratch, &bytes, err);
    if (!st && same_sizes(m, &w.container)) {
        /* the model's directory still describes the data: printed as it is,
         * header fields a layout would derive (file_size, handles) included */
        relic_groff_file keep = *m;
        keep.data = w.container.data;
        keep.data_count = w.container.data_count;
        bytes.size = 0;
        st = relic_groff_write(&keep, &bytes, err);
    }
    if (!st && bytes.failed) st = relic_fail(err, RELIC_E_NOMEM, 0, "", "out of scratch memory");
    if (!st) st = relic_groff_validate(bytes.data, bytes.size, &v, err);
    if (!st) st = relic_grf_view_open(&v, scratch, &gv, err);
    if (!st) st = relic_grf_json_print_view(&gv, out, err);
    return st;
}

relic_status relic_grf_json_print(const relic_grf_file *f, relic_buf *out, relic_error *err)
{
    /* scratch from where out grows: its arena, or the heap of a heap buffer (relic_json_out_scratch) */
    relic_arena heap, *scratch = relic_json_out_scratch(out, &heap);
    if (!scratch)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "",
                          "an output buffer over caller memory needs a scratch arena: relic_grf_json_print_in");
    relic_status st = relic_grf_json_print_in(f, out, scratch, err);
    relic_json_release_scratch(scratch, &heap);
    return st;
}

/* ---- the same text printed from the validated views ---- */

/* The symbol names of the directory as C strings: in the file when the
 * name's bytes hold their NUL (every real file), else copied with one (as
 * the generated decoder's copy has). */
static relic_status view_symbols(const relic_groff_view *v, relic_arena *a, relic_groff_file *d, relic_error *err)
{
    size_t n = v->symbols_count, pos = 0;
    d->symbols_count = n;
    d->symbols = n ? relic_arena_array(a, n, sizeof *d->symbols, 8) : NULL;
    if (n && !d->symbols) return relic_fail(err, RELIC_E_NOMEM, 0, "symbols", "out of memory");
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = v->symbols + pos;
        relic_groff_symbol *s = &d->symbols[i];
        s->handle = relic_load_u32le(p);
        s->name_length = relic_load_u32le(p + 4);
        s->reference_count = relic_load_u32le(p + 8);
        s->name_count = s->name_length;
        s->name = (char *)(p + 12);
        if (!memchr(p + 12, 0, s->name_length)) {
            char *c = relic_arena_alloc(a, (size_t)s->name_length + 1, 1);
            if (!c) return relic_fail(err, RELIC_E_NOMEM, 0, "symbols", "out of memory");
            memcpy(c, p + 12, s->name_length);
            c[s->name_length] = 0;
            s->name = c;
        }
        pos += 12 + (size_t)s->name_length;
    }
    return RELIC_OK;
}

relic_status relic_grf_view_open(const relic_groff_view *v, relic_arena *a, relic_grf_view *out, relic_error *err)
{
    memset(out, 0, sizeof *out);
    out->container = *v;
    relic_groff_file *d = &out->directory;
    relic_groff_header_view h = relic_groff_view_header(v);
    d->header = (relic_groff_header){relic_groff_header_magic(h),
                                     relic_groff_header_file_size(h),
                                     relic_groff_header_section_count(h),
                                     relic_groff_header_symbol_count(h),
                                     relic_groff_header_symbol_table_size(h),
                                     relic_groff_header_symbol_table_offset(h),
                                     relic_groff_header_timestamp(h),
                                     relic_groff_header_flags(h),
                                     relic_groff_header_version(h),
                                     {relic_groff_header_reserved(h, 0), relic_groff_header_reserved(h, 1)},
                                     relic_groff_header_header_crc(h)};
    size_t n = v->sections_count;
    d->sections_count = n;
    d->data = (uint8_t *)v->data; /* read, never written: the model's field is not const */
    d->data_count = v->data_count;
    if (n) {
        d->sections = relic_arena_array(a, n, sizeof *d->sections, 8);
        out->kinds = relic_arena_array(a, n, sizeof *out->kinds, 8);
        out->views = relic_arena_array(a, n, sizeof *out->views, 8);
        if (!d->sections || !out->kinds || !out->views) return relic_fail(err, RELIC_E_NOMEM, 0, "sections", "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        relic_groff_section_view s = relic_groff_sections_at(v, i);
        d->sections[i] = (relic_groff_section){relic_groff_section_name(s), relic_groff_section_flags(s),
                                               relic_groff_section_data_offset(s), relic_groff_section_data_size(s),
                                               relic_groff_section_relocation_offset(s), relic_groff_section_relocation_count(s),
                                               relic_groff_section_content(s), relic_groff_section_handle(s)};
    }
    relic_status st = view_symbols(v, a, d, err);
    if (st) return st;
    out->layout = relic_grf_layout_of(d);
    for (size_t i = 0; i < n; i++) {
        relic_bytes b = relic_groff_model_section_data(d, i);
        out->kinds[i] = relic_grf_classify(d, i, &out->layout);
        if (!b.data && d->sections[i].data_size)
            return relic_gen_fail_at(err, RELIC_E_LAYOUT, d->sections[i].data_offset, "sections", (int64_t)i,
                                     "the section's data lies outside the data region");
        if ((st = relic_grf_section_view(out->kinds[i], b.data, b.size, a, &out->views[i], err))) {
            err->offset += d->sections[i].data_offset;
            relic_gen_path_prefix(err, "sections", (int64_t)i);
            return st;
        }
    }
    return relic_grf_symbols_index(d, a, &out->symbols, err);
}

static void print_value_v(relic_buf *o, const relic_grf_vt_view *vt, size_t rec, int depth);

static void print_object_v(relic_buf *o, const relic_grf_vt_view *vt, const relic_grf_vt_record_view *r, int depth)
{
    relic_buf_puts(o, "{");
    for (size_t k = 0; k < r->items_count; k++) {
        uint32_t id = relic_grf_vt_record_item(r, k).id;
        long j = relic_grf_vt_view_find(vt, id);
        const char *name = NULL;
        if (j >= 0) {
            relic_grf_vt_record_view m;
            relic_grf_vt_view_record(vt, (size_t)j, &m);
            name = relic_grf_vt_view_symbol(vt, m.symbol.id);
        }
        char fallback[24];
        if (!name) {
            snprintf(fallback, sizeof fallback, "#%u", id);
            name = fallback;
        }
        if (k) relic_buf_puts(o, ", ");
        relic_json_string(o, name, strlen(name));
        relic_buf_puts(o, ": ");
        if (j < 0) relic_buf_puts(o, "null");
        else print_value_v(o, vt, (size_t)j, depth + 1);
    }
    relic_buf_puts(o, "}");
}

static void print_value_v(relic_buf *o, const relic_grf_vt_view *vt, size_t rec, int depth)
{
    relic_grf_vt_record_view r;
    relic_grf_vt_view_record(vt, rec, &r);
    switch (r.type) {
    case RELIC_GRF_VALUE_BOOL: relic_buf_puts(o, r.payload[0] ? "true" : "false"); break;
    case RELIC_GRF_VALUE_CHAR: relic_json_string(o, (const char *)r.payload, 1); break;
    case RELIC_GRF_VALUE_INT: relic_json_i64(o, (int32_t)relic_load_u32le(r.payload)); break;
    case RELIC_GRF_VALUE_FLOAT: relic_json_f32(o, relic_load_f32le(r.payload)); break;
    case RELIC_GRF_VALUE_STRING: relic_json_string(o, (const char *)r.payload, strlen((const char *)r.payload)); break;
    default:
        if (depth >= PROPERTY_DEPTH) relic_buf_puts(o, "\"(nested too deep)\"");
        else print_object_v(o, vt, &r, depth);
    }
}

static void print_floats(relic_buf *o, const uint8_t *p)
{
    for (int c = 0; c < 3; c++) {
        if (c) relic_buf_puts(o, ", ");
        relic_json_f32(o, relic_load_f32le(p + 4 * c));
    }
}

/* A region instance's fields: the v11 record is the first 36 bytes of the later one. */
#define INSTANCE_OBJECT 0
#define INSTANCE_NAME 4
#define INSTANCE_POSITION 8
#define INSTANCE_ROTATION 20
#define INSTANCE_SCALE 32

static void print_instances_v(relic_buf *o, const relic_grf_view *f)
{
    const relic_grf_vt_view *vt = NULL;
    const relic_grf_region_view *r = NULL;
    const relic_grf_region_v11_view *r11 = NULL;
    const relic_groff_file *d = &f->directory;
    for (size_t i = 0; i < d->sections_count; i++) {
        if (f->kinds[i] == RELIC_GRF_VALUE_TABLE && !vt) vt = f->views[i];
        if (f->kinds[i] == RELIC_GRF_REGION && !r && !r11) r = f->views[i];
        if (f->kinds[i] == RELIC_GRF_REGION_V11 && !r && !r11) r11 = f->views[i];
    }
    if (!r && !r11) return;
    size_t n = r ? r->instances_count : r11->instances_count;
    relic_buf_puts(o, ",\n \"instances\": [");
    for (size_t k = 0; k < n; k++) {
        const uint8_t *p = r ? relic_grf_region_instances_at(r, k).p : relic_grf_region_v11_instances_at(r11, k).p;
        uint32_t object = relic_load_u32le(p + INSTANCE_OBJECT);
        const char *nm = relic_grf_symbols_name(&f->symbols, relic_load_u32le(p + INSTANCE_NAME));
        const char *obj = NULL;
        uint64_t sec = object - (uint64_t)RELIC_GROFF_SECTION_HANDLE_BASE;
        if (object >= RELIC_GROFF_SECTION_HANDLE_BASE && sec < d->sections_count)
            obj = relic_grf_symbols_name(&f->symbols, d->sections[sec].name);
        relic_buf_puts(o, k ? ",\n  {\"name\": " : "\n  {\"name\": ");
        if (nm) relic_json_string(o, nm, strlen(nm));
        else relic_buf_puts(o, "null");
        relic_buf_puts(o, ", \"object\": ");
        if (obj) relic_json_string(o, obj, strlen(obj));
        else relic_buf_puts(o, "null");
        relic_buf_puts(o, ", \"position\": [");
        print_floats(o, p + INSTANCE_POSITION);
        relic_buf_puts(o, "], \"rotation\": [");
        print_floats(o, p + INSTANCE_ROTATION);
        relic_buf_puts(o, "], \"scale\": ");
        relic_json_f32(o, relic_load_f32le(p + INSTANCE_SCALE));
        if (r && vt) {
            relic_grf_region_handle_view values = relic_grf_region_instance_values(relic_grf_region_instances_at(r, k));
            uint32_t id = relic_grf_region_handle_id(values);
            if (id || relic_grf_region_handle_references(values)) {
                long j = relic_grf_vt_view_find(vt, id);
                relic_grf_vt_record_view m;
                if (j >= 0) relic_grf_vt_view_record(vt, (size_t)j, &m);
                if (j >= 0 && m.type == RELIC_GRF_VALUE_OBJECT) {
                    relic_buf_puts(o, ", \"properties\": ");
                    print_object_v(o, vt, &m, 0);
                }
            }
        }
        relic_buf_puts(o, "}");
    }
    relic_buf_puts(o, "]");
}

relic_status relic_grf_json_print_view(const relic_grf_view *f, relic_buf *out, relic_error *err)
{
    const relic_groff_file *d = &f->directory;
    if (!back_to_back(d))
        return relic_fail(err, RELIC_E_UNSUPPORTED, 0, "sections",
                          "the sections do not lie back to back in directory order: only the plain container JSON keeps this file");
    /* the container's object without the data (printed per section below), left open for the members after it */
    relic_groff_view bare = f->container;
    bare.data_count = 0;
    relic_status st = relic_groff_json_print_view_open(&bare, out, err);
    if (st) return st;
    relic_buf_printf(out, ",\n \"grf_version\": %u, \"optimised\": %s,\n \"contents\": [", f->layout.version,
                     f->layout.optimised ? "true" : "false");
    for (size_t i = 0; i < d->sections_count; i++) {
        const char *name = relic_grf_symbols_name(&f->symbols, d->sections[i].name);
        relic_buf_printf(out, "%s\n  {\"index\": %zu, \"name\": ", i ? "," : "", i);
        if (name) relic_json_string(out, name, strlen(name));
        else relic_buf_puts(out, "null");
        relic_buf_printf(out, ", \"kind\": \"%s\", ", relic_grf_kind_name(f->kinds[i]));
        if (f->views[i]) {
            relic_buf_puts(out, "\"value\": ");
            if ((st = relic_grf_section_json_print_view(f->kinds[i], f->views[i], out, err))) return st;
        } else {
            relic_bytes b = relic_groff_model_section_data(d, i);
            relic_buf_puts(out, "\"hex\": ");
            relic_json_hex(out, b.data, b.size);
        }
        relic_buf_puts(out, "}");
    }
    relic_buf_puts(out, "]");
    print_instances_v(out, f);
    relic_buf_puts(out, "}\n");
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, "", "output buffer could not grow");
    return RELIC_OK;
}

static relic_status read_contents(relic_jr *r, const relic_jv *contents, relic_groff_file *m, relic_buf *data)
{
    size_t n;
    relic_status st;
    if ((st = relic_jr_array(r, contents, &n))) return st;
    if (n != m->sections_count)
        return relic_jr_fail(r, RELIC_E_ARGUMENT, "%zu entries for %zu sections", n, m->sections_count);
    for (size_t i = 0; i < n; i++) {
        const relic_jv *e = relic_jv_at(contents, i), *v;
        size_t before = data->size;
        int kind;
        relic_jr_push(r, NULL, (int64_t)i);
        relic_jr_push(r, "kind", -1);
        if ((st = relic_jr_member(r, e, "kind", 1, &v))) return st;
        kind = -1;
        if (relic_jv_is(v, RELIC_JV_STRING) && v->len < 64) {
            char name[64];
            memcpy(name, v->u.s, v->len);
            name[v->len] = 0;
            kind = relic_grf_kind_from_name(name);
        }
        if (kind < 0) return relic_jr_fail(r, RELIC_E_RANGE, "not a section kind");
        relic_jr_pop(r);
        if (kind == RELIC_GRF_OPAQUE) {
            uint8_t *bytes;
            size_t len;
            relic_jr_push(r, "hex", -1);
            if ((st = relic_jr_member(r, e, "hex", 1, &v)) || (st = relic_jr_hex(r, v, &bytes, &len))) return st;
            relic_buf_append(data, bytes, len);
            relic_jr_pop(r);
        } else {
            void *model;
            relic_jr_push(r, "value", -1);
            if ((st = relic_jr_member(r, e, "value", 1, &v))) return st;
            /* the section's own reader, on the value as parsed */
            relic_error inner;
            st = relic_grf_section_json_read_value((relic_grf_kind)kind, v, r->arena, &model, &inner);
            if (!st) st = relic_grf_section_write((relic_grf_kind)kind, model, data, &inner);
            if (st) return relic_jr_fail(r, st, "%s%s%s", inner.path, inner.path[0] ? ": " : "", inner.message);
            relic_jr_pop(r);
        }
        if (data->size - before > UINT32_MAX) return relic_jr_fail(r, RELIC_E_LIMIT, "section passes 4 GiB");
        m->sections[i].data_size = (uint32_t)(data->size - before);
        relic_jr_pop(r);
    }
    return RELIC_OK;
}

relic_status relic_grf_json_read(const char *text, size_t len, relic_arena *a, relic_groff_file *out,
                                 relic_error *err)
{
    const relic_jv *doc, *contents;
    relic_status st;
    if ((st = relic_jr_parse(text, len, a, &doc, err))) return st;
    /* the container (directory, symbols) by the generated reader, from the same parse: it reads
     * its own members and passes over the others (contents, instances, grf_version, ...) */
    if ((st = relic_groff_json_read_value(doc, a, out, err))) return st;
    if (!(contents = relic_jv_get(doc, "contents"))) return RELIC_OK; /* the plain container form: data as hex */
    relic_jr r = {a, err, {0}, 0};
    relic_buf data;
    relic_buf_init_arena(&data, a, 0);
    relic_jr_push(&r, "contents", -1);
    st = read_contents(&r, contents, out, &data);
    if (!st && data.failed) st = relic_fail(err, RELIC_E_NOMEM, 0, "contents", "out of memory");
    if (!st) {
        out->data = data.size ? data.data : NULL;
        out->data_count = data.size;
        st = relic_groff_layout(out, err);
    }
    return st;
}
