/* test_abi.c — the plain exported entry points of relic_abi.h (the Python
 * package's way into librelic): detection, checks reported as code / offset
 * / path / message, JSON both ways through the C writers, and the format
 * algorithms, on tests/samples/room.wok (run from the repository root). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>

#include "relic.h"
#include "relic_abi.h"
#include "relic_erf.h"

#define ROOM "tests/samples/room.wok"
#define CORPUS_CONTAINERS "../shared/corpus/other"

typedef struct problems {
    int count;
    int code;
    uint64_t offset;
    char path[128];
    char message[256];
} problems;

static void on_problem(void *user, int code, uint64_t offset, const char *path, const char *message)
{
    problems *p = user;
    if (p->count++ == 0) {
        p->code = code;
        p->offset = offset;
        snprintf(p->path, sizeof p->path, "%s", path);
        snprintf(p->message, sizeof p->message, "%s", message);
    }
}

typedef struct sink {
    uint8_t *data;
    size_t size;
} sink;

static void on_output(void *user, const uint8_t *data, size_t size)
{
    sink *s = user;
    free(s->data);
    s->data = malloc(size ? size : 1);
    assert_non_null(s->data);
    memcpy(s->data, data, size);
    s->size = size;
}

static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = malloc((size_t)n);
    assert_non_null(d);
    assert_int_equal(fread(d, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return d;
}

static void detect_names_the_format(void **state)
{
    (void)state;
    size_t n;
    uint8_t *d = slurp(ROOM, &n);
    assert_string_equal(relic_abi_detect(d, n, "room.wok"), "bwm");
    assert_string_equal(relic_abi_detect(d, n, NULL), "bwm");
    assert_null(relic_abi_detect((const uint8_t *)"nothing", 7, "x.unknown"));
    free(d);
}

static void a_valid_file_has_no_problem(void **state)
{
    (void)state;
    size_t n;
    uint8_t *d = slurp(ROOM, &n);
    problems p = {0};
    assert_int_equal(relic_abi_check("bwm", d, n, on_problem, &p), 0);
    assert_int_equal(p.count, 0);
    assert_int_equal(relic_abi_check("no-such-format", d, n, on_problem, &p), -1);
    free(d);
}

static void a_bad_index_is_reported_with_path_and_offset(void **state)
{
    (void)state;
    size_t n;
    uint8_t *d = slurp(ROOM, &n);
    const uint32_t face_offset = 556, bad = 999; /* room.wok's faces start at 556 */
    memcpy(d + face_offset, &bad, 4);
    problems p = {0};
    assert_true(relic_abi_check("bwm", d, n, on_problem, &p) >= 1);
    assert_int_equal(p.code, RELIC_E_INDEX);
    assert_int_equal(p.offset, face_offset);
    assert_string_equal(p.path, "faces[0].v[0]");
    free(d);
}

static void a_truncated_file_is_a_problem_not_a_crash(void **state)
{
    (void)state;
    size_t n;
    uint8_t *d = slurp(ROOM, &n);
    for (size_t k = 0; k < n; k += 97) {
        problems p = {0};
        assert_true(relic_abi_check("bwm", d, k, on_problem, &p) >= 1);
        assert_true(p.count >= 1);
    }
    free(d);
}

static void json_both_ways_gives_the_input_back(void **state)
{
    (void)state;
    size_t n;
    uint8_t *d = slurp(ROOM, &n);
    sink j = {0}, back = {0};
    problems p = {0};
    assert_int_equal(relic_abi_to_json("bwm", d, n, on_output, &j, on_problem, &p), 0);
    assert_true(j.size > 0 && j.data[0] == '{');
    assert_int_equal(relic_abi_from_json("bwm", (const char *)j.data, j.size, on_output, &back, on_problem, &p), 0);
    assert_int_equal(back.size, n);
    assert_memory_equal(back.data, d, n);
    assert_int_equal(relic_abi_from_json("bwm", "{\"format\":", 10, on_output, &back, on_problem, &p), 1);
    assert_int_equal(p.count, 1);
    free(j.data);
    free(back.data);
    free(d);
}

static void build_from_geometry_validates(void **state)
{
    (void)state;
    const float v[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    const uint32_t f[2][3] = {{0, 1, 2}, {0, 2, 3}};
    const uint32_t m[2] = {7, 4}; /* non-walkable first: the builder puts the walkable face first */
    sink out = {0};
    problems p = {0};
    assert_int_equal(relic_abi_bwm_build(1, &v[0][0], 4, &f[0][0], m, 2, on_output, &out, on_problem, &p), 0);
    assert_int_equal(relic_abi_check("bwm", out.data, out.size, on_problem, &p), 0);
    sink again = {0};
    assert_int_equal(relic_abi_bwm_rebuild(out.data, out.size, 15, on_output, &again, on_problem, &p), 0);
    assert_int_equal(again.size, out.size);
    assert_memory_equal(again.data, out.data, out.size);
    const uint32_t bad[2][3] = {{0, 1, 9}, {0, 2, 3}};
    assert_true(relic_abi_bwm_build(1, &v[0][0], 4, &bad[0][0], m, 2, on_output, &out, on_problem, &p) >= 1);
    assert_int_equal(p.code, RELIC_E_INDEX);
    free(out.data);
    free(again.data);
}

/* A RIM from a listing whose entries give only their names: the type comes
 * from the extension, the ids are the indices, the data back to back. */
static void a_container_is_written_from_its_listing_and_bytes(void **state)
{
    (void)state;
    const char *json = "{\"format\": \"rim\", \"entries\": [{\"name\": \"a.txt\"}, {\"name\": \"b.2027\"}]}";
    const uint8_t a[] = "hello", b[] = "world!";
    const uint8_t *data[] = {a, b};
    const uint64_t sizes[] = {5, 6};
    sink out = {0}, listing = {0};
    problems p = {0};
    assert_int_equal(relic_abi_container_write(json, strlen(json), data, sizes, 2, on_output, &out, on_problem, &p), 0);
    assert_int_equal(relic_abi_check("erf", out.data, out.size, on_problem, &p), 0);
    assert_int_equal(out.size, 120 + 2 * 32 + 11); /* RIM header, two 32-byte entries, the data */
    assert_memory_equal(out.data + out.size - 11, "helloworld!", 11);
    assert_int_equal(relic_abi_to_json("erf", out.data, out.size, on_output, &listing, on_problem, &p), 0);
    assert_non_null(strstr((const char *)listing.data, "\"name\": \"b.utc\", \"resref\": \"b\", \"type\": 2027, \"id\": 1"));
    /* the listing the ABI gives writes the same bytes back (its layout kept) */
    sink again = {0};
    assert_int_equal(relic_abi_container_write((const char *)listing.data, listing.size, data, sizes, 2, on_output, &again,
                                               on_problem, &p),
                     0);
    assert_int_equal(again.size, out.size);
    assert_memory_equal(again.data, out.data, out.size);
    free(out.data);
    free(listing.data);
    free(again.data);
}

static void a_bad_container_listing_is_a_problem_with_its_path(void **state)
{
    (void)state;
    const uint8_t a[] = "x";
    const uint8_t *data[] = {a};
    const uint64_t sizes[] = {1};
    sink out = {0};
    problems p = {0};
    const char *two = "{\"format\": \"rim\", \"entries\": [{\"name\": \"a.txt\"}, {\"name\": \"b.txt\"}]}";
    assert_int_equal(relic_abi_container_write(two, strlen(two), data, sizes, 1, on_output, &out, on_problem, &p), 1);
    assert_int_equal(p.code, RELIC_E_ARGUMENT);
    assert_string_equal(p.path, "entries");
    problems q = {0};
    const char *ext = "{\"format\": \"rim\", \"entries\": [{\"name\": \"a.nosuchext\"}]}";
    assert_int_equal(relic_abi_container_write(ext, strlen(ext), data, sizes, 1, on_output, &out, on_problem, &q), 1);
    assert_int_equal(q.code, RELIC_E_RANGE);
    assert_string_equal(q.path, "entries[0].name");
    const char *bwm = "{\"format\": \"bwm\"}";
    assert_int_equal(relic_abi_container_write(bwm, strlen(bwm), data, sizes, 1, on_output, &out, on_problem, &q), -1);
    assert_null(out.data);
}

/* An offset past the listing's file size is not kept: the data are packed. */
static void a_container_offset_past_its_file_size_is_packed(void **state)
{
    (void)state;
    const char *json = "{\"format\": \"rim\", \"file_size\": 5, \"entries\": [{\"name\": \"a.txt\", "
                       "\"offset\": 4000000000, \"size\": 1}]}";
    const uint8_t a[] = "x";
    const uint8_t *data[] = {a};
    const uint64_t sizes[] = {1};
    sink out = {0};
    problems p = {0};
    assert_int_equal(relic_abi_container_write(json, strlen(json), data, sizes, 1, on_output, &out, on_problem, &p), 0);
    assert_int_equal(out.size, 120 + 32 + 1);
    assert_int_equal(out.data[out.size - 1], 'x');
    free(out.data);
}

/* Every corpus ERF/MOD/RIM: its listing (relic_abi_to_json) and its
 * members' bytes in place write the file back byte for byte. */
static void every_corpus_container_is_written_back_from_its_listing(void **state)
{
    (void)state;
    DIR *d = opendir(CORPUS_CONTAINERS);
    if (!d) {
        printf("note: %s absent: corpus part skipped\n", CORPUS_CONTAINERS);
        skip();
    }
    struct dirent *de;
    int seen = 0;
    while ((de = readdir(d))) {
        char path[512];
        size_t n;
        snprintf(path, sizeof path, "%s/%s", CORPUS_CONTAINERS, de->d_name);
        if (de->d_name[0] == '.') continue;
        uint8_t *in = slurp(path, &n);
        const char *f = relic_abi_detect(in, n, de->d_name);
        if (f && !strcmp(f, "erf")) {
            relic_arena a;
            relic_erf_archive ar;
            relic_error err;
            relic_arena_init_heap(&a, 0);
            assert_int_equal(relic_erf_open(in, n, &a, &ar, &err), RELIC_OK);
            const uint8_t **data = calloc(ar.count + 1, sizeof *data);
            uint64_t *sizes = calloc(ar.count + 1, sizeof *sizes);
            assert_true(data && sizes);
            for (uint32_t i = 0; i < ar.count; i++) data[i] = ar.entries[i].data, sizes[i] = ar.entries[i].size;
            sink listing = {0}, out = {0};
            problems p = {0};
            assert_int_equal(relic_abi_to_json("erf", in, n, on_output, &listing, on_problem, &p), 0);
            assert_int_equal(relic_abi_container_write((const char *)listing.data, listing.size, data, sizes, ar.count, on_output,
                                                       &out, on_problem, &p),
                             0);
            assert_int_equal(out.size, n);
            assert_memory_equal(out.data, in, n);
            seen++;
            free(listing.data);
            free(out.data);
            free(data);
            free(sizes);
            relic_arena_release(&a);
        }
        free(in);
    }
    closedir(d);
    assert_true(seen > 0);
}

/* A BIF whose offsets do not fit (0: inside the header) is laid out packed. */
static void a_bif_is_written_packed_when_its_offsets_do_not_hold(void **state)
{
    (void)state;
    const char *json = "{\"format\": \"bif\", \"header\": {\"file_type\": \"BIFF\", \"file_version\": \"V1  \", "
                       "\"fixed_resource_count\": 0}, \"variable_resources\": [{\"id\": 0, \"offset\": 0, "
                       "\"file_size\": 0, \"res_type\": 10}, {\"id\": 1, \"offset\": 0, \"file_size\": 0, \"res_type\": 10}]}";
    const uint8_t a[] = "abc", b[] = "defg";
    const uint8_t *data[] = {a, b};
    const uint64_t sizes[] = {3, 4};
    sink out = {0};
    problems p = {0};
    assert_int_equal(relic_abi_container_write(json, strlen(json), data, sizes, 2, on_output, &out, on_problem, &p), 0);
    assert_int_equal(out.size, 20 + 2 * 16 + 7);
    assert_int_equal(relic_abi_check("bif", out.data, out.size, on_problem, &p), 0);
    assert_memory_equal(out.data + 52, "abcdefg", 7);
    free(out.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(detect_names_the_format),
        cmocka_unit_test(a_valid_file_has_no_problem),
        cmocka_unit_test(a_bad_index_is_reported_with_path_and_offset),
        cmocka_unit_test(a_truncated_file_is_a_problem_not_a_crash),
        cmocka_unit_test(json_both_ways_gives_the_input_back),
        cmocka_unit_test(build_from_geometry_validates),
        cmocka_unit_test(a_container_is_written_from_its_listing_and_bytes),
        cmocka_unit_test(a_bad_container_listing_is_a_problem_with_its_path),
        cmocka_unit_test(a_container_offset_past_its_file_size_is_packed),
        cmocka_unit_test(every_corpus_container_is_written_back_from_its_listing),
        cmocka_unit_test(a_bif_is_written_packed_when_its_offsets_do_not_hold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
