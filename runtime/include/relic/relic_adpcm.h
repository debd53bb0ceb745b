/* relic_adpcm.h — IMA/DVI ADPCM as Trespasser stores it in CAU samples and
 * TPA banks (Trespasser source, Lib/Audio/AudioADPCM.cpp, Lib/Audio/AudioLoad.cpp): blocks of `block_align` bytes,
 * each channel starting with a 4-byte header (i16 first sample, u8 step
 * index, u8 unused); mono data low nibble first; stereo data in 8-byte
 * units of 4 left-channel bytes then 4 right-channel bytes. The difference
 * is the IMA reference shift-and-add (step>>3 plus step, step>>1, step>>2
 * by bit), not an exact multiply.
 *
 * Two interfaces: whole-buffer decode and encode (PCM as int16_t arrays),
 * and a streaming decoder and encoder with the contract every relic codec
 * shares (relic_stream.h: zlib's shape). PCM is signed 16-bit, interleaved
 * by channel. The streaming codecs take their state from the caller's arena
 * at init and allocate nothing after; the whole-buffer encoder grows its
 * output relic_buf and one block of search scratch. */
#ifndef RELIC_ADPCM_H
#define RELIC_ADPCM_H

#include "relic.h"
#include "relic_stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest block_align relic accepts (bytes). The game's files use 1028
 *  (mono) and 2056 (stereo); WAV IMA files rarely exceed 4096. */
#define RELIC_ADPCM_MAX_BLOCK 8192u
/** Bytes of one channel's block header: i16 sample, u8 step index, u8 unused. */
#define RELIC_ADPCM_HEADER_BYTES 4u
/** Largest valid step index (the step table has 89 entries). */
#define RELIC_ADPCM_MAX_STEP_INDEX 88u
/** The game's block sizes (Trespasser source, Lib/Audio/AudioLoad.cpp). */
#define RELIC_ADPCM_GAME_BLOCK_MONO 1028u
#define RELIC_ADPCM_GAME_BLOCK_STEREO 2056u
/** Most 16-bit values one block of RELIC_ADPCM_MAX_BLOCK bytes decodes to. */
#define RELIC_ADPCM_MAX_BLOCK_SAMPLES (2u * (RELIC_ADPCM_MAX_BLOCK - RELIC_ADPCM_HEADER_BYTES) + 1u)

/** Decoder options (bit flags). */
enum relic_adpcm_flag {
    /** Standard clamping to -32768..32767 (the default, 0). */
    RELIC_ADPCM_CLAMP = 0,
    /** Reproduce the game's mono decoder (Trespasser source, Lib/Audio/AudioADPCM.cpp quirks): a positive
     *  overflow stores +32768, which the 16-bit output shows as -32768, and
     *  keeps 32768 as the predictor. Only affects mono data. */
    RELIC_ADPCM_GAME_MONO_OVERFLOW = 1
};

/** Frames (samples per channel) one full block of block_align bytes
 *  decodes to: mono 1 + 2(A-4), stereo 1 + 8 floor((A-8)/8) (Trespasser source, Lib/Audio/AudioLoad.cpp);
 *  0 when the block is too small to hold the channel headers. */
uint32_t relic_adpcm_block_frames(uint32_t block_align, unsigned channels);

/** Frames decodable from data_size bytes of ADPCM data: full blocks plus a
 *  final short block of R bytes (mono: R > 4 gives 1 + 2(R-4); stereo:
 *  R >= 8 gives 1 + 8 floor((R-8)/8)). 0 for invalid parameters. */
uint64_t relic_adpcm_frames(uint64_t data_size, uint32_t block_align, unsigned channels);

/** Bytes the encoder writes for `frames` frames (full blocks plus a short
 *  final block holding the rest). */
uint64_t relic_adpcm_encoded_size(uint64_t frames, uint32_t block_align, unsigned channels);

/** Check block_align and channels: channels 1 or 2, block_align from 5
 *  (mono) or 8 (stereo) to RELIC_ADPCM_MAX_BLOCK. Errors: RELIC_E_RANGE
 *  (path "block_align" or "channels"), RELIC_E_UNSUPPORTED. */
relic_status relic_adpcm_check_params(uint32_t block_align, unsigned channels, relic_error *err);

/** Decode one block (full or a final short one) of n bytes, n <=
 *  RELIC_ADPCM_MAX_BLOCK, into out (room for relic_adpcm_frames(n, n,
 *  channels) * channels values); *frames gets the frame count. Errors:
 *  RELIC_E_RANGE when a header's step index exceeds 88 (offset of that
 *  byte, relative to in). */
relic_status relic_adpcm_decode_block(const uint8_t *in, size_t n, unsigned channels, unsigned flags,
                                      int16_t *out, size_t *frames, relic_error *err);

/** Decode n bytes of blocks of block_align bytes into out, which has room
 *  for out_cap 16-bit values (at least relic_adpcm_frames(n, ...) *
 *  channels, else RELIC_E_LIMIT). *frames gets the frame count. Errors as
 *  relic_adpcm_check_params and relic_adpcm_decode_block (offsets in in). */
relic_status relic_adpcm_decode(const uint8_t *in, size_t n, uint32_t block_align, unsigned channels,
                                unsigned flags, int16_t *out, size_t out_cap, size_t *frames, relic_error *err);

/** Encode frames of interleaved 16-bit PCM into blocks of block_align
 *  bytes appended to out: full blocks, then a short final block with the
 *  rest (a last odd nibble or 8-nibble group padded with zero nibbles).
 *  Each block's header holds its first frame exactly and the step index
 *  (0..88) that minimises the block's squared error; nibbles are chosen
 *  with the decoder's arithmetic and never overflow 16 bits, so the game's
 *  mono quirk never triggers. The step-index search takes 13 bytes per
 *  frame of one block (+1) from scratch; nothing comes from the heap.
 *  Errors: as relic_adpcm_check_params, RELIC_E_ARGUMENT (NULL scratch or
 *  out), RELIC_E_NOMEM when scratch or out runs out. */
relic_status relic_adpcm_encode(const int16_t *pcm, size_t frames, unsigned channels, uint32_t block_align,
                                relic_arena *scratch, relic_buf *out, relic_error *err);

/* ---------------------------------------------------------------------- */
/* Streaming decoder and encoder (relic_stream.h: zlib's z_stream shape,  */
/* then relic_stream_run and relic_stream_end). Both buffers are bytes:   */
/* PCM is signed 16-bit little-endian, interleaved by channel (the data   */
/* of a 16-bit WAV). Memory: the state, from the caller's arena at init.  */
/* ---------------------------------------------------------------------- */

/** Arena bytes relic_adpcm_decode_init takes (one block of input and one of
 *  output held for chunks cut across calls, and the decoder's table). */
#define RELIC_ADPCM_DECODE_MEMORY ((size_t)72 * 1024)
/** Arena bytes relic_adpcm_encode_init takes (one block of PCM, one of
 *  output and the step-index search's trajectory). */
#define RELIC_ADPCM_ENCODE_MEMORY ((size_t)300 * 1024)

/** Start a streaming decoder on s: ADPCM blocks of block_align bytes in,
 *  16-bit LE PCM out (flags as relic_adpcm_decode). Whole blocks go
 *  straight from next_in to next_out when both have room for one; a block
 *  cut across calls is held. With RELIC_STREAM_FINISH a held short block is
 *  decoded as the final one. Output equals relic_adpcm_decode's, whatever
 *  the chunking. Run errors: RELIC_E_RANGE (path "step_index": a block
 *  header's step index exceeds 88; offset = that byte's offset in the
 *  input stream). Init errors: as relic_adpcm_check_params; RELIC_E_NOMEM,
 *  RELIC_E_ARGUMENT (a is NULL). */
relic_status relic_adpcm_decode_init(relic_stream *s, uint32_t block_align, unsigned channels, unsigned flags,
                                     relic_arena *a, relic_error *err);

/** Start a streaming encoder on s: 16-bit LE PCM in, ADPCM blocks of
 *  block_align bytes out, one block at a time (the step-index search needs
 *  the block's frames); with RELIC_STREAM_FINISH the frames held make the
 *  short final block. Output equals relic_adpcm_encode's, whatever the
 *  chunking. Run errors: RELIC_E_TRUNCATED (path "pcm": the input ended
 *  inside a frame; offset = total_in). Init errors: as
 *  relic_adpcm_check_params; RELIC_E_NOMEM, RELIC_E_ARGUMENT. */
relic_status relic_adpcm_encode_init(relic_stream *s, uint32_t block_align, unsigned channels, relic_arena *a,
                                     relic_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_ADPCM_H */
