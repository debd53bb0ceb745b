/* heap_guard.h — counts the heap calls (malloc, calloc, realloc, free,
 * posix_memalign, aligned_alloc) made between heap_guard_arm() and
 * heap_guard_disarm(), so a test can assert that a library call allocated
 * only from the relic_arena it was given.
 *
 * Under AddressSanitizer the allocator belongs to the sanitizer: its
 * malloc/free hooks (sanitizer/allocator_interface.h) see every call. In a
 * plain build this file interposes the functions themselves and forwards to
 * glibc's __libc_* entry points. Include it in exactly one translation unit
 * of a test program. */
#ifndef RELIC_TEST_HEAP_GUARD_H
#define RELIC_TEST_HEAP_GUARD_H

#include <stddef.h>

static volatile int heap_guard_armed;
static volatile unsigned long heap_guard_calls;

#if defined(__SANITIZE_ADDRESS__)
#define HEAP_GUARD_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HEAP_GUARD_ASAN 1
#endif
#endif

#ifdef HEAP_GUARD_ASAN
/* from sanitizer/allocator_interface.h, which gcc does not ship */
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
                                              void (*free_hook)(const volatile void *));

static void heap_guard_on_malloc(const volatile void *p, size_t n)
{
    (void)p;
    (void)n;
    if (heap_guard_armed) heap_guard_calls++;
}
static void heap_guard_on_free(const volatile void *p)
{
    if (heap_guard_armed && p) heap_guard_calls++;
}
static void heap_guard_install(void)
{
    static int done;
    if (!done) done = __sanitizer_install_malloc_and_free_hooks(heap_guard_on_malloc, heap_guard_on_free) >= 0;
}
#else
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

void *malloc(size_t n)
{
    if (heap_guard_armed) heap_guard_calls++;
    return __libc_malloc(n);
}
void *calloc(size_t n, size_t size)
{
    if (heap_guard_armed) heap_guard_calls++;
    return __libc_calloc(n, size);
}
void *realloc(void *p, size_t n)
{
    if (heap_guard_armed) heap_guard_calls++;
    return __libc_realloc(p, n);
}
void free(void *p)
{
    if (heap_guard_armed && p) heap_guard_calls++;
    __libc_free(p);
}
int posix_memalign(void **out, size_t align, size_t n)
{
    if (heap_guard_armed) heap_guard_calls++;
    void *p = __libc_memalign(align, n);
    if (!p) return 12; /* ENOMEM */
    *out = p;
    return 0;
}
void *aligned_alloc(size_t align, size_t n)
{
    if (heap_guard_armed) heap_guard_calls++;
    return __libc_memalign(align, n);
}
static void heap_guard_install(void) {}
#endif

/** Start counting heap calls (the count restarts at 0). */
static inline void heap_guard_arm(void)
{
    heap_guard_install();
    heap_guard_calls = 0;
    heap_guard_armed = 1;
}

/** Stop counting; returns the number of heap calls made since arming. */
static inline unsigned long heap_guard_disarm(void)
{
    heap_guard_armed = 0;
    return heap_guard_calls;
}

#endif
