/* test_audio.c — Trespasser audio end to end: TPA banks and CAU samples
 * through the generated code (validate, byte-exact round trips through the
 * model and JSON, the table rules of runtime/formats/tres/tpa_check.c), the IMA ADPCM
 * codec of runtime/codec/adpcm.c against hand-computed values (Trespasser source, Lib/Audio/AudioADPCM.cpp), the decoded sizes the spec measured (Trespasser source, Lib/Audio/AudioLoad.cpp), sox's
 * decoder when sox is installed, encoder SNR floors, captions (Trespasser source, Lib/Audio/AudioLoad.cpp), the
 * sound hash (Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp), WAV read and written by relic, and truncation and mutation
 * sweeps (run under ASan+UBSan by `make test`). Real files:
 * ../shared/corpus/tpa and ../shared/corpus/cau (skipped, saying so, when
 * absent). */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_pass.h"

#include "relic_audio.h"

/* relic_tpa_check with its scratch in a heap arena freed at once */
static unsigned tpa_check_scratch(const relic_tpa_view *v, const relic_tpa_file *m, int strict,
                                  relic_report_fn report, void *ctx)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    unsigned problems = relic_tpa_check(v, m, strict, &a, report, ctx);
    relic_arena_release(&a);
    return problems;
}

/* relic_adpcm_encode with its search scratch in a heap arena freed at once */
static relic_status adpcm_encode_scratch(const int16_t *pcm, size_t frames, unsigned channels, uint32_t block_align,
                                         relic_buf *out, relic_error *err)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_status st = relic_adpcm_encode(pcm, frames, channels, block_align, &a, out, err);
    relic_arena_release(&a);
    return st;
}

#define TPA_DIR "../shared/corpus/tpa"
#define CAU_DIR "../shared/corpus/cau"

typedef struct file_list {
    char *paths[64];
    int n;
} file_list;

static void list_dir(const char *dir, const char *want, file_list *fl)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) && fl->n < 64) {
        char ext[8];
        relic_path_extension(e->d_name, ext, sizeof ext);
        if (strcmp(ext, want)) continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        fl->paths[fl->n] = malloc(n);
        snprintf(fl->paths[fl->n], n, "%s/%s", dir, e->d_name);
        fl->n++;
    }
    closedir(d);
    for (int i = 1; i < fl->n; i++)
        for (int j = i; j > 0 && strcmp(fl->paths[j - 1], fl->paths[j]) > 0; j--) {
            char *t = fl->paths[j];
            fl->paths[j] = fl->paths[j - 1];
            fl->paths[j - 1] = t;
        }
}

static void free_list(file_list *fl)
{
    for (int i = 0; i < fl->n; i++) free(fl->paths[i]);
    fl->n = 0;
}

static file_list corpus(const char *dir, const char *ext)
{
    file_list fl = {.n = 0};
    list_dir(dir, ext, &fl);
    if (fl.n == 0) print_message("note: %s not found: the real-file part of this test is skipped\n", dir);
    return fl;
}

static void count_problem(void *ctx, const relic_error *e)
{
    print_message("problem: %s @0x%llx: %s\n", e->path, (unsigned long long)e->offset, e->message);
    (*(int *)ctx)++;
}

/* ---- synthetic signals ---------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 32);
}

/* Speech-like: a voiced source (harmonics of a gliding 110-180 Hz pitch)
 * under syllable-rate amplitude modulation with pauses, plus fricative
 * noise bursts. Music-like: a sequence of three-note chords with decaying
 * envelopes. 22050 Hz, interleaved; the right channel is a delayed,
 * quieter copy for stereo. */
static void make_signal(int music, unsigned channels, size_t frames, int16_t *out)
{
    const double rate = 22050.0, pi = 3.14159265358979323846;
    double phase = 0;
    for (size_t i = 0; i < frames; i++) {
        double t = (double)i / rate, v;
        if (!music) {
            double f0 = 145 + 35 * sin(2 * pi * 0.7 * t);
            phase += 2 * pi * f0 / rate;
            double env = fmax(0, sin(2 * pi * 4.0 * t)) * (fmod(t, 1.5) < 1.2 ? 1 : 0);
            v = 0;
            for (int h = 1; h <= 12; h++) v += sin(h * phase) / h;
            v *= 6000 * env;
            if (fmod(t, 0.75) > 0.65) v += ((double)(rnd() % 2001) - 1000) * 3;
        } else {
            static const double chords[4][3] = {{261.6, 329.6, 392.0}, {220.0, 261.6, 329.6}, {174.6, 220.0, 261.6}, {196.0, 246.9, 293.7}};
            int c = (int)(t / 0.5) % 4;
            double tt = fmod(t, 0.5), env = exp(-3 * tt);
            v = 0;
            for (int k = 0; k < 3; k++) v += sin(2 * pi * chords[c][k] * t) + 0.3 * sin(4 * pi * chords[c][k] * t);
            v *= 5000 * env;
        }
        int s = (int)lrint(v);
        s = s > 32767 ? 32767 : s < -32768 ? -32768
                                           : s;
        out[i * channels] = (int16_t)s;
        if (channels == 2) out[i * channels + 1] = (int16_t)(i >= 50 ? out[(i - 50) * channels] / 2 : 0);
    }
}

static double snr_db(const int16_t *a, const int16_t *b, size_t n)
{
    double sig = 0, noise = 0;
    for (size_t i = 0; i < n; i++) {
        sig += (double)a[i] * a[i];
        noise += ((double)a[i] - b[i]) * ((double)a[i] - b[i]);
    }
    return noise == 0 ? 999 : 10 * log10(sig / noise);
}

/* ---- ADPCM: hand-computed values ------------------------------------ */

/* Mono: header 1000 / index 0, then 0xF7 0x08. By Trespasser source, Lib/Audio/AudioADPCM.cpp, low nibble
 * first: 7 at step 7 adds 0+7+3+1 = 11 (an exact multiply would give 13)
 * -> 1011, index 8 (step 16); F adds -(2+16+8+4) -> 981, index 16 (step
 * 34); 8 adds -(34>>3) -> 977, index 15 (step 31); 0 adds 31>>3 -> 980. */
static void test_adpcm_mono_block_decodes_to_hand_computed_samples(void **state)
{
    (void)state;
    const uint8_t blk[] = {0xE8, 0x03, 0x00, 0x00, 0xF7, 0x08};
    int16_t out[8];
    size_t frames;
    relic_error err;
    assert_int_equal(relic_adpcm_decode_block(blk, sizeof blk, 1, 0, out, &frames, &err), RELIC_OK);
    assert_int_equal(frames, 5);
    const int16_t want[] = {1000, 1011, 981, 977, 980};
    for (int i = 0; i < 5; i++) assert_int_equal(out[i], want[i]);
}

/* Stereo: left header 100, right -100, both index 0; then 4 bytes of left
 * nibbles (0x11 0x00 ...) and 4 of right (0x99 0x00 ...). Nibble 1 at step 7
 * adds 7>>3 + 7>>2 = 1; nibble 9 subtracts 1; index stays 0. Frames:
 * (100,-100), (101,-101), (102,-102), then nibble 0 adds 0. */
static void test_adpcm_stereo_block_interleaves_four_byte_groups(void **state)
{
    (void)state;
    const uint8_t blk[16] = {100, 0, 0, 0, 0x9C, 0xFF, 0, 0, 0x11, 0, 0, 0, 0x99, 0, 0, 0};
    int16_t out[18];
    size_t frames;
    relic_error err;
    assert_int_equal(relic_adpcm_decode_block(blk, sizeof blk, 2, 0, out, &frames, &err), RELIC_OK);
    assert_int_equal(frames, 9);
    const int16_t want[] = {100, -100, 101, -101, 102, -102, 102, -102};
    for (int i = 0; i < 8; i++) assert_int_equal(out[i], want[i]);
    assert_int_equal(out[16], 102);
    assert_int_equal(out[17], -102);
}

/* Header 32760 at index 88 (step 32767), nibble 7 overflows: standard
 * clamping gives 32767; the game's mono decoder stores +32768, seen as
 * -32768, and keeps predicting from 32768 (Trespasser source, Lib/Audio/AudioADPCM.cpp quirks). */
static void test_adpcm_positive_overflow_clamps_or_wraps_as_the_game(void **state)
{
    (void)state;
    const uint8_t blk[] = {0xF8, 0x7F, 88, 0, 0x07};
    int16_t out[3];
    size_t frames;
    relic_error err;
    assert_int_equal(relic_adpcm_decode_block(blk, sizeof blk, 1, RELIC_ADPCM_CLAMP, out, &frames, &err), RELIC_OK);
    assert_int_equal(out[1], 32767);
    assert_int_equal(out[2], 32767);
    assert_int_equal(relic_adpcm_decode_block(blk, sizeof blk, 1, RELIC_ADPCM_GAME_MONO_OVERFLOW, out, &frames, &err), RELIC_OK);
    assert_int_equal(out[0], 32760);
    assert_int_equal(out[1], -32768);
    assert_int_equal(out[2], -32768); /* 32768 + 4095 overflows again */
}

static void test_adpcm_step_index_above_88_is_rejected_with_its_offset(void **state)
{
    (void)state;
    uint8_t blk[2 * 1028];
    memset(blk, 0, sizeof blk);
    blk[1028 + 2] = 89;
    int16_t *out = malloc(2 * 2049 * sizeof *out);
    size_t frames;
    relic_error err;
    assert_int_equal(relic_adpcm_decode(blk, sizeof blk, 1028, 1, 0, out, 2 * 2049, &frames, &err), RELIC_E_RANGE);
    assert_int_equal(err.offset, 1028 + 2);
    free(out);
}

/* Trespasser source, Lib/Audio/AudioLoad.cpp: mono 2049 frames per 1028-byte block, a short block of R > 4
 * bytes gives 1 + 2(R-4); stereo 2049 per 2056, R >= 8 gives 1 + 8
 * floor((R-8)/8). */
static void test_adpcm_frame_counts_follow_the_block_formulas(void **state)
{
    (void)state;
    assert_int_equal(relic_adpcm_block_frames(1028, 1), 2049);
    assert_int_equal(relic_adpcm_block_frames(2056, 2), 2049);
    assert_int_equal(relic_adpcm_frames(1028 + 4, 1028, 1), 2049);
    assert_int_equal(relic_adpcm_frames(1028 + 5, 1028, 1), 2052);
    assert_int_equal(relic_adpcm_frames(2056 + 15, 2056, 2), 2050);
    assert_int_equal(relic_adpcm_frames(2056 + 16, 2056, 2), 2058);
    assert_int_equal(relic_adpcm_frames(100, 3, 1), 0); /* invalid block size */
}

/* The decoded sizes Trespasser source, Lib/Audio/AudioLoad.cpp measured on the repository's samples. */
static void test_corpus_adpcm_decodes_to_the_measured_sizes(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        uint64_t bytes;
    } want[] = {
        {"Anne001.cau", 617710},
        {"Anne002.cau", 327196},
        {"Anne004.cau", 63808},
        {"Anne005.cau", 418906},
        {"Music.cau", 3145728},
    };
    file_list fl = corpus(CAU_DIR, "cau");
    int matched = 0;
    for (int i = 0; i < fl.n; i++) {
        for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
            size_t ln = strlen(fl.paths[i]), wn = strlen(want[k].name);
            if (ln < wn || strcmp(fl.paths[i] + ln - wn, want[k].name)) continue;
            relic_mapping mp;
            relic_error err;
            relic_cau_view v;
            assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
            assert_int_equal(relic_cau_validate(mp.bytes.data, mp.bytes.size, &v, &err), RELIC_OK);
            relic_audio_format f;
            relic_audio_format_of_cau(&v.values.header, &f);
            relic_arena a;
            relic_arena_init_heap(&a, 0);
            int16_t *pcm;
            size_t frames;
            assert_int_equal(relic_audio_decode(&f, v.base + v.values.header.data_offset, v.values.header.data_size, 0, &a,
                                                &pcm, &frames, &err),
                             RELIC_OK);
            assert_int_equal((uint64_t)frames * f.channels * 2, want[k].bytes);
            relic_arena_release(&a);
            relic_unmap(&mp);
            matched++;
        }
    }
    if (fl.n) assert_int_equal(matched, 5);
    free_list(&fl);
}

/* ---- ADPCM: streaming and encoder ----------------------------------- */

/* Drive a streaming decoder with input chunks of `give` and output room of
 * `room` bytes (0: everything at once); returns the bytes produced. */
static size_t stream_decode(const uint8_t *in, size_t n, uint32_t A, unsigned ch, size_t give_max, size_t room_max,
                            uint8_t *out, size_t cap)
{
    relic_arena sa; /* the stream's state */
    relic_arena_init_heap(&sa, 0);
    relic_stream ds, *d = &ds;
    relic_error err;
    assert_int_equal(relic_adpcm_decode_init(d, A, ch, 0, &sa, &err), RELIC_OK);
    size_t in_at = 0, out_at = 0;
    relic_stream_status r;
    do {
        size_t give = give_max ? 1 + rnd() % give_max : n, room = room_max ? 1 + rnd() % room_max : cap + 1;
        if (give > n - in_at) give = n - in_at;
        if (room > cap + 1 - out_at) room = cap + 1 - out_at;
        d->next_in = in + in_at;
        d->avail_in = give;
        d->next_out = out + out_at;
        d->avail_out = room;
        r = relic_stream_run(d, (in_at + give == n) ? RELIC_STREAM_FINISH : RELIC_STREAM_MORE, &err);
        assert_true(r != RELIC_STREAM_ERROR);
        in_at += give - d->avail_in;
        out_at += room - d->avail_out;
        assert_true(r == RELIC_STREAM_DONE || d->avail_in == 0 || d->avail_out == 0);
    } while (r != RELIC_STREAM_DONE);
    assert_int_equal(d->total_in, n);
    assert_int_equal(d->total_out, out_at);
    relic_arena_release(&sa);
    return out_at;
}

/* The same for the encoder: 16-bit LE PCM bytes in, ADPCM out. */
static size_t stream_encode(const uint8_t *in, size_t n, uint32_t A, unsigned ch, size_t give_max, size_t room_max,
                            uint8_t *out, size_t cap)
{
    relic_arena sa; /* the stream's state */
    relic_arena_init_heap(&sa, 0);
    relic_stream es, *e = &es;
    relic_error err;
    assert_int_equal(relic_adpcm_encode_init(e, A, ch, &sa, &err), RELIC_OK);
    size_t in_at = 0, out_at = 0;
    relic_stream_status r;
    do {
        size_t give = give_max ? 1 + rnd() % give_max : n, room = room_max ? 1 + rnd() % room_max : cap + 1;
        if (give > n - in_at) give = n - in_at;
        if (room > cap + 1 - out_at) room = cap + 1 - out_at;
        e->next_in = in + in_at;
        e->avail_in = give;
        e->next_out = out + out_at;
        e->avail_out = room;
        r = relic_stream_run(e, (in_at + give == n) ? RELIC_STREAM_FINISH : RELIC_STREAM_MORE, &err);
        assert_true(r != RELIC_STREAM_ERROR);
        in_at += give - e->avail_in;
        out_at += room - e->avail_out;
    } while (r != RELIC_STREAM_DONE);
    assert_int_equal(e->total_in, n);
    relic_arena_release(&sa);
    return out_at;
}

static void pcm_to_le(const int16_t *pcm, size_t values, uint8_t *out)
{
    for (size_t i = 0; i < values; i++) relic_store_u16le(out + 2 * i, (uint16_t)pcm[i]);
}

static void test_streaming_decode_equals_whole_decode_for_any_chunking(void **state)
{
    (void)state;
    for (unsigned ch = 1; ch <= 2; ch++) {
        size_t frames = 3 * 2049 + 777;
        int16_t *pcm = malloc(frames * ch * sizeof *pcm);
        make_signal(ch == 2, ch, frames, pcm);
        relic_buf enc;
        relic_error err;
        relic_buf_init(&enc, 0);
        uint32_t A = ch == 1 ? 1028 : 2056;
        assert_int_equal(adpcm_encode_scratch(pcm, frames, ch, A, &enc, &err), RELIC_OK);
        size_t cap = (size_t)relic_adpcm_frames(enc.size, A, ch) * ch, whole_frames;
        int16_t *whole = malloc(cap * sizeof *whole);
        uint8_t *whole_le = malloc(2 * cap), *streamed = malloc(2 * cap + 1);
        assert_int_equal(relic_adpcm_decode(enc.data, enc.size, A, ch, 0, whole, cap, &whole_frames, &err), RELIC_OK);
        pcm_to_le(whole, cap, whole_le);
        for (int trial = 0; trial < 20; trial++) {
            size_t got = stream_decode(enc.data, enc.size, A, ch, trial ? (size_t)trial * 300 : 0,
                                       trial ? (size_t)trial * 1000 : 0, streamed, 2 * cap);
            assert_int_equal(got, 2 * cap);
            assert_memory_equal(streamed, whole_le, 2 * cap);
        }
        free(whole);
        free(whole_le);
        free(streamed);
        free(pcm);
        relic_buf_free(&enc);
    }
}

/* Issue 16's contract test: one byte at a time in and out gives the bytes
 * of one call, for the decoder and the encoder, mono and stereo, with a
 * short final block. */
static void test_streaming_codecs_one_byte_at_a_time_equal_one_call(void **state)
{
    (void)state;
    for (unsigned ch = 1; ch <= 2; ch++) {
        size_t frames = 2 * 2049 + 313;
        uint32_t A = ch == 1 ? 1028 : 2056;
        int16_t *pcm = malloc(frames * ch * sizeof *pcm);
        uint8_t *pcm_le = malloc(frames * ch * 2);
        make_signal(1, ch, frames, pcm);
        pcm_to_le(pcm, frames * ch, pcm_le);
        relic_buf enc;
        relic_error err;
        relic_buf_init(&enc, 0);
        assert_int_equal(adpcm_encode_scratch(pcm, frames, ch, A, &enc, &err), RELIC_OK);
        /* encoder: one call, then one byte at a time */
        size_t cap = enc.size + 16;
        uint8_t *one = malloc(cap + 1), *bytes = malloc(cap + 1);
        size_t n1 = stream_encode(pcm_le, frames * ch * 2, A, ch, 0, 0, one, cap);
        size_t n2 = stream_encode(pcm_le, frames * ch * 2, A, ch, 1, 1, bytes, cap);
        assert_int_equal(n1, enc.size);
        assert_int_equal(n2, enc.size);
        assert_memory_equal(one, enc.data, enc.size);
        assert_memory_equal(bytes, enc.data, enc.size);
        /* decoder: the same */
        size_t dcap = (size_t)relic_adpcm_frames(enc.size, A, ch) * ch * 2;
        uint8_t *d1 = malloc(dcap + 1), *d2 = malloc(dcap + 1);
        assert_int_equal(stream_decode(enc.data, enc.size, A, ch, 0, 0, d1, dcap), dcap);
        assert_int_equal(stream_decode(enc.data, enc.size, A, ch, 1, 1, d2, dcap), dcap);
        assert_memory_equal(d1, d2, dcap);
        free(d1);
        free(d2);
        free(one);
        free(bytes);
        free(pcm_le);
        free(pcm);
        relic_buf_free(&enc);
    }
}

static void test_streaming_encoder_rejects_input_ending_inside_a_frame(void **state)
{
    (void)state;
    relic_arena sa; /* the stream's state */
    relic_arena_init_heap(&sa, 0);
    relic_stream es, *e = &es;
    relic_error err;
    uint8_t in[7] = {1, 2, 3, 4, 5, 6, 7}, out[64];
    assert_int_equal(relic_adpcm_encode_init(e, 2056, 2, &sa, &err), RELIC_OK);
    e->next_in = in;
    e->avail_in = sizeof in;
    e->next_out = out;
    e->avail_out = sizeof out;
    assert_int_equal(relic_stream_run(e, RELIC_STREAM_FINISH, &err), RELIC_STREAM_ERROR);
    assert_int_equal(err.code, RELIC_E_TRUNCATED);
    assert_int_equal(err.offset, 7);
    relic_arena_release(&sa);
}

static void test_streaming_decoder_reports_bad_step_index_at_its_stream_offset(void **state)
{
    (void)state;
    uint8_t in[3 * 1028];
    memset(in, 0, sizeof in);
    in[2 * 1028 + 2] = 89; /* third block's step index */
    relic_arena sa;        /* the stream's state */
    relic_arena_init_heap(&sa, 0);
    relic_stream ds, *d = &ds;
    relic_error err;
    uint8_t out[64];
    assert_int_equal(relic_adpcm_decode_init(d, 1028, 1, 0, &sa, &err), RELIC_OK);
    relic_stream_status r;
    size_t at = 0;
    do { /* 100-byte pieces, little output room: the held paths */
        size_t give = sizeof in - at < 100 ? sizeof in - at : 100;
        d->next_in = in + at;
        d->avail_in = give;
        d->next_out = out;
        d->avail_out = sizeof out;
        r = relic_stream_run(d, (at + give == sizeof in) ? RELIC_STREAM_FINISH : RELIC_STREAM_MORE, &err);
        at += give - d->avail_in;
    } while (r == RELIC_STREAM_NEED_INPUT || r == RELIC_STREAM_NEED_OUTPUT);
    assert_int_equal(r, RELIC_STREAM_ERROR);
    assert_int_equal(err.code, RELIC_E_RANGE);
    assert_int_equal(err.offset, 2 * 1028 + 2);
    relic_arena_release(&sa);
}

/* SNR floor of encode -> decode on 4 s of synthetic signal at 22050 Hz.
 * Measured: speech-like 27.4 dB mono / 27.6 stereo, music-like 29.3 mono /
 * 29.2 stereo (IMA ADPCM's 4 bits per sample); the floor is 24 dB. */
#define SNR_FLOOR_DB 24.0

static void encode_and_measure(int music, unsigned ch)
{
    size_t frames = 4 * 22050;
    int16_t *pcm = malloc(frames * ch * sizeof *pcm);
    make_signal(music, ch, frames, pcm);
    relic_buf enc;
    relic_error err;
    relic_buf_init(&enc, 0);
    uint32_t A = ch == 1 ? 1028 : 2056;
    assert_int_equal(adpcm_encode_scratch(pcm, frames, ch, A, &enc, &err), RELIC_OK);
    assert_int_equal(enc.size, relic_adpcm_encoded_size(frames, A, ch));
    size_t cap = (size_t)relic_adpcm_frames(enc.size, A, ch) * ch, got;
    assert_true(cap >= frames * ch);
    int16_t *dec = malloc(cap * sizeof *dec);
    assert_int_equal(relic_adpcm_decode(enc.data, enc.size, A, ch, 0, dec, cap, &got, &err), RELIC_OK);
    /* each block's header holds its first frame exactly */
    for (size_t f = 0; f < frames; f += 2049)
        for (unsigned c = 0; c < ch; c++) assert_int_equal(dec[f * ch + c], pcm[f * ch + c]);
    /* the game's mono overflow never triggers on relic's output */
    int16_t *game = malloc(cap * sizeof *game);
    assert_int_equal(relic_adpcm_decode(enc.data, enc.size, A, ch, RELIC_ADPCM_GAME_MONO_OVERFLOW, game, cap, &got, &err), RELIC_OK);
    assert_memory_equal(game, dec, cap * sizeof *dec);
    double snr = snr_db(pcm, dec, frames * ch);
    print_message("%s %s: SNR %.1f dB (floor %.0f)\n", music ? "music-like" : "speech-like", ch == 1 ? "mono" : "stereo", snr, SNR_FLOOR_DB);
    assert_true(snr > SNR_FLOOR_DB);
    free(game);
    free(dec);
    free(pcm);
    relic_buf_free(&enc);
}

static void test_encode_decode_snr_speech_mono(void **state)
{
    (void)state;
    encode_and_measure(0, 1);
}
static void test_encode_decode_snr_music_mono(void **state)
{
    (void)state;
    encode_and_measure(1, 1);
}
static void test_encode_decode_snr_speech_stereo(void **state)
{
    (void)state;
    encode_and_measure(0, 2);
}
static void test_encode_decode_snr_music_stereo(void **state)
{
    (void)state;
    encode_and_measure(1, 2);
}

/* Full-scale input near the rails: the encoder avoids positive overflow. */
static void test_encoder_never_overflows_on_a_square_wave(void **state)
{
    (void)state;
    int16_t pcm[5000];
    for (int i = 0; i < 5000; i++) pcm[i] = (i / 40) % 2 ? 32767 : -32768;
    relic_buf enc;
    relic_error err;
    relic_buf_init(&enc, 0);
    assert_int_equal(adpcm_encode_scratch(pcm, 5000, 1, 1028, &enc, &err), RELIC_OK);
    size_t cap = (size_t)relic_adpcm_frames(enc.size, 1028, 1), got;
    int16_t *a = malloc(cap * 2), *b = malloc(cap * 2);
    assert_int_equal(relic_adpcm_decode(enc.data, enc.size, 1028, 1, 0, a, cap, &got, &err), RELIC_OK);
    assert_int_equal(relic_adpcm_decode(enc.data, enc.size, 1028, 1, RELIC_ADPCM_GAME_MONO_OVERFLOW, b, cap, &got, &err), RELIC_OK);
    assert_memory_equal(a, b, cap * 2);
    free(a);
    free(b);
    relic_buf_free(&enc);
}

/* Re-encoding decoded ADPCM finds the original nibbles again (each block's
 * original step index codes its samples with zero error): encode(decode(x))
 * == x for every ADPCM sample of the corpus. */
static void reencode_is_identity(const uint8_t *data, size_t n, uint32_t A, unsigned ch)
{
    relic_error err;
    size_t cap = (size_t)relic_adpcm_frames(n, A, ch) * ch, frames;
    int16_t *pcm = malloc(cap * 2 + 2);
    assert_int_equal(relic_adpcm_decode(data, n, A, ch, 0, pcm, cap, &frames, &err), RELIC_OK);
    relic_buf enc;
    relic_buf_init(&enc, 0);
    assert_int_equal(adpcm_encode_scratch(pcm, frames, ch, A, &enc, &err), RELIC_OK);
    assert_int_equal(enc.size, n);
    assert_memory_equal(enc.data, data, n);
    relic_buf_free(&enc);
    free(pcm);
}

static void test_reencoding_corpus_adpcm_gives_the_same_bytes(void **state)
{
    (void)state;
    file_list fl = corpus(CAU_DIR, "cau");
    list_dir(TPA_DIR, "tpa", &fl);
    int checked = 0;
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        relic_arena a;
        relic_arena_init_heap(&a, 0);
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        relic_cau_view cv;
        relic_tpa_view tv;
        relic_tpa_file m;
        if (relic_cau_validate(mp.bytes.data, mp.bytes.size, &cv, &err) == RELIC_OK) {
            const relic_cau_sample_header *h = &cv.values.header;
            if (h->compression == RELIC_CAU_COMPRESSION_IMA_ADPCM) {
                reencode_is_identity(cv.base + h->data_offset, h->data_size, h->block_align, h->channels);
                checked++;
            }
        } else {
            assert_int_equal(relic_tpa_validate(mp.bytes.data, mp.bytes.size, &tv, &err), RELIC_OK);
            assert_int_equal(relic_tpa_decode(&tv, &a, &m, &err), RELIC_OK);
            for (size_t k = 0; k < m.samples_count; k++)
                if (m.samples[k].header.compression == RELIC_TPA_COMPRESSION_IMA_ADPCM) {
                    reencode_is_identity(m.samples[k].data, m.samples[k].data_count, m.samples[k].header.block_align,
                                         m.samples[k].header.channels);
                    checked++;
                }
        }
        relic_arena_release(&a);
        relic_unmap(&mp);
    }
    if (fl.n) print_message("re-encoded %d ADPCM samples byte for byte\n", checked);
    free_list(&fl);
}

/* ---- sox differential ----------------------------------------------- */

static int have_tool(const char *name)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", name);
    return system(cmd) == 0;
}

/* The same ADPCM bytes in a WAVE_FORMAT_IMA_ADPCM (0x11) container, whole
 * blocks only (what a WAV reader decodes). */
static void write_ima_wav(const char *path, const uint8_t *data, size_t n, uint32_t A, unsigned ch, uint32_t rate)
{
    uint32_t spb = relic_adpcm_block_frames(A, ch);
    size_t blocks = n / A, len = blocks * A;
    uint8_t h[60];
    memcpy(h, "RIFF", 4);
    relic_store_u32le(h + 4, (uint32_t)(52 + len));
    memcpy(h + 8, "WAVEfmt ", 8);
    relic_store_u32le(h + 16, 20);
    relic_store_u16le(h + 20, 0x11);
    relic_store_u16le(h + 22, (uint16_t)ch);
    relic_store_u32le(h + 24, rate);
    relic_store_u32le(h + 28, (uint32_t)((uint64_t)rate * A / spb));
    relic_store_u16le(h + 32, (uint16_t)A);
    relic_store_u16le(h + 34, 4);
    relic_store_u16le(h + 36, 2);
    relic_store_u16le(h + 38, (uint16_t)spb);
    memcpy(h + 40, "fact", 4);
    relic_store_u32le(h + 44, 4);
    relic_store_u32le(h + 48, (uint32_t)(blocks * spb));
    memcpy(h + 52, "data", 4);
    relic_store_u32le(h + 56, (uint32_t)len);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(h, 1, sizeof h, f);
    fwrite(data, 1, len, f);
    fclose(f);
}

static void compare_with_sox(const uint8_t *data, size_t n, uint32_t A, unsigned ch, uint32_t rate, const char *what)
{
    char wav[64], raw[64], cmd[256];
    snprintf(wav, sizeof wav, "/tmp/relic_audio_%d.wav", (int)getpid());
    snprintf(raw, sizeof raw, "/tmp/relic_audio_%d.raw", (int)getpid());
    write_ima_wav(wav, data, n, A, ch, rate);
    snprintf(cmd, sizeof cmd, "sox %s -t raw -e signed -b 16 -L %s 2>/dev/null", wav, raw);
    assert_int_equal(system(cmd), 0);
    size_t blocks_bytes = n / A * A, frames;
    size_t cap = (size_t)relic_adpcm_frames(blocks_bytes, A, ch) * ch;
    int16_t *mine = malloc(cap * 2 + 2);
    relic_error err;
    assert_int_equal(relic_adpcm_decode(data, blocks_bytes, A, ch, 0, mine, cap, &frames, &err), RELIC_OK);
    relic_mapping mp;
    assert_int_equal(relic_map_file(raw, 0, &mp, &err), RELIC_OK);
    assert_int_equal(mp.bytes.size, cap * 2);
    size_t diffs = 0;
    for (size_t i = 0; i < cap; i++) diffs += (int16_t)relic_load_u16le(mp.bytes.data + 2 * i) != mine[i];
    print_message("sox: %s: %zu samples, %zu differ\n", what, cap, diffs);
    assert_int_equal(diffs, 0);
    relic_unmap(&mp);
    free(mine);
    unlink(wav);
    unlink(raw);
}

static void test_decode_equals_sox_on_every_adpcm_sample(void **state)
{
    (void)state;
    if (!have_tool("sox")) {
        print_message("note: sox is not installed: the sox comparison is skipped (make deps installs it)\n");
        skip();
    }
    /* relic's own encoder output */
    for (unsigned ch = 1; ch <= 2; ch++) {
        size_t frames = 5 * 2049;
        int16_t *pcm = malloc(frames * ch * 2);
        make_signal(1, ch, frames, pcm);
        relic_buf enc;
        relic_error err;
        relic_buf_init(&enc, 0);
        assert_int_equal(adpcm_encode_scratch(pcm, frames, ch, ch == 1 ? 1028 : 2056, &enc, &err), RELIC_OK);
        compare_with_sox(enc.data, enc.size, ch == 1 ? 1028 : 2056, ch, 22050, ch == 1 ? "encoded mono" : "encoded stereo");
        relic_buf_free(&enc);
        free(pcm);
    }
    /* every ADPCM sample of the corpus, CAU and TPA (one in TEST_PASS_STRIDE in the sanitizer
     * pass, test_pass.h: the plain pass compares them all, and the sox runs are the same) */
    size_t seen = 0;
    file_list fl = corpus(CAU_DIR, "cau");
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        relic_cau_view v;
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        assert_int_equal(relic_cau_validate(mp.bytes.data, mp.bytes.size, &v, &err), RELIC_OK);
        const relic_cau_sample_header *h = &v.values.header;
        if (h->compression == RELIC_CAU_COMPRESSION_IMA_ADPCM && test_take(seen++))
            compare_with_sox(v.base + h->data_offset, h->data_size, h->block_align, h->channels, h->sample_rate, fl.paths[i]);
        relic_unmap(&mp);
    }
    free_list(&fl);
    fl = corpus(TPA_DIR, "tpa");
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        relic_tpa_view v;
        relic_tpa_file m;
        relic_arena a;
        relic_arena_init_heap(&a, 0);
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        assert_int_equal(relic_tpa_validate(mp.bytes.data, mp.bytes.size, &v, &err), RELIC_OK);
        assert_int_equal(relic_tpa_decode(&v, &a, &m, &err), RELIC_OK);
        for (size_t k = 0; k < m.samples_count; k++) {
            const relic_tpa_sample_header *h = &m.samples[k].header;
            if (h->compression == RELIC_TPA_COMPRESSION_IMA_ADPCM && m.samples[k].data_count >= h->block_align &&
                test_take(seen++))
                compare_with_sox(m.samples[k].data, m.samples[k].data_count, h->block_align, h->channels, h->sample_rate, fl.paths[i]);
        }
        relic_arena_release(&a);
        relic_unmap(&mp);
    }
    free_list(&fl);
}

/* ffmpeg's adpcm_ima_wav decoder multiplies exactly: diff = (2m+1)*step/8
 * rounded down once, where the game adds step>>3, step>>2, step>>1, step,
 * each rounded down. The fractional parts lost are below 7/8 + 3/4 + 1/2,
 * so the two differences of one nibble differ by 0, 1 or 2, with the
 * nibble's sign; the step index depends only on the nibbles, so it is the
 * same in both, and clamping never widens a gap. Both restart from the
 * block header, hence: |relic - ffmpeg| <= 2 * j at the j-th frame after a
 * block's first. The test checks that bound on every sample. */
static void compare_with_ffmpeg(const uint8_t *data, size_t n, uint32_t A, unsigned ch, uint32_t rate, const char *what)
{
    char wav[64], raw[64], cmd[256];
    snprintf(wav, sizeof wav, "/tmp/relic_audio_ff_%d.wav", (int)getpid());
    snprintf(raw, sizeof raw, "/tmp/relic_audio_ff_%d.raw", (int)getpid());
    write_ima_wav(wav, data, n, A, ch, rate);
    snprintf(cmd, sizeof cmd, "ffmpeg -loglevel error -y -i %s -f s16le %s </dev/null", wav, raw);
    assert_int_equal(system(cmd), 0);
    size_t blocks_bytes = n / A * A, frames;
    size_t cap = (size_t)relic_adpcm_frames(blocks_bytes, A, ch) * ch;
    int16_t *mine = malloc(cap * 2 + 2);
    relic_error err;
    assert_int_equal(relic_adpcm_decode(data, blocks_bytes, A, ch, 0, mine, cap, &frames, &err), RELIC_OK);
    relic_mapping mp;
    assert_int_equal(relic_map_file(raw, 0, &mp, &err), RELIC_OK);
    size_t got = mp.bytes.size / 2, per = relic_adpcm_block_frames(A, ch), diffs = 0;
    assert_true(got >= cap - (size_t)per * ch); /* at most the last block may be left out */
    int maxd = 0;
    for (size_t i = 0; i < cap && i < got; i++) {
        int d = abs((int16_t)relic_load_u16le(mp.bytes.data + 2 * i) - mine[i]);
        size_t j = (i / ch) % per;
        diffs += d != 0;
        if (d > maxd) maxd = d;
        if ((size_t)d > 2 * j) fail_msg("%s: sample %zu differs by %d from ffmpeg's, above the bound 2*%zu", what, i, d, j);
    }
    print_message("ffmpeg: %s: %zu samples, %zu differ, largest difference %d (bound 2 per frame into the block)\n", what,
                  got < cap ? got : cap, diffs, maxd);
    relic_unmap(&mp);
    free(mine);
    unlink(wav);
    unlink(raw);
}

/* relic's encoder against ffmpeg's adpcm_ima_wav encoder on the same
 * signal and block size (ffmpeg takes only powers of two: 1024 mono, 2048
 * stereo), each decoded by its own decoder; relic's SNR must not be lower
 * by more than the margin. */
#define FFMPEG_SNR_MARGIN_DB 0.5
static void encoder_vs_ffmpeg(int music, unsigned ch)
{
    const uint32_t A = ch == 1 ? 1024 : 2048;
    const size_t frames = 4 * 22050;
    int16_t *pcm = malloc(frames * ch * sizeof *pcm);
    make_signal(music, ch, frames, pcm);
    char wav[64], ima[64], raw[64], cmd[400];
    snprintf(wav, sizeof wav, "/tmp/relic_audio_enc_%d.wav", (int)getpid());
    snprintf(ima, sizeof ima, "/tmp/relic_audio_enc_%d.ima.wav", (int)getpid());
    snprintf(raw, sizeof raw, "/tmp/relic_audio_enc_%d.raw", (int)getpid());
    relic_buf w, enc;
    relic_error err;
    relic_buf_init(&w, 0);
    relic_buf_init(&enc, 0);
    assert_int_equal(relic_audio_wav_write(pcm, frames, ch, 22050, 16, &w, &err), RELIC_OK);
    FILE *f = fopen(wav, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(w.data, 1, w.size, f), w.size);
    fclose(f);
    snprintf(cmd, sizeof cmd, "ffmpeg -loglevel error -y -i %s -c:a adpcm_ima_wav -block_size %u %s </dev/null && "
                              "ffmpeg -loglevel error -y -i %s -f s16le %s </dev/null",
             wav, A, ima, ima, raw);
    assert_int_equal(system(cmd), 0);
    relic_mapping mp;
    assert_int_equal(relic_map_file(raw, 0, &mp, &err), RELIC_OK);
    size_t n = mp.bytes.size / 2 < frames * ch ? mp.bytes.size / 2 : frames * ch;
    int16_t *theirs = malloc(n * sizeof *theirs + 2);
    for (size_t i = 0; i < n; i++) theirs[i] = (int16_t)relic_load_u16le(mp.bytes.data + 2 * i);
    relic_unmap(&mp);
    assert_int_equal(adpcm_encode_scratch(pcm, frames, ch, A, &enc, &err), RELIC_OK);
    size_t cap = (size_t)relic_adpcm_frames(enc.size, A, ch) * ch, got;
    int16_t *mine = malloc(cap * sizeof *mine);
    assert_int_equal(relic_adpcm_decode(enc.data, enc.size, A, ch, 0, mine, cap, &got, &err), RELIC_OK);
    double snr_ffmpeg = snr_db(pcm, theirs, n), snr_relic = snr_db(pcm, mine, n);
    print_message("%s %s, %u-byte blocks: SNR relic %.1f dB, ffmpeg adpcm_ima_wav %.1f dB (%zu samples)\n",
                  music ? "music-like" : "speech-like", ch == 1 ? "mono" : "stereo", A, snr_relic, snr_ffmpeg, n);
    assert_true(n > frames * ch / 2);
    assert_true(snr_relic >= snr_ffmpeg - FFMPEG_SNR_MARGIN_DB);
    free(mine);
    free(theirs);
    free(pcm);
    relic_buf_free(&w);
    relic_buf_free(&enc);
    unlink(wav);
    unlink(ima);
    unlink(raw);
}

static void test_encoder_snr_is_at_least_ffmpeg_s_adpcm_ima_wav(void **state)
{
    (void)state;
    if (system("command -v ffmpeg >/dev/null 2>&1") != 0) {
        print_message("note: ffmpeg not installed: the comparison with its encoder is skipped (make deps installs it)\n");
        return;
    }
    /* the sanitizer pass compares the first (test_pass.h): ffmpeg's runs are the same in both */
    for (size_t i = 0; i < 4; i++)
        if (test_take(i)) encoder_vs_ffmpeg((int)(i & 1), 1 + (unsigned)(i >> 1));
}

static void test_decode_stays_within_the_rounding_bound_of_ffmpeg(void **state)
{
    (void)state;
    if (!have_tool("ffmpeg")) {
        print_message("note: ffmpeg is not installed: the ffmpeg comparison is skipped (make deps installs it)\n");
        skip();
    }
    size_t seen = 0; /* one in TEST_PASS_STRIDE in the sanitizer pass (test_pass.h) */
    file_list fl = corpus(CAU_DIR, "cau");
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        relic_cau_view v;
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        assert_int_equal(relic_cau_validate(mp.bytes.data, mp.bytes.size, &v, &err), RELIC_OK);
        const relic_cau_sample_header *h = &v.values.header;
        if (h->compression == RELIC_CAU_COMPRESSION_IMA_ADPCM && test_take(seen++))
            compare_with_ffmpeg(v.base + h->data_offset, h->data_size, h->block_align, h->channels, h->sample_rate, fl.paths[i]);
        relic_unmap(&mp);
    }
    free_list(&fl);
    for (unsigned ch = 1; ch <= 2; ch++) {
        size_t frames = 5 * 2049;
        int16_t *pcm = malloc(frames * ch * 2);
        make_signal(0, ch, frames, pcm);
        relic_buf enc;
        relic_error err;
        relic_buf_init(&enc, 0);
        assert_int_equal(adpcm_encode_scratch(pcm, frames, ch, ch == 1 ? 1028 : 2056, &enc, &err), RELIC_OK);
        compare_with_ffmpeg(enc.data, enc.size, ch == 1 ? 1028 : 2056, ch, 22050, ch == 1 ? "encoded mono" : "encoded stereo");
        relic_buf_free(&enc);
        free(pcm);
    }
}

/* ---- corpus round trips --------------------------------------------- */

static void cau_round_trip(const uint8_t *data, size_t n)
{
    relic_cau_view v;
    relic_error err;
    relic_cau_file m, back;
    relic_arena a;
    relic_buf out, json, again;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&out, 0);
    relic_buf_init(&json, 0);
    relic_buf_init(&again, 0);
    assert_int_equal(relic_cau_validate(data, n, &v, &err), RELIC_OK);
    assert_int_equal(relic_cau_decode(&v, &a, &m, &err), RELIC_OK);
    assert_int_equal(relic_cau_write(&m, &out, &err), RELIC_OK);
    assert_int_equal(out.size, n);
    assert_memory_equal(out.data, data, n);
    assert_int_equal(relic_cau_json_print(&m, &json, &err), RELIC_OK);
    assert_int_equal(relic_cau_json_read((const char *)json.data, json.size, &a, &back, &err), RELIC_OK);
    assert_int_equal(relic_cau_write(&back, &again, &err), RELIC_OK);
    assert_int_equal(again.size, n);
    assert_memory_equal(again.data, data, n);
    relic_audio_format f;
    relic_audio_format_of_cau(&m.header, &f);
    assert_int_equal(relic_audio_check_data(&f, m.data, m.data_count, &err), RELIC_OK);
    relic_buf_free(&out);
    relic_buf_free(&json);
    relic_buf_free(&again);
    relic_arena_release(&a);
}

static void tpa_round_trip(const uint8_t *data, size_t n)
{
    relic_tpa_view v;
    relic_error err;
    relic_tpa_file m, back;
    relic_arena a;
    relic_buf out, json, again;
    int problems = 0;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&out, 0);
    relic_buf_init(&json, 0);
    relic_buf_init(&again, 0);
    assert_int_equal(relic_tpa_validate(data, n, &v, &err), RELIC_OK);
    assert_int_equal(relic_tpa_decode(&v, &a, &m, &err), RELIC_OK);
    assert_int_equal(tpa_check_scratch(&v, &m, 1, count_problem, &problems), 0);
    assert_int_equal(relic_tpa_write(&m, &out, &err), RELIC_OK);
    assert_int_equal(out.size, n);
    assert_memory_equal(out.data, data, n);
    assert_int_equal(relic_tpa_json_print(&m, &json, &err), RELIC_OK);
    assert_int_equal(relic_tpa_json_read((const char *)json.data, json.size, &a, &back, &err), RELIC_OK);
    assert_int_equal(relic_tpa_write(&back, &again, &err), RELIC_OK);
    assert_int_equal(again.size, n);
    assert_memory_equal(again.data, data, n);
    relic_buf_free(&out);
    relic_buf_free(&json);
    relic_buf_free(&again);
    relic_arena_release(&a);
}

static void test_corpus_cau_validate_and_round_trip_byte_exact(void **state)
{
    (void)state;
    file_list fl = corpus(CAU_DIR, "cau");
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        cau_round_trip(mp.bytes.data, mp.bytes.size);
        relic_unmap(&mp);
    }
    free_list(&fl);
}

static void test_corpus_tpa_validate_keep_the_rules_and_round_trip(void **state)
{
    (void)state;
    file_list fl = corpus(TPA_DIR, "tpa");
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        assert_int_equal(relic_detect(mp.bytes.data, mp.bytes.size, NULL), RELIC_FORMAT_TPA);
        tpa_round_trip(mp.bytes.data, mp.bytes.size);
        relic_unmap(&mp);
    }
    free_list(&fl);
}

/* A bank's samples as CAU models and its identifiers as pack entries. */
static void unpack(const relic_tpa_file *m, relic_arena *a, relic_cau_file **cau, relic_tpa_pack_entry **ids)
{
    *cau = relic_arena_array(a, m->samples_count + 1, sizeof **cau, 8);
    *ids = relic_arena_array(a, m->ids_count + 1, sizeof **ids, 8);
    assert_non_null(*cau);
    assert_non_null(*ids);
    for (size_t k = 0; k < m->samples_count; k++) {
        const relic_tpa_sample *s = &m->samples[k];
        relic_cau_file *c = &(*cau)[k];
        memset(c, 0, sizeof *c);
        memcpy(&c->header, &s->header, sizeof c->header); /* same layout in both schemas */
        c->caption_length = s->caption_length;
        c->caption_count = s->caption_count;
        c->caption_text = s->caption_text;
        c->caption_text_count = s->caption_text_count;
        c->data = s->data;
        c->data_count = s->data_count;
    }
    for (size_t i = 0; i < m->ids_count; i++) {
        (*ids)[i].sound_id = m->ids[i].sound_id;
        (*ids)[i].attenuation = m->ids[i].attenuation;
        (*ids)[i].master_volume = m->ids[i].master_volume;
        (*ids)[i].sample = SIZE_MAX;
        for (size_t k = 0; k < m->samples_count; k++)
            if (relic_tpa_sample_offset(m, k) == m->ids[i].sample_offset) (*ids)[i].sample = k;
        assert_true((*ids)[i].sample != SIZE_MAX);
    }
}

static void test_packing_a_corpus_bank_s_identifiers_and_samples_gives_its_bytes(void **state)
{
    (void)state;
    file_list fl = corpus(TPA_DIR, "tpa");
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        relic_tpa_view v;
        relic_tpa_file m, packed;
        relic_arena a;
        relic_buf out;
        relic_cau_file *cau;
        relic_tpa_pack_entry *ids;
        relic_arena_init_heap(&a, 0);
        relic_buf_init(&out, 0);
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        assert_int_equal(relic_tpa_validate(mp.bytes.data, mp.bytes.size, &v, &err), RELIC_OK);
        assert_int_equal(relic_tpa_decode(&v, &a, &m, &err), RELIC_OK);
        unpack(&m, &a, &cau, &ids);
        /* the samples handed over in reverse order: the packer stores them
         * in the order identifiers first name them, as the game's writer */
        for (size_t k = 0; k < m.samples_count / 2; k++) {
            relic_cau_file t = cau[k];
            cau[k] = cau[m.samples_count - 1 - k];
            cau[m.samples_count - 1 - k] = t;
        }
        for (size_t e = 0; e < m.ids_count; e++) ids[e].sample = m.samples_count - 1 - ids[e].sample;
        assert_int_equal(relic_tpa_pack(ids, m.ids_count, cau, m.samples_count, m.collisions, m.collisions_count, &a, &packed, &err), RELIC_OK);
        assert_int_equal(relic_tpa_write(&packed, &out, &err), RELIC_OK);
        assert_int_equal(out.size, mp.bytes.size);
        assert_memory_equal(out.data, mp.bytes.data, out.size);
        relic_buf_free(&out);
        relic_unmap(&mp);
        relic_arena_release(&a);
    }
    free_list(&fl);
}

static void test_pack_shares_one_sample_between_identifiers_and_keeps_collisions(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    relic_buf out;
    relic_cau_file c[2];
    int16_t pcm[3000];
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&out, 0);
    make_signal(1, 1, 3000, pcm);
    assert_int_equal(relic_audio_cau_from_pcm(pcm, 3000, 1, 22050, 16, 1, NULL, 0, &a, &c[0], &err), RELIC_OK);
    assert_int_equal(relic_audio_cau_from_pcm(pcm, 100, 1, 11025, 16, 0, NULL, 0, &a, &c[1], &err), RELIC_OK);
    relic_tpa_pack_entry ids[3] = {{0x10, 0.5f, -3.0f, 1}, {0x20, 0, 0, 0}, {0x30, 1, -1, 1}};
    relic_tpa_collision col;
    memset(&col, 0, sizeof col);
    col.samples = 0x01;
    col.impact_1 = 0x20;
    relic_tpa_file m;
    assert_int_equal(relic_tpa_pack(ids, 3, c, 2, &col, 1, &a, &m, &err), RELIC_OK);
    assert_int_equal(m.samples_count, 2);
    /* sample 1 is named first, so it is stored first */
    assert_int_equal(m.samples[0].header.sample_rate, 11025);
    assert_int_equal(m.ids[0].sample_offset, m.ids[2].sample_offset);
    assert_int_equal(m.ids[0].sample_offset, RELIC_TPA_HEADER_SIZE + 3 * RELIC_TPA_ID_ENTRY_SIZE);
    assert_int_equal(m.ids[1].sample_offset, m.ids[0].sample_offset + m.ids[0].sample_length);
    assert_true(m.ids[0].master_volume == -3.0f);
    assert_int_equal(relic_tpa_write(&m, &out, &err), RELIC_OK);
    tpa_round_trip(out.data, out.size);
    assert_int_equal(relic_load_u32le(out.data + 12), 1); /* collision count */
    assert_int_equal(relic_load_u32le(out.data + 16), out.size - RELIC_TPA_COLLISION_SIZE);
    relic_buf_free(&out);
    relic_arena_release(&a);
}

static void test_pack_rejects_repeated_ids_unnamed_samples_and_bad_indices(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    relic_cau_file c[2];
    int16_t pcm[200] = {0};
    relic_tpa_file m;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_audio_cau_from_pcm(pcm, 100, 1, 22050, 16, 0, NULL, 0, &a, &c[0], &err), RELIC_OK);
    c[1] = c[0];
    relic_tpa_pack_entry twice[2] = {{7, 0, 0, 0}, {7, 0, 0, 1}};
    assert_int_equal(relic_tpa_pack(twice, 2, c, 2, NULL, 0, &a, &m, &err), RELIC_E_ARGUMENT);
    assert_string_equal(err.path, "ids[1]");
    relic_tpa_pack_entry one[1] = {{7, 0, 0, 0}};
    assert_int_equal(relic_tpa_pack(one, 1, c, 2, NULL, 0, &a, &m, &err), RELIC_E_ARGUMENT);
    assert_string_equal(err.path, "samples[1]");
    relic_tpa_pack_entry past[1] = {{7, 0, 0, 2}};
    assert_int_equal(relic_tpa_pack(past, 1, c, 2, NULL, 0, &a, &m, &err), RELIC_E_INDEX);
    assert_string_equal(err.path, "ids[0]");
    uint8_t junk = 1;
    c[0].trailing = &junk;
    c[0].trailing_count = 1;
    assert_int_equal(relic_tpa_pack(one, 1, c, 1, NULL, 0, &a, &m, &err), RELIC_E_ARGUMENT);
    relic_arena_release(&a);
}

/* ---- captions, hash, builders, WAV ------------------------------------ */

static void test_captions_parse_and_rebuild_byte_exact(void **state)
{
    (void)state;
    static const uint8_t text[] = "\x23\0\0\0Oh God.\0\x05\0\0\0Marquez?\0\x03\0\0\0\0\xCD\xCD\xCD\xCD";
    const size_t n = sizeof text - 1;
    relic_arena a;
    relic_error err;
    relic_audio_caption *lines;
    size_t used;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_audio_captions_parse(text, n, 3, &a, &lines, &used, &err), RELIC_OK);
    assert_int_equal(used, n - 4);
    assert_int_equal(lines[0].duration, 35);
    assert_string_equal(lines[1].text, "Marquez?");
    assert_int_equal(lines[2].text_len, 0);
    relic_buf b;
    relic_buf_init(&b, 0);
    assert_int_equal(relic_audio_captions_build(lines, 3, &b, &err), RELIC_OK);
    assert_int_equal(b.size, n);
    assert_memory_equal(b.data, text, n);
    /* through JSON: durations in seconds and units */
    relic_buf j;
    relic_buf_init(&j, 0);
    relic_audio_captions_json(lines, 3, 1, 0x12345678, &j);
    assert_non_null(strstr((const char *)j.data, "\"duration\": 7.0"));
    relic_audio_caption *back;
    size_t nb;
    assert_int_equal(relic_audio_captions_from_json((const char *)j.data, j.size, &a, &back, &nb, &err), RELIC_OK);
    assert_int_equal(nb, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(back[i].duration, lines[i].duration);
        assert_int_equal(back[i].text_len, lines[i].text_len);
    }
    /* a line without its NUL is truncated, named by index */
    assert_int_equal(relic_audio_captions_parse(text, 14, 2, &a, &lines, &used, &err), RELIC_E_TRUNCATED);
    assert_string_equal(err.path, "caption_text[1]");
    relic_buf_free(&j);
    relic_buf_free(&b);
    relic_arena_release(&a);
}

static void test_sound_hash_of_missing_is_the_fallback_id(void **state)
{
    (void)state;
    assert_int_equal(relic_tres_sound_hash("MISSING", 7), RELIC_AUDIO_MISSING_ID);
    assert_int_equal(relic_tres_hash("123456789", 9), 0xCBF43926u);
    assert_int_equal(relic_tres_sound_hash("A\\B", 3), relic_tres_hash("a/b", 3));
}

/* A CAU built from PCM (16-bit, 8-bit, ADPCM, with captions) validates,
 * decodes back (exactly for PCM) and round-trips. */
static void test_cau_from_pcm_builds_valid_samples(void **state)
{
    (void)state;
    size_t frames = 3000;
    int16_t pcm[2 * 3000];
    make_signal(0, 2, frames, pcm);
    for (int i = 0; i < 6000; i++) pcm[i] = (int16_t)(pcm[i] & ~0xFF); /* 8-bit exact */
    relic_audio_caption cap[2] = {{10, "Hello", 5}, {3, "", 0}};
    for (int mode = 0; mode < 3; mode++)
        for (unsigned ch = 1; ch <= 2; ch++) {
            relic_arena a;
            relic_error err;
            relic_cau_file m;
            relic_buf out;
            relic_arena_init_heap(&a, 0);
            relic_buf_init(&out, 0);
            assert_int_equal(relic_audio_cau_from_pcm(pcm, frames, ch, 22050, mode == 1 ? 8 : 16, mode == 2, cap, ch == 1 ? 2 : 0, &a, &m, &err), RELIC_OK);
            assert_int_equal(relic_cau_write(&m, &out, &err), RELIC_OK);
            cau_round_trip(out.data, out.size);
            relic_cau_view v;
            assert_int_equal(relic_cau_validate(out.data, out.size, &v, &err), RELIC_OK);
            assert_int_equal(v.values.caption_count, ch == 1 ? 2 : 0);
            relic_audio_format f;
            relic_audio_format_of_cau(&v.values.header, &f);
            int16_t *dec;
            size_t got;
            assert_int_equal(relic_audio_decode(&f, m.data, m.data_count, 0, &a, &dec, &got, &err), RELIC_OK);
            assert_true(got >= frames);
            assert_int_equal(f.decoded_size, got * ch * (mode == 1 ? 1 : 2));
            if (mode < 2) assert_memory_equal(dec, pcm, frames * ch * 2);
            relic_buf_free(&out);
            relic_arena_release(&a);
        }
}

static void test_wav_write_then_read_is_lossless(void **state)
{
    (void)state;
    int16_t pcm[2 * 1000], *back;
    make_signal(1, 2, 1000, pcm);
    relic_buf w;
    relic_error err;
    relic_arena a;
    size_t frames;
    unsigned ch, bits;
    uint32_t rate;
    relic_buf_init(&w, 0);
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_audio_wav_write(pcm, 1000, 2, 11025, 16, &w, &err), RELIC_OK);
    assert_memory_equal(w.data, "RIFF", 4);
    assert_int_equal(relic_detect(w.data, w.size, NULL), RELIC_FORMAT_WAV);
    assert_int_equal(relic_audio_wav_read(w.data, w.size, &a, &back, &frames, &ch, &rate, &bits, &err), RELIC_OK);
    assert_int_equal(frames, 1000);
    assert_int_equal(ch, 2);
    assert_int_equal(rate, 11025);
    assert_int_equal(bits, 16);
    assert_memory_equal(back, pcm, sizeof pcm);
    assert_int_equal(relic_audio_wav_read((const uint8_t *)"RIFFjunk", 8, &a, &back, &frames, &ch, &rate, &bits, &err), RELIC_E_SYNTAX);
    relic_buf_free(&w);
    relic_arena_release(&a);
}

/* A WAV built by hand: RIFF header, a LIST chunk to skip, fmt (tag, bits,
 * extensible when ext), data. Returns its size. */
static size_t make_wav(uint8_t *w, unsigned tag, unsigned ch, unsigned bits, int ext, const void *data, size_t n)
{
    size_t at = 12, fmt_size = ext ? 40 : 16;
    memcpy(w, "RIFF", 4);
    memcpy(w + 8, "WAVE", 4);
    memcpy(w + at, "LIST", 4); /* an odd-sized chunk before fmt: skipped, padded */
    relic_store_u32le(w + at + 4, 3);
    memcpy(w + at + 8, "abc\0", 4);
    at += 12;
    memcpy(w + at, "fmt ", 4);
    relic_store_u32le(w + at + 4, (uint32_t)fmt_size);
    relic_store_u16le(w + at + 8, (uint16_t)(ext ? 0xFFFE : tag));
    relic_store_u16le(w + at + 10, (uint16_t)ch);
    relic_store_u32le(w + at + 12, 8000);
    relic_store_u32le(w + at + 16, 8000 * ch * bits / 8);
    relic_store_u16le(w + at + 20, (uint16_t)(ch * bits / 8));
    relic_store_u16le(w + at + 22, (uint16_t)bits);
    if (ext) {
        static const uint8_t tail[14] = {0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x71};
        relic_store_u16le(w + at + 24, 22);
        relic_store_u16le(w + at + 26, (uint16_t)bits);
        relic_store_u32le(w + at + 28, ch == 1 ? 4 : 3);
        relic_store_u16le(w + at + 32, (uint16_t)tag);
        memcpy(w + at + 34, tail, sizeof tail);
    }
    at += 8 + fmt_size;
    memcpy(w + at, "data", 4);
    relic_store_u32le(w + at + 4, (uint32_t)n);
    memcpy(w + at + 8, data, n);
    at += 8 + n;
    relic_store_u32le(w + 4, (uint32_t)(at - 8));
    return at;
}

static void expect_wav_samples(const uint8_t *w, size_t n, unsigned want_ch, const int16_t *want, size_t values)
{
    relic_arena a;
    relic_error err;
    int16_t *pcm;
    size_t frames;
    unsigned ch, bits;
    uint32_t rate;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_audio_wav_read(w, n, &a, &pcm, &frames, &ch, &rate, &bits, &err), RELIC_OK);
    assert_int_equal(ch, want_ch);
    assert_int_equal(rate, 8000);
    assert_int_equal(frames * ch, values);
    for (size_t i = 0; i < values; i++) assert_int_equal(pcm[i], want[i]);
    relic_arena_release(&a);
}

static void test_wav_reads_pcm_8_16_24_32_and_float_32_64_plain_and_extensible(void **state)
{
    (void)state;
    uint8_t w[512];
    const int16_t want[4] = {0, 256, -32768, 32767 - 255};
    const uint8_t u8[4] = {128, 129, 0, 255};
    expect_wav_samples(w, make_wav(w, 1, 2, 8, 0, u8, 4), 2, want, 4);
    const int16_t want16[4] = {1, -2, 32767, -32768};
    uint8_t s16[8];
    for (int i = 0; i < 4; i++) relic_store_u16le(s16 + 2 * i, (uint16_t)want16[i]);
    expect_wav_samples(w, make_wav(w, 1, 1, 16, 0, s16, 8), 1, want16, 4);
    /* 24 and 32 bits: the top 16 bits */
    const uint8_t s24[6] = {0xFF, 0x34, 0x12, 0x00, 0x00, 0x80};
    const int16_t want24[2] = {0x1234, -32768};
    expect_wav_samples(w, make_wav(w, 1, 2, 24, 1, s24, 6), 2, want24, 2);
    const uint8_t s32[8] = {0xFF, 0xFF, 0x34, 0x12, 0x00, 0x00, 0xFF, 0xFF};
    const int16_t want32[2] = {0x1234, -1};
    expect_wav_samples(w, make_wav(w, 1, 1, 32, 0, s32, 8), 1, want32, 2);
    /* float: scaled by 32767, rounded, clamped */
    const float f32[4] = {0.5f, -1.0f, 2.0f, -3.0f};
    const int16_t wantf[4] = {16384, -32767, 32767, -32768};
    uint8_t b32[16];
    for (int i = 0; i < 4; i++) {
        uint32_t u;
        memcpy(&u, &f32[i], 4);
        relic_store_u32le(b32 + 4 * i, u);
    }
    expect_wav_samples(w, make_wav(w, 3, 2, 32, 0, b32, 16), 2, wantf, 4);
    expect_wav_samples(w, make_wav(w, 3, 2, 32, 1, b32, 16), 2, wantf, 4);
    const double f64[2] = {0.25, -0.25};
    const int16_t want64[2] = {8192, -8192};
    uint8_t b64[16];
    for (int i = 0; i < 2; i++) {
        uint64_t u;
        memcpy(&u, &f64[i], 8);
        relic_store_u64le(b64 + 8 * i, u);
    }
    expect_wav_samples(w, make_wav(w, 3, 1, 64, 0, b64, 16), 1, want64, 2);
}

static void test_wav_writes_unsigned_8_bit_and_pads_odd_data(void **state)
{
    (void)state;
    const int16_t pcm[3] = {-32768, 0, 32767};
    relic_buf b;
    relic_error err;
    relic_buf_init(&b, 0);
    assert_int_equal(relic_audio_wav_write(pcm, 3, 1, 8000, 8, &b, &err), RELIC_OK);
    assert_int_equal(b.size, RELIC_WAV_HEADER_SIZE + 4);
    assert_int_equal(relic_load_u32le(b.data + 4), b.size - 8);
    assert_int_equal(relic_load_u32le(b.data + 40), 3);
    assert_int_equal(b.data[44], 0);
    assert_int_equal(b.data[45], 128);
    assert_int_equal(b.data[46], 255);
    relic_wav_info w;
    assert_int_equal(relic_audio_wav_parse(b.data, b.size, &w, &err), RELIC_OK);
    assert_int_equal(w.frames, 3);
    assert_int_equal(w.bits, 8);
    relic_buf_free(&b);
}

static void test_wav_errors_name_the_field_and_offset(void **state)
{
    (void)state;
    uint8_t w[512];
    relic_wav_info info;
    relic_error err;
    const uint8_t d[8] = {0};
    /* other sound formats: say how to convert */
    assert_int_equal(relic_audio_wav_parse((const uint8_t *)"fLaC\0\0\0\"", 8, &info, &err), RELIC_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "FLAC"));
    assert_non_null(strstr(err.message, "sox"));
    assert_non_null(strstr(err.message, "ffmpeg"));
    assert_int_equal(relic_audio_wav_parse((const uint8_t *)"OggS\0\0\0\0", 8, &info, &err), RELIC_E_UNSUPPORTED);
    assert_int_equal(relic_audio_wav_parse((const uint8_t *)"RIFFjunk", 8, &info, &err), RELIC_E_SYNTAX);
    /* compressed WAV (IMA ADPCM tag 0x11) */
    size_t n = make_wav(w, 0x11, 1, 4, 0, d, 8);
    assert_int_equal(relic_audio_wav_parse(w, n, &info, &err), RELIC_E_UNSUPPORTED);
    assert_string_equal(err.path, "fmt.format_tag");
    assert_int_equal(err.offset, 32);
    /* three channels: the channels field */
    n = make_wav(w, 1, 3, 16, 0, d, 6);
    assert_int_equal(relic_audio_wav_parse(w, n, &info, &err), RELIC_E_UNSUPPORTED);
    assert_string_equal(err.path, "fmt.channels");
    assert_int_equal(err.offset, 34);
    /* 12-bit PCM */
    n = make_wav(w, 1, 1, 12, 0, d, 6);
    assert_int_equal(relic_audio_wav_parse(w, n, &info, &err), RELIC_E_UNSUPPORTED);
    assert_int_equal(err.offset, 46);
    /* data running past the end */
    n = make_wav(w, 1, 1, 16, 0, d, 8);
    assert_int_equal(relic_audio_wav_parse(w, n - 2, &info, &err), RELIC_E_TRUNCATED);
    assert_string_equal(err.path, "data");
    assert_int_equal(err.offset, n - 8 - 8 + 4);
    /* no data chunk at all */
    assert_int_equal(relic_audio_wav_parse(w, n - 16, &info, &err), RELIC_E_LAYOUT);
    /* every cut of a good file fails cleanly or reads fewer frames, never out of bounds */
    for (size_t cut = 0; cut < n; cut++) {
        uint8_t *c = malloc(cut ? cut : 1);
        memcpy(c, w, cut);
        relic_status st = relic_audio_wav_parse(c, cut, &info, &err);
        if (st == RELIC_OK) assert_true(info.data_offset + info.data_size <= cut);
        free(c);
    }
}

/* A bank built in memory: three identifiers (two naming the same sample),
 * an ADPCM sample with captions, a PCM one, one collision record. */
static void build_bank(relic_arena *a, relic_buf *out)
{
    relic_tpa_file m;
    relic_error err;
    memset(&m, 0, sizeof m);
    int16_t pcm[4000];
    make_signal(0, 1, 4000, pcm);
    relic_audio_caption cap[1] = {{5, "Hi", 2}};
    relic_cau_file c[2];
    assert_int_equal(relic_audio_cau_from_pcm(pcm, 4000, 1, 22050, 16, 1, cap, 1, a, &c[0], &err), RELIC_OK);
    assert_int_equal(relic_audio_cau_from_pcm(pcm, 500, 1, 11025, 8, 0, NULL, 0, a, &c[1], &err), RELIC_OK);
    m.samples = relic_arena_array(a, 2, sizeof *m.samples, 8);
    m.samples_count = 2;
    for (int k = 0; k < 2; k++) {
        relic_tpa_sample *s = &m.samples[k];
        memcpy(&s->header, &c[k].header, sizeof s->header); /* same layout in both schemas */
        s->caption_length = c[k].caption_length;
        s->caption_count = c[k].caption_count;
        s->caption_text = c[k].caption_text;
        s->caption_text_count = c[k].caption_text_count;
        s->data = c[k].data;
        s->data_count = c[k].data_count;
    }
    m.ids = relic_arena_array(a, 3, sizeof *m.ids, 8);
    m.ids_count = 3;
    static const char *names[3] = {"missing", "Anne/Hi", "Blip"};
    int which[3] = {0, 0, 1};
    for (int i = 0; i < 3; i++) {
        m.ids[i].sound_id = relic_tres_sound_hash(names[i], strlen(names[i]));
        m.ids[i].sample_offset = (uint32_t)relic_tpa_sample_offset(&m, (size_t)which[i]);
        m.ids[i].sample_length = (uint32_t)relic_tpa_sample_size(&m.samples[which[i]]);
        m.ids[i].header = m.samples[which[i]].header;
    }
    m.collisions = relic_arena_array(a, 1, sizeof *m.collisions, 8);
    m.collisions_count = 1;
    m.collisions[0].samples = 0x81;
    m.collisions[0].impact_1 = m.ids[2].sound_id;
    m.collisions[0].impact_1_tf.volume_max = 1.0f;
    assert_int_equal(relic_tpa_write(&m, out, &err), RELIC_OK);
}

static void test_built_bank_validates_keeps_the_rules_and_round_trips(void **state)
{
    (void)state;
    relic_arena a;
    relic_buf out;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&out, 0);
    build_bank(&a, &out);
    tpa_round_trip(out.data, out.size);
    /* the collision table follows the samples; its offset is the file size minus one record */
    assert_int_equal(relic_load_u32le(out.data + 16), out.size - RELIC_TPA_COLLISION_SIZE);
    relic_buf_free(&out);
    relic_arena_release(&a);
}

static void test_identifier_pointing_inside_a_sample_is_a_layout_problem(void **state)
{
    (void)state;
    relic_arena a;
    relic_buf out;
    relic_error err;
    relic_tpa_view v;
    relic_tpa_file m;
    int problems = 0;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&out, 0);
    build_bank(&a, &out);
    relic_store_u32le(out.data + 24 + 56 + 4, relic_load_u32le(out.data + 24 + 56 + 4) + 1);
    assert_int_equal(relic_tpa_validate(out.data, out.size, &v, &err), RELIC_OK);
    assert_int_equal(relic_tpa_decode(&v, &a, &m, &err), RELIC_OK);
    assert_int_equal(tpa_check_scratch(&v, &m, 0, count_problem, &problems), 1);
    relic_buf_free(&out);
    relic_arena_release(&a);
}

static void test_bad_tpa_version_and_cau_magic_are_rejected(void **state)
{
    (void)state;
    relic_arena a;
    relic_buf out;
    relic_error err;
    relic_tpa_view v;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&out, 0);
    build_bank(&a, &out);
    out.data[0] = 0x40;
    assert_int_equal(relic_tpa_validate(out.data, out.size, &v, &err), RELIC_E_MAGIC);
    assert_string_equal(err.path, "header.version");
    out.data[0] = 0x50;
    out.data[24 + 3 * 56] = 'X'; /* first sample's magic */
    assert_int_equal(relic_tpa_validate(out.data, out.size, &v, &err), RELIC_E_MAGIC);
    assert_int_equal(err.offset, 24 + 3 * 56);
    relic_buf_free(&out);
    relic_arena_release(&a);
}

/* ---- the windowed check (relic_tpa_check_windowed) ------------------- */

#define MAX_KEPT 64

/* Problems as (code, offset, path), to compare two checks. */
typedef struct kept_problems {
    unsigned n;
    relic_error e[MAX_KEPT];
} kept_problems;

static void keep_problem(void *ctx, const relic_error *e)
{
    kept_problems *k = ctx;
    if (k->n < MAX_KEPT) k->e[k->n] = *e;
    k->n++;
}

/* The windows the check hands back: in file order, each byte once, never
 * past the view (their total is compared with the samples' data). */
typedef struct windows_seen {
    const relic_tpa_view *v;
    uint64_t next, bytes;
    unsigned count;
} windows_seen;

static void see_window(void *ctx, uint64_t offset, const uint8_t *data, size_t n)
{
    windows_seen *w = ctx;
    assert_ptr_equal(data, w->v->base + offset);
    assert_true(offset <= w->v->size && n <= w->v->size - offset);
    assert_true(offset >= w->next); /* in file order, never twice */
    w->next = offset + n;
    w->bytes += n;
    w->count++;
}

static unsigned windowed_scratch(const relic_tpa_view *v, const relic_tpa_file *m, int strict, size_t window,
                                 windows_seen *w, kept_problems *k)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    unsigned problems = relic_tpa_check_windowed(v, m, strict, window, w ? see_window : NULL, w, &a, keep_problem, k);
    relic_arena_release(&a);
    return problems;
}

/* The windowed check gives exactly relic_tpa_check's problems, whatever
 * the window, on banks that pass and on corrupted ones. */
static void expect_same_problems(const uint8_t *data, size_t n)
{
    relic_tpa_view v;
    relic_tpa_file m;
    relic_error err;
    relic_arena a;
    if (relic_tpa_validate(data, n, &v, &err) != RELIC_OK) return;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_tpa_decode(&v, &a, &m, &err), RELIC_OK);
    static const size_t windows[] = {1, 1028, 3000, 65536, 0};
    for (int strict = 0; strict < 2; strict++) {
        kept_problems whole = {0, {{0}}};
        relic_arena s;
        relic_arena_init_heap(&s, 0);
        relic_tpa_check(&v, &m, strict, &s, keep_problem, &whole);
        relic_arena_release(&s);
        for (size_t w = 0; w < sizeof windows / sizeof *windows; w++) {
            kept_problems part = {0, {{0}}};
            windows_seen seen = {&v, 0, 0, 0};
            windowed_scratch(&v, &m, strict, windows[w], &seen, &part);
            assert_int_equal(part.n, whole.n);
            for (unsigned i = 0; i < whole.n && i < MAX_KEPT; i++) {
                assert_int_equal(part.e[i].code, whole.e[i].code);
                assert_int_equal(part.e[i].offset, whole.e[i].offset);
                assert_string_equal(part.e[i].path, whole.e[i].path);
            }
            if (whole.n == 0) {
                uint64_t data_bytes = 0;
                for (size_t k = 0; k < m.samples_count; k++) data_bytes += m.samples[k].data_count;
                assert_int_equal(seen.bytes, data_bytes); /* every byte checked once */
            }
        }
    }
    relic_arena_release(&a);
}

static void test_windowed_check_equals_the_whole_check_on_every_bank(void **state)
{
    (void)state;
    relic_arena a;
    relic_buf built;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&built, 0);
    build_bank(&a, &built);
    expect_same_problems(built.data, built.size);
    /* corrupted: step indices past 88 inside the ADPCM data, header copies, lengths */
    uint64_t seed = 0x2545F4914F6CDD1Dull;
    for (int k = 0; k < 200; k++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        uint8_t *copy = malloc(built.size);
        memcpy(copy, built.data, built.size);
        copy[(seed >> 8) % built.size] = (uint8_t)(seed >> 40) | 0x80;
        expect_same_problems(copy, built.size);
        free(copy);
    }
    file_list fl = corpus(TPA_DIR, "tpa");
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        expect_same_problems(mp.bytes.data, mp.bytes.size);
        relic_unmap(&mp);
    }
    free_list(&fl);
    relic_buf_free(&built);
    relic_arena_release(&a);
}

/* As `relic pack-sounds` reads back what it wrote: the pack model (no data
 * in memory) against the written bytes. The check passes on the bytes the
 * writer made and fails, naming the field and offset, when they are
 * corrupted; a model reaching past the bytes is a problem, not a read. */
static void test_windowed_check_of_a_written_bank_fails_when_its_bytes_are_corrupted(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    relic_buf out;
    relic_cau_file c[2];
    enum { FRAMES = 40000 };
    int16_t *pcm = malloc(FRAMES * sizeof *pcm);
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&out, 0);
    make_signal(1, 1, FRAMES, pcm);
    assert_int_equal(relic_audio_cau_from_pcm(pcm, FRAMES, 1, 22050, 16, 1, NULL, 0, &a, &c[0], &err), RELIC_OK);
    assert_int_equal(relic_audio_cau_from_pcm(pcm, 300, 1, 11025, 16, 0, NULL, 0, &a, &c[1], &err), RELIC_OK);
    relic_tpa_pack_entry ids[3] = {{0x10, 0, 0, 0}, {0x20, 0, 0, 1}, {0x30, 0, 0, 0}};
    relic_tpa_file m;
    assert_int_equal(relic_tpa_pack(ids, 3, c, 2, NULL, 0, &a, &m, &err), RELIC_OK);
    assert_int_equal(relic_tpa_write(&m, &out, &err), RELIC_OK);
    for (size_t k = 0; k < m.samples_count; k++) m.samples[k].data = NULL; /* the data lives only in the file */
    relic_tpa_view v;
    kept_problems kp = {0, {{0}}};
    windows_seen seen = {&v, 0, 0, 0};
    assert_int_equal(relic_tpa_validate(out.data, out.size, &v, &err), RELIC_OK);
    assert_int_equal(windowed_scratch(&v, &m, 0, 4096, &seen, &kp), 0);
    assert_true(seen.count > 5); /* ~20 KB of ADPCM in 4 KB windows, then the PCM */
    /* a step index past 88 in block 9 of the ADPCM sample (stored first) */
    uint64_t data0 = relic_tpa_sample_offset(&m, 0) + m.samples[0].header.data_offset;
    uint64_t bad = data0 + 9 * 1028 + 2;
    uint8_t keep = out.data[bad];
    out.data[bad] = 89;
    memset(&kp, 0, sizeof kp);
    assert_int_equal(windowed_scratch(&v, &m, 0, 4096, NULL, &kp), 1);
    assert_int_equal(kp.e[0].code, RELIC_E_RANGE);
    assert_string_equal(kp.e[0].path, "samples[0].data");
    assert_int_equal(kp.e[0].offset, bad);
    out.data[bad] = keep;
    /* the header copy of the second identifier */
    uint64_t copy = RELIC_TPA_HEADER_SIZE + 1 * RELIC_TPA_ID_ENTRY_SIZE + RELIC_TPA_ID_ENTRY_HEADER_POS + 24;
    out.data[copy] ^= 1;
    memset(&kp, 0, sizeof kp);
    assert_int_equal(windowed_scratch(&v, &m, 0, 4096, NULL, &kp), 1);
    assert_string_equal(kp.e[0].path, "ids[1].header");
    assert_int_equal(kp.e[0].offset, copy - 24);
    out.data[copy] ^= 1;
    /* a plan that says the last sample is longer than what was written */
    m.samples[1].data_count += 4096;
    memset(&kp, 0, sizeof kp);
    assert_true(windowed_scratch(&v, &m, 0, 4096, NULL, &kp) >= 1);
    assert_int_equal(kp.e[0].code, RELIC_E_TRUNCATED);
    assert_string_equal(kp.e[0].path, "samples[1]");
    free(pcm);
    relic_buf_free(&out);
    relic_arena_release(&a);
}

/* Trespasser source, Lib/Audio/AudioLoader.hpp, Source/Tools/CollisionEditor/Database.cpp / Trespasser file formats: value = slope x velocity + intercept clamped to
 * [min, max]; final volume = volume / 10^(attenuation/10); silent below the
 * minimum velocity. Hand-computed at velocities 2, 10 and 0.2. */
static void test_foley_transfer_function_clamps_and_attenuates(void **state)
{
    (void)state;
    relic_tpa_transfer_function tf = {1.0f, 0.2f, 0.25f, 0.1f, 0.5f, -0.5f, -0.1f, 0.3f, 10.0f, 0.5f};
    relic_tpa_transfer_result r;
    relic_tpa_transfer_eval(&tf, 2.0f, &r);
    assert_float_equal(r.volume, 0.6f, 1e-6);
    assert_float_equal(r.pitch, 0.1f, 1e-6);
    assert_float_equal(r.final_volume, 0.06f, 1e-6);
    assert_true(r.plays);
    relic_tpa_transfer_eval(&tf, 10.0f, &r);
    assert_float_equal(r.volume, 1.0f, 0);
    assert_float_equal(r.pitch, -0.5f, 0);
    relic_tpa_transfer_eval(&tf, 0.2f, &r);
    assert_float_equal(r.volume, 0.2f, 0);
    assert_false(r.plays);
    /* which sounds a record plays */
    relic_tpa_collision c;
    memset(&c, 0, sizeof c);
    c.impact_1 = 11;
    c.impact_2 = 22;
    c.slide = 33;
    uint32_t ids[3];
    const relic_tpa_transfer_function *tfs[3];
    c.samples = 0x81;
    assert_int_equal(relic_tpa_collision_sounds(&c, ids, tfs), 2);
    assert_int_equal(ids[0], 11);
    assert_int_equal(ids[1], 33);
    assert_ptr_equal(tfs[1], &c.slide_tf);
    c.samples = 0x02;
    assert_int_equal(relic_tpa_collision_sounds(&c, ids, tfs), 2);
    assert_int_equal(ids[1], 22);
}

/* ---- sweeps ------------------------------------------------------------ */

/* Everything a reader might do with an input; must never crash. */
static void exercise(const uint8_t *p, size_t n, unsigned *accepted)
{
    relic_error err;
    relic_arena a;
    relic_arena_init_heap(&a, (size_t)64 << 20);
    relic_tpa_view tv;
    relic_cau_view cv;
    if (relic_tpa_validate(p, n, &tv, &err) == RELIC_OK) {
        relic_tpa_file m;
        (*accepted)++;
        if (relic_tpa_decode(&tv, &a, &m, &err) == RELIC_OK) {
            tpa_check_scratch(&tv, &m, 1, NULL, NULL);
            for (size_t k = 0; k < m.samples_count && k < 4; k++) {
                relic_audio_format f;
                int16_t *pcm;
                size_t frames, used;
                relic_audio_caption *lines;
                relic_audio_format_of_tpa(&m.samples[k].header, &f);
                relic_audio_decode(&f, m.samples[k].data, m.samples[k].data_count, 1, &a, &pcm, &frames, &err);
                if (m.samples[k].caption_text)
                    relic_audio_captions_parse(m.samples[k].caption_text, m.samples[k].caption_text_count, m.samples[k].caption_count, &a, &lines, &used, &err);
            }
        }
    } else if (relic_cau_validate(p, n, &cv, &err) == RELIC_OK) {
        relic_cau_file m;
        (*accepted)++;
        if (relic_cau_decode(&cv, &a, &m, &err) == RELIC_OK) {
            relic_audio_format f;
            int16_t *pcm;
            size_t frames, used;
            relic_audio_caption *lines;
            relic_audio_format_of_cau(&m.header, &f);
            relic_audio_decode(&f, m.data, m.data_count, 1, &a, &pcm, &frames, &err);
            if (m.caption_text) relic_audio_captions_parse(m.caption_text, m.caption_text_count, m.caption_count, &a, &lines, &used, &err);
        }
    } else {
        assert_true(err.message[0] != 0);
    }
    relic_arena_release(&a);
}

static int sweep_inputs(relic_mapping *maps, int max, relic_buf *built)
{
    file_list fl = corpus(TPA_DIR, "tpa");
    list_dir(CAU_DIR, "cau", &fl);
    int n = 0;
    relic_error err;
    for (int i = 0; i < fl.n && n < max - 1; i++) assert_int_equal(relic_map_file(fl.paths[i], 0, &maps[n++], &err), RELIC_OK);
    free_list(&fl);
    /* the built bank as a mapping-like entry */
    memset(&maps[n], 0, sizeof maps[n]);
    maps[n].bytes.data = built->data;
    maps[n].bytes.size = built->size;
    return n + 1;
}

static void test_truncations_never_crash(void **state)
{
    (void)state;
    relic_arena a;
    relic_buf built;
    relic_mapping maps[32];
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&built, 0);
    build_bank(&a, &built);
    int n = sweep_inputs(maps, 32, &built);
    unsigned accepted = 0;
    for (int i = 0; i < n; i++) {
        size_t size = maps[i].bytes.size;
        for (unsigned k = 0; k < 64; k++) {
            size_t cut = (size_t)((uint64_t)size * k / 64);
            uint8_t *copy = malloc(cut ? cut : 1);
            memcpy(copy, maps[i].bytes.data, cut);
            exercise(copy, cut, &accepted);
            free(copy);
        }
    }
    print_message("truncations: %d inputs x 64 cuts, %u accepted\n", n, accepted);
    for (int i = 0; i < n - 1; i++) relic_unmap(&maps[i]);
    relic_buf_free(&built);
    relic_arena_release(&a);
}

static void test_mutations_never_crash(void **state)
{
    (void)state;
    relic_arena a;
    relic_buf built;
    relic_mapping maps[32];
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&built, 0);
    build_bank(&a, &built);
    int n = sweep_inputs(maps, 32, &built);
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    unsigned accepted = 0;
    const unsigned total = 3000;
    /* one heap copy of each input, exactly its size (so an overread still meets ASan's redzone),
     * each mutation undone after its run: a fresh copy per mutation spent a third of this test
     * under ASan in memcpy and in page faults on new mappings */
    uint8_t *copies[32];
    for (int i = 0; i < n; i++) {
        copies[i] = malloc(maps[i].bytes.size ? maps[i].bytes.size : 1);
        assert_non_null(copies[i]);
        memcpy(copies[i], maps[i].bytes.data, maps[i].bytes.size);
    }
    for (unsigned k = 0; k < total; k++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        /* half on the small built bank, half on real files */
        unsigned which = k % 2 ? (unsigned)n - 1 : (k / 2) % (unsigned)n;
        size_t size = maps[which].bytes.size;
        uint8_t *copy = copies[which];
        /* bias towards the headers and tables, where counts and offsets live */
        size_t window = k % 3 ? (size < 4096 ? size : 4096) : size;
        size_t at = (seed >> 8) % window;
        copy[at] = (uint8_t)(seed >> 40);
        exercise(copy, size, &accepted);
        copy[at] = maps[which].bytes.data[at];
    }
    for (int i = 0; i < n; i++) free(copies[i]);
    print_message("mutations: %u inputs, %u accepted\n", total, accepted);
    for (int i = 0; i < n - 1; i++) relic_unmap(&maps[i]);
    relic_buf_free(&built);
    relic_arena_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adpcm_mono_block_decodes_to_hand_computed_samples),
        cmocka_unit_test(test_adpcm_stereo_block_interleaves_four_byte_groups),
        cmocka_unit_test(test_adpcm_positive_overflow_clamps_or_wraps_as_the_game),
        cmocka_unit_test(test_adpcm_step_index_above_88_is_rejected_with_its_offset),
        cmocka_unit_test(test_adpcm_frame_counts_follow_the_block_formulas),
        cmocka_unit_test(test_corpus_adpcm_decodes_to_the_measured_sizes),
        cmocka_unit_test(test_streaming_decode_equals_whole_decode_for_any_chunking),
        cmocka_unit_test(test_streaming_codecs_one_byte_at_a_time_equal_one_call),
        cmocka_unit_test(test_wav_reads_pcm_8_16_24_32_and_float_32_64_plain_and_extensible),
        cmocka_unit_test(test_wav_writes_unsigned_8_bit_and_pads_odd_data),
        cmocka_unit_test(test_wav_errors_name_the_field_and_offset),
        cmocka_unit_test(test_streaming_encoder_rejects_input_ending_inside_a_frame),
        cmocka_unit_test(test_streaming_decoder_reports_bad_step_index_at_its_stream_offset),
        cmocka_unit_test(test_encode_decode_snr_speech_mono),
        cmocka_unit_test(test_encode_decode_snr_music_mono),
        cmocka_unit_test(test_encode_decode_snr_speech_stereo),
        cmocka_unit_test(test_encode_decode_snr_music_stereo),
        cmocka_unit_test(test_encoder_never_overflows_on_a_square_wave),
        cmocka_unit_test(test_reencoding_corpus_adpcm_gives_the_same_bytes),
        cmocka_unit_test(test_decode_equals_sox_on_every_adpcm_sample),
        cmocka_unit_test(test_decode_stays_within_the_rounding_bound_of_ffmpeg),
        cmocka_unit_test(test_encoder_snr_is_at_least_ffmpeg_s_adpcm_ima_wav),
        cmocka_unit_test(test_corpus_cau_validate_and_round_trip_byte_exact),
        cmocka_unit_test(test_corpus_tpa_validate_keep_the_rules_and_round_trip),
        cmocka_unit_test(test_captions_parse_and_rebuild_byte_exact),
        cmocka_unit_test(test_sound_hash_of_missing_is_the_fallback_id),
        cmocka_unit_test(test_cau_from_pcm_builds_valid_samples),
        cmocka_unit_test(test_wav_write_then_read_is_lossless),
        cmocka_unit_test(test_built_bank_validates_keeps_the_rules_and_round_trips),
        cmocka_unit_test(test_packing_a_corpus_bank_s_identifiers_and_samples_gives_its_bytes),
        cmocka_unit_test(test_pack_shares_one_sample_between_identifiers_and_keeps_collisions),
        cmocka_unit_test(test_pack_rejects_repeated_ids_unnamed_samples_and_bad_indices),
        cmocka_unit_test(test_identifier_pointing_inside_a_sample_is_a_layout_problem),
        cmocka_unit_test(test_bad_tpa_version_and_cau_magic_are_rejected),
        cmocka_unit_test(test_windowed_check_equals_the_whole_check_on_every_bank),
        cmocka_unit_test(test_windowed_check_of_a_written_bank_fails_when_its_bytes_are_corrupted),
        cmocka_unit_test(test_foley_transfer_function_clamps_and_attenuates),
        cmocka_unit_test(test_truncations_never_crash),
        cmocka_unit_test(test_mutations_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
