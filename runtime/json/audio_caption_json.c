/* audio_caption_json.c — caption (subtitle) lines of a Trespasser sample as
 * JSON both ways; the binary caption block is read and built in
 * formats/tres/audio_caption.c. */
#include "relic_audio.h"
#include "relic_gen.h"
#include "relic_json.h"

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
    const relic_jv *doc, *arr, *v;
    relic_jr r;
    relic_status st;
    size_t n;
    memset(&r, 0, sizeof r);
    r.arena = a;
    r.err = err;
    if ((st = relic_jr_parse(text, len, a, &doc, err)) != RELIC_OK) return st;
    const relic_jv *obj = doc, *samples;
    if ((st = relic_jr_member(&r, doc, "samples", 0, &samples)) != RELIC_OK) goto done;
    if (samples) {
        /* the captions.json of `relic extract`: the first sample's lines */
        relic_jr_push(&r, "samples", -1);
        if ((st = relic_jr_array(&r, samples, &n)) != RELIC_OK) goto done;
        if (n == 0) {
            st = relic_jr_fail(&r, RELIC_E_RANGE, "no sample holds captions");
            goto done;
        }
        obj = relic_jv_at(samples, 0);
        relic_jr_push(&r, NULL, 0);
    }
    if ((st = relic_jr_member(&r, obj, "captions", 1, &arr)) != RELIC_OK) goto done;
    relic_jr_push(&r, "captions", -1);
    if ((st = relic_jr_array(&r, arr, &n)) != RELIC_OK) goto done;
    relic_audio_caption *l = relic_arena_array(a, n ? n : 1, sizeof *l, _Alignof(relic_audio_caption));
    if (!l) {
        st = relic_jr_fail(&r, RELIC_E_NOMEM, "no memory for %zu captions", n);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        const relic_jv *e = relic_jv_at(arr, i);
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
        if (memchr(t, 0, l[i].text_len)) {
            st = relic_jr_fail(&r, RELIC_E_RANGE, "caption text holds a NUL");
            goto done;
        }
        relic_jr_pop(&r);
        l[i].text = t;
        relic_jr_pop(&r);
    }
    *lines = l;
    *count = n;
done:
    return st;
}
