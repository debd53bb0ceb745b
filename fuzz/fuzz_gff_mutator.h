/* fuzz_gff_mutator.h — the structure-aware mutator of the GFF targets
 * (fuzz_gff.c, fuzz_gff_typed.c): fuzz_mutator.h over the GFF tree mutator
 * (relic_gff_mutate, runtime/mutate/gff_tree_mutate.c: boundary values, type
 * changes, fields dropped or duplicated, list elements, StructIDs, labels,
 * locstrings, splices from the second input, and for files of a typed
 * FileType changes guided by its typed schema), written back with
 * relic_gff_write_tree. One call in 8 goes to libFuzzer's byte-level
 * mutator, one in 8 breaks a header offset or count after the tree is
 * written (invalid mode), one in 8 gives the written tree to the byte-level
 * mutator too (a valid structure with a local byte change reaches the
 * validator's deeper checks). Compiled out with -DRELIC_NO_CUSTOM_MUTATOR. */
#ifndef RELIC_FUZZ_GFF_MUTATOR_H
#define RELIC_FUZZ_GFF_MUTATOR_H

#define FUZZ_TREE_MUTATOR relic_gff_mutate
#define FUZZ_INVALID_SHARE 8
#define FUZZ_STACKED 1
#include "fuzz_mutator.h"

#endif
