/* audio_cli.h — pieces the audio parts of the `relic` command share
 * (fmt_cau.c, fmt_tpa.c, cmd_extract.c, cmd_encode.c, cmd_pack_sounds.c;
 * the streaming data paths are in audio_stream.c). */
#ifndef RELIC_CLI_AUDIO_H
#define RELIC_CLI_AUDIO_H

#include "formats.h"
#include "relic_audio.h"

/* Decode a sample's data and stream it to a WAV file in constant memory
 * (audio_stream.c); src is the mapping data lies in (its pages are handed
 * back as they are read; NULL when data is not in one). 0 on success. */
int cli_audio_write_wav(const relic_audio_format *f, const uint8_t *data, size_t n, const relic_mapping *src,
                        const char *out_path, const char *in_path);
/* A CAU from a WAV input (PCM, or IMA ADPCM with adpcm set; captions from
 * a JSON file when captions_path is not NULL), streamed in constant
 * memory (audio_stream.c); 0 on success. */
int cli_cau_from_wav(const cli_input *in, const char *out_path, int adpcm, const char *captions_path);

/* The header and caption block of the CAU sample m (whose data are left
 * out: m->data may be NULL, m->header.data_size is kept) into out, by the
 * generated writer; 0 on success, else reported against out_path. */
int cli_cau_prefix(relic_cau_file *m, relic_buf *out, const char *out_path);

/* An output file written piece by piece in constant memory, through a
 * temporary file renamed by cli_stream_close (audio_stream.c). */
typedef struct cli_stream cli_stream;
/* Start writing out_path; NULL when it cannot be opened (reported). */
cli_stream *cli_stream_open(const char *out_path);
/* Append n bytes; 0 on success, else reported. */
int cli_stream_write(cli_stream *o, const void *p, size_t n);
/* Append the frames of the parsed WAV w (in the mapping map, read from
 * in_path) as a sample's data: PCM of bits (8 or 16) when block_align is
 * 0, else IMA ADPCM in blocks of block_align (the bytes
 * relic_audio_cau_from_pcm and relic_adpcm_encode make, exactly
 * relic_adpcm_encoded_size of them). The input's pages are handed back as
 * they are read. 0 on success, else reported. */
int cli_stream_wav_data(cli_stream *o, const char *in_path, const relic_mapping *map, const relic_wav_info *w,
                        unsigned bits, uint32_t block_align);
/* Map what has been written so far read-only into m, for a check before
 * the rename: 1 mapped (relic_unmap it), 0 when the output cannot be read
 * back (standard output, a device, a FIFO), -1 on error (reported). */
int cli_stream_reread(cli_stream *o, relic_mapping *m);
/* rc 0: rename the output into place; else remove it. Frees o; returns
 * the final status (0 only when the output is in place). */
int cli_stream_close(cli_stream *o, int rc);

/** relic_tpa_check with its scratch in a heap arena freed at once. */
unsigned cli_tpa_check(const relic_tpa_view *v, const relic_tpa_file *m, int strict,
                       relic_report_fn report, void *ctx);

#endif
