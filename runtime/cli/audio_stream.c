/* audio_stream.c — the audio commands' data paths, block by block in
 * constant memory whatever the input size: a sample's data to WAV (`relic
 * convert X.cau Y.wav`, `relic extract`), and a WAV to a CAU sample (`relic
 * encode`, `relic convert X.wav Y.cau`). The input is the mapped file: it
 * is read in order and the pages behind the read position are handed back
 * to the kernel, so they do not accumulate in the resident set; the output
 * goes out through relic_out (temporary file, then rename) in 256 KiB writes.
 * IMA ADPCM runs through the streaming codecs of relic_adpcm.h. */
#define _DEFAULT_SOURCE 1

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "audio_cli.h"

/* Output written per write(2); input handed back to the kernel per step. */
#define STREAM_CHUNK ((size_t)256 << 10)

typedef struct stream {
    relic_out out;
    const relic_mapping *src; /* the mapping the input lies in, or NULL */
    const uint8_t *released;  /* input below this was handed back */
    uint8_t *buf;             /* STREAM_CHUNK bytes of output */
    relic_error err;
} stream;

/* Hand back the pages of the input that lie wholly below upto. Only for a
 * read-only file mapping: there the pages come back from the file if read
 * again (on heap memory the advice would discard data). */
static void release_input(stream *s, const uint8_t *upto)
{
    if (!s->src || s->src->is_mmap != 1 || !s->src->bytes.data) return;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t base = (uintptr_t)s->src->bytes.data, from = (uintptr_t)s->released, to = (uintptr_t)upto;
    if (to > base + s->src->bytes.size) to = base + s->src->bytes.size;
    to -= (to - base) % page; /* mapping starts on a page */
    from = from < base ? base : from;
    from += (page - (from - base) % page) % page;
    if (to <= from) return;
    madvise((void *)from, to - from, MADV_DONTNEED);
    s->released = (const uint8_t *)to;
}

static int stream_open(stream *s, const char *out_path, const char *in_path, const relic_mapping *src,
                       const uint8_t *start)
{
    memset(s, 0, sizeof *s);
    s->src = src;
    s->released = start;
    if (in_path && strcmp(out_path, in_path) == 0 && strcmp(out_path, "-") != 0) {
        cli_errorf(out_path, 0, "refusing to overwrite the input file");
        return 1;
    }
    s->buf = malloc(STREAM_CHUNK);
    if (!s->buf) {
        cli_errorf(out_path, 0, "no memory for the output buffer");
        return 1;
    }
    if (relic_out_open(&s->out, out_path, in_path, &s->err) != RELIC_OK) {
        cli_error(out_path, &s->err);
        free(s->buf);
        s->buf = NULL;
        return 1;
    }
    return 0;
}

static int stream_write(stream *s, const void *p, size_t n)
{
    if (relic_out_write(&s->out, p, n, &s->err) != RELIC_OK) {
        cli_error(s->out.path, &s->err);
        return 1;
    }
    return 0;
}

/* rc 0: commit; else abort. Returns the final status. */
static int stream_close(stream *s, int rc)
{
    if (!s->buf) return 1;
    free(s->buf);
    s->buf = NULL;
    if (rc != 0) {
        relic_out_abort(&s->out);
        return rc;
    }
    if (relic_out_commit(&s->out, &s->err) != RELIC_OK) {
        cli_error(s->out.path, &s->err);
        return 1;
    }
    return 0;
}

/* Byte offset of p in the input file, when it lies in the mapping. */
static size_t file_offset(const relic_mapping *src, const uint8_t *p)
{
    return src && src->bytes.data && p >= src->bytes.data ? (size_t)(p - src->bytes.data) : 0;
}

int cli_audio_write_wav(const relic_audio_format *f, const uint8_t *data, size_t n, const relic_mapping *src,
                        const char *out_path, const char *in_path)
{
    relic_error err;
    relic_audio_format params = *f;
    int adpcm = f->compression == RELIC_CAU_COMPRESSION_IMA_ADPCM;
    /* parameters only: block headers are checked as the decoder reaches them */
    if (relic_audio_check_data(&params, data, adpcm ? 0 : n, &err) != RELIC_OK) {
        if (!strcmp(err.path, "data")) err.offset += file_offset(src, data);
        cli_error(in_path, &err);
        return 1;
    }
    unsigned bits = adpcm ? 16 : f->bits;
    uint64_t frames = relic_audio_frames(f, n), bytes = frames * f->channels * (bits / 8u);
    if (relic_audio_wav_check_params(f->channels, f->sample_rate, bits, frames, &err) != RELIC_OK) {
        cli_error(in_path, &err);
        return 1;
    }
    stream s;
    if (stream_open(&s, out_path, in_path, src, data)) return 1;
    uint8_t h[RELIC_WAV_HEADER_SIZE];
    relic_audio_wav_header(h, f->channels, f->sample_rate, bits, (uint32_t)bytes);
    int rc = stream_write(&s, h, sizeof h);
    if (!adpcm) {
        /* PCM as stored is the WAV's data: 16-bit signed LE, 8-bit unsigned */
        for (size_t at = 0; !rc && at < bytes; at += STREAM_CHUNK) {
            size_t k = bytes - at < STREAM_CHUNK ? (size_t)(bytes - at) : STREAM_CHUNK;
            rc = stream_write(&s, data + at, k);
            release_input(&s, data + at + k);
        }
    } else {
        relic_arena da; /* the decoder's state */
        relic_arena_init_heap(&da, 0);
        relic_stream d;
        if (relic_adpcm_decode_init(&d, f->block_align, f->channels, RELIC_ADPCM_CLAMP, &da, &err) != RELIC_OK) {
            cli_error(in_path, &err);
            rc = 1;
        } else {
            d.next_in = data;
            d.avail_in = n; /* the whole mapped input: blocks go straight to the output buffer */
            relic_stream_status r = RELIC_STREAM_NEED_OUTPUT;
            while (!rc && r != RELIC_STREAM_DONE) {
                d.next_out = s.buf;
                d.avail_out = STREAM_CHUNK;
                r = relic_stream_run(&d, RELIC_STREAM_FINISH, &err);
                if (r == RELIC_STREAM_ERROR) {
                    err.offset += file_offset(src, data);
                    cli_error(in_path, &err);
                    rc = 1;
                    break;
                }
                rc = stream_write(&s, s.buf, STREAM_CHUNK - d.avail_out);
                release_input(&s, d.next_in);
            }
            relic_stream_end(&d);
        }
        relic_arena_release(&da);
    }
    if (!rc && (bytes & 1u)) rc = stream_write(&s, "", 1); /* RIFF pads an odd chunk */
    return stream_close(&s, rc);
}

/* Read captions from a JSON file into the arena; 0 on success. */
static int load_captions(const char *path, relic_arena *a, relic_audio_caption **caps, size_t *n)
{
    relic_mapping cm;
    relic_error err;
    int rc = 0;
    if (relic_map_file(path, CLI_MAX_PIPE_INPUT, &cm, &err) != RELIC_OK) {
        cli_error(path, &err);
        return 1;
    }
    if (relic_audio_captions_from_json((const char *)cm.bytes.data, cm.bytes.size, a, caps, n, &err) != RELIC_OK) {
        cli_error(path, &err);
        rc = 1;
    }
    relic_unmap(&cm);
    return rc;
}

/* The CAU's header and caption block for the given data size, by the
 * generated writer (data left out), checked by the validator once the
 * data size is known to fit. */
int cli_cau_prefix(relic_cau_file *m, relic_buf *out, const char *out_path)
{
    relic_error err;
    relic_cau_file head = *m;
    head.data = NULL;
    head.data_count = 0;
    uint32_t data_size = head.header.data_size;
    head.header.data_size = 0;
    if (relic_cau_write(&head, out, &err) != RELIC_OK) {
        cli_error(out_path, &err);
        return 1;
    }
    relic_store_u32le(out->data + RELIC_CAU_SAMPLE_HEADER_DATA_SIZE_POS, data_size);
    return 0;
}

/* The 16-bit frames of a WAV's data, a piece at a time. */
#define PCM_FRAMES 16384u

/* The frames of the WAV w (whose bytes start at base, inside the mapping
 * map) as a sample's data: PCM of bits (8 or 16) when block_align is 0,
 * else IMA ADPCM in blocks of block_align, the encoder's state from a.
 * Writes exactly the data size the CAU header states for them. */
static int stream_wav_data(stream *s, const relic_mapping *map, const uint8_t *base, const relic_wav_info *w,
                           unsigned bits, uint32_t block_align, relic_arena *a, const char *in_path)
{
    relic_error err;
    int adpcm = block_align != 0, rc = 0;
    s->src = map;
    s->released = base;
    int16_t *pcm = malloc(PCM_FRAMES * 2 * sizeof *pcm);
    relic_stream e; /* the encoder's state comes from a */
    memset(&e, 0, sizeof e);
    if (!pcm) {
        cli_errorf(in_path, 0, "no memory for the encoder");
        rc = 1;
    } else if (adpcm && relic_adpcm_encode_init(&e, block_align, w->channels, a, &err) != RELIC_OK) {
        cli_error(in_path, &err);
        rc = 1;
    }
    const uint8_t *src = base + w->data_offset;
    uint8_t *le = (uint8_t *)s->buf; /* 16-bit LE frames for the encoder, or the PCM to store */
    for (uint64_t f0 = 0; !rc && (f0 < w->frames || (adpcm && f0 == w->frames));) {
        size_t k = w->frames - f0 < PCM_FRAMES ? (size_t)(w->frames - f0) : PCM_FRAMES;
        relic_audio_wav_to_s16(w, src + f0 * w->block_align, k, pcm);
        size_t values = k * w->channels;
        if (!adpcm) {
            if (bits == 16)
                for (size_t i = 0; i < values; i++) relic_store_u16le(le + 2 * i, (uint16_t)pcm[i]);
            else
                for (size_t i = 0; i < values; i++) le[i] = (uint8_t)(((int32_t)pcm[i] + 32768) >> 8);
            rc = stream_write(s, le, values * (bits / 8u));
        } else {
            uint8_t in_le[PCM_FRAMES * 2 * sizeof(int16_t)];
            for (size_t i = 0; i < values; i++) relic_store_u16le(in_le + 2 * i, (uint16_t)pcm[i]);
            int last = f0 + k == w->frames;
            e.next_in = in_le;
            e.avail_in = values * 2;
            relic_stream_status r;
            do {
                e.next_out = s->buf;
                e.avail_out = STREAM_CHUNK;
                r = relic_stream_run(&e, last ? RELIC_STREAM_FINISH : RELIC_STREAM_MORE, &err);
                if (r == RELIC_STREAM_ERROR) {
                    cli_error(in_path, &err);
                    rc = 1;
                } else {
                    rc = stream_write(s, s->buf, STREAM_CHUNK - e.avail_out);
                }
            } while (!rc && r == RELIC_STREAM_NEED_OUTPUT);
            if (last) f0++; /* past the end: the loop's final round flushed the encoder */
        }
        f0 += k;
        release_input(s, src + f0 * w->block_align);
    }
    relic_stream_end(&e);
    free(pcm);
    s->src = NULL;
    return rc;
}

int cli_cau_from_wav(const cli_input *in, const char *out_path, int adpcm, const char *captions_path)
{
    relic_arena a;
    relic_error err;
    relic_wav_info w;
    relic_audio_caption *caps = NULL;
    size_t ncap = 0;
    relic_cau_file m;
    relic_buf prefix;
    int rc = 1;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    relic_buf_init(&prefix, 0);
    if (captions_path && load_captions(captions_path, &a, &caps, &ncap)) goto done;
    if (relic_audio_wav_parse(in->map.bytes.data, in->map.bytes.size, &w, &err) != RELIC_OK) {
        cli_error(in->path, &err);
        goto done;
    }
    unsigned bits = adpcm || w.is_float || w.bits != 8 ? 16 : 8;
    /* the header and captions of the sample, from a model holding no frames */
    if (relic_audio_cau_from_pcm(NULL, 0, w.channels, w.sample_rate, bits, adpcm, caps, ncap, &a, &m, &err) != RELIC_OK) {
        cli_error(in->path, &err);
        goto done;
    }
    uint64_t data_size = adpcm ? relic_adpcm_encoded_size(w.frames, m.header.block_align, w.channels)
                               : w.frames * w.channels * (bits / 8u);
    uint64_t decoded = adpcm ? relic_adpcm_frames(data_size, m.header.block_align, w.channels) * w.channels * 2 : data_size;
    if (data_size > UINT32_MAX - 65536u || decoded > UINT32_MAX) {
        cli_errorf(in->path, 0, "%llu frames do not fit a CAU sample (4 GiB)",
                   (unsigned long long)w.frames);
        goto done;
    }
    m.header.data_size = (uint32_t)data_size;
    m.header.decoded_size = (uint32_t)decoded;
    if (cli_cau_prefix(&m, &prefix, out_path)) goto done;

    stream s;
    if (stream_open(&s, out_path, in->path, &in->map, in->map.bytes.data)) goto done;
    rc = stream_write(&s, prefix.data, prefix.size);
    if (!rc) rc = stream_wav_data(&s, &in->map, in->map.bytes.data, &w, bits, adpcm ? m.header.block_align : 0, &a, in->path);
    rc = stream_close(&s, rc);
done:
    relic_buf_free(&prefix);
    relic_arena_release(&a);
    return rc;
}

/* An output written in pieces: stream plus nothing else, so the pieces
 * above serve cmd_pack_sounds.c too. */
struct cli_stream {
    stream s;
};

cli_stream *cli_stream_open(const char *out_path)
{
    cli_stream *o = malloc(sizeof *o);
    if (!o) {
        cli_errorf(out_path, 0, "no memory for the output");
        return NULL;
    }
    if (stream_open(&o->s, out_path, NULL, NULL, NULL)) {
        free(o);
        return NULL;
    }
    return o;
}

int cli_stream_write(cli_stream *o, const void *p, size_t n) { return stream_write(&o->s, p, n); }

int cli_stream_wav_data(cli_stream *o, const char *in_path, const relic_mapping *map, const relic_wav_info *w,
                        unsigned bits, uint32_t block_align)
{
    relic_arena a; /* the encoder's state, one sample at a time */
    relic_arena_init_heap(&a, 0);
    int rc = stream_wav_data(&o->s, map, map->bytes.data, w, bits, block_align, &a, in_path);
    relic_arena_release(&a);
    return rc;
}

int cli_stream_reread(cli_stream *o, relic_mapping *m)
{
    relic_error err;
    memset(m, 0, sizeof *m);
    if (!o->s.out.has_tmp || o->s.out.fd < 0) return 0; /* standard output, a device: gone */
    /* writes are unbuffered (relic_out_write): the file holds every byte */
    if (relic_map_file(o->s.out.tmp_name, 0, m, &err) != RELIC_OK) {
        cli_error(o->s.out.path, &err);
        return -1;
    }
    return 1;
}

int cli_stream_close(cli_stream *o, int rc)
{
    rc = stream_close(&o->s, rc);
    free(o);
    return rc;
}
