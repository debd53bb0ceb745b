/* relic.h — the public API of relic's hand-written runtime.
 *
 * relic reads and writes the file formats of classic games. Every fixed
 * layout is a schema under schema/; relic-gen turns it into the headers
 * under generated/ (views, validator, writer, JSON). This header holds what
 * every format shares: status codes and errors, byte buffers and file
 * mapping, arenas, byte-order helpers, atomic output and format detection.
 *
 * Conventions (docs/security.md, "Memory"):
 *  - functions return a relic_status; results come back through
 *    out-parameters; a failure fills the caller's relic_error (if non-NULL);
 *  - the library never calls malloc behind the caller's back: memory comes
 *    from a relic_arena the caller passes in;
 *  - no global state. */
#ifndef RELIC_H
#define RELIC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RELIC_VERSION_STRING "0.1.0"

/* ---------------------------------------------------------------------- */
/* Status and errors                                                      */
/* ---------------------------------------------------------------------- */

/** Result of every relic call. RELIC_OK is zero; everything else is an
 *  error whose details are in the relic_error passed alongside. */
typedef enum relic_status {
    RELIC_OK = 0,
    RELIC_E_TRUNCATED,   /**< a read would pass the end of the input */
    RELIC_E_MAGIC,       /**< a magic or constant field has the wrong value */
    RELIC_E_RANGE,       /**< a value is outside its documented range or enum */
    RELIC_E_INDEX,       /**< an index refers past the array it indexes */
    RELIC_E_LAYOUT,      /**< offsets/sizes are inconsistent (overlap, overflow, misorder) */
    RELIC_E_LIMIT,       /**< a configured limit (memory, depth, size) would be exceeded */
    RELIC_E_NOMEM,       /**< the arena could not supply memory */
    RELIC_E_IO,          /**< an operating-system call failed (errno in the message) */
    RELIC_E_SYNTAX,      /**< malformed text input (JSON, OBJ, schema) */
    RELIC_E_UNSUPPORTED, /**< valid but not handled (format, version, conversion) */
    RELIC_E_ARGUMENT     /**< the caller passed something invalid */
} relic_status;

/** Stable, greppable name of a status ("truncated", "bad magic", ...). */
const char *relic_status_name(relic_status s);

#define RELIC_ERROR_PATH_MAX 128
#define RELIC_ERROR_MESSAGE_MAX 192

/** What went wrong and where. offset is the byte offset in the input the
 *  error refers to (for text inputs: line and column are in the message
 *  and offset is the byte offset of the token). path is the field path as
 *  the schema names it, e.g. "faces[12].v[2]"; empty when not applicable. */
typedef struct relic_error {
    relic_status code;
    uint64_t offset;
    char path[RELIC_ERROR_PATH_MAX];
    char message[RELIC_ERROR_MESSAGE_MAX];
} relic_error;

/** Fill err (if non-NULL) and return code. message is printf-style.
 *  path may be NULL. Always returns code, so `return relic_fail(...)`. */
relic_status relic_fail(relic_error *err, relic_status code, uint64_t offset,
                        const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/** Fill err (if non-NULL) with code and offset, an empty path and message;
 *  return code. What relic_fail becomes under RELIC_NO_ERRMSG. */
relic_status relic_fail_code(relic_error *err, relic_status code, uint64_t offset);

/* RELIC_NO_ERRMSG: compile error text out (as nanopb's PB_NO_ERRMSG does).
 * Defined before relic's headers (e.g. -DRELIC_NO_ERRMSG), every relic_fail
 * keeps its status code and byte offset but drops its field path and message,
 * so their strings and the formatting code leave the binary;
 * relic_error_print then prints the status name. The path and message
 * arguments are not evaluated. For the embedding build (README, "Embedding"). */
#ifdef RELIC_NO_ERRMSG
/* Variables that only fed a message become unused: build the library with
 * -Wno-unused under this macro (make embed does). */
#define relic_fail(err, code, offset, ...) relic_fail_code((err), (code), (offset))
#endif

/** Reset err to "no error". */
void relic_error_clear(relic_error *err);

/** Print "FILE: path @0xOFFSET: message" (the `relic check` line) to out;
 *  control bytes in any part come out as \\xNN, so bytes quoted from a file
 *  cannot drive the terminal. */
void relic_error_print(FILE *out, const char *file, const relic_error *err);

/** Receives each problem a rule check finds: the one report-callback type
 *  of relic. Every format's check function (relic_bwm_check,
 *  relic_groff_check, relic_pid_check, relic_grf_check, relic_tpa_check,
 *  relic_trn_check_*) and relic_gff_open's non-fatal warnings call it once
 *  per problem; relic_problems below wraps it for the code that finds them.
 *  err->path is the field path and err->offset the byte offset in the
 *  checked bytes (for a TRN's ASWM: inside the decompressed walkmesh);
 *  err is valid only during the call. */
typedef void (*relic_report_fn)(void *ctx, const relic_error *err);

/** The problems of one rule check: counts every problem and hands the first
 *  max_reports (0: all) to report (NULL: count only). */
typedef struct relic_problems {
    relic_report_fn report;
    void *ctx;
    unsigned count;
    unsigned max_reports;
} relic_problems;

/** Counts one problem at byte offset and field path (NULL: none) and
 *  reports it as a relic_error with code and the printf-style message. */
void relic_problem(relic_problems *p, relic_status code, uint64_t offset, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/** relic_problem with the path "prefix.field". */
void relic_problem_at(relic_problems *p, relic_status code, uint64_t offset, const char *prefix, const char *field,
                      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* ---------------------------------------------------------------------- */
/* Byte buffers and file mapping                                          */
/* ---------------------------------------------------------------------- */

/** A read-only span of bytes. */
typedef struct relic_bytes {
    const uint8_t *data;
    size_t size;
} relic_bytes;

/** A whole input file, mmap'd when the file is regular, else read into
 *  heap memory (relic_map_file) or an arena (relic_map_file_arena) (pipes,
 *  stdin when path is "-"). Release with relic_unmap. */
typedef struct relic_mapping {
    relic_bytes bytes;
    int is_mmap;     /* internal: how to release */
    void *owned;     /* internal: heap copy for non-mappable inputs */
    size_t map_size; /* internal: length passed to munmap */
} relic_mapping;

/** Map path ("-" = standard input) read-only. Errors: RELIC_E_IO (message
 *  names the file and errno text), RELIC_E_LIMIT when a non-mappable input
 *  exceeds max_size bytes (0 = no limit). An empty file maps to size 0. */
relic_status relic_map_file(const char *path, size_t max_size, relic_mapping *out,
                            relic_error *err);

/** As relic_map_file, but a non-mappable input (pipe, terminal, "-",
 *  a filesystem without mmap) is read into arena a instead of the heap:
 *  the bytes live as long as a (relic_unmap then frees nothing; at most
 *  about twice the input while the buffer doubles). Regular files are
 *  still mapped. Errors: those of relic_map_file; RELIC_E_NOMEM when a
 *  cannot hold the input; RELIC_E_ARGUMENT when a is NULL. */
struct relic_arena;
relic_status relic_map_file_arena(const char *path, size_t max_size, struct relic_arena *a, relic_mapping *out,
                                  relic_error *err);

/** Release a mapping made by relic_map_file; safe on a zeroed mapping. */
void relic_unmap(relic_mapping *m);

/** Map path read-write (MAP_SHARED) for in-place patching of fixed-size
 *  fields. Regular files only. Release with relic_unmap; changes are
 *  written back by the kernel (relic_unmap calls msync first). */
relic_status relic_map_file_rw(const char *path, relic_mapping *out, relic_error *err);

/* ---------------------------------------------------------------------- */
/* Arenas                                                                 */
/* ---------------------------------------------------------------------- */

/** Bump allocator. Either over one caller buffer (relic_arena_init_buffer:
 *  never grows, never mallocs) or over heap blocks (relic_arena_init_heap:
 *  grows in blocks up to `limit` bytes in total, 0 = unlimited). All memory
 *  is released at once by relic_arena_release. */
typedef struct relic_arena_block relic_arena_block;
typedef struct relic_arena {
    uint8_t *cur;              /* next free byte in the current block */
    uint8_t *end;              /* end of the current block */
    relic_arena_block *blocks; /* heap blocks, newest first */
    size_t used;               /* bytes handed out (plus alignment) */
    size_t limit;              /* 0 = unlimited */
    int heap;                  /* 1 when blocks may be malloc'd */
} relic_arena;

/** Arena over buf[0..size); allocations beyond it fail with RELIC_E_NOMEM. */
void relic_arena_init_buffer(relic_arena *a, void *buf, size_t size);

/** Heap arena growing up to limit bytes (0 = unlimited). */
void relic_arena_init_heap(relic_arena *a, size_t limit);

/** size bytes aligned to align (a power of two <= 64), zero-filled; NULL
 *  when the arena is exhausted or the limit is reached (or size overflows). */
void *relic_arena_alloc(relic_arena *a, size_t size, size_t align);

/** n elements of elem_size bytes (overflow-checked), zero-filled. */
void *relic_arena_array(relic_arena *a, size_t n, size_t elem_size, size_t align);

/** Copy len bytes of s into the arena and NUL-terminate. */
char *relic_arena_strndup(relic_arena *a, const char *s, size_t len);

/** Sort n elements of size bytes at base with cmp, stably (equal elements
 *  keep their order, as glibc's merge-sorting qsort does), taking the merge
 *  buffer (n * size + size bytes) from scratch instead of the heap.
 *  Errors: RELIC_E_NOMEM when scratch cannot hold it, RELIC_E_LIMIT when
 *  n * size overflows. */
relic_status relic_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *), relic_arena *scratch);

/** A byte range [start, end) of a file, held by table entry index: the
 *  data of a container's members, for relic_find_overlaps. */
typedef struct relic_range {
    uint64_t start, end;
    uint32_t index;
} relic_range;

/** Called for a range that starts before an earlier one (in file order)
 *  ends; earlier is the index of the earlier range reaching furthest.
 *  Non-zero stops the search. */
typedef int (*relic_overlap_fn)(void *ctx, const relic_range *r, uint32_t earlier);

/** Sort the n ranges at r by start, then index (relic_sort, scratch from
 *  the arena), and call fn for every range that overlaps one before it: a
 *  range is compared with the furthest end reached so far, not only with
 *  its neighbour, so [0,100) [10,20) [30,40) reports both later ranges.
 *  Leave empty ranges out: they overlap nothing. Errors: RELIC_E_NOMEM and
 *  RELIC_E_LIMIT from the sort; RELIC_OK otherwise (overlaps go to fn). */
relic_status relic_find_overlaps(relic_range *r, size_t n, relic_arena *scratch, relic_overlap_fn fn, void *ctx);

/** Free every heap block; the arena is empty (and reusable) afterwards. */
void relic_arena_release(relic_arena *a);

/* ---------------------------------------------------------------------- */
/* Growable output buffer (writers, JSON printers)                        */
/* ---------------------------------------------------------------------- */

/** Output bytes, capped at limit (0 = unlimited), in one of three kinds of
 *  memory: the heap (relic_buf_init: the CLI's choice), the caller's arena
 *  (relic_buf_init_arena: library code, nothing else allocates) or one
 *  caller buffer that never grows (relic_buf_init_fixed). After the first
 *  failed append, `failed` stays set and further appends are no-ops, so
 *  writers check once at the end. */
typedef struct relic_buf {
    uint8_t *data;
    size_t size;
    size_t cap;
    size_t limit;
    int failed;
    relic_arena *arena; /* grow from this arena instead of the heap */
    int fixed;          /* data is caller memory of cap bytes: never grows */
    /* optional sink (relic_buf_init_sink): content goes out in chunks */
    relic_status (*sink)(void *ctx, const uint8_t *p, size_t n);
    void *sink_ctx;
    size_t chunk;
} relic_buf;

/** A buffer that hands its content to sink whenever it holds chunk bytes
 *  or more, so printers stream with bounded memory (a single larger append,
 *  e.g. a binary writer's relic_buf_extend, still grows the buffer). A sink
 *  failure sets failed. Call relic_buf_flush at the end. */
void relic_buf_init_sink(relic_buf *b, size_t chunk, relic_status (*sink)(void *ctx, const uint8_t *p, size_t n),
                         void *ctx);
/** Hand what is buffered to the sink (no-op without one). Returns 0 on
 *  success, -1 when the buffer has failed. */
int relic_buf_flush(relic_buf *b);

/** A heap buffer holding at most limit bytes (0 = unlimited). */
void relic_buf_init(relic_buf *b, size_t limit);
/** A buffer growing inside arena a (at most limit bytes, 0 = unlimited):
 *  growth extends the block in place when it is the arena's newest, else
 *  copies into a new one; nothing is freed until the arena is. */
void relic_buf_init_arena(relic_buf *b, relic_arena *a, size_t limit);
/** A buffer over mem[0..size) of the caller's: an append past size fails
 *  (relic_buf_printf needs one spare byte for its terminator). */
void relic_buf_init_fixed(relic_buf *b, void *mem, size_t size);
/** Release heap memory (no-op for arena and fixed buffers); the buffer is
 *  empty and of the same kind afterwards. */
void relic_buf_free(relic_buf *b);
/** Ensure room for n more bytes; returns a pointer to them (size grows by
 *  n) or NULL on failure (sets failed). The bytes are zero-filled. */
uint8_t *relic_buf_extend(relic_buf *b, size_t n);
void relic_buf_append(relic_buf *b, const void *p, size_t n);
/** Room for n more bytes without adding them (a printer's window): returns
 *  a pointer to the spare capacity at data + size, or NULL on failure (sets
 *  failed, as an append of n bytes would). A sink buffer hands its content
 *  on first when n would take it past its chunk. Follow with
 *  relic_buf_commit of the bytes written (at most n). */
uint8_t *relic_buf_reserve(relic_buf *b, size_t n);
/** Add n bytes written at data + size after relic_buf_reserve. */
void relic_buf_commit(relic_buf *b, size_t n);
void relic_buf_puts(relic_buf *b, const char *s);
void relic_buf_printf(relic_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---------------------------------------------------------------------- */
/* Byte order: memcpy-based loads/stores, one instruction on x86/ARM       */
/* ---------------------------------------------------------------------- */

static inline uint8_t relic_load_u8(const uint8_t *p) { return p[0]; }
static inline int8_t relic_load_i8(const uint8_t *p) { return (int8_t)p[0]; }
static inline void relic_store_u8(uint8_t *p, uint8_t v) { p[0] = v; }
static inline void relic_store_i8(uint8_t *p, int8_t v) { p[0] = (uint8_t)v; }
static inline uint16_t relic_load_u16le(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint16_t relic_load_u16be(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static inline uint32_t relic_load_u32le(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
#else
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
#endif
}
static inline uint32_t relic_load_u32be(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}
static inline uint64_t relic_load_u64le(const uint8_t *p)
{
    return (uint64_t)relic_load_u32le(p) | ((uint64_t)relic_load_u32le(p + 4) << 32);
}
static inline uint64_t relic_load_u64be(const uint8_t *p)
{
    return ((uint64_t)relic_load_u32be(p) << 32) | (uint64_t)relic_load_u32be(p + 4);
}
static inline float relic_load_f32le(const uint8_t *p)
{
    uint32_t u = relic_load_u32le(p);
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline float relic_load_f32be(const uint8_t *p)
{
    uint32_t u = relic_load_u32be(p);
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline double relic_load_f64le(const uint8_t *p)
{
    uint64_t u = relic_load_u64le(p);
    double d;
    memcpy(&d, &u, 8);
    return d;
}
static inline double relic_load_f64be(const uint8_t *p)
{
    uint64_t u = relic_load_u64be(p);
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static inline void relic_store_u16le(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void relic_store_u16be(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}
static inline void relic_store_u32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline void relic_store_u32be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}
static inline void relic_store_u64le(uint8_t *p, uint64_t v)
{
    relic_store_u32le(p, (uint32_t)v);
    relic_store_u32le(p + 4, (uint32_t)(v >> 32));
}
static inline void relic_store_u64be(uint8_t *p, uint64_t v)
{
    relic_store_u32be(p, (uint32_t)(v >> 32));
    relic_store_u32be(p + 4, (uint32_t)v);
}
static inline void relic_store_f32le(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    relic_store_u32le(p, u);
}
static inline void relic_store_f32be(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    relic_store_u32be(p, u);
}
static inline void relic_store_f64le(uint8_t *p, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    relic_store_u64le(p, u);
}
static inline void relic_store_f64be(uint8_t *p, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    relic_store_u64be(p, u);
}

/** a + b into *out; returns 0 on overflow. */
static inline int relic_add_ok(uint64_t a, uint64_t b, uint64_t *out)
{
    *out = a + b;
    return *out >= a;
}
/** a * b into *out; returns 0 on overflow. */
static inline int relic_mul_ok(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a != 0 && b > UINT64_MAX / a) return 0;
    *out = a * b;
    return 1;
}

/* ---------------------------------------------------------------------- */
/* Output files                                                           */
/* ---------------------------------------------------------------------- */

/** An output file being written. What happens depends on the destination:
 *  a regular file or a new path gets a temporary in the destination's
 *  directory, renamed over it by relic_out_commit and removed by
 *  relic_out_abort; a symbolic link is followed to its final target, which
 *  is replaced the same way (the link stays a link); a character or block
 *  device, FIFO or socket, "-", or the file standard output already is
 *  (/dev/stdout) is written directly and never unlinked or renamed over.
 *  Names live in the struct, not on the heap (a copy stays valid). Fields
 *  are internal. */
/** Longest destination or temporary name relic_out holds (PATH_MAX-sized
 *  destinations plus the ".XXXXXX" suffix). */
#define RELIC_OUT_TEMP_MAX 4112
typedef struct relic_out {
    int fd;
    int to_stdout; /* "-" or the file standard output already is */
    int direct;    /* device, FIFO or socket: written in place */
    int prepared;  /* relic_out_prepare done: only the rename is left */
    const char *path;
    int has_tmp; /* tmp_name exists and is removed on abort */
    unsigned mode;
    /* names in the struct, never pointers into it: a relic_out may be copied */
    char dest_name[RELIC_OUT_TEMP_MAX]; /* where the rename lands: path or a link's final target */
    char tmp_name[RELIC_OUT_TEMP_MAX];
} relic_out;

/** Start writing path (refused, RELIC_E_ARGUMENT, when it is the same file as
 *  input, which may be NULL, or a directory). Opening a FIFO waits for its
 *  reader. Errors: RELIC_E_IO naming path and the system's reason,
 *  RELIC_E_NOMEM. */
relic_status relic_out_open(relic_out *o, const char *path, const char *input, relic_error *err);
/** Append size bytes. Errors: RELIC_E_IO naming the path and the reason
 *  ("No space left on device", "File too large", "Broken pipe"...); the
 *  caller then aborts. */
relic_status relic_out_write(relic_out *o, const void *data, size_t size, relic_error *err);
/** Everything that can fail short of the rename: flush, fsync, set
 *  permissions, close. Lets a multi-file output prepare all its files
 *  before it commits any (all or none). On failure the temporary is
 *  removed. Errors: RELIC_E_IO. */
relic_status relic_out_prepare(relic_out *o, relic_error *err);
/** Prepare (when not done yet) and rename over the destination (nothing to
 *  rename for a device, FIFO, socket or standard output). On failure the
 *  temporary is removed. Errors: RELIC_E_IO. */
relic_status relic_out_commit(relic_out *o, relic_error *err);
/** Remove the temporary; the destination is untouched (a device, FIFO or
 *  standard output keeps what was already written to it). */
void relic_out_abort(relic_out *o);

/** Write data to path atomically: a temporary file in the same directory,
 *  fsync'd, then renamed over path (a symbolic link's final target; a
 *  device, FIFO, socket, "-" or standard output is written directly, see
 *  relic_out). Refuses
 *  (RELIC_E_ARGUMENT) when path names the same file as `input` (compared by
 *  device and inode; input may be NULL). Errors: RELIC_E_IO. On failure the
 *  temporary is removed and path is untouched. */
relic_status relic_write_file_atomic(const char *path, const void *data, size_t size,
                                     const char *input, relic_error *err);

/* ---------------------------------------------------------------------- */
/* Container member names                                                 */
/* ---------------------------------------------------------------------- */

/** Why the member name name[0..n) (ERF/RIM resref, GROFF section name, TPA
 *  identifier; no terminator needed) is unsafe, or NULL when it is fine.
 *  Always refused: a control byte (below 0x20, or 0x7F), a path separator
 *  ('/' or '\\'), or a name that is "." or "..". With strict, also what the
 *  games accept but no tool should write: an empty name, bytes outside
 *  printable ASCII, a character a Windows file name cannot hold (:*?"<>|),
 *  ".." inside the name, a leading or trailing space or a trailing dot.
 *  *at receives the index of the offending byte. The reason is a static
 *  string. Source: BioWare, *Aurora engine specifications* (as archived by
 *  xoreos-docs), "Key/BIF" (ResRefs). */
const char *relic_member_name_problem(const char *name, size_t n, int strict, size_t *at);

/* ---------------------------------------------------------------------- */
/* Format detection                                                       */
/* ---------------------------------------------------------------------- */

/** Magic bytes: `size` bytes equal to `bytes` at byte `offset` of a file. */
typedef struct relic_magic {
    uint32_t offset;
    uint32_t size;
    const char *bytes;
} relic_magic;

/** A format relic detects. Each format's descriptor (relic_format_bwm, ...)
 *  is generated from the `detect` line of its schema into its generated
 *  source, with RELIC_FORMAT_<NAME> (&relic_format_<name>) in its header;
 *  relic_formats[] lists them (generated/registry/formats.c). So relic.h
 *  lists no format, and adding one adds a schema only. */
typedef struct relic_format_info {
    const char *name;              /**< short lower-case name: "bwm" */
    const char *doc;               /**< one line: what files hold */
    const char *const *extensions; /**< lower case, no dot, NULL-terminated */
    const relic_magic *magic;      /**< all must match; NULL with magic_count 0 */
    size_t magic_count;
    /** Hand-written test of the first bytes (NULL: the magic decides). */
    int (*detect)(const uint8_t *data, size_t size);
} relic_format_info;

/** A detected format: its descriptor, or RELIC_FORMAT_UNKNOWN (NULL). */
typedef const relic_format_info *relic_format;
#define RELIC_FORMAT_UNKNOWN ((relic_format)0)

/** The formats of this build in the order relic_detect tries them,
 *  NULL-terminated (a FORMATS= subset build holds only its own). */
extern const relic_format_info *const relic_formats[];

/* Inputs relic reads or writes besides the game formats (runtime/formats/detect.c). */
extern const relic_format_info relic_format_json; /**< relic's JSON form of a binary format */
extern const relic_format_info relic_format_obj;  /**< Wavefront OBJ text mesh */
extern const relic_format_info relic_format_svg;  /**< SVG picture (output only) */
extern const relic_format_info relic_format_wav;  /**< RIFF WAVE sound (input to CAU, output of CAU/TPA) */
#define RELIC_FORMAT_JSON (&relic_format_json)
#define RELIC_FORMAT_OBJ (&relic_format_obj)
#define RELIC_FORMAT_SVG (&relic_format_svg)
#define RELIC_FORMAT_WAV (&relic_format_wav)

/** 1 when data (size bytes) carries the magic of f (or passes its test). */
int relic_format_match(relic_format f, const uint8_t *data, size_t size);

/** Detect by magic first (when data is non-NULL: relic_formats[] in order,
 *  then WAV and JSON), then by the extension of name (case-insensitive; name
 *  may be NULL). RELIC_FORMAT_UNKNOWN when nothing matches. */
relic_format relic_detect(const uint8_t *data, size_t size, const char *name);

/** Short lower-case name of a format ("bwm", "json", ...); "unknown" for
 *  RELIC_FORMAT_UNKNOWN. */
const char *relic_format_name(relic_format f);

/** The extension of path without the dot, lower-cased into buf (size n);
 *  "" when there is none. Returns buf. */
const char *relic_path_extension(const char *path, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_H */
