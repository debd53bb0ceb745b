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

/** relic_tpa_check with its scratch in a heap arena freed at once. */
unsigned cli_tpa_check(const relic_tpa_view *v, const relic_tpa_file *m, int strict,
                       relic_report_fn report, void *ctx);

#endif
