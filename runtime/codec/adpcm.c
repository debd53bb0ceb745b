/* adpcm.c — IMA/DVI ADPCM decoder and encoder in Trespasser's block layout
 * (Trespasser source, Lib/Audio/AudioADPCM.cpp "IMA/DVI ADPCM as decoded by the game", Trespasser source, Lib/Audio/AudioLoad.cpp
 * sizes; Trespasser file formats, "ADPCM uses the 'new' DVI form ie. decode low nibble then
 * high nibble"). The arithmetic is the IMA reference one the game uses:
 * difference = step>>3, plus step, step>>1, step>>2 for nibble bits 2, 1, 0,
 * negated by bit 3; step index adjusted by {-1,-1,-1,-1,2,4,6,8} and clamped
 * to 0..88. The tables are the standard IMA ones (their values are facts of
 * the standard, restated in §4.4). */
#include "relic_adpcm.h"

/* clang-format off */
static const int16_t step_table[RELIC_ADPCM_MAX_STEP_INDEX + 1] = {
    7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 21, 23, 25, 28, 31, 34, 37, 41, 45,
    50, 55, 60, 66, 73, 80, 88, 97, 107, 118, 130, 143, 157, 173, 190, 209, 230,
    253, 279, 307, 337, 371, 408, 449, 494, 544, 598, 658, 724, 796, 876, 963,
    1060, 1166, 1282, 1411, 1552, 1707, 1878, 2066, 2272, 2499, 2749, 3024, 3327,
    3660, 4026, 4428, 4871, 5358, 5894, 6484, 7132, 7845, 8630, 9493, 10442, 11487,
    12635, 13899, 15289, 16818, 18500, 20350, 22385, 24623, 27086, 29794, 32767,
};
/* clang-format on */

/* Index adjustment by the low 3 bits of a nibble. */
static const int8_t index_table[8] = {-1, -1, -1, -1, 2, 4, 6, 8};

/* Bytes per stereo data unit: 4 bytes of left nibbles, then 4 of right. */
#define STEREO_UNIT 8u
#define NIBBLES_PER_STEREO_UNIT 8u

typedef struct chan {
    int32_t pred; /* may be 32768 under RELIC_ADPCM_GAME_MONO_OVERFLOW */
    int32_t index;
} chan;

/* The reference shift-and-add difference of a nibble at a step. */
static inline int32_t nibble_diff(int32_t step, unsigned nib)
{
    /* masks, not branches: nibbles are noise to a branch predictor */
    int32_t d = (step >> 3) + (step & -(int32_t)((nib >> 2) & 1)) + ((step >> 1) & -(int32_t)((nib >> 1) & 1)) +
        ((step >> 2) & -(int32_t)(nib & 1));
    int32_t neg = -(int32_t)(nib >> 3);
    return (d ^ neg) - neg;
}

static inline int32_t next_index(int32_t index, unsigned nib)
{
    index += index_table[nib & 7];
    return index < 0 ? 0 : index > (int32_t)RELIC_ADPCM_MAX_STEP_INDEX ? (int32_t)RELIC_ADPCM_MAX_STEP_INDEX
                                                                       : index;
}

/* One nibble; returns the 16-bit output value. */
static inline int16_t decode_nibble(chan *c, unsigned nib, int game_overflow)
{
    int32_t p = c->pred + nibble_diff(step_table[c->index], nib);
    if (p > 32767) p = game_overflow ? 32768 : 32767;
    else if (p < -32768) p = -32768;
    c->pred = p;
    c->index = next_index(c->index, nib);
    return (int16_t)(p > 32767 ? -32768 : p);
}

uint32_t relic_adpcm_block_frames(uint32_t block_align, unsigned channels)
{
    if (channels == 1) return block_align > RELIC_ADPCM_HEADER_BYTES ? 1u + 2u * (block_align - RELIC_ADPCM_HEADER_BYTES) : 0;
    if (channels == 2)
        return block_align >= 2 * RELIC_ADPCM_HEADER_BYTES
            ? 1u + NIBBLES_PER_STEREO_UNIT * ((block_align - 2 * RELIC_ADPCM_HEADER_BYTES) / STEREO_UNIT)
            : 0;
    return 0;
}

uint64_t relic_adpcm_frames(uint64_t data_size, uint32_t block_align, unsigned channels)
{
    if (relic_adpcm_check_params(block_align, channels, NULL) != RELIC_OK) return 0;
    uint64_t full = data_size / block_align;
    uint32_t rest = (uint32_t)(data_size % block_align);
    return full * relic_adpcm_block_frames(block_align, channels) + relic_adpcm_block_frames(rest, channels);
}

/* Bytes of a block holding r >= 1 frames (r <= a full block's frames). */
static uint32_t block_bytes_for(uint64_t r, unsigned channels)
{
    if (channels == 1) {
        uint64_t data = r / 2;                                         /* ceil((r - 1) / 2) */
        return RELIC_ADPCM_HEADER_BYTES + (uint32_t)(data ? data : 1); /* a header alone decodes to nothing */
    }
    uint64_t units = (r - 1 + NIBBLES_PER_STEREO_UNIT - 1) / NIBBLES_PER_STEREO_UNIT;
    return 2 * RELIC_ADPCM_HEADER_BYTES + (uint32_t)units * STEREO_UNIT;
}

uint64_t relic_adpcm_encoded_size(uint64_t frames, uint32_t block_align, unsigned channels)
{
    uint32_t per = relic_adpcm_block_frames(block_align, channels);
    if (per == 0) return 0;
    uint64_t full = frames / per, rest = frames % per;
    return full * block_align + (rest ? block_bytes_for(rest, channels) : 0);
}

relic_status relic_adpcm_check_params(uint32_t block_align, unsigned channels, relic_error *err)
{
    if (channels != 1 && channels != 2)
        return relic_fail(err, RELIC_E_RANGE, 0, "channels", "%u channels: IMA ADPCM here is mono or stereo", channels);
    uint32_t min = channels == 1 ? RELIC_ADPCM_HEADER_BYTES + 1 : 2 * RELIC_ADPCM_HEADER_BYTES;
    if (block_align < min || block_align > RELIC_ADPCM_MAX_BLOCK)
        return relic_fail(err, RELIC_E_RANGE, 0, "block_align", "block size %u outside %u..%u for %u channel(s)",
                          block_align, min, RELIC_ADPCM_MAX_BLOCK, channels);
    return RELIC_OK;
}

static relic_status read_header(const uint8_t *p, size_t at, chan *c, relic_error *err)
{
    c->pred = (int16_t)relic_load_u16le(p + at);
    c->index = p[at + 2];
    if (c->index > (int32_t)RELIC_ADPCM_MAX_STEP_INDEX)
        return relic_fail(err, RELIC_E_RANGE, at + 2, "step_index", "step index %d exceeds %u", (int)c->index,
                          RELIC_ADPCM_MAX_STEP_INDEX);
    return RELIC_OK;
}

/* For each (step index, nibble), index x 16 + nibble: the difference and
 * the next step index x 16. */
typedef struct relic_adpcm_table {
    int32_t diff[(RELIC_ADPCM_MAX_STEP_INDEX + 1) * 16];
    uint16_t next[(RELIC_ADPCM_MAX_STEP_INDEX + 1) * 16];
} relic_adpcm_table;

/* The decoder's inner loop runs on a table of (step index, nibble): the
 * difference and the next state (step index x 16), so a sample is two
 * loads, an add and a clamp. Built from the reference arithmetic above. */
static void build_table(relic_adpcm_table *t)
{
    for (unsigned i = 0; i <= RELIC_ADPCM_MAX_STEP_INDEX; i++)
        for (unsigned nib = 0; nib < 16; nib++) {
            t->diff[i * 16 + nib] = nibble_diff(step_table[i], nib);
            t->next[i * 16 + nib] = (uint16_t)(next_index((int32_t)i, nib) * 16);
        }
}

#define DECODE_STEP(pred, state, nib, t)     \
    do {                                     \
        unsigned k_ = (state) + (nib);       \
        int32_t p_ = (pred) + (t)->diff[k_]; \
        p_ = p_ > 32767 ? 32767 : p_;        \
        (pred) = p_ < -32768 ? -32768 : p_;  \
        (state) = (t)->next[k_];             \
    } while (0)

/* One block (headers already read and checked) as 16-bit LE bytes. */
static size_t decode_mono_le(const uint8_t *in, size_t n, chan c, int game, const relic_adpcm_table *t, uint8_t *out)
{
    relic_store_u16le(out, (uint16_t)c.pred);
    out += 2;
    if (game) {
        for (size_t i = RELIC_ADPCM_HEADER_BYTES; i < n; i++, out += 4) {
            relic_store_u16le(out, (uint16_t)decode_nibble(&c, in[i] & 0x0F, 1));
            relic_store_u16le(out + 2, (uint16_t)decode_nibble(&c, in[i] >> 4, 1));
        }
    } else {
        int32_t pred = c.pred;
        unsigned state = (unsigned)c.index * 16;
        for (size_t i = RELIC_ADPCM_HEADER_BYTES; i < n; i++, out += 4) {
            unsigned b = in[i];
            int32_t p0;
            DECODE_STEP(pred, state, b & 0x0Fu, t);
            p0 = pred;
            DECODE_STEP(pred, state, b >> 4, t);
            relic_store_u32le(out, (uint32_t)(p0 & 0xFFFF) | (uint32_t)pred << 16);
        }
    }
    return 1 + 2 * (n - RELIC_ADPCM_HEADER_BYTES);
}

static size_t decode_stereo_le(const uint8_t *in, size_t n, chan l, chan r, const relic_adpcm_table *t, uint8_t *out)
{
    int32_t lp = l.pred, rp = r.pred;
    unsigned ls = (unsigned)l.index * 16, rs = (unsigned)r.index * 16;
    relic_store_u32le(out, (uint32_t)(lp & 0xFFFF) | (uint32_t)rp << 16);
    out += 4;
    size_t units = (n - 2 * RELIC_ADPCM_HEADER_BYTES) / STEREO_UNIT;
    const uint8_t *p = in + 2 * RELIC_ADPCM_HEADER_BYTES;
    /* both channels in one loop: two independent dependency chains */
    for (size_t u = 0; u < units; u++, p += STEREO_UNIT) {
        uint32_t wl = relic_load_u32le(p), wr = relic_load_u32le(p + 4);
        for (unsigned k = 0; k < NIBBLES_PER_STEREO_UNIT; k++, wl >>= 4, wr >>= 4, out += 4) {
            DECODE_STEP(lp, ls, wl & 0x0Fu, t);
            DECODE_STEP(rp, rs, wr & 0x0Fu, t);
            relic_store_u32le(out, (uint32_t)(lp & 0xFFFF) | (uint32_t)rp << 16);
        }
    }
    return 1 + NIBBLES_PER_STEREO_UNIT * units;
}

/* One block (full or short) of n bytes as 16-bit LE bytes; *frames gets
 * the frame count. Offsets in errors are relative to in. */
static relic_status decode_block_le(const uint8_t *in, size_t n, unsigned channels, unsigned flags,
                                    const relic_adpcm_table *t, uint8_t *out, size_t *frames, relic_error *err)
{
    relic_status st;
    chan c[2];
    *frames = 0;
    if (channels == 1) {
        if (n <= RELIC_ADPCM_HEADER_BYTES) return RELIC_OK; /* the game yields nothing (Trespasser source, Lib/Audio/AudioADPCM.cpp) */
        if ((st = read_header(in, 0, &c[0], err)) != RELIC_OK) return st;
        *frames = decode_mono_le(in, n, c[0], (flags & RELIC_ADPCM_GAME_MONO_OVERFLOW) != 0, t, out);
        return RELIC_OK;
    }
    if (channels != 2) return relic_fail(err, RELIC_E_RANGE, 0, "channels", "%u channels", channels);
    if (n < 2 * RELIC_ADPCM_HEADER_BYTES) return RELIC_OK;
    if ((st = read_header(in, 0, &c[0], err)) != RELIC_OK) return st;
    if ((st = read_header(in, RELIC_ADPCM_HEADER_BYTES, &c[1], err)) != RELIC_OK) return st;
    *frames = decode_stereo_le(in, n, c[0], c[1], t, out);
    return RELIC_OK;
}

/* 16-bit LE bytes to host int16_t in place (nothing to do on LE hosts). */
static void le_to_host(int16_t *v, size_t count)
{
    const uint16_t probe = 1;
    uint8_t first;
    memcpy(&first, &probe, 1);
    if (first) return;
    for (size_t i = 0; i < count; i++) {
        uint8_t b[2];
        memcpy(b, &v[i], 2);
        v[i] = (int16_t)relic_load_u16le(b);
    }
}

relic_status relic_adpcm_decode_block(const uint8_t *in, size_t n, unsigned channels, unsigned flags,
                                      int16_t *out, size_t *frames, relic_error *err)
{
    relic_adpcm_table t;
    build_table(&t);
    relic_status st = decode_block_le(in, n, channels, flags, &t, (uint8_t *)(void *)out, frames, err);
    if (st == RELIC_OK) le_to_host(out, *frames * channels);
    return st;
}

relic_status relic_adpcm_decode(const uint8_t *in, size_t n, uint32_t block_align, unsigned channels,
                                unsigned flags, int16_t *out, size_t out_cap, size_t *frames, relic_error *err)
{
    relic_status st = relic_adpcm_check_params(block_align, channels, err);
    *frames = 0;
    if (st != RELIC_OK) return st;
    uint64_t need = relic_adpcm_frames(n, block_align, channels) * channels;
    if (need > out_cap)
        return relic_fail(err, RELIC_E_LIMIT, 0, "data", "%llu samples do not fit the output (%zu)",
                          (unsigned long long)need, out_cap);
    relic_adpcm_table t;
    build_table(&t);
    size_t total = 0;
    for (size_t at = 0; at < n; at += block_align) {
        size_t len = n - at < block_align ? n - at : block_align, got;
        st = decode_block_le(in + at, len, channels, flags, &t, (uint8_t *)(void *)(out + total * channels), &got, err);
        if (st != RELIC_OK) {
            if (err) err->offset += at;
            return st;
        }
        total += got;
    }
    le_to_host(out, total * channels);
    *frames = total;
    return RELIC_OK;
}

/* ---------------------------------------------------------------------- */
/* Streaming decoder                                                      */
/* ---------------------------------------------------------------------- */

/* The decoder's state. */
typedef struct adpcm_dec {
    uint32_t block_align;
    unsigned channels;
    unsigned flags;
    size_t fill;               /* input bytes held in block[] */
    size_t pend_pos, pend_len; /* decoded bytes in pcm[] not yet delivered */
    relic_adpcm_table table;
    uint8_t block[RELIC_ADPCM_MAX_BLOCK];
    uint8_t pcm[2 * RELIC_ADPCM_MAX_BLOCK_SAMPLES];
} adpcm_dec;

_Static_assert(sizeof(adpcm_dec) <= RELIC_ADPCM_DECODE_MEMORY, "RELIC_ADPCM_DECODE_MEMORY is the decoder's state");

static relic_stream_status dec_run(relic_stream *s, relic_stream_flush flush, relic_error *err);
static const relic_stream_codec adpcm_decode_codec = {"adpcm decode", dec_run, NULL};

relic_status relic_adpcm_decode_init(relic_stream *s, uint32_t block_align, unsigned channels, unsigned flags,
                                     relic_arena *a, relic_error *err)
{
    relic_status st = relic_adpcm_check_params(block_align, channels, err);
    if (st != RELIC_OK) return st;
    if (!a) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "no arena for the ADPCM decoder");
    adpcm_dec *d = relic_arena_alloc(a, sizeof *d, 16);
    if (!d) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no arena room for the ADPCM decoder (%zu bytes)", sizeof *d);
    d->block_align = block_align;
    d->channels = channels;
    d->flags = flags;
    d->fill = d->pend_pos = d->pend_len = 0;
    build_table(&d->table);
    relic_stream_setup(s, &adpcm_decode_codec, d);
    return RELIC_OK;
}

/* Decode a held or caller block of n bytes that started at input offset
 * `at` into pcm[], to be delivered. */
static relic_status decode_to_held(adpcm_dec *d, const uint8_t *blk, size_t n, uint64_t at, relic_error *err)
{
    size_t frames;
    if (decode_block_le(blk, n, d->channels, d->flags, &d->table, d->pcm, &frames, err) != RELIC_OK) {
        if (err) err->offset += at;
        return err ? err->code : RELIC_E_RANGE;
    }
    d->pend_pos = 0;
    d->pend_len = frames * d->channels * sizeof(int16_t);
    return RELIC_OK;
}

static relic_stream_status dec_run(relic_stream *s, relic_stream_flush flush, relic_error *err)
{
    adpcm_dec *d = s->state;
    const size_t a = d->block_align;
    const size_t full = (size_t)relic_adpcm_block_frames(d->block_align, d->channels) * d->channels * sizeof(int16_t);
    for (;;) {
        if (d->pend_pos < d->pend_len && !relic_stream_deliver(s, d->pcm, &d->pend_pos, d->pend_len))
            return RELIC_STREAM_NEED_OUTPUT;
        if (d->fill == 0) {
            /* whole blocks straight from the caller's input to its output */
            while (s->avail_in >= a && s->avail_out >= full) {
                size_t frames;
                if (decode_block_le(s->next_in, a, d->channels, d->flags, &d->table, s->next_out, &frames, err) != RELIC_OK) {
                    if (err) err->offset += s->total_in;
                    return RELIC_STREAM_ERROR;
                }
                s->next_in += a;
                s->avail_in -= a;
                s->total_in += a;
                s->next_out += full;
                s->avail_out -= full;
                s->total_out += full;
            }
            if (s->avail_in >= a) { /* a whole block but little room: hold its output */
                if (decode_to_held(d, s->next_in, a, s->total_in, err) != RELIC_OK) return RELIC_STREAM_ERROR;
                s->next_in += a;
                s->avail_in -= a;
                s->total_in += a;
                continue;
            }
        }
        if (s->avail_in > 0) { /* gather a block cut across calls */
            size_t k = a - d->fill;
            if (k > s->avail_in) k = s->avail_in;
            memcpy(d->block + d->fill, s->next_in, k);
            d->fill += k;
            s->next_in += k;
            s->avail_in -= k;
            s->total_in += k;
            if (d->fill == a) {
                d->fill = 0;
                if (decode_to_held(d, d->block, a, s->total_in - a, err) != RELIC_OK) return RELIC_STREAM_ERROR;
            }
            continue;
        }
        if (flush != RELIC_STREAM_FINISH) return RELIC_STREAM_NEED_INPUT;
        if (d->fill > 0) { /* the final short block */
            size_t n = d->fill;
            d->fill = 0;
            if (decode_to_held(d, d->block, n, s->total_in - n, err) != RELIC_OK) return RELIC_STREAM_ERROR;
            continue;
        }
        return RELIC_STREAM_DONE;
    }
}

/* ---------------------------------------------------------------------- */
/* Encoder                                                                */
/* ---------------------------------------------------------------------- */

/* Choose the nibble for target from state (pred, index) with the
 * decoder's arithmetic, never overflowing 16 bits; returns the nibble and
 * updates *pred (not the index). */
static inline unsigned encode_nibble(int32_t pred, int32_t index, int32_t target, int32_t *out_pred)
{
    int32_t step = step_table[index];
    int32_t diff = target - pred;
    unsigned nib = 0;
    if (diff < 0) {
        nib = 8;
        diff = -diff;
    }
    if (diff >= step) {
        nib |= 4;
        diff -= step;
    }
    if (diff >= step >> 1) {
        nib |= 2;
        diff -= step >> 1;
    }
    if (diff >= step >> 2) nib |= 1;
    int32_t p = pred + nibble_diff(step, nib);
    if (p > 32767) {
        /* a smaller positive code, else the smallest negative one */
        while ((nib & 7) && pred + nibble_diff(step, nib) > 32767) nib--;
        if (pred + nibble_diff(step, nib) > 32767) nib = 8;
        p = pred + nibble_diff(step, nib);
    }
    if (p < -32768) p = -32768;
    *out_pred = p;
    return nib;
}

/* The encoder's trajectory for the best step index found so far: the
 * state before coding frame j and the squared error of frames 1..j-1. */
typedef struct trajectory {
    int32_t *pred;
    uint8_t *index;
    uint64_t *cum; /* cum[m] is the block's total error */
} trajectory;

/* Code x[1..m) (stride s) from pred x[0] and step index `start`. Returns the
 * total squared error, or a value >= bound once it cannot win. The IMA
 * step index adapts within a few frames, so candidates soon reach the same
 * (predictor, index) state as the best trajectory at the same frame; from
 * there they code identically, and the rest of their error is the best's:
 * the search then costs a few frames per candidate, not a whole block.
 * *merge gets the frame where that happened (m when it did not). */
static uint64_t trial(const int16_t *x, size_t m, size_t s, int32_t start, const trajectory *t, uint64_t bound,
                      size_t *merge, uint64_t *prefix)
{
    int32_t pred = x[0], index = start;
    uint64_t e = 0;
    for (size_t j = 1; j < m; j++) {
        if (t && pred == t->pred[j] && index == t->index[j]) {
            *merge = j;
            *prefix = e;
            return e + (t->cum[m] - t->cum[j]);
        }
        int32_t target = x[j * s], np;
        unsigned nib = encode_nibble(pred, index, target, &np);
        int64_t d = (int64_t)target - np;
        e += (uint64_t)(d * d);
        if (e >= bound) return e;
        pred = np;
        index = next_index(index, nib);
    }
    *merge = m;
    *prefix = e;
    return e;
}

/* Record the trajectory of `start` for frames [1, upto) in t. */
static void record(const int16_t *x, size_t m, size_t s, int32_t start, size_t upto, trajectory *t)
{
    int32_t pred = x[0], index = start;
    uint64_t e = 0;
    for (size_t j = 1; j < upto; j++) {
        t->pred[j] = pred;
        t->index[j] = (uint8_t)index;
        t->cum[j] = e;
        int32_t target = x[j * s], np;
        unsigned nib = encode_nibble(pred, index, target, &np);
        int64_t d = (int64_t)target - np;
        e += (uint64_t)(d * d);
        pred = np;
        index = next_index(index, nib);
    }
    if (upto == m) t->cum[m] = e;
}

/* Encode one channel of one block: m real frames at x (stride s), padded
 * to `slots` nibbles by repeating the last frame. */
static void encode_channel(const int16_t *x, size_t m, size_t s, size_t slots, unsigned channels, unsigned ch,
                           int32_t *carry_index, trajectory *t, uint8_t *blk)
{
    /* the step index minimising the block's squared error; the index the
     * previous block ended with first, as a good bound */
    int32_t best = *carry_index;
    size_t merge;
    uint64_t prefix;
    record(x, m, s, best, m, t);
    uint64_t best_e = t->cum[m];
    for (int32_t i = 0; i <= (int32_t)RELIC_ADPCM_MAX_STEP_INDEX && best_e > 0; i++) {
        if (i == best || i == *carry_index) continue;
        uint64_t e = trial(x, m, s, i, t, best_e, &merge, &prefix);
        if (e < best_e) {
            /* the new best: its own prefix, then the old suffix with the errors shifted */
            uint64_t old_at_merge = merge < m ? t->cum[merge] : 0;
            record(x, m, s, i, merge, t);
            for (size_t k = merge; k <= m && merge < m; k++) t->cum[k] = t->cum[k] - old_at_merge + prefix;
            if (merge == m) t->cum[m] = e;
            best_e = e;
            best = i;
        }
    }
    uint8_t *h = blk + RELIC_ADPCM_HEADER_BYTES * ch;
    relic_store_u16le(h, (uint16_t)x[0]);
    h[2] = (uint8_t)best;
    h[3] = 0;
    int32_t pred = x[0], index = best;
    for (size_t j = 0; j < slots; j++) {
        size_t f = j + 1 < m ? j + 1 : m - 1;
        int32_t np;
        unsigned nib = encode_nibble(pred, index, x[f * s], &np);
        pred = np;
        index = next_index(index, nib);
        size_t at;
        if (channels == 1) at = RELIC_ADPCM_HEADER_BYTES + j / 2;
        else at = 2 * RELIC_ADPCM_HEADER_BYTES + (j / NIBBLES_PER_STEREO_UNIT) * STEREO_UNIT + 4 * ch + (j % NIBBLES_PER_STEREO_UNIT) / 2;
        blk[at] |= (uint8_t)(nib << (4 * (j & 1)));
    }
    *carry_index = index;
}

/* Encode one block of m frames (interleaved, channels) into blk, which
 * gets `bytes` bytes: a full block or the short final one. */
static void encode_block(const int16_t *pcm, size_t m, unsigned channels, uint32_t bytes, int32_t carry[2],
                         trajectory *t, uint8_t *blk)
{
    memset(blk, 0, bytes);
    size_t slots = channels == 1 ? 2 * (size_t)(bytes - RELIC_ADPCM_HEADER_BYTES)
                                 : NIBBLES_PER_STEREO_UNIT * ((bytes - 2 * RELIC_ADPCM_HEADER_BYTES) / STEREO_UNIT);
    for (unsigned ch = 0; ch < channels; ch++)
        encode_channel(pcm + ch, m, channels, slots, channels, ch, &carry[ch], t, blk);
}

relic_status relic_adpcm_encode(const int16_t *pcm, size_t frames, unsigned channels, uint32_t block_align,
                                relic_arena *scratch, relic_buf *out, relic_error *err)
{
    relic_status st = relic_adpcm_check_params(block_align, channels, err);
    if (st != RELIC_OK) return st;
    if (!scratch || !out) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "no scratch arena or output buffer");
    const uint32_t per = relic_adpcm_block_frames(block_align, channels);
    int32_t carry[2] = {0, 0};
    /* scratch for the step-index search: one block's trajectory */
    size_t slots_max = (size_t)per + 1;
    uint8_t *sp = relic_arena_array(scratch, slots_max, sizeof(uint64_t) + sizeof(int32_t) + 1, sizeof(uint64_t));
    if (!sp) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the encoder's search (%zu frames)", slots_max);
    trajectory t = {(int32_t *)(void *)(sp + slots_max * sizeof(uint64_t)),
                    sp + slots_max * (sizeof(uint64_t) + sizeof(int32_t)), (uint64_t *)(void *)sp};
    for (size_t f0 = 0; f0 < frames; f0 += per) {
        size_t m = frames - f0 < per ? frames - f0 : per;
        uint32_t bytes = m == per ? block_align : block_bytes_for(m, channels);
        uint8_t *blk = relic_buf_extend(out, bytes);
        if (!blk)
            return relic_fail(err, RELIC_E_NOMEM, out->size, "", "cannot grow the output to %zu bytes", out->size + bytes);
        encode_block(pcm + f0 * channels, m, channels, bytes, carry, &t, blk);
    }
    return RELIC_OK;
}

/* ---------------------------------------------------------------------- */
/* Streaming encoder                                                      */
/* ---------------------------------------------------------------------- */

/* The encoder's state. */
typedef struct adpcm_enc {
    uint32_t block_align;
    unsigned channels;
    uint32_t block_frames;     /* frames of a full block */
    int32_t carry[2];          /* step index each channel ended the last block with */
    size_t fill;               /* PCM bytes held in in[] */
    size_t pend_pos, pend_len; /* encoded bytes in block[] not yet delivered */
    uint8_t in[2 * RELIC_ADPCM_MAX_BLOCK_SAMPLES];
    int16_t frames[RELIC_ADPCM_MAX_BLOCK_SAMPLES];
    uint8_t block[RELIC_ADPCM_MAX_BLOCK];
    int32_t t_pred[RELIC_ADPCM_MAX_BLOCK_SAMPLES + 1];
    uint8_t t_index[RELIC_ADPCM_MAX_BLOCK_SAMPLES + 1];
    uint64_t t_cum[RELIC_ADPCM_MAX_BLOCK_SAMPLES + 1];
} adpcm_enc;

_Static_assert(sizeof(adpcm_enc) <= RELIC_ADPCM_ENCODE_MEMORY, "RELIC_ADPCM_ENCODE_MEMORY is the encoder's state");

static relic_stream_status enc_run(relic_stream *s, relic_stream_flush flush, relic_error *err);
static const relic_stream_codec adpcm_encode_codec = {"adpcm encode", enc_run, NULL};

relic_status relic_adpcm_encode_init(relic_stream *s, uint32_t block_align, unsigned channels, relic_arena *a,
                                     relic_error *err)
{
    relic_status st = relic_adpcm_check_params(block_align, channels, err);
    if (st != RELIC_OK) return st;
    if (!a) return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "no arena for the ADPCM encoder");
    adpcm_enc *e = relic_arena_alloc(a, sizeof *e, 16);
    if (!e) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no arena room for the ADPCM encoder (%zu bytes)", sizeof *e);
    e->block_align = block_align;
    e->channels = channels;
    e->block_frames = relic_adpcm_block_frames(block_align, channels);
    e->carry[0] = e->carry[1] = 0;
    e->fill = e->pend_pos = e->pend_len = 0;
    relic_stream_setup(s, &adpcm_encode_codec, e);
    return RELIC_OK;
}

/* Encode the m frames held in e->in (bytes) into e->block. */
static void encode_held(adpcm_enc *e, size_t m)
{
    for (size_t i = 0; i < m * e->channels; i++) e->frames[i] = (int16_t)relic_load_u16le(e->in + 2 * i);
    uint32_t bytes = m == e->block_frames ? e->block_align : block_bytes_for(m, e->channels);
    trajectory t = {e->t_pred, e->t_index, e->t_cum};
    encode_block(e->frames, m, e->channels, bytes, e->carry, &t, e->block);
    e->pend_pos = 0;
    e->pend_len = bytes;
    e->fill = 0;
}

static relic_stream_status enc_run(relic_stream *s, relic_stream_flush flush, relic_error *err)
{
    adpcm_enc *e = s->state;
    const size_t frame_bytes = (size_t)e->channels * sizeof(int16_t);
    const size_t need = (size_t)e->block_frames * frame_bytes;
    for (;;) {
        if (e->pend_pos < e->pend_len && !relic_stream_deliver(s, e->block, &e->pend_pos, e->pend_len))
            return RELIC_STREAM_NEED_OUTPUT;
        if (s->avail_in > 0) {
            size_t k = need - e->fill;
            if (k > s->avail_in) k = s->avail_in;
            memcpy(e->in + e->fill, s->next_in, k);
            e->fill += k;
            s->next_in += k;
            s->avail_in -= k;
            s->total_in += k;
            if (e->fill == need) encode_held(e, e->block_frames);
            continue;
        }
        if (flush != RELIC_STREAM_FINISH) return RELIC_STREAM_NEED_INPUT;
        if (e->fill > 0) { /* the final short block */
            if (e->fill % frame_bytes) {
                relic_fail(err, RELIC_E_TRUNCATED, s->total_in, "pcm", "the input ends inside a frame (%zu of %zu bytes)",
                           e->fill % frame_bytes, frame_bytes);
                return RELIC_STREAM_ERROR;
            }
            encode_held(e, e->fill / frame_bytes);
            continue;
        }
        return RELIC_STREAM_DONE;
    }
}
