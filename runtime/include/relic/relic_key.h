/* relic_key.h — BioWare KEY V1 and BIF V1 (NWN1, NWN:EE, KotOR I/II
 * chitin.key and data\*.bif): the hand-written half.
 *
 * The headers and tables come from the schemas (schema/aurora/key.schema ->
 * generated/aurora/key.h, bif.schema -> bif.h). This header adds what a
 * schema cannot say: the rules between a KEY's tables (each file name inside
 * the name table, each key's BIF index in range, names safe to turn into
 * file names), each BIF resource's bytes placed by its table entry and
 * checked (inside the file, after the table, no two overlapping), the
 * KEY's view of a resource (ResRef, type, BIF, index), and writers laying
 * both files out as the games' own files are.
 * Sources: BioWare, "Key and BIF File Formats" (as archived by xoreos-docs);
 * xoreos, src/aurora/keyfile.cpp, biffile.cpp; neverwinter.nim, key.nim;
 * PyKotor, io_key.py, io_bif.py. */
#ifndef RELIC_KEY_H
#define RELIC_KEY_H

#include "bif.h"
#include "key.h"
#include "relic.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bits of a ResID that index the resource inside its BIF; the BIF index
 *  is the ResID shifted right by this (BioWare Key and BIF File Formats, 2.3). */
#define RELIC_KEY_RES_INDEX_BITS 20
/** The resource index of a ResID (its low 20 bits). */
#define RELIC_KEY_RES_INDEX(id) ((uint32_t)(id)&0xFFFFFu)
/** The BIF index of a ResID (its high 12 bits). */
#define RELIC_KEY_BIF_INDEX(id) ((uint32_t)(id) >> RELIC_KEY_RES_INDEX_BITS)
/** Longest ResRef in a KEY: 16 characters, no NUL at full length. */
#define RELIC_KEY_RESREF_MAX 16

/** Validate a KEY and decode its tables into out (arrays from a): the
 *  generated checks (magic, counts and offsets inside the file), the file
 *  table right after the 64-byte header (as in every real KEY; an Infinity
 *  Engine KEY, 24-byte header, is refused), then for
 *  every file entry a name of at least one byte inside the name table
 *  ("files[3].filename_offset @0x5C: ...") made of safe path components
 *  (no control characters, no '.' or '..' component), and for every key a
 *  safe ResRef (relic_member_name_problem) and a BIF index below BIFCount
 *  ("keys[12].res_id @0x1A8: BIF index 31 >= BIFCount 26"). Resource
 *  indices are checked against the BIF itself (relic_bif_resource).
 *  Errors: RELIC_E_TRUNCATED, RELIC_E_MAGIC, RELIC_E_LAYOUT, RELIC_E_INDEX,
 *  RELIC_E_RANGE, RELIC_E_NOMEM, with the field path and byte offset. */
relic_status relic_key_open(const uint8_t *data, size_t size, relic_arena *a, relic_key_file *out, relic_error *err);

/** File entry bif's name as a relative path with '/' separators (the
 *  stored '\\' mapped, a leading separator dropped, the bytes up to the first
 *  NUL: "data/2da.bif"), into buf (n bytes, NUL-terminated, cut to fit).
 *  Returns buf; "" when bif is out of range. */
const char *relic_key_bif_path(const relic_key_file *k, uint32_t bif, char *buf, size_t n);

/** Key i's ResRef: the bytes up to the first NUL, or all 16; into
 *  buf (at least RELIC_KEY_RESREF_MAX + 1 bytes). Returns buf. */
const char *relic_key_resref(const relic_key_file *k, uint32_t i, char *buf);

/** Key i as "resref.ext" (the extension from relic_erf_type_extension, or
 *  the decimal type id), into buf (n bytes). Returns buf. */
const char *relic_key_entry_name(const relic_key_file *k, uint32_t i, char *buf, size_t n);

/** The key named "resref.ext" (ResRef compared without regard to case, as
 *  xoreos and the game do; ext a known extension or a decimal type id).
 *  When a KEY lists a name twice the last wins (neverwinter.nim). Returns 1
 *  and sets *index when found, else 0. Linear in the keys; no allocation. */
int relic_key_find(const relic_key_file *k, const char *name, uint32_t *index);

/** Validate a BIF and decode its table into out (arrays from a): the
 *  generated checks (magic, FixedResourceCount 0, the table inside the
 *  file), then every resource's data: inside the file
 *  ("variable_resources[378] @0x17b4: data 0x... pass the end of the file
 *  (0x19000 bytes)"), not inside the header or table, and not
 *  overlapping another resource (empty ones may lie anywhere). Errors:
 *  RELIC_E_TRUNCATED, RELIC_E_MAGIC, RELIC_E_RANGE, RELIC_E_LAYOUT,
 *  RELIC_E_NOMEM, naming the table entry and its byte offset. */
relic_status relic_bif_open(const uint8_t *data, size_t size, relic_arena *a, relic_bif_file *out, relic_error *err);

/** The tables of a BIF without the data checks (relic_bif_open's first
 *  half), for listing and checking a BIF whose data are cut off. */
relic_status relic_bif_open_tables(const uint8_t *data, size_t size, relic_arena *a, relic_bif_file *out,
                                   relic_error *err);

/** Check the data of every resource of a BIF decoded by
 *  relic_bif_open_tables over size bytes, reporting each problem (a range
 *  past the end, inside the table, overlapping another) to p. Returns the
 *  number of problems; scratch sorts the ranges (RELIC_E_NOMEM is reported
 *  as a problem). */
unsigned relic_bif_check_data(const relic_bif_file *b, size_t size, relic_arena *scratch, relic_problems *p);

/** Resource index (a KEY's RELIC_KEY_RES_INDEX) of a BIF opened over data
 *  (size bytes): its bytes in place (*out, *out_size). Errors:
 *  RELIC_E_INDEX (index >= the resource count) and RELIC_E_TRUNCATED (data
 *  past the end), with the offset of its table entry. */
relic_status relic_bif_resource(const relic_bif_file *b, const uint8_t *data, size_t size, uint32_t index,
                                const uint8_t **out, uint32_t *out_size, relic_error *err);

/** One resource to write into a BIF. */
typedef struct relic_bif_member {
    uint32_t res_type;   /**< resource type id */
    const uint8_t *data; /**< its bytes */
    uint32_t size;       /**< byte size */
} relic_bif_member;

/** Write a BIF holding members (n of them) as the games' BIFs are laid out:
 *  the header, the table at 20, the data back to back in table order; ID
 *  = bif_index << 20 | i (what every reader accepts), appending to out. The
 *  table is built in scratch. Errors: RELIC_E_ARGUMENT, RELIC_E_LIMIT
 *  (beyond 4 GiB), RELIC_E_NOMEM. */
relic_status relic_bif_write_members(const relic_bif_member *members, uint32_t n, uint32_t bif_index,
                                     relic_arena *scratch, relic_buf *out, relic_error *err);

/** One resource of a KEY to write: its name and where it lies. */
typedef struct relic_key_member {
    const char *resref; /**< at most 16 bytes */
    uint16_t res_type;  /**< resource type id */
    uint32_t bif;       /**< index into the BIF list */
    uint32_t index;     /**< its position in that BIF */
} relic_key_member;

/** Write a KEY naming nbifs BIFs (paths relative to the game directory,
 *  '/' or '\\' separated, stored with '\\'; sizes the BIFs' byte sizes)
 *  and nkeys keys, as the real files are laid out: header, file table at
 *  64, the names each with a NUL counted in FilenameSize, then the key
 *  table; Drives 1, Reserved zero, build date year (since 1900) and day.
 *  Appends to out; tables from scratch. Errors: RELIC_E_ARGUMENT (a name
 *  too long, a BIF index out of range), RELIC_E_LIMIT, RELIC_E_NOMEM. */
relic_status relic_key_write_index(const char *const *bif_paths, const uint32_t *bif_sizes, uint32_t nbifs,
                                   const relic_key_member *keys, uint32_t nkeys, uint32_t year, uint32_t day,
                                   relic_arena *scratch, relic_buf *out, relic_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_KEY_H */
