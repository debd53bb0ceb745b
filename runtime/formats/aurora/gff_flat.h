/* gff_flat.h — internal: a GFF as flat arrays of small records, what the
 * JSON reader's fast path builds from the parser's events (16 bytes a
 * field instead of the public tree's 56) and gff_write.c serialises in a
 * layout family's order, with the same bytes relic_gff_write_tree gives
 * for the equivalent tree (BioWare, *Aurora engine specifications*,
 * GFF §3-4). */
#ifndef RELIC_GFF_FLAT_H
#define RELIC_GFF_FLAT_H

#include "relic_gff.h"

/* A field. v by type: the 32-bit DataOrDataOffset of an inline type
 * (BYTE..INT, FLOAT: already zero- or sign-extended as written); the
 * address of its encoded value, the bytes the file's field data holds
 * (DWORD64, INT64, DOUBLE, CExoString, ResRef, CExoLocString, VOID,
 * Orientation, Vector; its size from its own length word or byte); a
 * Struct field's struct index; a List field's offset in lists (in 32-bit
 * words). */
typedef struct relic_gff_flat_field {
    uint32_t type;
    uint32_t label; /* index in labels */
    uint64_t v;
} relic_gff_flat_field;

/* A struct: its count fields, in file order. */
typedef struct relic_gff_flat_struct {
    uint32_t id;
    uint32_t count;
    const struct relic_gff_flat_field *fields;
} relic_gff_flat_struct;

/* The whole file; structs[0] is the top-level struct. Each list record in
 * lists is its count followed by its structs' indices. Every label is used
 * by some field; field_count and data_size are the totals of the structs'
 * fields and of their encoded values. */
typedef struct relic_gff_flat {
    char file_type[4];
    const relic_gff_flat_struct *structs;
    const char (*labels)[16]; /* NUL-padded */
    const uint32_t *lists;
    uint32_t struct_count, field_count, label_count;
    size_t data_size, list_words;
} relic_gff_flat;

/* Serialise m in layout's family (not KEEP), appending to out: the bytes
 * relic_gff_write_tree gives for the same tree in that layout. The header
 * and arrays go through the generated writer. Working memory from scratch
 * (about the output's size). Errors: RELIC_E_LIMIT (a size above 4 GiB),
 * RELIC_E_ARGUMENT (a struct or list reference out of range, nesting
 * beyond RELIC_GFF_MAX_DEPTH), RELIC_E_NOMEM. */
relic_status relic_gff_write_flat(const relic_gff_flat *m, relic_gff_layout layout, relic_arena *scratch,
                                  relic_buf *out, relic_error *err);

#endif
