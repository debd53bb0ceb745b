/* mutate_trn.c — structure-aware mutator for whole NWN2 TRN/TRX files that
 * reaches into the ASWM walkmesh (issue 8). schema/nwn2/trn.schema makes
 * the ASWM walkmesh a zlib codec region, so the generated mutator
 * (relic_trn_mutator) only sees its compressed bytes. This one loads the
 * file with the generated decoder, inflates every ASWM packet
 * (relic_trn_aswm_read, nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp; walkmeshes of at most
 * TRN_MUT_ASWM_MAX decompressed bytes) and gives the engine
 * (runtime/mutate/mutate.c) a root of:
 *  - trn: the generated model of the container (header, directory,
 *    packets; ASWM packets' compressed bytes stay an opaque array);
 *  - walkmeshes[0].<field>: every field of the first inflated walkmesh,
 *    described by the generated "aswm" struct tables (vertices, edges,
 *    triangles with their edge and neighbour indices, tiles with their
 *    path tables, islands, island path table: nwn-lib-d, trn.d; NWN2DataLib, TrxFileReader.cpp, AreaSurfaceMesh.h),
 *    so single fields change and arrays grow, shrink, are swapped or have
 *    elements spliced from a second file's first walkmesh;
 *  - more_walkmeshes: the walkmeshes of further ASWM packets, as structs.
 * (The first walkmesh's fields sit at the root because the engine splices
 * a whole struct when it meets one in a crossover.)
 * A walkmesh that changed is repaired where the layout ties arrays
 * together (below), serialised as version 0x6C and deflated again at zlib
 * level 1, or stored when that fits a bounded output (relic_trn_aswm_pack:
 * counts recomputed; TRN_MUT_ZLIB_LEVEL below) into every packet that holds
 * its original compressed bytes; the packet's size changes and the
 * directory offsets of the packets after it move by as much, so any other
 * change the engine made to the container stays as it was made. Then the
 * generated TRN writer writes the file.
 * Repairs (so more changed walkmeshes reach the deeper rules): an island
 * whose adjacent, distances and exit_triangles lists differ in length is
 * cut to the shortest; an island path table or a tile's nodes table that
 * is not the square of its count is rebuilt at the right size (kept
 * entries where the old square had them, "none" elsewhere; next-island
 * entries naming a removed island become 0xFFFF); a tile array that is
 * not grid_width x grid_height long is cut or padded with empty tiles;
 * when the tiles' triangle counts no longer sum to the triangle count, the
 * difference goes to the last tile that can take it (its local_to_node
 * cut or padded with 0xFF, "not walkable") and triangles_offset becomes
 * the running sum again (nwn-lib-d, trn.d validate tile rules).
 * The invalid mode takes the engine's values (indices out of range and the
 * like; the walkmesh's counts are always recomputed by the ASWM writer, so
 * none is left stale) and may leave the header's packet count or the first
 * directory offset stale.
 * Validation is what `relic check` does for a .trn/.trx (fmt_trn.c, not
 * --strict): the generated validator, the container rules
 * (relic_trn_check_container), every ASWM inflated and checked
 * (relic_trn_aswm_read, relic_trn_check_aswm), the TRRN and WATR packets
 * (relic_trn_check_terrain). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mutate_arena.h"
#include "relic_gen.h"
#include "relic_mutate_formats.h"
#include "relic_trn.h"
#include "trn.h"

/* Largest file and walkmesh the mutator decodes (the corpus's largest
 * walkmesh inflates to 3.4 MB); larger walkmeshes stay opaque. */
#define TRN_MUT_FILE_MAX ((size_t)64 << 20)
#define TRN_MUT_ASWM_MAX ((uint64_t)32 << 20)
/* zlib level of a re-packed walkmesh: 1, not the toolset's 6 (a mutant
 * needs a valid stream, not the toolset's bytes; level 6 spent 60% of a
 * mutation's time deflating, measured on a 111 KB walkmesh); 0 (stored
 * blocks, a copy) when the caller bounds the output and the file with its
 * walkmeshes stored would fit the bound: the fuzz target's case, where
 * deflating and inflating again were a quarter of its time (issue 18). */
#define TRN_MUT_ZLIB_LEVEL 1
#define TRN_MUT_ZLIB_STORED 0
/* stored deflate's overhead: 5 bytes a 65535-byte block, the zlib header and checksum */
#define TRN_MUT_STORED_BYTES(n) ((n) + 5 * ((n) / 65535 + 1) + 6)
/* Largest island count whose path table a repair rebuilds, and largest
 * tile grid a repair pads to. */
#define TRN_MUT_ISLANDS_MAX 2048u
#define TRN_MUT_TILES_MAX 65536u
/* What `relic check` allows a walkmesh to declare (CLI_TRN_ASWM_LIMIT). */
#define TRN_CHECK_ASWM_LIMIT RELIC_TRN_ASWM_DEFAULT_LIMIT

/* The root the engine walks (its first members), then what load saw. */
typedef struct trn_model {
    relic_trn_file trn;
    relic_trn_aswm first;       /* walkmesh 0: its fields are root fields */
    relic_trn_aswm *walkmeshes; /* walkmeshes 1.. ("more_walkmeshes") */
    size_t walkmeshes_count;
    /* as loaded: walkmesh i (0: first) came from the packet whose zlib
     * bytes are aswm0[i] (the engine copies an array before changing it,
     * so a packet whose compressed bytes changed no longer points there) */
    size_t loaded;
    relic_trn_aswm *walkmeshes0;
    const uint8_t **aswm0;
} trn_model;

#define TRN_MAX_STRUCTS 24
static relic_mut_struct structs[TRN_MAX_STRUCTS + 1];

/* Root fields: "trn" twice, every field of the generated "aswm" struct at
 * the offset of `first` (named walkmeshes[0].<field>), then
 * "more_walkmeshes" (element k is walkmesh k + 1: files with several ASWM
 * packets). The engine picks a root field uniformly, so about one
 * change in ten goes to the container (whose fields the generated mutator
 * covers already) and the rest to the walkmesh; and a crossover splices
 * vertices, edges, triangles, tiles or islands of the second file's first
 * walkmesh into this one's, not only whole structs (the engine splices at
 * the first struct it meets). */
#define TRN_ASWM_FIELDS_MAX 32
#define TRN_ROOT_FIELDS_MAX (TRN_ASWM_FIELDS_MAX + 3)
static relic_mut_field root_fields[TRN_ROOT_FIELDS_MAX];
static char root_names[TRN_ASWM_FIELDS_MAX][48];

/* header.packet_count and directory[0].offset lie at fixed positions. */
static const relic_mut_patch patches[] = {
    {"header.packet_count", 8u, 4, 0, RELIC_MUT_PATCH_DERIVED},
    {"directory[0].offset", 16u, 4, 0, RELIC_MUT_PATCH_DERIVED},
};

/* ---- validation: `relic check` ---- */

typedef struct first_problem {
    relic_error err;
    unsigned n;
} first_problem;

static void keep_first(void *ctx, const relic_error *e)
{
    first_problem *f = ctx;
    if (f->n++ == 0) f->err = *e;
}

static relic_status trn_validate(const uint8_t *data, size_t size, relic_arena *scratch, relic_error *err)
{
    relic_trn_view v;
    relic_status st = relic_trn_validate(data, size, &v, err);
    if (st != RELIC_OK) return st;
    first_problem fp;
    memset(&fp, 0, sizeof fp);
    relic_trn_check_container(&v, keep_first, &fp);
    relic_trn_file m;
    mut_mark mk = mut_arena_mark(scratch);
    if (!fp.n && (st = relic_trn_decode(&v, scratch, &m, err)) != RELIC_OK) {
        mut_arena_rewind(scratch, mk);
        return st;
    }
    for (size_t i = 0; !fp.n && i < m.packets_count; i++) {
        if (m.packets[i].type != RELIC_TRN_PACKET_TYPE_ASWM) continue;
        relic_trn_aswm w;
        char path[64];
        snprintf(path, sizeof path, "packets[%zu].aswm", i);
        if ((st = relic_trn_aswm_read(&m.packets[i], TRN_CHECK_ASWM_LIMIT, scratch, &w, err)) != RELIC_OK) {
            relic_gen_path_prefix(err, "packets", (long long)i);
            mut_arena_rewind(scratch, mk);
            return st;
        }
        relic_trn_check_aswm(&w, path, 1, keep_first, &fp);
    }
    if (!fp.n) relic_trn_check_terrain(&m, scratch, keep_first, &fp);
    mut_arena_rewind(scratch, mk);
    if (!fp.n) return RELIC_OK;
    if (err) *err = fp.err;
    return fp.err.code != RELIC_OK ? fp.err.code : RELIC_E_RANGE;
}

/* ---- load ---- */

static relic_status trn_load(const uint8_t *data, size_t size, relic_arena *a, void **model, relic_error *err)
{
    if (size > TRN_MUT_FILE_MAX)
        return relic_fail(err, RELIC_E_LIMIT, 0, "file", "%zu bytes: larger than this mutator handles", size);
    relic_trn_view v;
    relic_status st = relic_trn_validate(data, size, &v, err);
    if (st != RELIC_OK) return st;
    trn_model *m = relic_arena_alloc(a, sizeof *m, 16);
    if (!m) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for the model");
    memset(m, 0, sizeof *m);
    if ((st = relic_trn_decode(&v, a, &m->trn, err)) != RELIC_OK) return st;
    size_t n = 0;
    for (size_t i = 0; i < m->trn.packets_count; i++) n += m->trn.packets[i].type == RELIC_TRN_PACKET_TYPE_ASWM;
    m->walkmeshes = relic_arena_array(a, n + 1, sizeof *m->walkmeshes, 16);
    m->walkmeshes0 = relic_arena_array(a, n + 1, sizeof *m->walkmeshes0, 16);
    m->aswm0 = relic_arena_array(a, n + 1, sizeof *m->aswm0, _Alignof(const uint8_t *));
    if (!m->walkmeshes || !m->walkmeshes0 || !m->aswm0)
        return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for %zu walkmeshes", n);
    for (size_t i = 0; i < m->trn.packets_count; i++) {
        const relic_trn_packet *p = &m->trn.packets[i];
        if (p->type != RELIC_TRN_PACKET_TYPE_ASWM || p->uncompressed_size > TRN_MUT_ASWM_MAX) continue;
        relic_error e;
        size_t k = m->loaded;
        /* a walkmesh that does not decode stays opaque (its packet bytes) */
        if (relic_trn_aswm_read(p, TRN_MUT_ASWM_MAX, a, &m->walkmeshes0[k], &e) != RELIC_OK) continue;
        m->aswm0[k] = p->aswm;
        m->loaded++;
    }
    if (m->loaded) m->first = m->walkmeshes0[0];
    for (size_t k = 1; k < m->loaded; k++) m->walkmeshes[k - 1] = m->walkmeshes0[k];
    m->walkmeshes_count = m->loaded ? m->loaded - 1 : 0;
    *model = m;
    return RELIC_OK;
}

/* ---- repairs (see the file comment) ---- */

static size_t isqrt(size_t n)
{
    size_t r = (size_t)sqrt((double)n);
    while (r * r > n) r--;
    while ((r + 1) * (r + 1) <= n) r++;
    return r;
}

/* Rebuild a row-major square table of elem-byte entries holding `count`
 * entries as n x n: entry (r, c) kept from the old largest square when
 * both are inside it, else `none`. Returns the new array or NULL. */
static void *resquare(relic_arena *a, const void *old, size_t count, size_t n, size_t elem, const void *none)
{
    size_t n0 = isqrt(count);
    uint8_t *p = relic_arena_array(a, n * n + 1, elem, 8);
    if (!p) return NULL;
    for (size_t r = 0; r < n; r++)
        for (size_t c = 0; c < n; c++) {
            const void *src = r < n0 && c < n0 ? (const uint8_t *)old + (r * n0 + c) * elem : none;
            memcpy(p + (r * n + c) * elem, src, elem);
        }
    return p;
}

static relic_status repair_islands(relic_trn_aswm *w, relic_arena *a, relic_error *err)
{
    int fix = 0;
    for (size_t i = 0; i < w->islands_count; i++) {
        const relic_trn_island *is = &w->islands[i];
        fix |= is->distances_count != is->adjacent_count || is->exit_triangles_count != is->adjacent_count;
    }
    if (fix) {
        relic_trn_island *c = relic_arena_array(a, w->islands_count, sizeof *c, 8);
        if (!c) return relic_fail(err, RELIC_E_NOMEM, 0, "islands", "no memory");
        memcpy(c, w->islands, w->islands_count * sizeof *c);
        for (size_t i = 0; i < w->islands_count; i++) {
            size_t k = c[i].adjacent_count;
            if (c[i].distances_count < k) k = c[i].distances_count;
            if (c[i].exit_triangles_count < k) k = c[i].exit_triangles_count;
            c[i].adjacent_count = c[i].distances_count = c[i].exit_triangles_count = k;
        }
        w->islands = c;
    }
    size_t n = w->islands_count;
    if (w->island_path_table_count == n * n) return RELIC_OK;
    if (n > TRN_MUT_ISLANDS_MAX)
        return relic_fail(err, RELIC_E_LIMIT, 0, "islands", "%zu islands: over the %u a repair rebuilds", n,
                          TRN_MUT_ISLANDS_MAX);
    const relic_trn_island_path_node none = {0xFFFF, 0, 0.0f};
    relic_trn_island_path_node *t =
        resquare(a, w->island_path_table, w->island_path_table_count, n, sizeof *t, &none);
    if (!t) return relic_fail(err, RELIC_E_NOMEM, 0, "island_path_table", "no memory");
    for (size_t k = 0; k < n * n; k++)
        if (t[k].next != 0xFFFF && t[k].next >= n) t[k].next = 0xFFFF;
    w->island_path_table = t;
    w->island_path_table_count = n * n;
    return RELIC_OK;
}

/* local_to_node of tile t cut or padded (0xFF) to its triangle count. */
static relic_status fit_local_to_node(relic_trn_tile *t, relic_arena *a, relic_error *err)
{
    if (!t->local_to_node_count || t->local_to_node_count == t->triangles_count) return RELIC_OK;
    uint8_t *p = relic_arena_alloc(a, (size_t)t->triangles_count + 1, 1);
    if (!p) return relic_fail(err, RELIC_E_NOMEM, 0, "tiles", "no memory");
    size_t keep = t->local_to_node_count < t->triangles_count ? t->local_to_node_count : t->triangles_count;
    memcpy(p, t->local_to_node, keep);
    memset(p + keep, 0xFF, t->triangles_count - keep);
    t->local_to_node = p;
    t->local_to_node_count = t->triangles_count;
    return RELIC_OK;
}

static relic_status repair_tiles(relic_trn_aswm *w, relic_arena *a, relic_error *err)
{
    uint64_t want = (uint64_t)w->grid_width * w->grid_height;
    if (want > TRN_MUT_TILES_MAX)
        return relic_fail(err, RELIC_E_LIMIT, 0, "grid_width", "a %u x %u tile grid: over the %u tiles a repair makes",
                          (unsigned)w->grid_width, (unsigned)w->grid_height, TRN_MUT_TILES_MAX);
    /* always a private copy: the counts below may change */
    relic_trn_tile *t = relic_arena_array(a, (size_t)want + 1, sizeof *t, 8);
    if (!t) return relic_fail(err, RELIC_E_NOMEM, 0, "tiles", "no memory");
    size_t keep = w->tiles_count < want ? w->tiles_count : (size_t)want;
    if (keep) memcpy(t, w->tiles, keep * sizeof *t);
    if (want > keep) memset(t + keep, 0, ((size_t)want - keep) * sizeof *t);
    w->tiles = t;
    w->tiles_count = (size_t)want;
    uint8_t none = 0xFF;
    for (size_t i = 0; i < w->tiles_count; i++) {
        size_t nn = t[i].node_to_local_count;
        if (t[i].nodes_count == nn * nn || nn > 255) continue;
        if (!(t[i].nodes = resquare(a, t[i].nodes, t[i].nodes_count, nn, 1, &none)))
            return relic_fail(err, RELIC_E_NOMEM, 0, "tiles", "no memory");
        t[i].nodes_count = nn * nn;
    }
    if (!w->tiles_count) return RELIC_OK;
    uint64_t sum = 0;
    for (size_t i = 0; i < w->tiles_count; i++) sum += t[i].triangles_count;
    if (sum == w->triangles_count) return RELIC_OK;
    int64_t delta = (int64_t)w->triangles_count - (int64_t)sum;
    for (size_t k = w->tiles_count; k-- > 0;) {
        int64_t c = (int64_t)t[k].triangles_count + delta;
        if (c < 0 || c > (int64_t)UINT32_MAX) continue;
        t[k].triangles_count = (uint32_t)c;
        relic_status st = fit_local_to_node(&t[k], a, err);
        if (st != RELIC_OK) return st;
        uint64_t off = 0;
        for (size_t i = 0; i < w->tiles_count; i++) {
            t[i].triangles_offset = (uint32_t)off;
            off += t[i].triangles_count;
        }
        break;
    }
    return RELIC_OK;
}

/* ---- write ---- */

/* Put walkmesh w (repaired copy) into every packet of t whose compressed
 * bytes are `orig`, moving the directory offsets after each. Returns the
 * number of packets written, or -1 with err set. */
static int repack(const relic_trn_aswm *w, int level, const uint8_t *orig, relic_trn_file *t, relic_arena *a,
                  relic_error *err)
{
    relic_trn_packet q;
    memset(&q, 0, sizeof q);
    int done = 0;
    for (size_t k = 0; k < t->packets_count; k++) {
        relic_trn_packet *p = &t->packets[k];
        if (p->type != RELIC_TRN_PACKET_TYPE_ASWM || p->aswm != orig) continue;
        if (!done && relic_trn_aswm_pack(w, level, a, &q, err) != RELIC_OK) return -1;
        uint32_t old = p->size;
        p->aswm = q.aswm;
        p->aswm_count = q.aswm_count;
        p->compressed_size = q.compressed_size;
        p->uncompressed_size = q.uncompressed_size;
        p->size = q.size;
        memcpy(p->comp_magic, q.comp_magic, 4);
        for (size_t j = k + 1; j < t->directory_count; j++) t->directory[j].offset += q.size - old;
        done++;
    }
    return done;
}

static relic_status trn_write(const void *model, relic_buf *out, relic_arena *scratch, relic_error *err)
{
    const trn_model *m = model;
    relic_trn_file t = m->trn;
    mut_mark mk = mut_arena_mark(scratch);
    relic_status st = RELIC_OK;
    int copied = 0, level = TRN_MUT_ZLIB_LEVEL;
    if (out->limit) {
        /* the file as loaded with every walkmesh stored instead of deflated */
        uint64_t stored = 0;
        for (size_t k = 0; k < t.packets_count; k++) {
            const relic_trn_packet *p = &t.packets[k];
            stored += p->type == RELIC_TRN_PACKET_TYPE_ASWM ? TRN_MUT_STORED_BYTES((uint64_t)p->uncompressed_size) + 24u
                                                            : (uint64_t)p->size + 8u;
        }
        if (stored + 12u + 8u * (uint64_t)t.directory_count <= out->limit) level = TRN_MUT_ZLIB_STORED;
    }
    static const relic_trn_aswm none;
    if (!m->loaded && memcmp(&m->first, &none, sizeof none) != 0)
        st = relic_fail(err, RELIC_E_ARGUMENT, 0, "walkmeshes[0]", "this file has no walkmesh the mutator decoded");
    for (size_t i = 0; i < m->loaded && st == RELIC_OK; i++) {
        const relic_trn_aswm *cur = i == 0 ? &m->first : &m->walkmeshes[i - 1];
        if (memcmp(cur, &m->walkmeshes0[i], sizeof *cur) == 0) continue;
        if (!copied) {
            /* private packet and directory arrays: the model stays as it is */
            relic_trn_packet *p = relic_arena_array(scratch, t.packets_count + 1, sizeof *p, 16);
            relic_trn_directory_entry *d = relic_arena_array(scratch, t.directory_count + 1, sizeof *d, 16);
            if (!p || !d) {
                st = relic_fail(err, RELIC_E_NOMEM, 0, "packets", "no memory");
                break;
            }
            if (t.packets_count) memcpy(p, t.packets, t.packets_count * sizeof *p);
            if (t.directory_count) memcpy(d, t.directory, t.directory_count * sizeof *d);
            t.packets = p;
            t.directory = d;
            copied = 1;
        }
        relic_trn_aswm w = *cur;
        char path[48];
        snprintf(path, sizeof path, "walkmeshes[%zu]", i);
        if ((st = repair_islands(&w, scratch, err)) != RELIC_OK || (st = repair_tiles(&w, scratch, err)) != RELIC_OK) {
            relic_gen_path_prefix(err, "walkmeshes", (long long)i);
            break;
        }
        int n = repack(&w, level, m->aswm0[i], &t, scratch, err);
        if (n < 0) {
            relic_gen_path_prefix(err, "walkmeshes", (long long)i);
            st = err ? err->code : RELIC_E_ARGUMENT;
        } else if (n == 0) {
            /* the packet was removed, retyped or its bytes changed: the two
             * changes cannot both be in one output */
            st = relic_fail(err, RELIC_E_ARGUMENT, 0, path, "its ASWM packet changed too");
        }
    }
    if (st == RELIC_OK) st = relic_trn_write(&t, out, err);
    mut_arena_rewind(scratch, mk);
    return st;
}

const relic_mut_format *relic_mutator_trn_aswm(void)
{
    static relic_mut_format f;
    static int ready;
    if (!ready) {
        const relic_mut_format *g = &relic_trn_mutator;
        uint32_t n = g->nstructs < TRN_MAX_STRUCTS ? g->nstructs : TRN_MAX_STRUCTS;
        int aswm = -1;
        memcpy(structs, g->structs, n * sizeof *structs);
        for (uint32_t k = 0; k < n; k++)
            if (strcmp(structs[k].name, "aswm") == 0) aswm = (int)k;
        uint32_t nr = 0;
        relic_mut_field trn = {"trn", RELIC_MUT_STRUCT, 0, 0, (int16_t)g->root, -1, 1u, offsetof(trn_model, trn), 0,
                               sizeof(relic_trn_file), NULL, 0, 0, 0, 0, 0, 0};
        root_fields[nr++] = trn;
        root_fields[nr++] = trn;
        if (aswm >= 0) {
            const relic_mut_struct *ws = &structs[aswm];
            for (uint32_t k = 0; k < ws->nfields && k < TRN_ASWM_FIELDS_MAX; k++) {
                relic_mut_field fd = ws->fields[k];
                snprintf(root_names[k], sizeof root_names[k], "walkmeshes[0].%s", fd.name);
                fd.name = root_names[k];
                fd.offset += offsetof(trn_model, first);
                if (fd.flags & RELIC_MUTF_VAR) fd.count_offset += offsetof(trn_model, first);
                /* array groups are root field indices; no aswm field names a count field */
                fd.group = (fd.flags & RELIC_MUTF_VAR) ? (int16_t)nr : -1;
                if (fd.flags & (RELIC_MUTF_COUNT_FIELD | RELIC_MUTF_COUNT_IN_ROOT)) continue;
                root_fields[nr++] = fd;
            }
            relic_mut_field rest = {"more_walkmeshes", RELIC_MUT_STRUCT, RELIC_MUTF_VAR, 0, (int16_t)aswm, (int16_t)nr, 1u,
                                    offsetof(trn_model, walkmeshes), offsetof(trn_model, walkmeshes_count),
                                    sizeof(relic_trn_aswm), NULL, 0, 0, 0, 0, 0, 0};
            root_fields[nr++] = rest;
        }
        structs[n].name = "file";
        structs[n].size = sizeof(trn_model);
        structs[n].fields = root_fields;
        structs[n].nfields = nr;
        f = *g;
        f.name = "trn";
        f.structs = structs;
        f.nstructs = n + 1;
        f.root = n;
        f.patches = patches;
        f.npatches = sizeof patches / sizeof patches[0];
        f.load = trn_load;
        f.write = trn_write;
        f.validate = trn_validate;
        ready = 1;
    }
    return &f;
}
