/* test_runtime.c — unit tests of the hand-written runtime basics (relic.h):
 * errors, file mapping, arenas, output buffers, atomic output, detection.
 * One behaviour per test, named after it (cmocka). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE 1

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "relic.h"
#include "bwm.h"
#include "gff.h"
#include "trn.h"

/* ---------------------------------------------------------------------- */
/* Helpers                                                                */
/* ---------------------------------------------------------------------- */

/* A fresh private directory under $TMPDIR (or /tmp). */
static char *make_temp_dir(void)
{
    const char *base = getenv("TMPDIR");
    char *dir;
    size_t n;

    if (base == NULL || base[0] == '\0')
        base = "/tmp";
    n = strlen(base) + sizeof "/relic-test-XXXXXX";
    dir = malloc(n);
    assert_non_null(dir);
    snprintf(dir, n, "%s/relic-test-XXXXXX", base);
    assert_non_null(mkdtemp(dir));
    return dir;
}

#define TEST_PATH_MAX 4096

static void join_into(char out[TEST_PATH_MAX], const char *dir, const char *name)
{
    int n = snprintf(out, TEST_PATH_MAX, "%s/%s", dir, name);
    assert_true(n > 0 && n < TEST_PATH_MAX);
}

static size_t count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t n = 0;

    assert_non_null(d);
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

/* Remove dir and everything in it, subdirectories included. */
static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;

    if (d != NULL) {
        while ((e = readdir(d)) != NULL) {
            char p[TEST_PATH_MAX];
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            join_into(p, dir, e->d_name);
            if (unlink(p) != 0)
                remove_tree(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* Fixture of the tests that touch the filesystem: *state is a fresh private
 * directory, removed afterwards even when the test fails. */
static int setup_temp_dir(void **state)
{
    *state = make_temp_dir();
    return 0;
}

static int teardown_temp_dir(void **state)
{
    remove_tree(*state);
    free(*state);
    return 0;
}

#define fs_test(t) cmocka_unit_test_setup_teardown(t, setup_temp_dir, teardown_temp_dir)

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (size != 0)
        assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

/* Whole contents of path into a malloc'd buffer; *size receives its length. */
static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data;
    long n;

    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    assert_true(n >= 0);
    rewind(f);
    data = malloc((size_t)n + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return data;
}

/* What relic_error_print writes for (file, err), NUL-terminated in out. */
static void print_error_to(char *out, size_t cap, const char *file, const relic_error *err)
{
    FILE *f = tmpfile();
    size_t n;

    assert_non_null(f);
    relic_error_print(f, file, err);
    rewind(f);
    n = fread(out, 1, cap - 1, f);
    out[n] = '\0';
    fclose(f);
}

/* Byte i of the test pattern used for pipe inputs. */
static uint8_t pattern(size_t i)
{
    return (uint8_t)((i * 131u + (i >> 8)) & 0xFF);
}

/* A pipe whose write end a child process fills with `size` pattern bytes
 * and closes. Returns the read end; *child receives the child's pid. */
static int pipe_from_child(size_t size, pid_t *child)
{
    int fds[2];
    pid_t pid;

    assert_int_equal(pipe(fds), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        uint8_t chunk[4096];
        size_t sent = 0;
        close(fds[0]);
        while (sent < size) {
            size_t n = size - sent < sizeof chunk ? size - sent : sizeof chunk;
            size_t i;
            ssize_t w;
            for (i = 0; i < n; i++)
                chunk[i] = pattern(sent + i);
            w = write(fds[1], chunk, n);
            if (w <= 0)
                _exit(w < 0 && errno == EPIPE ? 0 : 1);
            sent += (size_t)w;
        }
        _exit(0);
    }
    close(fds[1]);
    *child = pid;
    return fds[0];
}

static void reap(pid_t child, int read_fd)
{
    close(read_fd); /* a child blocked on a full pipe gets EPIPE and exits */
    assert_int_equal(waitpid(child, NULL, 0), child);
}

/* Map the read end of a pipe through /dev/fd, the way a shell's process
 * substitution <(...) hands relic a pipe by name. */
static relic_status map_pipe(int fd, size_t max_size, relic_mapping *m, relic_error *err)
{
    char name[64];
    snprintf(name, sizeof name, "/dev/fd/%d", fd);
    return relic_map_file(name, max_size, m, err);
}

/* ---------------------------------------------------------------------- */
/* Errors                                                                 */
/* ---------------------------------------------------------------------- */

static void test_status_names_are_distinct_and_stable(void **state)
{
    /* clang-format off */
    static const relic_status all[] = {
        RELIC_OK, RELIC_E_TRUNCATED, RELIC_E_MAGIC, RELIC_E_RANGE, RELIC_E_INDEX,
        RELIC_E_LAYOUT, RELIC_E_LIMIT, RELIC_E_NOMEM, RELIC_E_IO, RELIC_E_SYNTAX,
        RELIC_E_UNSUPPORTED, RELIC_E_ARGUMENT,
    };
    /* clang-format on */
    size_t i, j, n = sizeof all / sizeof all[0];
    (void)state;

    assert_string_equal(relic_status_name(RELIC_OK), "ok");
    assert_string_equal(relic_status_name(RELIC_E_TRUNCATED), "truncated");
    assert_string_equal(relic_status_name(RELIC_E_MAGIC), "bad magic");
    assert_string_equal(relic_status_name((relic_status)999), "unknown status");
    for (i = 0; i < n; i++) {
        assert_non_null(relic_status_name(all[i]));
        for (j = i + 1; j < n; j++)
            assert_string_not_equal(relic_status_name(all[i]), relic_status_name(all[j]));
    }
}

static void test_fail_fills_every_field_and_returns_the_code(void **state)
{
    relic_error err;
    (void)state;

    relic_error_clear(&err);
    assert_int_equal(relic_fail(&err, RELIC_E_INDEX, 0x88, "faces[12].v[2]",
                                "vertex index %u >= vertex count %u", 9u, 4u),
                     RELIC_E_INDEX);
    assert_int_equal(err.code, RELIC_E_INDEX);
    assert_int_equal(err.offset, 0x88);
    assert_string_equal(err.path, "faces[12].v[2]");
    assert_string_equal(err.message, "vertex index 9 >= vertex count 4");
}

static void test_fail_without_error_struct_still_returns_the_code(void **state)
{
    (void)state;
    assert_int_equal(relic_fail(NULL, RELIC_E_RANGE, 1, "x", "%d", 5), RELIC_E_RANGE);
}

static void test_fail_with_null_path_leaves_path_empty(void **state)
{
    relic_error err;
    (void)state;

    memset(&err, 'x', sizeof err);
    relic_fail(&err, RELIC_E_MAGIC, 0, NULL, "bad");
    assert_string_equal(err.path, "");
    assert_string_equal(err.message, "bad");
}

static void test_fail_truncates_a_long_path_and_keeps_it_terminated(void **state)
{
    char path[RELIC_ERROR_PATH_MAX * 3];
    relic_error err;
    (void)state;

    memset(path, 'p', sizeof path - 1);
    path[sizeof path - 1] = '\0';
    relic_fail(&err, RELIC_E_RANGE, 0, path, "m");
    assert_int_equal(strlen(err.path), RELIC_ERROR_PATH_MAX - 1);
    assert_memory_equal(err.path, path, RELIC_ERROR_PATH_MAX - 1);
    assert_string_equal(err.message, "m");
}

static void test_fail_truncates_a_long_message_and_keeps_it_terminated(void **state)
{
    char text[RELIC_ERROR_MESSAGE_MAX * 2];
    relic_error err;
    (void)state;

    memset(text, 'm', sizeof text - 1);
    text[sizeof text - 1] = '\0';
    relic_fail(&err, RELIC_E_SYNTAX, 3, "a.b", "<%s>", text);
    assert_int_equal(strlen(err.message), RELIC_ERROR_MESSAGE_MAX - 1);
    assert_int_equal(err.message[0], '<');
    assert_int_equal(err.message[RELIC_ERROR_MESSAGE_MAX - 2], 'm');
    assert_string_equal(err.path, "a.b");
}

static void test_fail_may_rewrap_its_own_path_and_message(void **state)
{
    relic_error err;
    (void)state;

    relic_fail(&err, RELIC_E_TRUNCATED, 16, "header.magic", "need %d bytes", 8);
    relic_fail(&err, err.code, err.offset, err.path, "in 'x.wok': %s", err.message);
    assert_int_equal(err.code, RELIC_E_TRUNCATED);
    assert_string_equal(err.path, "header.magic");
    assert_string_equal(err.message, "in 'x.wok': need 8 bytes");
}

static void test_error_clear_resets_to_no_error(void **state)
{
    relic_error err;
    (void)state;

    relic_fail(&err, RELIC_E_IO, 42, "p", "m");
    relic_error_clear(&err);
    assert_int_equal(err.code, RELIC_OK);
    assert_int_equal(err.offset, 0);
    assert_string_equal(err.path, "");
    assert_string_equal(err.message, "");
    relic_error_clear(NULL); /* allowed */
}

static void test_error_print_is_file_path_offset_message(void **state)
{
    relic_error err;
    char line[512];
    (void)state;

    relic_fail(&err, RELIC_E_INDEX, 0x88, "faces[12].v[2]", "vertex index 9 >= vertex count 4");
    print_error_to(line, sizeof line, "m01aa.wok", &err);
    assert_string_equal(line, "m01aa.wok: faces[12].v[2] @0x88: vertex index 9 >= vertex count 4\n");
}

static void test_error_print_omits_an_empty_path(void **state)
{
    relic_error err;
    char line[512];
    (void)state;

    relic_fail(&err, RELIC_E_MAGIC, 0, NULL, "not a BWM file");
    print_error_to(line, sizeof line, "x.wok", &err);
    assert_string_equal(line, "x.wok: @0x0: not a BWM file\n");
}

static void test_error_print_offset_is_unpadded_lower_case_hex(void **state)
{
    relic_error err;
    char line[512];
    (void)state;

    relic_fail(&err, RELIC_E_LAYOUT, UINT64_C(0xABCDEF0123), "aabb[3]", "overlap");
    print_error_to(line, sizeof line, "f", &err);
    assert_string_equal(line, "f: aabb[3] @0xabcdef0123: overlap\n");
}

static void test_error_print_escapes_control_bytes_and_prints_the_largest_offset(void **state)
{
    relic_error err;
    char line[512];
    (void)state;

    relic_fail(&err, RELIC_E_SYNTAX, UINT64_MAX, "a\x01"
                                                 "b",
               "name \"\x1b[31m\x7f\"");
    print_error_to(line, sizeof line, "in\nput", &err);
    assert_string_equal(line, "in\\x0aput: a\\x01b @0xffffffffffffffff: name \"\\x1b[31m\\x7f\"\n");
    err.message[0] = '\0'; /* no message: the status name */
    print_error_to(line, sizeof line, NULL, &err);
    assert_string_equal(line, "-: a\\x01b @0xffffffffffffffff: syntax error\n");
}

/* ---------------------------------------------------------------------- */
/* File mapping                                                           */
/* ---------------------------------------------------------------------- */

static void test_map_regular_file_is_mmapped_with_its_bytes(void **state)
{
    static const char content[] = "BWM V1.0 and some bytes";
    const char *dir = *state;
    char path[TEST_PATH_MAX];
    relic_mapping m;
    relic_error err;

    join_into(path, dir, "a.wok");

    write_file(path, content, sizeof content - 1);
    assert_int_equal(relic_map_file(path, 0, &m, &err), RELIC_OK);
    assert_true(m.is_mmap);
    assert_null(m.owned);
    assert_int_equal(m.bytes.size, sizeof content - 1);
    assert_memory_equal(m.bytes.data, content, sizeof content - 1);
    relic_unmap(&m);
    assert_null(m.bytes.data);
}

static void test_map_max_size_does_not_apply_to_mapped_files(void **state)
{
    const char *dir = *state;
    char path[TEST_PATH_MAX];
    uint8_t data[1000] = {0};
    relic_mapping m;
    relic_error err;

    join_into(path, dir, "big.bin");

    write_file(path, data, sizeof data);
    assert_int_equal(relic_map_file(path, 10, &m, &err), RELIC_OK);
    assert_int_equal(m.bytes.size, sizeof data);
    relic_unmap(&m);
}

static void test_map_empty_file_gives_size_zero_and_non_null_data(void **state)
{
    const char *dir = *state;
    char path[TEST_PATH_MAX];
    relic_mapping m;
    relic_error err;

    join_into(path, dir, "empty.wok");

    write_file(path, "", 0);
    assert_int_equal(relic_map_file(path, 0, &m, &err), RELIC_OK);
    assert_int_equal(m.bytes.size, 0);
    assert_non_null(m.bytes.data);
    relic_unmap(&m);
}

static void test_map_missing_file_is_io_error_naming_the_file(void **state)
{
    const char *dir = *state;
    char path[TEST_PATH_MAX];
    relic_mapping m;
    relic_error err;
    char expected[TEST_PATH_MAX + 256];

    join_into(path, dir, "missing.wok");

    relic_error_clear(&err);
    assert_int_equal(relic_map_file(path, 0, &m, &err), RELIC_E_IO);
    assert_int_equal(err.code, RELIC_E_IO);
    snprintf(expected, sizeof expected, "cannot open '%s': %s", path, strerror(ENOENT));
    expected[RELIC_ERROR_MESSAGE_MAX - 1] = '\0'; /* as relic_error holds it */
    assert_string_equal(err.message, expected);
    assert_null(m.bytes.data);
    relic_unmap(&m); /* safe on the zeroed mapping a failure leaves */
}

static void test_map_directory_is_io_error(void **state)
{
    const char *dir = *state;
    relic_mapping m;
    relic_error err;

    assert_int_equal(relic_map_file(dir, 0, &m, &err), RELIC_E_IO);
    assert_non_null(strstr(err.message, dir));
    assert_non_null(strstr(err.message, strerror(EISDIR)));
}

static void test_map_pipe_is_read_into_heap_memory(void **state)
{
    /* Larger than the first read buffer and than a pipe's capacity, so the
     * buffer has to grow while the child is still writing. */
    const size_t size = 300 * 1024 + 7;
    relic_mapping m;
    relic_error err;
    pid_t child;
    int fd = pipe_from_child(size, &child);
    size_t i;
    (void)state;

    assert_int_equal(map_pipe(fd, 0, &m, &err), RELIC_OK);
    assert_false(m.is_mmap);
    assert_non_null(m.owned);
    assert_int_equal(m.bytes.size, size);
    for (i = 0; i < size; i++)
        if (m.bytes.data[i] != pattern(i))
            fail_msg("byte %zu is 0x%02x, expected 0x%02x", i, m.bytes.data[i], pattern(i));
    relic_unmap(&m);
    assert_null(m.owned);
    reap(child, fd);
}

static void test_map_pipe_larger_than_max_size_is_limit_error(void **state)
{
    relic_mapping m;
    relic_error err;
    pid_t child;
    int fd = pipe_from_child(5000, &child);
    (void)state;

    assert_int_equal(map_pipe(fd, 4096, &m, &err), RELIC_E_LIMIT);
    assert_int_equal(err.code, RELIC_E_LIMIT);
    assert_non_null(strstr(err.message, "4096"));
    assert_null(m.bytes.data);
    assert_null(m.owned);
    reap(child, fd);
}

static void test_map_pipe_of_exactly_max_size_is_accepted(void **state)
{
    relic_mapping m;
    relic_error err;
    pid_t child;
    int fd = pipe_from_child(4096, &child);
    (void)state;

    assert_int_equal(map_pipe(fd, 4096, &m, &err), RELIC_OK);
    assert_int_equal(m.bytes.size, 4096);
    assert_int_equal(m.bytes.data[4095], pattern(4095));
    relic_unmap(&m);
    reap(child, fd);
}

static void test_map_empty_pipe_gives_size_zero(void **state)
{
    relic_mapping m;
    relic_error err;
    pid_t child;
    int fd = pipe_from_child(0, &child);
    (void)state;

    assert_int_equal(map_pipe(fd, 0, &m, &err), RELIC_OK);
    assert_int_equal(m.bytes.size, 0);
    assert_non_null(m.bytes.data);
    relic_unmap(&m);
    reap(child, fd);
}

static void test_map_dash_reads_standard_input(void **state)
{
    static const char content[] = "{\"format\": \"bwm\"}\n";
    relic_mapping m;
    relic_error err;
    relic_status status;
    int fds[2], saved_stdin;
    (void)state;

    assert_int_equal(pipe(fds), 0);
    assert_int_equal(write(fds[1], content, sizeof content - 1), (ssize_t)(sizeof content - 1));
    close(fds[1]);
    saved_stdin = dup(STDIN_FILENO);
    assert_true(saved_stdin >= 0);
    assert_int_equal(dup2(fds[0], STDIN_FILENO), STDIN_FILENO);
    close(fds[0]);

    status = relic_map_file("-", 0, &m, &err);

    assert_int_equal(dup2(saved_stdin, STDIN_FILENO), STDIN_FILENO);
    close(saved_stdin);
    assert_int_equal(status, RELIC_OK);
    assert_int_equal(m.bytes.size, sizeof content - 1);
    assert_memory_equal(m.bytes.data, content, sizeof content - 1);
    relic_unmap(&m);
}

static void test_map_rw_changes_reach_the_file(void **state)
{
    const char *dir = *state;
    char path[TEST_PATH_MAX];
    relic_mapping m;
    relic_error err;
    uint8_t *bytes;
    size_t size;

    join_into(path, dir, "patch.wok");

    write_file(path, "abcdef", 6);
    assert_int_equal(relic_map_file_rw(path, &m, &err), RELIC_OK);
    assert_int_equal(m.bytes.size, 6);
    ((uint8_t *)(uintptr_t)m.bytes.data)[2] = 'X';
    relic_unmap(&m);

    bytes = read_file(path, &size);
    assert_int_equal(size, 6);
    assert_memory_equal(bytes, "abXdef", 6);
    free(bytes);
}

static void test_map_rw_refuses_a_directory(void **state)
{
    const char *dir = *state;
    relic_mapping m;
    relic_error err;

    /* Opening a directory O_RDWR fails with EISDIR: an i/o error. */
    assert_int_not_equal(relic_map_file_rw(dir, &m, &err), RELIC_OK);
    assert_non_null(strstr(err.message, dir));
}

static void test_unmap_of_a_zeroed_mapping_is_a_no_op(void **state)
{
    relic_mapping m;
    (void)state;

    memset(&m, 0, sizeof m);
    relic_unmap(&m);
    relic_unmap(&m);
    relic_unmap(NULL);
    assert_null(m.bytes.data);
}

/* ---------------------------------------------------------------------- */
/* Arenas                                                                 */
/* ---------------------------------------------------------------------- */

static void test_buffer_arena_exhaustion_returns_null(void **state)
{
    uint8_t buf[256];
    relic_arena a;
    (void)state;

    relic_arena_init_buffer(&a, buf, sizeof buf);
    assert_non_null(relic_arena_alloc(&a, 200, 1));
    assert_null(relic_arena_alloc(&a, 57, 1));
    assert_non_null(relic_arena_alloc(&a, 56, 1));
    assert_null(relic_arena_alloc(&a, 1, 1));
    relic_arena_release(&a);
}

static void test_buffer_arena_stays_inside_its_buffer(void **state)
{
    uint8_t buf[100];
    relic_arena a;
    uint8_t *p;
    (void)state;

    relic_arena_init_buffer(&a, buf, sizeof buf);
    while ((p = relic_arena_alloc(&a, 7, 8)) != NULL) {
        assert_true(p >= buf);
        assert_true(p + 7 <= buf + sizeof buf);
        assert_int_equal((uintptr_t)p % 8, 0);
    }
    assert_null(a.blocks);
}

static void test_buffer_arena_zero_fills_a_dirty_buffer(void **state)
{
    uint8_t buf[64];
    relic_arena a;
    uint8_t *p;
    size_t i;
    (void)state;

    memset(buf, 0xAB, sizeof buf);
    relic_arena_init_buffer(&a, buf, sizeof buf);
    p = relic_arena_alloc(&a, 40, 1);
    assert_non_null(p);
    for (i = 0; i < 40; i++)
        assert_int_equal(p[i], 0);
}

static void test_buffer_arena_release_makes_it_reusable(void **state)
{
    uint8_t buf[128];
    relic_arena a;
    uint8_t *first, *again;
    (void)state;

    relic_arena_init_buffer(&a, buf, sizeof buf);
    first = relic_arena_alloc(&a, 1, 1);
    assert_non_null(relic_arena_alloc(&a, 100, 16));
    assert_null(relic_arena_alloc(&a, 100, 1));
    relic_arena_release(&a);
    assert_int_equal(a.used, 0);
    again = relic_arena_alloc(&a, 120, 1);
    assert_ptr_equal(again, first);
}

static void test_heap_arena_limit_caps_the_total(void **state)
{
    relic_arena a;
    (void)state;

    relic_arena_init_heap(&a, 1000);
    assert_non_null(relic_arena_alloc(&a, 600, 1));
    assert_null(relic_arena_alloc(&a, 401, 1));
    assert_non_null(relic_arena_alloc(&a, 400, 1));
    assert_int_equal(a.used, 1000);
    assert_null(relic_arena_alloc(&a, 1, 1));
    relic_arena_release(&a);
    assert_non_null(relic_arena_alloc(&a, 1000, 1)); /* released arenas start over */
    relic_arena_release(&a);
}

static void test_heap_arena_limit_refuses_a_huge_request_without_allocating(void **state)
{
    relic_arena a;
    (void)state;

    relic_arena_init_heap(&a, 1 << 20);
    assert_null(relic_arena_alloc(&a, SIZE_MAX / 2, 8));
    assert_null(a.blocks);
    relic_arena_release(&a);
}

static void test_heap_arena_honours_every_alignment(void **state)
{
    relic_arena a;
    size_t align, round;
    (void)state;

    relic_arena_init_heap(&a, 0);
    for (round = 0; round < 3; round++) {
        for (align = 1; align <= 64; align *= 2) {
            uint8_t *odd = relic_arena_alloc(&a, 3, 1); /* misalign cur */
            uint8_t *p = relic_arena_alloc(&a, 5, align);
            assert_non_null(odd);
            assert_non_null(p);
            assert_int_equal((uintptr_t)p % align, 0);
        }
    }
    relic_arena_release(&a);
}

static void test_arena_rejects_invalid_alignment(void **state)
{
    relic_arena a;
    (void)state;

    relic_arena_init_heap(&a, 0);
    assert_null(relic_arena_alloc(&a, 8, 3));
    assert_null(relic_arena_alloc(&a, 8, 128));
    assert_null(relic_arena_alloc(&a, 8, 0));
    relic_arena_release(&a);
}

static void test_arena_array_overflow_returns_null(void **state)
{
    relic_arena a;
    (void)state;

    relic_arena_init_heap(&a, 0);
    assert_null(relic_arena_array(&a, SIZE_MAX / 2 + 1, 2, 1));
    assert_null(relic_arena_array(&a, SIZE_MAX, SIZE_MAX, 8));
    assert_null(a.blocks);
    assert_non_null(relic_arena_array(&a, 10, 12, 4));
    relic_arena_release(&a);
}

static void test_arena_zero_size_allocation_is_not_null(void **state)
{
    uint8_t buf[1];
    relic_arena a;
    (void)state;

    relic_arena_init_buffer(&a, buf, 0);
    assert_non_null(relic_arena_alloc(&a, 0, 64));
    assert_non_null(relic_arena_array(&a, 0, 12, 4));
    assert_int_equal(a.used, 0);
}

static void test_heap_arena_grows_past_one_block_and_zero_fills(void **state)
{
    relic_arena a;
    uint8_t *big, *p = NULL;
    size_t i, k;
    (void)state;

    relic_arena_init_heap(&a, 0);
    for (k = 0; k < 100; k++) { /* ~3 MiB in small pieces: several blocks */
        p = relic_arena_alloc(&a, 30000, 8);
        assert_non_null(p);
        for (i = 0; i < 30000; i += 997)
            assert_int_equal(p[i], 0);
        memset(p, 0xFF, 30000);
    }
    big = relic_arena_alloc(&a, (size_t)100 << 20, 64); /* larger than any block */
    assert_non_null(big);
    assert_int_equal(big[0], 0);
    assert_int_equal(big[((size_t)100 << 20) - 1], 0);
    assert_non_null(a.blocks);
    assert_true(a.used >= 100 * 30000 + ((size_t)100 << 20));
    relic_arena_release(&a);
    assert_null(a.blocks);
    assert_int_equal(a.used, 0);
}

static void test_arena_strndup_copies_len_bytes_and_terminates(void **state)
{
    relic_arena a;
    char *s;
    (void)state;

    relic_arena_init_heap(&a, 0);
    s = relic_arena_strndup(&a, "walkmesh", 4);
    assert_non_null(s);
    assert_string_equal(s, "walk");
    s = relic_arena_strndup(&a, "", 0);
    assert_non_null(s);
    assert_string_equal(s, "");
    relic_arena_release(&a);
}

/* ---------------------------------------------------------------------- */
/* Output buffers                                                         */
/* ---------------------------------------------------------------------- */

static void test_buf_appends_puts_and_printf_in_order(void **state)
{
    relic_buf b;
    (void)state;

    relic_buf_init(&b, 0);
    relic_buf_append(&b, "ab", 2);
    relic_buf_puts(&b, "cd");
    relic_buf_printf(&b, "[%d:%s]", 42, "x");
    assert_false(b.failed);
    assert_int_equal(b.size, 10);
    assert_memory_equal(b.data, "abcd[42:x]", 10);
    relic_buf_free(&b);
    assert_null(b.data);
}

static void test_buf_printf_longer_than_spare_capacity(void **state)
{
    char text[5000];
    relic_buf b;
    (void)state;

    memset(text, 'q', sizeof text - 1);
    text[sizeof text - 1] = '\0';
    relic_buf_init(&b, 0);
    relic_buf_puts(&b, "<");
    relic_buf_printf(&b, "%s>", text);
    assert_false(b.failed);
    assert_int_equal(b.size, 1 + strlen(text) + 1);
    assert_int_equal(b.data[0], '<');
    assert_int_equal(b.data[b.size - 2], 'q');
    assert_int_equal(b.data[b.size - 1], '>');
    relic_buf_free(&b);
}

static void test_buf_limit_failure_is_sticky(void **state)
{
    relic_buf b;
    (void)state;

    relic_buf_init(&b, 8);
    relic_buf_append(&b, "12345", 5);
    assert_false(b.failed);
    relic_buf_append(&b, "6789", 4); /* 9 > 8 */
    assert_true(b.failed);
    assert_int_equal(b.size, 5);
    relic_buf_append(&b, "6", 1); /* would fit, but the buffer has failed */
    relic_buf_printf(&b, "%d", 7);
    assert_null(relic_buf_extend(&b, 1));
    assert_int_equal(b.size, 5);
    assert_memory_equal(b.data, "12345", 5);
    relic_buf_free(&b);
}

static void test_buf_printf_may_fill_exactly_to_the_limit(void **state)
{
    relic_buf b;
    (void)state;

    relic_buf_init(&b, 5);
    relic_buf_printf(&b, "%s", "hello");
    assert_false(b.failed);
    assert_int_equal(b.size, 5);
    assert_memory_equal(b.data, "hello", 5);
    relic_buf_printf(&b, "%s", "!");
    assert_true(b.failed);
    assert_int_equal(b.size, 5);
    relic_buf_free(&b);
}

static void test_buf_in_an_arena_grows_without_the_heap_and_keeps_its_bytes(void **state)
{
    (void)state;
    static uint8_t mem[8192];
    relic_arena a;
    relic_buf b;
    relic_arena_init_buffer(&a, mem, sizeof mem);
    relic_buf_init_arena(&b, &a, 0);
    for (int i = 0; i < 300; i++) relic_buf_printf(&b, "%03d,", i); /* 1200 bytes: several growths */
    assert_false(b.failed);
    assert_int_equal(b.size, 1200);
    assert_memory_equal(b.data, "000,001,", 8);
    assert_memory_equal(b.data + 1196, "299,", 4);
    assert_true(b.data >= mem && b.data + b.size <= mem + sizeof mem);
    /* another allocation in between: the buffer moves and keeps its bytes */
    assert_non_null(relic_arena_alloc(&a, 16, 1));
    relic_buf_append(&b, "end", 3);
    assert_false(b.failed);
    assert_memory_equal(b.data + 1200, "end", 3);
    assert_memory_equal(b.data, "000,", 4);
    /* the arena's end is the buffer's end */
    uint8_t *p = relic_buf_extend(&b, sizeof mem);
    assert_null(p);
    assert_true(b.failed);
}

static void test_buf_over_caller_memory_never_grows(void **state)
{
    (void)state;
    char mem[16];
    relic_buf b;
    relic_buf_init_fixed(&b, mem, sizeof mem);
    relic_buf_puts(&b, "0123456789");
    assert_false(b.failed);
    assert_ptr_equal(b.data, (uint8_t *)mem);
    relic_buf_printf(&b, "%s", "abcde"); /* printf needs a byte for its terminator */
    assert_false(b.failed);
    relic_buf_append(&b, "f", 1);
    assert_false(b.failed);
    assert_int_equal(b.size, 16);
    relic_buf_append(&b, "x", 1);
    assert_true(b.failed);
    assert_memory_equal(mem, "0123456789abcdef", 16);
}

static void test_buf_extend_returns_zero_filled_bytes(void **state)
{
    relic_buf b;
    uint8_t *p;
    size_t i;
    (void)state;

    relic_buf_init(&b, 0);
    p = relic_buf_extend(&b, 300);
    assert_non_null(p);
    memset(p, 0xEE, 300);
    b.size = 100; /* drop the tail, then take it again: must be zero */
    p = relic_buf_extend(&b, 1000);
    assert_non_null(p);
    assert_ptr_equal(p, b.data + 100);
    for (i = 0; i < 1000; i++)
        assert_int_equal(p[i], 0);
    assert_int_equal(b.size, 1100);
    relic_buf_free(&b);
}

/* ---------------------------------------------------------------------- */
/* Atomic output                                                          */
/* ---------------------------------------------------------------------- */

static void test_atomic_write_creates_the_file_with_its_content(void **state)
{
    const char *dir = *state;
    char path[TEST_PATH_MAX];
    relic_error err;
    uint8_t *got;
    size_t size;

    join_into(path, dir, "out.wok");

    assert_int_equal(relic_write_file_atomic(path, "BWM V1.0", 8, NULL, &err), RELIC_OK);
    got = read_file(path, &size);
    assert_int_equal(size, 8);
    assert_memory_equal(got, "BWM V1.0", 8);
    assert_int_equal(count_entries(dir), 1); /* no temporary left over */
    free(got);
}

static void test_atomic_write_replaces_an_existing_file_keeping_its_mode(void **state)
{
    const char *dir = *state;
    char path[TEST_PATH_MAX];
    struct stat st;
    relic_error err;
    uint8_t *got;
    size_t size;

    join_into(path, dir, "out.json");

    write_file(path, "old contents, longer than the new", 33);
    assert_int_equal(chmod(path, 0600), 0);
    assert_int_equal(relic_write_file_atomic(path, "{}", 2, NULL, &err), RELIC_OK);
    got = read_file(path, &size);
    assert_int_equal(size, 2);
    assert_memory_equal(got, "{}", 2);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    free(got);
}

static void test_atomic_write_of_zero_bytes_creates_an_empty_file(void **state)
{
    const char *dir = *state;
    char path[TEST_PATH_MAX];
    struct stat st;
    relic_error err;

    join_into(path, dir, "empty");

    assert_int_equal(relic_write_file_atomic(path, NULL, 0, NULL, &err), RELIC_OK);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 0);
}

static void test_atomic_write_refuses_to_overwrite_the_input(void **state)
{
    const char *dir = *state;
    char path[TEST_PATH_MAX];
    char expected[TEST_PATH_MAX + 256];
    relic_error err;
    uint8_t *got;
    size_t size;

    join_into(path, dir, "in.wok");

    write_file(path, "original", 8);
    assert_int_equal(relic_write_file_atomic(path, "new", 3, path, &err), RELIC_E_ARGUMENT);
    snprintf(expected, sizeof expected, "refusing to overwrite the input file '%s'", path);
    expected[RELIC_ERROR_MESSAGE_MAX - 1] = '\0'; /* as relic_error holds it */
    assert_string_equal(err.message, expected);
    got = read_file(path, &size);
    assert_int_equal(size, 8);
    assert_memory_equal(got, "original", 8);
    assert_int_equal(count_entries(dir), 1);
    free(got);
}

static void test_atomic_write_recognises_the_input_by_inode_not_by_name(void **state)
{
    const char *dir = *state;
    char in[TEST_PATH_MAX], link_path[TEST_PATH_MAX], other[TEST_PATH_MAX];
    relic_error err;

    join_into(in, dir, "in.wok");
    join_into(link_path, dir, "alias.wok");
    join_into(other, dir, "other.wok");

    write_file(in, "original", 8);
    assert_int_equal(link(in, link_path), 0);
    assert_int_equal(relic_write_file_atomic(link_path, "new", 3, in, &err), RELIC_E_ARGUMENT);
    /* A different file is fine, even with the same contents. */
    write_file(other, "original", 8);
    assert_int_equal(relic_write_file_atomic(other, "new", 3, in, &err), RELIC_OK);
}

static void test_atomic_write_into_a_missing_directory_is_io_error(void **state)
{
    const char *dir = *state;
    char path[TEST_PATH_MAX];
    relic_error err;

    join_into(path, dir, "no/such/dir/out.wok");

    assert_int_equal(relic_write_file_atomic(path, "x", 1, NULL, &err), RELIC_E_IO);
    assert_int_equal(err.code, RELIC_E_IO);
    assert_non_null(strstr(err.message, path));
    assert_non_null(strstr(err.message, strerror(ENOENT)));
    assert_int_equal(count_entries(dir), 0);
}

static void test_atomic_write_failure_removes_the_temporary(void **state)
{
    /* The destination is a non-empty directory: refused (now before any
     * temporary is made, it used to be the rename that failed), and no
     * temporary stays behind. */
    const char *dir = *state;
    char sub[TEST_PATH_MAX], inside[TEST_PATH_MAX];
    relic_error err;

    join_into(sub, dir, "sub");
    join_into(inside, sub, "keep");

    assert_int_equal(mkdir(sub, 0700), 0);
    write_file(inside, "k", 1);
    assert_int_equal(relic_write_file_atomic(sub, "data", 4, NULL, &err), RELIC_E_ARGUMENT);
    assert_non_null(strstr(err.message, sub));
    assert_non_null(strstr(err.message, "directory"));
    assert_int_equal(count_entries(dir), 1);
    assert_int_equal(count_entries(sub), 1);
}

static void test_prepared_outputs_commit_together_or_not_at_all(void **state)
{
    /* A multi-file output prepares every file (written, synced, closed)
     * before renaming any: aborting then leaves nothing at all. */
    const char *dir = *state;
    char a_path[TEST_PATH_MAX], b_path[TEST_PATH_MAX];
    relic_out a, b;
    relic_error err;

    join_into(a_path, dir, "level.obj");
    join_into(b_path, dir, "level.mtl");
    assert_int_equal(relic_out_open(&a, a_path, NULL, &err), RELIC_OK);
    assert_int_equal(relic_out_open(&b, b_path, NULL, &err), RELIC_OK);
    assert_int_equal(relic_out_write(&a, "o\n", 2, &err), RELIC_OK);
    assert_int_equal(relic_out_write(&b, "m\n", 2, &err), RELIC_OK);
    assert_int_equal(relic_out_prepare(&a, &err), RELIC_OK);
    assert_int_equal(relic_out_prepare(&b, &err), RELIC_OK);
    assert_int_equal(count_entries(dir), 2); /* the two temporaries */
    relic_out_abort(&a);
    relic_out_abort(&b);
    assert_int_equal(count_entries(dir), 0);

    assert_int_equal(relic_out_open(&a, a_path, NULL, &err), RELIC_OK);
    assert_int_equal(relic_out_open(&b, b_path, NULL, &err), RELIC_OK);
    assert_int_equal(relic_out_write(&a, "o\n", 2, &err), RELIC_OK);
    assert_int_equal(relic_out_write(&b, "m\n", 2, &err), RELIC_OK);
    assert_int_equal(relic_out_prepare(&a, &err), RELIC_OK);
    assert_int_equal(relic_out_prepare(&b, &err), RELIC_OK);
    assert_int_equal(relic_out_commit(&a, &err), RELIC_OK);
    assert_int_equal(relic_out_commit(&b, &err), RELIC_OK);
    assert_int_equal(count_entries(dir), 2);
    assert_int_equal(access(a_path, F_OK), 0);
    assert_int_equal(access(b_path, F_OK), 0);
}

static void test_output_through_a_symlink_keeps_the_link(void **state)
{
    const char *dir = *state;
    char target[TEST_PATH_MAX], link[TEST_PATH_MAX];
    relic_error err;
    struct stat st;

    join_into(target, dir, "target.txt");
    join_into(link, dir, "link.txt");
    write_file(target, "old", 3);
    assert_int_equal(symlink("target.txt", link), 0);
    assert_int_equal(relic_write_file_atomic(link, "new!", 4, NULL, &err), RELIC_OK);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(stat(target, &st), 0);
    assert_int_equal(st.st_size, 4);
    assert_int_equal(count_entries(dir), 2);
}

static void test_atomic_write_dash_goes_to_standard_output(void **state)
{
    const char *dir = *state;
    char path[TEST_PATH_MAX];
    relic_status status;
    relic_error err;
    int fd, saved_stdout;
    uint8_t *got;
    size_t size;

    join_into(path, dir, "stdout.txt");

    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    fflush(stdout);
    saved_stdout = dup(STDOUT_FILENO);
    assert_true(saved_stdout >= 0);
    assert_int_equal(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
    close(fd);

    status = relic_write_file_atomic("-", "to stdout", 9, "-", &err);

    fflush(stdout);
    assert_int_equal(dup2(saved_stdout, STDOUT_FILENO), STDOUT_FILENO);
    close(saved_stdout);
    assert_int_equal(status, RELIC_OK);
    got = read_file(path, &size);
    assert_int_equal(size, 9);
    assert_memory_equal(got, "to stdout", 9);
    free(got);
}

/* ---------------------------------------------------------------------- */
/* Format detection                                                       */
/* ---------------------------------------------------------------------- */

static void test_detect_magic_beats_extension(void **state)
{
    static const uint8_t bwm[] = "BWM V1.0\x01\x00\x00\x00";
    static const uint8_t json[] = "{\"format\":\"bwm\"}";
    (void)state;

    assert_int_equal(relic_detect(bwm, sizeof bwm - 1, "walkmesh.json"), RELIC_FORMAT_BWM);
    assert_int_equal(relic_detect(json, sizeof json - 1, "m01aa.wok"), RELIC_FORMAT_JSON);
    assert_int_equal(relic_detect(bwm, sizeof bwm - 1, NULL), RELIC_FORMAT_BWM);
}

static void test_detect_json_after_whitespace_and_byte_order_mark(void **state)
{
    static const uint8_t spaced[] = " \t\r\n {}";
    static const uint8_t bom[] = "\xEF\xBB\xBF\n{}";
    static const uint8_t array[] = "[1]";
    (void)state;

    assert_int_equal(relic_detect(spaced, sizeof spaced - 1, NULL), RELIC_FORMAT_JSON);
    assert_int_equal(relic_detect(bom, sizeof bom - 1, NULL), RELIC_FORMAT_JSON);
    assert_int_equal(relic_detect(array, sizeof array - 1, NULL), RELIC_FORMAT_UNKNOWN);
}

static void test_detect_short_or_near_magic_falls_back_to_extension(void **state)
{
    static const uint8_t short_magic[] = "BWM V1.";
    static const uint8_t other_version[] = "BWM V2.0";
    (void)state;

    assert_int_equal(relic_detect(short_magic, sizeof short_magic - 1, "x.obj"), RELIC_FORMAT_OBJ);
    assert_int_equal(relic_detect(other_version, sizeof other_version - 1, NULL),
                     RELIC_FORMAT_UNKNOWN);
    assert_int_equal(relic_detect(short_magic, 0, NULL), RELIC_FORMAT_UNKNOWN);
}

static void test_detect_by_extension_ignores_case(void **state)
{
    (void)state;

    assert_int_equal(relic_detect(NULL, 0, "M01AA.WOK"), RELIC_FORMAT_BWM);
    assert_int_equal(relic_detect(NULL, 0, "dir/door.Dwk"), RELIC_FORMAT_BWM);
    assert_int_equal(relic_detect(NULL, 0, "chair.pwk"), RELIC_FORMAT_BWM);
    assert_int_equal(relic_detect(NULL, 0, "mesh.json"), RELIC_FORMAT_JSON);
    assert_int_equal(relic_detect(NULL, 0, "mesh.OBJ"), RELIC_FORMAT_OBJ);
    assert_int_equal(relic_detect(NULL, 0, "map.svg"), RELIC_FORMAT_SVG);
}

static void test_detect_unknown_names_and_data(void **state)
{
    static const uint8_t text[] = "hello";
    (void)state;

    assert_int_equal(relic_detect(NULL, 0, NULL), RELIC_FORMAT_UNKNOWN);
    assert_int_equal(relic_detect(text, sizeof text - 1, "notes.txt"), RELIC_FORMAT_UNKNOWN);
    assert_int_equal(relic_detect(NULL, 0, "wok"), RELIC_FORMAT_UNKNOWN);
    assert_int_equal(relic_detect(NULL, 0, "x.wokbak"), RELIC_FORMAT_UNKNOWN);
    assert_int_equal(relic_detect(NULL, 0, "x.wok/readme"), RELIC_FORMAT_UNKNOWN);
}

static void test_format_names(void **state)
{
    (void)state;

    assert_string_equal(relic_format_name(RELIC_FORMAT_UNKNOWN), "unknown");
    assert_string_equal(relic_format_name(RELIC_FORMAT_BWM), "bwm");
    assert_string_equal(relic_format_name(RELIC_FORMAT_JSON), "json");
    assert_string_equal(relic_format_name(RELIC_FORMAT_OBJ), "obj");
    assert_string_equal(relic_format_name(RELIC_FORMAT_SVG), "svg");
}

/* relic_formats[] is generated from the schemas' `detect` lines: each entry
 * is complete, found by its own extensions, and unique by name. */
static void test_detection_table_entries_are_complete(void **state)
{
    size_t n = 0;
    (void)state;

    for (const relic_format_info *const *f = relic_formats; *f != NULL; f++, n++) {
        assert_non_null((*f)->name);
        assert_non_null((*f)->extensions);
        assert_non_null((*f)->extensions[0]);
        assert_true((*f)->magic_count > 0 || (*f)->detect != NULL);
        for (const char *const *e = (*f)->extensions; *e != NULL; e++) {
            char name[32];
            snprintf(name, sizeof name, "x.%s", *e);
            assert_ptr_equal(relic_detect(NULL, 0, name), *f);
        }
        for (const relic_format_info *const *g = relic_formats; g != f; g++)
            assert_string_not_equal((*g)->name, (*f)->name);
    }
    assert_true(n >= 9); /* bwm erf gff trn cau groff pid tpa wtd */
}

static void test_detect_magic_from_the_schemas(void **state)
{
    static const uint8_t gff[] = "ARE V3.2";
    static const uint8_t trn[] = "NWN2\x02\x00\x03\x00\x00\x00\x00\x00";
    static const uint8_t mdb[] = "NWN2\x01\x00\x03\x00\x00\x00\x00\x00";
    (void)state;

    assert_ptr_equal(relic_detect(gff, sizeof gff - 1, NULL), RELIC_FORMAT_GFF);
    assert_ptr_equal(relic_detect(trn, sizeof trn - 1, NULL), RELIC_FORMAT_TRN);
    assert_ptr_equal(relic_detect(mdb, sizeof mdb - 1, NULL), RELIC_FORMAT_UNKNOWN);
    assert_true(relic_format_match(RELIC_FORMAT_BWM, (const uint8_t *)"BWM V1.0", 8));
    assert_false(relic_format_match(RELIC_FORMAT_BWM, (const uint8_t *)"BWM V1.0", 7));
    assert_false(relic_format_match(RELIC_FORMAT_JSON, (const uint8_t *)"{}", 2));
}

static void test_path_extension_is_the_lower_cased_last_suffix(void **state)
{
    char buf[16];
    (void)state;

    assert_string_equal(relic_path_extension("m01aa.WOK", buf, sizeof buf), "wok");
    assert_string_equal(relic_path_extension("a/b.tar.GZ", buf, sizeof buf), "gz");
    assert_ptr_equal(relic_path_extension("x.obj", buf, sizeof buf), buf);
}

static void test_path_extension_is_empty_when_there_is_none(void **state)
{
    char buf[16];
    (void)state;

    assert_string_equal(relic_path_extension("Makefile", buf, sizeof buf), "");
    assert_string_equal(relic_path_extension("dir.d/file", buf, sizeof buf), "");
    assert_string_equal(relic_path_extension(".profile", buf, sizeof buf), "");
    assert_string_equal(relic_path_extension("dir/.profile", buf, sizeof buf), "");
    assert_string_equal(relic_path_extension("trailing.", buf, sizeof buf), "");
    assert_string_equal(relic_path_extension(NULL, buf, sizeof buf), "");
}

static void test_path_extension_too_long_for_the_buffer_is_empty_not_cut(void **state)
{
    char buf[4];
    (void)state;

    assert_string_equal(relic_path_extension("x.wokx", buf, sizeof buf), "");
    assert_string_equal(relic_path_extension("x.wok", buf, sizeof buf), "wok");
    assert_null(relic_path_extension("x.wok", NULL, 0));
}

static void test_member_names_with_control_bytes_separators_or_dots_are_refused(void **state)
{
    (void)state;
    size_t at;
    assert_null(relic_member_name_problem("c_bastila", 9, 1, &at));
    assert_string_equal(relic_member_name_problem("ab\ncd", 5, 0, &at), "control character");
    assert_int_equal(at, 2);
    assert_string_equal(relic_member_name_problem("a\x1b[31m", 6, 0, &at), "control character");
    assert_int_equal(at, 1);
    assert_string_equal(relic_member_name_problem("del\x7f", 4, 0, &at), "control character");
    assert_string_equal(relic_member_name_problem("up/x", 4, 0, &at), "path separator");
    assert_int_equal(at, 2);
    assert_string_equal(relic_member_name_problem("up\\x", 4, 0, &at), "path separator");
    assert_non_null(relic_member_name_problem("..", 2, 0, &at));
    assert_non_null(relic_member_name_problem(".", 1, 0, &at));
    /* what the games take but tools should not write: only under strict */
    const char *const strict_only[] = {"a:b", "a..b", "name ", "dot.", "caf\xe9", ""};
    for (size_t i = 0; i < sizeof strict_only / sizeof strict_only[0]; i++) {
        size_t n = strlen(strict_only[i]);
        assert_null(relic_member_name_problem(strict_only[i], n, 0, &at));
        assert_non_null(relic_member_name_problem(strict_only[i], n, 1, &at));
    }
}

/* ---------------------------------------------------------------------- */
/* relic_find_overlaps                                                    */
/* ---------------------------------------------------------------------- */

typedef struct overlaps_seen {
    uint32_t index[8], earlier[8];
    int n;
} overlaps_seen;

static int note_overlap(void *ctx, const relic_range *r, uint32_t earlier)
{
    overlaps_seen *o = ctx;
    o->index[o->n] = r->index;
    o->earlier[o->n++] = earlier;
    return 0;
}

static void test_overlaps_are_found_past_the_neighbour(void **state)
{
    (void)state;
    /* [30,40) lies inside [0,100) but not inside its neighbour [10,20) in
     * start order: a check of neighbours alone misses it */
    relic_range r[] = {{30, 40, 2}, {100, 110, 3}, {0, 100, 0}, {10, 20, 1}};
    relic_arena a;
    overlaps_seen o = {{0}, {0}, 0};
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_find_overlaps(r, 4, &a, note_overlap, &o), RELIC_OK);
    assert_int_equal(o.n, 2);
    assert_int_equal(o.index[0], 1);
    assert_int_equal(o.earlier[0], 0);
    assert_int_equal(o.index[1], 2);
    assert_int_equal(o.earlier[1], 0);
    relic_arena_release(&a);
}

static void test_touching_ranges_do_not_overlap(void **state)
{
    (void)state;
    relic_range r[] = {{10, 20, 1}, {0, 10, 0}, {20, 30, 2}};
    relic_arena a;
    overlaps_seen o = {{0}, {0}, 0};
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_find_overlaps(r, 3, &a, note_overlap, &o), RELIC_OK);
    assert_int_equal(o.n, 0);
    relic_arena_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        /* errors */
        cmocka_unit_test(test_status_names_are_distinct_and_stable),
        cmocka_unit_test(test_overlaps_are_found_past_the_neighbour),
        cmocka_unit_test(test_touching_ranges_do_not_overlap),
        cmocka_unit_test(test_buf_in_an_arena_grows_without_the_heap_and_keeps_its_bytes),
        cmocka_unit_test(test_buf_over_caller_memory_never_grows),
        cmocka_unit_test(test_fail_fills_every_field_and_returns_the_code),
        cmocka_unit_test(test_fail_without_error_struct_still_returns_the_code),
        cmocka_unit_test(test_fail_with_null_path_leaves_path_empty),
        cmocka_unit_test(test_fail_truncates_a_long_path_and_keeps_it_terminated),
        cmocka_unit_test(test_fail_truncates_a_long_message_and_keeps_it_terminated),
        cmocka_unit_test(test_fail_may_rewrap_its_own_path_and_message),
        cmocka_unit_test(test_error_clear_resets_to_no_error),
        cmocka_unit_test(test_error_print_is_file_path_offset_message),
        cmocka_unit_test(test_error_print_omits_an_empty_path),
        cmocka_unit_test(test_error_print_offset_is_unpadded_lower_case_hex),
        cmocka_unit_test(test_error_print_escapes_control_bytes_and_prints_the_largest_offset),
        /* file mapping */
        fs_test(test_map_regular_file_is_mmapped_with_its_bytes),
        fs_test(test_map_max_size_does_not_apply_to_mapped_files),
        fs_test(test_map_empty_file_gives_size_zero_and_non_null_data),
        fs_test(test_map_missing_file_is_io_error_naming_the_file),
        fs_test(test_map_directory_is_io_error),
        cmocka_unit_test(test_map_pipe_is_read_into_heap_memory),
        cmocka_unit_test(test_map_pipe_larger_than_max_size_is_limit_error),
        cmocka_unit_test(test_map_pipe_of_exactly_max_size_is_accepted),
        cmocka_unit_test(test_map_empty_pipe_gives_size_zero),
        cmocka_unit_test(test_map_dash_reads_standard_input),
        fs_test(test_map_rw_changes_reach_the_file),
        fs_test(test_map_rw_refuses_a_directory),
        cmocka_unit_test(test_unmap_of_a_zeroed_mapping_is_a_no_op),
        /* arenas */
        cmocka_unit_test(test_buffer_arena_exhaustion_returns_null),
        cmocka_unit_test(test_buffer_arena_stays_inside_its_buffer),
        cmocka_unit_test(test_buffer_arena_zero_fills_a_dirty_buffer),
        cmocka_unit_test(test_buffer_arena_release_makes_it_reusable),
        cmocka_unit_test(test_heap_arena_limit_caps_the_total),
        cmocka_unit_test(test_heap_arena_limit_refuses_a_huge_request_without_allocating),
        cmocka_unit_test(test_heap_arena_honours_every_alignment),
        cmocka_unit_test(test_arena_rejects_invalid_alignment),
        cmocka_unit_test(test_arena_array_overflow_returns_null),
        cmocka_unit_test(test_arena_zero_size_allocation_is_not_null),
        cmocka_unit_test(test_heap_arena_grows_past_one_block_and_zero_fills),
        cmocka_unit_test(test_arena_strndup_copies_len_bytes_and_terminates),
        /* output buffers */
        cmocka_unit_test(test_buf_appends_puts_and_printf_in_order),
        cmocka_unit_test(test_buf_printf_longer_than_spare_capacity),
        cmocka_unit_test(test_buf_limit_failure_is_sticky),
        cmocka_unit_test(test_buf_printf_may_fill_exactly_to_the_limit),
        cmocka_unit_test(test_buf_extend_returns_zero_filled_bytes),
        /* atomic output */
        fs_test(test_atomic_write_creates_the_file_with_its_content),
        fs_test(test_atomic_write_replaces_an_existing_file_keeping_its_mode),
        fs_test(test_atomic_write_of_zero_bytes_creates_an_empty_file),
        fs_test(test_atomic_write_refuses_to_overwrite_the_input),
        fs_test(test_atomic_write_recognises_the_input_by_inode_not_by_name),
        fs_test(test_atomic_write_into_a_missing_directory_is_io_error),
        fs_test(test_atomic_write_failure_removes_the_temporary),
        fs_test(test_atomic_write_dash_goes_to_standard_output),
        fs_test(test_prepared_outputs_commit_together_or_not_at_all),
        fs_test(test_output_through_a_symlink_keeps_the_link),
        /* format detection */
        cmocka_unit_test(test_detect_magic_beats_extension),
        cmocka_unit_test(test_detect_json_after_whitespace_and_byte_order_mark),
        cmocka_unit_test(test_detect_short_or_near_magic_falls_back_to_extension),
        cmocka_unit_test(test_detect_by_extension_ignores_case),
        cmocka_unit_test(test_detect_unknown_names_and_data),
        cmocka_unit_test(test_format_names),
        cmocka_unit_test(test_detection_table_entries_are_complete),
        cmocka_unit_test(test_detect_magic_from_the_schemas),
        cmocka_unit_test(test_path_extension_is_the_lower_cased_last_suffix),
        cmocka_unit_test(test_path_extension_is_empty_when_there_is_none),
        cmocka_unit_test(test_path_extension_too_long_for_the_buffer_is_empty_not_cut),
        cmocka_unit_test(test_member_names_with_control_bytes_separators_or_dots_are_refused),
    };
    return cmocka_run_group_tests_name("runtime", tests, NULL, NULL);
}
