/* gff_cli.h — GFF pieces shared by the CLI's GFF commands. */
#ifndef RELIC_CLI_GFF_CLI_H
#define RELIC_CLI_GFF_CLI_H

#include <stdio.h>

#include "relic_gff.h"

/* `relic check --strict` for a typed GFF file at path (runtime/cli/gff_strict.c):
 * the file against its typed schema (none for other GFF types: 0), and the GIC/GIT
 * list correspondence with the paired file beside it when there is one. Problems go
 * to pr; returns their number. */
unsigned cli_gff_strict(const char *path, const relic_gff_doc *d, relic_problems *pr);
/* --game's value (nwn1, nwn2, kotor1, kotor2, auto) as relic_gff_game bits
 * in *out (auto: 0); -1 when unknown. */
int cli_gff_game(const char *name, unsigned *out);

/* The text encoding of a GFF command (runtime/cli/gff_encoding.c): name is
 * --encoding's value (NULL: auto); auto is relic_gff_detect_encoding(d)
 * (d may be NULL: *out stays AUTO). Returns -1 when name is unknown. */
int cli_gff_encoding(const char *name, const relic_gff_doc *d, relic_gff_encoding *out);
/* Text bytes in enc printed as UTF-8 (cp1252 bytes converted one to one;
 * bytes that are not UTF-8 in a UTF-8 reading shown as their cp1252). */
void cli_gff_put_text(FILE *f, const uint8_t *p, size_t n, relic_gff_encoding enc);
/* value (UTF-8, from the command line) as bytes in enc, in a; *n their
 * length. NULL (message naming cmd and label printed) when it is not
 * UTF-8 or has a character windows-1252 cannot hold. */
uint8_t *cli_gff_encode_text(const char *value, relic_gff_encoding enc, relic_arena *a, size_t *n, const char *cmd,
                             const char *label);

#endif
