/* tpa_foley.c — the collision ("Foley") table of a TPA bank evaluated at an
 * impact velocity: which sounds a record plays (Trespasser source, Lib/Audio/AudioLoader.hpp, Source/Tools/CollisionEditor/Database.cpp:
 * bits 0-1 of the sample flags count the impact sounds, bit 7 adds the
 * slide sound) and each sound's transfer function (Trespasser source, Lib/Audio/AudioLoader.hpp, Source/Tools/CollisionEditor/Database.cpp, SoundDefs.hpp:
 * value = slope x velocity + intercept, clamped to [min, max]; Trespasser file formats
 * FOLEY TABLE: final volume = volume / 10^(attenuation / 10)). */
#include <math.h>

#include "relic_audio.h"

void relic_tpa_transfer_eval(const relic_tpa_transfer_function *tf, float velocity, relic_tpa_transfer_result *r)
{
    float v = tf->volume_intercept + tf->volume_slope * velocity;
    float p = tf->pitch_intercept + tf->pitch_slope * velocity;
    /* max then min, as the Trespasser file-formats document writes it: min wins when the bounds cross */
    v = fminf(fmaxf(v, tf->volume_min), tf->volume_max);
    p = fminf(fmaxf(p, tf->pitch_min), tf->pitch_max);
    r->volume = v;
    r->pitch = p;
    r->final_volume = v / powf(10.0f, tf->attenuation / 10.0f);
    r->plays = velocity >= tf->min_velocity;
}

unsigned relic_tpa_collision_sounds(const relic_tpa_collision *c, uint32_t ids[3],
                                    const relic_tpa_transfer_function *tfs[3])
{
    unsigned n = 0, impacts = c->samples & (RELIC_TPA_COLLISION_SAMPLES_IMPACT_1 | RELIC_TPA_COLLISION_SAMPLES_IMPACT_2);
    if (impacts >= 1) {
        ids[n] = c->impact_1;
        tfs[n++] = &c->impact_1_tf;
    }
    if (impacts >= 2) {
        ids[n] = c->impact_2;
        tfs[n++] = &c->impact_2_tf;
    }
    if (c->samples & RELIC_TPA_COLLISION_SAMPLES_SLIDE) {
        ids[n] = c->slide;
        tfs[n++] = &c->slide_tf;
    }
    return n;
}
