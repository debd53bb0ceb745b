/* swp_pack.c — build a PID texture directory and its SWP from RGBA
 * images (relic_swp_pack in relic_swp.h): kind choice, palettes (exact
 * colours when they fit, else relic_palette_quantize), mip levels until a side is
 * below 16 (Trespasser file formats, "SWP"), mip-level keys (Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp),
 * and the SWP layout: the smallest level of every texture in the
 * non-pageable section, the others after it, power-of-two rows in
 * 512- or 1024-byte-wide pages (Trespasser file formats, "SWP"), the rest row after row. */
#include <stdlib.h>
#include <zlib.h>

#include "relic_palette.h"
#include "relic_swp.h"
#include "relic_tres_names.h"

#define MAX_LEVELS 11u /* 1024 -> 1: at most 11 sides */
#define PAGE_ROWS 256u
#define PAGE_NARROW 512u
#define PAGE_WIDE 1024u
#define SECTION_ALIGN 65536u
#define SEQ_ALIGN 4u
#define OCCLUSION_FLAG 0x02000000
#define PALETTE_WRITER_EXTRA 1u /* the game's writer stores one colour more (Trespasser source, Lib/Loader/ImageLoader.cpp) */
#define ALPHA_OPAQUE 255u
#define ALPHA_CUT 128u
#define NIBBLE_MAX 15u
#define AZIMUTH_MAX 63u
#define ELEVATION_MAX 15u
#define EMPTY_SLOT 0xFFFFFFFFu
/* the transparent palette entry: pure blue, as in the game's files (Trespasser file formats) */
#define KEY_B 0xFFu

typedef struct level {
    uint32_t w, h;
    const uint8_t *rgba;
    const uint8_t *bump; /* BUMP only */
    uint32_t offset, stride;
} level;

typedef struct plan {
    relic_swp_kind kind;
    int transparent;
    uint32_t palette; /* index into the model's palettes, or NO_PALETTE */
    uint32_t hash;    /* palette hash (0 without a palette) */
    uint32_t colour;  /* constant colour B,G,R,0 */
    unsigned nlevels;
    level lv[MAX_LEVELS];
    /* colour -> palette index cache (open addressing) */
    uint32_t *keys, *vals;
    size_t slots;
} plan;

/* ---- colour table: RGB (24 bits) -> value ---- */

static size_t slot_of(const plan *p, uint32_t key)
{
    size_t m = p->slots - 1, s = (size_t)((key * 2654435761u) >> 8) & m;
    while (p->keys[s] != EMPTY_SLOT && p->keys[s] != key) s = (s + 1) & m;
    return s;
}

static uint32_t rgb_of(const uint8_t *px) { return (uint32_t)px[0] << 16 | (uint32_t)px[1] << 8 | px[2]; }

static relic_status table_init(plan *p, size_t pixels, relic_arena *a, relic_error *err)
{
    size_t slots = 16;
    while (slots < 2 * pixels) slots <<= 1;
    p->slots = slots;
    p->keys = relic_arena_array(a, slots, sizeof *p->keys, 4);
    p->vals = relic_arena_array(a, slots, sizeof *p->vals, 4);
    if (!p->keys || !p->vals) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for a colour table of %zu slots", slots);
    memset(p->keys, 0xFF, slots * sizeof *p->keys);
    return RELIC_OK;
}

/* ---- mip levels: 2x2 box filter (alpha-weighted colour), bump angles by the top-left sample ---- */

static relic_status make_levels(plan *p, const relic_swp_texture *t, relic_arena *a, relic_error *err)
{
    p->lv[0].w = t->image.width;
    p->lv[0].h = t->image.height;
    p->lv[0].rgba = t->image.rgba;
    p->lv[0].bump = t->bump ? t->bump->rgba : NULL;
    p->nlevels = 1;
    while (p->lv[p->nlevels - 1].w >= RELIC_SWP_MIP_MIN_SIDE && p->lv[p->nlevels - 1].h >= RELIC_SWP_MIP_MIN_SIDE &&
           p->nlevels < MAX_LEVELS) {
        const level *s = &p->lv[p->nlevels - 1];
        level *d = &p->lv[p->nlevels];
        d->w = s->w / 2;
        d->h = s->h / 2;
        uint8_t *rgba = relic_arena_array(a, (size_t)d->w * d->h, 4, 16);
        uint8_t *bump = s->bump ? relic_arena_array(a, (size_t)d->w * d->h, 4, 16) : NULL;
        if (!rgba || (s->bump && !bump)) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for a mip level");
        for (uint32_t y = 0; y < d->h; y++)
            for (uint32_t x = 0; x < d->w; x++) {
                const uint8_t *q[4] = {s->rgba + ((size_t)(2 * y) * s->w + 2 * x) * 4,
                                       s->rgba + ((size_t)(2 * y) * s->w + 2 * x + 1) * 4,
                                       s->rgba + ((size_t)(2 * y + 1) * s->w + 2 * x) * 4,
                                       s->rgba + ((size_t)(2 * y + 1) * s->w + 2 * x + 1) * 4};
                unsigned asum = q[0][3] + q[1][3] + q[2][3] + q[3][3];
                uint8_t *o = rgba + ((size_t)y * d->w + x) * 4;
                for (int c = 0; c < 3; c++) {
                    unsigned wsum = 0, plain = 2;
                    for (int k = 0; k < 4; k++) {
                        wsum += (unsigned)q[k][c] * q[k][3];
                        plain += q[k][c];
                    }
                    unsigned v = asum ? (wsum + asum / 2) / asum : plain / 4;
                    o[c] = (uint8_t)v;
                }
                o[3] = (uint8_t)((asum + 2) / 4);
                if (bump) memcpy(bump + ((size_t)y * d->w + x) * 4, s->bump + ((size_t)(2 * y) * s->w + 2 * x) * 4, 4);
            }
        d->rgba = rgba;
        d->bump = bump;
        p->nlevels++;
    }
    return RELIC_OK;
}

/* ---- palette ---- */

static uint32_t nearest(const relic_pid_colour *pal, uint32_t first, uint32_t n, uint32_t rgb)
{
    int r = (int)(rgb >> 16), g = (int)(rgb >> 8 & 0xFF), b = (int)(rgb & 0xFF);
    uint32_t best = first;
    long bd = -1;
    for (uint32_t k = first; k < n; k++) {
        long dr = r - pal[k].r, dg = g - pal[k].g, db = b - pal[k].b, d = dr * dr + dg * dg + db * db;
        if (bd < 0 || d < bd) {
            bd = d;
            best = k;
            if (d == 0) break;
        }
    }
    return best;
}

/* top levels of palettised kinds hold alpha 0 or 255 only (INDEXED) or are cut at 128 (BUMP);
 * mip levels average alpha, and are cut at 128 too */
static int is_transparent(const plan *p, const uint8_t *px)
{
    (void)p;
    return px[3] < ALPHA_CUT;
}

static relic_status make_palette(plan *p, size_t ti, relic_arena *a, relic_pid_palette *out, relic_error *err)
{
    const level *top = &p->lv[0];
    size_t npix = (size_t)top->w * top->h;
    relic_status st = table_init(p, npix, a, err);
    if (st != RELIC_OK) return st;
    /* histogram of the opaque colours of the top level */
    size_t distinct = 0;
    p->transparent = 0;
    for (size_t i = 0; i < npix; i++) {
        const uint8_t *px = top->rgba + 4 * i;
        if (is_transparent(p, px)) {
            p->transparent = 1;
            continue;
        }
        uint32_t k = rgb_of(px);
        size_t s = slot_of(p, k);
        if (p->keys[s] == EMPTY_SLOT) {
            p->keys[s] = k;
            p->vals[s] = 0;
            distinct++;
        }
        p->vals[s]++;
    }
    uint32_t limit = (p->kind == RELIC_SWP_BUMP ? RELIC_SWP_BUMP_COLOURS : 256u) - (p->transparent ? 1u : 0u);
    uint32_t first = p->transparent ? 1u : 0u;
    relic_pid_colour *pal = relic_arena_array(a, 256 + PALETTE_WRITER_EXTRA, sizeof *pal, 4);
    if (!pal) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for a palette");
    memset(pal, 0, (256 + PALETTE_WRITER_EXTRA) * sizeof *pal);
    uint32_t n = first;
    if (p->transparent) pal[0].b = KEY_B;
    if (distinct <= limit) {
        /* every colour exactly, in order of first appearance */
        for (size_t i = 0; i < npix; i++) {
            const uint8_t *px = top->rgba + 4 * i;
            if (is_transparent(p, px)) continue;
            size_t s = slot_of(p, rgb_of(px));
            if (p->vals[s] & 0x80000000u) continue;
            p->vals[s] = 0x80000000u | n;
            pal[n].r = px[0];
            pal[n].g = px[1];
            pal[n].b = px[2];
            n++;
        }
        for (size_t s = 0; s < p->slots; s++) p->vals[s] &= 0x7FFFFFFFu;
    } else {
        relic_palette_colour *e = relic_arena_array(a, distinct, sizeof *e, 8);
        relic_palette_colour *q = relic_arena_array(a, limit, sizeof *q, 8);
        if (!e || !q) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for a colour histogram");
        size_t m = 0;
        for (size_t s = 0; s < p->slots; s++)
            if (p->keys[s] != EMPTY_SLOT) {
                e[m].r = (uint8_t)(p->keys[s] >> 16);
                e[m].g = (uint8_t)(p->keys[s] >> 8);
                e[m].b = (uint8_t)p->keys[s];
                e[m].a = ALPHA_OPAQUE;
                e[m].weight = p->vals[s];
                m++;
            }
        uint32_t count = 0;
        if ((st = relic_palette_quantize(e, m, limit, a, q, &count, err)) != RELIC_OK) {
            char path[48], why[RELIC_ERROR_MESSAGE_MAX];
            snprintf(path, sizeof path, "textures[%zu]", ti);
            snprintf(why, sizeof why, "%s", err ? err->message : "");
            return relic_fail(err, st, 0, path, "could not quantise %zu colours: %s", m, why);
        }
        for (uint32_t k = 0; k < count && n < 256; k++, n++) {
            pal[n].r = q[k].r;
            pal[n].g = q[k].g;
            pal[n].b = q[k].b;
        }
        /* the cache now maps colours to their nearest entry */
        for (size_t s = 0; s < p->slots; s++)
            if (p->keys[s] != EMPTY_SLOT) p->vals[s] = nearest(pal, first, n, p->keys[s]);
    }
    if (n == 0) n = 1; /* an all-transparent image still has its key colour */
    out->colours_used = n;
    out->colours = pal;
    out->colours_count = n;
    out->chunk_size = 12u + 4u * (n + PALETTE_WRITER_EXTRA);
    out->trailer = (uint8_t *)(pal + n); /* zeroed: one colour's worth */
    out->trailer_count = 4u * PALETTE_WRITER_EXTRA;
    p->hash = (uint32_t)crc32(0L, (const Bytef *)pal, (uInt)(4u * n));
    out->hash = p->hash;
    return RELIC_OK;
}

/* palette index of a pixel (mip levels may hold colours the top level lacks) */
static uint32_t index_of(plan *p, const relic_pid_palette *pal, const uint8_t *px)
{
    if ((p->transparent && is_transparent(p, px)) || pal->colours_used <= (p->transparent ? 1u : 0u)) return 0;
    uint32_t k = rgb_of(px);
    size_t s = slot_of(p, k);
    if (p->keys[s] == k) return p->vals[s];
    uint32_t v = nearest(pal->colours, p->transparent ? 1u : 0u, pal->colours_used, k);
    /* cache it: the table has 2 slots per top-level pixel, the mip levels add at most a third */
    p->keys[s] = k;
    p->vals[s] = v;
    return v;
}

/* ---- layout ---- */

typedef struct item {
    size_t tex;
    unsigned lvl;
    uint32_t row, h;
} item;

static int by_height(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->h != y->h) return x->h > y->h ? -1 : 1;
    if (x->tex != y->tex) return x->tex < y->tex ? -1 : 1;
    return x->lvl < y->lvl ? -1 : x->lvl > y->lvl;
}

static int pow2(uint32_t v) { return v && !(v & (v - 1)); }

static uint32_t page_of(const item *it)
{
    if (!pow2(it->row) || it->h > PAGE_ROWS || it->row > PAGE_WIDE) return 0;
    return it->row <= PAGE_NARROW ? PAGE_NARROW : PAGE_WIDE;
}

/* lay items out from *cursor: narrow pages, wide pages, then row after row */
static void lay_out(plan *plans, item *items, size_t n, uint64_t *cursor)
{
    qsort(items, n, sizeof *items, by_height);
    static const uint32_t widths[2] = {PAGE_NARROW, PAGE_WIDE};
    for (int c = 0; c < 2; c++) {
        uint32_t pw = widths[c];
        int open = 0;
        uint64_t page = 0;
        uint32_t shelf_y = 0, shelf_h = 0, x = 0;
        for (size_t i = 0; i < n; i++) {
            if (page_of(&items[i]) != pw) continue;
            if (open && x + items[i].row > pw) {
                shelf_y += shelf_h;
                shelf_h = 0;
                x = 0;
            }
            if (!open || shelf_y + items[i].h > PAGE_ROWS) {
                if (open) *cursor = page + (uint64_t)PAGE_ROWS * pw;
                page = *cursor;
                open = 1;
                shelf_y = shelf_h = x = 0;
            }
            level *l = &plans[items[i].tex].lv[items[i].lvl];
            l->offset = (uint32_t)(page + (uint64_t)shelf_y * pw + x);
            l->stride = pw;
            x += items[i].row;
            if (items[i].h > shelf_h) shelf_h = items[i].h;
        }
        if (open) *cursor = page + (uint64_t)(shelf_y + shelf_h) * pw;
    }
    for (size_t i = 0; i < n; i++) {
        if (page_of(&items[i])) continue;
        level *l = &plans[items[i].tex].lv[items[i].lvl];
        *cursor = (*cursor + SEQ_ALIGN - 1) / SEQ_ALIGN * SEQ_ALIGN;
        l->offset = (uint32_t)*cursor;
        l->stride = items[i].row;
        *cursor += (uint64_t)items[i].row * items[i].h;
    }
}

static relic_status check_inputs(const relic_swp_texture *t, size_t n, relic_error *err)
{
    char path[48];
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "textures[%zu]", i);
        uint32_t w = t[i].image.width, h = t[i].image.height;
        if (w == 0 || h == 0 || w > RELIC_SWP_MAX_SIDE || h > RELIC_SWP_MAX_SIDE)
            return relic_fail(err, RELIC_E_RANGE, 0, path, "%ux%u: sides must be 1..%u", w, h, RELIC_SWP_MAX_SIDE);
        if (t[i].bump && (t[i].bump->width != w || t[i].bump->height != h))
            return relic_fail(err, RELIC_E_RANGE, 0, path, "the bump image is %ux%u, the texture %ux%u", t[i].bump->width,
                              t[i].bump->height, w, h);
        for (size_t j = 0; j < i; j++)
            if (t[j].id == t[i].id)
                return relic_fail(err, RELIC_E_RANGE, 0, path, "texture ID %08X is also textures[%zu]'s", t[i].id, j);
    }
    return RELIC_OK;
}

relic_status relic_swp_pack(const relic_swp_texture *textures, size_t n, relic_arena *a, relic_pid_file *pid,
                            relic_buf *swp, relic_error *err)
{
    relic_status st = check_inputs(textures, n, err);
    if (st != RELIC_OK) return st;
    plan *plans = relic_arena_array(a, n ? n : 1, sizeof *plans, 8);
    relic_pid_palette *pals = relic_arena_array(a, n ? n : 1, sizeof *pals, 8);
    if (!plans || !pals) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for %zu textures", n);
    memset(plans, 0, (n ? n : 1) * sizeof *plans);
    size_t npal = 0, nrast = 0;
    for (size_t i = 0; i < n; i++) {
        plan *p = &plans[i];
        const relic_image *im = &textures[i].image;
        int partial = 0;
        uint64_t sum[3] = {0, 0, 0}, cnt = 0;
        for (size_t k = 0; k < (size_t)im->width * im->height; k++) {
            const uint8_t *px = im->rgba + 4 * k;
            partial |= px[3] != 0 && px[3] != ALPHA_OPAQUE;
            if (px[3]) {
                sum[0] += px[0];
                sum[1] += px[1];
                sum[2] += px[2];
                cnt++;
            }
        }
        if (cnt) p->colour = (uint32_t)(sum[2] / cnt) | (uint32_t)(sum[1] / cnt) << 8 | (uint32_t)(sum[0] / cnt) << 16;
        p->kind = textures[i].bump ? RELIC_SWP_BUMP : partial ? RELIC_SWP_COLOUR4444
                                                              : RELIC_SWP_INDEXED;
        if ((st = make_levels(p, &textures[i], a, err)) != RELIC_OK) return st;
        if (p->kind == RELIC_SWP_COLOUR4444) {
            p->palette = RELIC_SWP_NO_PALETTE;
            p->transparent = 1;
        } else {
            if ((st = make_palette(p, i, a, &pals[npal], err)) != RELIC_OK) return st;
            p->palette = (uint32_t)npal++;
        }
        nrast += p->nlevels;
    }

    /* layout: smallest levels first (non-pageable), then the rest */
    item *items = relic_arena_array(a, nrast ? nrast : 1, sizeof *items, 8);
    if (!items) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory to lay out %zu rasters", nrast);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const level *l = &plans[i].lv[plans[i].nlevels - 1];
        items[m++] = (item){i, plans[i].nlevels - 1, l->w * (plans[i].kind == RELIC_SWP_INDEXED ? 1u : 2u), l->h};
    }
    uint64_t cursor = 0;
    lay_out(plans, items, m, &cursor);
    uint64_t nonpageable = cursor;
    uint64_t first_pageable = (nonpageable / SECTION_ALIGN + 1) * SECTION_ALIGN;
    m = 0;
    for (size_t i = 0; i < n; i++)
        for (unsigned k = 0; k + 1 < plans[i].nlevels; k++)
            items[m++] = (item){i, k, plans[i].lv[k].w * (plans[i].kind == RELIC_SWP_INDEXED ? 1u : 2u), plans[i].lv[k].h};
    cursor = first_pageable;
    lay_out(plans, items, m, &cursor);
    if (m == 0) cursor = nonpageable;
    if (cursor > UINT32_MAX) return relic_fail(err, RELIC_E_LIMIT, 0, "", "the SWP would be %llu bytes, over 4 GiB", (unsigned long long)cursor);

    /* the SWP */
    uint8_t *out = cursor ? relic_buf_extend(swp, (size_t)cursor) : NULL;
    if (cursor && (!out || swp->failed))
        return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for a %llu-byte SWP", (unsigned long long)cursor);
    if (cursor) memset(out, 0, (size_t)cursor);
    relic_pid_raster *rasters = relic_arena_array(a, nrast ? nrast : 1, sizeof *rasters, 8);
    if (!rasters) return relic_fail(err, RELIC_E_NOMEM, 0, "", "no memory for %zu raster chunks", nrast);
    size_t r = 0;
    for (size_t i = 0; i < n; i++) {
        plan *p = &plans[i];
        const relic_pid_palette *pal = p->palette == RELIC_SWP_NO_PALETTE ? NULL : &pals[p->palette];
        for (unsigned k = 0; k < p->nlevels; k++) {
            const level *l = &p->lv[k];
            for (uint32_t y = 0; y < l->h; y++) {
                const uint8_t *src = l->rgba + (size_t)(l->h - 1u - y) * l->w * 4u; /* rows bottom-up */
                const uint8_t *bsrc = l->bump ? l->bump + (size_t)(l->h - 1u - y) * l->w * 4u : NULL;
                uint8_t *dst = out + l->offset + (size_t)l->stride * y;
                for (uint32_t x = 0; x < l->w; x++) {
                    const uint8_t *px = src + 4u * x;
                    if (p->kind == RELIC_SWP_INDEXED) {
                        dst[x] = (uint8_t)index_of(p, pal, px);
                    } else if (p->kind == RELIC_SWP_BUMP) {
                        const uint8_t *bp = bsrc + 4u * x;
                        unsigned az = (bp[0] + 2u) / 4u, el = (bp[1] + 8u) / 17u;
                        if (az > AZIMUTH_MAX) az = AZIMUTH_MAX;
                        if (el > ELEVATION_MAX) el = ELEVATION_MAX;
                        relic_store_u16le(dst + 2u * x, (uint16_t)(index_of(p, pal, px) << 10 | az << 4 | el));
                    } else {
                        unsigned nib[4];
                        for (int c = 0; c < 4; c++) nib[c] = (px[c] * NIBBLE_MAX + 127u) / 255u;
                        relic_store_u16le(dst + 2u * x, (uint16_t)(nib[2] | nib[1] << 4 | nib[0] << 8 | nib[3] << 12));
                    }
                }
            }
            relic_pid_raster *c = &rasters[r++];
            memset(c, 0, sizeof *c);
            c->chunk_size = RELIC_PID_RASTER_SIZE;
            c->swp_offset = l->offset;
            c->width = l->w;
            c->height = l->h;
            c->stride = l->stride;
            c->bits_per_pixel = p->kind == RELIC_SWP_INDEXED ? 8u : 16u;
            c->constant_colour = p->colour;
            c->transparent = !p->transparent ? 0
                : p->kind == RELIC_SWP_BUMP  ? RELIC_SWP_TRANSPARENT_BUMP
                                             : RELIC_SWP_TRANSPARENT_COLOUR;
            c->bump_map = p->kind == RELIC_SWP_BUMP ? RELIC_SWP_BUMP_PALETTISED : 0;
            c->occlusion = textures[i].occlusion ? OCCLUSION_FLAG : 0;
            c->palette = p->palette;
            c->key = k == 0 ? textures[i].id : relic_tres_mip_key(textures[i].id, l->w, l->h, p->hash);
        }
    }
    memset(pid, 0, sizeof *pid);
    pid->header.version = RELIC_PID_VERSION;
    pid->header.bump_depth = RELIC_PID_BUMP_DEPTH;
    pid->header.first_pageable = (uint32_t)first_pageable;
    pid->header.nonpageable_size = (uint32_t)nonpageable;
    pid->palettes = pals;
    pid->palettes_count = npal;
    pid->rasters = rasters;
    pid->rasters_count = nrast;
    return RELIC_OK;
}
