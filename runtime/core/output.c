/* output.c — relic_out and relic_write_file_atomic: never leave a
 * half-written output, whether written at once or streamed in pieces.
 *
 * Implements "Output files" of relic.h and the last clause of DESIGN.md
 * "Safety contract": a command never destroys its input or a half-written
 * output. What that means depends on what the destination is:
 *
 * - A regular file or a new path: the bytes go to a temporary file in the
 *   destination's directory (so the rename cannot cross filesystems), are
 *   fsync'd, and the temporary is renamed over the destination: readers see
 *   the old file or the new one, never a mix. Any failure removes the
 *   temporary and leaves the destination untouched.
 * - A symbolic link: followed to its final target (even a dangling one), and
 *   that target is replaced as above; the link itself stays a link.
 * - A character or block device, FIFO or socket, or the file that standard
 *   output already is ("-", /dev/stdout, /proc/self/fd/1): written directly,
 *   never unlinked or renamed over. There is nothing to roll back there, so
 *   a failure part way leaves what was already written.
 *
 * Permissions: replacing an existing file keeps its permission bits; a new
 * file gets 0644 minus the umask, as a plain fopen would give it. Every
 * error names the output path and the system's reason (ENOSPC, EFBIG, EIO,
 * EPIPE...). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE 1

#include "relic.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h> /* mkstemp */
#include <sys/stat.h>
#include <unistd.h>

#define OUTPUT_NEW_FILE_MODE ((mode_t)0644)
#define OUTPUT_TEMP_SUFFIX ".XXXXXX"

static relic_status fail_io(relic_error *err, const char *what, const char *path, int errnum)
{
    return relic_fail(err, RELIC_E_IO, 0, NULL, "cannot %s '%s': %s", what, path,
                      strerror(errnum));
}

/* The process umask, read without widening it even for an instant: probing
 * with 077 means a concurrent file creation could only come out stricter. */
static mode_t current_umask(void)
{
    mode_t mask = umask(077);
    umask(mask);
    return mask;
}

/* "<dir>/.<base>.XXXXXX" for path "<dir>/<base>" (or ".<base>.XXXXXX"),
 * into name[cap] (no heap); NULL when it does not fit. */
static char *temp_template(char *name, size_t cap, const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash != NULL ? (size_t)(slash - path) + 1 : 0;
    size_t base_len = strlen(path) - dir_len;
    size_t total = dir_len + 1 + base_len + sizeof OUTPUT_TEMP_SUFFIX;

    if (total > cap)
        return NULL;
    memcpy(name, path, dir_len);
    name[dir_len] = '.';
    memcpy(name + dir_len + 1, path + dir_len, base_len);
    memcpy(name + dir_len + 1 + base_len, OUTPUT_TEMP_SUFFIX, sizeof OUTPUT_TEMP_SUFFIX);
    return name;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n != 0) {
        ssize_t done = write(fd, p, n);
        if (done < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (done == 0) {
            errno = EIO; /* no progress and no reason: do not spin */
            return -1;
        }
        p += done;
        n -= (size_t)done;
    }
    return 0;
}

/* Make the rename itself durable. Best effort: some filesystems refuse to
 * fsync a directory, and the data is already safe in the renamed file. */
static void sync_directory_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char buf[RELIC_OUT_TEMP_MAX]; /* on the stack: the library takes nothing from the heap */
    char *dir;
    int fd;

    if (slash == NULL) {
        dir = NULL;
    } else {
        size_t len = slash == path ? 1 : (size_t)(slash - path);
        if (len >= sizeof buf)
            return;
        dir = buf;
        memcpy(dir, path, len);
        dir[len] = '\0';
    }
    fd = open(dir != NULL ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* Symbolic links followed from path to the file they finally name, which
 * need not exist yet (a dangling link is written through, as open(2) would),
 * into out[cap] (no heap). Returns out, or NULL with errno set (ELOOP past
 * the kernel's own limit of hops, ENAMETOOLONG). */
#define OUTPUT_MAX_LINK_HOPS 40
static char *final_target(char *out, size_t cap, const char *path)
{
    size_t len = strlen(path);
    if (len >= cap) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    memcpy(out, path, len + 1);
    for (int hops = 0;; hops++) {
        struct stat st;
        char link[PATH_MAX];
        ssize_t n;
        if (lstat(out, &st) != 0 || !S_ISLNK(st.st_mode))
            return out; /* absent or not a link: the rename lands here */
        if (hops == OUTPUT_MAX_LINK_HOPS) {
            errno = ELOOP;
            return NULL;
        }
        n = readlink(out, link, sizeof link - 1);
        if (n < 0)
            return NULL;
        link[n] = '\0';
        /* an absolute target replaces the name, a relative one its last part */
        const char *slash = strrchr(out, '/');
        size_t dir_len = link[0] == '/' ? 0 : slash != NULL ? (size_t)(slash - out) + 1
                                                            : 0;
        if (dir_len + (size_t)n >= cap) {
            errno = ENAMETOOLONG;
            return NULL;
        }
        memcpy(out + dir_len, link, (size_t)n + 1);
    }
}

/* Is st the file standard output already writes to? Then "-o /dev/stdout"
 * and its kin go through stdout, whatever kind of file that is. */
static int is_standard_output(const struct stat *st)
{
    struct stat out;
    return fstat(STDOUT_FILENO, &out) == 0 && out.st_dev == st->st_dev && out.st_ino == st->st_ino;
}

relic_status relic_out_open(relic_out *o, const char *path, const char *input, relic_error *err)
{
    struct stat target;
    int target_exists;

    memset(o, 0, sizeof *o);
    o->fd = -1;
    if (path == NULL || path[0] == '\0')
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "no output file given");
    if (strcmp(path, "-") == 0) {
        o->to_stdout = 1;
        return RELIC_OK;
    }
    if (path[strlen(path) - 1] == '/')
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL,
                          "cannot write '%s': it names a directory", path);

    target_exists = stat(path, &target) == 0;
    if (!target_exists && errno != ENOENT)
        return fail_io(err, "write", path, errno);
    if (target_exists && input != NULL && strcmp(input, "-") != 0) {
        struct stat in;
        if (stat(input, &in) == 0 && in.st_dev == target.st_dev && in.st_ino == target.st_ino)
            return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL,
                              "refusing to overwrite the input file '%s'", path);
    }
    o->path = path;
    if (target_exists && S_ISDIR(target.st_mode))
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL,
                          "cannot write '%s': it is a directory", path);
    if (target_exists && is_standard_output(&target)) {
        o->to_stdout = 1;
        return RELIC_OK;
    }
    if (target_exists && !S_ISREG(target.st_mode)) {
        /* device, FIFO or socket: the node stays; a FIFO waits for its reader */
        o->direct = 1;
        o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (o->fd < 0)
            return fail_io(err, "write", path, errno);
        return RELIC_OK;
    }
    if (target_exists)
        o->mode = target.st_mode & 0777;
    else
        o->mode = OUTPUT_NEW_FILE_MODE & ~current_umask();

    if (final_target(o->dest_name, sizeof o->dest_name, path) == NULL)
        return fail_io(err, "write", path, errno);
    if (temp_template(o->tmp_name, sizeof o->tmp_name, o->dest_name) == NULL) {
        return relic_fail(err, RELIC_E_LIMIT, 0, NULL,
                          "cannot write '%s': the path is too long for a temporary name", path);
    }
    o->fd = mkstemp(o->tmp_name);
    if (o->fd < 0) {
        int saved = errno;
        return relic_fail(err, RELIC_E_IO, 0, NULL,
                          "cannot create a temporary file for '%s': %s", path, strerror(saved));
    }
    o->has_tmp = 1;
    return RELIC_OK;
}

relic_status relic_out_write(relic_out *o, const void *data, size_t size, relic_error *err)
{
    if (data == NULL && size != 0)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "no data given for %zu bytes", size);
    if (o->to_stdout) {
        errno = 0;
        if (size != 0 && fwrite(data, 1, size, stdout) != size) {
            int saved = errno;
            return relic_fail(err, RELIC_E_IO, 0, NULL, "cannot write to standard output: %s",
                              strerror(saved != 0 ? saved : EIO));
        }
        return RELIC_OK;
    }
    if (o->fd < 0) return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "output is not open");
    if (write_all(o->fd, data, size) != 0) return fail_io(err, "write", o->path, errno);
    return RELIC_OK;
}

void relic_out_abort(relic_out *o)
{
    if (o->fd >= 0) close(o->fd);
    if (o->has_tmp)
        unlink(o->tmp_name);
    o->has_tmp = 0;
    o->fd = -1;
    o->prepared = 0;
}

relic_status relic_out_prepare(relic_out *o, relic_error *err)
{
    const char *step;
    int saved;

    if (o->to_stdout) {
        errno = 0;
        if (fflush(stdout) != 0 || ferror(stdout)) {
            saved = errno;
            return relic_fail(err, RELIC_E_IO, 0, NULL, "cannot write to standard output: %s",
                              strerror(saved != 0 ? saved : EIO));
        }
        o->prepared = 1;
        return RELIC_OK;
    }
    if (o->prepared) return RELIC_OK;
    if (o->fd < 0) return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "output is not open");
    if (!o->direct) {
        step = "sync";
        if (fsync(o->fd) != 0)
            goto fail;
        step = "set permissions of";
        if (fchmod(o->fd, o->mode) != 0)
            goto fail;
    }
    step = "write";
    if (close(o->fd) != 0) {
        o->fd = -1; /* closed anyway (POSIX leaves it unspecified; Linux closes) */
        goto fail;
    }
    o->fd = -1;
    o->prepared = 1;
    return RELIC_OK;

fail:
    saved = errno;
    relic_out_abort(o);
    return fail_io(err, step, o->path, saved);
}

relic_status relic_out_commit(relic_out *o, relic_error *err)
{
    relic_status st;
    int saved;

    if ((st = relic_out_prepare(o, err)) != RELIC_OK) return st;
    o->prepared = 0;
    if (o->to_stdout || o->direct)
        return RELIC_OK;
    if (rename(o->tmp_name, o->dest_name) != 0) {
        saved = errno;
        relic_out_abort(o);
        return fail_io(err, "replace", o->path, saved);
    }
    o->has_tmp = 0;
    sync_directory_of(o->dest_name);
    return RELIC_OK;
}

relic_status relic_write_file_atomic(const char *path, const void *data, size_t size,
                                     const char *input, relic_error *err)
{
    relic_out o;
    relic_status st;

    if (data == NULL && size != 0)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL,
                          "no data given for the %zu bytes of '%s'", size, path ? path : "");
    if ((st = relic_out_open(&o, path, input, err)) != RELIC_OK) return st;
    if ((st = relic_out_write(&o, data, size, err)) != RELIC_OK) {
        relic_out_abort(&o);
        return st;
    }
    return relic_out_commit(&o, err);
}
