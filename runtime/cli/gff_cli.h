/* gff_cli.h — GFF pieces shared by the CLI's GFF commands. */
#ifndef RELIC_CLI_GFF_CLI_H
#define RELIC_CLI_GFF_CLI_H

#include "relic_gff.h"

/* `relic check --strict` for a typed GFF file at path (runtime/cli/gff_strict.c):
 * the file against its typed schema (none for other GFF types: 0), and the GIC/GIT
 * list correspondence with the paired file beside it when there is one. Problems go
 * to pr; returns their number. */
unsigned cli_gff_strict(const char *path, const relic_gff_doc *d, relic_problems *pr);

#endif
