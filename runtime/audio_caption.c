/* audio_caption.c — caption (subtitle) lines of a Trespasser sample:
 * spec/trespasser.md §4.3 "Subtitle block" (per line a u32 duration in
 * units of 0.2 s and a NUL-terminated string, no alignment; the game's
 * tool leaves 4 bytes of 0xCD slack after the last string); seed 004
 * CAPTION DATA. The block's length and count fields are in the schemas. */
#include "relic_audio.h"
#include "relic_gen.h"
#include "relic_json.h"

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

void relic_audio_captions_json(const relic_audio_caption *lines, size_t count, int id_set, uint32_t sound_id,
                               relic_buf *out)
{
    relic_buf_puts(out, "{");
    if (id_set) relic_buf_printf(out, "\"sound_id\": \"0x%08X\", ", sound_id);
    relic_buf_puts(out, "\"captions\": [");
    for (size_t i = 0; i < count; i++) {
        relic_buf_printf(out, "%s\n  {\"duration\": %.1f, \"units\": %u, \"text\": ", i ? "," : "",
                         lines[i].duration * RELIC_AUDIO_CAPTION_UNIT_SECONDS, lines[i].duration);
        relic_json_string(out, lines[i].text, lines[i].text_len);
        relic_buf_puts(out, "}");
    }
    relic_buf_puts(out, count ? "\n]}\n" : "]}\n");
}

relic_status relic_audio_captions_from_json(const char *text, size_t len, relic_arena *a,
                                            relic_audio_caption **lines, size_t *count, relic_error *err)
{
    json_object *doc, *arr, *v;
    relic_jr r;
    relic_status st;
    size_t n;
    memset(&r, 0, sizeof r);
    r.arena = a;
    r.err = err;
    if ((st = relic_jr_parse(text, len, &doc, err)) != RELIC_OK) return st;
    json_object *obj = doc, *samples;
    if ((st = relic_jr_member(&r, doc, "samples", 0, &samples)) != RELIC_OK) goto done;
    if (samples) {
        /* the captions.json of `relic extract`: the first sample's lines */
        relic_jr_push(&r, "samples", -1);
        if ((st = relic_jr_array(&r, samples, &n)) != RELIC_OK) goto done;
        if (n == 0) { st = relic_jr_fail(&r, RELIC_E_RANGE, "no sample holds captions"); goto done; }
        obj = json_object_array_get_idx(samples, 0);
        relic_jr_push(&r, NULL, 0);
    }
    if ((st = relic_jr_member(&r, obj, "captions", 1, &arr)) != RELIC_OK) goto done;
    relic_jr_push(&r, "captions", -1);
    if ((st = relic_jr_array(&r, arr, &n)) != RELIC_OK) goto done;
    relic_audio_caption *l = relic_arena_array(a, n ? n : 1, sizeof *l, _Alignof(relic_audio_caption));
    if (!l) { st = relic_jr_fail(&r, RELIC_E_NOMEM, "no memory for %zu captions", n); goto done; }
    for (size_t i = 0; i < n; i++) {
        json_object *e = json_object_array_get_idx(arr, i);
        relic_jr_push(&r, NULL, (int64_t)i);
        if ((st = relic_jr_member(&r, e, "units", 0, &v)) != RELIC_OK) goto done;
        if (v) {
            int64_t u;
            relic_jr_push(&r, "units", -1);
            if ((st = relic_jr_int(&r, v, 0, UINT32_MAX, &u)) != RELIC_OK) goto done;
            relic_jr_pop(&r);
            l[i].duration = (uint32_t)u;
        } else {
            double s;
            if ((st = relic_jr_member(&r, e, "duration", 1, &v)) != RELIC_OK) goto done;
            relic_jr_push(&r, "duration", -1);
            if ((st = relic_jr_f64(&r, v, &s)) != RELIC_OK) goto done;
            if (!(s >= 0 && s / RELIC_AUDIO_CAPTION_UNIT_SECONDS < 4294967295.0)) {
                st = relic_jr_fail(&r, RELIC_E_RANGE, "duration %g s outside 0..%g", s, 4294967295.0 * RELIC_AUDIO_CAPTION_UNIT_SECONDS);
                goto done;
            }
            relic_jr_pop(&r);
            l[i].duration = (uint32_t)(s / RELIC_AUDIO_CAPTION_UNIT_SECONDS + 0.5);
        }
        char *t;
        if ((st = relic_jr_member(&r, e, "text", 1, &v)) != RELIC_OK) goto done;
        relic_jr_push(&r, "text", -1);
        if ((st = relic_jr_string(&r, v, &t, &l[i].text_len)) != RELIC_OK) goto done;
        if (memchr(t, 0, l[i].text_len)) { st = relic_jr_fail(&r, RELIC_E_RANGE, "caption text holds a NUL"); goto done; }
        relic_jr_pop(&r);
        l[i].text = t;
        relic_jr_pop(&r);
    }
    *lines = l;
    *count = n;
done:
    json_object_put(doc);
    return st;
}
