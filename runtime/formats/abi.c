/* abi.c — plain, exported entry points of librelic for callers that cannot
 * use the static inline accessors or the C structs of the headers: the
 * Python package (python/relic/, through ctypes) first. Each takes bytes and
 * a format name and reports problems as separate plain values (code, byte
 * offset, field path, message), the four things `relic check` prints. The
 * checks are the ones `relic check` runs without --strict: the generated
 * validator, then the format's table rules (BWM: runtime/formats/kotor;
 * TRN/TRX: the container, every inflated ASWM and the terrain packets; GFF:
 * relic_gff_open's tree rules). Scratch memory comes from a heap arena
 * released before return. */
#include <string.h>

#include "relic.h"
#include "relic_abi.h"
#include "relic_bwm.h"
#include "relic_gen.h"
#include "relic_gff.h"
#include "relic_trn.h"
#include "relic_erf.h"
#include "relic_key.h"
#include "relic_tlk.h"
#include "relic_wtd.h"
#include "cau.h"
#include "erf.h"
#include "groff.h"
#include "pid.h"
#include "tpa.h"
#include "wtd.h"

/* the same bounds as the relic command's: 1 GiB of scratch, 16 MiB per inflated walkmesh */
#define ABI_ARENA_LIMIT ((size_t)1 << 30)
#define ABI_MAX_REPORTS 100

typedef struct abi_ctx {
    relic_abi_problem_fn fn;
    void *user;
    unsigned count;
} abi_ctx;

static void forward(void *vctx, const relic_error *err)
{
    abi_ctx *c = vctx;
    c->count++;
    if (c->fn) c->fn(c->user, (int)err->code, err->offset, err->path, err->message[0] ? err->message : relic_status_name(err->code));
}

static unsigned one(abi_ctx *c, const relic_error *err)
{
    forward(c, err);
    return 1;
}

const char *relic_abi_detect(const uint8_t *data, size_t size, const char *name)
{
    relic_format f = relic_detect(data, size, name);
    return f == RELIC_FORMAT_UNKNOWN ? NULL : relic_format_name(f);
}

static unsigned check_bwm(const uint8_t *data, size_t size, relic_arena *a, abi_ctx *c)
{
    relic_bwm_view v;
    relic_error err;
    if (relic_bwm_validate(data, size, &v, &err) != RELIC_OK) return one(c, &err);
    return relic_bwm_check(&v, 0, a, forward, c);
}

static unsigned check_trn(const uint8_t *data, size_t size, relic_arena *a, abi_ctx *c)
{
    relic_trn_view v;
    relic_trn_file m;
    relic_error err;
    if (relic_trn_validate(data, size, &v, &err) != RELIC_OK) return one(c, &err);
    unsigned n = relic_trn_check_container(&v, forward, c);
    if (relic_trn_decode(&v, a, &m, &err) != RELIC_OK) return n + one(c, &err);
    for (size_t i = 0; i < m.packets_count; i++) {
        if (m.packets[i].type != RELIC_TRN_PACKET_TYPE_ASWM) continue;
        char path[64];
        relic_trn_aswm w;
        snprintf(path, sizeof path, "packets[%zu].aswm", i);
        if (relic_trn_aswm_read(&m.packets[i], RELIC_TRN_ASWM_DEFAULT_LIMIT, a, &w, &err) != RELIC_OK) {
            relic_gen_path_prefix(&err, "packets", (long long)i); /* offset: in the inflated walkmesh */
            n += one(c, &err);
            continue;
        }
        n += relic_trn_check_aswm(&w, path, ABI_MAX_REPORTS, forward, c);
    }
    return n + relic_trn_check_terrain(&m, a, forward, c);
}

static unsigned check_gff(const uint8_t *data, size_t size, relic_arena *a, abi_ctx *c)
{
    relic_gff_doc d;
    relic_error err;
    if (relic_gff_open(data, size, a, NULL, NULL, &d, &err) != RELIC_OK) return one(c, &err);
    return 0;
}

/* The formats checked by their generated validator alone. */
#define VALIDATOR_ONLY(F)                                                                   \
    static unsigned check_##F(const uint8_t *data, size_t size, relic_arena *a, abi_ctx *c) \
    {                                                                                       \
        relic_##F##_view v;                                                                 \
        relic_error err;                                                                    \
        (void)a;                                                                            \
        return relic_##F##_validate(data, size, &v, &err) != RELIC_OK ? one(c, &err) : 0;   \
    }
VALIDATOR_ONLY(cau)
VALIDATOR_ONLY(groff)
VALIDATOR_ONLY(pid)
VALIDATOR_ONLY(tpa)

/* 1 when a member's bytes start like a GFF ("XXX V3.2"). */
static int member_is_gff(const relic_erf_entry *e)
{
    return e->size >= RELIC_GFF_HEADER_SIZE &&
        memcmp(e->data + RELIC_GFF_HEADER_FILE_VERSION_POS, RELIC_GFF_HEADER_FILE_VERSION_VALUE, 4) == 0;
}

/* ERF and RIM: the archive, then each GFF member's tree rules. */
static unsigned check_erf(const uint8_t *data, size_t size, relic_arena *a, abi_ctx *c)
{
    relic_erf_archive ar;
    relic_error err;
    unsigned n = 0;
    if (relic_erf_open(data, size, a, &ar, &err) != RELIC_OK) return one(c, &err);
    for (uint32_t i = 0; i < ar.count; i++) {
        relic_gff_doc d;
        if (member_is_gff(&ar.entries[i]) && relic_erf_open_gff(&ar, i, a, &d, &err) != RELIC_OK)
            n += one(c, &err);
    }
    return n;
}

/* KEY: the tables and every key's BIF index (the BIFs themselves are not in
 * the bytes: `relic check chitin.key` reads them beside it). */
static unsigned check_key(const uint8_t *data, size_t size, relic_arena *a, abi_ctx *c)
{
    relic_key_file k;
    relic_error err;
    return relic_key_open(data, size, a, &k, &err) != RELIC_OK ? one(c, &err) : 0;
}

/* BIF: the tables, then each resource's data range (every problem). */
static unsigned check_bif(const uint8_t *data, size_t size, relic_arena *a, abi_ctx *c)
{
    relic_bif_file b;
    relic_error err;
    if (relic_bif_open_tables(data, size, a, &b, &err) != RELIC_OK) return one(c, &err);
    relic_problems p = {forward, c, 0, ABI_MAX_REPORTS};
    unsigned before = c->count;
    relic_bif_check_data(&b, size, a, &p);
    return c->count - before;
}

static unsigned check_tlk(const uint8_t *data, size_t size, relic_arena *a, abi_ctx *c)
{
    relic_tlk_view v;
    relic_error err;
    (void)a;
    return relic_tlk_open(data, size, &v, &err) != RELIC_OK ? one(c, &err) : 0;
}

/* WTD: the parameter block (every version relic reads) and the zerotree. */
static unsigned check_wtd(const uint8_t *data, size_t size, relic_arena *a, abi_ctx *c)
{
    relic_wtd_file h;
    relic_wtd_tree_stats stats;
    relic_error err;
    (void)a;
    if (relic_wtd_read_header(data, size, &h, &err) != RELIC_OK ||
        relic_wtd_read_tree(data, size, &h, NULL, &stats, &err) != RELIC_OK)
        return one(c, &err);
    return 0;
}

static const struct {
    const char *name;
    unsigned (*check)(const uint8_t *, size_t, relic_arena *, abi_ctx *);
} checks[] = {
    {"bwm", check_bwm},
    {"trn", check_trn},
    {"gff", check_gff},
    {"cau", check_cau},
    {"erf", check_erf},
    {"groff", check_groff},
    {"pid", check_pid},
    {"tpa", check_tpa},
    {"wtd", check_wtd},
    {"key", check_key},
    {"bif", check_bif},
    {"tlk", check_tlk},
};

int relic_abi_check(const char *format, const uint8_t *data, size_t size, relic_abi_problem_fn fn, void *user)
{
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        if (!format || strcmp(format, checks[i].name) != 0) continue;
        abi_ctx c = {fn, user, 0};
        relic_arena a;
        relic_arena_init_heap(&a, ABI_ARENA_LIMIT);
        checks[i].check(data, size, &a, &c);
        relic_arena_release(&a);
        return (int)c.count;
    }
    return -1;
}
