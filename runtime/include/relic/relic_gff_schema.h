/* relic_gff_schema.h — typed GFF files (ARE, GIT, GIC, IFO, ITP and the
 * common structs of BioWare Aurora specs): what a file type documents about its GFF
 * structs, as tables generated from schema/aurora/<type>.schema (typed GFF
 * schemas, gen/SCHEMA.md), the typed accessors' common getter, and the
 * `relic check --strict` walk that compares a file with its tables.
 * Sources: BioWare Aurora specs (BioWare AreaFile, IFO, Common GFF Structs and ITP
 * documents); xoreos, src/aurora/gff3file.cpp; neverwinter.nim, gff.nim. */
#ifndef RELIC_GFF_SCHEMA_H
#define RELIC_GFF_SCHEMA_H

#include "relic_gff.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The games a typed rule belongs to (bits; a rule with 0 holds for every
 *  game). The schemas say `for nwn1 nwn2 kotor1 kotor2` after a range,
 *  value set, `also TYPE` or `id N`. */
typedef enum relic_gff_game {
    RELIC_GFF_GAME_UNKNOWN = 0,
    RELIC_GFF_GAME_NWN1 = 1,   /**< Neverwinter Nights (BioWare, 2002), its toolset */
    RELIC_GFF_GAME_NWN2 = 2,   /**< Neverwinter Nights 2 (Obsidian, 2006), its toolset */
    RELIC_GFF_GAME_KOTOR1 = 4, /**< Star Wars: Knights of the Old Republic (BioWare, 2003) */
    RELIC_GFF_GAME_KOTOR2 = 8  /**< KotOR II: The Sith Lords (Obsidian, 2004) */
} relic_gff_game;
#define RELIC_GFF_GAME_KOTOR (RELIC_GFF_GAME_KOTOR1 | RELIC_GFF_GAME_KOTOR2)

/** A StructID that some games write (struct `id N for GAMES`). */
typedef struct relic_gff_sid {
    uint32_t id;
    uint8_t games; /**< relic_gff_game bits */
} relic_gff_sid;

/** The type of a field whose GFF type varies (a Variable's Value). */
#define RELIC_GFF_ANY 18u

typedef struct relic_gff_sstruct relic_gff_sstruct;

/** How a field's documented value set is checked. */
typedef enum relic_gff_values {
    RELIC_GFF_VALUES_NONE = 0, /**< no value set */
    RELIC_GFF_VALUES_ENUM = 1, /**< one of values[] */
    RELIC_GFF_VALUES_FLAGS = 2 /**< bits within the OR of values[] */
} relic_gff_values;

/** One documented field of a typed GFF struct. */
typedef struct relic_gff_sfield {
    const char *label;              /**< the GFF label, as in the file */
    const char *cname;              /**< the C name of its accessor */
    uint8_t type;                   /**< relic_gff_field_type, or RELIC_GFF_ANY */
    uint8_t has_range;              /**< lo..hi applies (integers; floats compared as doubles) */
    uint8_t values;                 /**< relic_gff_values */
    uint8_t closed;                 /**< a value outside the set is a problem (else names only) */
    int64_t lo, hi;                 /**< inclusive range */
    const int64_t *value_list;      /**< enum values or flag bits */
    const char *const *value_names; /**< their names */
    uint32_t nvalues;
    const relic_gff_sstruct *of; /**< struct of a struct field or of a list's elements */
    const char *doc;             /**< the BioWare spec's description */
    uint8_t range_games;         /**< games lo..hi holds for (0: every game) */
    uint8_t values_games;        /**< games the value set holds for (0: every game) */
    uint8_t alt_type;            /**< a type alt_games also write (when alt_games) */
    uint8_t alt_games;
} relic_gff_sfield;

/** One documented struct: its StructID and fields. */
struct relic_gff_sstruct {
    const char *name; /**< the schema's struct name */
    uint32_t id;      /**< documented StructID (unless id_any) */
    uint8_t id_any;   /**< the StructID varies */
    uint32_t field_count;
    const relic_gff_sfield *fields;
    const char *doc;
    uint32_t nids; /**< per-game StructIDs (then id is the first of them) */
    const relic_gff_sid *ids;
};

/** A typed file: its FileType and top-level struct. */
typedef struct relic_gff_schema {
    const char *format; /**< "are" */
    char file_type[5];  /**< "ARE " (NUL-terminated) */
    const char *pairs;  /**< format whose same-labelled root lists have as many
                                         elements (GIC pairs "git", BioWare Aurora specs, §4), or NULL */
    const relic_gff_sstruct *root;
    const char *doc;
} relic_gff_schema;

/** The typed accessors' getter: the field labelled label in struct s of a
 *  validated file, which must have GFF type type, stored in *out as the
 *  C type of that GFF type: uint8_t BYTE, int8_t CHAR, uint16_t WORD,
 *  int16_t SHORT, uint32_t DWORD, int32_t INT, uint64_t DWORD64, int64_t
 *  INT64, float FLOAT, double DOUBLE, relic_bytes CExoString/CResRef/VOID
 *  (in place), relic_gff_locstring CExoLocString, uint32_t struct index for
 *  STRUCT, relic_gff_list LIST, float[4] Orientation, float[3] Vector; with
 *  type RELIC_GFF_ANY, the uint32_t field index (any type).
 *  Errors: RELIC_E_ARGUMENT ("ARE field 'Width' is absent" / "... is a
 *  dword, not an int"), *out untouched. */
relic_status relic_gff_typed_get(const relic_gff_doc *d, uint32_t s, const char *label, uint32_t type, void *out,
                                 relic_error *err);

/** The typed schema of a FileType ("ARE ", 4 bytes, not NUL-terminated),
 *  or of a format name ("are"); NULL when relic has none. */
const relic_gff_schema *relic_gff_schema_for_type(const char *file_type);
const relic_gff_schema *relic_gff_schema_named(const char *format);

/** The game that wrote a validated file, from fields and StructIDs only
 *  one game writes (gff_game.c: KotOR's AlphaTest or CameraList, NWN2's
 *  HasTerrain or TreeList, NWN1's Tile_List ...); RELIC_GFF_GAME_UNKNOWN
 *  when nothing tells. Linear in the top-level struct's fields. */
relic_gff_game relic_gff_detect_game(const relic_gff_doc *d);
/** "NWN1", "NWN2", "KotOR", "KotOR 2", "NWN1 and NWN2", ... for a game mask;
 *  "unknown game" for 0. Into out (at least 48 bytes); returns out. */
const char *relic_gff_game_names(unsigned games, char *out, size_t cap);

/** As relic_gff_schema_check, with the rules of game (bits; UNKNOWN: only
 *  the rules of every game, and any game's StructIDs accepted): a rule
 *  `for` other games is not applied, a type `also` written by game is
 *  accepted, and each problem's message says whose rule it is ("(NWN1 and
 *  NWN2 rule)"). */
unsigned relic_gff_schema_check_game(const relic_gff_schema *sc, const relic_gff_doc *d, unsigned game,
                                     relic_problems *pr);

/** Compare a validated file with its typed schema (`relic check --strict`):
 *  from the root, every documented field that is present must have its
 *  documented GFF type, range and value set, and every struct reached
 *  through a documented struct or list field its documented StructID.
 *  Absent fields and fields the schema does not know are not problems
 *  (games and tools add fields). Each problem goes to pr with code
 *  RELIC_E_RANGE (value) or RELIC_E_LAYOUT (type, StructID), the path
 *  ("Tile_List/3/Tile_Orientation"; "(top-level struct)" for the root's
 *  StructID) and the byte offset of the field record.
 *  Returns the number of problems. No allocation; recursion depth is bounded
 *  by RELIC_GFF_MAX_DEPTH (relic_gff_open). */
unsigned relic_gff_schema_check(const relic_gff_schema *sc, const relic_gff_doc *d, relic_problems *pr);

/** The correspondence of paired files (BioWare Aurora specs, §4: GIC and GIT): each list
 *  field of sc's root that d has must have as many elements as the list of
 *  the same label in other's root (absent there: 0). Problems (code
 *  RELIC_E_INDEX, path = the label) go to pr; returns their number. */
unsigned relic_gff_schema_check_pairs(const relic_gff_schema *sc, const relic_gff_doc *d, const relic_gff_doc *other,
                                      relic_problems *pr);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_GFF_SCHEMA_H */
