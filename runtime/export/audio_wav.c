/* audio_wav.c — RIFF WAVE files, read and written by relic itself (Microsoft,
 * *Multimedia Programming Interface and Data Specifications 1.0*, "WAVE
 * form"; *WAVEFORMATEXTENSIBLE* for format tag 0xFFFE). Written: 16-bit or
 * unsigned 8-bit PCM with the canonical 44-byte header. Read: PCM of 8
 * (unsigned), 16, 24 or 32 bits and IEEE float of 32 or 64 bits, mono or
 * stereo, plain or extensible, converted to 16-bit as the samples relic
 * stores. Other sound formats are refused with a message naming the tools
 * that convert them. */
#include <math.h>

#include "relic_audio.h"

#define WAV_HEADER 12u     /* "RIFF", size, "WAVE" */
#define CHUNK_HEADER 8u    /* id, size */
#define FMT_MIN 16u        /* tag, channels, rate, byte rate, block align, bits */
#define FMT_EXTENSIBLE 40u /* FMT_MIN + cbSize, valid bits, channel mask, sub-format GUID */
#define TAG_PCM 0x0001u
#define TAG_FLOAT 0x0003u
#define TAG_EXTENSIBLE 0xFFFEu
/* The sub-format GUID after its first two bytes (the format tag):
 * {XXXXXXXX-0000-0010-8000-00AA00389B71}. */
static const uint8_t guid_tail[14] = {0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80,
                                      0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71};

void relic_audio_wav_header(uint8_t h[RELIC_WAV_HEADER_SIZE], unsigned channels, uint32_t rate, unsigned bits,
                            uint32_t data_bytes)
{
    unsigned block = channels * (bits / 8u);
    memcpy(h, "RIFF", 4);
    relic_store_u32le(h + 4, (uint32_t)(RELIC_WAV_HEADER_SIZE - 8u + data_bytes + (data_bytes & 1u)));
    memcpy(h + 8, "WAVEfmt ", 8);
    relic_store_u32le(h + 16, FMT_MIN);
    relic_store_u16le(h + 20, TAG_PCM);
    relic_store_u16le(h + 22, (uint16_t)channels);
    relic_store_u32le(h + 24, rate);
    relic_store_u32le(h + 28, rate * block);
    relic_store_u16le(h + 32, (uint16_t)block);
    relic_store_u16le(h + 34, (uint16_t)bits);
    memcpy(h + 36, "data", 4);
    relic_store_u32le(h + 40, data_bytes);
}

relic_status relic_audio_wav_check_params(unsigned channels, uint32_t rate, unsigned bits, uint64_t frames,
                                          relic_error *err)
{
    if ((channels != 1 && channels != 2) || rate == 0 || rate > UINT32_MAX / 4u || (bits != 8 && bits != 16))
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "cannot write a WAV of %u channels, %u Hz, %u bits", channels,
                          rate, bits);
    /* a RIFF size is 32 bits, and the data chunk is padded to even */
    if (frames * channels * (bits / 8u) > UINT32_MAX - RELIC_WAV_HEADER_SIZE - 1u)
        return relic_fail(err, RELIC_E_LIMIT, 0, "data", "%llu frames do not fit a WAV (4 GiB)",
                          (unsigned long long)frames);
    return RELIC_OK;
}

relic_status relic_audio_wav_write(const int16_t *pcm, size_t frames, unsigned channels, uint32_t rate,
                                   unsigned bits, relic_buf *out, relic_error *err)
{
    relic_status st = relic_audio_wav_check_params(channels, rate, bits, frames, err);
    if (st != RELIC_OK) return st;
    size_t values = frames * channels, bytes = values * (bits / 8u);
    uint8_t *p = relic_buf_extend(out, RELIC_WAV_HEADER_SIZE + bytes + (bytes & 1u));
    if (!p) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for a WAV of %zu bytes", bytes);
    relic_audio_wav_header(p, channels, rate, bits, (uint32_t)bytes);
    p += RELIC_WAV_HEADER_SIZE;
    if (bits == 16)
        for (size_t i = 0; i < values; i++) relic_store_u16le(p + 2 * i, (uint16_t)pcm[i]);
    else
        for (size_t i = 0; i < values; i++) p[i] = (uint8_t)(((int32_t)pcm[i] + 32768) >> 8);
    if (bytes & 1u) p[bytes] = 0; /* RIFF pads a chunk to an even size */
    return RELIC_OK;
}

/* The sound format a file's first bytes give away, when it is not WAV. */
static const char *other_format(const uint8_t *d, size_t n)
{
    if (n >= 4 && !memcmp(d, "fLaC", 4)) return "FLAC";
    if (n >= 4 && !memcmp(d, "OggS", 4)) return "Ogg";
    if (n >= 3 && !memcmp(d, "ID3", 3)) return "MP3";
    if (n >= 2 && d[0] == 0xFF && (d[1] & 0xE0) == 0xE0) return "MPEG audio";
    if (n >= 4 && !memcmp(d, "FORM", 4)) return "AIFF";
    if (n >= 4 && !memcmp(d, ".snd", 4)) return "Sun/NeXT au";
    if (n >= 4 && !memcmp(d, "RIFX", 4)) return "big-endian RIFF (RIFX)";
    if (n >= 4 && !memcmp(d, "RF64", 4)) return "RF64";
    if (n >= 8 && !memcmp(d + 4, "ftyp", 4)) return "MP4/M4A";
    return NULL;
}

#define CONVERT_HINT "relic reads WAV only: convert it first, e.g. `sox IN OUT.wav` or `ffmpeg -i IN OUT.wav`"

static relic_status parse_fmt(const uint8_t *f, size_t size, size_t at, relic_wav_info *w, relic_error *err)
{
    if (size < FMT_MIN)
        return relic_fail(err, RELIC_E_TRUNCATED, at, "fmt", "fmt chunk of %zu bytes (at least %u)", size, FMT_MIN);
    unsigned tag = relic_load_u16le(f);
    w->channels = relic_load_u16le(f + 2);
    w->sample_rate = relic_load_u32le(f + 4);
    w->block_align = relic_load_u16le(f + 12);
    w->bits = relic_load_u16le(f + 14);
    if (tag == TAG_EXTENSIBLE) {
        if (size < FMT_EXTENSIBLE)
            return relic_fail(err, RELIC_E_TRUNCATED, at, "fmt", "extensible fmt chunk of %zu bytes (at least %u)", size,
                              FMT_EXTENSIBLE);
        tag = relic_load_u16le(f + 24);
        if (memcmp(f + 26, guid_tail, sizeof guid_tail) != 0)
            return relic_fail(err, RELIC_E_UNSUPPORTED, at + 24, "fmt.sub_format",
                              "an extensible WAV whose sub-format GUID is not PCM or IEEE float; " CONVERT_HINT);
    }
    if (tag != TAG_PCM && tag != TAG_FLOAT)
        return relic_fail(err, RELIC_E_UNSUPPORTED, at, "fmt.format_tag",
                          "WAV format tag 0x%04X (compressed audio): relic reads PCM and IEEE float; " CONVERT_HINT, tag);
    w->is_float = tag == TAG_FLOAT;
    if (w->channels < 1 || w->channels > 2)
        return relic_fail(err, RELIC_E_UNSUPPORTED, at + 2, "fmt.channels",
                          "%u channels: Trespasser samples are mono or stereo", w->channels);
    if (w->sample_rate == 0)
        return relic_fail(err, RELIC_E_RANGE, at + 4, "fmt.sample_rate", "sample rate 0");
    int ok = w->is_float ? (w->bits == 32 || w->bits == 64)
                         : (w->bits == 8 || w->bits == 16 || w->bits == 24 || w->bits == 32);
    if (!ok)
        return relic_fail(err, RELIC_E_UNSUPPORTED, at + 14, "fmt.bits_per_sample", "%u-bit %s samples: relic reads %s",
                          w->bits, w->is_float ? "float" : "PCM",
                          w->is_float ? "32- and 64-bit float" : "8-, 16-, 24- and 32-bit PCM");
    if (w->block_align != w->channels * (w->bits / 8u))
        return relic_fail(err, RELIC_E_RANGE, at + 12, "fmt.block_align", "block align %u for %u channel(s) of %u bits",
                          w->block_align, w->channels, w->bits);
    return RELIC_OK;
}

relic_status relic_audio_wav_parse(const uint8_t *d, size_t n, relic_wav_info *w, relic_error *err)
{
    memset(w, 0, sizeof *w);
    if (n < WAV_HEADER || memcmp(d, "RIFF", 4) != 0 || memcmp(d + 8, "WAVE", 4) != 0) {
        const char *other = other_format(d, n);
        if (other) return relic_fail(err, RELIC_E_UNSUPPORTED, 0, "", "a %s file: " CONVERT_HINT, other);
        return relic_fail(err, RELIC_E_SYNTAX, 0, "riff", "not a WAV file (no RIFF/WAVE header)");
    }
    int have_fmt = 0;
    size_t at = WAV_HEADER;
    while (at + CHUNK_HEADER <= n) {
        uint32_t size = relic_load_u32le(d + at + 4);
        size_t body = at + CHUNK_HEADER, avail = n - body;
        if (!memcmp(d + at, "fmt ", 4)) {
            if (size > avail)
                return relic_fail(err, RELIC_E_TRUNCATED, at + 4, "fmt", "fmt chunk of %u bytes, %zu remain", size, avail);
            relic_status st = parse_fmt(d + body, size, body, w, err);
            if (st != RELIC_OK) return st;
            have_fmt = 1;
        } else if (!memcmp(d + at, "data", 4)) {
            if (!have_fmt) return relic_fail(err, RELIC_E_LAYOUT, at, "data", "data chunk before the fmt chunk");
            /* writers that could not seek leave 0 or 0xFFFFFFFF: take what is there */
            if (size > avail && size != 0 && size != UINT32_MAX)
                return relic_fail(err, RELIC_E_TRUNCATED, at + 4, "data", "data chunk of %u bytes, %zu remain", size,
                                  avail);
            w->data_offset = body;
            w->data_size = size > avail || size == 0 ? avail : size;
            w->frames = w->data_size / w->block_align; /* a partial last frame is dropped */
            return RELIC_OK;
        }
        if (size > avail) break;
        at = body + size + (size & 1u);
    }
    if (!have_fmt) return relic_fail(err, RELIC_E_LAYOUT, at, "fmt", "no fmt chunk");
    return relic_fail(err, RELIC_E_LAYOUT, at, "data", "no data chunk");
}

static inline int16_t clamp16(double v)
{
    v = v * 32767.0;
    if (!(v > -32768.0)) return v != v ? 0 : -32768; /* NaN is silence */
    if (v > 32767.0) return 32767;
    return (int16_t)lrint(v);
}

void relic_audio_wav_to_s16(const relic_wav_info *w, const uint8_t *src, size_t frames, int16_t *out)
{
    size_t values = frames * w->channels;
    if (w->is_float) {
        for (size_t i = 0; i < values; i++) {
            double v;
            if (w->bits == 32) {
                uint32_t u = relic_load_u32le(src + 4 * i);
                float f;
                memcpy(&f, &u, sizeof f);
                v = f;
            } else {
                uint64_t u = relic_load_u64le(src + 8 * i);
                memcpy(&v, &u, sizeof v);
            }
            out[i] = clamp16(v);
        }
        return;
    }
    switch (w->bits) { /* integer PCM keeps its top 16 bits */
    case 8:
        for (size_t i = 0; i < values; i++) out[i] = (int16_t)((src[i] - 128) * 256);
        break;
    case 16:
        for (size_t i = 0; i < values; i++) out[i] = (int16_t)relic_load_u16le(src + 2 * i);
        break;
    case 24:
        for (size_t i = 0; i < values; i++) out[i] = (int16_t)relic_load_u16le(src + 3 * i + 1);
        break;
    default:
        for (size_t i = 0; i < values; i++) out[i] = (int16_t)relic_load_u16le(src + 4 * i + 2);
        break;
    }
}

relic_status relic_audio_wav_read(const uint8_t *data, size_t n, relic_arena *a, int16_t **pcm, size_t *frames,
                                  unsigned *channels, uint32_t *rate, unsigned *bits, relic_error *err)
{
    relic_wav_info w;
    relic_status st = relic_audio_wav_parse(data, n, &w, err);
    if (st != RELIC_OK) return st;
    if (w.frames > UINT32_MAX / 4u)
        return relic_fail(err, RELIC_E_LIMIT, w.data_offset, "data", "%llu frames: a sample holds at most 4 GiB",
                          (unsigned long long)w.frames);
    int16_t *p = relic_arena_array(a, (size_t)w.frames * w.channels + 1, sizeof(int16_t), _Alignof(int16_t));
    if (!p) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for %llu frames", (unsigned long long)w.frames);
    relic_audio_wav_to_s16(&w, data + w.data_offset, (size_t)w.frames, p);
    *pcm = p;
    *frames = (size_t)w.frames;
    *channels = w.channels;
    *rate = w.sample_rate;
    *bits = w.bits == 8 && !w.is_float ? 8 : 16;
    return RELIC_OK;
}
