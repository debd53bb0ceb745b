/* test_arena_only.c — librelic's entry points allocate only from the
 * relic_arena the caller passes (DESIGN.md "Data flow": no hidden malloc).
 *
 * Each case runs twice on one input, with heap_guard.h counting heap calls:
 *  1. with an arena over a large fixed buffer: the call succeeds and makes no
 *     heap call; arena.used is what it needed;
 *  2. with an arena over used - 1 bytes of the same buffer: the call fails
 *     with RELIC_E_NOMEM and still makes no heap call.
 * Writers append to a relic_buf made with relic_buf_init_arena over the same
 * arena, so their output counts too. Every need is printed ("arena: ...")
 * for docs/security.md.
 *
 * Inputs: tests/samples/room.wok (the project's own) and synthetic data
 * always; one real file per other format from the corpus when the corpus
 * directory exists (that part is skipped, saying so, when it does not).
 * The JSON printers' scratch is here (the printers without an arena
 * argument and their _in twins); JSON reading and the generated printers
 * are tests/test_json_arena.c's. The mutators of
 * librelic-mutate have cases of their own (high-water mark: see there). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "heap_guard.h"

#include "bwm.h"
#include "cau.h"
#include "gff.h"
#include "groff.h"
#include "pid.h"
#include "tpa.h"
#include "relic.h"
#include "relic_adpcm.h"
#include "relic_audio.h"
#include "relic_bwm.h"
#include "relic_codec.h"
#include "relic_erf.h"
#include "relic_gff.h"
#include "relic_groff.h"
#include "relic_grf.h"
#include "relic_lzss.h"
#include "relic_mutate_formats.h"
#include "relic_tpm.h"
#include "relic_tri.h"
#include "relic_trn.h"
#include "relic_trr.h"
#include "relic_wtd.h"
#include "trn.h"

#define CORPUS "../shared/corpus"
#define ROOM_WOK "tests/samples/room.wok"
#define BIG_ARENA ((size_t)256 << 20)

static uint8_t *big;

/* ---- the harness ---- */

typedef relic_status (*case_fn)(const uint8_t *d, size_t n, relic_arena *a);

/* A problem reporter that keeps the first code (0 when none). */
typedef struct first_code {
    relic_status code;
    int nomem;
} first_code;
static void keep_code(void *ctx, const relic_error *e)
{
    first_code *f = ctx;
    if (!f->code) f->code = e->code;
    if (e->code == RELIC_E_NOMEM) f->nomem = 1;
}
/* A check passes the harness unless it ran out of memory: the rules a real
 * file breaks are not this test's business. */
static relic_status check_result(const first_code *f) { return f->nomem ? RELIC_E_NOMEM : RELIC_OK; }

static size_t run_case(const char *name, const char *input, case_fn fn, const uint8_t *d, size_t n)
{
    relic_arena a;
    relic_arena_init_buffer(&a, big, BIG_ARENA);
    heap_guard_arm();
    relic_status st = fn(d, n, &a);
    unsigned long calls = heap_guard_disarm();
    size_t used = a.used;
    if (st != RELIC_OK || calls != 0)
        print_message("%s on %s: status %d, %lu heap calls\n", name, input, (int)st, calls);
    assert_int_equal(st, RELIC_OK);
    assert_int_equal(calls, 0);
    if (used > 0) {
        relic_arena_init_buffer(&a, big, used - 1);
        heap_guard_arm();
        st = fn(d, n, &a);
        calls = heap_guard_disarm();
        if (st != RELIC_E_NOMEM || calls != 0)
            print_message("%s on %s with %zu bytes: status %d, %lu heap calls\n", name, input, used - 1, (int)st, calls);
        assert_int_equal(st, RELIC_E_NOMEM);
        assert_int_equal(calls, 0);
    }
    print_message("arena: %-28s %-44.44s %10zu bytes\n", name, input, used);
    return used;
}

/* Map one file (outside the guard) and run the cases on it; skip, saying
 * so, when it is absent. */
typedef struct named_case {
    const char *name;
    case_fn fn;
} named_case;
static void run_on_file(const char *path, const named_case *cases, size_t count)
{
    relic_mapping m;
    relic_error err;
    FILE *f = fopen(path, "rb");
    if (!f) {
        print_message("note: %s not found: these cases are skipped\n", path);
        return;
    }
    fclose(f);
    assert_int_equal(relic_map_file(path, 0, &m, &err), RELIC_OK);
    const char *base = strrchr(path, '/');
    for (size_t i = 0; i < count; i++) run_case(cases[i].name, base ? base + 1 : path, cases[i].fn, m.bytes.data, m.bytes.size);
    relic_unmap(&m);
}

/* relic_buf over the arena; RELIC_E_NOMEM when it ran out. */
static relic_status buf_status(const relic_buf *b, relic_status st)
{
    if (st == RELIC_OK && b->failed) return RELIC_E_NOMEM;
    return st;
}

/* ---- BWM ---- */

static relic_status bwm_validate_case(const uint8_t *d, size_t n, relic_arena *a)
{
    (void)a;
    relic_bwm_view v;
    relic_error e;
    return relic_bwm_validate(d, n, &v, &e);
}
static relic_status bwm_decode_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_bwm_view v;
    relic_bwm_file m;
    relic_error e;
    relic_status st = relic_bwm_validate(d, n, &v, &e);
    return st ? st : relic_bwm_decode(&v, a, &m, &e);
}
static relic_status bwm_check_with(const uint8_t *d, size_t n, relic_arena *a, int strict)
{
    relic_bwm_view v;
    relic_error e;
    first_code f = {0, 0};
    relic_status st = relic_bwm_validate(d, n, &v, &e);
    if (st) return st;
    relic_bwm_check(&v, strict, a, keep_code, &f);
    return check_result(&f);
}
static relic_status bwm_check_case(const uint8_t *d, size_t n, relic_arena *a) { return bwm_check_with(d, n, a, 0); }
static relic_status bwm_strict_case(const uint8_t *d, size_t n, relic_arena *a) { return bwm_check_with(d, n, a, 1); }
static relic_status bwm_rebuild_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_bwm_view v;
    relic_bwm_file m;
    relic_error e;
    relic_status st = relic_bwm_validate(d, n, &v, &e);
    if (!st) st = relic_bwm_decode(&v, a, &m, &e);
    if (!st)
        st = relic_bwm_rebuild(&m, RELIC_BWM_REBUILD_PLANES | RELIC_BWM_REBUILD_ADJACENCY | RELIC_BWM_REBUILD_PERIMETERS | RELIC_BWM_REBUILD_AABB, a, &e);
    return st;
}
static relic_status bwm_write_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_bwm_view v;
    relic_bwm_file m;
    relic_error e;
    relic_buf out;
    relic_status st = relic_bwm_validate(d, n, &v, &e);
    if (!st) st = relic_bwm_decode(&v, a, &m, &e);
    if (st) return st;
    relic_buf_init_arena(&out, a, 0);
    return buf_status(&out, relic_bwm_write(&m, &out, &e));
}
static const named_case bwm_cases[] = {
    {"bwm validate", bwm_validate_case},
    {"bwm decode", bwm_decode_case},
    {"bwm check", bwm_check_case},
    {"bwm check strict", bwm_strict_case},
    {"bwm decode+rebuild", bwm_rebuild_case},
    {"bwm decode+write", bwm_write_case},
};

static void test_bwm_uses_only_the_arena(void **state)
{
    (void)state;
    run_on_file(ROOM_WOK, bwm_cases, sizeof bwm_cases / sizeof bwm_cases[0]);
    run_on_file(CORPUS "/bwm/openkotor__pykotor__Libraries__PyKotor__tests__fixtures__kits_v2__floor_plain.wok", bwm_cases,
                sizeof bwm_cases / sizeof bwm_cases[0]);
}

/* ---- GFF (reading) ---- */

static relic_status gff_open_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_gff_doc doc;
    relic_error e;
    return relic_gff_open(d, n, a, NULL, NULL, &doc, &e);
}
static const named_case gff_cases[] = {{"gff open", gff_open_case}};

static void test_gff_reading_uses_only_the_arena(void **state)
{
    (void)state;
    run_on_file(CORPUS "/gff/seedhartha__reone__limbo__modules__m01aa__m01aa.git", gff_cases, 1);
}

/* ---- ERF / RIM ---- */

static relic_status erf_open_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_erf_archive ar;
    relic_error e;
    return relic_erf_open(d, n, a, &ar, &e);
}
static relic_status erf_write_with(const uint8_t *d, size_t n, relic_arena *a, relic_erf_layout layout)
{
    relic_erf_archive ar;
    relic_error e;
    relic_buf out;
    relic_status st = relic_erf_open(d, n, a, &ar, &e);
    if (st) return st;
    relic_buf_init_arena(&out, a, 0);
    return buf_status(&out, relic_erf_archive_write(&ar, layout, a, &out, NULL, &e));
}
static relic_status erf_write_packed_case(const uint8_t *d, size_t n, relic_arena *a)
{
    return erf_write_with(d, n, a, RELIC_ERF_LAYOUT_PACKED);
}
static relic_status erf_write_keep_case(const uint8_t *d, size_t n, relic_arena *a)
{
    return erf_write_with(d, n, a, RELIC_ERF_LAYOUT_KEEP);
}
static const named_case erf_cases[] = {
    {"erf/rim open", erf_open_case},
    {"erf/rim open+write packed", erf_write_packed_case},
    {"erf/rim open+write keep", erf_write_keep_case},
};

static void test_erf_and_rim_use_only_the_arena(void **state)
{
    (void)state;
    run_on_file(CORPUS "/other/NickHugi__PyKotor__tests__files__test.erf", erf_cases, 3);
    run_on_file(CORPUS "/other/NickHugi__PyKotor__tests__files__test.rim", erf_cases, 3);
}

/* ---- TRN / TRX ---- */

/* validate, decode, then inflate the ASWM packet */
static relic_status trn_aswm(const uint8_t *d, size_t n, relic_arena *a, relic_trn_file *m, relic_trn_aswm *w)
{
    relic_trn_view v;
    relic_error e;
    relic_status st = relic_trn_validate(d, n, &v, &e);
    if (!st) st = relic_trn_decode(&v, a, m, &e);
    if (st) return st;
    for (size_t i = 0; i < m->packets_count; i++)
        if (m->packets[i].type == RELIC_TRN_PACKET_TYPE_ASWM) return relic_trn_aswm_read(&m->packets[i], (uint64_t)1 << 30, a, w, &e);
    return RELIC_E_ARGUMENT; /* the sample has no walkmesh */
}
static relic_status trn_decode_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_trn_view v;
    relic_trn_file m;
    relic_error e;
    relic_status st = relic_trn_validate(d, n, &v, &e);
    return st ? st : relic_trn_decode(&v, a, &m, &e);
}
static relic_status trn_inflate_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_trn_file m;
    relic_trn_aswm w;
    return trn_aswm(d, n, a, &m, &w);
}
static void count_trn(void *ctx, const relic_error *e) { keep_code(ctx, e); }
static relic_status trn_check_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_trn_file m;
    relic_trn_aswm w;
    first_code f = {0, 0};
    relic_status st = trn_aswm(d, n, a, &m, &w);
    if (st) return st;
    relic_trn_check_aswm(&w, "aswm", 10, count_trn, &f);
    return check_result(&f);
}
static relic_status trn_strict_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_trn_file m;
    relic_trn_aswm w;
    first_code f = {0, 0};
    relic_status st = trn_aswm(d, n, a, &m, &w);
    if (st) return st;
    relic_trn_check_aswm_strict(&w, "aswm", 10, a, count_trn, &f);
    return check_result(&f);
}
static relic_status trn_write_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_trn_view v;
    relic_trn_file m;
    relic_error e;
    relic_buf out;
    relic_status st = relic_trn_validate(d, n, &v, &e);
    if (!st) st = relic_trn_decode(&v, a, &m, &e);
    if (st) return st;
    relic_buf_init_arena(&out, a, 0);
    return buf_status(&out, relic_trn_write(&m, &out, &e));
}
static relic_status trn_pack_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_trn_file m;
    relic_trn_aswm w;
    relic_trn_packet p;
    relic_error e;
    relic_status st = trn_aswm(d, n, a, &m, &w);
    memset(&p, 0, sizeof p);
    return st ? st : relic_trn_aswm_pack(&w, RELIC_TRN_ASWM_ZLIB_LEVEL, a, &p, &e);
}
static relic_status trn_bake_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_trn_file m;
    relic_trn_aswm w, baked;
    relic_error e;
    relic_status st = trn_aswm(d, n, a, &m, &w);
    return st ? st : relic_trn_bake(&w, NULL, a, &baked, &e);
}
/* a route between the first and last walkable triangles of the baked mesh */
static relic_status trn_path_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_trn_file m;
    relic_trn_aswm w, baked;
    relic_trn_route r;
    relic_error e;
    relic_status st = trn_aswm(d, n, a, &m, &w);
    if (!st) st = relic_trn_bake(&w, NULL, a, &baked, &e);
    if (st) return st;
    uint32_t from = UINT32_MAX, to = UINT32_MAX;
    for (size_t i = 0; i < baked.triangles_count; i++)
        if (baked.triangles[i].island < baked.islands_count) {
            if (from == UINT32_MAX) from = (uint32_t)i;
            if (baked.triangles[i].island == baked.triangles[from].island) to = (uint32_t)i;
        }
    if (from == UINT32_MAX) return RELIC_E_ARGUMENT;
    const relic_trn_triangle *s = &baked.triangles[from], *g = &baked.triangles[to];
    return relic_trn_route_find(&baked, from, to, s->center[0], s->center[1], g->center[0], g->center[1], a, &r, &e);
}
static const named_case trn_cases[] = {
    {"trn decode", trn_decode_case},
    {"trn decode+inflate aswm", trn_inflate_case},
    {"trn check aswm", trn_check_case},
    {"trn check aswm strict", trn_strict_case},
    {"trn decode+write", trn_write_case},
    {"trn aswm pack (deflate)", trn_pack_case},
    {"trn bake", trn_bake_case},
    {"trn bake+path", trn_path_case},
};

static void test_trn_and_trx_use_only_the_arena(void **state)
{
    (void)state;
    const size_t k = sizeof trn_cases / sizeof trn_cases[0];
    run_on_file(CORPUS "/trx/Kaedrin__nwn2cc__NWN2_WIP__Source__DB_Beta_23__dm001_cargohold.trx", trn_cases, k);
    run_on_file(CORPUS "/trn/teemul__ALFA-017-Amn__shrine_of_tymora.TRN", trn_cases, k);
}

/* ---- LZSS (SPZ), zlib, IMA ADPCM on synthetic data ---- */

static relic_status spz_encode_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_buf out;
    relic_error e;
    relic_buf_init_arena(&out, a, 0);
    return buf_status(&out, relic_lzss_container_encode(RELIC_LZSS_SPZ, RELIC_LZSS_BEST, 0, d, n, a, &out, &e));
}
static relic_status spz_roundtrip_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_buf z;
    relic_bytes back;
    relic_error e;
    relic_buf_init_arena(&z, a, 0);
    relic_status st = buf_status(&z, relic_lzss_container_encode(RELIC_LZSS_SPZ, RELIC_LZSS_FAST, 0, d, n, a, &z, &e));
    if (!st) st = relic_lzss_container_decode(z.data, z.size, RELIC_LZSS_SPZ, n, a, &back, &e);
    if (!st && (back.size != n || memcmp(back.data, d, n) != 0)) st = RELIC_E_LAYOUT;
    return st;
}
static relic_status zlib_roundtrip_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_buf z;
    relic_error e;
    relic_buf_init_arena(&z, a, 0);
    relic_status st = buf_status(&z, relic_codec_zlib_encode(d, n, 6, a, &z, &e));
    uint8_t *back = st ? NULL : relic_arena_alloc(a, n, 1);
    if (!st && !back) st = RELIC_E_NOMEM;
    if (!st) st = relic_codec_zlib_decode(z.data, z.size, back, n, a, &e);
    if (!st && memcmp(back, d, n) != 0) st = RELIC_E_LAYOUT;
    return st;
}
/* d holds interleaved stereo 16-bit PCM */
static relic_status adpcm_roundtrip_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_buf enc;
    relic_error e;
    size_t frames = n / 4, got = 0;
    relic_buf_init_arena(&enc, a, 0);
    relic_status st = buf_status(&enc, relic_adpcm_encode((const int16_t *)(const void *)d, frames, 2, RELIC_ADPCM_GAME_BLOCK_STEREO, a, &enc, &e));
    int16_t *pcm = st ? NULL : relic_arena_array(a, frames + RELIC_ADPCM_GAME_BLOCK_STEREO, 4, 2);
    if (!st && !pcm) st = RELIC_E_NOMEM;
    if (!st)
        st = relic_adpcm_decode(enc.data, enc.size, RELIC_ADPCM_GAME_BLOCK_STEREO, 2, 0, pcm,
                                (frames + RELIC_ADPCM_GAME_BLOCK_STEREO) * 2, &got, &e);
    if (!st && got < frames) st = RELIC_E_LAYOUT;
    return st;
}
static relic_status cau_from_pcm_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_cau_file m;
    relic_buf out;
    relic_error e;
    relic_audio_caption cap[1];
    memset(cap, 0, sizeof cap);
    cap[0].text = "A test caption.";
    cap[0].text_len = strlen(cap[0].text);
    cap[0].duration = 10;
    relic_status st = relic_audio_cau_from_pcm((const int16_t *)(const void *)d, n / 4, 2, 22050, 16, 1, cap, 1, a, &m, &e);
    if (st) return st;
    relic_buf_init_arena(&out, a, 0);
    return buf_status(&out, relic_cau_write(&m, &out, &e));
}

static void test_codecs_use_only_the_arena(void **state)
{
    (void)state;
    size_t n = 64 * 1024;
    int16_t *pcm = malloc(n);
    assert_non_null(pcm);
    for (size_t i = 0; i < n / 2; i++) pcm[i] = (int16_t)(8000 * sin((double)(i / 2) * 0.05 + (double)(i & 1)));
    const uint8_t *d = (const uint8_t *)pcm;
    run_case("lzss spz encode best", "synthetic 64 KiB", spz_encode_case, d, n);
    run_case("lzss spz encode+decode", "synthetic 64 KiB", spz_roundtrip_case, d, n);
    run_case("zlib deflate+inflate", "synthetic 64 KiB", zlib_roundtrip_case, d, n);
    run_case("adpcm encode+decode", "synthetic 64 KiB", adpcm_roundtrip_case, d, n);
    run_case("cau from pcm (adpcm)+write", "synthetic 64 KiB", cau_from_pcm_case, d, n);
    free(pcm);
}

/* ---- TPA / CAU ---- */

static void keep_tpa(void *ctx, const relic_error *e) { keep_code(ctx, e); }
static relic_status tpa_decode_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_tpa_view v;
    relic_tpa_file m;
    relic_error e;
    relic_status st = relic_tpa_validate(d, n, &v, &e);
    return st ? st : relic_tpa_decode(&v, a, &m, &e);
}
static relic_status tpa_check_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_tpa_view v;
    relic_tpa_file m;
    relic_error e;
    first_code f = {0, 0};
    relic_status st = relic_tpa_validate(d, n, &v, &e);
    if (!st) st = relic_tpa_decode(&v, a, &m, &e);
    if (st) return st;
    relic_tpa_check(&v, &m, 1, a, keep_tpa, &f);
    return check_result(&f);
}
static relic_status tpa_write_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_tpa_view v;
    relic_tpa_file m;
    relic_error e;
    relic_buf out;
    relic_status st = relic_tpa_validate(d, n, &v, &e);
    if (!st) st = relic_tpa_decode(&v, a, &m, &e);
    if (st) return st;
    relic_buf_init_arena(&out, a, 0);
    return buf_status(&out, relic_tpa_write(&m, &out, &e));
}
static const named_case tpa_cases[] = {
    {"tpa decode", tpa_decode_case},
    {"tpa check strict", tpa_check_case},
    {"tpa decode+write", tpa_write_case},
};
static relic_status cau_write_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_cau_view v;
    relic_cau_file m;
    relic_error e;
    relic_buf out;
    relic_status st = relic_cau_validate(d, n, &v, &e);
    if (!st) st = relic_cau_decode(&v, a, &m, &e);
    if (st) return st;
    relic_buf_init_arena(&out, a, 0);
    return buf_status(&out, relic_cau_write(&m, &out, &e));
}
static const named_case cau_cases[] = {{"cau decode+write", cau_write_case}};

static void test_tpa_and_cau_use_only_the_arena(void **state)
{
    (void)state;
    run_on_file(CORPUS "/tpa/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__Menu.tpa", tpa_cases, 3);
    run_on_file(CORPUS "/cau/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Tools__Anne004.cau", cau_cases, 1);
}

/* ---- TRRN / WATR (the terrain packets of a TRN) ---- */

static relic_status terrain_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_trn_view v;
    relic_trn_file m;
    relic_error e;
    first_code f = {0, 0};
    relic_status st = relic_trn_validate(d, n, &v, &e);
    if (!st) st = relic_trn_decode(&v, a, &m, &e);
    if (st) return st;
    relic_trn_check_terrain(&m, a, count_trn, &f);
    return check_result(&f);
}
static const named_case terrain_cases[] = {{"trn decode+trrn/watr read", terrain_case}};

static void test_trrn_and_watr_use_only_the_arena(void **state)
{
    (void)state;
    run_on_file(CORPUS "/trn/teemul__ALFA-017-Amn__shrine_of_tymora.TRN", terrain_cases, 1);
}

/* ---- GROFF / GRF / SCN / PID ---- */

static void keep_groff(void *ctx, const relic_error *e) { keep_code(ctx, e); }
static relic_status groff_model(const uint8_t *d, size_t n, relic_arena *a, relic_groff_file *m)
{
    relic_bytes b;
    relic_groff_view v;
    relic_error e;
    int compressed = 0;
    relic_status st = relic_groff_open(d, n, a, &b, &compressed, &e);
    if (!st) st = relic_groff_validate(b.data, b.size, &v, &e);
    return st ? st : relic_groff_decode(&v, a, m, &e);
}
static relic_status groff_check_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_bytes b;
    relic_groff_view v;
    relic_error e;
    int compressed = 0;
    first_code f = {0, 0};
    relic_status st = relic_groff_open(d, n, a, &b, &compressed, &e);
    if (!st) st = relic_groff_validate(b.data, b.size, &v, &e);
    if (st) return st;
    relic_groff_check(&v, 1, a, keep_groff, &f);
    return check_result(&f);
}
static relic_status grf_sections_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_groff_file m;
    relic_grf_file f;
    relic_error e;
    relic_status st = groff_model(d, n, a, &m);
    return st ? st : relic_grf_file_decode(&m, a, &f, &e);
}
static relic_status grf_write_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_groff_file m;
    relic_grf_file f;
    relic_error e;
    relic_buf out;
    relic_status st = groff_model(d, n, a, &m);
    if (!st) st = relic_grf_file_decode(&m, a, &f, &e);
    if (st) return st;
    relic_buf_init_arena(&out, a, 0);
    return buf_status(&out, relic_grf_file_write(&f, a, &out, &e));
}
/* librelic-export: a level as OBJ and as TPM text */
static relic_status grf_obj_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_groff_file m;
    relic_grf_file f;
    relic_error e;
    relic_buf obj, mtl;
    relic_status st = groff_model(d, n, a, &m);
    if (!st) st = relic_grf_file_decode(&m, a, &f, &e);
    if (st) return st;
    relic_buf_init_arena(&obj, a, 0);
    relic_buf_init_arena(&mtl, a, 0);
    st = relic_grf_export_obj(&f, "x.mtl", a, &obj, &mtl, &e);
    return buf_status(&mtl, buf_status(&obj, st));
}
static relic_status grf_tpm_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_groff_file m;
    relic_grf_file f;
    relic_error e;
    relic_buf out;
    relic_status st = groff_model(d, n, a, &m);
    if (!st) st = relic_grf_file_decode(&m, a, &f, &e);
    if (st) return st;
    relic_buf_init_arena(&out, a, 0);
    return buf_status(&out, relic_tpm_from_grf(&f, a, &out, NULL, &e));
}
static const named_case groff_cases[] = {
    {"groff open+check strict", groff_check_case},
    {"grf sections decode", grf_sections_case},
    {"grf sections decode+write", grf_write_case},
    {"grf decode+export obj", grf_obj_case},
    {"grf decode+tpm from grf", grf_tpm_case},
};
static relic_status pid_check_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_pid_view v;
    relic_error e;
    first_code f = {0, 0};
    relic_status st = relic_pid_validate(d, n, &v, &e);
    if (st) return st;
    relic_pid_check(&v, 1, a, keep_groff, &f);
    return check_result(&f);
}
static relic_status pid_write_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_pid_view v;
    relic_pid_file m;
    relic_error e;
    relic_buf out;
    relic_status st = relic_pid_validate(d, n, &v, &e);
    if (!st) st = relic_pid_decode(&v, a, &m, &e);
    if (st) return st;
    relic_buf_init_arena(&out, a, 0);
    return buf_status(&out, relic_pid_write(&m, &out, &e));
}
static const named_case pid_cases[] = {{"pid check strict", pid_check_case}, {"pid decode+write", pid_write_case}};

static void test_groff_grf_scn_pid_use_only_the_arena(void **state)
{
    (void)state;
    run_on_file(CORPUS "/grf/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo.grf", groff_cases, 5);
    run_on_file(CORPUS "/scn/OpenTrespasser__JurassicParkTrespasser__jp2_pc__SlideTest.scn", groff_cases, 3);
    run_on_file(CORPUS "/pid/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo-130.pid", pid_cases, 2);
}

/* ---- WTD ---- */

static relic_status wtd_decode_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_wtd_terrain t;
    relic_error e;
    return relic_wtd_decode_terrain(d, n, a, &t, &e);
}
static relic_status wtd_reencode_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_wtd_terrain t;
    relic_error e;
    relic_buf out;
    relic_status st = relic_wtd_decode_terrain(d, n, a, &t, &e);
    if (st) return st;
    relic_buf_init_arena(&out, a, 0);
    return buf_status(&out, relic_wtd_encode(t.heights, t.n, &t.header.mapping, NULL, a, &out, NULL, &e));
}
static relic_status wtd_mesh_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_wtd_terrain t;
    relic_wtd_mesh m;
    relic_error e;
    relic_status st = relic_wtd_decode_terrain(d, n, a, &t, &e);
    return st ? st : relic_wtd_mesh_build(d, n, &t, a, &m, &e);
}
/* librelic-export: a heightmap PNG back to heights (libpng's memory included) */
static relic_status png_read_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_wtd_heightmap h;
    relic_error e;
    return relic_wtd_png_read(d, n, a, &h, &e);
}
static const named_case wtd_cases[] = {
    {"wtd decode", wtd_decode_case},
    {"wtd decode+encode", wtd_reencode_case},
    {"wtd decode+mesh", wtd_mesh_case},
};

/* The corpus WTD is an 8192 x 8192 grid (256 MiB of heights): the cases run
 * on a 64 x 64 terrain encoded here instead. */
static void test_wtd_uses_only_the_arena(void **state)
{
    (void)state;
    enum { N = 64 };
    int32_t *h = malloc(sizeof(int32_t) * N * N);
    relic_wtd_mapping m;
    relic_arena a;
    relic_buf file;
    relic_error e;
    assert_non_null(h);
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) h[y * N + x] = (int32_t)(100 * sin(x * 0.2) * cos(y * 0.15));
    relic_wtd_mapping_init(&m, N, 0, 0, 1, 0.01);
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&file, 0);
    relic_status est = relic_wtd_encode(h, N, &m, NULL, &a, &file, NULL, &e);
    if (est) print_message("wtd encode: %s\n", e.message);
    assert_int_equal(est, RELIC_OK);
    relic_arena_release(&a);
    for (size_t i = 0; i < sizeof wtd_cases / sizeof wtd_cases[0]; i++)
        run_case(wtd_cases[i].name, "synthetic 64 x 64", wtd_cases[i].fn, file.data, file.size);
    /* its heightmap PNG, written outside the guard (relic_png_write takes no arena yet) */
    relic_wtd_terrain t;
    relic_buf png;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&png, 0);
    assert_int_equal(relic_wtd_decode_terrain(file.data, file.size, &a, &t, &e), RELIC_OK);
    assert_int_equal(relic_wtd_png(&t, &a, &png, &e), RELIC_OK);
    run_case("wtd heightmap png read", "synthetic 64 x 64", png_read_case, png.data, png.size);
    relic_buf_free(&png);
    relic_arena_release(&a);
    relic_buf_free(&file);
    free(h);
}

/* ---- TPM / TRI / TRR (text, synthetic) ---- */

static relic_status trr_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_trr_points p;
    relic_trr_grid g;
    relic_error e;
    relic_buf out;
    relic_status st = relic_trr_parse("t.trr", d, n, a, &p, &e);
    if (!st) st = relic_trr_to_grid(&p, 0, a, &g, &e);
    if (st) return st;
    relic_buf_init_arena(&out, a, 0);
    return buf_status(&out, relic_trr_write(&p, &out, &e));
}
static relic_status tri_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_tri_mesh m;
    relic_error e;
    relic_buf out;
    relic_status st = relic_tri_parse("t.tri", d, n, a, &m, &e);
    if (st) return st;
    relic_buf_init_arena(&out, a, 0);
    return buf_status(&out, relic_tri_write(&m, &out, &e));
}
static relic_status tpm_case(const uint8_t *d, size_t n, relic_arena *a)
{
    relic_tpm_file m;
    relic_error e;
    relic_buf out;
    relic_status st = relic_tpm_parse("t.tpm", d, n, a, &m, &e);
    if (st) return st;
    relic_buf_init_arena(&out, a, 0);
    return buf_status(&out, relic_tpm_write(&m, &out, &e));
}

static void test_text_formats_use_only_the_arena(void **state)
{
    (void)state;
    char trr[4096];
    size_t k = 0;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) k += (size_t)snprintf(trr + k, sizeof trr - k, "%d %d %d.5\n", x * 4, y * 4, (x * y) % 7);
    run_case("trr parse+grid+write", "synthetic 8 x 8 points", trr_case, (const uint8_t *)trr, k);
    static const char tri[] = "1\n0 1 2\n3\n0 0 0\n1 0 0\n0 1 0\n";
    run_case("tri parse+write", "synthetic triangle", tri_case, (const uint8_t *)tri, sizeof tri - 1);
    static const char tpm[] = "material \"stone\" {\n    bumpmap = \"stone.bmp\"\n}\n";
    run_case("tpm parse+write", "synthetic material", tpm_case, (const uint8_t *)tpm, sizeof tpm - 1);
}

/* ---- librelic-mutate: every mutator from the caller's arena ----
 *
 * A mutator rewinds its scratch arena between tries, so arena.used at the
 * end is not what it needed. The need is found by bisection instead: the
 * smallest scratch the call succeeds with (the same mutant as with 64 MiB:
 * a mutator does not fall back to a smaller mutant when scratch runs out),
 * and with one byte less the call must fail with RELIC_E_NOMEM, both with
 * no heap call. The output grows in an arena of its own. */

#define MUT_SCRATCH ((size_t)64 << 20)
#define MUT_OUT_AT ((size_t)128 << 20)
#define MUT_OUT ((size_t)64 << 20)

typedef relic_status (*mut_fn)(const uint8_t *d, size_t n, const uint8_t *d2, size_t n2, uint64_t seed, unsigned flags,
                               relic_arena *scratch, relic_buf *out);

static const relic_mut_format *mut_cur; /* the table mutate_table_case runs */

static relic_status mutate_table_case(const uint8_t *d, size_t n, const uint8_t *d2, size_t n2, uint64_t seed,
                                      unsigned flags, relic_arena *scratch, relic_buf *out)
{
    relic_error e;
    return relic_mutate(mut_cur, d, n, d2, n2, seed, flags, scratch, out, NULL, &e);
}
static relic_status mutate_bwm_case(const uint8_t *d, size_t n, const uint8_t *d2, size_t n2, uint64_t seed,
                                    unsigned flags, relic_arena *scratch, relic_buf *out)
{
    relic_error e;
    return relic_bwm_mutate(d, n, d2, n2, seed, flags, scratch, out, NULL, &e);
}
static relic_status mutate_gff_case(const uint8_t *d, size_t n, const uint8_t *d2, size_t n2, uint64_t seed,
                                    unsigned flags, relic_arena *scratch, relic_buf *out)
{
    relic_error e;
    return relic_gff_mutate(d, n, d2, n2, seed, flags, scratch, out, NULL, &e);
}
static const relic_token_vocab *tok_cur;
static relic_status mutate_tokens_case(const uint8_t *d, size_t n, const uint8_t *d2, size_t n2, uint64_t seed,
                                       unsigned flags, relic_arena *scratch, relic_buf *out)
{
    relic_error e;
    size_t max = n + n2 + 4096, size = 0;
    uint8_t *o = relic_buf_extend(out, max);
    if (!o) return RELIC_E_ARGUMENT; /* out's arena: not what is measured */
    relic_status st = relic_mutate_tokens(tok_cur, d, n, d2, n2, seed, flags, scratch, o, max, &size, NULL, &e);
    out->size = size;
    return st;
}

/* One call with scratch over big[0, limit); the status, the heap calls in
 * *calls and a digest of the output in *digest. */
static relic_status mut_once(mut_fn fn, const uint8_t *d, size_t n, const uint8_t *d2, size_t n2, uint64_t seed,
                             unsigned flags, size_t limit, unsigned long *calls, uint64_t *digest)
{
    relic_arena a, oa;
    relic_buf out;
    relic_arena_init_buffer(&a, big, limit);
    relic_arena_init_buffer(&oa, big + MUT_OUT_AT, MUT_OUT);
    relic_buf_init_arena(&out, &oa, 0);
    heap_guard_arm();
    relic_status st = fn(d, n, d2, n2, seed, flags, &a, &out);
    *calls = heap_guard_disarm();
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < out.size; i++) h = (h ^ out.data[i]) * 1099511628211ull;
    *digest = h ^ out.size;
    return st;
}

static void run_mutator(const char *name, const char *input, mut_fn fn, const uint8_t *d, size_t n, const uint8_t *d2,
                        size_t n2, unsigned flags)
{
    size_t worst = 0;
    for (uint64_t seed = 1; seed <= 2; seed++) {
        unsigned long calls;
        uint64_t want, got;
        relic_status st = mut_once(fn, d, n, d2, n2, seed, flags, MUT_SCRATCH, &calls, &want);
        if (st != RELIC_OK || calls != 0)
            print_message("%s on %s seed %llu: status %d, %lu heap calls\n", name, input, (unsigned long long)seed,
                          (int)st, calls);
        assert_int_equal(calls, 0);
        /* RELIC_E_LIMIT: no suitable mutant of this input for this seed (not a memory matter) */
        if (st == RELIC_E_LIMIT) continue;
        assert_int_equal(st, RELIC_OK);
        size_t lo = 0, hi = MUT_SCRATCH; /* fails with lo bytes, succeeds with hi */
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            st = mut_once(fn, d, n, d2, n2, seed, flags, mid, &calls, &got);
            assert_int_equal(calls, 0);
            if (st == RELIC_OK) hi = mid;
            else lo = mid;
        }
        assert_int_equal(mut_once(fn, d, n, d2, n2, seed, flags, hi, &calls, &got), RELIC_OK);
        assert_true(got == want);
        st = mut_once(fn, d, n, d2, n2, seed, flags, hi - 1, &calls, &got);
        if (st != RELIC_E_NOMEM || calls != 0)
            print_message("%s on %s seed %llu with %zu bytes: status %d, %lu heap calls\n", name, input,
                          (unsigned long long)seed, hi - 1, (int)st, calls);
        assert_int_equal(st, RELIC_E_NOMEM);
        assert_int_equal(calls, 0);
        if (hi > worst) worst = hi;
    }
    print_message("arena: %-28s %-44.44s %10zu bytes\n", name, input, worst);
}

/* Map path (outside the guard); NULL, saying so, when it is absent. */
static int map_or_skip(const char *path, relic_mapping *m)
{
    relic_error err;
    FILE *f = fopen(path, "rb");
    if (!f) {
        print_message("note: %s not found: its mutator cases are skipped\n", path);
        return 0;
    }
    fclose(f);
    assert_int_equal(relic_map_file(path, 0, m, &err), RELIC_OK);
    return 1;
}

static void table_on_file(const char *name, const relic_mut_format *f, const char *path, unsigned flags)
{
    relic_mapping m;
    if (!map_or_skip(path, &m)) return;
    mut_cur = f;
    const char *base = strrchr(path, '/');
    run_mutator(name, base ? base + 1 : path, mutate_table_case, m.bytes.data, m.bytes.size, NULL, 0, flags);
    relic_unmap(&m);
}

static void test_bwm_and_gff_mutators_use_only_the_arena(void **state)
{
    (void)state;
    relic_mapping room, crate, gff, gff2;
    relic_error err;
    assert_int_equal(relic_map_file(ROOM_WOK, 0, &room, &err), RELIC_OK);
    assert_int_equal(relic_map_file("tests/samples/crate.pwk", 0, &crate, &err), RELIC_OK);
    const uint8_t *r = room.bytes.data, *c = crate.bytes.data;
    size_t rn = room.bytes.size, cn = crate.bytes.size;
    mut_cur = &relic_bwm_mutator;
    run_mutator("mutate bwm tables", "room.wok", mutate_table_case, r, rn, NULL, 0, 0);
    run_mutator("mutate bwm tables invalid", "room.wok", mutate_table_case, r, rn, NULL, 0, RELIC_MUTATE_INVALID);
    run_mutator("mutate bwm tables crossover", "room.wok + crate.pwk", mutate_table_case, r, rn, c, cn,
                RELIC_MUTATE_CROSSOVER);
    run_mutator("bwm_mutate", "room.wok", mutate_bwm_case, r, rn, NULL, 0, 0);
    run_mutator("bwm_mutate invalid", "room.wok", mutate_bwm_case, r, rn, NULL, 0, RELIC_MUTATE_INVALID);
    run_mutator("bwm_mutate crossover", "room.wok + crate.pwk", mutate_bwm_case, r, rn, c, cn, RELIC_MUTATE_CROSSOVER);
    /* the entry point for other fuzzers: detected format, in place, no heap */
    static uint8_t buf[1 << 16];
    int made = 0;
    assert_string_equal(relic_mutate_buffer_format(NULL, r, rn), "bwm");
    for (unsigned seed = 1; seed <= 16; seed++) {
        relic_arena a;
        memcpy(buf, r, rn);
        relic_arena_init_buffer(&a, big, MUT_SCRATCH);
        heap_guard_arm();
        size_t got = relic_mutate_buffer(NULL, buf, rn, sizeof buf, c, cn, seed, &a);
        assert_int_equal(heap_guard_disarm(), 0);
        assert_true(got <= sizeof buf);
        made += got > 0 && (got != rn || memcmp(buf, r, rn) != 0);
    }
    assert_true(made >= 12);
    relic_unmap(&room);
    relic_unmap(&crate);
    if (map_or_skip(CORPUS "/gff/seedhartha__reone__limbo__modules__m01aa__m01aa.git", &gff)) {
        if (map_or_skip(CORPUS "/gff/CromFr__nwn-lib-d__unittest__TestImportExportTRN.git", &gff2)) {
            const uint8_t *g = gff.bytes.data, *g2 = gff2.bytes.data;
            size_t gn = gff.bytes.size, gn2 = gff2.bytes.size;
            run_mutator("gff_mutate", "m01aa.git", mutate_gff_case, g, gn, NULL, 0, 0);
            run_mutator("gff_mutate invalid", "m01aa.git", mutate_gff_case, g, gn, NULL, 0, RELIC_MUTATE_INVALID);
            run_mutator("gff_mutate crossover", "m01aa.git + TestImportExportTRN.git", mutate_gff_case, g, gn, g2, gn2,
                        RELIC_MUTATE_CROSSOVER);
            mut_cur = &relic_gff_mutator;
            run_mutator("mutate gff tables", "TestImportExportTRN.git", mutate_table_case, g2, gn2, NULL, 0, 0);
            relic_unmap(&gff2);
        }
        relic_unmap(&gff);
    }
}

static void test_container_mutators_use_only_the_arena(void **state)
{
    (void)state;
    table_on_file("mutate erf", relic_mutator_erf(), CORPUS "/other/NickHugi__PyKotor__tests__files__test.erf", 0);
    table_on_file("mutate rim", relic_mutator_rim(), CORPUS "/other/NickHugi__PyKotor__tests__files__test.rim", 0);
    table_on_file("mutate trn walkmeshes", relic_mutator_trn_aswm(),
                  CORPUS "/trx/Kaedrin__nwn2cc__NWN2_WIP__Source__DB_Beta_23__abandoned_house.trx", 0);
    table_on_file("mutate trn walkmeshes invalid", relic_mutator_trn_aswm(),
                  CORPUS "/trx/Kaedrin__nwn2cc__NWN2_WIP__Source__DB_Beta_23__abandoned_house.trx", RELIC_MUTATE_INVALID);
    table_on_file("mutate tpa", &relic_tpa_mutator,
                  CORPUS "/tpa/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__Menu.tpa", 0);
    table_on_file("mutate cau", &relic_cau_mutator,
                  CORPUS "/cau/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Tools__Anne004.cau", 0);
    table_on_file("mutate pid", &relic_pid_mutator,
                  CORPUS "/pid/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo-130.pid", 0);
    table_on_file("mutate groff (scn)", &relic_groff_mutator,
                  CORPUS "/scn/OpenTrespasser__JurassicParkTrespasser__jp2_pc__SlideTest.scn", 0);
}

/* SPZ, SWP and SZDD GROFF (made here: an LZSS stream of known bytes, and an
 * SZDD of the smallest GROFF scene of the corpus), WTD (a 32 x 32 terrain),
 * the text formats' tables and their token mutator. */
static void test_codec_and_text_mutators_use_only_the_arena(void **state)
{
    (void)state;
    relic_arena a;
    relic_buf spz, szdd, wtd;
    relic_error e;
    uint8_t raw[3000];
    for (size_t i = 0; i < sizeof raw; i++) raw[i] = (uint8_t)(i % 251 < 64 ? i % 7 : i * 31);
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&spz, 0);
    assert_int_equal(relic_lzss_container_encode(RELIC_LZSS_SPZ, RELIC_LZSS_FAST, 0, raw, sizeof raw, &a, &spz, &e),
                     RELIC_OK);
    run_mutator("mutate spz", "synthetic 3000 bytes", (mut_cur = relic_mutator_spz(), mutate_table_case), spz.data,
                spz.size, NULL, 0, 0);
    run_mutator("mutate spz invalid", "synthetic 3000 bytes", mutate_table_case, spz.data, spz.size, NULL, 0,
                RELIC_MUTATE_INVALID);
    mut_cur = relic_mutator_swp();
    run_mutator("mutate swp", "synthetic 3000 bytes", mutate_table_case, raw, sizeof raw, NULL, 0, 0);
    relic_mapping scn;
    if (map_or_skip(CORPUS "/scn/OpenTrespasser__JurassicParkTrespasser__jp2_pc__SlideTest.scn", &scn)) {
        relic_buf_init(&szdd, 0);
        assert_int_equal(relic_lzss_container_encode(RELIC_LZSS_SZDD, RELIC_LZSS_FAST, 'n', scn.bytes.data,
                                                     scn.bytes.size, &a, &szdd, &e),
                         RELIC_OK);
        mut_cur = relic_mutator_groff_szdd();
        run_mutator("mutate groff szdd", "SlideTest.scn, SZDD", mutate_table_case, szdd.data, szdd.size, NULL, 0, 0);
        relic_buf_free(&szdd);
        relic_unmap(&scn);
    }
    enum { N = 32 };
    static int32_t h[N * N];
    relic_wtd_mapping m;
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) h[y * N + x] = (int32_t)(80 * sin(x * 0.3) * cos(y * 0.2));
    relic_wtd_mapping_init(&m, N, 0, 0, 1, 0.01);
    relic_buf_init(&wtd, 0);
    assert_int_equal(relic_wtd_encode(h, N, &m, NULL, &a, &wtd, NULL, &e), RELIC_OK);
    mut_cur = relic_mutator_wtd();
    run_mutator("mutate wtd", "synthetic 32 x 32", mutate_table_case, wtd.data, wtd.size, NULL, 0, 0);
    run_mutator("mutate wtd invalid", "synthetic 32 x 32", mutate_table_case, wtd.data, wtd.size, NULL, 0,
                RELIC_MUTATE_INVALID);
    relic_buf_free(&wtd);
    relic_buf_free(&spz);
    relic_arena_release(&a);

    static const char tri[] = "2\n0 1 2\n0 2 3\n4\n0 0 0\n1 0 0\n1 1 0\n0 1 0.5\n";
    static const char trr[] = "0 0 1.5\n4 0 2\n0 4 2.5\n4 4 3\n";
    static const char tpm[] = "mesh \"Plane01\"\n{\n m = \"wood04\"\n v = (-1.0,-0.5,0.0)\n v = (1.0,-0.5,0.0)\n"
                              " v = (-1.0,0.5,0.0)\n t = (0.0,0.0)\n n = (0.0,0.0,1.0)\n f = (3,1,2),(1,1,1),(1,1,1),1\n}\n";
    const uint8_t *t1 = (const uint8_t *)tri, *t2 = (const uint8_t *)trr, *t3 = (const uint8_t *)tpm;
    mut_cur = relic_mutator_tri();
    run_mutator("mutate tri", "synthetic 2 triangles", mutate_table_case, t1, sizeof tri - 1, NULL, 0, 0);
    mut_cur = relic_mutator_trr();
    run_mutator("mutate trr", "synthetic 4 points", mutate_table_case, t2, sizeof trr - 1, NULL, 0, 0);
    mut_cur = relic_mutator_tpm();
    run_mutator("mutate tpm", "synthetic mesh", mutate_table_case, t3, sizeof tpm - 1, NULL, 0, 0);
    tok_cur = &relic_tokens_tpm;
    run_mutator("mutate_tokens tpm", "synthetic mesh", mutate_tokens_case, t3, sizeof tpm - 1, t1,
                sizeof tri - 1, RELIC_MUTATE_CROSSOVER);
    tok_cur = &relic_tokens_tri;
    run_mutator("mutate_tokens tri", "synthetic 2 triangles", mutate_tokens_case, t1, sizeof tri - 1, NULL, 0, 0);
    tok_cur = &relic_tokens_trr;
    run_mutator("mutate_tokens trr", "synthetic 4 points", mutate_tokens_case, t2, sizeof trr - 1, NULL, 0, 0);
}

/* ---- JSON printers (librelic-json): scratch only from the caller ---- */

/* The printers without an arena argument take their scratch from out's
 * arena; their _in twins from the arena given, with out over caller memory.
 * Either way no heap call. A GFF the test makes itself (always) and the
 * corpus's GRF and SCN (when present). */
static const char gff_sample_json[] =
    "{\"__data_type\":\"UTI \",\"Tag\":{\"type\":\"cexostring\",\"value\":\"sword\"},"
    "\"Name\":{\"type\":\"cexolocstring\",\"id\":7,\"value\":{\"0\":\"Sword\"}},"
    "\"Props\":{\"type\":\"list\",\"value\":[{\"__struct_id\":1,\"Cost\":{\"type\":\"int\",\"value\":5}},"
    "{\"__struct_id\":2,\"Cost\":{\"type\":\"float\",\"value\":1.5}}]}}";

/* gff_sample_json as GFF bytes, in *bytes (a heap buffer: made outside the guard) */
static void gff_sample(relic_buf *bytes)
{
    relic_arena a;
    relic_gff_tree t;
    relic_error e;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(bytes, 0);
    assert_int_equal(relic_gff_json_read_tree(gff_sample_json, sizeof gff_sample_json - 1, RELIC_GFF_ENC_AUTO, &a, &t, &e),
                     RELIC_OK);
    assert_int_equal(relic_gff_write_tree(&t, RELIC_GFF_LAYOUT_DEFAULT, &a, bytes, NULL, &e), RELIC_OK);
    relic_arena_release(&a);
}

/* out over caller memory, for the _in twins: 64 MiB holds demo.grf's JSON */
#define FIXED_OUT ((size_t)64 << 20)
static uint8_t *fixed_out;

static int strref_text(void *ctx, uint32_t strref, const char **text, size_t *n)
{
    (void)ctx;
    (void)strref;
    *text = "a talk table line";
    *n = strlen(*text);
    return 1;
}

typedef enum { PRINT_DOC,
               PRINT_STRREFS,
               PRINT_TREE } gff_print;
/* Open d, print it the way p says, into an arena buffer (in = 0: the
 * wrapper) or over fixed_out with scratch a (in = 1: the _in twin). */
static relic_status gff_print_case(const uint8_t *d, size_t n, relic_arena *a, gff_print p, int in)
{
    relic_gff_doc doc;
    relic_gff_tree t;
    relic_error e;
    relic_buf out;
    relic_status st = relic_gff_open(d, n, a, NULL, NULL, &doc, &e);
    if (!st && p == PRINT_TREE) st = relic_gff_tree_from_doc(&doc, a, &t, &e);
    if (st) return st;
    if (in) relic_buf_init_fixed(&out, fixed_out, FIXED_OUT);
    else relic_buf_init_arena(&out, a, 0);
    switch (p) {
    case PRINT_DOC:
        st = in ? relic_gff_json_print_doc_in(&doc, RELIC_GFF_ENC_AUTO, &out, a, &e)
                : relic_gff_json_print_doc(&doc, RELIC_GFF_ENC_AUTO, &out, &e);
        break;
    case PRINT_STRREFS:
        st = in ? relic_gff_json_print_doc_strrefs_in(&doc, RELIC_GFF_ENC_AUTO, strref_text, NULL, &out, a, &e)
                : relic_gff_json_print_doc_strrefs(&doc, RELIC_GFF_ENC_AUTO, strref_text, NULL, &out, &e);
        break;
    case PRINT_TREE:
        st = in ? relic_gff_json_print_tree_in(&t, RELIC_GFF_ENC_AUTO, &out, a, &e)
                : relic_gff_json_print_tree(&t, RELIC_GFF_ENC_AUTO, &out, &e);
        break;
    }
    return buf_status(&out, st);
}
static relic_status gff_json_doc_case(const uint8_t *d, size_t n, relic_arena *a) { return gff_print_case(d, n, a, PRINT_DOC, 0); }
static relic_status gff_json_doc_in_case(const uint8_t *d, size_t n, relic_arena *a) { return gff_print_case(d, n, a, PRINT_DOC, 1); }
static relic_status gff_json_strrefs_case(const uint8_t *d, size_t n, relic_arena *a)
{
    return gff_print_case(d, n, a, PRINT_STRREFS, 0);
}
static relic_status gff_json_strrefs_in_case(const uint8_t *d, size_t n, relic_arena *a)
{
    return gff_print_case(d, n, a, PRINT_STRREFS, 1);
}
static relic_status gff_json_tree_case(const uint8_t *d, size_t n, relic_arena *a) { return gff_print_case(d, n, a, PRINT_TREE, 0); }
static relic_status gff_json_tree_in_case(const uint8_t *d, size_t n, relic_arena *a) { return gff_print_case(d, n, a, PRINT_TREE, 1); }
static const named_case gff_json_cases[] = {
    {"gff json print doc", gff_json_doc_case},
    {"gff json print doc_in (fixed out)", gff_json_doc_in_case},
    {"gff json print strrefs", gff_json_strrefs_case},
    {"gff json print strrefs_in (fixed out)", gff_json_strrefs_in_case},
    {"gff json print tree", gff_json_tree_case},
    {"gff json print tree_in (fixed out)", gff_json_tree_in_case},
};

static relic_status grf_json_case_of(const uint8_t *d, size_t n, relic_arena *a, int in)
{
    relic_groff_file m;
    relic_grf_file f;
    relic_error e;
    relic_buf out;
    relic_status st = groff_model(d, n, a, &m);
    if (!st) st = relic_grf_file_decode(&m, a, &f, &e);
    if (st) return st;
    if (in) relic_buf_init_fixed(&out, fixed_out, FIXED_OUT);
    else relic_buf_init_arena(&out, a, 0);
    return buf_status(&out, in ? relic_grf_json_print_in(&f, &out, a, &e) : relic_grf_json_print(&f, &out, &e));
}
static relic_status grf_json_case(const uint8_t *d, size_t n, relic_arena *a) { return grf_json_case_of(d, n, a, 0); }
static relic_status grf_json_in_case(const uint8_t *d, size_t n, relic_arena *a) { return grf_json_case_of(d, n, a, 1); }
static const named_case grf_json_cases[] = {{"grf json print", grf_json_case}, {"grf json print_in (fixed out)", grf_json_in_case}};

static void test_json_printers_use_only_the_arena(void **state)
{
    relic_buf gff;
    (void)state;
    gff_sample(&gff);
    for (size_t i = 0; i < sizeof gff_json_cases / sizeof gff_json_cases[0]; i++)
        run_case(gff_json_cases[i].name, "synthetic UTI", gff_json_cases[i].fn, gff.data, gff.size);
    relic_buf_free(&gff);
    run_on_file(CORPUS "/gff/seedhartha__reone__limbo__modules__m01aa__m01aa.git", gff_json_cases, 6);
    run_on_file(CORPUS "/grf/OpenTrespasser__JurassicParkTrespasser__jp2_pc__Distribution__Demo__data__demo.grf", grf_json_cases, 2);
    run_on_file(CORPUS "/scn/OpenTrespasser__JurassicParkTrespasser__jp2_pc__SlideTest.scn", grf_json_cases, 2);
}

/* A printer without an arena argument given a buffer over caller memory has
 * nowhere but the heap to take scratch from: it refuses, naming its _in
 * twin, and makes no heap call (it took a heap arena before). */
static void test_json_printers_refuse_caller_memory_without_an_arena(void **state)
{
    relic_buf gff, out;
    relic_arena a;
    relic_gff_doc doc;
    relic_gff_tree t;
    relic_error e[3];
    relic_status st[3];
    (void)state;
    gff_sample(&gff);
    relic_arena_init_buffer(&a, big, BIG_ARENA);
    assert_int_equal(relic_gff_open(gff.data, gff.size, &a, NULL, NULL, &doc, &e[0]), RELIC_OK);
    assert_int_equal(relic_gff_tree_from_doc(&doc, &a, &t, &e[0]), RELIC_OK);
    relic_buf_init_fixed(&out, fixed_out, FIXED_OUT);
    heap_guard_arm();
    st[0] = relic_gff_json_print_doc(&doc, RELIC_GFF_ENC_AUTO, &out, &e[0]);
    st[1] = relic_gff_json_print_doc_strrefs(&doc, RELIC_GFF_ENC_AUTO, strref_text, NULL, &out, &e[1]);
    st[2] = relic_gff_json_print_tree(&t, RELIC_GFF_ENC_AUTO, &out, &e[2]);
    assert_int_equal(heap_guard_disarm(), 0);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(st[i], RELIC_E_ARGUMENT);
        assert_non_null(strstr(e[i].message, "_in"));
    }
    assert_int_equal(out.size, 0);
    relic_buf_free(&gff);

    relic_mapping m;
    relic_groff_file g;
    relic_grf_file f;
    const char *scn = CORPUS "/scn/OpenTrespasser__JurassicParkTrespasser__jp2_pc__SlideTest.scn";
    FILE *probe = fopen(scn, "rb");
    if (!probe) {
        print_message("note: %s not found: the GRF printer's case is skipped\n", scn);
        return;
    }
    fclose(probe);
    assert_int_equal(relic_map_file(scn, 0, &m, &e[0]), RELIC_OK);
    relic_arena_init_buffer(&a, big, BIG_ARENA);
    assert_int_equal(groff_model(m.bytes.data, m.bytes.size, &a, &g), RELIC_OK);
    assert_int_equal(relic_grf_file_decode(&g, &a, &f, &e[0]), RELIC_OK);
    heap_guard_arm();
    st[0] = relic_grf_json_print(&f, &out, &e[0]);
    assert_int_equal(heap_guard_disarm(), 0);
    assert_int_equal(st[0], RELIC_E_ARGUMENT);
    assert_non_null(strstr(e[0].message, "relic_grf_json_print_in"));
    relic_unmap(&m);
}

/* ---- relic_map_file_arena on a pipe (read, not mapped) ---- */

/* A pipe holding n bytes of p, its write end closed; the read end's
 * /dev/fd path in path. */
static int pipe_with(const uint8_t *p, size_t n, char *path, size_t cap)
{
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    assert_int_equal(write(fd[1], p, n), (ssize_t)n);
    close(fd[1]);
    snprintf(path, cap, "/dev/fd/%d", fd[0]);
    return fd[0];
}

static void test_map_file_reads_a_pipe_into_the_arena(void **state)
{
    (void)state;
    uint8_t data[20000];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 7 + 3);
    char path[64];
    relic_arena a;
    relic_mapping m;
    relic_error e;
    int fd = pipe_with(data, sizeof data, path, sizeof path);
    relic_arena_init_buffer(&a, big, BIG_ARENA);
    heap_guard_arm();
    relic_status st = relic_map_file_arena(path, 0, &a, &m, &e);
    unsigned long calls = heap_guard_disarm();
    close(fd);
    assert_int_equal(st, RELIC_OK);
    assert_int_equal(calls, 0);
    assert_int_equal(m.bytes.size, sizeof data);
    assert_memory_equal(m.bytes.data, data, sizeof data);
    assert_true(m.bytes.data >= big && m.bytes.data < big + BIG_ARENA);
    relic_unmap(&m);
    size_t used = a.used;
    fd = pipe_with(data, sizeof data, path, sizeof path);
    relic_arena_init_buffer(&a, big, used - 1);
    heap_guard_arm();
    st = relic_map_file_arena(path, 0, &a, &m, &e);
    calls = heap_guard_disarm();
    close(fd);
    assert_int_equal(st, RELIC_E_NOMEM);
    assert_int_equal(calls, 0);
    print_message("arena: %-28s %-44.44s %10zu bytes\n", "map_file_arena (pipe)", "20000 bytes", used);
}

/* ---- relic_sort (what replaces qsort, which mallocs past 1 KiB) ---- */

typedef struct keyed {
    uint32_t key, order;
} keyed;
static int by_key(const void *a, const void *b)
{
    uint32_t x = ((const keyed *)a)->key, y = ((const keyed *)b)->key;
    return (x > y) - (x < y);
}

static void test_sort_is_stable_and_uses_only_the_arena(void **state)
{
    (void)state;
    enum { N = 5000 };
    keyed *v = malloc(sizeof(keyed) * N);
    assert_non_null(v);
    uint32_t r = 12345;
    for (uint32_t i = 0; i < N; i++) {
        r = r * 1103515245u + 12345u;
        v[i].key = (r >> 16) % 97; /* many equal keys */
        v[i].order = i;
    }
    relic_arena a;
    relic_arena_init_buffer(&a, big, BIG_ARENA);
    heap_guard_arm();
    relic_status st = relic_sort(v, N, sizeof *v, by_key, &a);
    unsigned long calls = heap_guard_disarm();
    assert_int_equal(st, RELIC_OK);
    assert_int_equal(calls, 0);
    for (size_t i = 1; i < N; i++) {
        assert_true(v[i - 1].key <= v[i].key);
        if (v[i - 1].key == v[i].key) assert_true(v[i - 1].order < v[i].order);
    }
    relic_arena_init_buffer(&a, big, sizeof(keyed) * N);
    assert_int_equal(relic_sort(v, N, sizeof *v, by_key, &a), RELIC_E_NOMEM);
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sort_is_stable_and_uses_only_the_arena),
        cmocka_unit_test(test_bwm_uses_only_the_arena),
        cmocka_unit_test(test_gff_reading_uses_only_the_arena),
        cmocka_unit_test(test_erf_and_rim_use_only_the_arena),
        cmocka_unit_test(test_trn_and_trx_use_only_the_arena),
        cmocka_unit_test(test_codecs_use_only_the_arena),
        cmocka_unit_test(test_tpa_and_cau_use_only_the_arena),
        cmocka_unit_test(test_trrn_and_watr_use_only_the_arena),
        cmocka_unit_test(test_groff_grf_scn_pid_use_only_the_arena),
        cmocka_unit_test(test_wtd_uses_only_the_arena),
        cmocka_unit_test(test_text_formats_use_only_the_arena),
        cmocka_unit_test(test_json_printers_use_only_the_arena),
        cmocka_unit_test(test_json_printers_refuse_caller_memory_without_an_arena),
        cmocka_unit_test(test_map_file_reads_a_pipe_into_the_arena),
        cmocka_unit_test(test_bwm_and_gff_mutators_use_only_the_arena),
        cmocka_unit_test(test_container_mutators_use_only_the_arena),
        cmocka_unit_test(test_codec_and_text_mutators_use_only_the_arena),
    };
    big = malloc(BIG_ARENA);
    fixed_out = malloc(FIXED_OUT);
    if (!big || !fixed_out) return 1;
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(fixed_out);
    free(big);
    return rc;
}
