/* erf_cli.h — what the container subcommands share (fmt_erf.c,
 * cmd_container.c, cmd_get.c): opening an ERF/RIM input and its JSON
 * listing, which is also the manifest `relic extract` writes for `relic pack`. */
#ifndef RELIC_CLI_ERF_H
#define RELIC_CLI_ERF_H

#include "formats.h"
#include "relic_erf.h"

/* Name of the manifest `relic extract` writes beside the members. */
#define CLI_ERF_MANIFEST ".relic-container.json"

/* Open in as a container into ar (tables in a); prints the error. 0 on success. */
int cli_erf_open(const cli_input *in, relic_arena *a, relic_erf_archive *ar);
/* `relic check` of the container alone: its tables and names (and with
 * strict its ids and duplicates), not its members; problems printed, their
 * number returned. `relic check -r` checks each member on its own. */
unsigned cli_erf_check_tables(const cli_input *in, int strict);
/* The JSON listing of ar appended to o; 0 on success. */
int cli_erf_json(const relic_erf_archive *ar, relic_buf *o);
/* Entry i as one JSON object {name, resref, type, id, [unused,] offset, size}
 * (unused only when not zero), appended to o: cli_erf_json's entries and
 * `relic ls --json`'s members. */
void cli_erf_entry_json(const relic_erf_archive *ar, uint32_t i, relic_buf *o);
/* Two entries with the same name (ResRef compared case-insensitively, and
 * type): 1 and their indices (*first < *second), else 0. */
int cli_erf_duplicate(const relic_erf_archive *ar, relic_arena *a, uint32_t *first, uint32_t *second);
/* Room for an entry's name as cli_erf_shown_name gives it. */
#define CLI_ERF_SHOWN_MAX (4 * RELIC_ERF_RESREF_MAX + 16)
/* Entry i's name (resref.ext) escaped for a terminal (cli_escape). Returns out. */
const char *cli_erf_shown_name(const relic_erf_archive *ar, uint32_t i, char *out, size_t size);
/* `relic extract CONTAINER [MEMBER...] [-C DIR]` on the loaded input (cmd_container.c). */
int cli_extract_container(const cli_input *in, const cli_extract_args *x);
void cli_extract_container_usage(FILE *f);

/** relic_erf_archive_write with its scratch in a heap arena freed at once
 *  (the CLI may use the heap; the library takes the caller's arena). */
relic_status cli_erf_write(const relic_erf_archive *ar, relic_erf_layout layout, relic_buf *out, int *fell_back,
                           relic_error *err);

#endif
