/* fmt_tpa.c — the `relic` command for Trespasser TPA sound banks (.tpa):
 * info, check (schema validator, then the table rules of
 * runtime/formats/tres/tpa_check.c; JSON both ways and re-writing are the schema's, schema_io.c) (Trespasser source, Lib/Audio/AudioLoader.hpp, Source/Tools/CollisionEditor/Database.cpp). `relic extract` (cmd_extract.c) writes the samples as WAV. */
#include <string.h>

#include "audio_cli.h"

static int load_model(const cli_input *in, relic_arena *a, relic_tpa_view *v, relic_tpa_file *m)
{
    return cli_schema_model(&cli_format_tpa, in, a, v, m);
}

static int tpa_info(const cli_input *in)
{
    relic_tpa_view v;
    relic_tpa_file m;
    relic_arena a;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (load_model(in, &a, &v, &m)) {
        relic_arena_release(&a);
        return 1;
    }
    size_t adpcm = 0, captions = 0;
    double seconds = 0;
    for (size_t k = 0; k < m.samples_count; k++) {
        relic_audio_format f;
        relic_audio_format_of_tpa(&m.samples[k].header, &f);
        adpcm += f.compression == RELIC_TPA_COMPRESSION_IMA_ADPCM;
        captions += m.samples[k].header.caption_offset != 0;
        if (f.sample_rate) seconds += (double)relic_audio_frames(&f, m.samples[k].data_count) / f.sample_rate;
    }
    printf("%s: Trespasser TPA sound bank (version 0x%x)\n", in->path, RELIC_AUDIO_TPA_VERSION);
    printf("  %zu identifiers, %zu distinct samples (%zu IMA ADPCM, %zu PCM, %zu with captions), %.1f s of audio\n",
           m.ids_count, m.samples_count, adpcm, m.samples_count - adpcm, captions, seconds);
    printf("  %zu collision (Foley) records\n", m.collisions_count);
    for (size_t i = 0; i < m.ids_count; i++) {
        const relic_tpa_id_entry *e = &m.ids[i];
        const relic_tpa_sample_header *h = &e->header;
        const char *comp = relic_tpa_compression_name(h->compression);
        printf("  0x%08X @0x%06x %7u bytes  %-9s %2u-bit %s %5u Hz  att %g dB/m, vol %g dB%s%s\n", e->sound_id,
               e->sample_offset, e->sample_length, comp ? comp : "?", h->bits, h->channels == 1 ? "mono  " : "stereo",
               h->sample_rate, e->attenuation, e->master_volume, h->caption_offset ? ", captions" : "",
               e->sound_id == RELIC_AUDIO_MISSING_ID ? "  (\"missing\")" : "");
    }
    relic_arena_release(&a);
    return 0;
}

typedef struct report_ctx {
    const char *path;
} report_ctx;

static void report(void *vctx, const relic_error *err)
{
    const report_ctx *c = vctx;
    cli_report(cli_problem_stream(), c->path, err);
}

static unsigned tpa_check(const cli_input *in, int strict)
{
    relic_tpa_view v;
    relic_tpa_file m;
    relic_arena a;
    unsigned n;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (load_model(in, &a, &v, &m)) n = 1;
    else {
        report_ctx rc = {in->path};
        n = cli_tpa_check(&v, &m, strict, report, &rc);
    }
    relic_arena_release(&a);
    return n;
}

const cli_hooks cli_tpa_hooks = {
    tpa_info,
    tpa_check,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    "  x.tpa -> y.json|y.tpa                            JSON, re-written bank (relic extract: WAV files)\n"
    "  x.json -> y.tpa                                  the bank again, byte for byte\n",
    NULL, /* json_max_output: no bound */
};
