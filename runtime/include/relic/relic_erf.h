/* relic_erf.h — BioWare resource containers: ERF V1.0/V1.1 (.erf .mod .hak
 * .sav .nwm) and RIM V1.0 (.rim): the hand-written half.
 *
 * The header and tables come from the schemas (schema/aurora/erf.schema ->
 * generated/aurora/erf.h, schema/aurora/rim.schema -> rim.h). This header
 * adds what a schema cannot say: each resource's bytes placed by its table
 * entry and checked (inside the file, after the tables, no two overlapping),
 * one archive form for both containers with zero-copy member access (a
 * member GFF is validated in place, a view into the mapped container), the
 * writer (the container's own layout kept, or the layout real files use),
 * and the resource type id <-> extension table.
 * Sources: xoreos, src/aurora/erffile.cpp; neverwinter.nim, erf.nim (ERF); xoreos, src/aurora/types.h (ResTypes); nwn-lib-d, constants.d (NWN2 ids);
 * xoreos src/aurora/rimfile.cpp and types.h (RIM, KotOR ids). */
#ifndef RELIC_ERF_H
#define RELIC_ERF_H

#include "erf.h"
#include "relic.h"
#include "relic_gff.h"
#include "rim.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest ResRef: 32 characters in ERF V1.1 (NWN2), 16 elsewhere. */
#define RELIC_ERF_RESREF_MAX 32

/** Which container an archive is. */
typedef enum relic_erf_kind {
    RELIC_ERF_KIND_ERF = 0, /**< ERF V1.0/V1.1: "ERF ", "MOD ", "HAK ", "SAV ", "NWM " */
    RELIC_ERF_KIND_RIM = 1  /**< RIM V1.0 */
} relic_erf_kind;

/** Whose resource type ids: the numbers from 3000 up differ per game
 *  (nwn-lib-d, constants.d; xoreos, src/aurora/types.h: 3002 is KotOR's rim and NWN2's trn). */
typedef enum relic_erf_game {
    RELIC_ERF_GAME_KOTOR = 0, /**< NWN1 and KotOR (ERF V1.0, RIM): KotOR's 3000-range ids */
    RELIC_ERF_GAME_NWN2 = 1   /**< NWN2 (ERF V1.1): NWN2's 3000- and 4000-range ids */
} relic_erf_game;

/** One resource. */
typedef struct relic_erf_entry {
    char resref[RELIC_ERF_RESREF_MAX + 1]; /**< NUL-terminated; as stored (lower case in real files) */
    uint32_t res_type;                     /**< resource type id (16 bits in ERF) */
    uint32_t res_id;                       /**< ResID: the entry's index in real files */
    uint32_t unused;                       /**< ERF key's unused u16 (0 in real files); RIM: 0 */
    uint32_t offset;                       /**< byte offset of the data in the container (as read; the writer's result) */
    uint32_t size;                         /**< byte size of the data */
    const uint8_t *data;                   /**< the data: in place in the mapped container, or the caller's bytes */
} relic_erf_entry;

/** A container: its tables (the generated models) and its entries. Filled
 *  by relic_erf_open, or by the caller (relic_erf_init) before writing. */
typedef struct relic_erf_archive {
    relic_erf_kind kind;
    relic_erf_file erf;       /**< ERF: header, localized strings (keys and resources mirror entries) */
    relic_rim_file rim;       /**< RIM: header (entries mirror entries) */
    uint32_t count;           /**< entries */
    relic_erf_entry *entries; /**< count entries, in table order */
    uint64_t file_size;       /**< size of the container read (0 for a new one): bytes after the last datum are kept by LAYOUT_KEEP */
} relic_erf_archive;

/** Validate data as an ERF or RIM container (by its magic): the generated
 *  checks (header, table bounds, version), the ERF FileType (one of ERF,
 *  MOD, HAK, SAV, NWM), then every resource: its bytes inside the file
 *  ("resources[3] @0xF0: data 0x1000+0x20 pass the end of the file"), not
 *  inside the header or a table, and not overlapping another resource's
 *  bytes (empty resources may lie anywhere). The tables are decoded into a
 *  (a few dozen bytes per entry); every entry's data points into data, which
 *  must outlive the archive. Errors: RELIC_E_TRUNCATED, RELIC_E_MAGIC,
 *  RELIC_E_RANGE, RELIC_E_LAYOUT, RELIC_E_NOMEM, naming the table entry and
 *  its byte offset. */
relic_status relic_erf_open(const uint8_t *data, size_t size, relic_arena *a, relic_erf_archive *out,
                            relic_error *err);

/** 1 when data starts like an ERF ("ERF V1.0" ... "NWM V1.1") or RIM ("RIM V1.0"). */
int relic_erf_detect(const uint8_t *data, size_t size);

/** The game whose resource type ids the archive uses (V1.1 -> NWN2, else KotOR/NWN1). */
relic_erf_game relic_erf_game_of(const relic_erf_archive *ar);

/** Entry i as "resref.ext" into buf (n bytes): the extension from the type
 *  table, or the decimal type id when the id is unknown. Returns buf. */
const char *relic_erf_entry_name(const relic_erf_archive *ar, uint32_t i, char *buf, size_t n);

/** The entry named "resref.ext" (resref compared case-insensitively; ext a
 *  known extension or a decimal type id). Returns 1 and sets *index when
 *  found, else 0. Linear in the entries; no allocation. */
int relic_erf_find(const relic_erf_archive *ar, const char *name, uint32_t *index);

/** Validate entry i as a GFF in place (a view into the container: no copy).
 *  Errors as relic_gff_open, with the offset in the container and the path
 *  prefixed by the member's name ("module.ifo:structs[0]..."). */
relic_status relic_erf_open_gff(const relic_erf_archive *ar, uint32_t i, relic_arena *scratch, relic_gff_doc *out,
                                relic_error *err);

/** Start a new, empty archive: kind, FileType (4 characters, e.g. "MOD ";
 *  ignored for RIM) and game (V1.1 for NWN2, else V1.0). Add entries by
 *  setting ar->entries/count (resref, res_type, data, size; offsets 0). */
void relic_erf_init(relic_erf_archive *ar, relic_erf_kind kind, const char *file_type, relic_erf_game game);

/** Layouts the writer can produce. */
typedef enum relic_erf_layout {
    /** What real files and the common writers use: header, localized
     *  strings (ERF), key list, resource list (RIM: entry table), then the
     *  data back to back in entry order; ResID = index is NOT imposed (ids
     *  are written as given). */
    RELIC_ERF_LAYOUT_PACKED = 0,
    /** Every table and datum where the archive says it was (entry offsets,
     *  header offsets), gaps zero-filled, and the container's trailing bytes
     *  kept as zeros up to file_size, so a container read is written back
     *  byte for byte (KotOR's own RIMs align their data in a way no rule
     *  found reproduces); falls back to PACKED (and says so in *fell_back)
     *  when those positions overlap (a datum grew, tables moved). A datum
     *  that shrank stays at its offset, leaving zeros behind it. */
    RELIC_ERF_LAYOUT_KEEP = 1
} relic_erf_layout;

/** Serialise ar, appending to out. The entries' offsets are not changed
 *  (read them back with relic_erf_open). The tables are laid out in the
 *  caller's arena scratch (up to three drafts of the key and resource
 *  lists, plus the entry copies of a PACKED layout), nothing from the heap.
 *  Errors: RELIC_E_ARGUMENT (NULL scratch or out, a ResRef
 *  too long for the version, a type id above 65535 in an ERF),
 *  RELIC_E_LIMIT (beyond 4 GiB), RELIC_E_NOMEM. */
relic_status relic_erf_archive_write(const relic_erf_archive *ar, relic_erf_layout layout, relic_arena *scratch, relic_buf *out,
                                     int *fell_back, relic_error *err);

/** The container's JSON listing (librelic-json, runtime/json/erf_json.c),
 *  what `relic dump` prints and `relic pack` reads as its manifest: an
 *  object with "format" ("erf" or "rim"), the header fields (ERF: file_type,
 *  version "V1.0"/"V1.1", build_year, build_day, description_str_ref, the
 *  three table offsets, "reserved" as hex when not all zero, localized_strings
 *  [{language_id, text}] with text as Latin-1 code points; RIM: reserved_0,
 *  offset_to_entries, "reserved" likewise), file_size (bytes), and entries
 *  in table order (relic_erf_archive_json_entry), appended to o. Returns 0, 1 when o
 *  ran out of memory (o->failed). The members' bytes are not in it. */
int relic_erf_archive_json(const relic_erf_archive *ar, relic_buf *o);

/** Entry i as one JSON object {name (resref.ext, relic_erf_entry_name),
 *  resref, type, id, [unused, only when not zero,] offset, size (bytes)},
 *  appended to o (librelic-json). */
void relic_erf_archive_json_entry(const relic_erf_archive *ar, uint32_t i, relic_buf *o);

/** relic_erf_listing_read flags. */
enum {
    /** Every member relic_erf_archive_json writes must be there ("unused" and
     *  "reserved" excepted): a manifest as `relic extract` left it. Without
     *  it, header members, localized strings, "file_size" and an entry's
     *  "name", "id", "offset" and "size" may be left out (0; id: the index),
     *  and "resref" and "type" come from "name" (resref.ext) when left out. */
    RELIC_ERF_LISTING_COMPLETE = 1
};

/** A container listing read back (relic_erf_listing_read). */
typedef struct relic_erf_listing {
    relic_erf_archive ar; /**< kind, header, localized strings, file_size and count entries
                               (resref, type, id, unused, offset, size as listed; data NULL) */
    char **names;         /**< per entry: its "name" (NUL-terminated), NULL when left out */
    uint8_t *placed;      /**< per entry: 1 when it gives both "offset" and "size" */
    int has_file_size;    /**< the listing gives "file_size" */
} relic_erf_listing;

/** Read a container's JSON listing (relic_erf_archive_json's text: `relic
 *  dump`, the manifest `relic extract` leaves, a foreign caller's model)
 *  into out, arrays and strings from a (librelic-json): the one reader of
 *  `relic pack`'s manifest and relic_abi_container_write. The ERF file type
 *  is read as 4 Latin-1 characters, not checked (the writer checks it).
 *  Errors name the JSON path: RELIC_E_SYNTAX (with the byte offset) for
 *  text that is not JSON, RELIC_E_ARGUMENT for a missing member
 *  ("format", "file_type", "version", "entries", a string's "text", and
 *  those flags require), RELIC_E_SYNTAX for a value of the wrong kind,
 *  RELIC_E_RANGE for a number out of its field's range, a "format" other
 *  than "erf" or "rim", a "version" other than "V1.0" or "V1.1", a ResRef
 *  empty, longer than RELIC_ERF_RESREF_MAX or holding a NUL, a name with no
 *  known extension when "type" is left out; RELIC_E_NOMEM. */
relic_status relic_erf_listing_read(const char *text, size_t len, unsigned flags, relic_arena *a, relic_erf_listing *out,
                                    relic_error *err);

/* ---------------------------------------------------------------------- */
/* Resource type ids (xoreos, src/aurora/keyfile.cpp, biffile.cpp table, nwn-lib-d, constants.d; xoreos, src/aurora/types.h; xoreos types.h) */
/* ---------------------------------------------------------------------- */

/** The extension (lower case, no dot) of type id in game's numbering; NULL
 *  when unknown. */
const char *relic_erf_type_extension(uint32_t type, relic_erf_game game);

/** The type id of an extension (case-insensitive), or a decimal number (the
 *  form unknown ids are extracted with). Returns 1 and sets *type, else 0. */
int relic_erf_type_from_extension(const char *ext, relic_erf_game game, uint32_t *type);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_ERF_H */
