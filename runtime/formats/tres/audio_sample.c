/* audio_sample.c — a Trespasser sound sample's data: what its header says
 * (Trespasser source, Lib/Audio/AudioLoad.cpp), whether the data decode (Trespasser source, Lib/Audio/AudioADPCM.cpp: 16-bit IMA
 * ADPCM only, step index 0..88), decoding to 16-bit PCM (PCM data are
 * 16-bit signed or 8-bit unsigned, Trespasser source, Lib/Audio/AudioLoad.cpp) and building a CAU from PCM with
 * the game's block sizes (Trespasser source, Lib/Audio/AudioLoad.cpp) and caption block (Trespasser source, Lib/Audio/AudioLoad.cpp). */
#include "relic_audio.h"

void relic_audio_format_of_cau(const relic_cau_sample_header *h, relic_audio_format *f)
{
    f->sample_rate = h->sample_rate;
    f->bits = h->bits;
    f->channels = h->channels;
    f->compression = h->compression;
    f->block_align = h->block_align;
    f->decoded_size = h->decoded_size;
}

void relic_audio_format_of_tpa(const relic_tpa_sample_header *h, relic_audio_format *f)
{
    f->sample_rate = h->sample_rate;
    f->bits = h->bits;
    f->channels = h->channels;
    f->compression = h->compression;
    f->block_align = h->block_align;
    f->decoded_size = h->decoded_size;
}

static unsigned frame_bytes(const relic_audio_format *f) { return f->channels * (f->bits / 8u); }

relic_status relic_audio_check_data(const relic_audio_format *f, const uint8_t *data, size_t n, relic_error *err)
{
    if (f->channels != 1 && f->channels != 2)
        return relic_fail(err, RELIC_E_RANGE, 0, "header.channels", "%u channels (1 or 2)", f->channels);
    if (f->bits != 8 && f->bits != 16)
        return relic_fail(err, RELIC_E_RANGE, 0, "header.bits", "%u bits per sample (8 or 16)", f->bits);
    if (f->compression == RELIC_CAU_COMPRESSION_PCM) {
        if (f->block_align != 0)
            return relic_fail(err, RELIC_E_RANGE, 0, "header.block_align", "PCM data with block size %u (must be 0)", f->block_align);
        if (n % frame_bytes(f) != 0)
            return relic_fail(err, RELIC_E_LAYOUT, n, "data", "%zu bytes of PCM are not a whole number of %u-byte frames", n, frame_bytes(f));
        return RELIC_OK;
    }
    if (f->compression != RELIC_CAU_COMPRESSION_IMA_ADPCM)
        return relic_fail(err, RELIC_E_UNSUPPORTED, 0, "header.compression", "compression %u (voice) is not implemented by the game", f->compression);
    if (f->bits != 16)
        return relic_fail(err, RELIC_E_UNSUPPORTED, 0, "header.bits", "%u-bit ADPCM: the game decodes only 16-bit", f->bits);
    relic_error e;
    if (relic_adpcm_check_params(f->block_align, f->channels, &e) != RELIC_OK)
        return relic_fail(err, e.code, 0, "header.block_align", "%s", e.message);
    for (size_t at = 0; at < n; at += f->block_align) {
        size_t len = n - at < f->block_align ? n - at : f->block_align;
        for (unsigned c = 0; c < f->channels; c++) {
            size_t h = at + c * RELIC_ADPCM_HEADER_BYTES;
            if (h + RELIC_ADPCM_HEADER_BYTES > at + len) break;
            if (data[h + 2] > RELIC_ADPCM_MAX_STEP_INDEX)
                return relic_fail(err, RELIC_E_RANGE, h + 2, "data", "block %zu channel %u: step index %u exceeds %u",
                                  at / f->block_align, c, data[h + 2], RELIC_ADPCM_MAX_STEP_INDEX);
        }
    }
    return RELIC_OK;
}

uint64_t relic_audio_frames(const relic_audio_format *f, size_t n)
{
    if (f->compression == RELIC_CAU_COMPRESSION_IMA_ADPCM) return relic_adpcm_frames(n, f->block_align, f->channels);
    unsigned fb = frame_bytes(f);
    return fb ? n / fb : 0;
}

relic_status relic_audio_decode(const relic_audio_format *f, const uint8_t *data, size_t n, unsigned flags,
                                relic_arena *a, int16_t **pcm, size_t *frames, relic_error *err)
{
    relic_status st = relic_audio_check_data(f, data, n, err);
    if (st != RELIC_OK) return st;
    uint64_t fr = relic_audio_frames(f, n);
    int16_t *out = relic_arena_array(a, (size_t)(fr * f->channels) + 1, sizeof(int16_t), _Alignof(int16_t));
    if (!out) return relic_fail(err, RELIC_E_NOMEM, 0, "data", "no memory for %llu frames", (unsigned long long)fr);
    if (f->compression == RELIC_CAU_COMPRESSION_IMA_ADPCM) {
        size_t got;
        st = relic_adpcm_decode(data, n, f->block_align, f->channels, flags, out, (size_t)(fr * f->channels), &got, err);
        if (st != RELIC_OK) return st;
    } else if (f->bits == 16) {
        for (size_t i = 0; i < fr * f->channels; i++) out[i] = (int16_t)relic_load_u16le(data + 2 * i);
    } else {
        for (size_t i = 0; i < fr * f->channels; i++) out[i] = (int16_t)((data[i] - 128) * 256);
    }
    *pcm = out;
    *frames = (size_t)fr;
    return RELIC_OK;
}

/* caption text cap: the block length is a u32, kept far below it */
#define RELIC_AUDIO_CAPTION_TEXT_MAX ((size_t)1 << 24)

relic_status relic_audio_cau_from_pcm(const int16_t *pcm, size_t frames, unsigned channels, uint32_t rate,
                                      unsigned bits, int adpcm, const relic_audio_caption *captions,
                                      size_t caption_count, relic_arena *a, relic_cau_file *out, relic_error *err)
{
    relic_status st;
    if (channels != 1 && channels != 2)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "channels", "%u channels: a CAU is mono or stereo", channels);
    if (bits != 8 && bits != 16) return relic_fail(err, RELIC_E_ARGUMENT, 0, "bits", "%u bits (8 or 16)", bits);
    if (rate == 0) return relic_fail(err, RELIC_E_ARGUMENT, 0, "sample_rate", "sample rate 0");
    if (adpcm) bits = 16; /* the game decodes ADPCM to 16-bit only */
    memset(out, 0, sizeof *out);
    relic_cau_sample_header *h = &out->header;
    memcpy(h->magic, RELIC_CAU_SAMPLE_HEADER_MAGIC_VALUE, sizeof h->magic);
    h->version = RELIC_AUDIO_CAU_VERSION;
    h->sample_rate = rate;
    h->bits = (uint8_t)bits;
    h->channels = (uint8_t)channels;
    h->compression = adpcm ? RELIC_CAU_COMPRESSION_IMA_ADPCM : RELIC_CAU_COMPRESSION_PCM;
    h->flags = 0;

    /* the data and caption bytes are built in place in the caller's arena
     * (ADPCM's search scratch is taken first, so the data grows in place) */
    relic_buf data;
    relic_buf_init_arena(&data, a, 0);
    if (adpcm) {
        h->block_align = channels == 1 ? RELIC_ADPCM_GAME_BLOCK_MONO : RELIC_ADPCM_GAME_BLOCK_STEREO;
        if ((st = relic_adpcm_encode(pcm, frames, channels, h->block_align, a, &data, err)) != RELIC_OK) return st;
        uint64_t decoded = relic_adpcm_frames(data.size, h->block_align, channels) * channels * 2;
        if (decoded > UINT32_MAX) return relic_fail(err, RELIC_E_LIMIT, 0, "decoded_size", "over 4 GiB");
        h->decoded_size = (uint32_t)decoded;
    } else {
        h->block_align = 0;
        uint8_t *p = relic_buf_extend(&data, frames * channels * (bits / 8));
        if (!p && frames) return relic_fail(err, RELIC_E_NOMEM, 0, "data", "no memory");
        for (size_t i = 0; i < frames * channels; i++) {
            if (bits == 16) relic_store_u16le(p + 2 * i, (uint16_t)pcm[i]);
            else p[i] = (uint8_t)(((int32_t)pcm[i] + 32768) >> 8);
        }
        h->decoded_size = (uint32_t)data.size;
    }
    if (data.failed || data.size > UINT32_MAX - 65536)
        return relic_fail(err, data.failed ? RELIC_E_NOMEM : RELIC_E_LIMIT, 0, "data", "cannot hold the audio data");
    out->data = data.size ? data.data : relic_arena_alloc(a, 1, 1);
    if (!out->data) return relic_fail(err, RELIC_E_NOMEM, 0, "data", "no memory");
    out->data_count = data.size;
    h->data_size = (uint32_t)data.size;

    uint32_t data_offset = RELIC_CAU_SAMPLE_HEADER_SIZE;
    if (caption_count > 0) {
        relic_buf t;
        relic_buf_init_arena(&t, a, 0);
        if ((st = relic_audio_captions_build(captions, caption_count, &t, err)) != RELIC_OK) return st;
        if (t.size > RELIC_AUDIO_CAPTION_TEXT_MAX)
            return relic_fail(err, RELIC_E_LIMIT, 0, "captions", "caption text over 16 MiB");
        out->caption_text = t.size ? t.data : relic_arena_alloc(a, 1, 1);
        if (!out->caption_text) return relic_fail(err, RELIC_E_NOMEM, 0, "captions", "no memory");
        out->caption_text_count = t.size;
        out->caption_count = (uint32_t)caption_count;
        out->caption_length = (uint32_t)(t.size + 4); /* the count field plus the text */
        h->caption_offset = RELIC_CAU_SAMPLE_HEADER_SIZE;
        data_offset = RELIC_CAU_SAMPLE_HEADER_SIZE + 4 + out->caption_length;
    }
    h->data_offset = data_offset;
    return RELIC_OK;
}
