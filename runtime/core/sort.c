/* sort.c — relic_sort: a stable sort whose scratch comes from the caller's
 * arena. glibc's qsort mallocs a merge buffer once the array passes 1 KiB,
 * which would break "the library allocates only from the arena you pass";
 * this is the same stable bottom-up merge sort with the buffer taken from
 * the arena instead (runs of RUN elements are insertion-sorted first). */
#include "relic.h"

#define RUN 16

static void insertion_sort(uint8_t *b, size_t n, size_t size, int (*cmp)(const void *, const void *), uint8_t *tmp)
{
    for (size_t i = 1; i < n; i++) {
        size_t j = i;
        if (cmp(b + (j - 1) * size, b + i * size) <= 0) continue;
        memcpy(tmp, b + i * size, size);
        while (j > 0 && cmp(b + (j - 1) * size, tmp) > 0) j--;
        memmove(b + (j + 1) * size, b + j * size, (i - j) * size);
        memcpy(b + j * size, tmp, size);
    }
}

relic_status relic_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *), relic_arena *scratch)
{
    if (n < 2 || size == 0) return RELIC_OK;
    if (n > (SIZE_MAX - size) / size) return RELIC_E_LIMIT;
    uint8_t *buf = relic_arena_alloc(scratch, n * size + size, 16); /* aligned for any element type */
    if (!buf) return RELIC_E_NOMEM;
    uint8_t *tmp = buf + n * size, *src = base, *dst = buf;
    for (size_t i = 0; i < n; i += RUN) insertion_sort(src + i * size, n - i < RUN ? n - i : RUN, size, cmp, tmp);
    for (size_t w = RUN; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                /* <= keeps equal elements in their order: stable */
                if (cmp(src + i * size, src + j * size) <= 0) memcpy(dst + k++ * size, src + i++ * size, size);
                else memcpy(dst + k++ * size, src + j++ * size, size);
            }
            if (i < mid) memcpy(dst + k * size, src + i * size, (mid - i) * size), k += mid - i;
            if (j < hi) memcpy(dst + k * size, src + j * size, (hi - j) * size);
        }
        uint8_t *t = src;
        src = dst;
        dst = t;
        if (w > SIZE_MAX / 4) break;
    }
    if (src != (uint8_t *)base) memcpy(base, src, n * size);
    return RELIC_OK;
}
