/* fmt_spz.c — the `relic` command for Trespasser texture swap files: SPZ
 * (u32 size + LZSS, Trespasser source, Source/Tools/LZSS/LZSS.cpp, Lib/Loader/ImageLoader.cpp) and the raw SWP it expands to
 * (addressed by the level's PID, Trespasser source, Lib/Loader/ImageLoader.cpp). info, check (the stream decodes to
 * exactly the declared size), convert x.spz -> y.swp (streaming decoder,
 * memory: the 4 KiB ring and a 64 KiB buffer) and x.swp -> y.spz (best
 * ratio encoder; the original encoder's method above 256 MiB). Both are recognised by extension only: neither has a
 * magic. */
#include <string.h>

#include "formats.h"
#include "relic_lzss.h"
#include "relic_swp.h"

#define CHUNK 65536
/* largest SWP compressed with RELIC_LZSS_BEST by the command (bytes) */
#define SPZ_BEST_MAX ((size_t)256 << 20)


static int is_spz(const cli_input *in)
{
    char ext[8];
    return !strcmp(relic_path_extension(in->path, ext, sizeof ext), "spz");
}

/* Decode the SPZ stream, writing to out when non-NULL; prints the problem. */
static int decode_spz(const cli_input *in, relic_out *out, uint64_t *produced, uint32_t *declared)
{
    relic_lzss_container c;
    relic_error err;
    if (relic_spz_header(in->map.bytes.data, in->map.bytes.size, &c, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &err);
        return 1;
    }
    *declared = c.decoded_size;
    static uint8_t state[8192]; /* the decoder's 4 KiB ring: kept off the stack */
    static uint8_t chunk[CHUNK];
    relic_arena a;
    relic_arena_init_buffer(&a, state, sizeof state);
    relic_stream d;
    if (relic_lzss_decode_init(&d, RELIC_LZSS_SPZ, &a, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &err);
        return 1;
    }
    d.next_in = in->map.bytes.data + c.stream_offset;
    d.avail_in = in->map.bytes.size - c.stream_offset;
    relic_stream_status r;
    do {
        d.next_out = chunk;
        d.avail_out = sizeof chunk;
        r = relic_stream_run(&d, RELIC_STREAM_FINISH, &err);
        if (r == RELIC_STREAM_ERROR) {
            err.offset += c.stream_offset;
            snprintf(err.path, sizeof err.path, "spz.data");
            cli_report(cli_problem_stream(), in->path, &err);
            return 1;
        }
        if (out && relic_out_write(out, chunk, sizeof chunk - d.avail_out, &err) != RELIC_OK) {
            cli_error(out->path, &err);
            return 1;
        }
    } while (r != RELIC_STREAM_DONE);
    *produced = d.total_out;
    return 0;
}

static int spz_info(const cli_input *in)
{
    if (!is_spz(in)) {
        printf("%s: Trespasser SWP texture swap file (raw rasters addressed by the level's PID), %zu bytes\n",
               in->path, in->map.bytes.size);
        return 0;
    }
    uint64_t produced;
    uint32_t declared;
    if (decode_spz(in, NULL, &produced, &declared)) return 1;
    printf("%s: Trespasser SPZ (LZSS-compressed SWP), %zu bytes, expands to %llu bytes (declared %u), ratio %.3f\n",
           in->path, in->map.bytes.size, (unsigned long long)produced, declared,
           produced ? (double)in->map.bytes.size / (double)produced : 0.0);
    return 0;
}

static unsigned spz_check(const cli_input *in, int strict)
{
    (void)strict;
    if (!is_spz(in)) return 0;
    uint64_t produced;
    uint32_t declared;
    if (decode_spz(in, NULL, &produced, &declared)) return 1;
    if (produced != declared) {
        cli_problemf(in->path, 0, "spz.size", "declares %u bytes, the stream holds %llu", declared, (unsigned long long)produced);
        return 1;
    }
    return 0;
}

static int spz_convert(const cli_input *in, const char *out_path, const char *ext)
{
    relic_error err;
    if (!strcmp(ext, "swp") && is_spz(in)) {
        relic_out out;
        uint64_t produced;
        uint32_t declared;
        if (relic_out_open(&out, out_path, in->path, &err) != RELIC_OK) {
            cli_error(out_path, &err);
            return 1;
        }
        if (decode_spz(in, &out, &produced, &declared)) {
            relic_out_abort(&out);
            return 1;
        }
        if (produced != declared)
            cli_errorf(in->path, 0, "warning: declares %u bytes and holds %llu (the game decodes to the end)", declared,
                       (unsigned long long)produced);
        if (relic_out_commit(&out, &err) != RELIC_OK) {
            cli_error(out_path, &err);
            return 1;
        }
        return 0;
    }
    if (!strcmp(ext, "spz") && !is_spz(in)) {
        relic_buf z;
        int rc;
        relic_buf_init(&z, 0);
        /* BEST needs 3 bytes per input byte; very large SWPs get GREEDY (fixed memory) */
        relic_lzss_level level = in->map.bytes.size > SPZ_BEST_MAX ? RELIC_LZSS_GREEDY : RELIC_LZSS_BEST;
        relic_arena sa; /* encoder scratch */
        relic_arena_init_heap(&sa, 0);
        relic_status est = relic_lzss_container_encode(RELIC_LZSS_SPZ, level, 0, in->map.bytes.data, in->map.bytes.size,
                                                       &sa, &z, &err);
        relic_arena_release(&sa);
        if (est != RELIC_OK) {
            cli_error(in->path, &err);
            rc = 1;
        } else {
            rc = cli_write(out_path, z.data, z.size, in->path);
        }
        relic_buf_free(&z);
        return rc;
    }
    return -1;
}

const cli_hooks cli_spz_hooks = {
    spz_info,
    spz_check,
    NULL,
    NULL,
    NULL,
    spz_convert,
    NULL, /* no JSON form */
    "  x.spz -> y.swp, x.swp -> y.spz                   expand an SPZ (streaming), compress a SWP (best ratio)\n",
    NULL, /* json_max_output: no bound */
};
