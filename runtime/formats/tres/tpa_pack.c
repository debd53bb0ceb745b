/* tpa_pack.c — a TPA bank model from an identifier list and CAU samples,
 * laid out as the game's writer lays it out (Trespasser source, Lib/Audio/AudioLoad.cpp,
 * CollisionEditor Database.cpp as the spec reads it): header, every
 * identifier entry, the distinct samples back to back in the order the
 * identifiers first name them, then the collision (Foley) table (Trespasser source, Lib/Audio/AudioLoader.hpp, Source/Tools/CollisionEditor/Database.cpp).
 * Each entry gets its sample's absolute offset, length and a copy of its
 * 36-byte header (Trespasser source, Lib/Audio/AudioLoad.cpp); the generated writer (relic_tpa_write) then fills
 * the header's counts and offsets. */
#include "relic_audio.h"

static void copy_header(relic_tpa_sample_header *d, const relic_cau_sample_header *s)
{
    memcpy(d->magic, s->magic, sizeof d->magic);
    d->version = s->version;
    d->data_offset = s->data_offset;
    d->block_align = s->block_align;
    d->data_size = s->data_size;
    d->decoded_size = s->decoded_size;
    d->sample_rate = s->sample_rate;
    d->bits = s->bits;
    d->channels = s->channels;
    d->compression = s->compression;
    d->flags = s->flags;
    d->caption_offset = s->caption_offset;
}

relic_status relic_tpa_pack(const relic_tpa_pack_entry *ids, size_t id_count, const relic_cau_file *samples,
                            size_t sample_count, const relic_tpa_collision *collisions, size_t collision_count,
                            relic_arena *a, relic_tpa_file *out, relic_error *err)
{
    char path[64];
    memset(out, 0, sizeof *out);
    if (id_count > (UINT32_MAX - RELIC_TPA_HEADER_SIZE) / RELIC_TPA_ID_ENTRY_SIZE)
        return relic_fail(err, RELIC_E_LIMIT, 0, "ids", "%zu identifiers do not fit a 32-bit bank", id_count);
    /* storage index of each given sample: the order identifiers first name them */
    size_t *order = relic_arena_array(a, sample_count ? sample_count : 1, sizeof *order, _Alignof(size_t));
    if (!order) return relic_fail(err, RELIC_E_NOMEM, 0, "samples", "no memory for %zu samples", sample_count);
    for (size_t k = 0; k < sample_count; k++) order[k] = SIZE_MAX;
    size_t stored = 0;
    for (size_t i = 0; i < id_count; i++) {
        snprintf(path, sizeof path, "ids[%zu]", i);
        if (ids[i].sample >= sample_count)
            return relic_fail(err, RELIC_E_INDEX, 0, path, "sample %zu of %zu", ids[i].sample, sample_count);
        for (size_t j = 0; j < i; j++)
            if (ids[j].sound_id == ids[i].sound_id)
                return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "sound ID 0x%08X is already ids[%zu]", ids[i].sound_id, j);
        if (order[ids[i].sample] == SIZE_MAX) order[ids[i].sample] = stored++;
    }
    for (size_t k = 0; k < sample_count; k++) {
        snprintf(path, sizeof path, "samples[%zu]", k);
        if (order[k] == SIZE_MAX)
            return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "no identifier names this sample");
        if (samples[k].trailing_count)
            return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "%zu bytes after the audio data cannot be stored in a bank",
                              samples[k].trailing_count);
    }
    out->header.version = RELIC_AUDIO_TPA_VERSION;
    out->ids = relic_arena_array(a, id_count ? id_count : 1, sizeof *out->ids, _Alignof(relic_tpa_id_entry));
    out->samples = relic_arena_array(a, stored ? stored : 1, sizeof *out->samples, _Alignof(relic_tpa_sample));
    if (!out->ids || !out->samples) return relic_fail(err, RELIC_E_NOMEM, 0, "ids", "no memory for the tables");
    memset(out->samples, 0, (stored ? stored : 1) * sizeof *out->samples);
    for (size_t k = 0; k < sample_count; k++) {
        const relic_cau_file *c = &samples[k];
        relic_tpa_sample *s = &out->samples[order[k]];
        copy_header(&s->header, &c->header);
        s->caption_gap = c->caption_gap;
        s->caption_gap_count = c->caption_gap_count;
        s->caption_length = c->caption_length;
        s->caption_count = c->caption_count;
        s->caption_text = c->caption_text;
        s->caption_text_count = c->caption_text_count;
        s->caption_data_gap = c->caption_data_gap;
        s->caption_data_gap_count = c->caption_data_gap_count;
        s->data_gap = c->data_gap;
        s->data_gap_count = c->data_gap_count;
        s->data = c->data;
        s->data_count = c->data_count;
    }
    out->ids_count = id_count;
    out->samples_count = stored;
    /* offsets: every sample and the collision table must lie below 4 GiB */
    uint64_t *at = relic_arena_array(a, stored + 1, sizeof *at, _Alignof(uint64_t));
    if (!at) return relic_fail(err, RELIC_E_NOMEM, 0, "samples", "no memory for %zu offsets", stored);
    at[0] = RELIC_TPA_HEADER_SIZE + (uint64_t)id_count * RELIC_TPA_ID_ENTRY_SIZE;
    for (size_t k = 0; k < stored; k++) at[k + 1] = at[k] + relic_tpa_sample_size(&out->samples[k]);
    uint64_t end = at[stored];
    if (end + (uint64_t)collision_count * RELIC_TPA_COLLISION_SIZE > UINT32_MAX)
        return relic_fail(err, RELIC_E_LIMIT, 0, "samples", "the bank would be %llu bytes (over 4 GiB)",
                          (unsigned long long)(end + (uint64_t)collision_count * RELIC_TPA_COLLISION_SIZE));
    for (size_t i = 0; i < id_count; i++) {
        relic_tpa_id_entry *e = &out->ids[i];
        const relic_tpa_sample *s = &out->samples[order[ids[i].sample]];
        e->sound_id = ids[i].sound_id;
        e->sample_offset = (uint32_t)at[order[ids[i].sample]];
        e->sample_length = (uint32_t)relic_tpa_sample_size(s);
        e->attenuation = ids[i].attenuation;
        e->master_volume = ids[i].master_volume;
        e->header = s->header;
    }
    /* the writer points the collision offset at the end of the samples
     * even when there are no records (Trespasser source, Lib/Audio/AudioLoader.hpp) */
    out->header.collision_offset = (uint32_t)end;
    out->collisions = (relic_tpa_collision *)collisions;
    out->collisions_count = collision_count;
    return RELIC_OK;
}
