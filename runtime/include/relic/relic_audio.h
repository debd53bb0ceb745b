/* relic_audio.h — hand-written parts of Trespasser's audio formats: CAU
 * samples (generated/tres/cau.h) and TPA banks (generated/tres/tpa.h).
 * What a schema cannot say lives here: the caption lines (NUL-terminated
 * strings), the rules between a TPA's tables, decoding a sample to PCM,
 * building a sample from PCM (with runtime/codec/adpcm.c), WAV files through
 * libsndfile, and the sound-name hash. Sources: spec/trespasser.md §2
 * (hash), §4.2-4.7; seed 004 TPA and CAU. */
#ifndef RELIC_AUDIO_H
#define RELIC_AUDIO_H

#include "relic.h"
#include "relic_adpcm.h"
#include "cau.h"
#include "tpa.h"

/** 1 when data starts like a TPA: version 0x150 and the identifier table
 *  right after the 24-byte header. The `detect` hook of
 *  schema/tres/tpa.schema. No errors; data may be any bytes. */
int relic_tpa_detect(const uint8_t *data, size_t size);

#ifdef __cplusplus
extern "C" {
#endif

/** Caption duration unit: 0.2 s (spec §4.3; the seed's "200ms increments"). */
#define RELIC_AUDIO_CAPTION_UNIT_SECONDS 0.2
/** The slack the game's tool leaves after the last caption string (MSVC
 *  debug fill, spec §4.3); relic writes the same 4 bytes. */
#define RELIC_AUDIO_CAPTION_SLACK 4u
#define RELIC_AUDIO_CAPTION_SLACK_BYTE 0xCD
/** CAU version relic writes (every known file has 110). */
#define RELIC_AUDIO_CAU_VERSION 110u
/** The only TPA version the game accepts (spec §4.1; the schema's
 *  constant, which the generator does not emit as a macro). */
#define RELIC_AUDIO_TPA_VERSION 0x150u
/** Sound ID of the fallback sample "MISSING" (spec §2.2). */
#define RELIC_AUDIO_MISSING_ID 0xF0A07BD9u

/** What a sample holds, taken from a CAU or TPA sample header. */
typedef struct relic_audio_format {
    uint32_t sample_rate;   /**< Hz */
    unsigned bits;          /**< 8 or 16 (decoded sample size) */
    unsigned channels;      /**< 1 or 2 */
    unsigned compression;   /**< RELIC_CAU_COMPRESSION_PCM / _IMA_ADPCM / _VOICE */
    uint32_t block_align;   /**< ADPCM block bytes; 0 for PCM */
    uint32_t decoded_size;  /**< the header's decoded size in bytes */
} relic_audio_format;

/** The format of a CAU header / of a TPA sample header. */
void relic_audio_format_of_cau(const relic_cau_sample_header *h, relic_audio_format *f);
void relic_audio_format_of_tpa(const relic_tpa_sample_header *h, relic_audio_format *f);

/** Check that a sample's format and data can be decoded: PCM with
 *  block_align 0 and data a whole number of frames, or 16-bit IMA ADPCM
 *  with a valid block size and every block header's step index <= 88;
 *  "voice" is RELIC_E_UNSUPPORTED. Errors name the header field (path
 *  "header.<field>") or "data" with an offset relative to data. */
relic_status relic_audio_check_data(const relic_audio_format *f, const uint8_t *data, size_t n, relic_error *err);

/** Frames (samples per channel) the data decode to. */
uint64_t relic_audio_frames(const relic_audio_format *f, size_t n);

/** Decode a sample's data to interleaved signed 16-bit PCM in the arena
 *  (8-bit PCM becomes (x - 128) << 8, exactly reversible). flags as
 *  relic_adpcm_decode. Errors: as relic_audio_check_data, RELIC_E_NOMEM. */
relic_status relic_audio_decode(const relic_audio_format *f, const uint8_t *data, size_t n, unsigned flags,
                                relic_arena *a, int16_t **pcm, size_t *frames, relic_error *err);

/** One caption line. */
typedef struct relic_audio_caption {
    uint32_t duration;   /**< display time in units of 0.2 s */
    const char *text;    /**< NUL-terminated (Latin-1 bytes as stored) */
    size_t text_len;     /**< bytes of text */
} relic_audio_caption;

/** Parse `count` caption lines from the caption text (the bytes after the
 *  block's count field). Lines point into the arena. *used gets the bytes
 *  the lines take; what follows is slack. Errors: RELIC_E_TRUNCATED when
 *  a duration or string runs past n (path "caption_text[i]", offset
 *  relative to text), RELIC_E_LIMIT when count is larger than n allows. */
relic_status relic_audio_captions_parse(const uint8_t *text, size_t n, uint32_t count, relic_arena *a,
                                        relic_audio_caption **lines, size_t *used, relic_error *err);

/** Append the caption text of lines[0..count) plus the 4 slack bytes the
 *  game's files have. Errors: RELIC_E_ARGUMENT when a text holds a NUL. */
relic_status relic_audio_captions_build(const relic_audio_caption *lines, size_t count, relic_buf *out,
                                        relic_error *err);

/** Print captions as JSON: {"captions": [{"duration": seconds,
 *  "units": n, "text": "..."}...]} with the sound ID when id_set. */
void relic_audio_captions_json(const relic_audio_caption *lines, size_t count, int id_set, uint32_t sound_id,
                               relic_buf *out);

/** Read captions from JSON text in the form relic_audio_captions_json
 *  prints: {"captions": [{"units": n | "duration": seconds, "text": "..."}]}
 *  or the captions.json `relic extract` writes ({"samples": [{..., "captions":
 *  [...]}, ...]}: the first sample's lines). Units win when both are
 *  given; seconds round to the nearest 0.2 s.
 *  Errors: RELIC_E_SYNTAX, RELIC_E_RANGE with the JSON path. */
relic_status relic_audio_captions_from_json(const char *text, size_t len, relic_arena *a,
                                            relic_audio_caption **lines, size_t *count, relic_error *err);

/** Build a CAU model from interleaved 16-bit PCM: PCM (bits 8 or 16) or,
 *  with adpcm set, IMA ADPCM in the game's blocks (1028 mono, 2056
 *  stereo); decoded_size is the exact decoded byte count; captions
 *  optional (count 0 = none). Memory from the arena. Errors:
 *  RELIC_E_ARGUMENT (channels, bits, rate), RELIC_E_LIMIT (over 4 GiB),
 *  RELIC_E_NOMEM. */
relic_status relic_audio_cau_from_pcm(const int16_t *pcm, size_t frames, unsigned channels, uint32_t rate,
                                      unsigned bits, int adpcm, const relic_audio_caption *captions,
                                      size_t caption_count, relic_arena *a, relic_cau_cau *out, relic_error *err);

/** Rules between a TPA's tables that the schema cannot state: each
 *  identifier's sample offset and length name one stored sample, its
 *  header copy equals that sample's header, and every sample's data
 *  decode (relic_audio_check_data). With strict also: samples appear in
 *  the order identifiers first name them, sound IDs are unique, every
 *  sample is named, attenuation >= 0 and master volume <= 0, the
 *  collision table follows the samples, collision records have nonzero
 *  sample flags. Calls report(ctx, err) per problem (report may be NULL)
 *  and returns the number of problems. */
unsigned relic_tpa_check(const relic_tpa_view *v, const relic_tpa_tpa *m, int strict,
                         void (*report)(void *ctx, const relic_error *err), void *ctx);

/** A collision sound's transfer function evaluated at one velocity. */
typedef struct relic_tpa_transfer_result {
    float volume;        /**< slope x velocity + intercept, clamped to [min, max] */
    float pitch;         /**< the same for pitch (-1..1) */
    float final_volume;  /**< volume / 10^(attenuation / 10), seed 004's formula */
    int plays;           /**< 1 when velocity >= the function's minimum velocity */
} relic_tpa_transfer_result;

/** Evaluate a transfer function at an impact velocity (spec §4.7; seed 004
 *  FOLEY TABLE). Pure arithmetic on the stored floats (NaN stays NaN). */
void relic_tpa_transfer_eval(const relic_tpa_transfer_function *tf, float velocity, relic_tpa_transfer_result *r);

/** The sounds a collision record plays: impact 1 and 2 as bits 0-1 count
 *  them, then the slide sound when bit 7 is set. Fills ids[0..n) and their
 *  transfer functions; returns n (0..3). */
unsigned relic_tpa_collision_sounds(const relic_tpa_collision *c, uint32_t ids[3],
                                    const relic_tpa_transfer_function *tfs[3]);

/** Byte offset of sample i in a decoded bank's layout (header, identifier
 *  table, samples back to back), as the writer places it. */
uint64_t relic_tpa_sample_offset(const relic_tpa_tpa *m, size_t i);
/** Byte size of sample i as the writer writes it. */
uint64_t relic_tpa_sample_size(const relic_tpa_sample *s);

/** One identifier of a bank to pack: its sound ID, properties and which
 *  of the given samples it names (spec §4.2). */
typedef struct relic_tpa_pack_entry {
    uint32_t sound_id;    /**< spec §2.2 sound hash of the identifier */
    float attenuation;    /**< dB per metre (>= 0 in the game's files) */
    float master_volume;  /**< dB (<= 0 in the game's files) */
    size_t sample;        /**< index into the samples array; several identifiers may name one */
} relic_tpa_pack_entry;

/** Build a bank model in the game writer's layout (spec §4.2): header,
 *  identifier table in the given order, the distinct samples back to back
 *  in the order the identifiers first name them, then the collision
 *  records (borrowed, not copied). Fills every entry's sample offset,
 *  length and header copy; relic_tpa_write fills the counts and offsets.
 *  Sample bytes are borrowed from the CAU models. Errors (path "ids[i]" or
 *  "samples[k]"): RELIC_E_INDEX (sample index out of range),
 *  RELIC_E_ARGUMENT (a sound ID twice, a sample no identifier names, a
 *  sample with bytes after its data), RELIC_E_LIMIT (over 4 GiB),
 *  RELIC_E_NOMEM. */
relic_status relic_tpa_pack(const relic_tpa_pack_entry *ids, size_t id_count, const relic_cau_cau *samples,
                            size_t sample_count, const relic_tpa_collision *collisions, size_t collision_count,
                            relic_arena *a, relic_tpa_tpa *out, relic_error *err);

/** CRC-32 (zlib's) of the bytes, as the game's string hash (spec §2.1). */
uint32_t relic_tres_hash(const char *s, size_t n);
/** The sound-ID hash: every '\\' as '/', ASCII A-Z lower-cased, then CRC-32
 *  (spec §2.2: "MISSING" -> 0xF0A07BD9). */
uint32_t relic_tres_sound_hash(const char *name, size_t n);

/** WAV through libsndfile. relic_audio_wav_write appends a RIFF WAVE file of
 *  interleaved 16-bit PCM to out, stored as 16-bit PCM or (bits 8) as
 *  unsigned 8-bit PCM. Errors: RELIC_E_ARGUMENT, RELIC_E_IO (libsndfile's
 *  message). */
relic_status relic_audio_wav_write(const int16_t *pcm, size_t frames, unsigned channels, uint32_t rate,
                                   unsigned bits, relic_buf *out, relic_error *err);

/** Read a WAV (any libsndfile-readable sound file) from memory into
 *  interleaved 16-bit PCM in the arena; *bits gets 8 for 8-bit sources,
 *  else 16. Errors: RELIC_E_SYNTAX (not a sound file), RELIC_E_UNSUPPORTED
 *  (more than 2 channels), RELIC_E_LIMIT, RELIC_E_NOMEM. */
relic_status relic_audio_wav_read(const uint8_t *data, size_t n, relic_arena *a, int16_t **pcm, size_t *frames,
                                  unsigned *channels, uint32_t *rate, unsigned *bits, relic_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_AUDIO_H */
