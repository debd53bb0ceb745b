/* wtd_encode.c — the WTD writer: wavelet coefficients (the layout of
 * relic_wtd_analyse) to a file the game's reader accepts
 * (Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp; WaveletDataFormat.cpp 185-268,
 * WaveletQuadTreeTForm.cpp 72-105, 444-454, 552-564). The max-region of
 * every node is the largest |coefficient| of its branch; a node is
 * significant iff that is non-zero. Branch sizes depend on the widths of
 * their own fields, which depend on the parent's final branch size, so
 * they are computed to a fixed point exactly as the original encoder does:
 * every size starts at 0x7FFFFFFF and all are recomputed bottom-up from the
 * parents' previous values until the root's size stops changing (sizes
 * only shrink, so this terminates). Then the header, the parameter block
 * and the depth-first pre-order tree are written MSB-first into the
 * logical stream, which is stored with logical byte k at file byte k XOR 3,
 * and the result is read back by relic's own header reader. */
#include "relic_wtd.h"

/* Per-level node tables: level L has (2^L)^2 nodes of size n >> L, row-major. */
typedef struct tree_tables {
    uint32_t n;      /* grid size */
    unsigned levels; /* log2(n): levels 0..levels-1 hold nodes of size >= 2 */
    uint32_t *maxr[RELIC_WTD_MAX_LEVELS];
    uint32_t *size[RELIC_WTD_MAX_LEVELS];
    const int32_t *coef;
} tree_tables;

static uint32_t magnitude(int32_t v) { return v < 0 ? (uint32_t)0 - (uint32_t)v : (uint32_t)v; }

/* The three coefficients of node (i, j) of level L: w0 bottom-edge
 * midpoint, w1 centre, w2 left-edge midpoint (Trespasser source, Lib/GeomDBase/WaveletQuadTreeBase.cpp). */
static void node_coefficients(const tree_tables *t, unsigned L, uint32_t i, uint32_t j, int32_t w[3])
{
    const uint32_t s = t->n >> L, h = s / 2, x = i * s, y = j * s, n = t->n;
    w[0] = t->coef[(size_t)y * n + x + h];
    w[1] = t->coef[(size_t)(y + h) * n + x + h];
    w[2] = t->coef[(size_t)(y + h) * n + x];
}

/* Child c (0..3, counter-clockwise from the bottom-left) of node (i, j). */
static inline size_t child_index(unsigned L, uint32_t i, uint32_t j, unsigned c)
{
    static const uint8_t dx[4] = {0, 1, 1, 0}, dy[4] = {0, 0, 1, 1};
    return (size_t)(2 * j + dy[c]) * ((size_t)2 << L) + 2 * i + dx[c];
}

static void compute_max_regions(tree_tables *t, relic_wtd_encode_stats *st)
{
    for (unsigned L = t->levels; L-- > 0;) {
        const uint32_t k = (uint32_t)1 << L;
        for (uint32_t j = 0; j < k; j++)
            for (uint32_t i = 0; i < k; i++) {
                int32_t w[3];
                node_coefficients(t, L, i, j, w);
                uint32_t m = 0;
                for (int q = 0; q < 3; q++) {
                    uint32_t a = magnitude(w[q]);
                    if (a) st->nonzero++;
                    if (a > m) m = a;
                }
                if (L + 1 < t->levels)
                    for (unsigned c = 0; c < 4; c++) {
                        uint32_t cm = t->maxr[L + 1][child_index(L, i, j, c)];
                        if (cm > m) m = cm;
                    }
                t->maxr[L][(size_t)j * k + i] = m;
                if (m) st->significant++;
            }
    }
}

/* Distinct corner vertices of the nodes in the stream: the 4 root corners,
 * and for each significant node its centre and 4 edge midpoints, an edge
 * midpoint shared with a significant same-size neighbour counted once (no
 * other node can have a vertex there, Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp item 6). */
static uint32_t count_vertices(const tree_tables *t)
{
    uint64_t v = 4;
    for (unsigned L = 0; L < t->levels; L++) {
        const uint32_t k = (uint32_t)1 << L;
        const uint32_t *mr = t->maxr[L];
        for (uint32_t j = 0; j < k; j++)
            for (uint32_t i = 0; i < k; i++) {
                if (!mr[(size_t)j * k + i]) continue;
                v += 5;
                if (i + 1 < k && mr[(size_t)j * k + i + 1]) v--;
                if (j + 1 < k && mr[(size_t)(j + 1) * k + i]) v--;
            }
    }
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* One bottom-up pass: every significant node's branch size from its
 * children's new sizes and its parent's previous size; returns the root's. */
static uint32_t size_pass(tree_tables *t)
{
    for (unsigned L = t->levels; L-- > 0;) {
        const uint32_t k = (uint32_t)1 << L;
        const uint32_t *mr = t->maxr[L];
        uint32_t *sz = t->size[L];
        for (uint32_t j = 0; j < k; j++)
            for (uint32_t i = 0; i < k; i++) {
                const size_t idx = (size_t)j * k + i;
                const uint32_t m = mr[idx];
                if (!m) continue;
                uint64_t own = 1 + 3 * (uint64_t)(relic_wtd_ulog2(m) + 2);
                if (L == 0) {
                    own += 2 * RELIC_WTD_ROOT_FIELD_BITS;
                } else {
                    const size_t p = (size_t)(j / 2) * (k / 2) + i / 2;
                    own += relic_wtd_ulog2(t->size[L - 1][p]) + 1 + relic_wtd_ulog2(t->maxr[L - 1][p]) + 1;
                }
                for (unsigned c = 0; c < 4; c++) {
                    if (L + 1 == t->levels) {
                        own += 1;
                    } else {
                        const size_t ci = child_index(L, i, j, c);
                        own += t->maxr[L + 1][ci] ? t->size[L + 1][ci] : 1;
                    }
                }
                sz[idx] = own > UINT32_MAX ? UINT32_MAX : (uint32_t)own;
            }
    }
    return t->levels ? t->size[0][0] : 1;
}

/* MSB-first writer of the logical stream (bounds were sized beforehand). */
typedef struct bit_writer {
    uint8_t *p;
    uint64_t pos;
} bit_writer;

static void put_bits(bit_writer *w, unsigned nbits, uint32_t v)
{
    while (nbits > 0) {
        const unsigned room = 8 - (unsigned)(w->pos & 7);
        const unsigned take = room < nbits ? room : nbits;
        const uint32_t bits = (v >> (nbits - take)) & ((1u << take) - 1);
        w->p[w->pos >> 3] |= (uint8_t)(bits << (room - take));
        w->pos += take;
        nbits -= take;
    }
}

/* Write node (i, j) of level L (L == levels: a size-1 leaf) and its branch;
 * returns 0 when a branch does not occupy the size computed for it. */
static int write_node(const tree_tables *t, bit_writer *w, unsigned L, uint32_t i, uint32_t j, unsigned size_w,
                      unsigned max_w)
{
    if (L == t->levels) {
        put_bits(w, 1, 0);
        return 1;
    }
    const size_t idx = (size_t)j * ((size_t)1 << L) + i;
    const uint32_t m = t->maxr[L][idx];
    const uint64_t start = w->pos;
    put_bits(w, 1, m != 0);
    if (!m) return 1;
    const uint32_t size = t->size[L][idx];
    put_bits(w, size_w, size);
    put_bits(w, max_w, m);
    int32_t c[3];
    node_coefficients(t, L, i, j, c);
    const unsigned cw = relic_wtd_ulog2(m) + 2;
    for (int q = 0; q < 3; q++) put_bits(w, cw, (magnitude(c[q]) << 1) | (c[q] < 0));
    for (unsigned k = 0; k < 4; k++) {
        static const uint8_t dx[4] = {0, 1, 1, 0}, dy[4] = {0, 0, 1, 1};
        if (!write_node(t, w, L + 1, 2 * i + dx[k], 2 * j + dy[k], relic_wtd_ulog2(size) + 1, relic_wtd_ulog2(m) + 1))
            return 0;
    }
    return w->pos - start == size;
}

relic_status relic_wtd_encode_tree(const int32_t *coef, uint32_t n, const relic_wtd_mapping *m, relic_arena *a,
                                   relic_buf *out, relic_wtd_encode_stats *stats, relic_error *err)
{
    relic_wtd_encode_stats st;
    memset(&st, 0, sizeof st);
    if (n == 0 || (n & (n - 1)) != 0 || n > RELIC_WTD_MAX_N)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "grid", "grid size %u is not a power of two from 1 to %u", n,
                          (unsigned)RELIC_WTD_MAX_N);
    if ((uint32_t)m->quad_extents.size_x != n || (uint32_t)m->quad_extents.size_y != n)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, "mapping.quad_extents",
                          "the parameter block's quad size %d x %d is not the grid's %u x %u",
                          m->quad_extents.size_x, m->quad_extents.size_y, n, n);
    tree_tables t;
    memset(&t, 0, sizeof t);
    t.n = n;
    t.coef = coef;
    t.levels = relic_wtd_ulog2(n);
    for (unsigned L = 0; L < t.levels; L++) {
        const size_t count = (size_t)1 << (2 * L);
        t.maxr[L] = relic_arena_array(a, count, sizeof(uint32_t), _Alignof(uint32_t));
        t.size[L] = relic_arena_array(a, count, sizeof(uint32_t), _Alignof(uint32_t));
        if (!t.maxr[L] || !t.size[L])
            return relic_fail(err, RELIC_E_NOMEM, 0, "tree", "no memory for the node tables of a %u x %u grid", n, n);
    }
    compute_max_regions(&t, &st);
    const uint32_t root_max = t.levels ? t.maxr[0][0] : 0;
    if (root_max >= (uint32_t)1 << RELIC_WTD_ROOT_FIELD_BITS)
        return relic_fail(err, RELIC_E_RANGE, 0, "tree.max_region",
                          "a wavelet coefficient of magnitude %u does not fit the 30-bit max-region field", root_max);
    /* Branch sizes to their fixed point (Trespasser source, Lib/GeomDBase/WaveletQuadTreeTForm.cpp item 4). */
    for (unsigned L = 0; L < t.levels; L++)
        for (size_t q = 0, count = (size_t)1 << (2 * L); q < count; q++) t.size[L][q] = 0x7FFFFFFFu;
    uint32_t root_bits = t.levels ? 0x7FFFFFFFu : 1;
    if (root_max) {
        for (;;) {
            const uint32_t next = size_pass(&t);
            st.iterations++;
            if (next == root_bits) break;
            root_bits = next;
        }
    } else {
        root_bits = 1;
    }
    if (root_bits >= (uint32_t)1 << RELIC_WTD_ROOT_FIELD_BITS)
        return relic_fail(err, RELIC_E_LIMIT, 0, "tree.branch_size",
                          "the zerotree needs %u bits, more than the 30-bit root branch-size field holds", root_bits);
    const uint64_t total_bits = RELIC_WTD_TREE_BIT + root_bits;
    if (total_bits >= RELIC_WTD_GAME_MAX_BITS)
        return relic_fail(err, RELIC_E_LIMIT, 0, "tree.branch_size",
                          "the file needs %llu bits; the game's reader indexes at most 2^27 (use a threshold to drop small coefficients)",
                          (unsigned long long)total_bits);
    st.root_branch_bits = root_max ? root_bits : 0;
    st.root_max = root_max;
    st.nodes = 1 + 4 * st.significant;
    st.vertices = count_vertices(&t);
    const size_t bytes = (size_t)((total_bits + 31) / 32) * RELIC_WTD_WORD_BYTES;
    st.bytes = bytes;

    relic_wtd_file hdr;
    memset(&hdr, 0, sizeof hdr);
    hdr.version = RELIC_WTD_FILE_VERSION_VALUE;
    hdr.node_count = st.nodes;
    hdr.vertex_count = st.vertices;
    hdr.root_coefficient = coef[0];
    hdr.mapping = *m;
    relic_buf hb;
    uint8_t hb_mem[RELIC_WTD_FILE_SIZE + 1]; /* the fixed-size header, on the stack */
    relic_buf_init_fixed(&hb, hb_mem, sizeof hb_mem);
    relic_status rs = relic_wtd_write(&hdr, &hb, err);
    if (rs == RELIC_OK && (hb.failed || hb.size != RELIC_WTD_FILE_SIZE))
        rs = relic_fail(err, RELIC_E_NOMEM, 0, "header", "the header could not be written");
    uint8_t *logical = rs == RELIC_OK ? relic_arena_alloc(a, bytes, 4) : NULL;
    if (rs == RELIC_OK && !logical)
        rs = relic_fail(err, RELIC_E_NOMEM, 0, "file", "no memory for a %zu-byte file", bytes);
    if (rs != RELIC_OK) {
        relic_buf_free(&hb);
        return rs;
    }
    memcpy(logical, hb.data, RELIC_WTD_FILE_SIZE);
    relic_buf_free(&hb);
    bit_writer w = {logical, RELIC_WTD_TREE_BIT};
    if (!write_node(&t, &w, 0, 0, 0, RELIC_WTD_ROOT_FIELD_BITS, RELIC_WTD_ROOT_FIELD_BITS) || w.pos != total_bits)
        return relic_fail(err, RELIC_E_LAYOUT, 0, "tree", "internal error: a branch does not occupy its computed size");
    uint8_t *f = relic_buf_extend(out, bytes);
    if (!f) return relic_fail(err, RELIC_E_NOMEM, 0, "file", "the output buffer could not grow by %zu bytes", bytes);
    for (size_t k = 0; k < bytes; k++) f[k] = logical[k ^ 3];
    relic_wtd_file check;
    rs = relic_wtd_read_header(f, bytes, &check, err);
    if (rs != RELIC_OK) return rs;
    if (stats) *stats = st;
    return RELIC_OK;
}
