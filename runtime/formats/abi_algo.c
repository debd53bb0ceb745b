/* abi_algo.c — the format algorithms of relic_abi.h for foreign callers
 * (python/relic/): BWM tables rebuilt from geometry (runtime/formats/kotor),
 * NWN2 walkmesh baking and path queries (runtime/formats/nwn2), WTD heights
 * both ways and Trespasser samples as 16-bit PCM (runtime/formats/tres).
 * Each call validates its input as `relic check` would first, works in a
 * heap arena released before return and hands its result to the caller's
 * sink. Problems go to the caller's callback as code, offset, path, message. */
#include <string.h>

#include "relic.h"
#include "relic_abi.h"
#include "relic_audio.h"
#include "relic_bwm.h"
#include "relic_gen.h"
#include "relic_swp.h"
#include "relic_trn.h"
#include "relic_wtd.h"
#include "cau.h"
#include "pid.h"
#include "tpa.h"

#define ABI_ARENA_LIMIT ((size_t)1 << 30)
#define ABI_MAX_REPORTS 20

typedef struct abi_call {
    relic_arena a;
    relic_buf out;
    relic_error err;
    relic_abi_problem_fn fn;
    void *user;
    unsigned problems;
} abi_call;

static void call_begin(abi_call *c, relic_abi_problem_fn fn, void *user)
{
    relic_arena_init_heap(&c->a, ABI_ARENA_LIMIT);
    relic_buf_init_arena(&c->out, &c->a, 0);
    relic_error_clear(&c->err);
    c->fn = fn;
    c->user = user;
    c->problems = 0;
}

static void report(void *vc, const relic_error *err)
{
    abi_call *c = vc;
    c->problems++;
    if (c->fn) c->fn(c->user, (int)err->code, err->offset, err->path, err->message[0] ? err->message : relic_status_name(err->code));
}

/* bad: the step failed with c->err. Sends the output or the problem; returns 0 or the problem count. */
static int call_end(abi_call *c, int bad, relic_abi_sink_fn sink, void *sink_user)
{
    if (!bad && c->out.failed) bad = relic_fail(&c->err, RELIC_E_NOMEM, 0, NULL, "output does not fit in memory") != RELIC_OK;
    if (bad && c->problems == 0) report(c, &c->err);
    else if (!bad && sink) sink(sink_user, c->out.data, c->out.size);
    relic_arena_release(&c->a);
    return bad ? (int)(c->problems ? c->problems : 1) : 0;
}

/* Write m, then validate the written bytes (a writer's output always validates). */
static int bwm_write_checked(abi_call *c, const relic_bwm_file *m)
{
    relic_bwm_view v;
    if (relic_bwm_write(m, &c->out, &c->err) != RELIC_OK) return 1;
    if (c->out.failed) return 0;
    if (relic_bwm_validate(c->out.data, c->out.size, &v, &c->err) != RELIC_OK) return 1;
    return relic_bwm_check(&v, 0, &c->a, report, c) != 0;
}

int relic_abi_bwm_build(uint32_t type, const float *vertices, uint32_t vertex_count, const uint32_t *faces,
                        const uint32_t *materials, uint32_t face_count, relic_abi_sink_fn sink, void *sink_user,
                        relic_abi_problem_fn fn, void *user)
{
    abi_call c;
    call_begin(&c, fn, user);
    relic_bwm_mesh mesh = {(const float(*)[3])vertices, vertex_count, (const uint32_t(*)[3])faces, materials, face_count};
    relic_bwm_file m;
    int bad = relic_bwm_from_mesh(&mesh, type, &c.a, &m, &c.err) != RELIC_OK || bwm_write_checked(&c, &m);
    return call_end(&c, bad, sink, sink_user);
}

int relic_abi_bwm_rebuild(const uint8_t *data, size_t size, unsigned what, relic_abi_sink_fn sink, void *sink_user,
                          relic_abi_problem_fn fn, void *user)
{
    abi_call c;
    call_begin(&c, fn, user);
    relic_bwm_view v;
    relic_bwm_file m;
    int bad = relic_bwm_validate(data, size, &v, &c.err) != RELIC_OK || relic_bwm_decode(&v, &c.a, &m, &c.err) != RELIC_OK ||
        relic_bwm_rebuild(&m, what, &c.a, &c.err) != RELIC_OK || bwm_write_checked(&c, &m);
    return call_end(&c, bad, sink, sink_user);
}

/* The model of a TRN/TRX whose container validates, and its first ASWM walkmesh (*packet). */
static int trn_load(abi_call *c, const uint8_t *data, size_t size, relic_trn_file *m, relic_trn_aswm *w, size_t *packet)
{
    relic_trn_view v;
    if (relic_trn_validate(data, size, &v, &c->err) != RELIC_OK || relic_trn_decode(&v, &c->a, m, &c->err) != RELIC_OK)
        return 1;
    for (size_t i = 0; i < m->packets_count; i++) {
        if (m->packets[i].type != RELIC_TRN_PACKET_TYPE_ASWM) continue;
        if (relic_trn_aswm_read(&m->packets[i], RELIC_TRN_ASWM_DEFAULT_LIMIT, &c->a, w, &c->err) != RELIC_OK) {
            relic_gen_path_prefix(&c->err, "packets", (long long)i);
            return 1;
        }
        *packet = i;
        return relic_trn_check_aswm(w, "aswm", ABI_MAX_REPORTS, report, c) != 0;
    }
    return relic_fail(&c->err, RELIC_E_ARGUMENT, 0, "packets", "no ASWM walkmesh packet") != RELIC_OK;
}

int relic_abi_trn_bake(const uint8_t *data, size_t size, int keep_borders, int level, relic_abi_sink_fn sink,
                       void *sink_user, relic_abi_problem_fn fn, void *user)
{
    abi_call c;
    call_begin(&c, fn, user);
    relic_trn_file m;
    relic_trn_aswm w, baked;
    relic_trn_view check;
    relic_trn_bake_options opt = {keep_borders != 0};
    size_t packet = 0;
    int bad = trn_load(&c, data, size, &m, &w, &packet);
    if (!bad) {
        bad = relic_trn_bake(&w, &opt, &c.a, &baked, &c.err) != RELIC_OK ||
            relic_trn_aswm_pack(&baked, level < 0 ? RELIC_TRN_ASWM_ZLIB_LEVEL : level, &c.a, &m.packets[packet], &c.err) != RELIC_OK;
        if (bad) relic_gen_path_prefix(&c.err, "aswm", -1);
    }
    /* the baked walkmesh keeps every rule, strict ones included, before it is written */
    bad = bad || relic_trn_check_aswm(&baked, "aswm", ABI_MAX_REPORTS, report, &c) != 0 ||
        relic_trn_check_aswm_strict(&baked, "aswm", ABI_MAX_REPORTS, &c.a, report, &c) != 0 ||
        relic_trn_layout(&m, &c.a, &c.err) != RELIC_OK || relic_trn_write(&m, &c.out, &c.err) != RELIC_OK ||
        (!c.out.failed && relic_trn_validate(c.out.data, c.out.size, &check, &c.err) != RELIC_OK);
    return call_end(&c, bad, sink, sink_user);
}

int relic_abi_trn_replace_aswm(const uint8_t *data, size_t size, const uint8_t *aswm, size_t aswm_size, int level,
                               relic_abi_sink_fn sink, void *sink_user, relic_abi_problem_fn fn, void *user)
{
    abi_call c;
    call_begin(&c, fn, user);
    relic_trn_file m;
    relic_trn_aswm old, w;
    relic_trn_view check;
    size_t packet = 0;
    int bad = trn_load(&c, data, size, &m, &old, &packet);
    if (!bad && relic_trn_packet_aswm_decode_bytes(aswm, aswm_size, &c.a, &w, &c.err) != RELIC_OK) {
        relic_gen_path_prefix(&c.err, "aswm", -1); /* offset: in the given walkmesh */
        bad = 1;
    }
    bad = bad || relic_trn_check_aswm(&w, "aswm", ABI_MAX_REPORTS, report, &c) != 0 ||
        relic_trn_aswm_pack(&w, level < 0 ? RELIC_TRN_ASWM_ZLIB_LEVEL : level, &c.a, &m.packets[packet], &c.err) != RELIC_OK ||
        relic_trn_layout(&m, &c.a, &c.err) != RELIC_OK || relic_trn_write(&m, &c.out, &c.err) != RELIC_OK ||
        (!c.out.failed && relic_trn_validate(c.out.data, c.out.size, &check, &c.err) != RELIC_OK);
    return call_end(&c, bad, sink, sink_user);
}

int relic_abi_trn_path(const uint8_t *data, size_t size, double x1, double y1, double x2, double y2,
                       relic_abi_sink_fn sink, void *sink_user, double *length, relic_abi_problem_fn fn, void *user)
{
    abi_call c;
    call_begin(&c, fn, user);
    relic_trn_file m;
    relic_trn_aswm w;
    relic_trn_route route;
    size_t packet;
    int bad = trn_load(&c, data, size, &m, &w, &packet);
    if (!bad) {
        uint32_t from = relic_trn_triangle_at(&w, x1, y1), to = relic_trn_triangle_at(&w, x2, y2);
        if (from == UINT32_MAX || to == UINT32_MAX)
            bad = relic_fail(&c.err, RELIC_E_RANGE, 0, "aswm.triangles", "no triangle under (%g, %g)",
                             from == UINT32_MAX ? x1 : x2, from == UINT32_MAX ? y1 : y2) != RELIC_OK;
        else
            bad = relic_trn_route_find(&w, from, to, x1, y1, x2, y2, &c.a, &route, &c.err) != RELIC_OK;
    }
    if (!bad) {
        relic_buf_append(&c.out, route.triangles, route.count * sizeof route.triangles[0]);
        if (length) *length = route.length;
    }
    return call_end(&c, bad, sink, sink_user);
}

int relic_abi_wtd_heights(const uint8_t *data, size_t size, uint32_t max_n, relic_abi_sink_fn sink, void *sink_user,
                          uint32_t *n, relic_abi_problem_fn fn, void *user)
{
    abi_call c;
    call_begin(&c, fn, user);
    relic_wtd_terrain t;
    int bad = relic_wtd_decode_terrain_max(data, size, max_n ? max_n : RELIC_WTD_DEFAULT_MAX_N, &c.a, &t, &c.err) != RELIC_OK;
    if (!bad) {
        if (n) *n = t.n;
        relic_buf_append(&c.out, t.heights, (size_t)t.n * t.n * sizeof t.heights[0]);
    }
    return call_end(&c, bad, sink, sink_user);
}

int relic_abi_wtd_encode(const uint8_t *like, size_t like_size, const int32_t *heights, uint32_t n, uint32_t threshold,
                         relic_abi_sink_fn sink, void *sink_user, relic_abi_problem_fn fn, void *user)
{
    abi_call c;
    call_begin(&c, fn, user);
    relic_wtd_file h;
    relic_wtd_encode_options opt = {threshold, 0, 0};
    int bad = relic_wtd_read_header(like, like_size, &h, &c.err) != RELIC_OK ||
        relic_wtd_encode(heights, n, &h.mapping, &opt, &c.a, &c.out, NULL, &c.err) != RELIC_OK;
    return call_end(&c, bad, sink, sink_user);
}

int relic_abi_audio_pcm(const char *format, const uint8_t *data, size_t size, uint32_t index, relic_abi_sink_fn sink,
                        void *sink_user, uint32_t info[3], relic_abi_problem_fn fn, void *user)
{
    abi_call c;
    call_begin(&c, fn, user);
    relic_audio_format f;
    const uint8_t *samples = NULL;
    size_t n = 0;
    int bad = 0;
    if (format && !strcmp(format, "cau")) {
        relic_cau_view v;
        bad = relic_cau_validate(data, size, &v, &c.err) != RELIC_OK;
        if (!bad) {
            relic_audio_format_of_cau(&v.values.header, &f);
            samples = v.base + v.values.header.data_offset;
            n = v.values.header.data_size;
        }
    } else if (format && !strcmp(format, "tpa")) {
        relic_tpa_view v;
        relic_tpa_file m;
        bad = relic_tpa_validate(data, size, &v, &c.err) != RELIC_OK || relic_tpa_decode(&v, &c.a, &m, &c.err) != RELIC_OK;
        if (!bad && index >= m.samples_count)
            bad = relic_fail(&c.err, RELIC_E_RANGE, 0, "samples", "sample %u of %zu", (unsigned)index, m.samples_count) != RELIC_OK;
        if (!bad) {
            relic_audio_format_of_tpa(&m.samples[index].header, &f);
            samples = m.samples[index].data;
            n = m.samples[index].data_count;
        }
    } else {
        bad = relic_fail(&c.err, RELIC_E_ARGUMENT, 0, NULL, "not a CAU or TPA format name") != RELIC_OK;
    }
    int16_t *pcm = NULL;
    size_t frames = 0;
    bad = bad || relic_audio_decode(&f, samples, n, 0, &c.a, &pcm, &frames, &c.err) != RELIC_OK;
    if (!bad) {
        if (info) {
            info[0] = f.sample_rate;
            info[1] = f.channels;
            info[2] = (uint32_t)frames;
        }
        relic_buf_append(&c.out, pcm, frames * f.channels * sizeof *pcm);
    }
    return call_end(&c, bad, sink, sink_user);
}

/* the SPZ decoder's window bound, as `relic extract` uses it */
#define ABI_SPZ_WINDOW_LIMIT ((uint64_t)256 << 20)

typedef struct raster_ctx {
    const relic_pid_view *v;
    relic_swp_palettes pal;
    uint8_t *rgba;
    relic_abi_raster_fn fn;
    void *user;
} raster_ctx;

static relic_status one_raster(void *vctx, size_t i, const uint8_t *swp, uint64_t base, size_t size, relic_error *err)
{
    raster_ctx *c = vctx;
    relic_pid_raster_view r = relic_pid_rasters_at(c->v, i);
    uint32_t w = relic_pid_raster_width(r), h = relic_pid_raster_height(r);
    relic_status st = relic_swp_raster_rgba(c->v, &c->pal, i, swp, base, size, c->rgba, err);
    if (st == RELIC_OK && c->fn) c->fn(c->user, (uint32_t)i, relic_pid_raster_key(r), w, h, c->rgba);
    return st;
}

int relic_abi_swp_rasters(const uint8_t *pid, size_t pid_size, const uint8_t *swp, size_t swp_size, int spz,
                          relic_abi_raster_fn raster, void *raster_user, relic_abi_problem_fn fn, void *user)
{
    abi_call c;
    call_begin(&c, fn, user);
    relic_pid_view v;
    raster_ctx r = {&v, {0}, NULL, raster, raster_user};
    int bad = relic_pid_validate(pid, pid_size, &v, &c.err) != RELIC_OK ||
        relic_swp_palettes_find(&v, &c.a, &r.pal, &c.err) != RELIC_OK;
    if (!bad && !(r.rgba = relic_arena_array(&c.a, (size_t)RELIC_SWP_MAX_SIDE * RELIC_SWP_MAX_SIDE, 4, 16)))
        bad = relic_fail(&c.err, RELIC_E_NOMEM, 0, NULL, "out of memory") != RELIC_OK;
    bad = bad || relic_swp_walk(&v, swp, swp_size, spz != 0, ABI_SPZ_WINDOW_LIMIT, &c.a, one_raster, &r, &c.err) != RELIC_OK;
    return call_end(&c, bad, NULL, NULL);
}
