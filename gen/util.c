/* util.c — the generator's small shared helpers: memory that lives for the
 * whole run, error reporting as `file:line:col: message`, output buffers,
 * primitive type tables. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

static int n_errors;

void *gen_alloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        fprintf(stderr, "relic-gen: out of memory\n");
        exit(3);
    }
    return p;
}

char *gen_strndup(const char *s, size_t n)
{
    char *p = gen_alloc(n + 1);
    memcpy(p, s, n);
    return p;
}

void gen_error(gen_loc loc, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%d:%d: ", loc.file ? loc.file : "?", loc.line, loc.col);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    n_errors++;
}

int gen_error_count(void) { return n_errors; }

static void out_reserve(gen_out *o, size_t n)
{
    if (o->size + n + 1 <= o->cap) return;
    size_t cap = o->cap ? o->cap : 4096;
    while (cap < o->size + n + 1) cap *= 2;
    o->data = realloc(o->data, cap);
    if (!o->data) {
        fprintf(stderr, "relic-gen: out of memory\n");
        exit(3);
    }
    o->cap = cap;
}

void out_puts(gen_out *o, const char *s)
{
    size_t n = strlen(s);
    out_reserve(o, n);
    memcpy(o->data + o->size, s, n + 1);
    o->size += n;
}

void out_printf(gen_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    out_reserve(o, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(o->data + o->size, (size_t)n + 1, fmt, ap);
    va_end(ap);
    o->size += (size_t)n;
}

static const struct {
    const char *name, *ctype;
    int size, is_signed, is_float;
} prims[] = {
    [P_NONE] = {"?", "void", 0, 0, 0},
    [P_U8] = {"u8", "uint8_t", 1, 0, 0},
    [P_U16] = {"u16", "uint16_t", 2, 0, 0},
    [P_U32] = {"u32", "uint32_t", 4, 0, 0},
    [P_U64] = {"u64", "uint64_t", 8, 0, 0},
    [P_I8] = {"i8", "int8_t", 1, 1, 0},
    [P_I16] = {"i16", "int16_t", 2, 1, 0},
    [P_I32] = {"i32", "int32_t", 4, 1, 0},
    [P_I64] = {"i64", "int64_t", 8, 1, 0},
    [P_F32] = {"f32", "float", 4, 1, 1},
    [P_F64] = {"f64", "double", 8, 1, 1},
    [P_CHAR] = {"char", "char", 1, 0, 0},
    [P_BYTES] = {"bytes", "uint8_t", 1, 0, 0},
};

const char *gen_prim_name(gen_prim p) { return prims[p].name; }
int gen_prim_size(gen_prim p) { return prims[p].size; }
int gen_prim_is_signed(gen_prim p) { return prims[p].is_signed; }
int gen_prim_is_float(gen_prim p) { return prims[p].is_float; }
const char *gen_prim_ctype(gen_prim p) { return prims[p].ctype; }

gen_struct *gen_find_struct(gen_schema *s, const char *name)
{
    for (int i = 0; i < s->nstructs; i++)
        if (strcmp(s->structs[i]->name, name) == 0) return s->structs[i];
    return NULL;
}

gen_enum *gen_find_enum(gen_schema *s, const char *name)
{
    for (int i = 0; i < s->nenums; i++)
        if (strcmp(s->enums[i]->name, name) == 0) return s->enums[i];
    return NULL;
}
