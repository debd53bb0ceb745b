/* gff_strict.c — what `relic check --strict` adds for a typed GFF file
 * (ARE, GIT, GIC, IFO, ITP): the file against its typed schema
 * (runtime/formats/aurora/gff_schema.c), and for GIC/GIT the list correspondence with the
 * paired file of the same name beside it (BioWare Aurora specs, §4), when there is one.
 * The rules are those of the file's game (--game, else relic_gff_detect_game). */
#include <string.h>

#include "formats.h"
#include "gff_cli.h"
#include "relic_gff_schema.h"

/* path with its extension replaced by ext (same case as path's own), in out. */
static int sibling(const char *path, const char *ext, char *out, size_t n)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash)) return 0;
    int upper = dot[1] >= 'A' && dot[1] <= 'Z';
    size_t stem = (size_t)(dot - path);
    if (stem + 1 + strlen(ext) + 1 > n) return 0;
    memcpy(out, path, stem);
    out[stem] = '.';
    size_t i = 0;
    for (; ext[i]; i++) out[stem + 1 + i] = upper && ext[i] >= 'a' && ext[i] <= 'z' ? (char)(ext[i] - 32) : ext[i];
    out[stem + 1 + i] = 0;
    return 1;
}

/* Problems found from the other file's side (checking a GIT against the GIC
 * beside it) are about that file: say so, naming it. */
typedef struct other_side {
    relic_problems *to;
    const char *path;
} other_side;

static void from_other_side(void *ctx, const relic_error *err)
{
    other_side *o = ctx;
    relic_problem(o->to, err->code, err->offset, err->path, "in %s beside it: %s", o->path, err->message);
}

/* Check the pair (sc's file a, paired file b); b is mapped from path_b. */
static unsigned check_pair(const relic_gff_schema *sc, const relic_gff_doc *a, const char *path_b, int a_is_first,
                           relic_problems *pr)
{
    other_side o = {pr, path_b};
    relic_problems via = {from_other_side, &o, 0, 0};
    relic_mapping m;
    relic_error err;
    relic_arena ar;
    relic_gff_doc b;
    unsigned n = 0;
    if (relic_map_file(path_b, 0, &m, &err) != RELIC_OK) return 0; /* no paired file: nothing to compare */
    relic_arena_init_heap(&ar, CLI_ARENA_LIMIT);
    if (relic_gff_open(m.bytes.data, m.bytes.size, &ar, NULL, NULL, &b, &err) == RELIC_OK)
        n = a_is_first ? relic_gff_schema_check_pairs(sc, a, &b, pr) : relic_gff_schema_check_pairs(sc, &b, a, &via);
    relic_arena_release(&ar);
    relic_unmap(&m);
    return n;
}

int cli_gff_game(const char *name, unsigned *out)
{
    static const struct {
        const char *name;
        unsigned game;
    } games[] = {
        {"nwn1", RELIC_GFF_GAME_NWN1},
        {"nwn", RELIC_GFF_GAME_NWN1},
        {"nwn2", RELIC_GFF_GAME_NWN2},
        {"kotor1", RELIC_GFF_GAME_KOTOR1},
        {"kotor", RELIC_GFF_GAME_KOTOR1},
        {"kotor2", RELIC_GFF_GAME_KOTOR2},
        {"auto", RELIC_GFF_GAME_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        if (strcmp(name, games[i].name) == 0) {
            *out = games[i].game;
            return 0;
        }
    return -1;
}

unsigned cli_gff_strict(const char *path, const relic_gff_doc *d, relic_problems *pr)
{
    const relic_gff_schema *sc = relic_gff_schema_for_type(relic_gff_file_type(d));
    if (!sc) return 0;
    /* the game whose rules apply: --game, else what the file's fields say */
    const char *name = cli_convert_option("--game");
    unsigned game = RELIC_GFF_GAME_UNKNOWN;
    if (name && cli_gff_game(name, &game) != 0) {
        fprintf(stderr, "relic check: unknown --game '%s' (nwn1, nwn2, kotor1, kotor2, auto)\n", name);
        game = RELIC_GFF_GAME_UNKNOWN;
    }
    if (game == RELIC_GFF_GAME_UNKNOWN) game = relic_gff_detect_game(d);
    unsigned n = relic_gff_schema_check_game(sc, d, game, pr);
    char other[4096];
    if (sc->pairs && sibling(path, sc->pairs, other, sizeof other)) {
        n += check_pair(sc, d, other, 1, pr);
    } else {
        /* the file another typed file pairs with (GIT for GIC) */
        static const char *const pairing[] = {"gic"};
        for (size_t i = 0; i < sizeof pairing / sizeof pairing[0]; i++) {
            const relic_gff_schema *p = relic_gff_schema_named(pairing[i]);
            if (p && p->pairs && strcmp(p->pairs, sc->format) == 0 && sibling(path, p->format, other, sizeof other))
                n += check_pair(p, d, other, 0, pr);
        }
    }
    return n;
}
