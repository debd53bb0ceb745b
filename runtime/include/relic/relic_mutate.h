/* relic_mutate.h — structure-aware mutation of files of any schema format
 * (issue 8; the survey of prior art listed in docs/references.md on structure-aware fuzzing). relic-gen
 * describes each format's model as tables (generated/<family>/<f>_mutate.c,
 * gen/emit_mutate.c); runtime/mutate/mutate.c walks a decoded model through them,
 * changes one field, array or sub-structure, and writes the result with the
 * generated writer, so counts, offsets and sizes are recomputed. In the
 * invalid mode a value is taken outside its documented range or enum, or a
 * derived or constant field of the written bytes is left stale, and only
 * outputs the validator rejects are returned. Deterministic for a seed. */
#ifndef RELIC_MUTATE_H
#define RELIC_MUTATE_H

#include "relic.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What one model field holds (relic_mut_field.kind). */
enum relic_mut_kind {
    RELIC_MUT_INT = 1, /**< integer (size 1, 2, 4 or 8 bytes in the model) */
    RELIC_MUT_FLOAT,   /**< float (4) or double (8) */
    RELIC_MUT_CHAR,    /**< char text, one byte per element */
    RELIC_MUT_BYTES,   /**< opaque bytes */
    RELIC_MUT_STRUCT   /**< a nested struct (stype) */
};

/** relic_mut_field.flags */
enum relic_mut_flag {
    RELIC_MUTF_DERIVED = 1u << 0,       /**< count()/offset()/size(): the writer recomputes it */
    RELIC_MUTF_CONST = 1u << 1,         /**< constant: the writer writes the declared value */
    RELIC_MUTF_RANGE = 1u << 2,         /**< lo..hi is the documented inclusive range */
    RELIC_MUTF_ENUM = 1u << 3,          /**< values[] are the enum's items */
    RELIC_MUTF_FLAGS = 1u << 4,         /**< values[] are the flags' bits */
    RELIC_MUTF_CLOSED = 1u << 5,        /**< the enum or flags is closed: other values are invalid */
    RELIC_MUTF_VAR = 1u << 6,           /**< variable array: pointer at offset, size_t count at count_offset */
    RELIC_MUTF_RESIZE = 1u << 7,        /**< the array may grow and shrink (with its group) */
    RELIC_MUTF_COUNT_FIELD = 1u << 8,   /**< count_field names the integer to set to the new count */
    RELIC_MUTF_COUNT_IN_ROOT = 1u << 9, /**< count_field is an offset in the root model, not the local struct */
    RELIC_MUTF_SIGNED = 1u << 10,       /**< signed integer */
    RELIC_MUTF_CHECK = 1u << 11,        /**< a check expression constrains the value */
    RELIC_MUTF_ENCODED = 1u << 12       /**< codec or hook bytes: changing them usually breaks the format */
};

/** One field of a model struct. */
typedef struct relic_mut_field {
    const char *name;      /**< schema name, for paths */
    uint16_t kind;         /**< enum relic_mut_kind */
    uint16_t flags;        /**< enum relic_mut_flag */
    uint16_t size;         /**< model bytes of one scalar element (0 for structs) */
    int16_t stype;         /**< struct index (RELIC_MUT_STRUCT), else -1 */
    int16_t group;         /**< variable arrays resized together share the index of the first */
    uint32_t fixed;        /**< elements in the fixed dimensions (char[N]: N), 1 when none */
    size_t offset;         /**< offsetof the field (the pointer, for VAR) in its model struct */
    size_t count_offset;   /**< offsetof <name>_count (VAR) */
    size_t elem_size;      /**< model bytes of one element (sizeof the struct, or of the scalar) */
    const int64_t *values; /**< enum item values or flags bits, NULL when none */
    uint32_t nvalues;
    int64_t lo, hi;     /**< RANGE bounds */
    size_t count_field; /**< COUNT_FIELD: offset of the integer holding this array's count */
    uint16_t count_field_size;
    uint16_t count_field_signed;
} relic_mut_field;

/** One model struct. */
typedef struct relic_mut_struct {
    const char *name;
    size_t size; /**< sizeof the model struct */
    const relic_mut_field *fields;
    uint32_t nfields;
} relic_mut_struct;

/** A field at a constant position of every written file (in the root's fixed
 *  prefix), for the invalid mode's stale-field patches. */
typedef struct relic_mut_patch {
    const char *path; /**< header.vertex_count */
    uint32_t offset;  /**< byte offset in the written file */
    uint16_t size;    /**< bytes */
    uint8_t big;      /**< 1 when big-endian */
    uint8_t what;     /**< RELIC_MUT_PATCH_DERIVED or RELIC_MUT_PATCH_CONST */
} relic_mut_patch;
enum { RELIC_MUT_PATCH_DERIVED = 1,
       RELIC_MUT_PATCH_CONST = 2 };

/** A format as the mutator sees it (generated: relic_<f>_mutator). */
typedef struct relic_mut_format {
    const char *name;
    const relic_mut_struct *structs;
    uint32_t nstructs;
    uint32_t root; /**< index of the root struct */
    const relic_mut_patch *patches;
    uint32_t npatches;
    /** Validate and decode data into a model allocated from a (any
     *  scratch the check needs comes from a too). */
    relic_status (*load)(const uint8_t *data, size_t size, relic_arena *a, void **model, relic_error *err);
    /** The generated writer; a hand-written one takes its scratch from
     *  scratch (the mutator's arena; out may grow in it as well). */
    relic_status (*write)(const void *model, relic_buf *out, relic_arena *scratch, relic_error *err);
    /** The generated validator; a hand-written check that needs memory
     *  takes it from scratch, which relic_mutate rewinds afterwards. */
    relic_status (*validate)(const uint8_t *data, size_t size, relic_arena *scratch, relic_error *err);
} relic_mut_format;

/** One change: field path, operation, value before and after (text). */
typedef struct relic_mutation {
    char path[160]; /**< faces[3].v[2], or the array for array operations */
    char op[16];    /**< set, grow, shrink, swap, splice, stale ... */
    char old_value[96];
    char new_value[96];
} relic_mutation;

#define RELIC_MUTATE_MAX_LOG 8

/** What relic_mutate did. */
typedef struct relic_mutate_result {
    relic_mutation log[RELIC_MUTATE_MAX_LOG];
    int nlog;
    unsigned attempts; /**< mutation attempts made (each from the original input) */
} relic_mutate_result;

/** splitmix64, the mutators' pseudo-random generator: advances *state and
 *  returns the next 64 well-mixed bits. The whole state is one word, so a
 *  mutation is reproduced from its seed alone. */
static inline uint64_t relic_mutate_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/** relic_mutate flags */
enum {
    RELIC_MUTATE_INVALID = 1u << 0,   /**< out-of-range values and stale fields; the output must fail validation */
    RELIC_MUTATE_UNCHECKED = 1u << 1, /**< return the first written mutant without validating it (fuzzing) */
    RELIC_MUTATE_CROSSOVER = 1u << 2  /**< only splice from the second input */
};

/** Mutate the file in[0..n) of format f: decode it, apply 1-3 changes picked
 *  by a PRNG seeded with seed, write with the generated writer into out
 *  (cleared first). Default mode: the output validates and differs from
 *  the input. RELIC_MUTATE_INVALID: the output is rejected by the validator.
 *  in2 (may be NULL) is a second file of the format to splice structs from.
 *  Tries up to 64 mutations, each from the original input.
 *  Memory: every byte the mutator needs (the decoded models, the changed
 *  arrays, the hand-written formats' scratch) comes from scratch, which is
 *  rewound between tries, so a buffer arena is reused try after try (a heap
 *  arena may keep a block per try until the caller releases it); what it
 *  held is garbage afterwards. out is the caller's (an arena or fixed
 *  buffer keeps the call heap-free; it must not grow in scratch). About 16
 *  times n + n2 is ample for the generated formats; see docs/fuzzing.md
 *  ("Memory") for the hand-written ones. Errors: RELIC_E_ARGUMENT (NULL
 *  f, in, out or scratch); the validator's error when in does not
 *  validate; RELIC_E_LIMIT when no try gave a suitable output;
 *  RELIC_E_NOMEM as soon as scratch runs out (in any try: the call does
 *  not fall back to smaller mutants, so its result does not depend on the
 *  arena's size; a writer's RELIC_E_NOMEM with out->failed set is out's
 *  limit instead, and that try is dropped). res (may be NULL) gets the
 *  log. */
relic_status relic_mutate(const relic_mut_format *f, const uint8_t *in, size_t n, const uint8_t *in2, size_t n2,
                          uint64_t seed, unsigned flags, relic_arena *scratch, relic_buf *out, relic_mutate_result *res,
                          relic_error *err);

/** The byte-level cross-over the fuzz targets fall back to when an input
 *  does not parse: a prefix of a (length chosen by seed) followed by a
 *  suffix of b, at most max bytes, written to out. Returns the length.
 *  Deterministic for a seed. */
size_t relic_mutate_splice_bytes(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out, size_t max,
                                 unsigned seed);

#ifdef __cplusplus
}
#endif
#endif
