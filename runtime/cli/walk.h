/* walk.h — the tree walker of `relic check -r` and `relic info -r`
 * (walk.c): a directory's files in name order, and inside every container
 * it finds (and containers inside those) each member, as a flat list of
 * items that workers check in any order and the command prints in this one.
 *
 * A container is a descriptor entry (cli_container_kinds in walk.c): open
 * the bytes, count the members, give member i's name and bytes. A new
 * container format (KEY/BIF) joins the walk by adding its entry. */
#ifndef RELIC_CLI_WALK_H
#define RELIC_CLI_WALK_H

#include <stdatomic.h>

#include "formats.h"

/* Containers inside containers are walked this deep (a SAV holding a MOD
 * holding an ERF is depth 3); deeper ones are checked as files only. */
#define CLI_WALK_MAX_DEPTH 4

/* One container format as the walker sees it. */
typedef struct cli_container_kind {
    const char *name;    /* short name, as in relic_format_name ("erf") */
    relic_format format; /* what relic_detect says for it */
    /* Open the container's bytes (tables in a, which outlives the walk):
     * 0, or 1 with err filled (the container's check then reports it).
     * name is the container as printed: a file's path (a KEY finds its
     * BIF files from it), or CONTAINER:member for one inside another. */
    int (*open)(const char *name, const uint8_t *data, size_t size, relic_arena *a, const void **handle,
                relic_error *err);
    uint32_t (*count)(const void *handle);
    /* Member i: its name ("resref.ext", escaped for a terminal) into name,
     * its bytes (in place in the container's bytes) into bytes. */
    void (*member)(const void *handle, uint32_t i, char *name, size_t size, relic_bytes *bytes);
    /* `relic check` of the container's own tables, not its members:
     * problems printed through cli_report, their number returned. */
    unsigned (*check_tables)(const cli_input *in, int strict);
} cli_container_kind;

/* The container kinds, NULL-terminated; the one for a format, or NULL. */
extern const cli_container_kind *const cli_container_kinds[];
const cli_container_kind *cli_container_kind_for(relic_format f);

/* One file or member to check. */
typedef struct cli_walk_item {
    const char *name;                    /* as printed: the path, or CONTAINER:member for a member */
    const char *path;                    /* a loose file the worker maps itself; NULL for a member or a container */
    relic_bytes bytes;                   /* a member's (or a container's) bytes, valid until cli_walk_free */
    uint64_t size;                       /* bytes of the file or member */
    const cli_container_kind *container; /* non-NULL: a container; its tables are what is checked */
    relic_format format;                 /* relic_detect's answer when detected is set */
    int detected;                        /* 0: a member not looked at yet (its worker detects it) */
    unsigned depth;                      /* 0 for a file of the tree, n for a member n containers deep */
    const char *parent;                  /* a member's container (its name), NULL for a file of the tree */
} cli_walk_item;

/* Items are kept in blocks that never move, so other threads may read
 * items below `ready` while the walk adds more (check -r checks while it
 * walks). */
#define CLI_WALK_BLOCK_BITS 12
#define CLI_WALK_BLOCK ((size_t)1 << CLI_WALK_BLOCK_BITS)
#define CLI_WALK_MAX_BLOCKS 65536

/* The items of every root added, in walk order. */
typedef struct cli_walk {
    cli_walk_item **blocks; /* CLI_WALK_MAX_BLOCKS slots, each NULL or CLI_WALK_BLOCK items */
    unsigned char **extras; /* the same for the caller's extra_size bytes per item (zeroed) */
    size_t extra_size;      /* set before the first cli_walk_add; 0: none */
    size_t count;           /* items added (the walking thread's count) */
    atomic_size_t ready;    /* items complete: any thread may read items and extras below it */
    atomic_int finished;    /* set by cli_walk_finish: ready == count and no more will come */
    /* called by the walking thread each time ready grows from before to now (NULL: none) */
    void (*on_ready)(void *ctx, size_t before, size_t now);
    void *ctx;
    relic_mapping *maps; /* the containers' mappings, kept until cli_walk_free */
    size_t nmaps, capmaps;
    relic_arena arena; /* names and container tables */
    uint64_t bytes;    /* sum of the items' sizes, containers left out (their members are counted) */
    int out_of_memory;
} cli_walk;

/* Item i (< ready, or < count in the walking thread) and its extra bytes. */
static inline cli_walk_item *cli_walk_at(const cli_walk *w, size_t i)
{
    return &w->blocks[i >> CLI_WALK_BLOCK_BITS][i & (CLI_WALK_BLOCK - 1)];
}
static inline void *cli_walk_extra(const cli_walk *w, size_t i)
{
    return w->extras[i >> CLI_WALK_BLOCK_BITS] + (i & (CLI_WALK_BLOCK - 1)) * w->extra_size;
}

/* Start an empty walk with extra_size zeroed bytes beside each item for the
 * caller (0: none). */
void cli_walk_init(cli_walk *w, size_t extra_size);
/* No more roots: ready becomes final (on_ready is called a last time). */
void cli_walk_finish(cli_walk *w);
/* Add root: a file, or a directory walked in byte order of names (symbolic
 * links to files followed, to directories not, so no loop; "." names
 * included). Errors (a root that does not exist) are printed with
 * cli_error; returns their number. A file that cannot be mapped is still
 * an item: its worker reports why. */
unsigned cli_walk_add(cli_walk *w, const char *root);
void cli_walk_free(cli_walk *w);

#endif
