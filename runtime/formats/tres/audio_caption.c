/* audio_caption.c — caption (subtitle) lines of a Trespasser sample:
 * Trespasser source, Lib/Audio/AudioLoad.cpp "Subtitle block" (per line a u32 duration in
 * units of 0.2 s and a NUL-terminated string, no alignment; the game's
 * tool leaves 4 bytes of 0xCD slack after the last string); Trespasser file formats
 * CAPTION DATA. The block's length and count fields are in the schemas. */
#include "relic_audio.h"
#include "relic_gen.h"

relic_status relic_audio_captions_parse(const uint8_t *text, size_t n, uint32_t count, relic_arena *a,
                                        relic_audio_caption **lines, size_t *used, relic_error *err)
{
    char path[32];
    /* each line needs at least 5 bytes, which bounds the allocation by n */
    if ((uint64_t)count * 5 > n)
        return relic_fail(err, RELIC_E_LIMIT, 0, "caption_count", "%u lines cannot fit in %zu bytes", count, n);
    relic_audio_caption *l = relic_arena_array(a, count ? count : 1, sizeof *l, _Alignof(relic_audio_caption));
    if (!l) return relic_fail(err, RELIC_E_NOMEM, 0, "caption_text", "no memory for %u lines", count);
    size_t p = 0;
    for (uint32_t i = 0; i < count; i++) {
        snprintf(path, sizeof path, "caption_text[%u]", i);
        if (n - p < 4) return relic_fail(err, RELIC_E_TRUNCATED, p, path, "duration needs 4 bytes, %zu remain", n - p);
        l[i].duration = relic_load_u32le(text + p);
        p += 4;
        const uint8_t *z = memchr(text + p, 0, n - p);
        if (!z) return relic_fail(err, RELIC_E_TRUNCATED, p, path, "caption text has no terminating NUL");
        l[i].text_len = (size_t)(z - (text + p));
        l[i].text = relic_arena_strndup(a, (const char *)text + p, l[i].text_len);
        if (!l[i].text) return relic_fail(err, RELIC_E_NOMEM, p, path, "no memory");
        p += l[i].text_len + 1;
    }
    *lines = l;
    *used = p;
    return RELIC_OK;
}

relic_status relic_audio_captions_build(const relic_audio_caption *lines, size_t count, relic_buf *out,
                                        relic_error *err)
{
    for (size_t i = 0; i < count; i++) {
        if (memchr(lines[i].text, 0, lines[i].text_len))
            return relic_fail(err, RELIC_E_ARGUMENT, 0, "captions", "caption %zu holds a NUL byte", i);
        uint8_t d[4];
        relic_store_u32le(d, lines[i].duration);
        relic_buf_append(out, d, 4);
        relic_buf_append(out, lines[i].text, lines[i].text_len);
        relic_buf_append(out, "", 1);
    }
    uint8_t slack[RELIC_AUDIO_CAPTION_SLACK];
    memset(slack, RELIC_AUDIO_CAPTION_SLACK_BYTE, sizeof slack);
    relic_buf_append(out, slack, sizeof slack);
    return out->failed ? relic_fail(err, RELIC_E_NOMEM, 0, "captions", "no memory") : RELIC_OK;
}
