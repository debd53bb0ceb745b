/* test_trn_splice.c — re-baking a TRN/TRX without a model of the whole
 * file (runtime/formats/nwn2/trn_splice.c, what `relic bake` does): the
 * walkmesh read straight from the validated file equals the one read from
 * the decoded packet, and the file written with its ASWM packet replaced is
 * byte for byte what relic_trn_layout + relic_trn_write give the decoded
 * model with that packet replaced (header, directory recomputed, packets
 * back to back: nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp), so it
 * validates and passes the container rules. Synthetic files (packets
 * before and after the ASWM) always; every corpus TRN/TRX from
 * ../shared/corpus when present (skipped, saying so, when not). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic_trn.h"
#include "trn_synth.h"

static int walls(void *ctx, uint32_t t)
{
    (void)ctx;
    return t % 7 != 3;
}

static relic_status to_buf(void *ctx, const uint8_t *data, size_t size)
{
    relic_buf_append(ctx, data, size);
    return ((relic_buf *)ctx)->failed ? RELIC_E_NOMEM : RELIC_OK;
}

/* A sink that fails at its `fail_at`-th call and counts the calls. */
typedef struct failing_sink {
    int calls, fail_at;
} failing_sink;

static relic_status failing(void *ctx, const uint8_t *data, size_t size)
{
    (void)data;
    (void)size;
    failing_sink *s = ctx;
    return ++s->calls == s->fail_at ? RELIC_E_IO : RELIC_OK;
}

static void count_problem(void *ctx, const relic_error *e)
{
    (void)e;
    (*(unsigned *)ctx)++;
}

static relic_trn_packet data_packet(uint32_t type, const char *bytes)
{
    relic_trn_packet p;
    memset(&p, 0, sizeof p);
    p.type = type;
    p.data = (uint8_t *)(uintptr_t)bytes;
    p.data_count = strlen(bytes);
    return p;
}

/* A file of five packets: TRWH, WATR, ASWM (a synthetic area, unbaked),
 * TRRN, an unknown one; written by the model's writer into out. */
static void synth_file(relic_arena *a, relic_buf *out)
{
    relic_trn_aswm w;
    relic_error err;
    assert_int_equal(synth_area(a, 3, 2, 3, walls, NULL, &w), 0);
    relic_trn_file m;
    memset(&m, 0, sizeof m);
    memcpy(m.header.magic, "NWN2", 4);
    m.header.version_major = RELIC_TRN_VERSION_MAJOR;
    m.header.version_minor = RELIC_TRN_VERSION_MINOR;
    relic_trn_packet *p = relic_arena_array(a, 5, sizeof *p, 8);
    assert_non_null(p);
    memset(p, 0, 5 * sizeof *p);
    p[0].type = RELIC_TRN_PACKET_TYPE_TRWH;
    p[0].trwh.width = 3;
    p[0].trwh.height = 2;
    p[0].trwh.id = 77;
    p[1] = data_packet(RELIC_TRN_PACKET_TYPE_WATR, "water bytes kept as they are");
    assert_int_equal(relic_trn_aswm_pack(&w, 6, a, &p[2], &err), RELIC_OK);
    p[3] = data_packet(RELIC_TRN_PACKET_TYPE_TRRN, "terrain");
    p[4] = data_packet(0x58585858u, "an unknown packet");
    m.packets = p;
    m.packets_count = 5;
    m.header.packet_count = 5;
    assert_int_equal(relic_trn_layout(&m, a, &err), RELIC_OK);
    assert_int_equal(relic_trn_write(&m, out, &err), RELIC_OK);
}

/* Bake the walkmesh of the file in bytes both ways (decoded model; in
 * place) and compare: the walkmeshes read, then the files written. Returns
 * 0 when the file has no bakeable walkmesh (nothing compared), else 1. */
static int assert_splice_equals_model(const uint8_t *bytes, size_t size, const char *name)
{
    relic_arena a;
    relic_error err;
    relic_trn_view v;
    relic_trn_file m;
    relic_trn_aswm w_view, w_model, baked;
    relic_buf raw_view, raw_model, spliced, written;
    size_t index = 0;
    int compared = 0;
    relic_arena_init_heap(&a, (size_t)1 << 30);
    relic_buf_init(&raw_view, 0);
    relic_buf_init(&raw_model, 0);
    relic_buf_init(&spliced, 0);
    relic_buf_init(&written, 0);
    assert_int_equal(relic_trn_validate(bytes, size, &v, &err), RELIC_OK);
    assert_int_equal(relic_trn_decode(&v, &a, &m, &err), RELIC_OK);
    if (relic_trn_view_aswm_read(&v, RELIC_TRN_ASWM_DEFAULT_LIMIT, &a, &w_view, &index, &err) != RELIC_OK) {
        print_message("note: %s: %s: %s (not compared)\n", name, err.path, err.message);
        goto done;
    }
    assert_int_equal(m.packets[index].type, RELIC_TRN_PACKET_TYPE_ASWM);
    for (size_t i = 0; i < index; i++) assert_int_not_equal(m.packets[i].type, RELIC_TRN_PACKET_TYPE_ASWM);
    assert_int_equal(relic_trn_aswm_read(&m.packets[index], RELIC_TRN_ASWM_DEFAULT_LIMIT, &a, &w_model, &err), RELIC_OK);
    assert_int_equal(relic_trn_aswm_write(&w_view, &raw_view, &err), RELIC_OK);
    assert_int_equal(relic_trn_aswm_write(&w_model, &raw_model, &err), RELIC_OK);
    assert_int_equal(raw_view.size, raw_model.size);
    assert_memory_equal(raw_view.data, raw_model.data, raw_view.size);

    if (relic_trn_bake(&w_view, NULL, &a, &baked, &err) != RELIC_OK) {
        print_message("note: %s: not bakeable: %s (not compared)\n", name, err.message);
        goto done;
    }
    relic_trn_packet p;
    memset(&p, 0, sizeof p);
    assert_int_equal(relic_trn_aswm_pack(&baked, 1, &a, &p, &err), RELIC_OK);
    assert_int_equal(relic_trn_write_replacing(&v, index, &p, to_buf, &spliced, &err), RELIC_OK);
    m.packets[index] = p;
    assert_int_equal(relic_trn_layout(&m, &a, &err), RELIC_OK);
    assert_int_equal(relic_trn_write(&m, &written, &err), RELIC_OK);
    if (spliced.size != written.size || memcmp(spliced.data, written.data, spliced.size) != 0)
        fail_msg("%s: the spliced file (%zu bytes) differs from the model's (%zu bytes)", name, spliced.size, written.size);
    relic_trn_view back;
    unsigned problems = 0;
    assert_int_equal(relic_trn_validate(spliced.data, spliced.size, &back, &err), RELIC_OK);
    assert_int_equal(relic_trn_check_container(&back, count_problem, &problems), 0);
    compared = 1;
done:
    relic_buf_free(&raw_view);
    relic_buf_free(&raw_model);
    relic_buf_free(&spliced);
    relic_buf_free(&written);
    relic_arena_release(&a);
    return compared;
}

static void test_replacing_the_walkmesh_equals_the_models_writer(void **state)
{
    (void)state;
    relic_arena a;
    relic_buf file;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    relic_buf_init(&file, 0);
    synth_file(&a, &file);
    assert_int_equal(assert_splice_equals_model(file.data, file.size, "synthetic"), 1);
    relic_buf_free(&file);
    relic_arena_release(&a);
}

/* The packets other than the walkmesh reach the sink as they lie in the
 * input: the same bytes, and (with no copy) the same addresses. */
typedef struct pieces {
    const uint8_t *from[16];
    size_t size[16];
    int n;
} pieces;

static relic_status record(void *ctx, const uint8_t *data, size_t size)
{
    pieces *p = ctx;
    assert_true(p->n < 16);
    p->from[p->n] = data;
    p->size[p->n++] = size;
    return RELIC_OK;
}

static void test_other_packets_are_passed_on_from_the_input(void **state)
{
    (void)state;
    relic_arena a;
    relic_buf file;
    relic_error err;
    relic_trn_view v;
    relic_trn_aswm w;
    size_t index, pos, len;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    relic_buf_init(&file, 0);
    synth_file(&a, &file);
    assert_int_equal(relic_trn_validate(file.data, file.size, &v, &err), RELIC_OK);
    assert_int_equal(relic_trn_view_aswm_read(&v, RELIC_TRN_ASWM_DEFAULT_LIMIT, &a, &w, &index, &err), RELIC_OK);
    assert_int_equal(index, 2);
    assert_int_equal(relic_trn_packet_span(&v, 2, &pos, &len, &err), RELIC_OK);
    relic_trn_packet p;
    memset(&p, 0, sizeof p);
    assert_int_equal(relic_trn_aswm_pack(&w, 1, &a, &p, &err), RELIC_OK);
    pieces got = {.n = 0};
    assert_int_equal(relic_trn_write_replacing(&v, index, &p, record, &got, &err), RELIC_OK);
    /* header, directory, packets 0-1 from the input, new packet header, zlib bytes, packets 3-4 from the input */
    assert_int_equal(got.n, 6);
    assert_ptr_equal(got.from[0], file.data);
    assert_ptr_equal(got.from[2], v.packets);
    assert_int_equal(got.size[2], pos - (size_t)(v.packets - file.data));
    assert_ptr_equal(got.from[4], p.aswm);
    assert_ptr_equal(got.from[5], file.data + pos + len);
    assert_int_equal(got.size[5], file.size - pos - len);
    relic_buf_free(&file);
    relic_arena_release(&a);
}

static void test_refusals_and_a_failing_sink(void **state)
{
    (void)state;
    relic_arena a;
    relic_buf file;
    relic_error err;
    relic_trn_view v;
    relic_trn_aswm w;
    size_t index, pos, len;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    relic_buf_init(&file, 0);
    synth_file(&a, &file);
    assert_int_equal(relic_trn_validate(file.data, file.size, &v, &err), RELIC_OK);
    assert_int_equal(relic_trn_view_aswm_read(&v, RELIC_TRN_ASWM_DEFAULT_LIMIT, &a, &w, &index, &err), RELIC_OK);
    relic_trn_packet p;
    memset(&p, 0, sizeof p);
    assert_int_equal(relic_trn_aswm_pack(&w, 1, &a, &p, &err), RELIC_OK);
    assert_int_equal(relic_trn_packet_span(&v, 5, &pos, &len, &err), RELIC_E_ARGUMENT);
    assert_int_equal(relic_trn_write_replacing(&v, 5, &p, failing, &(failing_sink){0, 0}, &err), RELIC_E_ARGUMENT);
    relic_trn_packet trwh;
    memset(&trwh, 0, sizeof trwh);
    trwh.type = RELIC_TRN_PACKET_TYPE_TRWH;
    failing_sink never = {0, 0};
    assert_int_equal(relic_trn_write_replacing(&v, index, &trwh, failing, &never, &err), RELIC_E_ARGUMENT);
    assert_int_equal(never.calls, 0);
    /* the sink's error stops the writing at once, whichever piece it refuses */
    for (int k = 1; k <= 6; k++) {
        failing_sink s = {0, k};
        assert_int_equal(relic_trn_write_replacing(&v, index, &p, failing, &s, &err), RELIC_E_IO);
        assert_int_equal(s.calls, k);
    }
    /* a limit below the walkmesh's declared size: refused before inflating */
    assert_int_equal(relic_trn_view_aswm_read(&v, 16, &a, &w, &index, &err), RELIC_E_LIMIT);
    assert_non_null(strstr(err.path, "packets[2]"));
    relic_buf_free(&file);
    relic_arena_release(&a);
}

static void test_a_file_without_a_walkmesh_is_refused(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    relic_buf out;
    relic_trn_view v;
    relic_trn_aswm w;
    size_t index = 99;
    relic_arena_init_heap(&a, (size_t)1 << 20);
    relic_buf_init(&out, 0);
    relic_trn_file m;
    memset(&m, 0, sizeof m);
    memcpy(m.header.magic, "NWN2", 4);
    m.header.version_major = RELIC_TRN_VERSION_MAJOR;
    m.header.version_minor = RELIC_TRN_VERSION_MINOR;
    relic_trn_packet p = data_packet(RELIC_TRN_PACKET_TYPE_WATR, "only water");
    m.packets = &p;
    m.packets_count = 1;
    m.header.packet_count = 1;
    assert_int_equal(relic_trn_layout(&m, &a, &err), RELIC_OK);
    assert_int_equal(relic_trn_write(&m, &out, &err), RELIC_OK);
    assert_int_equal(relic_trn_validate(out.data, out.size, &v, &err), RELIC_OK);
    assert_int_equal(relic_trn_view_aswm_read(&v, RELIC_TRN_ASWM_DEFAULT_LIMIT, &a, &w, &index, &err), RELIC_E_ARGUMENT);
    assert_string_equal(err.path, "packets");
    assert_int_equal(index, 99);
    relic_buf_free(&out);
    relic_arena_release(&a);
}

static void test_every_real_file_splices_as_the_model_writes(void **state)
{
    (void)state;
    const char *dirs[] = {"../shared/corpus/trn", "../shared/corpus/trx"};
    int seen = 0, compared = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
        DIR *dir = opendir(dirs[d]);
        if (!dir) continue;
        struct dirent *e;
        while ((e = readdir(dir))) {
            char ext[8], path[512];
            relic_path_extension(e->d_name, ext, sizeof ext);
            if (strcmp(ext, "trn") && strcmp(ext, "trx")) continue;
            snprintf(path, sizeof path, "%s/%s", dirs[d], e->d_name);
            relic_mapping mp;
            relic_error err;
            relic_trn_view v;
            if (relic_map_file(path, 0, &mp, &err) != RELIC_OK) continue;
            if (relic_trn_validate(mp.bytes.data, mp.bytes.size, &v, &err) == RELIC_OK) {
                seen++;
                compared += assert_splice_equals_model(mp.bytes.data, mp.bytes.size, e->d_name);
            }
            relic_unmap(&mp);
        }
        closedir(dir);
    }
    if (seen == 0) print_message("note: ../shared/corpus/trn and trx not found: the real-file part of this test is skipped\n");
    else print_message("%d real files, %d baked and compared\n", seen, compared);
    assert_true(seen == 0 || compared > seen / 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replacing_the_walkmesh_equals_the_models_writer),
        cmocka_unit_test(test_other_packets_are_passed_on_from_the_input),
        cmocka_unit_test(test_refusals_and_a_failing_sink),
        cmocka_unit_test(test_a_file_without_a_walkmesh_is_refused),
        cmocka_unit_test(test_every_real_file_splices_as_the_model_writes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
