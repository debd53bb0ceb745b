/* buf.c — relic_buf: the growable byte buffer writers and printers fill.
 *
 * Implements "Growable output buffer" of relic.h (DESIGN.md "Data flow":
 * model --writer--> bytes --> atomic file write). Capacity doubles; `limit`
 * caps the number of bytes held (0 = unlimited). The first append that
 * cannot be honoured (limit, allocation failure, bad argument) sets
 * `failed`; from then on every append is a no-op, so a writer emits
 * everything and checks once at the end, the way stdio's ferror works.
 *
 * The bytes are not NUL-terminated; printf's terminator goes into spare
 * capacity and is not counted in size (capacity may therefore exceed the
 * limit by that one byte). */
#include "relic.h"

#include <stdarg.h>
#include <stdlib.h>

#define BUF_FIRST_CAPACITY ((size_t)256)

void relic_buf_init(relic_buf *b, size_t limit)
{
    if (b == NULL)
        return;
    memset(b, 0, sizeof *b);
    b->limit = limit;
}

void relic_buf_init_arena(relic_buf *b, relic_arena *a, size_t limit)
{
    relic_buf_init(b, limit);
    if (b != NULL)
        b->arena = a;
}

void relic_buf_init_fixed(relic_buf *b, void *mem, size_t size)
{
    relic_buf_init(b, size);
    if (b == NULL)
        return;
    b->fixed = 1;
    b->data = mem;
    b->cap = mem != NULL ? size : 0;
}

void relic_buf_free(relic_buf *b)
{
    if (b == NULL)
        return;
    if (b->fixed || b->arena != NULL) {
        b->size = 0;
        b->failed = 0;
        return;
    }
    size_t limit = b->limit;
    free(b->data);
    relic_buf_init(b, limit);
}

/* Arena growth: extend in place when the buffer is the arena's newest
 * allocation, else move to a new allocation (the old bytes stay unused). */
static uint8_t *arena_grow(relic_buf *b, size_t cap)
{
    relic_arena *a = b->arena;
    if (b->data != NULL && b->data + b->cap == a->cur && (size_t)(a->end - b->data) >= cap &&
        (a->limit == 0 || cap - b->cap <= a->limit - a->used)) {
        a->cur = b->data + cap;
        a->used += cap - b->cap;
        return b->data;
    }
    uint8_t *p = relic_arena_alloc(a, cap, 1);
    if (p != NULL && b->size != 0)
        memcpy(p, b->data, b->size);
    return p;
}

/* Room for at least `want` bytes of capacity. want may be limit + 1 (for a
 * printf terminator) but never more; callers check the limit on content. */
static int reserve(relic_buf *b, size_t want)
{
    size_t cap;
    uint8_t *grown;

    if (want <= b->cap && b->data != NULL)
        return 1;
    if (b->fixed) {
        b->failed = 1;
        return 0;
    }
    cap = b->cap != 0 ? b->cap : BUF_FIRST_CAPACITY;
    while (cap < want)
        cap = cap > SIZE_MAX / 2 ? want : cap * 2;
    if (b->limit != 0 && cap > b->limit)
        cap = want > b->limit ? want : b->limit;
    grown = b->arena != NULL ? arena_grow(b, cap) : realloc(b->data, cap);
    if (grown == NULL) {
        b->failed = 1;
        return 0;
    }
    b->data = grown;
    b->cap = cap;
    return 1;
}

/* May n more bytes of content be added? Sets failed when not. */
static int room_for(relic_buf *b, size_t n)
{
    if (b->failed)
        return 0;
    if (n > SIZE_MAX - b->size || (b->limit != 0 && b->size + n > b->limit)) {
        b->failed = 1;
        return 0;
    }
    return 1;
}

void relic_buf_init_sink(relic_buf *b, size_t chunk, relic_status (*sink)(void *ctx, const uint8_t *p, size_t n),
                         void *ctx)
{
    relic_buf_init(b, 0);
    b->sink = sink;
    b->sink_ctx = ctx;
    b->chunk = chunk ? chunk : (size_t)1 << 16;
}

int relic_buf_flush(relic_buf *b)
{
    if (b == NULL || b->failed) return -1;
    if (b->sink != NULL && b->size != 0) {
        if (b->sink(b->sink_ctx, b->data, b->size) != RELIC_OK) {
            b->failed = 1;
            return -1;
        }
        b->size = 0;
    }
    return 0;
}

/* Grow size by n; the new bytes are uninitialised. */
static uint8_t *grow(relic_buf *b, size_t n)
{
    uint8_t *p;

    if (b->sink != NULL && b->size != 0 && b->size + n > b->chunk && relic_buf_flush(b) != 0)
        return NULL;
    if (!room_for(b, n) || !reserve(b, b->size + n))
        return NULL;
    p = b->data + b->size;
    b->size += n;
    return p;
}

uint8_t *relic_buf_reserve(relic_buf *b, size_t n)
{
    if (b == NULL)
        return NULL;
    if (b->sink != NULL && b->size != 0 && b->size + n > b->chunk && relic_buf_flush(b) != 0)
        return NULL;
    if (!room_for(b, n) || !reserve(b, b->size + n))
        return NULL;
    return b->data + b->size;
}

void relic_buf_commit(relic_buf *b, size_t n)
{
    if (b != NULL && !b->failed && n <= b->cap - b->size)
        b->size += n;
}

uint8_t *relic_buf_extend(relic_buf *b, size_t n)
{
    uint8_t *p;

    if (b == NULL)
        return NULL;
    p = grow(b, n);
    if (p != NULL)
        memset(p, 0, n);
    return p;
}

void relic_buf_append(relic_buf *b, const void *p, size_t n)
{
    uint8_t *dst;

    if (b == NULL)
        return;
    if (p == NULL && n != 0) {
        b->failed = 1;
        return;
    }
    dst = grow(b, n);
    if (dst != NULL && n != 0)
        memcpy(dst, p, n);
}

void relic_buf_puts(relic_buf *b, const char *s)
{
    if (b == NULL)
        return;
    if (s == NULL) {
        b->failed = 1;
        return;
    }
    relic_buf_append(b, s, strlen(s));
}

void relic_buf_printf(relic_buf *b, const char *fmt, ...)
{
    va_list ap, again;
    size_t spare;
    size_t n;
    int len;

    if (b == NULL || b->failed)
        return;
    if (fmt == NULL) {
        b->failed = 1;
        return;
    }
    if (b->sink != NULL && b->size >= b->chunk && relic_buf_flush(b) != 0)
        return;

    /* First pass straight into the spare capacity: usually it fits. */
    spare = b->data != NULL ? b->cap - b->size : 0;
    va_start(ap, fmt);
    va_copy(again, ap);
    len = vsnprintf(spare != 0 ? (char *)b->data + b->size : NULL, spare, fmt, ap);
    va_end(ap);
    if (len < 0) {
        va_end(again);
        b->failed = 1;
        return;
    }
    n = (size_t)len;
    if (n >= spare) {
        /* Second pass once there is room for the text and its terminator. */
        if (!room_for(b, n) || !reserve(b, b->size + n + 1)) {
            va_end(again);
            return;
        }
        vsnprintf((char *)b->data + b->size, n + 1, fmt, again);
    } else if (!room_for(b, n)) {
        va_end(again);
        return;
    }
    va_end(again);
    b->size += n;
}
