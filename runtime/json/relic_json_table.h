/* relic_json_table.h — JSON printing and reading of generated models from
 * field tables: relic-gen writes one relic_jt_field row per struct member
 * (generated/<family>/<format>_json.c) and runtime/json/gen_json.c walks
 * them. The JSON shape is that of docs/cli.md: an object per struct (a
 * `tuple` struct as an array), members in schema order, enums by name,
 * fixed strings as Latin-1 strings, bytes as hex, floats in a form that
 * reads back to the same bits. Not part of the public API. */
#ifndef RELIC_JSON_TABLE_H
#define RELIC_JSON_TABLE_H

#include "relic_json.h"
#include "relic_gen.h" /* the count and presence functions of the generated tables use its helpers */

/** What one member holds. */
enum relic_jt_kind {
    RELIC_JT_INT,  /**< integers of `size` bytes, signed when `sgn` */
    RELIC_JT_ENUM, /**< integers printed by name (name_of), read by name or number */
    RELIC_JT_F32,
    RELIC_JT_F64,
    RELIC_JT_CHAR,   /**< a string: char[n] (NUL-padded) or counted char * */
    RELIC_JT_BYTES,  /**< hex digits: uint8_t[n] or counted uint8_t * */
    RELIC_JT_STRUCT, /**< nested struct(s) described by sub */
};

/** Member flags. */
enum {
    RELIC_JT_COUNTED = 1,  /**< a pointer with a size_t count at count_off */
    RELIC_JT_OPTIONAL = 2, /**< may be absent when reading (derived or constant) */
};

typedef struct relic_jt_struct relic_jt_struct;

/** pos of a member whose place in the file is not a constant. */
#define RELIC_JT_NOPOS UINT32_MAX

/** One member: its JSON (and C) name, where it is in the model, and what it holds.
 *  n: elements of the fixed dimensions (0 for a scalar); dim0: the outer fixed
 *  dimension (the JSON array length of a fixed array). For printing from the
 *  validated view: pos, the member's byte position in its struct in the file
 *  (RELIC_JT_NOPOS when it varies), be, whether it is stored big-endian, and,
 *  for a root member the view holds by pointer, view_off and view_count_off:
 *  where the view keeps that pointer and its element count. */
typedef struct relic_jt_field {
    const char *name;
    uint32_t offset;
    uint8_t kind;
    uint8_t size;
    uint8_t sgn;
    uint8_t flags;
    uint32_t n;
    uint32_t dim0;
    uint32_t count_off;
    const relic_jt_struct *sub;
    const char *(*name_of)(int64_t value);
    int (*from_name)(const char *name, int64_t *value);
    uint32_t pos;
    uint8_t be;
    uint32_t view_off, view_count_off;
    uint32_t name_len; /* strlen(name) */
} relic_jt_field;

/** One struct: its members, its C size and alignment, whether it prints as
 *  an array (tuple), the format name printed first (root only), which
 *  members a branch of the schema holds (has; NULL when all are present),
 *  its byte size in the file (fsize; 0 when it varies), for the root,
 *  where the view keeps the decoded root scalars (view_values), and for a
 *  struct printed by walking its bytes, the counts of its counted members. */
struct relic_jt_struct {
    const relic_jt_field *fields;
    uint32_t nfields;
    uint32_t size, align;
    int tuple;
    const char *format;
    int (*has)(const void *m, const void *root, size_t field);
    uint32_t fsize;
    uint32_t view_values;
    /* the element count of counted member `field`, from the members before
     * it (m) and the root's scalars (root), for the view walker; NULL when
     * none is counted, and for the root (the view holds its counts) */
    int64_t (*count)(const void *m, const void *root, size_t field);
    int fixed; /* printable from its bytes as they lie: fixed layout, no branches */
};

/** Scratch bytes of the printer for the model of a struct whose place of each
 *  member it finds by walking (relic-gen checks that its model fits). */
#define RELIC_JT_SCRATCH 4096

/** Read JSON value obj into model m (zeroed by the caller; root the whole model
 *  being read), arrays from r->arena. Errors name the JSON path. */
relic_status relic_jt_read(relic_jr *r, const relic_jt_struct *t, const relic_jv *obj, void *m, const void *root);

/** The whole document: print root model m and a newline; RELIC_E_NOMEM when
 *  out could not grow. */
relic_status relic_jt_print_doc(const relic_jt_struct *t, const void *m, relic_buf *out, relic_error *err);
/** The whole document from a validated view (the generated relic_F_view of
 *  the root t): the same text
 *  as relic_jt_print_doc of its decoded model, read straight from the bytes
 *  the view points into, with no copy. RELIC_E_NOMEM when out could not grow. */
relic_status relic_jt_print_view_doc(const relic_jt_struct *t, const void *view, relic_buf *out, relic_error *err);
/** relic_jt_print_view_doc's text without its closing "}\n": the root object
 *  left open after its last member's line, for a hand-written printer that
 *  adds members of its own (",\n \"name\": ...") and closes it. Errors: as
 *  relic_jt_print_view_doc. */
relic_status relic_jt_print_view_open(const relic_jt_struct *t, const void *view, relic_buf *out, relic_error *err);
/** Parse text and read it into root model out (t->size bytes, zeroed first)
 *  with arrays in a; its "format" member, when present, must be t->format. */
relic_status relic_jt_read_doc(const relic_jt_struct *t, const char *text, size_t len, relic_arena *a, void *out,
                               relic_error *err);
/** relic_jt_read_doc of a document already parsed (relic_jr_parse), or of a
 *  value inside one: a format whose JSON sits in another's (a GROFF
 *  section's value in a GRF document) is read without printing it back to
 *  text and parsing it again. The same checks, errors and paths. */
relic_status relic_jt_read_value(const relic_jt_struct *t, const relic_jv *doc, relic_arena *a, void *out, relic_error *err);

#endif
