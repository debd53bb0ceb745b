/* bench_grf.c — `make bench`: GRF level throughput on the demo level
 * (../shared/corpus/grf; skipped, saying so, when absent): validating every
 * section with its kind's schema (the generated validators and the value
 * table reader) in MB/s of section data, beside memcpy of the same bytes in
 * the same run; the container validator; full decode (container + every
 * section into models); whole-level JSON; OBJ export; every section's
 * name, looked up per section (a scan of the symbol table each) beside
 * indexed once (relic_groff_model_section_names), on the level and on a
 * synthetic 20,000-section scene. Best of 5 runs. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "relic_grf.h"

/* relic_grf_export_obj with its scratch in a heap arena freed at once */
static relic_status grf_obj_scratch(const relic_grf_file *f, const char *mtl_name, relic_buf *obj, relic_buf *mtl,
                                    relic_error *err)
{
    relic_arena a;
    relic_arena_init_heap(&a, 0);
    relic_status st = relic_grf_export_obj(f, mtl_name, &a, obj, mtl, err);
    relic_arena_release(&a);
    return st;
}

#define DEMO_GRF "../shared/corpus/grf/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo.grf"
#define RUNS 5

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Best times of naming every section of m: one relic_groff_model_section_name
 * call per section, and relic_groff_model_section_names once. */
static int time_names(const relic_groff_file *m, const char *what)
{
    double best_scan = 1e9, best_index = 1e9;
    size_t found = 0;
    for (int run = 0; run < RUNS; run++) {
        double t = now();
        size_t n = 0;
        for (size_t i = 0; i < m->sections_count; i++) n += relic_groff_model_section_name(m, i) != NULL;
        t = now() - t;
        if (t < best_scan) best_scan = t;
        relic_arena a;
        relic_error err;
        const char **names;
        relic_arena_init_heap(&a, 0);
        t = now();
        if (relic_groff_model_section_names(m, &a, &names, &err)) return 1;
        t = now() - t;
        if (t < best_index) best_index = t;
        for (size_t i = 0; i < m->sections_count; i++) n -= names[i] != NULL;
        relic_arena_release(&a);
        if (n) return 1; /* both found the same names */
        found = m->sections_count;
    }
    printf("section names, %-18s %6zu sections, %6zu symbols: scan per section %8.3f ms, indexed once %6.3f ms (%.0fx)\n",
           what, found, m->symbols_count, best_scan * 1e3, best_index * 1e3, best_scan / best_index);
    return 0;
}

/* A scene of n special sections, each named by its own symbol (hex instance
 * names, the symbols in another order than the sections, as a savegame). */
static int time_scene_names(size_t n)
{
    relic_groff_section *secs = calloc(n, sizeof *secs);
    relic_groff_symbol *syms = calloc(n, sizeof *syms);
    char(*text)[9] = calloc(n, sizeof *text);
    if (!secs || !syms || !text) return 1;
    for (size_t i = 0; i < n; i++) {
        uint32_t h = 0x80000000u + (uint32_t)((i * 7919) % n);
        snprintf(text[i], sizeof text[i], "%08X", (unsigned)(i * 2654435761u));
        syms[i].handle = h;
        syms[i].name = text[i];
        syms[i].name_count = 9;
        secs[i].name = 0x80000000u + (uint32_t)i;
        secs[i].content = RELIC_GROFF_CONTENT_SPECIAL;
    }
    relic_groff_file m = {.sections = secs, .sections_count = n, .symbols = syms, .symbols_count = n};
    int rc = time_names(&m, "synthetic scene");
    free(text);
    free(syms);
    free(secs);
    return rc;
}

int main(void)
{
    relic_mapping map;
    relic_error err;
    relic_groff_view v;
    relic_groff_file m;
    relic_arena a;
    if (relic_map_file(DEMO_GRF, 0, &map, &err) != RELIC_OK) {
        printf("bench_grf: %s not found: GRF benchmark skipped\n", DEMO_GRF);
        return 0;
    }
    const uint8_t *data = map.bytes.data;
    size_t size = map.bytes.size;
    relic_arena_init_heap(&a, 0);
    if (relic_groff_validate(data, size, &v, &err) || relic_groff_decode(&v, &a, &m, &err)) {
        relic_error_print(stderr, DEMO_GRF, &err);
        return 1;
    }
    relic_grf_layout l = relic_grf_layout_of(&m);
    relic_grf_kind *kinds = malloc(m.sections_count * sizeof *kinds);
    size_t section_bytes = 0;
    if (relic_grf_classify_all(&m, &l, &a, kinds, &err)) return 1;
    for (size_t i = 0; i < m.sections_count; i++) section_bytes += m.sections[i].data_size;
    /* repeat to about 200 MB of section data per run */
    int reps = (int)(200e6 / (double)section_bytes) + 1;
    double best_val = 1e9, best_cpy = 1e9, best_cont = 1e9, best_dec = 1e9, best_json = 1e9, best_obj = 1e9;
    uint8_t *dst = malloc(size);
    size_t json_size = 0, obj_size = 0;
    for (int run = 0; run < RUNS; run++) {
        double t = now();
        for (int r = 0; r < reps; r++)
            for (size_t i = 0; i < m.sections_count; i++) {
                relic_bytes b = relic_groff_model_section_data(&m, i);
                if (relic_grf_section_validate(kinds[i], b.data, b.size, &err)) return 1;
            }
        t = now() - t;
        if (t < best_val) best_val = t;
        t = now();
        for (int r = 0; r < reps; r++) {
            memcpy(dst, m.data, m.data_count);
            __asm__ volatile(""
                             :
                             : "r"(dst)
                             : "memory");
        }
        t = now() - t;
        if (t < best_cpy) best_cpy = t;
        t = now();
        for (int r = 0; r < reps; r++)
            if (relic_groff_validate(data, size, &v, &err)) return 1;
        t = now() - t;
        if (t < best_cont) best_cont = t;

        relic_arena d;
        relic_groff_file dm;
        relic_grf_file f;
        relic_arena_init_heap(&d, 0);
        t = now();
        if (relic_groff_validate(data, size, &v, &err) || relic_groff_decode(&v, &d, &dm, &err) ||
            relic_grf_file_decode(&dm, &d, &f, &err))
            return 1;
        t = now() - t;
        if (t < best_dec) best_dec = t;
        relic_buf json, obj, mtl;
        relic_buf_init(&json, 0);
        relic_buf_init(&obj, 0);
        relic_buf_init(&mtl, 0);
        t = now();
        if (relic_grf_json_print(&f, &json, &err)) return 1;
        t = now() - t;
        if (t < best_json) best_json = t;
        t = now();
        if (grf_obj_scratch(&f, "demo.mtl", &obj, &mtl, &err)) return 1;
        t = now() - t;
        if (t < best_obj) best_obj = t;
        json_size = json.size;
        obj_size = obj.size;
        relic_buf_free(&json);
        relic_buf_free(&obj);
        relic_buf_free(&mtl);
        relic_arena_release(&d);
    }
    double mb = (double)section_bytes * reps / 1e6;
    printf("demo GRF: %.1f MB, %zu sections (version %u%s)\n", size / 1e6, m.sections_count, l.version,
           l.optimised ? ", optimised" : "");
    printf("memcpy of the section data       %8.0f MB/s\n", mb / best_cpy);
    printf("GRF validate (every section)     %8.0f MB/s  (%.0f%% of memcpy)\n", mb / best_val,
           100.0 * best_cpy / best_val);
    printf("GROFF container validate         %8.0f MB/s\n", (double)size * reps / 1e6 / best_cont);
    printf("decode (container + sections)    %8.0f MB/s\n", size / 1e6 / best_dec);
    printf("whole-level JSON                 %8.0f MB/s  (%.1f MB of JSON)\n", size / 1e6 / best_json, json_size / 1e6);
    printf("OBJ export                       %8.3f s     (%.1f MB of OBJ)\n", best_obj, obj_size / 1e6);
    if (time_names(&m, "demo level") || time_scene_names(20000)) return 1;
    free(kinds);
    free(dst);
    relic_arena_release(&a);
    relic_unmap(&map);
    return 0;
}
