/* gff_layout.c — the layout families of known GFF writers, as data, and
 * the family of a file. A family says where a writer puts what the format
 * leaves free (the order of the six arrays' records); the writer
 * (gff_write.c) reproduces each. Measured on real files of each writer
 * (BioWare, *Aurora engine specifications* (as archived by xoreos-docs),
 * GFF §3, leaves the order free); neverwinter.nim, nwn-lib-d, PyKotor and
 * reone's writers as their sources lay files out. */
#include <string.h>

#include "relic_gff.h"

const relic_gff_family relic_gff_families[] = {
    {"bioware", RELIC_GFF_LAYOUT_DEFAULT, RELIC_GFF_FI_PRE, 0, RELIC_GFF_NONE,
     "BioWare's NWN1, NWN2 and KotOR games, the NWN2 and KotOR toolsets, nwn-lib-d, PyKotor: "
     "everything in depth-first pre-order, field-index blocks in struct order"},
    {"nwn1-toolset", RELIC_GFF_LAYOUT_NWN1_TOOLSET, RELIC_GFF_FI_LAST_ENTRY, 0, RELIC_GFF_NONE,
     "the NWN1 toolset: a struct's field-index block after its last field's entry"},
    {"neverwinter.nim", RELIC_GFF_LAYOUT_NIM, RELIC_GFF_FI_POST, 1, RELIC_GFF_NONE,
     "neverwinter.nim's nwn_gff: blocks in post-order, a Struct field's entry after its struct"},
    {"postorder", RELIC_GFF_LAYOUT_POSTORDER, RELIC_GFF_FI_POST, 0, RELIC_GFF_NONE,
     "field-index blocks in post-order (the top-level struct's last)"},
    {"reone", RELIC_GFF_LAYOUT_REONE, RELIC_GFF_FI_PRE, 0, 0,
     "reone: as bioware, but 0 for an empty struct's DataOrDataOffset"},
};
const size_t relic_gff_family_count = sizeof relic_gff_families / sizeof relic_gff_families[0];

const relic_gff_family *relic_gff_family_by_name(const char *name, size_t len)
{
    for (size_t i = 0; i < relic_gff_family_count; i++)
        if (strlen(relic_gff_families[i].name) == len && memcmp(relic_gff_families[i].name, name, len) == 0)
            return &relic_gff_families[i];
    return NULL;
}

const relic_gff_family *relic_gff_family_of(relic_gff_layout layout)
{
    for (size_t i = 0; i < relic_gff_family_count; i++)
        if (relic_gff_families[i].layout == layout) return &relic_gff_families[i];
    return &relic_gff_families[0];
}

/* A struct's first field index (it has at least one). */
static uint32_t first_field(const relic_gff_doc *d, uint32_t s)
{
    return relic_gff_struct_field(d, s, 0);
}

relic_gff_layout relic_gff_detect_family(const relic_gff_doc *d)
{
    uint32_t empty = RELIC_GFF_NONE;
    int after = 0;
    relic_gff_fi_placement fi = RELIC_GFF_FI_PRE;
    for (uint32_t s = 0; s < d->struct_count; s++)
        if (relic_gff_doc_struct_field_count(d, s) == 0) {
            empty = relic_load_u32le(d->v.structs + 12 * (size_t)s + RELIC_GFF_STRUCT_DATA_OR_DATA_OFFSET_POS);
            break;
        }
    for (uint32_t f = 0; f < d->field_count; f++) {
        if (relic_gff_field_type_of(d, f) != RELIC_GFF_FIELD_TYPE_STRUCT) continue;
        uint32_t c = relic_load_u32le(d->v.fields + 12 * (size_t)f + RELIC_GFF_FIELD_DATA_OR_DATA_OFFSET_POS);
        if (relic_gff_doc_struct_field_count(d, c) == 0) continue;
        after = first_field(d, c) < f;
        break;
    }
    /* pre-order writers reserve the top-level struct's block first (offset
     * 0), post-order ones append it last, the NWN1 toolset in between */
    uint32_t n = relic_gff_doc_struct_field_count(d, 0);
    if (n >= 2 && d->struct_count >= 2) {
        uint32_t off = relic_load_u32le(d->v.structs + RELIC_GFF_STRUCT_DATA_OR_DATA_OFFSET_POS);
        uint64_t end = (uint64_t)off + 4 * (uint64_t)n;
        if (off != 0) fi = end == (uint64_t)d->v.field_indices_count * 4 ? RELIC_GFF_FI_POST : RELIC_GFF_FI_LAST_ENTRY;
    }
    for (size_t i = 0; i < relic_gff_family_count; i++) {
        const relic_gff_family *fam = &relic_gff_families[i];
        if (fam->fi_placement == fi && fam->struct_entry_after_child == after && fam->empty_struct_data == empty)
            return fam->layout;
    }
    return RELIC_GFF_LAYOUT_DEFAULT;
}
