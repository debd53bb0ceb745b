/* key_cli.h — what the KEY/BIF and TLK parts of the command share
 * (fmt_key.c, fmt_tlk.c, cmd_container.c, cmd_extract.c, cmd_get.c,
 * cmd_diff.c): a KEY opened with its BIFs found beside it as the game finds
 * them, and a talk table for showing StrRefs as text. */
#ifndef RELIC_CLI_KEY_H
#define RELIC_CLI_KEY_H

#include "formats.h"
#include "relic_key.h"
#include "relic_tlk.h"

/* A KEY as a container of `relic check -r` (walk.c's cli_container_kind):
 * opened quietly (the error left in *err), its members the keys whose data
 * lie in a BIF found beside it ("resref.ext", bytes in the mapped BIF, which
 * stays mapped until the process ends); cli_key_check_tables checks the KEY's
 * tables and its BIFs' data, not the members. */
int cli_key_walk_open(const char *name, const uint8_t *data, size_t size, relic_arena *a, const void **handle,
                      relic_error *err);
uint32_t cli_key_walk_count(const void *handle);
void cli_key_walk_member(const void *handle, uint32_t i, char *name, size_t size, relic_bytes *bytes);
unsigned cli_key_check_tables(const cli_input *in, int strict);

/* `relic ls` of a KEY (every key with its BIF) or a BIF (every resource,
 * those past the end marked). 0 success, 1 invalid. */
int cli_key_ls(const cli_input *in);
int cli_bif_ls(const cli_input *in);
/* `relic ls dialog.tlk`: every StrRef with its flags, sound and text (control
 * bytes escaped: one line each). 0 success, 1 invalid. */
int cli_tlk_ls(const cli_input *in);
/* `relic ls --json`: the same listings as one JSON object (one line) into o,
 * keys as docs/cli.md lists them; 0 success, 1 invalid (printed). */
int cli_key_ls_json(const cli_input *in, relic_buf *o);
int cli_bif_ls_json(const cli_input *in, relic_buf *o);
int cli_tlk_ls_json(const cli_input *in, relic_buf *o);
/* `relic extract KEY [MEMBER|TYPE|GLOB...] [-C DIR]` on the loaded KEY. */
int cli_key_extract(const cli_input *in, const cli_extract_args *x);
void cli_key_extract_usage(FILE *f);
/* `relic pack DIR OUT.key`: the directory's files (resref.ext, sorted by
 * ResRef then type) into one BIF, OUT's directory/data/OUT-name.bif, and
 * the KEY indexing it. */
int cli_key_pack(const char *dir, const char *out_path);
/* The bytes of resource name ("resref.ext") through the KEY at key_path
 * (its BIFs beside it): a heap copy in *data (free it), size in *size.
 * 0 found, 1 not listed, -1 error (printed). */
int cli_key_lookup(const char *key_path, const char *name, uint8_t **data, size_t *size);
/* path of rel (a relative path, '/' separated) under dir, matching each
 * component without regard to case as the game's file lookup does on
 * Windows; 0 when it exists (out filled), else 1. */
int cli_find_nocase(const char *dir, const char *rel, char *out, size_t n);

/* A talk table loaded for --tlk: mapped and validated. */
typedef struct cli_tlk {
    cli_input in;
    relic_tlk_view view;
    int loaded;
} cli_tlk;
/* Load path as a talk table into t; 0 success (errors printed). */
int cli_tlk_load(const char *path, cli_tlk *t);
void cli_tlk_unload(cli_tlk *t);
/* The talk table given by --tlk, or NULL: set by cmd_get, cmd_dump and
 * cmd_diff for the GFF printers. */
extern const cli_tlk *cli_tlk_current;
/* relic_gff_strref_text_fn over a cli_tlk (ctx). */
int cli_tlk_strref_text(void *ctx, uint32_t strref, const char **text, size_t *n);
/* --tlk FILE at argv[*i] (advancing *i): loads it into t and sets
 * cli_tlk_current. 1 taken, 0 not --tlk, -1 failed (printed). */
int cli_tlk_option(int argc, char **argv, int *i, cli_tlk *t);
/* Print StrRef's text to f as UTF-8; 0 (nothing printed) when the table has no such entry. */
int cli_tlk_put(FILE *f, const cli_tlk *t, uint32_t strref);

/* `relic get --install DIR NAME`: resource NAME ("resref.ext") looked up
 * in the game's order (DIR/override, then DIR/modules' containers, then
 * DIR/chitin.key's BIFs), a heap copy of its bytes in *data (free it).
 * 0 found (*where names the source), 1 not found, -1 error (printed). */
int cli_install_lookup(const char *dir, const char *name, uint8_t **data, size_t *size, char *where, size_t where_n);

#endif
