/* mutate_arena.h — a mark on the caller's arena that the mutators rewind
 * to between tries, so one arena (a buffer the caller owns) serves every try
 * of a mutation: what a try allocated is handed out again by the next.
 *
 * A buffer arena (relic_arena_init_buffer) rewinds fully. A heap arena
 * rewinds inside its newest block; once a try has taken a new block the
 * memory stays with the arena until the caller releases it (the mark holds
 * no block of its own, so nothing is freed here). A heap arena's rewound
 * bytes are cleared, since it counts on fresh block memory being zero; a
 * buffer arena clears each allocation itself. */
#ifndef RELIC_MUTATE_ARENA_H
#define RELIC_MUTATE_ARENA_H

#include <string.h>

#include "relic.h"

typedef struct mut_mark {
    uint8_t *cur;
    const void *blocks;
} mut_mark;

static inline mut_mark mut_arena_mark(const relic_arena *a)
{
    mut_mark m = {a->cur, (const void *)a->blocks};
    return m;
}

static inline void mut_arena_rewind(relic_arena *a, mut_mark m)
{
    if (m.cur == NULL || (const void *)a->blocks != m.blocks || a->cur < m.cur || a->cur > a->end) return;
    size_t n = (size_t)(a->cur - m.cur);
    if (a->heap) memset(m.cur, 0, n); /* a buffer arena clears at allocation */
    a->cur = m.cur;
    a->used = a->used >= n ? a->used - n : 0;
}

#endif
