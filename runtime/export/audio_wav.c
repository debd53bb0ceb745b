/* audio_wav.c — WAV files for the audio formats, through libsndfile (a
 * Debian library): writing decoded samples as RIFF WAVE 16-bit or unsigned
 * 8-bit PCM into a relic_buf, and reading any sound file libsndfile knows
 * from memory into 16-bit PCM. Both use libsndfile's virtual I/O, so no
 * temporary files are involved and the CLI writes outputs atomically. */
#include <sndfile.h>

#include "relic_audio.h"

/* A memory "file" for libsndfile: reads from bytes, or writes into a buf. */
typedef struct vio {
    const uint8_t *rd;
    relic_buf *wr;
    sf_count_t size, pos;
} vio;

static sf_count_t v_len(void *u) { return ((vio *)u)->size; }
static sf_count_t v_tell(void *u) { return ((vio *)u)->pos; }

static sf_count_t v_seek(sf_count_t off, int whence, void *u)
{
    vio *v = u;
    sf_count_t p = whence == SEEK_SET ? off : whence == SEEK_CUR ? v->pos + off : v->size + off;
    if (p < 0) return -1;
    v->pos = p;
    return p;
}

static sf_count_t v_read(void *ptr, sf_count_t n, void *u)
{
    vio *v = u;
    if (!v->rd || v->pos >= v->size || n <= 0) return 0;
    if (n > v->size - v->pos) n = v->size - v->pos;
    memcpy(ptr, v->rd + v->pos, (size_t)n);
    v->pos += n;
    return n;
}

static sf_count_t v_write(const void *ptr, sf_count_t n, void *u)
{
    vio *v = u;
    if (!v->wr || n < 0) return 0;
    sf_count_t end = v->pos + n;
    if ((size_t)end > v->wr->size && !relic_buf_extend(v->wr, (size_t)end - v->wr->size)) return 0;
    memcpy(v->wr->data + v->pos, ptr, (size_t)n);
    v->pos = end;
    if (end > v->size) v->size = end;
    return n;
}

relic_status relic_audio_wav_write(const int16_t *pcm, size_t frames, unsigned channels, uint32_t rate,
                                   unsigned bits, relic_buf *out, relic_error *err)
{
    if ((channels != 1 && channels != 2) || rate == 0 || rate > INT32_MAX || (bits != 8 && bits != 16))
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "", "cannot write a WAV of %u channels, %u Hz, %u bits", channels, rate, bits);
    vio v = { NULL, out, 0, 0 };
    SF_VIRTUAL_IO io = { v_len, v_seek, v_read, v_write, v_tell };
    SF_INFO info;
    memset(&info, 0, sizeof info);
    info.samplerate = (int)rate;
    info.channels = (int)channels;
    info.format = SF_FORMAT_WAV | (bits == 8 ? SF_FORMAT_PCM_U8 : SF_FORMAT_PCM_16);
    /* libsndfile seeks back to patch the header: write into a buffer of its own */
    relic_buf tmp;
    relic_buf_init(&tmp, 0);
    v.wr = &tmp;
    SNDFILE *sf = sf_open_virtual(&io, SFM_WRITE, &info, &v);
    if (!sf) {
        relic_buf_free(&tmp);
        return relic_fail(err, RELIC_E_IO, 0, "", "libsndfile: %s", sf_strerror(NULL));
    }
    sf_count_t want = (sf_count_t)frames, got = sf_writef_short(sf, pcm, want);
    int rc = sf_close(sf);
    if (got != want || rc != 0 || tmp.failed) {
        relic_buf_free(&tmp);
        return relic_fail(err, RELIC_E_IO, 0, "", "libsndfile could not write the WAV (%lld of %lld frames)",
                          (long long)got, (long long)want);
    }
    relic_buf_append(out, tmp.data, (size_t)v.size);
    relic_buf_free(&tmp);
    return out->failed ? relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the WAV") : RELIC_OK;
}

relic_status relic_audio_wav_read(const uint8_t *data, size_t n, relic_arena *a, int16_t **pcm, size_t *frames,
                                  unsigned *channels, uint32_t *rate, unsigned *bits, relic_error *err)
{
    vio v = { data, NULL, (sf_count_t)n, 0 };
    SF_VIRTUAL_IO io = { v_len, v_seek, v_read, v_write, v_tell };
    SF_INFO info;
    memset(&info, 0, sizeof info);
    SNDFILE *sf = sf_open_virtual(&io, SFM_READ, &info, &v);
    if (!sf) return relic_fail(err, RELIC_E_SYNTAX, 0, "", "not a sound file libsndfile reads: %s", sf_strerror(NULL));
    relic_status st = RELIC_OK;
    if (info.channels < 1 || info.channels > 2) {
        st = relic_fail(err, RELIC_E_UNSUPPORTED, 0, "", "%d channels: Trespasser samples are mono or stereo", info.channels);
    } else if (info.samplerate <= 0) {
        st = relic_fail(err, RELIC_E_RANGE, 0, "", "sample rate %d", info.samplerate);
    } else if (info.frames < 0 || (uint64_t)info.frames > (UINT32_MAX / 4u)) {
        st = relic_fail(err, RELIC_E_LIMIT, 0, "", "%lld frames: a sample holds at most 4 GiB", (long long)info.frames);
    } else {
        int16_t *p = relic_arena_array(a, (size_t)info.frames * (size_t)info.channels + 1, sizeof(int16_t), _Alignof(int16_t));
        if (!p) st = relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for %lld frames", (long long)info.frames);
        else {
            sf_count_t got = sf_readf_short(sf, p, info.frames);
            *pcm = p;
            *frames = (size_t)(got > 0 ? got : 0);
            *channels = (unsigned)info.channels;
            *rate = (uint32_t)info.samplerate;
            int sub = info.format & SF_FORMAT_SUBMASK;
            *bits = (sub == SF_FORMAT_PCM_U8 || sub == SF_FORMAT_PCM_S8) ? 8 : 16;
        }
    }
    sf_close(sf);
    return st;
}
