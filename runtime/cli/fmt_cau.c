/* fmt_cau.c — the `relic` command for Trespasser CAU sound samples (.cau):
 * info, check (schema validator, caption lines, audio data, Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/Audio/AudioADPCM.cpp), CAU -> WAV (decoded with
 * runtime/codec/adpcm.c, streamed out as WAV) and WAV -> CAU as PCM (the
 * `relic encode` command adds --adpcm and --captions). JSON both ways and
 * re-writing are the schema's (schema_io.c). */
#include <string.h>

#include "audio_cli.h"

static int validate(const cli_input *in, relic_cau_view *v) { return cli_schema_view(&cli_format_cau, in, v); }

static int cau_info(const cli_input *in)
{
    relic_cau_view v;
    if (validate(in, &v)) return 1;
    const relic_cau_sample_header *h = &v.values.header;
    relic_audio_format f;
    relic_audio_format_of_cau(h, &f);
    uint64_t frames = relic_audio_frames(&f, h->data_size);
    const char *comp = relic_cau_compression_name(h->compression);
    printf("%s: Trespasser CAU sample (version %u), %s, %u-bit %s, %u Hz\n", in->path, h->version, comp ? comp : "?",
           h->bits, h->channels == 1 ? "mono" : "stereo", h->sample_rate);
    printf("  %u bytes of audio data at 0x%x", h->data_size, h->data_offset);
    if (h->compression == RELIC_CAU_COMPRESSION_IMA_ADPCM) printf(" in blocks of %u bytes", h->block_align);
    printf("; %llu frames (%.3f s), decoded size field %u bytes\n", (unsigned long long)frames,
           h->sample_rate ? (double)frames / h->sample_rate : 0.0, h->decoded_size);
    if (h->caption_offset) {
        relic_arena a;
        relic_error err;
        relic_audio_caption *lines;
        size_t used;
        relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
        if (relic_audio_captions_parse(v.base + h->caption_offset + 8, v.values.caption_length - 4, v.values.caption_count,
                                       &a, &lines, &used, &err) == RELIC_OK) {
            printf("  %u caption lines:\n", v.values.caption_count);
            for (uint32_t i = 0; i < v.values.caption_count; i++) {
                char text[1024]; /* the file's bytes, escaped: a caption cannot drive the terminal */
                printf("    %5.1f s  %s\n", lines[i].duration * RELIC_AUDIO_CAPTION_UNIT_SECONDS,
                       cli_escape(text, sizeof text, lines[i].text, lines[i].text_len));
            }
        }
        relic_arena_release(&a);
    }
    return 0;
}

static unsigned cau_check(const cli_input *in, int strict)
{
    relic_cau_view v;
    relic_error err;
    unsigned problems = 0;
    if (validate(in, &v)) return 1;
    const relic_cau_sample_header *h = &v.values.header;
    relic_audio_format f;
    relic_audio_format_of_cau(h, &f);
    if (relic_audio_check_data(&f, v.base + h->data_offset, h->data_size, &err) != RELIC_OK) {
        if (!strcmp(err.path, "data")) err.offset += h->data_offset;
        cli_report(cli_problem_stream(), in->path, &err);
        problems++;
    }
    if (h->caption_offset) {
        relic_arena a;
        relic_audio_caption *lines;
        size_t used;
        relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
        if (relic_audio_captions_parse(v.base + h->caption_offset + 8, v.values.caption_length - 4, v.values.caption_count,
                                       &a, &lines, &used, &err) != RELIC_OK) {
            err.offset += h->caption_offset + 8;
            cli_report(cli_problem_stream(), in->path, &err);
            problems++;
        }
        relic_arena_release(&a);
    }
    if (strict && h->version > RELIC_AUDIO_CAU_VERSION) {
        cli_problemf(in->path, RELIC_CAU_SAMPLE_HEADER_VERSION_POS, "header.version", "%u exceeds %u (the game asserts <= %u)", h->version,
                     RELIC_AUDIO_CAU_VERSION, RELIC_AUDIO_CAU_VERSION);
        problems++;
    }
    return problems;
}

static int cau_convert(const cli_input *in, const char *out_path, const char *ext)
{
    if (strcmp(ext, "wav")) return -1;
    /* streamed from the view: the data are never copied */
    relic_cau_view v;
    if (validate(in, &v)) return 1;
    relic_audio_format f;
    relic_audio_format_of_cau(&v.values.header, &f);
    return cli_audio_write_wav(&f, v.base + v.values.header.data_offset, v.values.header.data_size, &in->map, out_path,
                               in->path);
}

static int cau_import(const cli_input *in, const char *out_path, const char *ext)
{
    if (in->format != RELIC_FORMAT_WAV || strcmp(ext, "cau")) return -1;
    return cli_cau_from_wav(in, out_path, 0, NULL);
}

const cli_hooks cli_cau_hooks = {
    cau_info,
    cau_check,
    NULL,
    NULL,
    NULL,
    cau_convert,
    cau_import,
    "  x.cau -> y.json|y.cau|y.wav                      JSON, re-written sample, WAV (16-bit PCM decoded\n"
    "                                                   from IMA ADPCM, or the PCM as stored)\n"
    "  x.json -> y.cau                                  the sample again, byte for byte\n"
    "  x.wav -> y.cau [--adpcm] [--captions FILE]       a PCM sample, or IMA ADPCM in the game's blocks;\n"
    "                                                   captions from JSON (as relic encode)\n",
    NULL, /* json_max_output: no bound */
};
