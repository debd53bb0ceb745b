/* arena.c — relic_arena: the bump allocator every decoded model lives in.
 *
 * Implements "Arenas" of relic.h (DESIGN.md "Data flow": no hidden malloc;
 * the caller passes the arena in; "Safety contract": bounded memory).
 *
 * Two kinds:
 *  - buffer arenas carve one caller buffer and never call malloc; they are
 *    zero-filled allocation by allocation, since the caller's bytes may hold
 *    anything;
 *  - heap arenas take blocks from calloc (so fresh memory is already zero).
 *    Block k holds 64 KiB << k bytes, at most 64 MiB, or the request itself
 *    when that is larger. A block's first byte is 64-aligned, so any request
 *    fits in a fresh block of its own size whatever its alignment.
 *
 * `used` counts the bytes handed out plus alignment padding; a heap arena's
 * limit caps it. New blocks are never larger than what the limit could still
 * hand out, so memory reserved stays within a small factor of the limit.
 *
 * Zero-size requests get one shared, maximally aligned address: non-NULL (so
 * an empty array is not mistaken for exhaustion), never dereferenced. */
#define _DEFAULT_SOURCE 1 /* madvise */
#include "relic.h"

#include <stdalign.h>
#include <stdlib.h>
#include <sys/mman.h>

#define ARENA_MAX_ALIGN ((size_t)64)
#define ARENA_FIRST_BLOCK ((size_t)64 * 1024)
#define ARENA_MAX_DOUBLINGS 10 /* 64 KiB << 10 = 64 MiB */

struct relic_arena_block {
    relic_arena_block *next; /* older block */
    uint8_t *base;           /* first 64-aligned byte inside this allocation */
    size_t capacity;         /* usable bytes from base */
    unsigned index;          /* 0 for the first block of the arena */
};

static alignas(64) uint8_t zero_size_object[1];

void relic_arena_init_buffer(relic_arena *a, void *buf, size_t size)
{
    if (a == NULL)
        return;
    memset(a, 0, sizeof *a);
    if (buf != NULL) {
        a->cur = buf;
        a->end = a->cur + size;
    }
}

void relic_arena_init_heap(relic_arena *a, size_t limit)
{
    if (a == NULL)
        return;
    memset(a, 0, sizeof *a);
    a->limit = limit;
    a->heap = 1;
}

static size_t padding_for(const uint8_t *p, size_t align)
{
    return (size_t)(-(uintptr_t)p & (uintptr_t)(align - 1));
}

/* Ask for transparent huge pages under a large block: its pages are first
 * touched as models are decoded into it, and where a page fault is dear (a
 * virtual machine) 4 KiB faults took a third of a TRN bake and most of
 * JSON -> GFF. Advice only; nothing depends on it being followed. */
#define ARENA_HUGE_PAGE ((uintptr_t)2 << 20)
static void advise_huge_pages(void *p, size_t size)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t start = ((uintptr_t)p + ARENA_HUGE_PAGE - 1) & ~(ARENA_HUGE_PAGE - 1),
                    end = ((uintptr_t)p + size) & ~(ARENA_HUGE_PAGE - 1);
    if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)p;
    (void)size;
#endif
}

/* Take a fresh block able to hold size bytes at any alignment <= 64; hand
 * out its first size bytes. The limit has already been checked. */
static void *alloc_in_new_block(relic_arena *a, size_t size)
{
    relic_arena_block *b;
    unsigned index = a->blocks != NULL ? a->blocks->index + 1 : 0;
    unsigned shift = index < ARENA_MAX_DOUBLINGS ? index : ARENA_MAX_DOUBLINGS;
    size_t capacity = ARENA_FIRST_BLOCK << shift;
    size_t total;
    uint8_t *raw;

    if (a->limit != 0 && capacity > a->limit - a->used)
        capacity = a->limit - a->used;
    if (capacity < size)
        capacity = size;
    if (capacity > SIZE_MAX - sizeof *b - (ARENA_MAX_ALIGN - 1))
        return NULL;
    total = sizeof *b + (ARENA_MAX_ALIGN - 1) + capacity;

    raw = calloc(1, total);
    if (raw == NULL)
        return NULL;
    advise_huge_pages(raw, total);
    b = (relic_arena_block *)(void *)raw;
    b->base = raw + sizeof *b;
    b->base += padding_for(b->base, ARENA_MAX_ALIGN);
    b->capacity = capacity;
    b->index = index;

    a->used += size;
    /* Keep bump-allocating from whichever block has more room left: a large
     * request then does not throw away a fresh current block. */
    if (a->blocks != NULL && capacity - size < (size_t)(a->end - a->cur)) {
        b->next = a->blocks->next;
        a->blocks->next = b;
    } else {
        b->next = a->blocks;
        a->blocks = b;
        a->cur = b->base + size;
        a->end = b->base + capacity;
    }
    return b->base;
}

void *relic_arena_alloc(relic_arena *a, size_t size, size_t align)
{
    size_t pad, room;
    uint8_t *p;

    if (a == NULL || align == 0 || align > ARENA_MAX_ALIGN || (align & (align - 1)) != 0)
        return NULL;
    if (size == 0)
        return zero_size_object;

    if (a->cur != NULL) {
        pad = padding_for(a->cur, align);
        room = (size_t)(a->end - a->cur);
        if (pad <= room && size <= room - pad) {
            if (a->limit != 0 && (pad + size > a->limit || a->used > a->limit - pad - size))
                return NULL;
            p = a->cur + pad;
            a->cur = p + size;
            a->used += pad + size;
            if (!a->heap)
                memset(p, 0, size);
            return p;
        }
    }
    if (!a->heap)
        return NULL;
    if (a->limit != 0 && (size > a->limit || a->used > a->limit - size))
        return NULL;
    return alloc_in_new_block(a, size);
}

void *relic_arena_array(relic_arena *a, size_t n, size_t elem_size, size_t align)
{
    if (elem_size != 0 && n > SIZE_MAX / elem_size)
        return NULL;
    return relic_arena_alloc(a, n * elem_size, align);
}

char *relic_arena_strndup(relic_arena *a, const char *s, size_t len)
{
    char *copy;

    if ((s == NULL && len != 0) || len == SIZE_MAX)
        return NULL;
    copy = relic_arena_alloc(a, len + 1, 1);
    if (copy == NULL)
        return NULL;
    if (len != 0)
        memcpy(copy, s, len);
    copy[len] = '\0';
    return copy;
}

void relic_arena_release(relic_arena *a)
{
    relic_arena_block *b;

    if (a == NULL)
        return;
    if (!a->heap) {
        /* Buffer arenas hand out one contiguous run from the buffer's start,
         * padding included, so the start is cur - used. */
        if (a->cur != NULL)
            a->cur -= a->used;
        a->used = 0;
        return;
    }
    b = a->blocks;
    while (b != NULL) {
        relic_arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->blocks = NULL;
    a->cur = NULL;
    a->end = NULL;
    a->used = 0;
}
