/* fuzz_grf_sections.c — libFuzzer target for the GROFF section contents
 * (runtime/formats/tres/grf_sections.c, grf_valuetable.c, grf_valuetable_json.c,
 * grf_file.c, grf_json.c, grf_obj.c). An input starting with the GROFF magic
 * is a whole file: validated, rule-checked, every section decoded; when that
 * succeeds its rewrite validates, and its JSON reads back to the same bytes;
 * a level exports to OBJ. Any other input is one section: byte 0 picks the
 * kind, the rest is its data; a section that decodes writes back its own
 * bytes, and so does its JSON. Every rejection carries a message. A whole
 * file's JSON round trip, OBJ export and rewrite run for one input in
 * FUZZ_WHOLE_ONE_IN (fuzz_sample.h): on the corpus's 300 KB scenes they
 * were nine tenths of a run. Build and
 * run: make fuzz (or build-fuzz/fuzz_grf_sections). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdlib.h>
#include <string.h>

#include "relic_grf.h"
#include "fuzz_sample.h"
#include "fuzz_scratch.h"

#ifndef FUZZ_WHOLE_ONE_IN
#define FUZZ_WHOLE_ONE_IN 8
#endif

/* relic_grf_export_obj with its scratch in fuzz_scratch.h's arena (mapped once, reused every run) */
static relic_status grf_obj_scratch(const relic_grf_file *f, const char *mtl_name, relic_buf *obj, relic_buf *mtl,
                                    relic_error *err)
{
    relic_arena a;
    fuzz_scratch_arena(&a, 1, 0);
    relic_status st = relic_grf_export_obj(f, mtl_name, &a, obj, mtl, err);
    relic_arena_release(&a);
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_bytes(const relic_buf *b, const uint8_t *data, size_t size)
{
    if (b->size != size || (size && memcmp(b->data, data, size))) abort();
}

static void one_section(const uint8_t *data, size_t size, relic_arena *a)
{
    relic_grf_kind k = (relic_grf_kind)(data[0] % RELIC_GRF_KIND_COUNT);
    relic_error err;
    void *m;
    data++, size--;
    if (relic_grf_section_decode(k, data, size, a, &m, &err) != RELIC_OK) {
        if (!err.message[0]) abort();
        return;
    }
    if (!m) return; /* opaque */
    relic_buf out, json;
    relic_buf_init(&out, 0);
    relic_buf_init(&json, 0);
    if (relic_grf_section_write(k, m, &out, &err) != RELIC_OK) abort();
    same_bytes(&out, data, size);
    if (relic_grf_section_json_print(k, m, &json, &err) != RELIC_OK) abort();
    void *back;
    if (relic_grf_section_json_read(k, (const char *)json.data, json.size, a, &back, &err) != RELIC_OK) abort();
    out.size = 0;
    if (relic_grf_section_write(k, back, &out, &err) != RELIC_OK) abort();
    same_bytes(&out, data, size);
    relic_buf_free(&out);
    relic_buf_free(&json);
}

static void whole_file(const uint8_t *data, size_t size, relic_arena *a)
{
    relic_groff_view v;
    relic_groff_file m, back;
    relic_grf_file f;
    relic_error err;
    if (relic_groff_validate(data, size, &v, &err) != RELIC_OK) return;
    if (relic_groff_decode(&v, a, &m, &err) != RELIC_OK) abort();
    (void)relic_grf_check(&m, a, NULL, NULL);
    if (relic_groff_check(&v, 0, a, NULL, NULL) != 0) return;
    if (relic_grf_file_decode(&m, a, &f, &err) != RELIC_OK) {
        if (!err.message[0]) abort();
        return;
    }
    if (!fuzz_sampled(data, size, FUZZ_WHOLE_ONE_IN)) return;
    relic_buf json, out, obj, mtl;
    relic_buf_init(&json, 0);
    relic_buf_init(&out, 0);
    relic_buf_init(&obj, 0);
    relic_buf_init(&mtl, 0);
    if (relic_grf_json_print(&f, &json, &err) == RELIC_OK) {
        /* back to back: the JSON keeps every byte */
        if (relic_grf_json_read((const char *)json.data, json.size, a, &back, &err) != RELIC_OK) abort();
        if (relic_groff_write(&back, &out, &err) != RELIC_OK) abort();
        same_bytes(&out, data, size);
    }
    (void)grf_obj_scratch(&f, "x.mtl", &obj, &mtl, &err);
    out.size = 0;
    if (relic_grf_file_write(&f, a, &out, &err) != RELIC_OK) abort();
    if (relic_groff_validate(out.data, out.size, &v, &err) != RELIC_OK) abort();
    relic_buf_free(&json);
    relic_buf_free(&out);
    relic_buf_free(&obj);
    relic_buf_free(&mtl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_arena a;
    if (size < 1) return 0;
    fuzz_scratch_arena(&a, 0, 256u << 20);
    if (size >= 4 && relic_load_u32le(data) == RELIC_GROFF_MAGIC) whole_file(data, size, &a);
    else one_section(data, size, &a);
    relic_arena_release(&a);
    return 0;
}
