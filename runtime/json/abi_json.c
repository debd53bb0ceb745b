/* abi_json.c — the JSON half of relic_abi.h (librelic-json): a file to its
 * JSON form and back through the format's C writer (the schema formats,
 * GFF and GROFF), for foreign callers
 * (python/relic/: decode() and write()). The same steps as `relic dump` and
 * `relic convert x.json y.wok`: validate, decode, print; or read, lay out,
 * write, validate the output again. Memory: one heap arena per call,
 * released before return; output goes to the caller's sink. */
#include <string.h>

#include "relic.h"
#include "relic_abi.h"
#include "relic_bwm.h"
#include "relic_erf.h"
#include "relic_gff.h"
#include "relic_grf.h"
#include "relic_key.h"
#include "relic_tlk.h"
#include "relic_json.h"
#include "relic_schema_ops.h"
#include "relic_trn.h"
#include "cau.h"
#include "pid.h"
#include "tpa.h"

#define ABI_ARENA_LIMIT ((size_t)1 << 30)

static int problem(relic_abi_problem_fn fn, void *user, const relic_error *err)
{
    if (fn) fn(user, (int)err->code, err->offset, err->path, err->message[0] ? err->message : relic_status_name(err->code));
    return 1;
}

/* The schema formats' steps, type-erased: their generated descriptors
 * (relic_schema_ops.h), as the relic command's */
static const relic_schema_ops *const schemas[] = {&relic_bwm_schema_ops, &relic_trn_schema_ops, &relic_cau_schema_ops,
                                                  &relic_pid_schema_ops, &relic_tpa_schema_ops, &relic_key_schema_ops,
                                                  &relic_bif_schema_ops, &relic_tlk_schema_ops};

static const relic_schema_ops *schema_of(const char *format)
{
    for (size_t i = 0; format && i < sizeof schemas / sizeof schemas[0]; i++)
        if (strcmp(schemas[i]->gen->name, format) == 0) return schemas[i];
    return NULL;
}

static int gff_to_json(const uint8_t *data, size_t size, relic_arena *a, relic_buf *out, relic_error *err)
{
    relic_gff_doc d;
    if (relic_gff_open(data, size, a, NULL, NULL, &d, err) != RELIC_OK) return 1;
    return relic_gff_json_print_doc(&d, RELIC_GFF_ENC_AUTO, out, err) != RELIC_OK;
}

static int gff_from_json(const char *json, size_t size, relic_arena *a, relic_buf *out, relic_error *err)
{
    relic_gff_tree t;
    relic_gff_doc check;
    if (relic_gff_json_read_tree(json, size, RELIC_GFF_ENC_AUTO, a, &t, err) != RELIC_OK) return 1;
    /* the "__layout" family of the JSON (bioware when absent), as relic convert writes it */
    if (relic_gff_write_tree(&t, t.family, a, out, NULL, err) != RELIC_OK) return 1;
    return relic_gff_open(out->data, out->size, a, NULL, NULL, &check, err) != RELIC_OK;
}

/* ERF/MOD/HAK/SAV/NWM and RIM: the listing (relic_erf_archive_json); the
 * members' bytes go through relic_abi_container_write, not this JSON. */
static int erf_to_json(const uint8_t *data, size_t size, relic_arena *a, relic_buf *out, relic_error *err)
{
    relic_erf_archive ar;
    if (relic_erf_open(data, size, a, &ar, err) != RELIC_OK) return 1;
    return relic_erf_archive_json(&ar, out);
}

/* GROFF (GRF, SCN): the whole-file JSON `relic dump` prints (sections
 * printed by kind from their validated views, nothing decoded), or the
 * container's when a section fails its kind's schema or the sections are
 * not back to back; read back by relic_grf_json_read, as `relic convert
 * x.json y.grf`. */
static int groff_to_json(const uint8_t *data, size_t size, relic_arena *a, relic_buf *out, relic_error *err)
{
    relic_groff_view v;
    relic_grf_view f;
    if (relic_groff_validate(data, size, &v, err) != RELIC_OK) return 1;
    relic_status st = relic_grf_view_open(&v, a, &f, err);
    int opened = st == RELIC_OK;
    if (opened) st = relic_grf_json_print_view(&f, out, err);
    if (st == RELIC_OK) return 0;
    if (opened && st != RELIC_E_UNSUPPORTED) return 1; /* out could not grow */
    return relic_groff_json_print_view(&v, out, err) != RELIC_OK;
}

static int groff_from_json(const char *json, size_t size, relic_arena *a, relic_buf *out, relic_error *err)
{
    relic_groff_file m;
    relic_groff_view check;
    return relic_grf_json_read(json, size, a, &m, err) != RELIC_OK || relic_groff_write(&m, out, err) != RELIC_OK ||
        relic_groff_validate(out->data, out->size, &check, err) != RELIC_OK;
}

static int schema_to_json(const relic_schema_ops *s, const uint8_t *data, size_t size, relic_arena *a, relic_buf *out,
                          relic_error *err)
{
    const relic_gen_ops *g = s->gen;
    void *v = relic_arena_alloc(a, g->view_size, 16), *m = s->json_print_view ? v : relic_arena_alloc(a, g->model_size, 16);
    if (!v || !m) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory") != RELIC_OK;
    if (g->validate(data, size, v, err) != RELIC_OK) return 1;
    if (s->json_print_view) return s->json_print_view(v, out, err) != RELIC_OK; /* no decoded copy */
    return g->decode(v, a, m, err) != RELIC_OK || s->json_print(m, out, err) != RELIC_OK;
}

static int schema_from_json(const relic_schema_ops *s, const char *json, size_t size, relic_arena *a, relic_buf *out,
                            relic_error *err)
{
    const relic_gen_ops *g = s->gen;
    void *v = relic_arena_alloc(a, g->view_size, 16), *m = relic_arena_alloc(a, g->model_size, 16);
    if (!v || !m) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory") != RELIC_OK;
    return s->json_read(json, size, a, m, err) != RELIC_OK || (g->layout && g->layout(m, a, err) != RELIC_OK) ||
        g->write(m, out, err) != RELIC_OK || g->validate(out->data, out->size, v, err) != RELIC_OK;
}

/* One call: arena, output buffer in it, the step, then the sink. */
static int run(const char *format, const void *in, size_t size, int to_json, relic_abi_sink_fn sink, void *sink_user,
               relic_abi_problem_fn fn, void *user)
{
    const relic_schema_ops *s = schema_of(format);
    int gff = format && strcmp(format, "gff") == 0, groff = format && strcmp(format, "groff") == 0;
    int erf = format && to_json && strcmp(format, "erf") == 0;
    if (!s && !gff && !groff && !erf) return -1;
    relic_arena a;
    relic_buf out;
    relic_error err;
    relic_error_clear(&err);
    relic_arena_init_heap(&a, ABI_ARENA_LIMIT);
    relic_buf_init_arena(&out, &a, 0);
    int bad;
    if (erf) bad = erf_to_json(in, size, &a, &out, &err);
    else if (gff) bad = to_json ? gff_to_json(in, size, &a, &out, &err) : gff_from_json(in, size, &a, &out, &err);
    else if (groff) bad = to_json ? groff_to_json(in, size, &a, &out, &err) : groff_from_json(in, size, &a, &out, &err);
    else bad = to_json ? schema_to_json(s, in, size, &a, &out, &err) : schema_from_json(s, in, size, &a, &out, &err);
    if (!bad && out.failed) bad = relic_fail(&err, RELIC_E_NOMEM, 0, NULL, "output does not fit in memory") != RELIC_OK;
    if (bad) problem(fn, user, &err);
    else if (sink) sink(sink_user, out.data, out.size);
    relic_arena_release(&a);
    return bad;
}

int relic_abi_to_json(const char *format, const uint8_t *data, size_t size, relic_abi_sink_fn sink, void *sink_user,
                      relic_abi_problem_fn fn, void *user)
{
    return run(format, data, size, 1, sink, sink_user, fn, user);
}

int relic_abi_from_json(const char *format, const char *json, size_t size, relic_abi_sink_fn sink, void *sink_user,
                        relic_abi_problem_fn fn, void *user)
{
    return run(format, json, size, 0, sink, sink_user, fn, user);
}
