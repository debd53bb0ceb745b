/* wtd_tree.c — the WTD zerotree (Trespasser source, Lib/GeomDBase/WaveletQuadTreeBase.cpp, Lib/GeomDBase/WaveletDataFormat.cpp;
 * WaveletDataFormat.cpp 185-305): depth-first, pre-order, children in
 * counter-clockwise order 0..3 from the bottom-left, from logical bit 720.
 * Each present node: a significance bit; if set, its branch size and
 * max-region (30 bits at the root, else uLog2 of the parent's value + 1),
 * three sign-in-LSB coefficients of uLog2(max) + 2 bits, four children.
 * Every width is bounded (<= 31 bits) and every branch size is checked
 * against the bits the branch really occupies. */
#include <stdio.h>

#include "relic_wtd.h"

/* Deepest level: the root has size N <= 16384 = 2^14, a node of size 1 has no children. */
#define WTD_MAX_DEPTH 15

typedef struct tree_ctx {
    relic_wtd_bits bits;
    int32_t *coef;
    uint32_t n;
    relic_wtd_tree_stats st;
    relic_wtd_node_visit visit;
    void *visit_ctx;
    uint8_t child[WTD_MAX_DEPTH]; /* child index at each depth, for error paths */
    char path[RELIC_ERROR_PATH_MAX];
} tree_ctx;

/* "tree.c0.c3.<field>" for the node at `depth`. */
static const char *node_path(tree_ctx *c, unsigned depth, const char *field)
{
    size_t len = (size_t)snprintf(c->path, sizeof c->path, "tree");
    for (unsigned d = 1; d <= depth && len + 4 < sizeof c->path; d++)
        len += (size_t)snprintf(c->path + len, sizeof c->path - len, ".c%u", c->child[d]);
    if (field && len < sizeof c->path) snprintf(c->path + len, sizeof c->path - len, ".%s", field);
    return c->path;
}

static relic_status read_field(tree_ctx *c, unsigned depth, unsigned width, const char *field, uint32_t *v,
                               relic_error *err)
{
    const char *path = NULL;
    if (c->bits.pos > c->bits.size_bits || width > c->bits.size_bits - c->bits.pos) path = node_path(c, depth, field);
    return relic_wtd_bits_read(&c->bits, width, v, path, err);
}

/* One node of size s at (x, y); size_w/max_w are its field widths, parent_max
 * bounds its max-region (0 for the root: no bound but the width). */
static relic_status read_node(tree_ctx *c, uint32_t x, uint32_t y, uint32_t s, unsigned depth, unsigned size_w,
                              unsigned max_w, uint32_t parent_max, relic_error *err)
{
    uint64_t start = c->bits.pos;
    uint32_t sig, branch, maxr;
    relic_status st;
    c->st.nodes++;
    if (depth > c->st.depth) c->st.depth = depth;
    if ((st = read_field(c, depth, 1, "significant", &sig, err)) != RELIC_OK) return st;
    if (c->visit) c->visit(c->visit_ctx, x, y, s, sig != 0 && s >= 2);
    if (!sig) return RELIC_OK;
    if (s < 2)
        return relic_fail(err, RELIC_E_RANGE, relic_wtd_file_offset(start), node_path(c, depth, "significant"),
                          "a node of size 1 is marked significant (it cannot have children)");
    c->st.significant++;
    c->st.level_significant[depth]++;
    if ((st = read_field(c, depth, size_w, "branch_size", &branch, err)) != RELIC_OK) return st;
    uint64_t max_at = c->bits.pos;
    if ((st = read_field(c, depth, max_w, "max_region", &maxr, err)) != RELIC_OK) return st;
    if (maxr == 0)
        return relic_fail(err, RELIC_E_RANGE, relic_wtd_file_offset(max_at), node_path(c, depth, "max_region"),
                          "a significant node has max-region 0");
    if (depth > 0 && maxr > parent_max)
        return relic_fail(err, RELIC_E_RANGE, relic_wtd_file_offset(max_at), node_path(c, depth, "max_region"),
                          "max-region %u exceeds the parent's %u", maxr, parent_max);
    if (depth == 0) {
        c->st.root_branch_bits = branch;
        c->st.root_max = maxr;
    }
    unsigned cw = relic_wtd_ulog2(maxr) + 2; /* maxr < 2^30 (30-bit root field, children bounded) => cw <= 31 */
    uint32_t h = s / 2;
    static const char *const names[3] = {"w0", "w1", "w2"};
    const uint32_t px[3] = {x + h, x + h, x}, py[3] = {y, y + h, y + h};
    for (int k = 0; k < 3; k++) {
        uint64_t at = c->bits.pos;
        uint32_t raw;
        if ((st = read_field(c, depth, cw, names[k], &raw, err)) != RELIC_OK) return st;
        uint32_t mag = raw >> 1;
        if (mag > maxr)
            return relic_fail(err, RELIC_E_RANGE, relic_wtd_file_offset(at), node_path(c, depth, names[k]),
                              "|coefficient| %u exceeds the node's max-region %u", mag, maxr);
        int32_t w = (raw & 1) ? -(int32_t)mag : (int32_t)mag;
        if (w) c->st.nonzero++;
        if (c->coef) c->coef[(size_t)py[k] * c->n + px[k]] = w;
    }
    const uint32_t cx[4] = {x, x + h, x + h, x}, cy[4] = {y, y, y + h, y + h};
    unsigned csize_w = relic_wtd_ulog2(branch) + 1, cmax_w = relic_wtd_ulog2(maxr) + 1;
    for (uint8_t i = 0; i < 4; i++) {
        c->child[depth + 1] = i;
        if ((st = read_node(c, cx[i], cy[i], h, depth + 1, csize_w, cmax_w, maxr, err)) != RELIC_OK) return st;
    }
    uint64_t used = c->bits.pos - start;
    if (used != branch)
        return relic_fail(err, RELIC_E_LAYOUT, relic_wtd_file_offset(start), node_path(c, depth, "branch_size"),
                          "branch size %u bits, but the branch occupies %llu bits", branch, (unsigned long long)used);
    return RELIC_OK;
}

relic_status relic_wtd_walk_tree(const uint8_t *data, size_t size, const relic_wtd_file *h, int32_t *coef,
                                 relic_wtd_tree_stats *stats, relic_wtd_node_visit visit, void *ctx, relic_error *err)
{
    tree_ctx c;
    memset(&c, 0, sizeof c);
    c.coef = coef;
    c.visit = visit;
    c.visit_ctx = ctx;
    c.n = (uint32_t)h->mapping.quad_extents.size_x;
    relic_status st = relic_wtd_bits_init(&c.bits, data, size, RELIC_WTD_TREE_BIT, err);
    if (st != RELIC_OK) return st;
    if (coef) coef[0] = h->root_coefficient;
    st = read_node(&c, 0, 0, c.n, 0, RELIC_WTD_ROOT_FIELD_BITS, RELIC_WTD_ROOT_FIELD_BITS, 0, err);
    c.st.end_bit = c.bits.pos;
    if (stats) *stats = c.st;
    return st;
}

relic_status relic_wtd_read_tree(const uint8_t *data, size_t size, const relic_wtd_file *h, int32_t *coef,
                                 relic_wtd_tree_stats *stats, relic_error *err)
{
    return relic_wtd_walk_tree(data, size, h, coef, stats, NULL, NULL, err);
}
