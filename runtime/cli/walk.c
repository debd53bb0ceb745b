/* walk.c — the tree walker of `relic check -r` / `relic info -r` (walk.h):
 * directories in byte order of names, and every container's members
 * through the container descriptors below. The walker maps each file once
 * to detect it; a container's mapping stays (its members are views into
 * it), any other file is unmapped and mapped again by the worker checking it.
 * Each item is published (w->ready) as soon as it is complete, so workers
 * check the first files while the walk is still listing the rest. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "erf_cli.h"
#include "key_cli.h"
#include "walk.h"

/* ---- the container descriptors ---------------------------------------- */

/* ERF V1.0/V1.1 (.erf .mod .hak .sav .nwm) and RIM V1.0 through relic_erf_open. */
static int erf_open(const char *name, const uint8_t *data, size_t size, relic_arena *a, const void **handle,
                    relic_error *err)
{
    (void)name;
    relic_erf_archive *ar = relic_arena_alloc(a, sizeof *ar, _Alignof(relic_erf_archive));
    if (!ar) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory for the container's tables"), 1;
    if (relic_erf_open(data, size, a, ar, err) != RELIC_OK) return 1;
    *handle = ar;
    return 0;
}

static uint32_t erf_count(const void *handle) { return ((const relic_erf_archive *)handle)->count; }

static void erf_member(const void *handle, uint32_t i, char *name, size_t size, relic_bytes *bytes)
{
    const relic_erf_archive *ar = handle;
    cli_erf_shown_name(ar, i, name, size);
    bytes->data = ar->entries[i].data;
    bytes->size = ar->entries[i].size;
}

static const cli_container_kind erf_kind = {"erf", RELIC_FORMAT_ERF, erf_open, erf_count, erf_member, cli_erf_check_tables};

/* KEY V1 (chitin.key) with the BIFs found beside it (fmt_key.c). */
static const cli_container_kind key_kind = {"key", RELIC_FORMAT_KEY, cli_key_walk_open, cli_key_walk_count,
                                            cli_key_walk_member, cli_key_check_tables};

const cli_container_kind *const cli_container_kinds[] = {&erf_kind, &key_kind, NULL};

const cli_container_kind *cli_container_kind_for(relic_format f)
{
    for (int i = 0; cli_container_kinds[i]; i++)
        if (cli_container_kinds[i]->format == f) return cli_container_kinds[i];
    return NULL;
}

/* ---- the list --------------------------------------------------------- */

void cli_walk_init(cli_walk *w, size_t extra_size)
{
    memset(w, 0, sizeof *w);
    w->extra_size = extra_size;
    relic_arena_init_heap(&w->arena, 0);
    /* the slots only: blocks are allocated as the walk reaches them */
    w->blocks = calloc(CLI_WALK_MAX_BLOCKS, sizeof *w->blocks);
    w->extras = calloc(CLI_WALK_MAX_BLOCKS, sizeof *w->extras);
    if (!w->blocks || !w->extras) w->out_of_memory = 1;
}

void cli_walk_free(cli_walk *w)
{
    for (size_t i = 0; i < w->nmaps; i++) relic_unmap(&w->maps[i]);
    free(w->maps);
    for (size_t k = 0; w->blocks && k < CLI_WALK_MAX_BLOCKS && w->blocks[k]; k++) {
        free(w->blocks[k]);
        if (w->extras) free(w->extras[k]);
    }
    free(w->blocks);
    free(w->extras);
    relic_arena_release(&w->arena);
    memset(w, 0, sizeof *w);
}

/* Items below w->count are complete: let the other threads see them. */
static void publish(cli_walk *w)
{
    size_t before = atomic_load(&w->ready);
    if (before == w->count) return;
    atomic_store(&w->ready, w->count);
    if (w->on_ready) w->on_ready(w->ctx, before, w->count);
}

void cli_walk_finish(cli_walk *w)
{
    publish(w);
    atomic_store(&w->finished, 1);
    if (w->on_ready) w->on_ready(w->ctx, w->count, w->count);
}

static cli_walk_item *push(cli_walk *w, const char *name, size_t name_len)
{
    if (w->out_of_memory) return NULL;
    size_t k = w->count >> CLI_WALK_BLOCK_BITS;
    if (k >= CLI_WALK_MAX_BLOCKS) {
        w->out_of_memory = 1;
        return NULL;
    }
    if (!w->blocks[k]) {
        w->blocks[k] = malloc(CLI_WALK_BLOCK * sizeof **w->blocks);
        w->extras[k] = w->extra_size ? calloc(CLI_WALK_BLOCK, w->extra_size) : NULL;
        if (!w->blocks[k] || (w->extra_size && !w->extras[k])) {
            w->out_of_memory = 1;
            return NULL;
        }
    }
    char *copy = relic_arena_strndup(&w->arena, name, name_len);
    if (!copy) {
        w->out_of_memory = 1;
        return NULL;
    }
    cli_walk_item *it = cli_walk_at(w, w->count++);
    memset(it, 0, sizeof *it);
    it->name = copy;
    return it;
}

static int keep_map(cli_walk *w, const relic_mapping *m)
{
    if (w->nmaps == w->capmaps) {
        size_t cap = w->capmaps ? 2 * w->capmaps : 16;
        relic_mapping *maps = realloc(w->maps, cap * sizeof *maps);
        if (!maps) {
            w->out_of_memory = 1;
            return 1;
        }
        w->maps = maps;
        w->capmaps = cap;
    }
    w->maps[w->nmaps++] = *m;
    return 0;
}

/* The container item it (already pushed, bytes set) and then its members,
 * each a container again when it is one and depth allows. */
static void add_members(cli_walk *w, size_t at, const cli_container_kind *kind)
{
    const void *h;
    relic_error err;
    cli_walk_item *it = cli_walk_at(w, at);
    unsigned depth = it->depth;
    const char *parent = it->name;
    relic_bytes bytes = it->bytes;
    /* a container that does not open is checked, and its check says why */
    if (kind->open(parent, bytes.data, bytes.size, &w->arena, &h, &err)) return;
    uint32_t n = kind->count(h);
    size_t plen = strlen(parent);
    for (uint32_t i = 0; i < n; i++) {
        char member[4 * 64 + 16];
        relic_bytes mb;
        kind->member(h, i, member, sizeof member, &mb);
        size_t mlen = strlen(member);
        char *full = malloc(plen + 1 + mlen + 1);
        if (!full) {
            w->out_of_memory = 1;
            return;
        }
        memcpy(full, parent, plen);
        full[plen] = ':'; /* CONTAINER:MEMBER, as relic diff names a member */
        memcpy(full + plen + 1, member, mlen + 1);
        cli_walk_item *m = push(w, full, plen + 1 + mlen);
        free(full);
        if (!m) return;
        size_t mi = w->count - 1;
        m->bytes = mb;
        m->size = mb.size;
        m->depth = depth + 1;
        m->parent = parent;
        /* a member's bytes are left for its worker to touch (page faults on
         * all cores, not here): containers inside are found by their type
         * (the name's extension), then confirmed by their magic */
        const cli_container_kind *inner = cli_container_kind_for(relic_detect(NULL, 0, m->name));
        if (inner) {
            m->format = relic_detect(mb.data, mb.size, m->name);
            m->detected = 1;
            inner = cli_container_kind_for(m->format);
        }
        if (inner && m->depth < CLI_WALK_MAX_DEPTH) {
            m->container = inner;
            publish(w);
            add_members(w, mi, inner);
        } else {
            w->bytes += mb.size;
            publish(w);
        }
    }
}

static void add_file(cli_walk *w, const char *path)
{
    relic_mapping map;
    relic_error err;
    cli_walk_item *it = push(w, path, strlen(path));
    if (!it) return;
    it->path = it->name;
    if (relic_map_file(path, CLI_MAX_PIPE_INPUT, &map, &err) != RELIC_OK) { /* its worker reports it */
        publish(w);
        return;
    }
    it->size = map.bytes.size;
    it->format = relic_detect(map.bytes.data, map.bytes.size, path);
    it->detected = 1;
    const cli_container_kind *kind = cli_container_kind_for(it->format);
    if (!kind && strcmp(path, "-") == 0 && !keep_map(w, &map)) {
        /* standard input is read once: its bytes stay for the worker */
        it->path = NULL;
        it->bytes = map.bytes;
        w->bytes += it->size;
        publish(w);
        return;
    }
    if (!kind || keep_map(w, &map)) {
        relic_unmap(&map);
        w->bytes += it->size;
        publish(w);
        return;
    }
    it->path = NULL;
    it->bytes = map.bytes;
    it->container = kind;
    publish(w);
    add_members(w, w->count - 1, kind);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static unsigned add_dir(cli_walk *w, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        cli_errorf(dir, 0, "cannot read the directory: %s", strerror(errno));
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    unsigned errors = 0;
    size_t dlen = strlen(dir);
    int slash = dlen && dir[dlen - 1] == '/';
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        size_t len = dlen + 1 + strlen(e->d_name) + 1;
        char *p = malloc(len);
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) {
                free(p);
                p = NULL;
            } else names = nn;
        }
        if (!p) {
            w->out_of_memory = 1;
            break;
        }
        snprintf(p, len, "%s%s%s", dir, slash ? "" : "/", e->d_name);
        names[n++] = p;
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        struct stat st, lst;
        if (!w->out_of_memory && lstat(names[i], &lst) == 0) {
            if (S_ISDIR(lst.st_mode)) errors += add_dir(w, names[i]);
            else if (S_ISREG(lst.st_mode)) add_file(w, names[i]);
            else if (S_ISLNK(lst.st_mode) && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) add_file(w, names[i]);
            /* links to directories, devices, FIFOs and sockets: not files of the tree */
        }
        free(names[i]);
    }
    free(names);
    return errors;
}

unsigned cli_walk_add(cli_walk *w, const char *root)
{
    struct stat st;
    if (strcmp(root, "-") == 0) {
        add_file(w, root);
        return 0;
    }
    if (stat(root, &st) != 0) {
        cli_errorf(root, 0, "cannot read: %s", strerror(errno));
        return 1;
    }
    if (S_ISDIR(st.st_mode)) return add_dir(w, root);
    add_file(w, root);
    return 0;
}
