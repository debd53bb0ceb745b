/* audio_cli.h — pieces the audio parts of the `relic` command share
 * (fmt_cau.c, fmt_tpa.c, cmd_extract.c, cmd_encode.c). */
#ifndef RELIC_CLI_AUDIO_H
#define RELIC_CLI_AUDIO_H

#include "formats.h"
#include "relic_audio.h"

/* Serialise a CAU model, check that it validates, write it atomically. */
int cli_cau_write_model(const relic_cau_cau *m, const char *out_path, const char *in_path);
/* Decode a sample's data and write it as a WAV file; 0 on success. */
int cli_audio_write_wav(const relic_audio_format *f, const uint8_t *data, size_t n, const char *out_path,
                        const char *in_path);
/* A CAU from a WAV input (PCM, or IMA ADPCM with adpcm set; captions from
 * a JSON file when captions_path is not NULL); 0 on success. */
int cli_cau_from_wav(const cli_input *in, const char *out_path, int adpcm, const char *captions_path);

#endif
