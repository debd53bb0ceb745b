/* fuzz_lzss.c — libFuzzer target for the LZSS core (runtime/lzss*.c), SPZ
 * ring set-up. Oracles: the one-shot decoder never writes past the declared
 * size (ASan) and succeeds only with exactly that many bytes; the streaming
 * decoder fed in small and in larger uneven pieces produces the same bytes; every
 * encoder's output decodes back to the input, and BEST is never longer
 * than GREEDY. Speed (issue 18: 51 executions/s): the encoders' scratch in
 * a static buffer (no page faults per run), the byte-by-byte
 * streaming pass runs on outputs up to STREAM_SMALL_MAX, the encoders on the
 * first ENCODE_MAX bytes, and BEST (the optimal parse) for one input in 8
 * (fuzz_sample.h). Build and run: make fuzz (or build-fuzz/fuzz_lzss). */
#include <stdlib.h>
#include <string.h>

#include "relic_codec.h"
#include "relic_lzss.h"

#include "fuzz_sample.h"

/* relic_lzss_encode with its scratch tables (the 288 KB match tree, the
 * hash chains, BEST's per-byte arrays) in one static buffer reused by every
 * run: a fresh heap arena per run spent half the target's time in page
 * faults (perf) */
static relic_status encode_scratch(relic_lzss_variant v, relic_lzss_level level, const uint8_t *src, size_t n, relic_buf *out,
                                   relic_error *err)
{
    static _Alignas(64) uint8_t scratch[2u << 20];
    relic_arena a;
    relic_arena_init_buffer(&a, scratch, sizeof scratch);
    return relic_lzss_encode(v, level, src, n, &a, out, err);
}

#define ENCODE_MAX 4096u
/* the byte-by-byte streaming pass makes one decoder call per few bytes */
#define STREAM_SMALL_MAX 8192u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    relic_error err;
    /* 1. decode hostile bytes into a declared size */
    size_t declared = (size_t)data[0] << 8 | data[1]; /* up to 64 KiB: a larger buffer per run costs more than it finds */
    uint8_t *dst = malloc(declared ? declared : 1);
    relic_status st = relic_codec_lzss_decode(data + 2, size - 2, dst, declared, NULL, &err);
    if (st != RELIC_OK && err.message[0] == 0) abort();
    /* 2. the streaming decoder agrees with the one-shot decoder */
    uint64_t total = 0;
    if (relic_lzss_decoded_size(RELIC_LZSS_SPZ, data + 2, size - 2, &total, &err) == RELIC_OK && total < (1u << 22)) {
        uint8_t *a = malloc(total ? total : 1), *b = malloc(total ? total : 1);
        if (relic_lzss_decode_buffer(RELIC_LZSS_SPZ, data + 2, size - 2, a, total, &err) != RELIC_OK) abort();
        static uint8_t dmem[8192]; /* the decoder's state (its 4 KiB ring) */
        relic_arena da;
        relic_arena_init_buffer(&da, dmem, sizeof dmem);
        relic_stream d;
        if (relic_lzss_decode_init(&d, RELIC_LZSS_SPZ, &da, &err) != RELIC_OK) abort();
        size_t in = 2, out = 0, step = 1 + data[0] % 7;
        relic_stream_status r;
        if (total <= STREAM_SMALL_MAX) do {
                d.next_in = data + in;
                d.avail_in = size - in < step ? size - in : step;
                d.next_out = b + out;
                d.avail_out = total - out < step + 1 ? total - out : step + 1;
                r = relic_stream_run(&d, in + d.avail_in == size ? RELIC_STREAM_FINISH : RELIC_STREAM_MORE, &err);
                in = (size_t)(d.next_in - data);
                out = (size_t)d.total_out;
                if (r == RELIC_STREAM_ERROR) abort();
                if (r == RELIC_STREAM_NEED_OUTPUT && out == total) abort();
            } while (r != RELIC_STREAM_DONE);
        if (total <= STREAM_SMALL_MAX && (out != total || memcmp(a, b, total) != 0)) abort();
        /* ... and in larger uneven pieces, where whole flag groups take the fast
         * path with sources both in this call's output and in the ring */
        relic_arena_init_buffer(&da, dmem, sizeof dmem);
        if (relic_lzss_decode_init(&d, RELIC_LZSS_SPZ, &da, &err) != RELIC_OK) abort();
        memset(b, 0, total);
        in = 2;
        unsigned k = 0;
        do {
            size_t istep = 17 + data[(k + 1) % size] * 3u, ostep = 144 + data[k % size] * 5u;
            k++;
            d.next_in = data + in;
            d.avail_in = size - in < istep ? size - in : istep;
            d.next_out = b + d.total_out;
            d.avail_out = total - d.total_out < ostep ? total - d.total_out : ostep;
            r = relic_stream_run(&d, in + d.avail_in == size ? RELIC_STREAM_FINISH : RELIC_STREAM_MORE, &err);
            in = (size_t)(d.next_in - data);
            if (r == RELIC_STREAM_ERROR) abort();
            if (r == RELIC_STREAM_NEED_OUTPUT && d.total_out == total) abort();
        } while (r != RELIC_STREAM_DONE);
        if (d.total_out != total || memcmp(a, b, total) != 0) abort();
        free(a);
        free(b);
    }
    free(dst);
    /* 3. encode -> decode is the identity at every level (first 16 KiB: the
     * encoders' paths are all reached by then, and runs stay fast) */
    size_t greedy = 0;
    int best = fuzz_sampled(data, size, 8);
    if (size > ENCODE_MAX) size = ENCODE_MAX;
    for (int level = RELIC_LZSS_FAST; level <= (best ? RELIC_LZSS_BEST : RELIC_LZSS_GREEDY); level++) {
        relic_buf z;
        relic_buf_init(&z, 0);
        if (encode_scratch(RELIC_LZSS_SPZ, (relic_lzss_level)level, data, size, &z, &err) != RELIC_OK) abort();
        uint8_t *back = malloc(size);
        if (relic_lzss_decode_buffer(RELIC_LZSS_SPZ, z.data, z.size, back, size, &err) != RELIC_OK ||
            memcmp(back, data, size) != 0) abort();
        if (level == RELIC_LZSS_GREEDY) greedy = z.size;
        if (level == RELIC_LZSS_BEST && z.size > greedy) abort();
        free(back);
        relic_buf_free(&z);
    }
    return 0;
}
