/* fuzz_adpcm.c — libFuzzer target for the IMA ADPCM codec (runtime/codec/adpcm.c,
 * Trespasser source, Lib/Audio/AudioADPCM.cpp). Input: byte 0 picks channels and decoder
 * flags, bytes 1-2 the block size, byte 3 the streaming chunk sizes; the
 * rest is ADPCM data, and also read as 16-bit PCM for the encoder.
 * Oracles: the whole-buffer and the streaming decoders agree sample for
 * sample on any chunking (or fail with the same status), and so do the
 * whole-buffer and streaming encoders byte for byte; never a write
 * past the output (ASan); encode -> decode keeps every block's first frame
 * exactly and never triggers the game's mono overflow.
 * Speed (issue 18: 41 executions/s; perf: the encoder's search took 40% of
 * the time at 1 in 8, page faults of fresh buffers most of the rest): the
 * decoders read at most DATA_MAX bytes (two of the game's stereo blocks; a
 * larger block is cut, which its own path handles), the streaming codecs'
 * states live in fuzz_scratch.h's arena, and the encoder round trip runs on at most
 * ENCODE_FRAMES frames for one input in 128 (fuzz_sample.h: at 1 in 16 its
 * search was still 44% of the time, ~12 us a frame under ASan).
 * Build and run: make fuzz (or build-fuzz/fuzz_adpcm -max_total_time=60). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdlib.h>
#include <string.h>

#include "relic_adpcm.h"
#include "fuzz_sample.h"
#include "fuzz_scratch.h"

/* the streaming decoder in byte-sized chunks makes a long input slow; every path is reached by then */
#define DATA_MAX 4096u
/* the encoder works block by block: 512 frames (two blocks or more at the block sizes chosen
 * below) reach every path; its search costs ~40 decodes of the same audio */
#define ENCODE_FRAMES 512u
#define ENCODE_ONE_IN 128u

/* relic_adpcm_encode with its search scratch in one static buffer reused by
 * every run: a fresh heap arena per run spent its time in page faults
 * (2 x 2041 frames need about 10 KB; 1 MiB leaves room) */
static relic_status adpcm_encode_scratch(const int16_t *pcm, size_t frames, unsigned channels, uint32_t block_align,
                                         relic_buf *out, relic_error *err)
{
    static _Alignas(64) uint8_t scratch[1u << 20];
    relic_arena a;
    relic_arena_init_buffer(&a, scratch, sizeof scratch);
    return relic_adpcm_encode(pcm, frames, channels, block_align, &a, out, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4) return 0;
    unsigned channels = 1 + (data[0] & 1);
    unsigned flags = (data[0] >> 1) & 1;
    uint32_t align = (uint32_t)(data[1] | (data[2] << 8)) % (RELIC_ADPCM_MAX_BLOCK + 16);
    size_t chunk_in = 1 + data[3] % 61, chunk_out = 1 + (data[3] >> 2) * 7;
    const uint8_t *in = data + 4;
    size_t n = size - 4 < DATA_MAX ? size - 4 : DATA_MAX;
    relic_error err;

    uint64_t frames = relic_adpcm_frames(n, align, channels);
    size_t cap = (size_t)frames * channels;
    int16_t *whole = malloc((cap ? cap : 1) * sizeof *whole);
    size_t got = 0;
    relic_status st = relic_adpcm_decode(in, n, align, channels, flags, whole, cap, &got, &err);
    if (st == RELIC_OK && got != frames) abort();
    if (st != RELIC_OK && err.message[0] == 0) abort();

    relic_arena sa; /* the streaming codecs' state (fuzz_scratch.h: mapped once, reused every run) */
    fuzz_scratch_arena(&sa, 0, 0);
    relic_stream ds, *d = &ds;
    if (relic_adpcm_decode_init(d, align, channels, flags, &sa, &err) == RELIC_OK) {
        /* the stream speaks 16-bit LE bytes */
        size_t bcap = 2 * cap;
        uint8_t *streamed = malloc(bcap + 1), *whole_le = malloc(bcap + 1);
        for (size_t i = 0; i < cap; i++) relic_store_u16le(whole_le + 2 * i, (uint16_t)whole[i]);
        size_t in_at = 0, out_at = 0;
        relic_stream_status r = RELIC_STREAM_NEED_INPUT;
        while (r != RELIC_STREAM_DONE) {
            size_t give = chunk_in < n - in_at ? chunk_in : n - in_at;
            size_t room = chunk_out < bcap + 1 - out_at ? chunk_out : bcap + 1 - out_at;
            d->next_in = in + in_at;
            d->avail_in = give;
            d->next_out = streamed + out_at;
            d->avail_out = room;
            r = relic_stream_run(d, in_at + give == n ? RELIC_STREAM_FINISH : RELIC_STREAM_MORE, &err);
            if (r == RELIC_STREAM_ERROR) break;
            in_at += give - d->avail_in;
            out_at += room - d->avail_out;
            if (give == d->avail_in && room == d->avail_out && r != RELIC_STREAM_DONE) abort(); /* no progress */
        }
        if ((r != RELIC_STREAM_ERROR) != (st == RELIC_OK)) abort();
        if (r != RELIC_STREAM_ERROR && (out_at != bcap || memcmp(streamed, whole_le, bcap) != 0)) abort();
        free(whole_le);
        free(streamed);
    } else if (st == RELIC_OK) {
        abort(); /* the whole-buffer decoder accepted parameters the stream refused */
    }
    free(whole);

    if (!fuzz_sampled(data, size, ENCODE_ONE_IN)) return 0;
    /* encoder: the input bytes as 16-bit PCM (a whole 256 KiB input through its search kept the
     * target at ~10 exec/s) */
    size_t pcm_frames = n / (2 * channels);
    if (pcm_frames > ENCODE_FRAMES) pcm_frames = ENCODE_FRAMES;
    /* blocks of at most 257 frames, so ENCODE_FRAMES spans two or more (the game's 1028/2056-byte
     * blocks are exercised by the decoders) */
    uint32_t enc_align = align < (channels == 1 ? 5u : 8u) || align > 132u * channels ? 132u * channels : align;
    int16_t *pcm = malloc((pcm_frames * channels + 1) * sizeof *pcm);
    memcpy(pcm, in, pcm_frames * channels * 2);
    relic_buf enc;
    relic_buf_init(&enc, 0);
    if (adpcm_encode_scratch(pcm, pcm_frames, channels, enc_align, &enc, &err) != RELIC_OK) abort();
    if (enc.size != relic_adpcm_encoded_size(pcm_frames, enc_align, channels)) abort();
    { /* the streaming encoder, fed and drained in the chunk sizes above, writes the same bytes */
        fuzz_scratch_arena(&sa, 0, 0);
        relic_stream es, *e = &es;
        uint8_t *sout = malloc(enc.size + 1);
        size_t pn = pcm_frames * channels * 2, in_at = 0, out_at = 0;
        if (relic_adpcm_encode_init(e, enc_align, channels, &sa, &err) != RELIC_OK) abort();
        relic_stream_status r = RELIC_STREAM_NEED_INPUT;
        while (r != RELIC_STREAM_DONE) {
            size_t give = chunk_in < pn - in_at ? chunk_in : pn - in_at;
            size_t room = chunk_out < enc.size + 1 - out_at ? chunk_out : enc.size + 1 - out_at;
            e->next_in = in + in_at;
            e->avail_in = give;
            e->next_out = sout + out_at;
            e->avail_out = room;
            r = relic_stream_run(e, in_at + give == pn ? RELIC_STREAM_FINISH : RELIC_STREAM_MORE, &err);
            if (r == RELIC_STREAM_ERROR) abort();
            in_at += give - e->avail_in;
            out_at += room - e->avail_out;
        }
        if (out_at != enc.size || (enc.size && memcmp(sout, enc.data, enc.size) != 0)) abort(); /* no frames: enc.data NULL */
        free(sout);
    }
    size_t cap2 = (size_t)relic_adpcm_frames(enc.size, enc_align, channels) * channels, got2;
    if (cap2 < pcm_frames * channels) abort();
    int16_t *a = malloc((cap2 + 1) * sizeof *a), *b = malloc((cap2 + 1) * sizeof *b);
    if (relic_adpcm_decode(enc.data, enc.size, enc_align, channels, 0, a, cap2, &got2, &err) != RELIC_OK) abort();
    if (relic_adpcm_decode(enc.data, enc.size, enc_align, channels, RELIC_ADPCM_GAME_MONO_OVERFLOW, b, cap2, &got2, &err) != RELIC_OK) abort();
    if (memcmp(a, b, cap2 * sizeof *a) != 0) abort();
    uint32_t per = relic_adpcm_block_frames(enc_align, channels);
    for (size_t f = 0; f < pcm_frames; f += per)
        for (unsigned c = 0; c < channels; c++)
            if (a[f * channels + c] != pcm[f * channels + c]) abort();
    free(a);
    free(b);
    free(pcm);
    relic_buf_free(&enc);
    return 0;
}
