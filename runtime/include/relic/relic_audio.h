/* relic_audio.h — hand-written parts of Trespasser's audio formats: CAU
 * samples (generated/tres/cau.h) and TPA banks (generated/tres/tpa.h).
 * What a schema cannot say lives here: the caption lines (NUL-terminated
 * strings), the rules between a TPA's tables, decoding a sample to PCM,
 * building a sample from PCM (with runtime/codec/adpcm.c), WAV files (read
 * and written by relic itself), and the sound-name hash. Sources: Trespasser source, Lib/Std/Hash.cpp
 * (hash), Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/Audio/AudioLoader.hpp, Source/Tools/CollisionEditor/Database.cpp; Trespasser file formats, TPA and CAU. */
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

/** Caption duration unit: 0.2 s (Trespasser source, Lib/Audio/AudioLoad.cpp; the Trespasser file-formats document's "200ms increments"). */
#define RELIC_AUDIO_CAPTION_UNIT_SECONDS 0.2
/** The slack the game's tool leaves after the last caption string (MSVC
 *  debug fill, Trespasser source, Lib/Audio/AudioLoad.cpp); relic writes the same 4 bytes. */
#define RELIC_AUDIO_CAPTION_SLACK 4u
#define RELIC_AUDIO_CAPTION_SLACK_BYTE 0xCD
/** CAU version relic writes (every known file has 110). */
#define RELIC_AUDIO_CAU_VERSION 110u
/** The only TPA version the game accepts (Trespasser source, Lib/Audio/AudioLoader.hpp; the schema's
 *  constant, which the generator does not emit as a macro). */
#define RELIC_AUDIO_TPA_VERSION 0x150u
/** Sound ID of the fallback sample "MISSING" (Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp). */
#define RELIC_AUDIO_MISSING_ID 0xF0A07BD9u

/** What a sample holds, taken from a CAU or TPA sample header. */
typedef struct relic_audio_format {
    uint32_t sample_rate;  /**< Hz */
    unsigned bits;         /**< 8 or 16 (decoded sample size) */
    unsigned channels;     /**< 1 or 2 */
    unsigned compression;  /**< RELIC_CAU_COMPRESSION_PCM / _IMA_ADPCM / _VOICE */
    uint32_t block_align;  /**< ADPCM block bytes; 0 for PCM */
    uint32_t decoded_size; /**< the header's decoded size in bytes */
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
    uint32_t duration; /**< display time in units of 0.2 s */
    const char *text;  /**< NUL-terminated (Latin-1 bytes as stored) */
    size_t text_len;   /**< bytes of text */
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
 *  optional (count 0 = none). All memory (data, captions, the ADPCM
 *  search) from the arena a; nothing from the heap. Errors:
 *  RELIC_E_ARGUMENT (channels, bits, rate), RELIC_E_LIMIT (over 4 GiB),
 *  RELIC_E_NOMEM. */
relic_status relic_audio_cau_from_pcm(const int16_t *pcm, size_t frames, unsigned channels, uint32_t rate,
                                      unsigned bits, int adpcm, const relic_audio_caption *captions,
                                      size_t caption_count, relic_arena *a, relic_cau_file *out, relic_error *err);

/** Rules between a TPA's tables that the schema cannot state: each
 *  identifier's sample offset and length name one stored sample, its
 *  header copy equals that sample's header, and every sample's data
 *  decode (relic_audio_check_data). With strict also: samples appear in
 *  the order identifiers first name them, sound IDs are unique, every
 *  sample is named, attenuation >= 0 and master volume <= 0, the
 *  collision table follows the samples, collision records have nonzero
 *  sample flags. Sample data is read from v (m's data pointers are not
 *  used). Scratch (10 bytes per sample, +10) comes from the caller's
 *  arena scratch; when it runs out one RELIC_E_NOMEM problem is reported.
 *  Calls report(ctx, err) per problem (report may be NULL)
 *  and returns the number of problems. */
unsigned relic_tpa_check(const relic_tpa_view *v, const relic_tpa_file *m, int strict, relic_arena *scratch,
                         relic_report_fn report, void *ctx);

/** Called by relic_tpa_check_windowed after each window of sample data it
 *  has checked: data[0..n) are the bytes at file offset offset of the
 *  view, which the check will not read again (a caller over a mapping
 *  may hand their pages back). */
typedef void (*relic_tpa_window_fn)(void *ctx, uint64_t offset, const uint8_t *data, size_t n);

/** relic_tpa_check (Trespasser source, Lib/Audio/AudioLoad.cpp) for a
 *  bank too large to keep resident, as `relic pack-sounds` reads back
 *  what it wrote: the same rules and the same problems, with each
 *  sample's data read from v a window at a time, at most window bytes
 *  rounded down to whole IMA ADPCM blocks (at least one block; PCM data,
 *  whose check reads no byte, is one window; window 0: each sample
 *  whole), and done(done_ctx, ...) called after each window (done may be
 *  NULL). The identifier and collision rules read only the tables and the
 *  36-byte sample headers. m gives the samples' sizes and headers and the
 *  identifiers: v decoded (relic_tpa_decode), or the model a writer wrote
 *  v from (relic_tpa_pack's; its data pointers are not needed). A sample
 *  the model places past the end of v is one RELIC_E_TRUNCATED problem;
 *  nothing past v is read. Scratch 10 bytes per sample, +10; report and
 *  return value as relic_tpa_check, which is this function with window 0
 *  and no done. */
unsigned relic_tpa_check_windowed(const relic_tpa_view *v, const relic_tpa_file *m, int strict, size_t window,
                                  relic_tpa_window_fn done, void *done_ctx, relic_arena *scratch,
                                  relic_report_fn report, void *ctx);

/** A collision sound's transfer function evaluated at one velocity. */
typedef struct relic_tpa_transfer_result {
    float volume;       /**< slope x velocity + intercept, clamped to [min, max] */
    float pitch;        /**< the same for pitch (-1..1) */
    float final_volume; /**< volume / 10^(attenuation / 10), the Trespasser file-formats document's formula */
    int plays;          /**< 1 when velocity >= the function's minimum velocity */
} relic_tpa_transfer_result;

/** Evaluate a transfer function at an impact velocity (Trespasser source, Lib/Audio/AudioLoader.hpp, Source/Tools/CollisionEditor/Database.cpp; Trespasser file formats
 *  FOLEY TABLE). Pure arithmetic on the stored floats (NaN stays NaN). */
void relic_tpa_transfer_eval(const relic_tpa_transfer_function *tf, float velocity, relic_tpa_transfer_result *r);

/** The sounds a collision record plays: impact 1 and 2 as bits 0-1 count
 *  them, then the slide sound when bit 7 is set. Fills ids[0..n) and their
 *  transfer functions; returns n (0..3). */
unsigned relic_tpa_collision_sounds(const relic_tpa_collision *c, uint32_t ids[3],
                                    const relic_tpa_transfer_function *tfs[3]);

/** Byte offset of sample i in a decoded bank's layout (header, identifier
 *  table, samples back to back), as the writer places it. */
uint64_t relic_tpa_sample_offset(const relic_tpa_file *m, size_t i);
/** Byte size of sample i as the writer writes it. */
uint64_t relic_tpa_sample_size(const relic_tpa_sample *s);

/** One identifier of a bank to pack: its sound ID, properties and which
 *  of the given samples it names (Trespasser source, Lib/Audio/AudioLoad.cpp). */
typedef struct relic_tpa_pack_entry {
    uint32_t sound_id;   /**< Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp sound hash of the identifier */
    float attenuation;   /**< dB per metre (>= 0 in the game's files) */
    float master_volume; /**< dB (<= 0 in the game's files) */
    size_t sample;       /**< index into the samples array; several identifiers may name one */
} relic_tpa_pack_entry;

/** Build a bank model in the game writer's layout (Trespasser source, Lib/Audio/AudioLoad.cpp): header,
 *  identifier table in the given order, the distinct samples back to back
 *  in the order the identifiers first name them, then the collision
 *  records (borrowed, not copied). Fills every entry's sample offset,
 *  length and header copy; relic_tpa_write fills the counts and offsets.
 *  Sample bytes are borrowed from the CAU models. Errors (path "ids[i]" or
 *  "samples[k]"): RELIC_E_INDEX (sample index out of range),
 *  RELIC_E_ARGUMENT (a sound ID twice, a sample no identifier names, a
 *  sample with bytes after its data), RELIC_E_LIMIT (over 4 GiB),
 *  RELIC_E_NOMEM. */
relic_status relic_tpa_pack(const relic_tpa_pack_entry *ids, size_t id_count, const relic_cau_file *samples,
                            size_t sample_count, const relic_tpa_collision *collisions, size_t collision_count,
                            relic_arena *a, relic_tpa_file *out, relic_error *err);

/** CRC-32 (zlib's) of the bytes, as the game's string hash (Trespasser source, Lib/Std/Hash.cpp). */
uint32_t relic_tres_hash(const char *s, size_t n);
/** The sound-ID hash: every '\\' as '/', ASCII A-Z lower-cased, then CRC-32
 *  (Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp: "MISSING" -> 0xF0A07BD9). */
uint32_t relic_tres_sound_hash(const char *name, size_t n);

/* ---------------------------------------------------------------------- */
/* WAV (runtime/export/audio_wav.c; Microsoft, *Multimedia Programming     */
/* Interface and Data Specifications 1.0*, "WAVE form", and               */
/* WAVEFORMATEXTENSIBLE)                                                  */
/* ---------------------------------------------------------------------- */

/** Bytes of the canonical header relic writes: RIFF, fmt (16 bytes), data. */
#define RELIC_WAV_HEADER_SIZE 44u

/** What a WAV's fmt chunk says and where its data chunk lies. */
typedef struct relic_wav_info {
    unsigned channels;    /**< 1 or 2 */
    uint32_t sample_rate; /**< Hz */
    unsigned bits;        /**< bits per stored sample: 8, 16, 24, 32 (PCM) or 32, 64 (float) */
    int is_float;         /**< 1 for IEEE float samples */
    unsigned block_align; /**< bytes per frame */
    size_t data_offset;   /**< offset of the first sample in the file */
    size_t data_size;     /**< bytes of samples */
    uint64_t frames;      /**< whole frames in the data (a partial last frame is dropped) */
} relic_wav_info;

/** Parse a RIFF WAVE file's chunks up to its data chunk: PCM 8 (unsigned),
 *  16, 24, 32 bits or IEEE float 32, 64 bits, format tag 1, 3 or 0xFFFE
 *  (extensible with the PCM or float sub-format), mono or stereo. A data
 *  size of 0 or 0xFFFFFFFF (a writer that could not seek) means "to the end
 *  of the file". Errors, with the chunk field and its byte offset:
 *  RELIC_E_SYNTAX (no RIFF/WAVE header), RELIC_E_UNSUPPORTED (another sound
 *  format such as FLAC or Ogg, compressed WAV, more than 2 channels, other
 *  sample sizes: the message says to convert with sox or ffmpeg),
 *  RELIC_E_TRUNCATED (a chunk runs past the end), RELIC_E_RANGE (rate 0,
 *  block align), RELIC_E_LAYOUT (no fmt or data chunk). */
relic_status relic_audio_wav_parse(const uint8_t *data, size_t n, relic_wav_info *w, relic_error *err);

/** Convert frames of w's samples at src to interleaved 16-bit: 8-bit
 *  unsigned x as (x - 128) << 8, wider integers keep their top 16 bits,
 *  floats are scaled by 32767, rounded and clamped (NaN as 0). */
void relic_audio_wav_to_s16(const relic_wav_info *w, const uint8_t *src, size_t frames, int16_t *out);

/** Fill the 44-byte header of a PCM WAV: channels, rate, bits (8 unsigned
 *  or 16 signed) and the data chunk's size in bytes (the RIFF size counts
 *  the pad byte of an odd size). Parameters as relic_audio_wav_check_params
 *  accepts them. */
void relic_audio_wav_header(uint8_t h[RELIC_WAV_HEADER_SIZE], unsigned channels, uint32_t rate, unsigned bits,
                            uint32_t data_bytes);

/** Check the parameters of a WAV to write. Errors: RELIC_E_ARGUMENT
 *  (channels not 1 or 2, rate 0 or absurd, bits not 8 or 16), RELIC_E_LIMIT
 *  (the data would pass 4 GiB). */
relic_status relic_audio_wav_check_params(unsigned channels, uint32_t rate, unsigned bits, uint64_t frames,
                                          relic_error *err);

/** Append a whole WAV of interleaved 16-bit PCM to out, stored as 16-bit
 *  PCM or (bits 8) unsigned 8-bit PCM. Errors: as
 *  relic_audio_wav_check_params, RELIC_E_NOMEM. */
relic_status relic_audio_wav_write(const int16_t *pcm, size_t frames, unsigned channels, uint32_t rate,
                                   unsigned bits, relic_buf *out, relic_error *err);

/** Read a WAV from memory into interleaved 16-bit PCM in the arena (as
 *  relic_audio_wav_to_s16); *bits gets 8 for 8-bit PCM sources, else 16.
 *  Errors: as relic_audio_wav_parse, RELIC_E_LIMIT (over 4 GiB of 16-bit
 *  samples), RELIC_E_NOMEM. */
relic_status relic_audio_wav_read(const uint8_t *data, size_t n, relic_arena *a, int16_t **pcm, size_t *frames,
                                  unsigned *channels, uint32_t *rate, unsigned *bits, relic_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_AUDIO_H */
