/* test_tres.c — Trespasser GROFF (GRF, SCN) and PID files end to end
 * through the generated code (schema/tres/groff.schema, pid.schema) and the
 * hand-written rules (runtime/formats/tres/groff_check.c, pid_check.c), SZDD-compressed
 * GRFs (runtime/formats/tres/groff_open.c), and the name hash (runtime/formats/tres/tres_names.c)
 * against Trespasser source, Lib/Std/Hash.cpp, Lib/Groff/FileIO.cpp and the real files: every corpus file
 * validates, keeps the rules (strict too) and round-trips byte for byte
 * through the model and JSON; SCN section names and PID texture IDs are
 * hashes of the GRF's names; truncated and mutated files are rejected with a
 * message, never a crash (ASan+UBSan in `make test`). Real files:
 * ../shared/corpus/{grf,scn,pid} (skipped, saying so, when absent). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relic_audio.h"
#include "relic_groff.h"
#include "relic_lzss.h"
#include "relic_tres_names.h"

#define CORPUS "../shared/corpus"
#define DEMO_GRF CORPUS "/grf/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo.grf"
#define DEMO_SCN CORPUS "/scn/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo.scn"
#define DEMO_PID CORPUS "/pid/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo-130.pid"

typedef struct file_list {
    char *paths[64];
    int n;
} file_list;

static void list_dir(const char *dir, file_list *fl)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) && fl->n < 64) {
        if (e->d_name[0] == '.') continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        fl->paths[fl->n] = malloc(n);
        snprintf(fl->paths[fl->n], n, "%s/%s", dir, e->d_name);
        fl->n++;
    }
    closedir(d);
    for (int i = 1; i < fl->n; i++)
        for (int j = i; j > 0 && strcmp(fl->paths[j - 1], fl->paths[j]) > 0; j--) {
            char *t = fl->paths[j];
            fl->paths[j] = fl->paths[j - 1];
            fl->paths[j - 1] = t;
        }
}

static void free_list(file_list *fl)
{
    for (int i = 0; i < fl->n; i++) free(fl->paths[i]);
    fl->n = 0;
}

static file_list groff_files(void)
{
    file_list fl = {.n = 0};
    list_dir(CORPUS "/grf", &fl);
    list_dir(CORPUS "/scn", &fl);
    if (fl.n == 0) print_message("note: %s not found: the real-file part of this test is skipped\n", CORPUS);
    return fl;
}

static int have(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        print_message("note: %s not found: this test is skipped\n", path);
        return 0;
    }
    fclose(f);
    return 1;
}

static void count_problem(void *ctx, const relic_error *e)
{
    (void)e;
    (*(int *)ctx)++;
}

/* ---- name hash (Trespasser source, Lib/Std/Hash.cpp) ---- */

static void test_hash_is_crc32(void **state)
{
    (void)state;
    assert_int_equal(relic_tres_hash("123456789", 9), 0xCBF43926u);
}

static void test_object_hash_of_scn_names(void **state)
{
    (void)state;
    char name[9];
    assert_int_equal(relic_tres_object_hash("Player", 6), 0x9FB57F53u);
    assert_int_equal(relic_tres_object_hash("AI System", 9), 0xA9AC56AEu);
    relic_tres_section_name(0x01616099u, name);
    assert_string_equal(name, "1616099");
    uint32_t h;
    assert_true(relic_tres_parse_section_name("9FB57F53", 8, &h));
    assert_int_equal(h, 0x9FB57F53u);
    assert_false(relic_tres_parse_section_name("09FB57F5", 8, &h));
    assert_false(relic_tres_parse_section_name("Header", 6, &h));
    assert_false(relic_tres_parse_section_name("9fb57f53", 8, &h));
}

static void test_sound_hash_lowercases_and_slashes(void **state)
{
    (void)state;
    assert_int_equal(relic_tres_sound_hash("MISSING", 7), 0xF0A07BD9u);
    assert_int_equal(relic_tres_sound_hash("A\\B", 3), relic_tres_hash("a/b", 3));
}

static void test_texture_id_normalises_and_adds_diffuse(void **state)
{
    (void)state;
    /* "Map\X\At2.bmp" + bump "" + 1.0f == CRC of "map/x/at2.bmp" 00 00 80 3F */
    const char raw[] = "map/x/at2.bmp\x00\x00\x80\x3f";
    assert_int_equal(relic_tres_texture_id("Map\\X\\At2.bmp", 13, NULL, 0, 1.0f), relic_tres_hash(raw, 17));
    assert_int_equal(relic_tres_texture_id("a", 1, "B", 1, 1.0f), relic_tres_texture_id("ab", 2, "", 0, 1.0f));
    assert_int_not_equal(relic_tres_texture_id("a", 1, NULL, 0, 0.5f), relic_tres_texture_id("a", 1, NULL, 0, 1.0f));
}

static void test_mip_key_layout(void **state)
{
    (void)state;
    /* a real key of the demo PID: texture 0x10D87F04, 128 x 128, palette hash 0x01B85F4B */
    assert_int_equal(relic_tres_mip_key(0x10D87F04u, 128, 128, 0x01B85F4Bu), 0xC672008010D87F04ull);
}

/* ---- GROFF ---- */

static void test_real_groff_files_validate_and_keep_the_rules(void **state)
{
    (void)state;
    file_list fl = groff_files();
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        relic_groff_view v;
        relic_arena a;
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        assert_int_equal(relic_groff_validate(mp.bytes.data, mp.bytes.size, &v, &err), RELIC_OK);
        relic_arena_init_heap(&a, 0);
        int problems = 0;
        assert_int_equal(relic_groff_check(&v, 1, &a, count_problem, &problems), 0);
        assert_int_equal(problems, 0);
        relic_arena_release(&a);
        relic_unmap(&mp);
    }
    free_list(&fl);
}

static void test_real_groff_files_roundtrip_binary_and_json(void **state)
{
    (void)state;
    file_list fl = groff_files();
    for (int i = 0; i < fl.n; i++) {
        relic_mapping mp;
        relic_error err;
        relic_groff_view v;
        relic_groff_file m, m2;
        relic_arena a;
        relic_buf b, j, b2;
        assert_int_equal(relic_map_file(fl.paths[i], 0, &mp, &err), RELIC_OK);
        assert_int_equal(relic_groff_validate(mp.bytes.data, mp.bytes.size, &v, &err), RELIC_OK);
        relic_arena_init_heap(&a, 0);
        assert_int_equal(relic_groff_decode(&v, &a, &m, &err), RELIC_OK);
        relic_buf_init(&b, 0);
        assert_int_equal(relic_groff_write(&m, &b, &err), RELIC_OK);
        assert_int_equal(b.size, mp.bytes.size);
        assert_memory_equal(b.data, mp.bytes.data, b.size);
        relic_buf_init(&j, 0);
        assert_int_equal(relic_groff_json_print(&m, &j, &err), RELIC_OK);
        assert_int_equal(relic_groff_json_read((const char *)j.data, j.size, &a, &m2, &err), RELIC_OK);
        relic_buf_init(&b2, 0);
        assert_int_equal(relic_groff_write(&m2, &b2, &err), RELIC_OK);
        assert_int_equal(b2.size, mp.bytes.size);
        assert_memory_equal(b2.data, mp.bytes.data, b2.size);
        relic_buf_free(&b);
        relic_buf_free(&j);
        relic_buf_free(&b2);
        relic_arena_release(&a);
        relic_unmap(&mp);
    }
    free_list(&fl);
}

/* Decode a file into a model (arena a); 0 when the file is absent. */
static int load_groff(const char *path, relic_arena *a, relic_groff_file *m, relic_mapping *mp)
{
    relic_error err;
    relic_groff_view v;
    if (!have(path)) return 0;
    assert_int_equal(relic_map_file(path, 0, mp, &err), RELIC_OK);
    assert_int_equal(relic_groff_validate(mp->bytes.data, mp->bytes.size, &v, &err), RELIC_OK);
    assert_int_equal(relic_groff_decode(&v, a, m, &err), RELIC_OK);
    return 1;
}

static void test_scn_section_names_are_hashes_of_grf_names(void **state)
{
    (void)state;
    relic_arena a;
    relic_groff_file grf, scn;
    relic_mapping m1, m2;
    relic_arena_init_heap(&a, 0);
    if (load_groff(DEMO_GRF, &a, &grf, &m1) && load_groff(DEMO_SCN, &a, &scn, &m2)) {
        int hashed = 0, found = 0, player = 0;
        for (size_t i = 0; i < scn.sections_count; i++) {
            const char *name = relic_groff_model_section_name(&scn, i);
            uint32_t h;
            assert_non_null(name);
            assert_true(scn.sections[i].content & RELIC_GROFF_CONTENT_SPECIAL);
            if (!relic_tres_parse_section_name(name, strlen(name), &h)) continue;
            hashed++;
            player += h == relic_tres_object_hash("Player", 6);
            for (size_t k = 0; k < grf.symbols_count; k++)
                if (relic_tres_object_hash(grf.symbols[k].name, grf.symbols[k].name_count - 1) == h) {
                    found++;
                    break;
                }
        }
        print_message("demo.scn: %d hashed sections, %d named by a demo.grf symbol\n", hashed, found);
        assert_int_equal(hashed, 421);
        assert_int_equal(found, 360);
        assert_int_equal(player, 1);
        relic_unmap(&m1);
        relic_unmap(&m2);
    }
    relic_arena_release(&a);
}

static void test_pid_texture_ids_are_hashes_of_grf_materials(void **state)
{
    (void)state;
    relic_arena a;
    relic_groff_file grf;
    relic_mapping m1, m2;
    relic_error err;
    relic_pid_view pv;
    relic_arena_init_heap(&a, 0);
    if (have(DEMO_PID) && load_groff(DEMO_GRF, &a, &grf, &m1)) {
        assert_int_equal(relic_map_file(DEMO_PID, 0, &m2, &err), RELIC_OK);
        assert_int_equal(relic_pid_validate(m2.bytes.data, m2.bytes.size, &pv, &err), RELIC_OK);
        int textures = 0, found = 0;
        for (size_t i = 0; i < grf.sections_count; i++) {
            if (grf.sections[i].content != RELIC_GROFF_CONTENT_MATERIAL) continue;
            relic_bytes d = relic_groff_model_section_data(&grf, i);
            assert_true(d.size >= 4);
            uint32_t n = relic_load_u32le(d.data);
            assert_true(d.size >= 4 + 12ull * n);
            for (uint32_t k = 0; k < n; k++) {
                uint32_t th = relic_load_u32le(d.data + 4 + 4 * k), bh = relic_load_u32le(d.data + 4 + 8 * n + 4 * k);
                const char *tex = NULL, *bump = "";
                for (size_t s = 0; s < grf.symbols_count; s++) {
                    if (grf.symbols[s].handle == th) tex = grf.symbols[s].name;
                    if (grf.symbols[s].handle == bh) bump = grf.symbols[s].name;
                }
                if (!tex || !tex[0]) continue;
                textures++;
                uint32_t id = relic_tres_texture_id(tex, strlen(tex), bump, strlen(bump), RELIC_TRES_DEFAULT_DIFFUSE);
                for (size_t r = 0; r < pv.rasters_count; r++)
                    if ((uint32_t)relic_pid_raster_key(relic_pid_rasters_at(&pv, r)) == id) {
                        found++;
                        break;
                    }
            }
        }
        /* the rest set another diffuse value in the value table */
        print_message("demo.grf: %d material textures, %d texture IDs in demo-130.pid with diffuse 1.0\n", textures, found);
        assert_int_equal(textures, 855);
        assert_int_equal(found, 677);
        relic_unmap(&m1);
        relic_unmap(&m2);
    }
    relic_arena_release(&a);
}

static void test_szdd_compressed_grf_opens_transparently(void **state)
{
    (void)state;
    relic_mapping mp;
    relic_error err;
    const char *path = CORPUS "/scn/OpenTrespasser__JurassicParkTrespasser__jp2_pc__SlideTest.scn";
    if (!have(path)) return;
    assert_int_equal(relic_map_file(path, 0, &mp, &err), RELIC_OK);
    relic_buf z;
    relic_buf_init(&z, 0);
    relic_arena sa; /* encoder scratch */
    relic_arena_init_heap(&sa, 0);
    assert_int_equal(relic_lzss_container_encode(RELIC_LZSS_SZDD, RELIC_LZSS_BEST, 'n', mp.bytes.data, mp.bytes.size, &sa, &z, &err), RELIC_OK);
    relic_arena_release(&sa);
    assert_true(z.size < mp.bytes.size);
    relic_arena a;
    relic_bytes b;
    int compressed = 0;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_groff_open(z.data, z.size, &a, &b, &compressed, &err), RELIC_OK);
    assert_true(compressed);
    assert_int_equal(b.size, mp.bytes.size);
    assert_memory_equal(b.data, mp.bytes.data, b.size);
    relic_groff_view v;
    assert_int_equal(relic_groff_validate(b.data, b.size, &v, &err), RELIC_OK);
    /* a plain file passes through untouched */
    assert_int_equal(relic_groff_open(mp.bytes.data, mp.bytes.size, &a, &b, &compressed, &err), RELIC_OK);
    assert_false(compressed);
    assert_ptr_equal(b.data, mp.bytes.data);
    /* a cut compressed file is an error, not a crash */
    assert_int_not_equal(relic_groff_open(z.data, z.size / 2, &a, &b, &compressed, &err), RELIC_OK);
    relic_buf_free(&z);
    relic_arena_release(&a);
    relic_unmap(&mp);
}

static void test_layout_after_edit_gives_a_valid_file(void **state)
{
    (void)state;
    relic_arena a;
    relic_groff_file m;
    relic_mapping mp;
    relic_error err;
    relic_arena_init_heap(&a, 0);
    if (load_groff(CORPUS "/scn/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Error.scn", &a, &m, &mp)) {
        /* drop the first section's data: sizes shrink, every offset moves */
        size_t cut = m.sections[0].data_size;
        m.data += cut;
        m.data_count -= cut;
        m.sections[0].data_size = 0;
        assert_int_equal(relic_groff_layout(&m, &err), RELIC_OK);
        relic_buf b;
        relic_groff_view v;
        relic_buf_init(&b, 0);
        assert_int_equal(relic_groff_write(&m, &b, &err), RELIC_OK);
        assert_int_equal(b.size, mp.bytes.size - cut);
        assert_int_equal(relic_groff_validate(b.data, b.size, &v, &err), RELIC_OK);
        int problems = 0;
        assert_int_equal(relic_groff_check(&v, 1, &a, count_problem, &problems), 0);
        /* sizes that do not add up are refused */
        m.sections[1].data_size += 1;
        assert_int_equal(relic_groff_layout(&m, &err), RELIC_E_ARGUMENT);
        relic_buf_free(&b);
        relic_unmap(&mp);
    }
    relic_arena_release(&a);
}

static void test_check_reports_section_outside_data_and_bad_handle(void **state)
{
    (void)state;
    relic_mapping mp;
    relic_error err;
    const char *path = CORPUS "/scn/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Error.scn";
    if (!have(path)) return;
    assert_int_equal(relic_map_file(path, 0, &mp, &err), RELIC_OK);
    uint8_t *copy = malloc(mp.bytes.size);
    memcpy(copy, mp.bytes.data, mp.bytes.size);
    relic_store_u32le(copy + 48 + 8, 0xFFFFFF00u);       /* sections[0].data_offset */
    relic_store_u32le(copy + 48 + 32 + 28, 0x80000007u); /* sections[1].handle */
    relic_groff_view v;
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_groff_validate(copy, mp.bytes.size, &v, &err), RELIC_OK);
    int problems = 0;
    assert_int_equal(relic_groff_check(&v, 0, &a, count_problem, &problems), 2);
    relic_arena_release(&a);
    free(copy);
    relic_unmap(&mp);
}

/* ---- PID ---- */

static void test_real_pid_validates_keeps_rules_and_roundtrips(void **state)
{
    (void)state;
    if (!have(DEMO_PID)) return;
    relic_mapping mp;
    relic_error err;
    relic_pid_view v;
    relic_pid_file m, m2;
    relic_arena a;
    relic_buf b, j, b2;
    assert_int_equal(relic_map_file(DEMO_PID, 0, &mp, &err), RELIC_OK);
    assert_int_equal(relic_pid_validate(mp.bytes.data, mp.bytes.size, &v, &err), RELIC_OK);
    relic_arena_init_heap(&a, 0);
    int problems = 0;
    assert_int_equal(relic_pid_check(&v, 1, &a, count_problem, &problems), 0);
    assert_int_equal(v.rasters_count, 5156);
    assert_int_equal(v.palettes_count, 13);
    assert_int_equal(relic_pid_decode(&v, &a, &m, &err), RELIC_OK);
    relic_buf_init(&b, 0);
    assert_int_equal(relic_pid_write(&m, &b, &err), RELIC_OK);
    assert_int_equal(b.size, mp.bytes.size);
    assert_memory_equal(b.data, mp.bytes.data, b.size);
    relic_buf_init(&j, 0);
    assert_int_equal(relic_pid_json_print(&m, &j, &err), RELIC_OK);
    assert_int_equal(relic_pid_json_read((const char *)j.data, j.size, &a, &m2, &err), RELIC_OK);
    relic_buf_init(&b2, 0);
    assert_int_equal(relic_pid_write(&m2, &b2, &err), RELIC_OK);
    assert_int_equal(b2.size, mp.bytes.size);
    assert_memory_equal(b2.data, mp.bytes.data, b2.size);
    /* a mip key that does not match its raster is reported by --strict only */
    uint8_t *copy = malloc(mp.bytes.size);
    memcpy(copy, mp.bytes.data, mp.bytes.size);
    size_t r1 = relic_load_u32le(copy + 8) + 56; /* rasters[1]: a mip level */
    copy[r1 + 48 + 4] ^= 0x01;                   /* width bits of its key */
    assert_int_equal(relic_pid_validate(copy, mp.bytes.size, &v, &err), RELIC_OK);
    assert_int_equal(relic_pid_check(&v, 0, &a, NULL, NULL), 0);
    assert_int_equal(relic_pid_check(&v, 1, &a, NULL, NULL), 1);
    free(copy);
    relic_buf_free(&b);
    relic_buf_free(&j);
    relic_buf_free(&b2);
    relic_arena_release(&a);
    relic_unmap(&mp);
}

/* ---- hostile inputs ---- */

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* validate (and on success check) one candidate; never crash */
static void probe(const uint8_t *p, size_t n, int pid)
{
    relic_error err;
    relic_arena a;
    relic_arena_init_heap(&a, 64u << 20);
    if (pid) {
        relic_pid_view v;
        if (relic_pid_validate(p, n, &v, &err) == RELIC_OK) (void)relic_pid_check(&v, 1, &a, NULL, NULL);
        else assert_true(err.message[0] != 0);
    } else {
        relic_groff_view v;
        relic_bytes b;
        int compressed;
        if (relic_groff_open(p, n, &a, &b, &compressed, &err) != RELIC_OK) assert_true(err.message[0] != 0);
        else if (relic_groff_validate(b.data, b.size, &v, &err) == RELIC_OK) (void)relic_groff_check(&v, 1, &a, NULL, NULL);
        else assert_true(err.message[0] != 0);
    }
    relic_arena_release(&a);
}

static void sweep(const char *path, int pid, int mutations)
{
    relic_mapping mp;
    relic_error err;
    assert_int_equal(relic_map_file(path, 0, &mp, &err), RELIC_OK);
    size_t n = mp.bytes.size;
    uint8_t *copy = malloc(n);
    for (int cut = 0; cut < 64; cut++) {
        size_t len = n * (size_t)cut / 64;
        memcpy(copy, mp.bytes.data, len);
        probe(copy, len, pid);
    }
    rng_state = 12345;
    for (int i = 0; i < mutations; i++) {
        memcpy(copy, mp.bytes.data, n);
        /* headers and directories are where mutations bite: favour the first 4 KiB */
        size_t at = (i & 1) ? rnd() % (n < 4096 ? n : 4096) : rnd() % n;
        copy[at] = (uint8_t)rnd();
        probe(copy, n, pid);
    }
    free(copy);
    relic_unmap(&mp);
}

static void test_truncated_and_mutated_files_never_crash(void **state)
{
    (void)state;
    file_list fl = groff_files();
    for (int i = 0; i < fl.n; i++) sweep(fl.paths[i], 0, strstr(fl.paths[i], ".grf") ? 200 : 1000);
    free_list(&fl);
    if (have(DEMO_PID)) sweep(DEMO_PID, 1, 1000);
}

static void test_mutated_szdd_never_crashes(void **state)
{
    (void)state;
    const char *path = CORPUS "/scn/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Error.scn";
    if (!have(path)) return;
    relic_mapping mp;
    relic_error err;
    relic_buf z;
    assert_int_equal(relic_map_file(path, 0, &mp, &err), RELIC_OK);
    relic_buf_init(&z, 0);
    relic_arena sa; /* encoder scratch */
    relic_arena_init_heap(&sa, 0);
    assert_int_equal(relic_lzss_container_encode(RELIC_LZSS_SZDD, RELIC_LZSS_FAST, 'n', mp.bytes.data, mp.bytes.size, &sa, &z, &err), RELIC_OK);
    relic_arena_release(&sa);
    uint8_t *copy = malloc(z.size);
    rng_state = 777;
    for (int i = 0; i < 2000; i++) {
        memcpy(copy, z.data, z.size);
        copy[rnd() % z.size] = (uint8_t)rnd();
        probe(copy, z.size, 0);
    }
    for (int cut = 0; cut < 64; cut++) probe(z.data, z.size * (size_t)cut / 64, 0);
    free(copy);
    relic_buf_free(&z);
    relic_unmap(&mp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash_is_crc32),
        cmocka_unit_test(test_object_hash_of_scn_names),
        cmocka_unit_test(test_sound_hash_lowercases_and_slashes),
        cmocka_unit_test(test_texture_id_normalises_and_adds_diffuse),
        cmocka_unit_test(test_mip_key_layout),
        cmocka_unit_test(test_real_groff_files_validate_and_keep_the_rules),
        cmocka_unit_test(test_real_groff_files_roundtrip_binary_and_json),
        cmocka_unit_test(test_scn_section_names_are_hashes_of_grf_names),
        cmocka_unit_test(test_pid_texture_ids_are_hashes_of_grf_materials),
        cmocka_unit_test(test_szdd_compressed_grf_opens_transparently),
        cmocka_unit_test(test_layout_after_edit_gives_a_valid_file),
        cmocka_unit_test(test_check_reports_section_outside_data_and_bad_handle),
        cmocka_unit_test(test_real_pid_validates_keeps_rules_and_roundtrips),
        cmocka_unit_test(test_truncated_and_mutated_files_never_crash),
        cmocka_unit_test(test_mutated_szdd_never_crashes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
