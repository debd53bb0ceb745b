/* test_stream.c — the one streaming contract (relic_stream.h) held by every
 * streaming codec, decoders and encoders alike: LZSS (SPZ and SZDD ring
 * set-ups, the three encoder levels), the SPZ and SZDD files, IMA ADPCM
 * (mono and stereo) and the zlib glue. Each is driven with the whole input
 * at once, one byte in and one byte out per call, and random chunk sizes
 * (zero included), and must give the bytes of its one-call function; the
 * statuses must mean what they say (NEED_INPUT only with avail_in 0,
 * NEED_OUTPUT only with avail_out 0); the number of calls is bounded, so a
 * codec that stops making progress fails instead of hanging. Truncated or
 * inconsistent input ends in ERROR with the byte offset. Inputs: empty,
 * tiny, the project's samples (tests/samples), random and repetitive data
 * larger than the LZSS encoder's 64 KiB window. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "heap_guard.h"
#include "relic_adpcm.h"
#include "relic_codec.h"
#include "relic_lzss.h"

#define SAMPLES_DIR "tests/samples"

static uint32_t rng = 1;
static uint32_t rnd(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

/* ---- inputs ---- */

typedef struct input {
    const char *name;
    uint8_t *data;
    size_t size;
} input;

#define MAX_INPUTS 12
static input inputs[MAX_INPUTS];
static size_t n_inputs;

static void add_input(const char *name, uint8_t *data, size_t size)
{
    assert_true(n_inputs < MAX_INPUTS);
    inputs[n_inputs++] = (input){name, data, size};
}

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)n + 1);
    *size = fread(p, 1, (size_t)n, f);
    fclose(f);
    return p;
}

static int setup_inputs(void **state)
{
    (void)state;
    static uint8_t tiny[3] = {'a', 'a', 'a'};
    add_input("empty", NULL, 0);
    add_input("one byte", tiny, 1);
    add_input("three bytes", tiny, 3);
    static const char *const samples[] = {SAMPLES_DIR "/room.wok", SAMPLES_DIR "/door0.dwk", SAMPLES_DIR "/room.obj"};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        size_t n;
        uint8_t *p = read_file(samples[i], &n);
        if (p) add_input(samples[i], p, n);
        else printf("note: %s missing (make samples); that input skipped\n", samples[i]);
    }
    /* more than the encoder's 64 KiB window: its slide runs */
    size_t n = 150000;
    uint8_t *r = malloc(n), *t = malloc(n);
    for (size_t i = 0; i < n; i++) r[i] = (uint8_t)rnd();
    for (size_t i = 0; i < n; i++) t[i] = i % 4000 < 2500 ? (uint8_t)("the quick brown fox "[i % 20]) : (uint8_t)(rnd() % 5);
    add_input("random 150000", r, n);
    add_input("texty 150000", t, n);
    return 0;
}

static int teardown_inputs(void **state)
{
    (void)state;
    for (size_t i = 3; i < n_inputs; i++) free(inputs[i].data);
    n_inputs = 0;
    return 0;
}

/* ---- the codecs under test ---- */

typedef enum kind {
    LZSS_DECODE,
    LZSS_ENCODE,
    FILE_DECODE,
    FILE_ENCODE,
    ADPCM_DECODE,
    ADPCM_ENCODE,
    ZLIB_DECODE,
    ZLIB_ENCODE
} kind;

typedef struct codec {
    kind k;
    relic_lzss_variant v; /* LZSS, files */
    int level;            /* LZSS encoder, zlib encoder */
    uint32_t align;       /* ADPCM */
    unsigned channels;    /* ADPCM */
    uint64_t size;        /* FILE_ENCODE: the declared input size */
} codec;

static relic_status open_codec(const codec *c, relic_stream *s, relic_arena *a, relic_error *err)
{
    switch (c->k) {
    case LZSS_DECODE: return relic_lzss_decode_init(s, c->v, a, err);
    case LZSS_ENCODE: return relic_lzss_encode_init(s, c->v, (relic_lzss_level)c->level, a, err);
    case FILE_DECODE: return relic_lzss_container_decode_init(s, c->v, UINT32_MAX, a, err);
    case FILE_ENCODE: return relic_lzss_container_encode_init(s, c->v, (relic_lzss_level)c->level, 'x', c->size, a, err);
    case ADPCM_DECODE: return relic_adpcm_decode_init(s, c->align, c->channels, 0, a, err);
    case ADPCM_ENCODE: return relic_adpcm_encode_init(s, c->align, c->channels, a, err);
    case ZLIB_DECODE: return relic_codec_zlib_decode_init(s, a, err);
    case ZLIB_ENCODE: return relic_codec_zlib_encode_init(s, c->level, a, err);
    }
    return RELIC_E_ARGUMENT;
}

typedef enum chunking { WHOLE,
                        ONE_BYTE,
                        RANDOM } chunking;

/* Drive s over in[0..n) until DONE or ERROR, appending the output to out.
 * Asserts the meaning of each status and a bound on the number of calls
 * (every call but the last must move a byte in or out). */
static relic_status drive(relic_stream *s, const uint8_t *in, size_t n, chunking ch, size_t expect_out, relic_buf *out,
                          relic_error *err)
{
    size_t in_at = 0;
    uint64_t max_calls = 4 * ((uint64_t)n + expect_out) + 1000;
    for (uint64_t k = 0;; k++) {
        assert_true(k < max_calls);
        size_t give = n - in_at, room = ch == WHOLE ? expect_out + 4096 : 1;
        if (ch == ONE_BYTE && give > 1) give = 1;
        if (ch == RANDOM) {
            size_t g = rnd() % 8 == 0 ? 0 : 1 + rnd() % 5000;
            if (give > g) give = g;
            room = rnd() % 8 == 0 ? 0 : 1 + rnd() % 3000;
        }
        uint8_t *o = relic_buf_extend(out, room + 1);
        assert_non_null(o);
        out->size -= 1;
        /* empty buffers as NULL, as callers may pass them */
        s->next_in = give ? in + in_at : NULL;
        s->avail_in = give;
        s->next_out = room ? o : NULL;
        s->avail_out = room;
        relic_stream_flush flush = in_at + give == n ? RELIC_STREAM_FINISH : RELIC_STREAM_MORE;
        uint64_t tin = s->total_in, tout = s->total_out;
        relic_stream_status st = relic_stream_run(s, flush, err);
        out->size -= s->avail_out;
        in_at += give - s->avail_in;
        assert_int_equal(s->total_in - tin, give - s->avail_in);
        assert_int_equal(s->total_out - tout, room - s->avail_out);
        if (st == RELIC_STREAM_ERROR) {
            assert_true(err->message[0] != 0);
            /* sticky: the stream says ERROR again */
            s->avail_in = 0;
            s->avail_out = 0;
            relic_error again;
            assert_int_equal(relic_stream_run(s, RELIC_STREAM_FINISH, &again), RELIC_STREAM_ERROR);
            return err->code;
        }
        if (st == RELIC_STREAM_DONE) {
            s->avail_in = 0;
            s->avail_out = 0;
            assert_int_equal(relic_stream_run(s, RELIC_STREAM_FINISH, err), RELIC_STREAM_DONE);
            return RELIC_OK;
        }
        if (st == RELIC_STREAM_NEED_INPUT) {
            assert_int_equal(s->avail_in, 0);
            assert_int_equal(flush, RELIC_STREAM_MORE);
        } else {
            assert_int_equal(st, RELIC_STREAM_NEED_OUTPUT);
            assert_int_equal(s->avail_out, 0);
        }
    }
}

/* Stream in through codec c in every chunking; each must give want[0..nw). */
static void check_streams(const codec *c, const char *what, const uint8_t *in, size_t n, const uint8_t *want, size_t nw)
{
    static const chunking modes[] = {WHOLE, ONE_BYTE, RANDOM, RANDOM};
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        relic_arena a;
        relic_arena_init_heap(&a, 0);
        relic_stream s;
        relic_error err;
        relic_buf out;
        relic_buf_init(&out, 0);
        assert_int_equal(open_codec(c, &s, &a, &err), RELIC_OK);
        relic_status st = drive(&s, in, n, modes[m], nw, &out, &err);
        if (st != RELIC_OK) print_error("%s (mode %zu): %s at %llu\n", what, m, err.message, (unsigned long long)err.offset);
        assert_int_equal(st, RELIC_OK);
        if (out.size != nw || (nw && memcmp(out.data, want, nw) != 0))
            print_error("%s (mode %zu): %zu bytes streamed, %zu from the one-call function\n", what, m, out.size, nw);
        assert_int_equal(out.size, nw);
        if (nw) assert_memory_equal(out.data, want, nw);
        assert_int_equal(s.total_out, nw);
        if (c->k != ZLIB_DECODE) assert_int_equal(s.total_in, n); /* zlib may leave bytes after its end */
        relic_stream_end(&s);
        relic_buf_free(&out);
        relic_arena_release(&a);
    }
}

/* ---- LZSS and its files ---- */

static void lzss_one_call(relic_lzss_variant v, int level, const uint8_t *src, size_t n, relic_buf *z)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_error err;
    relic_buf_init(z, 0);
    assert_int_equal(relic_lzss_encode(v, (relic_lzss_level)level, src, n, &a, z, &err), RELIC_OK);
    relic_arena_release(&a);
}

static void test_lzss_encoder_streams_the_one_call_bytes(void **state)
{
    (void)state;
    for (int v = RELIC_LZSS_SPZ; v <= RELIC_LZSS_SZDD; v++)
        for (int level = RELIC_LZSS_FAST; level <= RELIC_LZSS_BEST; level++)
            for (size_t i = 0; i < n_inputs; i++) {
                relic_buf z;
                lzss_one_call((relic_lzss_variant)v, level, inputs[i].data, inputs[i].size, &z);
                codec c = {LZSS_ENCODE, (relic_lzss_variant)v, level, 0, 0, 0};
                check_streams(&c, inputs[i].name, inputs[i].data, inputs[i].size, z.data, z.size);
                relic_buf_free(&z);
            }
}

static void test_lzss_decoder_streams_the_one_call_bytes(void **state)
{
    (void)state;
    for (int v = RELIC_LZSS_SPZ; v <= RELIC_LZSS_SZDD; v++)
        for (size_t i = 0; i < n_inputs; i++) {
            relic_buf z;
            lzss_one_call((relic_lzss_variant)v, RELIC_LZSS_GREEDY, inputs[i].data, inputs[i].size, &z);
            uint8_t *back = malloc(inputs[i].size + 1);
            relic_error err;
            assert_int_equal(relic_lzss_decode_buffer((relic_lzss_variant)v, z.data, z.size, back, inputs[i].size, &err), RELIC_OK);
            codec c = {LZSS_DECODE, (relic_lzss_variant)v, 0, 0, 0, 0};
            check_streams(&c, inputs[i].name, z.data, z.size, back, inputs[i].size);
            free(back);
            relic_buf_free(&z);
        }
}

static void test_spz_and_szdd_files_stream_both_ways(void **state)
{
    (void)state;
    for (int v = RELIC_LZSS_SPZ; v <= RELIC_LZSS_SZDD; v++)
        for (int level = RELIC_LZSS_FAST; level <= RELIC_LZSS_BEST; level += 2)
            for (size_t i = 0; i < n_inputs; i++) {
                relic_arena a;
                relic_arena_init_heap(&a, 0);
                relic_error err;
                relic_buf file;
                relic_buf_init(&file, 0);
                assert_int_equal(relic_lzss_container_encode((relic_lzss_variant)v, (relic_lzss_level)level, 'x',
                                                             inputs[i].data, inputs[i].size, &a, &file, &err),
                                 RELIC_OK);
                codec enc = {FILE_ENCODE, (relic_lzss_variant)v, level, 0, 0, inputs[i].size};
                check_streams(&enc, inputs[i].name, inputs[i].data, inputs[i].size, file.data, file.size);
                relic_bytes back;
                assert_int_equal(relic_lzss_container_decode(file.data, file.size, (relic_lzss_variant)v, UINT32_MAX, &a,
                                                             &back, &err),
                                 RELIC_OK);
                assert_int_equal(back.size, inputs[i].size);
                codec dec = {FILE_DECODE, (relic_lzss_variant)v, 0, 0, 0, 0};
                check_streams(&dec, inputs[i].name, file.data, file.size, back.data, back.size);
                relic_buf_free(&file);
                relic_arena_release(&a);
            }
}

/* ---- IMA ADPCM ---- */

static void test_adpcm_streams_the_one_call_bytes_both_ways(void **state)
{
    (void)state;
    static const struct {
        uint32_t align;
        unsigned ch;
    } shapes[] = {{1028, 1}, {2056, 2}, {37, 1}, {24, 2}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
        for (size_t i = 0; i < n_inputs; i++) {
            const uint32_t A = shapes[k].align;
            const unsigned ch = shapes[k].ch;
            /* the input's bytes as 16-bit LE PCM, whole frames */
            size_t frames = inputs[i].size / (2u * ch), pn = frames * 2u * ch;
            int16_t *pcm = malloc(frames * ch * sizeof *pcm + 1);
            for (size_t j = 0; j < frames * ch; j++) pcm[j] = (int16_t)relic_load_u16le(inputs[i].data + 2 * j);
            relic_arena a;
            relic_arena_init_heap(&a, 0);
            relic_error err;
            relic_buf enc;
            relic_buf_init(&enc, 0);
            assert_int_equal(relic_adpcm_encode(pcm, frames, ch, A, &a, &enc, &err), RELIC_OK);
            codec e = {ADPCM_ENCODE, 0, 0, A, ch, 0};
            check_streams(&e, inputs[i].name, inputs[i].data, pn, enc.data, enc.size);
            /* decode: the encoded bytes, and the one-call decoder's output as LE bytes */
            size_t cap = (size_t)relic_adpcm_frames(enc.size, A, ch) * ch, got;
            int16_t *dec = malloc(cap * sizeof *dec + 1);
            assert_int_equal(relic_adpcm_decode(enc.data, enc.size, A, ch, 0, dec, cap, &got, &err), RELIC_OK);
            uint8_t *le = malloc(2 * cap + 1);
            for (size_t j = 0; j < cap; j++) relic_store_u16le(le + 2 * j, (uint16_t)dec[j]);
            codec d = {ADPCM_DECODE, 0, 0, A, ch, 0};
            check_streams(&d, inputs[i].name, enc.data, enc.size, le, 2 * cap);
            free(le);
            free(dec);
            free(pcm);
            relic_buf_free(&enc);
            relic_arena_release(&a);
        }
}

/* ---- zlib glue ---- */

static void test_zlib_streams_the_one_call_bytes_both_ways(void **state)
{
    (void)state;
    static const int levels[] = {1, 6, 9};
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++)
        for (size_t i = 0; i < n_inputs; i++) {
            relic_arena a;
            relic_arena_init_heap(&a, 0);
            relic_error err;
            relic_buf z;
            relic_buf_init(&z, 0);
            assert_int_equal(relic_codec_zlib_encode(inputs[i].data, inputs[i].size, levels[l], &a, &z, &err), RELIC_OK);
            codec e = {ZLIB_ENCODE, 0, levels[l], 0, 0, 0};
            check_streams(&e, inputs[i].name, inputs[i].data, inputs[i].size, z.data, z.size);
            uint8_t *back = malloc(inputs[i].size + 1);
            assert_int_equal(relic_codec_zlib_decode(z.data, z.size, back, inputs[i].size, &a, &err), RELIC_OK);
            codec d = {ZLIB_DECODE, 0, 0, 0, 0, 0};
            check_streams(&d, inputs[i].name, z.data, z.size, back, inputs[i].size);
            free(back);
            relic_buf_free(&z);
            relic_arena_release(&a);
        }
}

/* ---- errors: truncated and inconsistent input, one byte at a time ---- */

/* Drive codec c one byte at a time over in[0..n); expect ERROR with code at offset. */
static void expect_error(const codec *c, const uint8_t *in, size_t n, relic_status code, uint64_t offset)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_stream s;
    relic_error err;
    relic_buf out;
    relic_buf_init(&out, 0);
    assert_int_equal(open_codec(c, &s, &a, &err), RELIC_OK);
    relic_status st = drive(&s, in, n, ONE_BYTE, 2 * n + 4096, &out, &err);
    if (st != code || err.offset != offset)
        print_error("kind %d: status %d at %llu (%s), expected %d at %llu\n", (int)c->k, (int)st,
                    (unsigned long long)err.offset, err.message, (int)code, (unsigned long long)offset);
    assert_int_equal(st, code);
    assert_int_equal(err.offset, offset);
    relic_stream_end(&s);
    relic_buf_free(&out);
    relic_arena_release(&a);
}

static void test_lzss_input_ending_inside_a_match_is_an_error_at_its_offset(void **state)
{
    (void)state;
    static const uint8_t cut[] = {0x01, 'a', 0x00}; /* a literal, then the first byte of a match */
    codec c = {LZSS_DECODE, RELIC_LZSS_SPZ, 0, 0, 0, 0};
    expect_error(&c, cut, sizeof cut, RELIC_E_TRUNCATED, 3);
}

static void test_truncated_spz_and_szdd_files_are_errors_at_their_offsets(void **state)
{
    (void)state;
    const input *in = &inputs[n_inputs - 1];
    for (int v = RELIC_LZSS_SPZ; v <= RELIC_LZSS_SZDD; v++) {
        relic_arena a;
        relic_arena_init_heap(&a, 0);
        relic_error err;
        relic_buf file;
        relic_buf_init(&file, 0);
        assert_int_equal(relic_lzss_container_encode((relic_lzss_variant)v, RELIC_LZSS_FAST, 0, in->data, in->size, &a,
                                                     &file, &err),
                         RELIC_OK);
        codec c = {FILE_DECODE, (relic_lzss_variant)v, 0, 0, 0, 0};
        /* the stream cut at an item boundary or inside a match: fewer bytes than declared, at the cut */
        size_t cut = file.size / 2;
        relic_status code = RELIC_E_TRUNCATED;
        expect_error(&c, file.data, cut, code, cut);
        /* the header itself cut short */
        expect_error(&c, file.data, 3, RELIC_E_TRUNCATED, 3);
        /* a declared size smaller than the stream: more than declared */
        relic_store_u32le(file.data + (v == RELIC_LZSS_SZDD ? 10 : 0), 100);
        relic_arena b;
        relic_arena_init_heap(&b, 0);
        relic_stream s;
        relic_buf out;
        relic_buf_init(&out, 0);
        assert_int_equal(open_codec(&c, &s, &b, &err), RELIC_OK);
        assert_int_equal(drive(&s, file.data, file.size, ONE_BYTE, file.size, &out, &err), RELIC_E_LAYOUT);
        assert_int_equal(out.size, 100);
        relic_buf_free(&out);
        relic_arena_release(&b);
        relic_buf_free(&file);
        relic_arena_release(&a);
    }
}

static void test_file_encoder_rejects_input_of_another_length_than_declared(void **state)
{
    (void)state;
    static const uint8_t in[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    codec fewer = {FILE_ENCODE, RELIC_LZSS_SZDD, RELIC_LZSS_GREEDY, 0, 0, 11};
    expect_error(&fewer, in, sizeof in, RELIC_E_LAYOUT, 10);
    codec more = {FILE_ENCODE, RELIC_LZSS_SPZ, RELIC_LZSS_FAST, 0, 0, 9};
    expect_error(&more, in, sizeof in, RELIC_E_LAYOUT, 9);
}

static void test_adpcm_errors_carry_their_stream_offsets(void **state)
{
    (void)state;
    uint8_t in[3 * 40];
    memset(in, 0, sizeof in);
    in[2 * 40 + 2] = 89; /* the third block's step index */
    codec d = {ADPCM_DECODE, 0, 0, 40, 1, 0};
    expect_error(&d, in, sizeof in, RELIC_E_RANGE, 2 * 40 + 2);
    codec e = {ADPCM_ENCODE, 0, 0, 2056, 2, 0};
    expect_error(&e, in, 7, RELIC_E_TRUNCATED, 7); /* a stereo frame is 4 bytes */
}

static void test_truncated_zlib_is_an_error_at_its_end(void **state)
{
    (void)state;
    const input *in = &inputs[n_inputs - 1];
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_error err;
    relic_buf z;
    relic_buf_init(&z, 0);
    assert_int_equal(relic_codec_zlib_encode(in->data, in->size, 6, &a, &z, &err), RELIC_OK);
    codec d = {ZLIB_DECODE, 0, 0, 0, 0, 0};
    expect_error(&d, z.data, z.size - 5, RELIC_E_TRUNCATED, z.size - 5);
    z.data[z.size / 2] ^= 0xFF; /* corrupt: an error, never a hang */
    relic_arena b;
    relic_arena_init_heap(&b, 0);
    relic_stream s;
    relic_buf out;
    relic_buf_init(&out, 0);
    assert_int_equal(open_codec(&d, &s, &b, &err), RELIC_OK);
    relic_status st = drive(&s, z.data, z.size, ONE_BYTE, 2 * in->size, &out, &err);
    assert_true(st == RELIC_E_RANGE || st == RELIC_E_TRUNCATED);
    assert_true(err.offset <= z.size);
    relic_stream_end(&s);
    relic_buf_free(&out);
    relic_arena_release(&b);
    relic_buf_free(&z);
    relic_arena_release(&a);
}

static void test_run_on_a_stream_never_set_up_is_an_argument_error(void **state)
{
    (void)state;
    relic_stream s;
    memset(&s, 0, sizeof s);
    relic_error err;
    assert_int_equal(relic_stream_run(&s, RELIC_STREAM_FINISH, &err), RELIC_STREAM_ERROR);
    assert_int_equal(err.code, RELIC_E_ARGUMENT);
    relic_stream_end(&s); /* harmless */
}

/* ---- memory: the caller's arena, nothing from the heap ---- */

static void test_every_codec_takes_its_memory_from_the_arena_only(void **state)
{
    (void)state;
    static uint8_t mem[4u << 20];
    static uint8_t out[1u << 16];
    const input *in = &inputs[4 < n_inputs ? 3 : n_inputs - 1];
    const codec codecs[] = {
        {LZSS_DECODE, RELIC_LZSS_SPZ, 0, 0, 0, 0},
        {LZSS_ENCODE, RELIC_LZSS_SPZ, RELIC_LZSS_FAST, 0, 0, 0},
        {LZSS_ENCODE, RELIC_LZSS_SZDD, RELIC_LZSS_GREEDY, 0, 0, 0},
        {LZSS_ENCODE, RELIC_LZSS_SPZ, RELIC_LZSS_BEST, 0, 0, 0},
        {FILE_ENCODE, RELIC_LZSS_SZDD, RELIC_LZSS_FAST, 0, 0, in->size},
        {ADPCM_ENCODE, 0, 0, 1028, 1, 0},
        {ADPCM_DECODE, 0, 0, 2056, 2, 0},
        {ZLIB_ENCODE, 0, 6, 0, 0, 0},
        {ZLIB_DECODE, 0, 0, 0, 0, 0},
    };
    for (size_t k = 0; k < sizeof codecs / sizeof codecs[0]; k++) {
        codec c = codecs[k];
        relic_arena a;
        relic_arena_init_buffer(&a, mem, sizeof mem);
        relic_stream s;
        relic_error err;
        heap_guard_arm();
        assert_int_equal(open_codec(&c, &s, &a, &err), RELIC_OK);
        s.next_in = in->data;
        s.avail_in = in->size & ~(size_t)3;
        relic_stream_status st;
        do {
            s.next_out = out;
            s.avail_out = sizeof out;
            st = relic_stream_run(&s, RELIC_STREAM_FINISH, &err);
        } while (st == RELIC_STREAM_NEED_OUTPUT);
        relic_stream_end(&s);
        unsigned long calls = heap_guard_disarm();
        /* the decoders read the input as whatever it is: an error is fine, a heap call is not */
        (void)st;
        assert_int_equal(calls, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lzss_encoder_streams_the_one_call_bytes),
        cmocka_unit_test(test_lzss_decoder_streams_the_one_call_bytes),
        cmocka_unit_test(test_spz_and_szdd_files_stream_both_ways),
        cmocka_unit_test(test_adpcm_streams_the_one_call_bytes_both_ways),
        cmocka_unit_test(test_zlib_streams_the_one_call_bytes_both_ways),
        cmocka_unit_test(test_lzss_input_ending_inside_a_match_is_an_error_at_its_offset),
        cmocka_unit_test(test_truncated_spz_and_szdd_files_are_errors_at_their_offsets),
        cmocka_unit_test(test_file_encoder_rejects_input_of_another_length_than_declared),
        cmocka_unit_test(test_adpcm_errors_carry_their_stream_offsets),
        cmocka_unit_test(test_truncated_zlib_is_an_error_at_its_end),
        cmocka_unit_test(test_run_on_a_stream_never_set_up_is_an_argument_error),
        cmocka_unit_test(test_every_codec_takes_its_memory_from_the_arena_only),
    };
    alarm(900); /* a codec that loops inside one call fails the run instead of hanging it */
    return cmocka_run_group_tests(tests, setup_inputs, teardown_inputs);
}
