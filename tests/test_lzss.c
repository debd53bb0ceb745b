/* test_lzss.c — the LZSS core (runtime/lzss*.c) against Trespasser source, Source/Tools/LZSS/LZSS.cpp and the Trespasser file-formats document's worked SPZ example: decoding, encode -> decode identity
 * on random, repetitive and real data for every level and both variants,
 * BEST never longer than GREEDY, streaming with one-byte buffers, bounded
 * decoder memory, the SPZ and SZDD headers, and truncation and mutation
 * sweeps (run under ASan+UBSan by `make test`). Real data: the files of
 * ../shared/corpus/{grf,scn,pid} (skipped, saying so, when absent).
 *
 * Why BEST <= GREEDY in bytes: a stream of P payload bytes and I items is
 * P + ceil(I/8) bytes and codes 8P + I = 9 literals + 17 matches bits. BEST
 * minimises that bit count B over all parses with the same matches, so
 * B_best <= B_greedy, and bytes = ceil-ish: 8T is in [B, B+7], hence
 * T_best <= ceil(B_best/8) <= ceil(B_greedy/8) <= T_greedy. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic_codec.h"
#include "relic_lzss.h"

/* relic_lzss_encode with its scratch tables in a heap arena freed at once */
/* a streaming decoder whose state lives in a static arena buffer */
static void decoder_init(relic_stream *d, relic_lzss_variant v)
{
    static uint8_t mem[8192];
    static relic_arena a;
    relic_error err;
    relic_arena_init_buffer(&a, mem, sizeof mem);
    assert_int_equal(relic_lzss_decode_init(d, v, &a, &err), RELIC_OK);
}

static relic_status encode_scratch(relic_lzss_variant v, relic_lzss_level level, const uint8_t *src, size_t n, relic_buf *out,
                                   relic_error *err)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_status st = relic_lzss_encode(v, level, src, n, &a, out, err);
    relic_arena_release(&a);
    return st;
}

static const char *const corpus_dirs[] = {"../shared/corpus/grf", "../shared/corpus/scn", "../shared/corpus/pid"};

/* Trespasser file formats, "SPZ": data 9D 77 EE F3 1A 40 74 F6 F0 FA F0 02. The document's
 * table decodes each item (77; 6 x 77; 1A 40 74; 40 74 40; 40 40 40; 02),
 * 17 bytes; its one-line summary drops "74 40" (a typo there). */
static const uint8_t seed_stream[] = {0x9D, 0x77, 0xEE, 0xF3, 0x1A, 0x40, 0x74, 0xF6, 0xF0, 0xFA, 0xF0, 0x02};
static const uint8_t seed_output[] = {0x77, 0x77, 0x77, 0x77, 0x77, 0x77, 0x77, 0x1A, 0x40, 0x74,
                                      0x40, 0x74, 0x40, 0x40, 0x40, 0x40, 0x02};

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

static void make_random(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd();
}
static void make_repetitive(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)("abcabcabd"[i % 9] + (i / 5000));
}
/* low-entropy text-like data: words from a small alphabet */
static void make_texty(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) p[i] = (rnd() % 7 == 0) ? ' ' : (uint8_t)('a' + rnd() % 4);
}

static uint8_t *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(sz > 0 ? (size_t)sz : 1);
    *n = fread(p, 1, (size_t)sz, f);
    fclose(f);
    return p;
}

/* encode, then decode both ways; returns the encoded size */
static size_t roundtrip(relic_lzss_variant v, relic_lzss_level level, const uint8_t *src, size_t n)
{
    relic_buf z;
    relic_error err;
    relic_buf_init(&z, 0);
    assert_int_equal(encode_scratch(v, level, src, n, &z, &err), RELIC_OK);
    uint8_t *back = malloc(n + 1);
    assert_int_equal(relic_lzss_decode_buffer(v, z.data, z.size, back, n, &err), RELIC_OK);
    assert_memory_equal(back, src, n);
    /* the streaming decoder agrees */
    relic_stream d;
    decoder_init(&d, v);
    memset(back, 0, n);
    d.next_in = z.data;
    d.avail_in = z.size;
    d.next_out = back;
    d.avail_out = n;
    assert_int_equal(relic_stream_run(&d, RELIC_STREAM_FINISH, &err), RELIC_STREAM_DONE);
    assert_int_equal(d.total_out, n);
    assert_memory_equal(back, src, n);
    free(back);
    size_t out = z.size;
    relic_buf_free(&z);
    return out;
}

static void test_seed_example_decodes(void **state)
{
    (void)state;
    uint8_t out[sizeof seed_output];
    relic_error err;
    assert_int_equal(relic_lzss_decode_buffer(RELIC_LZSS_SPZ, seed_stream, sizeof seed_stream, out, sizeof out, &err), RELIC_OK);
    assert_memory_equal(out, seed_output, sizeof out);
    uint64_t size = 0;
    assert_int_equal(relic_lzss_decoded_size(RELIC_LZSS_SPZ, seed_stream, sizeof seed_stream, &size, &err), RELIC_OK);
    assert_int_equal(size, sizeof seed_output);
}

static void test_seed_example_as_spz_file(void **state)
{
    (void)state;
    uint8_t file[4 + sizeof seed_stream];
    relic_store_u32le(file, sizeof seed_output);
    memcpy(file + 4, seed_stream, sizeof seed_stream);
    relic_arena a;
    relic_bytes out;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_lzss_container_decode(file, sizeof file, RELIC_LZSS_SPZ, 1 << 20, &a, &out, &err), RELIC_OK);
    assert_int_equal(out.size, sizeof seed_output);
    assert_memory_equal(out.data, seed_output, out.size);
    relic_arena_release(&a);
}

static void test_codec_contract_exact_size(void **state)
{
    (void)state;
    uint8_t out[64];
    relic_error err;
    assert_int_equal(relic_codec_lzss_decode(seed_stream, sizeof seed_stream, out, 17, NULL, &err), RELIC_OK);
    assert_int_equal(relic_codec_lzss_decode(seed_stream, sizeof seed_stream, out, 16, NULL, &err), RELIC_E_LAYOUT);
    assert_int_equal(relic_codec_lzss_decode(seed_stream, sizeof seed_stream, out, 18, NULL, &err), RELIC_E_TRUNCATED);
    /* cut between the two bytes of the last match */
    assert_int_equal(relic_codec_lzss_decode(seed_stream, 10, out, 13, NULL, &err), RELIC_E_TRUNCATED);
    assert_int_equal(err.offset, 10);
}

static void test_stream_may_end_inside_a_flag_group(void **state)
{
    (void)state;
    /* flag byte 0xFF promises 8 literals, only 2 follow: 2 bytes out */
    const uint8_t s[] = {0xFF, 'a', 'b'};
    uint8_t out[2];
    relic_error err;
    assert_int_equal(relic_lzss_decode_buffer(RELIC_LZSS_SPZ, s, sizeof s, out, 2, &err), RELIC_OK);
    assert_memory_equal(out, "ab", 2);
}

static void test_fill_before_start_spz_zero_szdd_space(void **state)
{
    (void)state;
    /* a match from the ring position just before the start reads the fill */
    const uint8_t spz[] = {0x00, (uint8_t)((4078 - 4) & 0xFF), (uint8_t)((((4078 - 4) >> 4) & 0xF0) | 1)};
    const uint8_t szdd[] = {0x00, (uint8_t)((4080 - 4) & 0xFF), (uint8_t)((((4080 - 4) >> 4) & 0xF0) | 1)};
    uint8_t out[4];
    relic_error err;
    assert_int_equal(relic_lzss_decode_buffer(RELIC_LZSS_SPZ, spz, sizeof spz, out, 4, &err), RELIC_OK);
    assert_memory_equal(out, "\0\0\0\0", 4);
    assert_int_equal(relic_lzss_decode_buffer(RELIC_LZSS_SZDD, szdd, sizeof szdd, out, 4, &err), RELIC_OK);
    assert_memory_equal(out, "    ", 4);
}

static void test_roundtrip_random_repetitive_texty_all_levels(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 1, 2, 3, 17, 18, 19, 100, 4095, 4096, 4097, 70000};
    rng_state = 42;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        uint8_t *buf = malloc(n + 1);
        for (int kind = 0; kind < 4; kind++) {
            if (kind == 0) make_random(buf, n);
            else if (kind == 1) make_repetitive(buf, n);
            else if (kind == 2) make_texty(buf, n);
            else memset(buf, 0, n);
            for (int v = 0; v < 2; v++) {
                size_t fast = roundtrip((relic_lzss_variant)v, RELIC_LZSS_FAST, buf, n);
                size_t greedy = roundtrip((relic_lzss_variant)v, RELIC_LZSS_GREEDY, buf, n);
                size_t best = roundtrip((relic_lzss_variant)v, RELIC_LZSS_BEST, buf, n);
                assert_true(best <= greedy);
                (void)fast;
            }
        }
        free(buf);
    }
}

static void test_real_files_roundtrip_and_best_not_worse(void **state)
{
    (void)state;
    int found = 0;
    for (size_t k = 0; k < sizeof corpus_dirs / sizeof corpus_dirs[0]; k++) {
        DIR *d = opendir(corpus_dirs[k]);
        if (!d) continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", corpus_dirs[k], e->d_name);
            size_t n;
            uint8_t *p = read_file(path, &n);
            if (!p) continue;
            if (n > (1u << 20)) n = 1u << 20; /* the first MiB keeps the test quick */
            size_t fast = roundtrip(RELIC_LZSS_SPZ, RELIC_LZSS_FAST, p, n);
            size_t greedy = roundtrip(RELIC_LZSS_SPZ, RELIC_LZSS_GREEDY, p, n);
            size_t best = roundtrip(RELIC_LZSS_SPZ, RELIC_LZSS_BEST, p, n);
            print_message("%s: %zu bytes -> fast %zu, greedy %zu, best %zu\n", e->d_name, n, fast, greedy, best);
            assert_true(best <= greedy);
            found++;
            free(p);
        }
        closedir(d);
    }
    if (!found) print_message("note: ../shared/corpus not found: the real-data part of this test is skipped\n");
}

static void test_streaming_one_byte_buffers(void **state)
{
    (void)state;
    size_t n = 20000;
    uint8_t *src = malloc(n), *back = malloc(n);
    rng_state = 7;
    make_texty(src, n);
    relic_buf z;
    relic_error err;
    relic_buf_init(&z, 0);
    assert_int_equal(encode_scratch(RELIC_LZSS_SPZ, RELIC_LZSS_BEST, src, n, &z, &err), RELIC_OK);
    relic_stream d;
    decoder_init(&d, RELIC_LZSS_SPZ);
    size_t in = 0, out = 0;
    relic_stream_status res;
    do {
        d.next_in = z.data + in;
        d.avail_in = in < z.size ? 1 : 0;
        d.next_out = back + out;
        d.avail_out = out < n ? 1 : 0;
        res = relic_stream_run(&d, in >= z.size ? RELIC_STREAM_FINISH : RELIC_STREAM_MORE, &err);
        in += (size_t)(d.next_in - (z.data + in));
        out = (size_t)d.total_out;
        assert_true(res != RELIC_STREAM_ERROR);
    } while (res != RELIC_STREAM_DONE);
    assert_int_equal(out, n);
    assert_memory_equal(back, src, n);
    relic_buf_free(&z);
    free(src);
    free(back);
}

/* Uneven buffers of 150..5000 bytes: the group fast path runs with its history
 * partly in the output of earlier calls (the ring) and partly in this call's
 * output, on data whose matches reach back across call boundaries. */
static void test_streaming_uneven_buffers_use_the_ring_across_calls(void **state)
{
    (void)state;
    size_t n = 300000;
    uint8_t *src = malloc(n), *back = malloc(n);
    rng_state = 11;
    make_texty(src, n / 3);
    make_repetitive(src + n / 3, n / 3);
    make_random(src + 2 * (n / 3), n - 2 * (n / 3));
    for (int v = 0; v < 2; v++) {
        relic_buf z;
        relic_error err;
        relic_buf_init(&z, 0);
        assert_int_equal(encode_scratch((relic_lzss_variant)v, RELIC_LZSS_FAST, src, n, &z, &err), RELIC_OK);
        relic_stream d;
        decoder_init(&d, (relic_lzss_variant)v);
        size_t in = 0;
        relic_stream_status res;
        memset(back, 0, n);
        do {
            size_t ichunk = 17 + rnd() % 3000, ochunk = 150 + rnd() % 4850;
            d.next_in = z.data + in;
            d.avail_in = z.size - in < ichunk ? z.size - in : ichunk;
            d.next_out = back + d.total_out;
            d.avail_out = n - d.total_out < ochunk ? n - d.total_out : ochunk;
            res = relic_stream_run(&d, in + d.avail_in == z.size ? RELIC_STREAM_FINISH : RELIC_STREAM_MORE, &err);
            in = (size_t)(d.next_in - z.data);
            assert_true(res != RELIC_STREAM_ERROR);
        } while (res != RELIC_STREAM_DONE);
        assert_int_equal(d.total_out, n);
        assert_memory_equal(back, src, n);
        relic_buf_free(&z);
    }
    free(src);
    free(back);
}

static void test_decoder_memory_is_the_ring(void **state)
{
    (void)state;
    /* the whole state is the ring plus a few words, from the caller's arena */
    static uint8_t mem[RELIC_LZSS_RING + 256];
    relic_arena a;
    relic_arena_init_buffer(&a, mem, sizeof mem);
    relic_stream s;
    relic_error err;
    assert_int_equal(relic_lzss_decode_init(&s, RELIC_LZSS_SPZ, &a, &err), RELIC_OK);
    relic_arena_init_buffer(&a, mem, RELIC_LZSS_RING);
    assert_int_equal(relic_lzss_decode_init(&s, RELIC_LZSS_SPZ, &a, &err), RELIC_E_NOMEM);
}

static void test_szdd_header_roundtrip(void **state)
{
    (void)state;
    const char *text = "Trespasser GROFF test data, test data, test data.";
    relic_buf f;
    relic_error err;
    relic_buf_init(&f, 0);
    relic_arena sa; /* encoder scratch */
    relic_arena_init_heap(&sa, 0);
    assert_int_equal(relic_lzss_container_encode(RELIC_LZSS_SZDD, RELIC_LZSS_BEST, 'f', (const uint8_t *)text, strlen(text), &sa, &f, &err), RELIC_OK);
    relic_arena_release(&sa);
    assert_true(relic_szdd_is(f.data, f.size));
    relic_lzss_container c;
    assert_int_equal(relic_szdd_header(f.data, f.size, &c, &err), RELIC_OK);
    assert_int_equal(c.decoded_size, strlen(text));
    assert_int_equal(c.missing_char, 'f');
    assert_int_equal(c.stream_offset, 14);
    relic_arena a;
    relic_bytes out;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_lzss_container_decode(f.data, f.size, RELIC_LZSS_SZDD, 1 << 20, &a, &out, &err), RELIC_OK);
    assert_memory_equal(out.data, text, strlen(text));
    /* a wrong mode byte is named */
    f.data[8] = 'B';
    assert_int_equal(relic_szdd_header(f.data, f.size, &c, &err), RELIC_E_MAGIC);
    assert_string_equal(err.path, "szdd.mode");
    assert_int_equal(relic_szdd_header(f.data, 13, &c, &err), RELIC_E_TRUNCATED);
    relic_arena_release(&a);
    relic_buf_free(&f);
}

static void test_spz_declared_size_limit_and_bound(void **state)
{
    (void)state;
    uint8_t file[8] = {0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 'a', 'b', 'c'};
    relic_arena a;
    relic_bytes out;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_lzss_container_decode(file, sizeof file, RELIC_LZSS_SPZ, 1 << 20, &a, &out, &err), RELIC_E_LIMIT);
    assert_int_equal(relic_spz_header(file, 3, &(relic_lzss_container){0}, &err), RELIC_E_TRUNCATED);
    /* a size the stream cannot reach is refused before allocating it */
    relic_store_u32le(file, 1000);
    assert_int_equal(relic_lzss_container_decode(file, sizeof file, RELIC_LZSS_SPZ, 1 << 20, &a, &out, &err), RELIC_E_LAYOUT);
    assert_int_equal(relic_lzss_max_decoded_size(4), 144);
    assert_int_equal(relic_lzss_max_decoded_size(17), 144);
    assert_int_equal(relic_lzss_max_decoded_size(18), 288);
    relic_arena_release(&a);
}

static void test_truncation_and_mutation_never_crash(void **state)
{
    (void)state;
    size_t n = 30000;
    uint8_t *src = malloc(n), *dst = malloc(n + 64);
    rng_state = 99;
    make_texty(src, n);
    relic_buf z;
    relic_error err;
    relic_buf_init(&z, 0);
    assert_int_equal(encode_scratch(RELIC_LZSS_SPZ, RELIC_LZSS_GREEDY, src, n, &z, &err), RELIC_OK);
    for (int cut = 0; cut < 64; cut++) {
        size_t len = z.size * (size_t)cut / 64;
        relic_status st = relic_lzss_decode_buffer(RELIC_LZSS_SPZ, z.data, len, dst, n, &err);
        assert_int_not_equal(st, RELIC_OK);
        assert_true(err.message[0] != 0);
    }
    uint8_t *m = malloc(z.size);
    for (int i = 0; i < 2000; i++) {
        memcpy(m, z.data, z.size);
        m[rnd() % z.size] = (uint8_t)rnd();
        relic_status st = relic_lzss_decode_buffer(RELIC_LZSS_SPZ, m, z.size, dst, n, &err);
        assert_true(st == RELIC_OK || err.message[0] != 0);
        uint64_t size;
        (void)relic_lzss_decoded_size(RELIC_LZSS_SZDD, m, z.size, &size, &err);
    }
    free(m);
    relic_buf_free(&z);
    free(src);
    free(dst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_example_decodes),
        cmocka_unit_test(test_seed_example_as_spz_file),
        cmocka_unit_test(test_codec_contract_exact_size),
        cmocka_unit_test(test_stream_may_end_inside_a_flag_group),
        cmocka_unit_test(test_fill_before_start_spz_zero_szdd_space),
        cmocka_unit_test(test_roundtrip_random_repetitive_texty_all_levels),
        cmocka_unit_test(test_real_files_roundtrip_and_best_not_worse),
        cmocka_unit_test(test_streaming_one_byte_buffers),
        cmocka_unit_test(test_streaming_uneven_buffers_use_the_ring_across_calls),
        cmocka_unit_test(test_decoder_memory_is_the_ring),
        cmocka_unit_test(test_szdd_header_roundtrip),
        cmocka_unit_test(test_spz_declared_size_limit_and_bound),
        cmocka_unit_test(test_truncation_and_mutation_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
