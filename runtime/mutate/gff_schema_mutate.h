/* gff_schema_mutate.h — the typed-schema step of the GFF tree mutator
 * (gff_tree_mutate.c, issue 8): library-internal, not installed. */
#ifndef RELIC_GFF_SCHEMA_MUTATE_H
#define RELIC_GFF_SCHEMA_MUTATE_H

#include "relic_gff_schema.h"
#include "relic_mutate.h"

/* Make one change to the tree under root that the typed schema sc makes
 * interesting (gff_schema_mutate.c): a documented field set to a value at
 * or just past its range, an enum value that exists or one that does not,
 * flag bits inside and outside the documented set; a documented field
 * given another type or its documented one; a documented field that is
 * absent added with its type; a struct's StructID set to the documented
 * one or a neighbour. *rng is the mutator's relic_mutate_rand state;
 * structs and arrays that change are allocated anew from a (the tree's
 * parts may be shared by splices). m (may be NULL) gets the path,
 * operation and values. Returns 1 when a change was made, 0 when none
 * applied or memory ran out (*nomem set). */
int relic_gff_schema_mutate_tree(const relic_gff_schema *sc, relic_gff_tstruct *root, uint64_t *rng,
                                 relic_arena *a, relic_mutation *m, int *nomem);

#endif
