/* relic_gff.h — BioWare GFF V3.2: the hand-written half.
 *
 * The header and the six arrays (bounds of every array) come from the schema
 * (schema/aurora/gff.schema -> generated/aurora/gff.h). This header adds the
 * GFF semantics a schema cannot say: field types 0-17 and their data, the
 * struct graph, zero-copy lookup and typed getters, an in-memory tree, the
 * writer that lays a tree out as real files do, and the nwn_gff JSON form.
 * Sources: BioWare GFF spec; xoreos, src/aurora/gff3file.cpp; neverwinter.nim, gff.nim (measured conventions nwn-lib-d, gff.d; xoreos, gff3writer.cpp,
 * JSON neverwinter.nim, gffjson.nim; xoreos-tools, src/xml/gff3dumper.cpp). */
#ifndef RELIC_GFF_H
#define RELIC_GFF_H

#include "gff.h"
#include "relic.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Deepest struct nesting accepted (the root is depth 0). Real files stay
 *  below 10; the limit bounds the recursion of the tree, writer and JSON. */
#define RELIC_GFF_MAX_DEPTH 100
/** "None" in StrRef, struct ids and empty-struct DataOrDataOffset. */
#define RELIC_GFF_NONE 0xFFFFFFFFu

/* ---------------------------------------------------------------------- */
/* Validation and zero-copy access                                        */
/* ---------------------------------------------------------------------- */

/** A validated GFF file. Only relic_gff_open fills one; every getter below
 *  then reads the bytes in place without further bounds checks. */
typedef struct relic_gff_doc {
    relic_gff_view v;      /**< the generated view: header and the six arrays */
    uint32_t struct_count; /**< structs in the file */
    uint32_t field_count;  /**< fields in the file */
    uint32_t max_depth;    /**< deepest nesting found (root = 0) */
    uint32_t reachable;    /**< structs reachable from the root */
} relic_gff_doc;

/** Validate data as a GFF V3.2 file: the generated checks (header, array
 *  bounds; each struct's field count, each field's type id and label
 *  index, made as this pass reads each record, with the errors
 *  relic_gff_validate gives), then every struct's field list
 *  (field index / field-indices run), every field's data (8-byte values,
 *  string, ResRef, locstring and substrings, VOID, Orientation, Vector
 *  inside the field data; struct indices; list records inside the list
 *  indices) and the struct graph from struct 0: depth at most
 *  RELIC_GFF_MAX_DEPTH, no struct reached twice (cycles and shared
 *  sub-structs are rejected, so work is linear in the file size), no field
 *  used by two structs. Duplicate labels in one struct go to warn (may be
 *  NULL) and are not fatal. Work: one pass over the structs in index order
 *  when every struct comes after the struct that holds it (what writers
 *  do), else a walk from the root; linear either way. scratch supplies
 *  struct_count + field_count/8 bytes (a depth byte per struct, a bit per
 *  field) when that is above 8 KiB (below, they are on the stack); when
 *  the structs' field lists are not runs in struct order (BioWare's
 *  writers interleave a struct's fields with its children's), field_count
 *  bytes more (a byte per field) when they do not fit in the rest of those
 *  8 KiB, or else the walk runs; with warn, 4 bytes per label (a buffer
 *  arena never mallocs). Nothing of it is kept.
 *  Errors: those of relic_gff_validate, RELIC_E_INDEX, RELIC_E_LAYOUT,
 *  RELIC_E_LIMIT (depth), RELIC_E_NOMEM (scratch), each naming the path
 *  (structs[3].fields[2] ...) and byte offset. */
relic_status relic_gff_open(const uint8_t *data, size_t size, relic_arena *scratch,
                            relic_report_fn warn, void *warn_ctx, relic_gff_doc *out,
                            relic_error *err);

/** The 4-character FileType ("UTC "), not NUL-terminated. */
static inline const char *relic_gff_file_type(const relic_gff_doc *d) { return (const char *)d->v.header; }

/** Struct s: its id (0xFFFFFFFF for the root), its field count, its i-th
 *  field's index (i < count). s < d->struct_count. Plain loads (inline). */
static inline uint32_t relic_gff_doc_struct_id(const relic_gff_doc *d, uint32_t s)
{
    return relic_load_u32le(d->v.structs + 12 * (size_t)s);
}
static inline uint32_t relic_gff_doc_struct_field_count(const relic_gff_doc *d, uint32_t s)
{
    return relic_load_u32le(d->v.structs + 12 * (size_t)s + 8);
}
static inline uint32_t relic_gff_struct_field(const relic_gff_doc *d, uint32_t s, uint32_t i)
{
    const uint8_t *p = d->v.structs + 12 * (size_t)s;
    uint32_t data = relic_load_u32le(p + 4);
    return relic_load_u32le(p + 8) == 1 ? data : relic_load_u32le(d->v.field_indices + (size_t)data + 4 * (size_t)i);
}

/** Struct s's field indices in place, for walking every field: *n of
 *  them, each a little-endian u32 (relic_load_u32le(p + 4 * i) is
 *  relic_gff_struct_field(d, s, i)), read from the field indices or, for a
 *  struct of one field, from its own record (BioWare GFF spec §3.3: a
 *  struct of one field holds that field's index). s < d->struct_count.
 *  Plain loads (inline); no allocation. */
static inline const uint8_t *relic_gff_struct_fields(const relic_gff_doc *d, uint32_t s, uint32_t *n)
{
    const uint8_t *p = d->v.structs + 12 * (size_t)s;
    *n = relic_load_u32le(p + 8);
    return *n == 1 ? p + 4 : d->v.field_indices + relic_load_u32le(p + 4);
}

/** Field f (< d->field_count): its type id (relic_gff_field_type enum), and
 *  its label (up to 16 bytes, not NUL-terminated: length in *len). */
static inline uint32_t relic_gff_field_type_of(const relic_gff_doc *d, uint32_t f)
{
    return relic_load_u32le(d->v.fields + 12 * (size_t)f);
}
const char *relic_gff_field_label(const relic_gff_doc *d, uint32_t f, size_t *len);

/** The field of struct s labelled label (exact, case-sensitive). With
 *  duplicate labels, the last one wins (as NWN2's own reader, nwn-lib-d, gff.d; xoreos, gff3writer.cpp).
 *  Returns 1 and sets *f when found, else 0. Linear in the struct's fields;
 *  no allocation. */
int relic_gff_find(const relic_gff_doc *d, uint32_t s, const char *label, uint32_t *f);

/** Typed getters of field f. Each checks the field's type and fails with
 *  RELIC_E_ARGUMENT ("field 'X' is a list, not a dword") on a mismatch,
 *  never reading anything else. Integers widen only within their own type:
 *  relic_gff_get_int reads CHAR/SHORT/INT/INT64 and relic_gff_get_uint
 *  BYTE/WORD/DWORD/DWORD64 (exact type: relic_gff_field_type_of). */
relic_status relic_gff_get_uint(const relic_gff_doc *d, uint32_t f, uint64_t *out, relic_error *err);
relic_status relic_gff_get_int(const relic_gff_doc *d, uint32_t f, int64_t *out, relic_error *err);
/** FLOAT (type 8) or DOUBLE (type 9). */
relic_status relic_gff_get_float(const relic_gff_doc *d, uint32_t f, float *out, relic_error *err);
relic_status relic_gff_get_double(const relic_gff_doc *d, uint32_t f, double *out, relic_error *err);
/** CExoString, CResRef or VOID: the bytes in place (not NUL-terminated;
 *  text in the game's code page). */
relic_status relic_gff_get_string(const relic_gff_doc *d, uint32_t f, relic_bytes *out, relic_error *err);
relic_status relic_gff_get_resref(const relic_gff_doc *d, uint32_t f, relic_bytes *out, relic_error *err);
relic_status relic_gff_get_void(const relic_gff_doc *d, uint32_t f, relic_bytes *out, relic_error *err);
/** Orientation (type 16, 4 x f32 as stored) and Vector (type 17, x y z). */
relic_status relic_gff_get_orientation(const relic_gff_doc *d, uint32_t f, float out[4], relic_error *err);
relic_status relic_gff_get_vector(const relic_gff_doc *d, uint32_t f, float out[3], relic_error *err);

/** A CExoLocString in place: StrRef (0xFFFFFFFF = none) and its substrings. */
typedef struct relic_gff_locstring {
    uint32_t strref;
    uint32_t count;       /**< substrings */
    const uint8_t *first; /**< first substring record */
} relic_gff_locstring;
relic_status relic_gff_get_locstring(const relic_gff_doc *d, uint32_t f, relic_gff_locstring *out, relic_error *err);
/** Substring at *cursor (start with cursor = ls->first; advanced past it):
 *  its StringID (language*2 + gender) and text. Call at most count times. */
void relic_gff_locstring_next(const uint8_t **cursor, uint32_t *string_id, relic_bytes *text);

/** Struct field: the struct index. */
relic_status relic_gff_get_struct(const relic_gff_doc *d, uint32_t f, uint32_t *s, relic_error *err);
/** List field: its element count and record; element i by relic_gff_list_at. */
typedef struct relic_gff_list {
    uint32_t count;
    const uint8_t *indices; /**< count u32 struct indices */
} relic_gff_list;
relic_status relic_gff_get_list(const relic_gff_doc *d, uint32_t f, relic_gff_list *out, relic_error *err);
static inline uint32_t relic_gff_list_at(const relic_gff_list *l, uint32_t i) { return relic_load_u32le(l->indices + 4 * (size_t)i); }

/** The failure every typed getter returns on a type mismatch:
 *  RELIC_E_ARGUMENT at field f's entry, "field 'X' is a T, not WANT". */
relic_status relic_gff_type_mismatch(const relic_gff_doc *d, uint32_t f, const char *want, relic_error *err);

/* The typed getters inline: a call written as relic_gff_get_uint(...) in C
 * or C++ compiles to the type check and plain loads (the bytes were checked
 * by relic_gff_open), so walking every field costs no function call per
 * field. The functions stay exported with the same behaviour, for a call
 * through a pointer, (relic_gff_get_uint)(...) or a foreign-call binding.
 * On a mismatch the output is zeroed (count 0, NULL pointers) besides the
 * error. A walk over every field that switches on relic_gff_field_type_of
 * with a case per type (not one case for several) lets the compiler drop
 * each getter's own type check: the value is then one or two loads. */
static inline uint32_t relic_gff_raw_(const relic_gff_doc *d, uint32_t f)
{
    return relic_load_u32le(d->v.fields + 12 * (size_t)f + 8);
}
static inline relic_status relic_gff_get_uint_(const relic_gff_doc *d, uint32_t f, uint64_t *out, relic_error *err)
{
    switch (relic_gff_field_type_of(d, f)) {
    case RELIC_GFF_FIELD_TYPE_BYTE: *out = relic_gff_raw_(d, f) & 0xFFu; return RELIC_OK;
    case RELIC_GFF_FIELD_TYPE_WORD: *out = relic_gff_raw_(d, f) & 0xFFFFu; return RELIC_OK;
    case RELIC_GFF_FIELD_TYPE_DWORD: *out = relic_gff_raw_(d, f); return RELIC_OK;
    case RELIC_GFF_FIELD_TYPE_DWORD64: *out = relic_load_u64le(d->v.field_data + relic_gff_raw_(d, f)); return RELIC_OK;
    default: *out = 0; return relic_gff_type_mismatch(d, f, "an unsigned integer (byte, word, dword, dword64)", err);
    }
}
static inline relic_status relic_gff_get_int_(const relic_gff_doc *d, uint32_t f, int64_t *out, relic_error *err)
{
    switch (relic_gff_field_type_of(d, f)) {
    case RELIC_GFF_FIELD_TYPE_CHAR: *out = (int8_t)(uint8_t)relic_gff_raw_(d, f); return RELIC_OK;
    case RELIC_GFF_FIELD_TYPE_SHORT: *out = (int16_t)(uint16_t)relic_gff_raw_(d, f); return RELIC_OK;
    case RELIC_GFF_FIELD_TYPE_INT: *out = (int32_t)relic_gff_raw_(d, f); return RELIC_OK;
    case RELIC_GFF_FIELD_TYPE_INT64: *out = (int64_t)relic_load_u64le(d->v.field_data + relic_gff_raw_(d, f)); return RELIC_OK;
    default: *out = 0; return relic_gff_type_mismatch(d, f, "a signed integer (char, short, int, int64)", err);
    }
}
static inline relic_status relic_gff_get_float_(const relic_gff_doc *d, uint32_t f, float *out, relic_error *err)
{
    if (relic_gff_field_type_of(d, f) != RELIC_GFF_FIELD_TYPE_FLOAT) return *out = 0, relic_gff_type_mismatch(d, f, "a float", err);
    *out = relic_load_f32le(d->v.fields + 12 * (size_t)f + 8);
    return RELIC_OK;
}
static inline relic_status relic_gff_get_double_(const relic_gff_doc *d, uint32_t f, double *out, relic_error *err)
{
    if (relic_gff_field_type_of(d, f) != RELIC_GFF_FIELD_TYPE_DOUBLE) return *out = 0, relic_gff_type_mismatch(d, f, "a double", err);
    *out = relic_load_f64le(d->v.field_data + relic_gff_raw_(d, f));
    return RELIC_OK;
}
static inline relic_status relic_gff_sized_(const relic_gff_doc *d, uint32_t f, uint32_t type, const char *want,
                                            relic_bytes *out, relic_error *err)
{
    if (relic_gff_field_type_of(d, f) != type) {
        out->data = NULL;
        out->size = 0;
        return relic_gff_type_mismatch(d, f, want, err);
    }
    const uint8_t *p = d->v.field_data + relic_gff_raw_(d, f);
    if (type == RELIC_GFF_FIELD_TYPE_RESREF) {
        out->size = p[0];
        out->data = p + 1;
    } else {
        out->size = relic_load_u32le(p);
        out->data = p + 4;
    }
    return RELIC_OK;
}
static inline relic_status relic_gff_get_locstring_(const relic_gff_doc *d, uint32_t f, relic_gff_locstring *out,
                                                    relic_error *err)
{
    if (relic_gff_field_type_of(d, f) != RELIC_GFF_FIELD_TYPE_CEXOLOCSTRING) {
        out->strref = out->count = 0;
        out->first = NULL;
        return relic_gff_type_mismatch(d, f, "a cexolocstring", err);
    }
    const uint8_t *p = d->v.field_data + relic_gff_raw_(d, f);
    out->strref = relic_load_u32le(p + 4);
    out->count = relic_load_u32le(p + 8);
    out->first = p + 12;
    return RELIC_OK;
}
static inline relic_status relic_gff_get_struct_(const relic_gff_doc *d, uint32_t f, uint32_t *s, relic_error *err)
{
    if (relic_gff_field_type_of(d, f) != RELIC_GFF_FIELD_TYPE_STRUCT) return *s = 0, relic_gff_type_mismatch(d, f, "a struct", err);
    *s = relic_gff_raw_(d, f);
    return RELIC_OK;
}
static inline relic_status relic_gff_get_list_(const relic_gff_doc *d, uint32_t f, relic_gff_list *out, relic_error *err)
{
    if (relic_gff_field_type_of(d, f) != RELIC_GFF_FIELD_TYPE_LIST) {
        out->count = 0;
        out->indices = NULL;
        return relic_gff_type_mismatch(d, f, "a list", err);
    }
    const uint8_t *p = d->v.list_indices + relic_gff_raw_(d, f);
    out->count = relic_load_u32le(p);
    out->indices = p + 4;
    return RELIC_OK;
}
#define relic_gff_get_uint(d, f, out, err) relic_gff_get_uint_(d, f, out, err)
#define relic_gff_get_int(d, f, out, err) relic_gff_get_int_(d, f, out, err)
#define relic_gff_get_float(d, f, out, err) relic_gff_get_float_(d, f, out, err)
#define relic_gff_get_double(d, f, out, err) relic_gff_get_double_(d, f, out, err)
#define relic_gff_get_string(d, f, out, err) relic_gff_sized_(d, f, RELIC_GFF_FIELD_TYPE_CEXOSTRING, "a cexostring", out, err)
#define relic_gff_get_resref(d, f, out, err) relic_gff_sized_(d, f, RELIC_GFF_FIELD_TYPE_RESREF, "a resref", out, err)
#define relic_gff_get_void(d, f, out, err) relic_gff_sized_(d, f, RELIC_GFF_FIELD_TYPE_VOID, "a void", out, err)
#define relic_gff_get_locstring(d, f, out, err) relic_gff_get_locstring_(d, f, out, err)
#define relic_gff_get_struct(d, f, s, err) relic_gff_get_struct_(d, f, s, err)
#define relic_gff_get_list(d, f, out, err) relic_gff_get_list_(d, f, out, err)

/** Resolve a path of labels and list indices separated by '/' or '.'
 *  ("Tile_List/3/Tile_ID") from the root. A path ending on a list element
 *  gives its struct (*is_struct = 1, *out = struct index); otherwise the
 *  field (*is_struct = 0, *out = field index). Errors: RELIC_E_ARGUMENT
 *  naming the first component not found. */
relic_status relic_gff_resolve(const relic_gff_doc *d, const char *path, uint32_t *out, int *is_struct,
                               relic_error *err);

/** 1 when a value of field type `type` has a fixed size (BYTE..DOUBLE,
 *  Orientation, Vector), so relic_gff_patch can replace it in place. */
int relic_gff_type_is_fixed(uint32_t type);

/** In-place patch (runtime/formats/aurora/gff_patch.c): parse text as a value of field
 *  f's type (integers decimal or 0x hex, within the type's range; floats;
 *  Orientation/Vector as 4/3 floats separated by spaces or commas) and store
 *  it where the value lies in data, a writable copy or mapping of the very
 *  bytes d was opened on. Nothing is written unless the text parses and
 *  fits. Errors: RELIC_E_RANGE (text not a value of the type, naming the
 *  label and the field record's offset), RELIC_E_UNSUPPORTED (a type whose
 *  size varies: strings, locstrings, VOID, struct, list). */
relic_status relic_gff_patch(uint8_t *data, const relic_gff_doc *d, uint32_t f, const char *text, relic_error *err);

/* ---------------------------------------------------------------------- */
/* In-memory tree (arena)                                                 */
/* ---------------------------------------------------------------------- */

typedef struct relic_gff_tstruct relic_gff_tstruct;

/** One substring of a CExoLocString. */
typedef struct relic_gff_tsubstring {
    uint32_t string_id; /**< language*2 + gender */
    uint8_t *text;
    size_t len;
} relic_gff_tsubstring;

/** A field of the tree. value by type: u (0,2,4,6), i (1,3,5,7), f32 (8),
 *  f64 (9), bytes (10, 11, 13), loc (12), child (14), list (15), vec (16: 4
 *  floats, 17: 3). The src_* members remember where the field came from
 *  (RELIC_GFF_NONE for new fields) for RELIC_GFF_LAYOUT_KEEP. */
typedef struct relic_gff_tfield {
    uint32_t type;
    char label[17]; /**< NUL-terminated, at most 16 characters */
    union {
        uint64_t u;
        int64_t i;
        float f32;
        double f64;
        struct {
            uint8_t *p;
            size_t n;
        } bytes;
        struct {
            uint32_t strref;
            uint32_t count;
            relic_gff_tsubstring *s;
        } loc;
        relic_gff_tstruct *child;
        struct {
            relic_gff_tstruct **items;
            size_t count;
        } list;
        float vec[4];
    } v;
    uint32_t src_index; /**< field index in the source file */
    uint32_t src_label; /**< label index in the source file */
    uint32_t src_data;  /**< DataOrDataOffset in the source file (data / list offsets) */
} relic_gff_tfield;

/** A struct of the tree. */
struct relic_gff_tstruct {
    uint32_t id;
    uint32_t field_count;
    relic_gff_tfield *fields;
    uint32_t src_index; /**< struct index in the source file */
    uint32_t src_data;  /**< DataOrDataOffset in the source file */
};

/** Field-array, struct and data layouts the writer can produce: the
 *  layout families of known writers (relic_gff_families) and KEEP. */
typedef enum relic_gff_layout {
    /** What game-written files use (BioWare, *Aurora engine specifications*,
     *  GFF §3; measured on BioWare's NWN2, KotOR and NWN1 game files, and
     *  what nwn-lib-d and PyKotor write): sections in order from 56,
     *  structs and fields in depth-first pre-order, labels in first-use
     *  order, field data in field order without dedup, field-index blocks
     *  in struct order, list records in pre-order, 0xFFFFFFFF for empty
     *  structs. */
    RELIC_GFF_LAYOUT_DEFAULT = 0,
    /** As DEFAULT, but field-index blocks in struct completion (post-)order,
     *  so the top-level struct's block comes last: the NWN1 toolset's
     *  field-index placement, reone's and neverwinter.nim's writers. */
    RELIC_GFF_LAYOUT_POSTORDER = 1,
    /** Put every struct, field, label, datum and record where the tree's
     *  src_* members say it was, over a copy of the source file, so that a
     *  file read into a tree is written back byte for byte (unreferenced
     *  words, gaps and trailing bytes included) and a change of a
     *  fixed-size value changes only its bytes; falls back to the tree's
     *  own family (and says so in *fell_back) when those positions do not
     *  form a consistent file (a tree changed after reading, or a new one). */
    RELIC_GFF_LAYOUT_KEEP = 2,
    /** As DEFAULT, but a struct's field-index block appended as soon as its
     *  last field's entry is (before that field's own sub-structs): the
     *  NWN1 toolset (Aurora toolset .fac, .itp, .are files). */
    RELIC_GFF_LAYOUT_NWN1_TOOLSET = 3,
    /** As POSTORDER, and a Struct field's entry appended after its struct's
     *  fields (neverwinter.nim's writer, nwn_gff). */
    RELIC_GFF_LAYOUT_NIM = 4,
    /** As DEFAULT, but an empty struct's DataOrDataOffset is 0 where BioWare
     *  writes 0xFFFFFFFF (reone's writer). */
    RELIC_GFF_LAYOUT_REONE = 5
} relic_gff_layout;

/** Where a writer puts a struct's field-index block (structs of 2+ fields). */
typedef enum relic_gff_fi_placement {
    RELIC_GFF_FI_PRE = 0,       /**< reserved when the struct is reached (struct order) */
    RELIC_GFF_FI_POST = 1,      /**< appended when the struct and all below it are done */
    RELIC_GFF_FI_LAST_ENTRY = 2 /**< appended after its last field's entry, before that field's children */
} relic_gff_fi_placement;

/** A layout family: the conventions of one group of writers, as data
 *  (gff_layout.c). name is what the JSON form's root "__layout" key holds.
 *  Common to all: sections in order from byte 56, structs numbered in
 *  depth-first pre-order, labels in first-use order, field data in field
 *  order without dedup, list records reserved when their field is written. */
typedef struct relic_gff_family {
    const char *name;                    /**< "bioware", "nwn1-toolset", ... */
    relic_gff_layout layout;             /**< what relic_gff_write_tree is given to reproduce it */
    relic_gff_fi_placement fi_placement; /**< field-index blocks */
    int struct_entry_after_child;        /**< a Struct field's entry follows its struct's fields */
    uint32_t empty_struct_data;          /**< DataOrDataOffset of a struct without fields */
    const char *writers;                 /**< who writes files this way */
} relic_gff_family;

/** Every known family, the default ("bioware") first. */
extern const relic_gff_family relic_gff_families[];
extern const size_t relic_gff_family_count;
/** The family named name (len bytes, exact), NULL when unknown. */
const relic_gff_family *relic_gff_family_by_name(const char *name, size_t len);
/** The family a layout reproduces (the default for KEEP). */
const relic_gff_family *relic_gff_family_of(relic_gff_layout layout);
/** The family whose layout a validated file follows, from three marks: an
 *  empty struct's DataOrDataOffset, whether a Struct field's entry follows
 *  its struct's fields, and where the top-level struct's field-index block
 *  lies (first: reserved up front; last: post-order; between: after its
 *  last entry). DEFAULT when no family has those marks. Linear in the
 *  fields; no allocation. */
relic_gff_layout relic_gff_detect_family(const relic_gff_doc *d);

/** The kinds of records an order record can place: structs, fields,
 *  labels, field-data values, field-index blocks (structs of 2+ fields),
 *  list-index records (one per List field). */
typedef enum relic_gff_order_kind {
    RELIC_GFF_ORDER_STRUCTS = 0,
    RELIC_GFF_ORDER_FIELDS,
    RELIC_GFF_ORDER_LABELS,
    RELIC_GFF_ORDER_FIELD_DATA,
    RELIC_GFF_ORDER_FIELD_INDICES,
    RELIC_GFF_ORDER_LIST_INDICES,
    RELIC_GFF_ORDER_KINDS
} relic_gff_order_kind;

/** The JSON member name of each kind, inside the root "__layout" object:
 *  "structs", "fields", "labels", "field_data", "field_indices",
 *  "list_indices". */
extern const char *const relic_gff_order_names[RELIC_GFF_ORDER_KINDS];

/** Where a file puts its records when that is not where its layout family
 *  would (a file edited by a tool that appends what it adds, PyKotor's GUI
 *  trees). The format leaves the order of every array free (BioWare,
 *  *Aurora engine specifications*, GFF §3). For each kind, the records of
 *  the family's own layout are numbered 0..n-1 in the order the family's
 *  writer emits them (relic_gff_write_tree: depth-first, fields in each
 *  struct's order); the file's order is the sequence of those numbers from
 *  the array's start, given as runs: nruns (first, count) pairs in runs,
 *  run r standing for first, first+1, ..., first+count-1. nruns 0 means the
 *  family's own order. The runs of a kind must list each of 0..n-1 exactly
 *  once. */
typedef struct relic_gff_order {
    const uint32_t *runs[RELIC_GFF_ORDER_KINDS]; /**< 2 * nruns[k] numbers each */
    uint32_t nruns[RELIC_GFF_ORDER_KINDS];
} relic_gff_order;

/** The order record of a validated file relative to family: all nruns 0
 *  when the file's records are where the family's writer would put them,
 *  or when no order record can reproduce the file (structs, fields or
 *  labels no struct reaches, two labels of the same text, field data,
 *  field-index or list-index bytes that no record or more than one refers
 *  to: then the file cannot come back byte for byte from a tree at all).
 *  Otherwise the kinds that differ. Runs come from scratch: nothing when
 *  the file follows its family (one walk of the struct graph, no
 *  allocation), else about 40 bytes per struct and field. Errors:
 *  RELIC_E_NOMEM. */
relic_status relic_gff_order_of(const relic_gff_doc *d, relic_gff_layout family, relic_arena *scratch,
                                relic_gff_order *out, relic_error *err);

/** 1 when some kind of o has runs (o may be NULL). */
int relic_gff_order_used(const relic_gff_order *o);

/** A whole GFF as a tree. The src_* members describe the source file (a
 *  copy in the tree's arena: its arrays, labels and every byte) for
 *  RELIC_GFF_LAYOUT_KEEP; zero for a new tree. family is the layout the
 *  file's writer used (relic_gff_detect_family; DEFAULT for a new tree),
 *  what KEEP falls back to. */
typedef struct relic_gff_tree {
    char file_type[4];
    relic_gff_tstruct *root;
    uint32_t src_struct_count, src_field_count, src_label_count;
    uint32_t src_field_data_size, src_field_indices_size, src_list_indices_size;
    const char (*src_labels)[16]; /**< the source label array (src_label_count entries) */
    const uint8_t *src_file;      /**< the whole source file (src_size bytes), NULL for a new tree */
    size_t src_size;
    uint32_t src_reachable_structs, src_reachable_fields; /**< reached from the root in the source */
    relic_gff_layout family;                              /**< the writer's layout family (DEFAULT for a new tree) */
    /** Where the file put its records when its family would not (NULL:
     *  the family's order); set by relic_gff_json_read_tree from the
     *  "__layout" object, honoured by relic_gff_write_tree in t->family. */
    const relic_gff_order *order;
} relic_gff_tree;

/** Build the tree of a validated file; every string, blob and array, and
 *  the whole file (for RELIC_GFF_LAYOUT_KEEP), is copied into a; family is
 *  relic_gff_detect_family's. Errors: RELIC_E_NOMEM. */
relic_status relic_gff_tree_from_doc(const relic_gff_doc *d, relic_arena *a, relic_gff_tree *out, relic_error *err);

/** Serialise a tree, appending to out. The result always passes
 *  relic_gff_open. Every working byte comes from scratch (about three
 *  times the output, plus the source file's size for KEEP; a buffer arena
 *  never mallocs); out may itself grow in scratch. fell_back (may be NULL)
 *  is set to 1 when KEEP was asked and could not be honoured. In the
 *  tree's own family (layout == t->family, or KEEP falling back to it),
 *  t->order (when not NULL) then moves the family's records to the
 *  positions it gives. Errors:
 *  RELIC_E_ARGUMENT (label longer than 16, unknown type, NULL child, depth
 *  beyond RELIC_GFF_MAX_DEPTH), RELIC_E_LIMIT (a size above 4 GiB),
 *  RELIC_E_NOMEM; RELIC_E_ARGUMENT with path "__layout.<kind>" when
 *  t->order's runs for that kind are not a permutation of the tree's
 *  records (a count other than the tree's, a run beyond it, a number
 *  listed twice). */
relic_status relic_gff_write_tree(const relic_gff_tree *t, relic_gff_layout layout, relic_arena *scratch,
                                  relic_buf *out, int *fell_back, relic_error *err);

/* ---------------------------------------------------------------------- */
/* nwn_gff-compatible JSON (neverwinter.nim, gffjson.nim; xoreos-tools, src/xml/gff3dumper.cpp) */
/* ---------------------------------------------------------------------- */

/** Text encoding of CExoString and CExoLocString bytes (xoreos-tools, src/aurora/language.cpp; neverwinter.nim, util.nim). ResRefs and labels are always shown through windows-1252. */
typedef enum relic_gff_encoding {
    /** windows-1252 (NWN1, KotOR; nwn_gff's default). The five bytes that
     *  cp1252 leaves undefined map to U+0081..U+009D, so any bytes survive. */
    RELIC_GFF_ENC_CP1252 = 0,
    /** UTF-8 (NWN2). Bytes that are not valid UTF-8 are an error. */
    RELIC_GFF_ENC_UTF8 = 1,
    /** Printing: UTF-8 when the file's text has non-ASCII bytes and all of
     *  it is valid UTF-8 (NWN2 files), else windows-1252
     *  (relic_gff_detect_encoding). Reading: what the document's
     *  "__encoding" says, windows-1252 when it says nothing. */
    RELIC_GFF_ENC_AUTO = 2
} relic_gff_encoding;

/** An encoding by name, case-insensitive: "cp1252" or "windows-1252",
 *  "utf8" or "utf-8", "auto". Returns 1 and sets *out, or 0 when unknown. */
int relic_gff_encoding_from_name(const char *name, relic_gff_encoding *out);

/** The encoding RELIC_GFF_ENC_AUTO picks for a validated file: UTF-8 when
 *  some CExoString or locstring text has bytes above 0x7F and every text is
 *  valid UTF-8 (NWN2 writes UTF-8; cp1252 text with accents is almost never
 *  valid UTF-8), windows-1252 otherwise. Linear in the file; no allocation:
 *  in a file whose fields share or overlap their text, the first 2 x the
 *  field-data size of text read decides. */
relic_gff_encoding relic_gff_detect_encoding(const relic_gff_doc *d);

/** Append the nwn_gff JSON form of a validated file (relic_gff_open),
 *  read in place: compact, every object's keys in nwn_gff's order (Nim's
 *  cmpIgnoreCase: ASCII lower-case, then length; equal keys in file order),
 *  "__struct_id" as a signed 32-bit number, strings escaped as nwn_gff
 *  does, floats as relic_gff_format_double, a final newline. Additions that
 *  nwn_gff skips ("__" keys): "__field_order" (the keys in file order) when
 *  a struct's fields are not in key order in the file; "__dupN__Label" for
 *  earlier duplicates of a label (N = later duplicates) and for labels that
 *  start with "__"; "__substring_order" beside "type" when a locstring's
 *  substrings are not in key order; "__encoding":"utf-8" in the root when
 *  the text was read as UTF-8; "__layout":"<family>" in the root when the
 *  file's layout family (relic_gff_detect_family) is not "bioware", or
 *  "__layout":{"family":"<family>","<kind>":[first,count,...],...} when its
 *  records lie in an order the family does not write (relic_gff_order_of;
 *  only the kinds that differ, relic_gff_order_names). Memory: a layout cache linear in the number
 *  of distinct struct layouts, and a 64 KiB staging buffer; out may be a
 *  sink buffer (streamed). That scratch comes from where out grows: an
 *  arena buffer's arena, or the heap for a heap or sink buffer (the
 *  allocator the caller chose for out); a buffer over caller memory
 *  (relic_buf_init_fixed) is refused (RELIC_E_ARGUMENT): give it
 *  relic_gff_json_print_doc_in's arena. Errors: RELIC_E_SYNTAX when text is not valid
 *  UTF-8 (path "List/3/Label", file offset); RELIC_E_UNSUPPORTED when a
 *  locstring repeats a StringID (a JSON object cannot hold both);
 *  RELIC_E_NOMEM. */
relic_status relic_gff_json_print_doc(const relic_gff_doc *d, relic_gff_encoding enc, relic_buf *out,
                                      relic_error *err);
/** relic_gff_json_print_doc with every scratch byte (parser state, layout
 *  cache, 64 KiB staging) taken from scratch and nothing from the heap, so
 *  with out over caller memory (relic_buf_init_fixed) or in an arena
 *  (relic_buf_init_arena) the call makes no heap call; scratch may be out's
 *  own arena (relic_gff_json_print_doc does that for an arena buffer). The
 *  scratch bytes stay allocated until the caller releases the arena.
 *  Errors: as relic_gff_json_print_doc; RELIC_E_NOMEM when scratch or out
 *  runs out. */
relic_status relic_gff_json_print_doc_in(const relic_gff_doc *d, relic_gff_encoding enc, relic_buf *out,
                                         relic_arena *scratch, relic_error *err);

/** The text of a StrRef (from a talk table: relic_tlk_text fits), for
 *  showing locstrings to people: 1 and *text, *n (bytes, UTF-8 or cp1252)
 *  when known, else 0. */
typedef int (*relic_gff_strref_text_fn)(void *ctx, uint32_t strref, const char **text, size_t *n);

/** relic_gff_json_print_doc, with "__tlk": the text fn gives for the StrRef
 *  of every locstring that has one, beside its "type" (for people: the JSON
 *  reader skips it, so the output still converts back byte for byte).
 *  BioWare, "Talk Table File Format" 3 (StrRefs). Scratch as
 *  relic_gff_json_print_doc's. Errors: as relic_gff_json_print_doc. */
relic_status relic_gff_json_print_doc_strrefs(const relic_gff_doc *d, relic_gff_encoding enc, relic_gff_strref_text_fn fn,
                                              void *ctx, relic_buf *out, relic_error *err);
/** relic_gff_json_print_doc_strrefs with every scratch byte from scratch, as
 *  relic_gff_json_print_doc_in. Errors: as relic_gff_json_print_doc;
 *  RELIC_E_ARGUMENT when scratch is NULL; RELIC_E_NOMEM when scratch or
 *  out runs out. */
relic_status relic_gff_json_print_doc_strrefs_in(const relic_gff_doc *d, relic_gff_encoding enc, relic_gff_strref_text_fn fn,
                                                 void *ctx, relic_buf *out, relic_arena *scratch, relic_error *err);

/** The same for a tree: written (in its family's layout), validated and
 *  printed as above, scratch from where out grows as relic_gff_json_print_doc
 *  takes it. Errors: those of relic_gff_write_tree and
 *  relic_gff_json_print_doc. */
relic_status relic_gff_json_print_tree(const relic_gff_tree *t, relic_gff_encoding enc, relic_buf *out,
                                       relic_error *err);
/** relic_gff_json_print_tree with the written bytes, their index and the
 *  printer's scratch all from scratch: no heap call when out is over caller
 *  memory or in an arena (relic_gff_json_print_tree takes out's own arena
 *  for an arena buffer, a heap arena for a heap buffer). Needs about the written
 *  file's size three times plus relic_gff_json_print_doc_in's scratch;
 *  the bytes stay allocated until the caller releases the arena. Errors:
 *  as relic_gff_json_print_tree; RELIC_E_ARGUMENT when scratch is NULL;
 *  RELIC_E_NOMEM when scratch or out runs out. */
relic_status relic_gff_json_print_tree_in(const relic_gff_tree *t, relic_gff_encoding enc, relic_buf *out,
                                          relic_arena *scratch, relic_error *err);

/** A float or double as nwn_gff prints it (neverwinter.nim stores a FLOAT
 *  in a JSON float, i.e. as f64; Nim prints an f64 as its shortest
 *  round-trip decimal, nearest among equally short ones): fixed notation
 *  while the decimal point is from 6 places left of the first digit to 17
 *  right of it ("0.10000000149011612" for 0.1f, "100.0", "0.0001"), else
 *  "1e+20", "1.5e-07"; "-0.0"; "nan", "inf", "-inf" (not JSON numbers: the
 *  printer writes those as bit strings). NUL-terminated; returns the length
 *  (< 32). Exact. */
size_t relic_gff_format_double(double v, char out[32]);

/** Parse nwn_gff JSON into a tree in a (src_* set to none; family from
 *  the root's "__layout", DEFAULT when absent; order from a "__layout"
 *  object, NULL otherwise). An order record is checked against the tree by
 *  writing it once into a (about three times the GFF's size). The tree is
 *  built from the parser's events when the text has the shape relic and
 *  nwn_gff write ("type" before "value", "__struct_id" before the value,
 *  "__encoding" before any text); any other shape, and any error, is read
 *  again through a document of the text (what that first try built stays
 *  in a until it is released). Errors:
 *  RELIC_E_SYNTAX (malformed JSON, with its offset), RELIC_E_RANGE (a value
 *  that does not fit its type, an unknown family), RELIC_E_ARGUMENT
 *  (missing or unknown members; an order record's kind that is not a
 *  permutation of the tree's records: path "__layout.<kind>"), each with
 *  the JSON path. */
relic_status relic_gff_json_read_tree(const char *text, size_t len, relic_gff_encoding enc, relic_arena *a,
                                      relic_gff_tree *out, relic_error *err);

/** nwn_gff JSON straight to GFF V3.2 bytes, appended to out: the bytes,
 *  and on bad input the error, that relic_gff_json_read_tree followed by
 *  relic_gff_write_tree(t, t->family) give (BioWare, *Aurora engine
 *  specifications*, GFF §3-4; neverwinter.nim, gffjson.nim), about 1.5
 *  times as fast (docs/benchmarks.md, "JSON -> GFF"). The shape relic and
 *  nwn_gff print ("type" before "value", "__struct_id" and
 *  "__substring_order" before the value, "__encoding" before any text,
 *  the root's "__layout" name or object) is converted from the parser's
 *  events through 16-byte field records, with no tree; any other shape,
 *  and any error, goes through those two calls (what the first try took
 *  stays in a). Every working byte comes from a: 16 bytes a field, the
 *  encoded values (about the field data's size), the JSON parser's state;
 *  out may grow in a. Errors: as relic_gff_json_read_tree and
 *  relic_gff_write_tree, with the JSON path and byte offset. */
relic_status relic_gff_json_to_gff(const char *text, size_t len, relic_gff_encoding enc, relic_arena *a, relic_buf *out,
                                   relic_error *err);

/** The nwn_gff type name of a field type id ("dword", "cexolocstring",
 *  "orientation"), NULL when unknown; and back (returns 0 when unknown). */
const char *relic_gff_type_name(uint32_t type);
int relic_gff_type_from_name(const char *name, uint32_t *type);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_GFF_H */
