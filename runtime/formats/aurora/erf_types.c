/* erf_types.c — resource type id <-> file extension, as ERF/RIM keys and
 * KEY tables number them. The ids the games share are the schema's enum
 * resource_type (schema/aurora/erf.schema, from xoreos, src/aurora/keyfile.cpp, biffile.cpp and
 * xoreos src/aurora/types.h; a name starting with a digit is written with a
 * leading '_'); the 3000 range differs per game
 * (nwn-lib-d, constants.d; xoreos, src/aurora/types.h): KotOR's lyt/vis/rim/pth/..., NWN2's trn/xml/trx/...
 * and NWN2's 4000 range (mdb, ...). The corpus containers use 2009 nss,
 * 2012 are, 2014 ifo, 2023 git, 2027 utc, 2029 dlg, 2038 fac, 2056 jrl,
 * 3003 pth (KotOR) and 3021 xml (NWN2). */
#include <stdlib.h>

#include "relic_erf.h"

typedef struct type_name {
    uint16_t id;
    const char *ext;
} type_name;

static const type_name kotor_types[] = {
    {3000, "lyt"},
    {3001, "vis"},
    {3002, "rim"},
    {3003, "pth"},
    {3004, "lip"},
    {3005, "bwm"},
    {3006, "txb"},
    {3007, "tpc"},
    {3008, "mdx"},
    {3009, "rsv"},
    {3010, "sig"},
    {3011, "xbx"},
};

static const type_name nwn2_types[] = {
    {3000, "osc"},
    {3001, "usc"},
    {3002, "trn"},
    {3003, "utr"},
    {3004, "uen"},
    {3005, "ult"},
    {3006, "sef"},
    {3007, "pfx"},
    {3008, "cam"},
    {3009, "lfx"},
    {3010, "bfx"},
    {3011, "upe"},
    {3012, "ros"},
    {3013, "rst"},
    {3014, "ifx"},
    {3015, "pfb"},
    {3016, "zip"},
    {3017, "wmp"},
    {3018, "bbx"},
    {3019, "tfx"},
    {3020, "wlk"},
    {3021, "xml"},
    {3022, "scc"},
    {3033, "ptx"},
    {3034, "ltx"},
    {3035, "trx"},
    {4000, "mdb"},
    {4001, "mda"},
    {4002, "spt"},
    {4003, "gr2"},
    {4004, "fxa"},
    {4005, "fxe"},
    {4007, "jpg"},
    {4008, "pwc"},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const type_name *game_table(relic_erf_game game, size_t *n)
{
    if (game == RELIC_ERF_GAME_NWN2) {
        *n = COUNT(nwn2_types);
        return nwn2_types;
    }
    *n = COUNT(kotor_types);
    return kotor_types;
}

const char *relic_erf_type_extension(uint32_t type, relic_erf_game game)
{
    size_t n;
    const type_name *g = game_table(game, &n);
    for (size_t i = 0; i < n; i++)
        if (g[i].id == type) return g[i].ext;
    const char *name = type <= 0xFFFF ? relic_erf_resource_type_name(type) : NULL;
    return name && name[0] == '_' ? name + 1 : name;
}

static int same_ci(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
        if (x != *b) return 0;
    }
    return *a == *b;
}

int relic_erf_type_from_extension(const char *ext, relic_erf_game game, uint32_t *type)
{
    size_t n;
    const type_name *g = game_table(game, &n);
    for (size_t i = 0; i < n; i++)
        if (same_ci(ext, g[i].ext)) {
            *type = g[i].id;
            return 1;
        }
    char lower[8];
    size_t len = strlen(ext);
    int64_t v64;
    if (len >= 1 && len + 1 < sizeof lower) {
        /* the enum's names are lower case, with '_' before a leading digit */
        size_t k = 0;
        if (ext[0] >= '0' && ext[0] <= '9') lower[k++] = '_';
        for (size_t j = 0; j < len && k + 1 < sizeof lower; j++)
            lower[k++] = ext[j] >= 'A' && ext[j] <= 'Z' ? (char)(ext[j] + 32) : ext[j];
        lower[k] = 0;
        if (relic_erf_resource_type_from_name(lower, &v64)) {
            *type = (uint32_t)v64;
            return 1;
        }
    }
    /* a decimal id, the name relic gives resources of unknown types */
    if (*ext == 0 || strlen(ext) > 5) return 0;
    uint32_t v = 0;
    for (const char *p = ext; *p; p++) {
        if (*p < '0' || *p > '9') return 0;
        v = v * 10 + (uint32_t)(*p - '0');
    }
    if (v > 0xFFFF) return 0;
    *type = v;
    return 1;
}
