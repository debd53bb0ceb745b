/* tpa_check.c — the rules between a TPA bank's tables that the schema
 * cannot state (Trespasser source, Lib/Audio/AudioLoad.cpp: each identifier holds the offset
 * and length of one CAU blob and a copy of its header; the writer stores the
 * distinct blobs back to back in the order the identifiers first name them,
 * then the collision table; debug builds of the game assert unique IDs and
 * the copied headers; Trespasser source, Lib/Audio/AudioLoader.hpp, Source/Tools/CollisionEditor/Database.cpp: collision records have nonzero sample flags). */
#include <math.h>
#include <stdarg.h>

#include "relic_audio.h"

uint64_t relic_tpa_sample_size(const relic_tpa_sample *s)
{
    uint64_t n = RELIC_TPA_SAMPLE_HEADER_SIZE + s->data_count;
    if (s->header.caption_offset != 0)
        n += s->caption_gap_count + 8 + s->caption_text_count + s->caption_data_gap_count;
    else
        n += s->data_gap_count;
    return n;
}

uint64_t relic_tpa_sample_offset(const relic_tpa_file *m, size_t i)
{
    uint64_t at = RELIC_TPA_HEADER_SIZE + (uint64_t)m->ids_count * RELIC_TPA_ID_ENTRY_SIZE;
    for (size_t k = 0; k < i && k < m->samples_count; k++) at += relic_tpa_sample_size(&m->samples[k]);
    return at;
}

/* Every rule reports through relic_problem (relic.h). */
typedef relic_problems checker;
#define problem relic_problem

/* Index of the sample starting at offset, or -1 (binary search: starts increase). */
static long find_sample(const uint64_t *starts, size_t n, uint64_t offset)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (starts[mid] < offset) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && starts[lo] == offset ? (long)lo : -1;
}

/* The data of one sample, at starts[k] in the view, a window at a time:
 * whole ADPCM blocks, so that the block walk of relic_audio_check_data
 * sees the same blocks as in one call; PCM's check reads no byte, so one
 * window. Reports the first problem only, as the one-call check would. */
static void check_data(checker *c, const relic_tpa_view *v, const relic_tpa_sample *s, size_t k, uint64_t start,
                       size_t window, relic_tpa_window_fn done, void *done_ctx)
{
    relic_audio_format f;
    relic_error e;
    char path[RELIC_ERROR_PATH_MAX + 32];
    relic_audio_format_of_tpa(&s->header, &f);
    const uint64_t at = start + s->header.data_offset;
    if (s->header.data_offset > v->size - start || s->data_count > v->size - at) {
        snprintf(path, sizeof path, "samples[%zu].data", k);
        problem(c, RELIC_E_TRUNCATED, start, path, "%zu bytes at sample offset %u end past the end of the file",
                s->data_count, s->header.data_offset);
        return;
    }
    const uint8_t *data = v->base + at;
    size_t step = s->data_count + 1;
    if (window && f.compression == RELIC_CAU_COMPRESSION_IMA_ADPCM && f.block_align)
        step = window > f.block_align ? window / f.block_align * f.block_align : f.block_align;
    for (size_t d = 0; d == 0 || d < s->data_count; d += step) {
        size_t n = s->data_count - d < step ? s->data_count - d : step;
        relic_status st = relic_audio_check_data(&f, data + d, n, &e);
        if (done) done(done_ctx, at + d, data + d, n);
        if (st != RELIC_OK) {
            snprintf(path, sizeof path, "samples[%zu].%.80s", k, e.path);
            problem(c, e.code, strcmp(e.path, "data") == 0 ? at + d + e.offset : start, path, "%s", e.message);
            return;
        }
        if (step > s->data_count - d) break; /* d + step would wrap on 32-bit */
    }
}

unsigned relic_tpa_check(const relic_tpa_view *v, const relic_tpa_file *m, int strict, relic_arena *scratch,
                         relic_report_fn report, void *ctx)
{
    return relic_tpa_check_windowed(v, m, strict, 0, NULL, NULL, scratch, report, ctx);
}

unsigned relic_tpa_check_windowed(const relic_tpa_view *v, const relic_tpa_file *m, int strict, size_t window,
                                  relic_tpa_window_fn done, void *done_ctx, relic_arena *scratch,
                                  relic_report_fn report, void *ctx)
{
    checker c = {report, ctx, 0, 0};
    char path[RELIC_ERROR_PATH_MAX + 32];
    const size_t ns = m->samples_count;
    uint64_t *starts = relic_arena_array(scratch, ns + 1, sizeof *starts, 8);
    uint8_t *named = starts ? relic_arena_array(scratch, ns + 1, 1, 1) : NULL;
    uint8_t *fits = named ? relic_arena_array(scratch, ns + 1, 1, 1) : NULL;
    if (!fits) {
        problem(&c, RELIC_E_NOMEM, 0, "", "the scratch arena cannot hold the check of %zu samples (10 bytes each)", ns);
        return c.count;
    }
    uint64_t at = (uint64_t)(v->samples - v->base);
    for (size_t k = 0; k < ns; k++) {
        starts[k] = at;
        at += relic_tpa_sample_size(&m->samples[k]);
        /* a model that does not describe v (a writer's plan checked
         * against its output) may reach past it: nothing past v is read */
        fits[k] = at <= v->size;
        if (!fits[k]) {
            snprintf(path, sizeof path, "samples[%zu]", k);
            problem(&c, RELIC_E_TRUNCATED, starts[k], path, "%llu bytes of sample end past the end of the file (%zu bytes)",
                    (unsigned long long)relic_tpa_sample_size(&m->samples[k]), v->size);
        }
    }
    size_t next_new = 0; /* samples must be first named in storage order */
    for (size_t i = 0; i < m->ids_count; i++) {
        const relic_tpa_id_entry *e = &m->ids[i];
        uint64_t eo = RELIC_TPA_HEADER_SIZE + (uint64_t)i * RELIC_TPA_ID_ENTRY_SIZE;
        long k = find_sample(starts, ns, e->sample_offset);
        if (k < 0) {
            snprintf(path, sizeof path, "ids[%zu].sample_offset", i);
            problem(&c, RELIC_E_LAYOUT, eo + RELIC_TPA_ID_ENTRY_SAMPLE_OFFSET_POS, path,
                    "0x%x is not the start of a stored sample", e->sample_offset);
            continue;
        }
        uint64_t size = relic_tpa_sample_size(&m->samples[k]);
        if (e->sample_length != size) {
            snprintf(path, sizeof path, "ids[%zu].sample_length", i);
            problem(&c, RELIC_E_LAYOUT, eo + RELIC_TPA_ID_ENTRY_SAMPLE_LENGTH_POS, path,
                    "%u differs from the size %llu of samples[%ld]", e->sample_length, (unsigned long long)size, k);
        }
        if (fits[k] && eo + RELIC_TPA_ID_ENTRY_SIZE <= v->size &&
            memcmp(v->base + eo + RELIC_TPA_ID_ENTRY_HEADER_POS, v->base + starts[k], RELIC_TPA_SAMPLE_HEADER_SIZE) != 0) {
            snprintf(path, sizeof path, "ids[%zu].header", i);
            problem(&c, RELIC_E_LAYOUT, eo + RELIC_TPA_ID_ENTRY_HEADER_POS, path,
                    "the copied header differs from the header of samples[%ld] @0x%llx", k, (unsigned long long)starts[k]);
        }
        if (!named[k]) {
            named[k] = 1;
            if (strict && (size_t)k != next_new) {
                snprintf(path, sizeof path, "ids[%zu].sample_offset", i);
                problem(&c, RELIC_E_LAYOUT, eo + RELIC_TPA_ID_ENTRY_SAMPLE_OFFSET_POS, path,
                        "names samples[%ld] first, before samples[%zu] (the writer's order)", k, next_new);
            }
            next_new = (size_t)k + 1;
        }
        if (strict) {
            for (size_t j = 0; j < i; j++)
                if (m->ids[j].sound_id == e->sound_id) {
                    snprintf(path, sizeof path, "ids[%zu].sound_id", i);
                    problem(&c, RELIC_E_INDEX, eo, path, "sound ID 0x%08X repeats ids[%zu]", e->sound_id, j);
                    break;
                }
            if (!(e->attenuation >= 0)) {
                snprintf(path, sizeof path, "ids[%zu].attenuation", i);
                problem(&c, RELIC_E_RANGE, eo + RELIC_TPA_ID_ENTRY_ATTENUATION_POS, path, "%g is negative (the game asserts >= 0)", e->attenuation);
            }
            if (!(e->master_volume <= 0)) {
                snprintf(path, sizeof path, "ids[%zu].master_volume", i);
                problem(&c, RELIC_E_RANGE, eo + RELIC_TPA_ID_ENTRY_MASTER_VOLUME_POS, path, "%g dB is positive (the game asserts <= 0)", e->master_volume);
            }
        }
    }
    for (size_t k = 0; k < ns; k++) {
        const relic_tpa_sample *s = &m->samples[k];
        if (strict && !named[k]) {
            snprintf(path, sizeof path, "samples[%zu]", k);
            problem(&c, RELIC_E_LAYOUT, starts[k], path, "no identifier names this sample");
        }
        if (fits[k]) check_data(&c, v, s, k, starts[k], window, done, done_ctx);
    }
    if (strict) {
        if (m->header.collision_offset != at) {
            problem(&c, RELIC_E_LAYOUT, RELIC_TPA_HEADER_COLLISION_OFFSET_POS, "header.collision_offset",
                    "0x%x, not the end of the sample data 0x%llx", m->header.collision_offset, (unsigned long long)at);
        }
        for (size_t i = 0; i < m->collisions_count; i++)
            if (m->collisions[i].samples == 0) {
                snprintf(path, sizeof path, "collisions[%zu].samples", i);
                problem(&c, RELIC_E_RANGE, m->header.collision_offset + (uint64_t)i * RELIC_TPA_COLLISION_SIZE + RELIC_TPA_COLLISION_SAMPLES_POS,
                        path, "0: the game asserts a collision plays a sound");
            }
    }
    return c.count;
}

/* A TPA (Andres, PenguiN42, TSOrd, machf, *Trespasser file formats*: TPA
 * header): version 0x150 and the identifier table right after the header.
 * Both are needed, since 0x150 alone is a common first word. */
int relic_tpa_detect(const uint8_t *data, size_t size)
{
    return size >= RELIC_TPA_HEADER_SIZE && relic_load_u32le(data) == RELIC_AUDIO_TPA_VERSION &&
        relic_load_u32le(data + RELIC_TPA_HEADER_ID_TABLE_OFFSET_POS) == RELIC_TPA_HEADER_SIZE;
}
