/* map.c — whole-file input: mmap for regular files, read() for the rest.
 *
 * Implements "Byte buffers and file mapping" of relic.h, the first arrow of
 * DESIGN.md "Data flow" (file --mmap--> relic_bytes). A regular, non-empty
 * file is mapped read-only and private: zero copies, and the kernel pages it
 * in on demand. Pipes, terminals, standard input ("-") and files that cannot
 * be mapped are read into one buffer that grows by doubling and stops at
 * max_size, so a pipe cannot make relic hold unbounded memory: on the heap
 * (relic_map_file) or in the caller's arena (relic_map_file_arena).
 * Regular files whose size says 0 are read rather than mapped: empty files
 * and /proc-style files (which report size 0 but have contents) both come
 * out right that way.
 *
 * relic_map_file_rw maps a regular file shared and writable, for patching
 * fixed-size fields in place; relic_unmap msyncs such a mapping first.
 *
 * Limitation of mapping: if another process truncates the file while it is
 * mapped, touching the lost pages raises SIGBUS. relic maps files it was
 * asked to read and does not guard against that. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE 1

#include "relic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* relic_mapping.is_mmap: how relic_unmap releases the bytes. */
enum {
    MAP_KIND_HEAP = 0,      /* owned (possibly NULL: empty, or in the caller's arena) is freed */
    MAP_KIND_READ_ONLY = 1, /* munmap */
    MAP_KIND_SHARED = 2     /* msync, then munmap */
};

/* First heap buffer for non-mappable input; doubled as it fills. */
#define READ_INITIAL_CAPACITY ((size_t)64 * 1024)

/* What an empty input points at: never NULL, never written. */
static const uint8_t empty_input[1];

static const char *display_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

/* name: the path as messages show it (display_name) */
static relic_status fail_errno(relic_error *err, const char *what, const char *name, int errnum)
{
    return relic_fail(err, RELIC_E_IO, 0, NULL, "cannot %s '%s': %s", what, name, strerror(errnum));
}

static int open_retrying(const char *path, int flags)
{
    int fd;
    do {
        fd = open(path, flags | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    return fd;
}

static void close_keeping_errno(int fd)
{
    int saved = errno;
    close(fd);
    errno = saved;
}

static ssize_t read_retrying(int fd, void *buf, size_t n)
{
    ssize_t got;
    do {
        got = read(fd, buf, n);
    } while (got < 0 && errno == EINTR);
    return got;
}

/* Where read_all's buffer grows: a block of cap bytes holding the first size
 * bytes of data, or NULL. A pointer, so that relic_map_file links no arena
 * code and relic_map_file_arena no realloc (an embedded reader stays small). */
typedef uint8_t *read_grow_fn(relic_arena *a, uint8_t *data, size_t size, size_t cap);

static uint8_t *heap_grow(relic_arena *a, uint8_t *data, size_t size, size_t cap)
{
    (void)a;
    (void)size;
    return realloc(data, cap);
}

/* A new block: the arena keeps the old one (at most about twice the input). */
static uint8_t *arena_grow(relic_arena *a, uint8_t *data, size_t size, size_t cap)
{
    uint8_t *p = relic_arena_alloc(a, cap, 1);
    if (p != NULL && size != 0)
        memcpy(p, data, size);
    return p;
}

/* Read fd to its end, growing the buffer with grow (in arena a, or on the
 * heap when a is NULL: relic_map_file, the CLI's convenience), at most
 * max_size bytes (0 = no limit). On success out holds the bytes (or points
 * at empty_input); a heap buffer is owned and freed by relic_unmap. One
 * exit for every failure, so the cleanup is written once (issue 15: this
 * fallback is most of what an embedded reader's relic_map_file costs). */
static relic_status read_all(int fd, const char *name, size_t max_size, read_grow_fn *grow, relic_arena *a,
                             relic_mapping *out, relic_error *err)
{
    uint8_t *data = NULL, probe;
    size_t size = 0, cap = 0;
    relic_status status = RELIC_OK;

    for (;;) {
        ssize_t got;

        if (size == cap && (max_size == 0 || cap < max_size)) {
            size_t room = size != 0 ? size : READ_INITIAL_CAPACITY; /* doubles the buffer */
            uint8_t *grown = NULL;
            if (max_size != 0 && room > max_size - size)
                room = max_size - size;
            if (room <= SIZE_MAX - size)
                grown = grow(a, data, size, size + room);
            if (grown == NULL) {
                status = relic_fail(err, RELIC_E_NOMEM, size, NULL,
                                    "cannot read '%s': out of memory after %zu bytes", name, size);
                break;
            }
            data = grown;
            cap = size + room;
        }
        /* full up to the limit: one more byte, into probe, means too large */
        got = read_retrying(fd, size < cap ? data + size : &probe, size < cap ? cap - size : 1);
        if (got < 0) {
            status = fail_errno(err, "read", name, errno);
            break;
        }
        if (got == 0)
            break;
        if (size == cap) {
            status = relic_fail(err, RELIC_E_LIMIT, max_size, NULL,
                                "'%s' is larger than the limit of %zu bytes", name, max_size);
            break;
        }
        size += (size_t)got;
    }

    if (status != RELIC_OK || size == 0) {
        if (a == NULL)
            free(data);
        if (status == RELIC_OK)
            out->bytes.data = empty_input;
        return status;
    }
    out->owned = a != NULL ? NULL : data;
    out->bytes.data = data;
    out->bytes.size = size;
    out->is_mmap = MAP_KIND_HEAP;
    return RELIC_OK;
}

static relic_status map_input(const char *path, size_t max_size, read_grow_fn *grow, relic_arena *a, relic_mapping *out,
                              relic_error *err)
{
    struct stat st;
    relic_status status;
    const char *name;
    int from_stdin;
    int fd;

    if (out == NULL || path == NULL)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "relic_map_file: no %s given",
                          out == NULL ? "output mapping" : "path");
    memset(out, 0, sizeof *out);

    name = display_name(path);
    from_stdin = name != path;
    fd = STDIN_FILENO;
    if (!from_stdin && (fd = open_retrying(path, O_RDONLY)) < 0)
        return fail_errno(err, "open", name, errno);

    /* every path below ends at done, which closes what was opened */
    if (fstat(fd, &st) != 0) {
        status = fail_errno(err, "stat", name, errno);
        goto done;
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        void *p;

        if ((uintmax_t)st.st_size > SIZE_MAX) {
            status = relic_fail(err, RELIC_E_LIMIT, 0, NULL,
                                "'%s' is too large to map", name);
            goto done;
        }
        p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            /* the mapping keeps its own reference to the file */
            out->bytes.data = p;
            out->bytes.size = (size_t)st.st_size;
            out->map_size = (size_t)st.st_size;
            out->is_mmap = MAP_KIND_READ_ONLY;
            status = RELIC_OK;
            goto done;
        }
        /* Filesystems without mmap support say ENODEV: read those instead. */
        if (errno != ENODEV) {
            status = fail_errno(err, "map", name, errno);
            goto done;
        }
    }
    status = read_all(fd, name, max_size, grow, a, out, err);
done:
    if (!from_stdin)
        close(fd);
    return status;
}

relic_status relic_map_file(const char *path, size_t max_size, relic_mapping *out, relic_error *err)
{
    return map_input(path, max_size, heap_grow, NULL, out, err);
}

relic_status relic_map_file_arena(const char *path, size_t max_size, relic_arena *a, relic_mapping *out,
                                  relic_error *err)
{
    if (a == NULL)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "relic_map_file_arena: no arena given");
    return map_input(path, max_size, arena_grow, a, out, err);
}

void relic_unmap(relic_mapping *m)
{
    if (m == NULL)
        return;
    if (m->is_mmap != MAP_KIND_HEAP && m->map_size != 0) {
        void *p = (void *)(uintptr_t)m->bytes.data;
        if (m->is_mmap == MAP_KIND_SHARED)
            msync(p, m->map_size, MS_SYNC);
        munmap(p, m->map_size);
    }
    free(m->owned);
    memset(m, 0, sizeof *m);
}

relic_status relic_map_file_rw(const char *path, relic_mapping *out, relic_error *err)
{
    struct stat st;
    void *p;
    int fd;

    if (out == NULL || path == NULL)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "relic_map_file_rw: no %s given",
                          out == NULL ? "output mapping" : "path");
    memset(out, 0, sizeof *out);
    if (strcmp(path, "-") == 0)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL,
                          "cannot patch standard input in place");

    fd = open_retrying(path, O_RDWR);
    if (fd < 0)
        return fail_errno(err, "open", path, errno);
    if (fstat(fd, &st) != 0) {
        close_keeping_errno(fd);
        return fail_errno(err, "stat", path, errno);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL,
                          "cannot patch '%s' in place: not a regular file", path);
    }
    if (st.st_size == 0) {
        close(fd);
        out->bytes.data = empty_input;
        return RELIC_OK;
    }
    if ((uintmax_t)st.st_size > SIZE_MAX) {
        close(fd);
        return relic_fail(err, RELIC_E_LIMIT, 0, NULL, "'%s' is too large to map", path);
    }
    p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        close_keeping_errno(fd);
        return fail_errno(err, "map", path, errno);
    }
    close(fd);
    out->bytes.data = p;
    out->bytes.size = (size_t)st.st_size;
    out->map_size = (size_t)st.st_size;
    out->is_mmap = MAP_KIND_SHARED;
    return RELIC_OK;
}
