/* fuzz_keybif.c — libFuzzer target for the KEY, BIF and TLK readers and
 * writers (runtime/formats/aurora/key_archive.c, bif_archive.c,
 * key_write.c, tlk_table.c). The input is tried as each of the three.
 * Oracles: whatever relic_key_open accepts has every key's BIF index in
 * range, and written again it opens with the same names, types and ResIDs;
 * whatever relic_bif_open accepts has every resource inside the input, its
 * resources written again by relic_bif_write_members read back the same
 * bytes; whatever relic_tlk_open accepts gives every StrRef's text inside
 * the input, and decoded and written again it gives the same texts; every
 * rejection carries a message. Seeds: ../shared/corpus/{key,bif,tlk}.
 * Build and run: make fuzz (or build-fuzz/fuzz_keybif -max_total_time=60). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (fuzz_scratch.h) */
#include <stdlib.h>
#include <string.h>

#include "fuzz_scratch.h"
#include "relic_key.h"
#include "relic_tlk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_key(const uint8_t *data, size_t size)
{
    relic_arena a;
    relic_key_file k, back;
    relic_error err;
    relic_buf out;
    char name[64], path[256];
    fuzz_scratch_arena(&a, 0, 0);
    if (relic_key_open(data, size, &a, &k, &err) != RELIC_OK) {
        if (err.message[0] == 0) abort();
        return;
    }
    for (uint32_t i = 0; i < k.keys_count; i++) {
        uint32_t j;
        if (RELIC_KEY_BIF_INDEX(k.keys[i].res_id) >= k.files_count) abort();
        relic_key_entry_name(&k, i, name, sizeof name);
        if (!relic_key_find(&k, name, &j)) abort(); /* a key's own name finds a key of that name */
    }
    for (uint32_t i = 0; i < k.files_count; i++) {
        relic_key_bif_path(&k, i, path, sizeof path);
        if (strstr(path, "../") || path[0] == '/') abort(); /* never climbs out of the game directory */
    }
    relic_buf_init(&out, 0);
    if (relic_key_write(&k, &out, &err) != RELIC_OK) abort();
    if (relic_key_open(out.data, out.size, &a, &back, &err) != RELIC_OK) abort();
    if (back.keys_count != k.keys_count || back.files_count != k.files_count) abort();
    for (uint32_t i = 0; i < k.keys_count; i++)
        if (memcmp(back.keys[i].resref, k.keys[i].resref, RELIC_KEY_RESREF_MAX) || back.keys[i].res_type != k.keys[i].res_type ||
            back.keys[i].res_id != k.keys[i].res_id)
            abort();
    relic_buf_free(&out);
}

static void fuzz_bif(const uint8_t *data, size_t size)
{
    relic_arena a, s;
    relic_bif_file b, back;
    relic_error err;
    relic_buf out;
    fuzz_scratch_arena(&a, 1, 0);
    if (relic_bif_open(data, size, &a, &b, &err) != RELIC_OK) {
        if (err.message[0] == 0) abort();
        return;
    }
    uint32_t n = (uint32_t)b.variable_resources_count;
    relic_bif_member *m = relic_arena_array(&a, n ? n : 1, sizeof *m, 8);
    if (!m) return;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t sz;
        if (relic_bif_resource(&b, data, size, i, &m[i].data, &sz, &err) != RELIC_OK) abort();
        m[i].size = sz;
        m[i].res_type = b.variable_resources[i].res_type;
    }
    fuzz_scratch_arena(&s, 2, 0);
    relic_buf_init(&out, 0);
    if (relic_bif_write_members(m, n, 0, &s, &out, &err) == RELIC_OK) {
        if (relic_bif_open(out.data, out.size, &s, &back, &err) != RELIC_OK) abort();
        for (uint32_t i = 0; i < n; i++) {
            const uint8_t *p;
            uint32_t sz;
            if (relic_bif_resource(&back, out.data, out.size, i, &p, &sz, &err) != RELIC_OK) abort();
            if (sz != m[i].size || (sz && memcmp(p, m[i].data, sz))) abort();
        }
    } else if (err.message[0] == 0) {
        abort();
    }
    relic_buf_free(&out);
}

static void fuzz_tlk(const uint8_t *data, size_t size)
{
    relic_arena a;
    relic_tlk_view v, back;
    relic_tlk_file t;
    relic_error err;
    relic_buf out;
    const char *x, *y;
    size_t nx, ny;
    if (relic_tlk_open(data, size, &v, &err) != RELIC_OK) {
        if (err.message[0] == 0) abort();
        return;
    }
    for (uint32_t i = 0; i < v.entries_count; i++) {
        relic_tlk_text(&v, i, &x, &nx);
        if (nx && ((const uint8_t *)x < data || (const uint8_t *)x + nx > data + size)) abort();
    }
    fuzz_scratch_arena(&a, 3, 0);
    if (relic_tlk_decode(&v, &a, &t, &err) != RELIC_OK) return; /* out of scratch */
    relic_buf_init(&out, 0);
    if (relic_tlk_write(&t, &out, &err) != RELIC_OK) abort();
    if (relic_tlk_open(out.data, out.size, &back, &err) != RELIC_OK) abort();
    for (uint32_t i = 0; i < v.entries_count; i++) {
        relic_tlk_text(&v, i, &x, &nx);
        relic_tlk_text(&back, i, &y, &ny);
        if (nx != ny || (nx && memcmp(x, y, nx))) abort();
    }
    relic_buf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_key(data, size);
    fuzz_bif(data, size);
    fuzz_tlk(data, size);
    return 0;
}
