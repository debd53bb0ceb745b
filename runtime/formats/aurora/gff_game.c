/* gff_game.c — which game wrote a GFF file, from top-level fields only one
 * game's files have, as data: KotOR's area and instance fields (PyKotor
 * wiki, *KotOR GFF formats*: ARE AlphaTest, GIT CameraList ...), NWN2's
 * (the NWN2 toolset's terrain, trees, lights, placed effects: nwn-lib-d,
 * NWN2DataLib), NWN1's tile areas (BioWare, *Aurora engine
 * specifications*, AreaFile §2: Tile_List; NWN2 areas keep their tiles in
 * the TRN/TRX terrain or as instances). Markers of one game are searched
 * before those of another in table order: KotOR and NWN2 first, since an
 * NWN1-only marker such as Tile_List could in principle come back in a
 * later game. */
#include <stdio.h>
#include <string.h>

#include "relic_gff_schema.h"

typedef struct marker {
    const char *label; /* a top-level field only this game writes */
    relic_gff_game game;
} marker;

static const marker markers[] = {
    /* KotOR (1 and 2 are not told apart here) */
    {"AlphaTest", RELIC_GFF_GAME_KOTOR1},        /* ARE */
    {"CameraStyle", RELIC_GFF_GAME_KOTOR1},      /* ARE */
    {"DefaultEnvMap", RELIC_GFF_GAME_KOTOR1},    /* ARE */
    {"Grass_TexName", RELIC_GFF_GAME_KOTOR1},    /* ARE */
    {"StealthXPEnabled", RELIC_GFF_GAME_KOTOR1}, /* ARE */
    {"CameraList", RELIC_GFF_GAME_KOTOR1},       /* GIT */
    {"UseTemplates", RELIC_GFF_GAME_KOTOR1},     /* GIT */
    /* NWN2 */
    {"HasTerrain", RELIC_GFF_GAME_NWN2},       /* ARE */
    {"DayNightShadows", RELIC_GFF_GAME_NWN2},  /* ARE */
    {"NorthDirection", RELIC_GFF_GAME_NWN2},   /* ARE */
    {"TreeList", RELIC_GFF_GAME_NWN2},         /* GIT, GIC */
    {"EnvironmentList", RELIC_GFF_GAME_NWN2},  /* GIT, GIC */
    {"PlacedFXList", RELIC_GFF_GAME_NWN2},     /* GIT, GIC */
    {"StaticCameraList", RELIC_GFF_GAME_NWN2}, /* GIT, GIC */
    {"LightList", RELIC_GFF_GAME_NWN2},        /* GIT */
    {"Light List", RELIC_GFF_GAME_NWN2},       /* GIC */
    /* NWN1 */
    {"Tile_List", RELIC_GFF_GAME_NWN1},     /* ARE */
    {"Mod_OnPlrChat", RELIC_GFF_GAME_NWN1}, /* IFO (1.69) */
};

relic_gff_game relic_gff_detect_game(const relic_gff_doc *d)
{
    uint32_t n = relic_gff_doc_struct_field_count(d, 0);
    for (size_t k = 0; k < sizeof markers / sizeof markers[0]; k++) {
        uint32_t f;
        if (n && relic_gff_find(d, 0, markers[k].label, &f)) {
            /* KotOR files carry no mark of which KotOR: both */
            return markers[k].game == RELIC_GFF_GAME_KOTOR1 ? (relic_gff_game)RELIC_GFF_GAME_KOTOR : markers[k].game;
        }
    }
    return RELIC_GFF_GAME_UNKNOWN;
}

const char *relic_gff_game_names(unsigned games, char *out, size_t cap)
{
    static const char *const names[] = {"NWN1", "NWN2", "KotOR", "KotOR 2"};
    size_t k = 0;
    out[0] = 0;
    if ((games & RELIC_GFF_GAME_KOTOR) == RELIC_GFF_GAME_KOTOR) {
        /* both KotORs read as one */
        games &= ~(unsigned)RELIC_GFF_GAME_KOTOR2;
    }
    int first = 1;
    for (int i = 0; i < 4 && k < cap; i++)
        if (games & (1u << i)) {
            int left = 0;
            for (int j = i + 1; j < 4; j++) left += (games >> j) & 1u;
            k += (size_t)snprintf(out + k, cap - k, "%s%s", first ? "" : left ? ", "
                                                                              : " and ",
                                  names[i]);
            first = 0;
        }
    if (first) snprintf(out, cap, "unknown game");
    return out;
}
