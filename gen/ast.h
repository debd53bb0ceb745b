/* ast.h — the schema language's syntax tree, shared by the parser, the
 * semantic checks and every emitter (gen/SCHEMA.md is the language
 * reference). Nodes live in one arena for the whole run; nothing is freed
 * until the generator exits. */
#ifndef RELIC_GEN_AST_H
#define RELIC_GEN_AST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Where a node came from, for `file:line:col: message` errors. */
typedef struct gen_loc {
    const char *file;
    int line, col;
} gen_loc;

/* ---- expressions ---- */
typedef enum gen_expr_kind {
    EX_INT,    /* integer literal: ival */
    EX_NAME,   /* dotted path: path[0].path[1]...; resolved by sema */
    EX_IT,     /* `it`: the value under a field check (each element of an array) */
    EX_UNARY,  /* op a */
    EX_BINARY, /* a op b */
    EX_CALL    /* count(x) offset(x) size(x): derived-field functions over a member */
} gen_expr_kind;

typedef enum gen_op {
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV,
    OP_MOD,
    OP_SHL,
    OP_SHR,
    OP_BAND,
    OP_BOR,
    OP_BXOR,
    OP_EQ,
    OP_NE,
    OP_LT,
    OP_LE,
    OP_GT,
    OP_GE,
    OP_LAND,
    OP_LOR,
    OP_NEG,
    OP_NOT,
    OP_BNOT
} gen_op;

typedef enum gen_func { FN_COUNT,
                        FN_OFFSET,
                        FN_SIZE } gen_func;

struct gen_field;
struct gen_struct;

typedef struct gen_expr {
    gen_expr_kind kind;
    gen_loc loc;
    int64_t ival;        /* EX_INT */
    const char *path[8]; /* EX_NAME / EX_CALL argument */
    int npath;
    gen_op op; /* EX_UNARY / EX_BINARY */
    struct gen_expr *a, *b;
    gen_func func; /* EX_CALL */
    /* resolved by sema for EX_NAME / EX_CALL: */
    struct gen_field *ref;  /* the field named (last path element) */
    int root_scope;         /* 1 when resolved in the root struct, 0 when local */
    struct gen_field *head; /* the field named by path[0] */
} gen_expr;

/* ---- types ---- */
typedef enum gen_prim {
    P_NONE = 0,
    P_U8,
    P_U16,
    P_U32,
    P_U64,
    P_I8,
    P_I16,
    P_I32,
    P_I64,
    P_F32,
    P_F64,
    P_CHAR, /* char[N]: fixed string of N bytes */
    P_BYTES /* bytes[n]: opaque region (may carry a codec or hook) */
} gen_prim;

typedef enum gen_endian { EN_DEFAULT = 0,
                          EN_LITTLE,
                          EN_BIG } gen_endian;

typedef struct gen_enum_item {
    const char *name;
    int64_t value;
    const char *doc;
    gen_loc loc;
} gen_enum_item;

typedef struct gen_enum {
    const char *name;
    gen_loc loc;
    gen_prim base;
    int is_flags;
    int open; /* enum values outside the list are allowed */
    const char *doc;
    const char *source;
    gen_enum_item *items;
    int nitems;
    const char *external; /* typed GFF: declared by the used schema of this name */
} gen_enum;

/* ---- struct members ---- */
typedef enum gen_member_kind { M_FIELD,
                               M_IF,
                               M_SWITCH,
                               M_CHECK } gen_member_kind;

typedef struct gen_member gen_member;

typedef struct gen_case {
    int64_t *values; /* case labels; nvalues == 0 means default */
    int nvalues;
    gen_member *members;
    int nmembers;
    gen_loc loc;
} gen_case;

typedef struct gen_field {
    const char *name;
    gen_loc loc;
    gen_prim prim;            /* P_NONE when struct-typed */
    gen_endian endian;        /* resolved: never EN_DEFAULT after sema */
    const char *type_name;    /* struct type name when prim == P_NONE */
    struct gen_struct *stype; /* resolved struct type */
    int dims[4];              /* fixed dimensions, e.g. u32 v[3], char[8] -> dims {8} */
    int ndims;
    gen_expr *count;       /* variable count `[expr]`; NULL when fixed */
    int count_rest;        /* `[..]`: as many as fit until the end of the enclosing region */
    gen_expr *at;          /* `at expr`: placed at an absolute offset */
    const char *enum_name; /* `: name` enum or flags typing */
    gen_enum *etype;
    gen_expr *init;        /* `= expr`: constant value or derived count()/offset()/size() */
    const char *const_str; /* `= "..."`: constant string (magic) */
    int const_len;
    int has_range; /* `in lo..hi` */
    int64_t range_lo, range_hi;
    int range_games;  /* typed GFF: `in lo..hi for GAMES` (GEN_GAME_* bits; 0 = every game) */
    int enum_games;   /* typed GFF: `: enum for GAMES` */
    int alt_gff_type; /* typed GFF: `also TYPE for GAMES`: a type those games also write; -1 none */
    int alt_games;
    gen_expr *check;   /* `check (expr)` over `it` */
    const char *codec; /* `codec NAME(decoded_size) as STRUCT` */
    gen_expr *codec_size;
    const char *codec_as;
    struct gen_struct *codec_stype;
    const char *hook; /* `hook NAME`: hand-written validator of the bytes */
    int deferred;     /* `deferred`: element checks in P_validate_elements, not the layout pass */
    const char *doc;
    const char *source;
    /* typed GFF schemas (format with `gff`): the field's GFF label and type */
    const char *label; /* as in the file (the C name is `name`) */
    int gff_type;      /* GFF_T_*; GFF_T_ANY when the type varies */
    /* resolved by sema: */
    int is_derived;       /* init is count()/offset()/size() */
    int used_in_layout;   /* named by some count/at/size expression */
    int64_t fixed_offset; /* offset in the enclosing struct, -1 when not constant */
    int order;            /* position among the struct's fields (if/switch bodies flattened) */
    struct gen_struct *owner;
} gen_field;

struct gen_member {
    gen_member_kind kind;
    gen_loc loc;
    gen_field *field;            /* M_FIELD */
    gen_expr *cond;              /* M_IF condition / M_SWITCH tag / M_CHECK expression */
    gen_member *then_m, *else_m; /* M_IF bodies */
    int nthen, nelse;
    gen_case *cases; /* M_SWITCH */
    int ncases;
    const char *doc; /* M_CHECK message */
};

/* Games of a typed GFF rule (`for nwn1 nwn2 kotor1 kotor2`; kotor = both). */
enum { GEN_GAME_NWN1 = 1,
       GEN_GAME_NWN2 = 2,
       GEN_GAME_KOTOR1 = 4,
       GEN_GAME_KOTOR2 = 8 };

typedef struct gen_struct {
    const char *name;
    gen_loc loc;
    const char *doc;
    const char *source;
    int64_t doc_size; /* `size N`; -1 when not documented */
    int tuple;        /* printed as a JSON array */
    int has_id;       /* typed GFF: `id N` or `id any` */
    int id_any;
    int64_t gff_id; /* the documented StructID */
    int nids;       /* typed GFF: `id N for GAMES` clauses (then gff_id is the first) */
    int64_t ids[8];
    int id_games[8];      /* GEN_GAME_* bits of each */
    const char *external; /* typed GFF: declared by the used schema of this name */
    gen_member *members;
    int nmembers;
    /* resolved by sema: */
    int64_t fixed_size; /* sequential byte size; -1 when variable */
    int is_root;
    int used;         /* reachable from the root */
    int uses_root;    /* some expression in it resolves a name in the root */
    gen_loc root_loc; /* where, for the codec-region error */
} gen_struct;

typedef struct gen_format {
    const char *name;
    gen_loc loc;
    const char *doc;
    const char *source;
    const char *extensions[64];
    int nextensions;
    gen_endian endian;
    const char *root_name;
    gen_struct *root;
    /* typed GFF schemas: `gff "ARE ";` (gff_common: `gff;`), `use NAME;`, `pairs NAME;` */
    int is_gff;
    const char *gff_type; /* the 4-character FileType; NULL for a common schema */
    const char *uses[8];
    int nuses;
    const char *pairs;
    /* `detect;` (magic: the root's constant fields at fixed offsets),
     * `detect FIELD...;` (only those constant fields) or `detect hook NAME;`
     * (a hand-written int NAME(const uint8_t *, size_t)): the format goes in
     * relic_formats[], the detection table (emit_detect.c) */
    int detect;
    const char *detect_hook;
    const char *detect_fields[8];
    int ndetect_fields;
    /* `layout NAME;`: a hand-written relic_status NAME(root *m, relic_arena *a,
     * relic_error *err) that fills what the writer cannot derive; the
     * format's relic_<f>_ops runs it before writing */
    const char *layout_hook;
} gen_format;

/* GFF field types as numbered by the format (xoreos, src/aurora/gff3file.h; neverwinter.nim, gff.nim), and `any`. */
enum {
    GFF_T_BYTE,
    GFF_T_CHAR,
    GFF_T_WORD,
    GFF_T_SHORT,
    GFF_T_DWORD,
    GFF_T_INT,
    GFF_T_DWORD64,
    GFF_T_INT64,
    GFF_T_FLOAT,
    GFF_T_DOUBLE,
    GFF_T_CEXOSTRING,
    GFF_T_RESREF,
    GFF_T_CEXOLOCSTRING,
    GFF_T_VOID,
    GFF_T_STRUCT,
    GFF_T_LIST,
    GFF_T_ORIENTATION,
    GFF_T_VECTOR,
    GFF_T_ANY
};
/* nwn_gff's name of a GFF type ("dword"), "any" for GFF_T_ANY; and back (-1 when unknown). */
const char *gen_gff_type_name(int t);
int gen_gff_type_of(const char *name);

typedef struct gen_schema {
    const char *file;   /* path as given */
    const char *family; /* directory name under schema/: "kotor" */
    gen_format format;
    int has_format;
    gen_struct **structs;
    int nstructs;
    gen_enum **enums;
    int nenums;
} gen_schema;

/* ---- helpers (gen/util.c) ---- */
void *gen_alloc(size_t n);
char *gen_strndup(const char *s, size_t n);
/* Report `file:line:col: message` on stderr and count the error. */
void gen_error(gen_loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int gen_error_count(void);

const char *gen_prim_name(gen_prim p);
int gen_prim_size(gen_prim p); /* bytes; 1 for char/bytes elements */
int gen_prim_is_signed(gen_prim p);
int gen_prim_is_float(gen_prim p);
const char *gen_prim_ctype(gen_prim p); /* uint32_t, float, char, uint8_t ... */

gen_struct *gen_find_struct(gen_schema *s, const char *name);
gen_enum *gen_find_enum(gen_schema *s, const char *name);
gen_field *gen_find_field(gen_struct *st, const char *name); /* searches if/switch bodies too */

/* Parse one schema file; returns NULL after reporting errors. */
gen_schema *gen_parse_file(const char *path);
/* Semantic checks and resolution; returns the number of errors. */
int gen_check(gen_schema *s);
/* Duplicate struct/enum names and enum items (part of gen_check). */
void gen_check_decls(gen_schema *s);
/* The same for a typed GFF schema (gen/sema_gff.c); gen_check calls it. */
int gen_check_gff(gen_schema *s);

/* Emitters: each writes one artifact into `out`. */
typedef struct gen_out {
    char *data;
    size_t size, cap;
} gen_out;
void out_printf(gen_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_puts(gen_out *o, const char *s);

/* Rewrite o's C identifiers of structs named as (or after) the format: relic_bwm_bwm -> relic_bwm_file (emit_common.c). */
void em_c_names(const gen_schema *s, gen_out *o);
void emit_header(gen_schema *s, gen_out *o);                   /* generated/<family>/<fmt>.h: types, views, validator, decls */
void emit_source(gen_schema *s, gen_out *o);                   /* generated/<family>/<fmt>.c: enum tables, then the three below */
void emit_reader(gen_schema *s, gen_out *o);                   /* validator and decoder */
void emit_writer(gen_schema *s, gen_out *o);                   /* writer */
void emit_codec_decoders(gen_schema *s, gen_out *o);           /* decoders of codec regions (emit_reader.c) */
void emit_json(gen_schema *s, gen_out *o);                     /* generated/<family>/<fmt>_json.c: printer and reader */
void emit_json_ops(gen_schema *s, gen_out *o);                 /* its end: relic_<fmt>_schema_ops, for the CLI and ABI */
void emit_docs(gen_schema *s, gen_out *o);                     /* generated/docs/<fmt>.md */
void emit_fuzz(gen_schema *s, gen_out *o);                     /* fuzz/gen_<fmt>.c: libFuzzer target */
void emit_mutate(gen_schema *s, gen_out *o);                   /* generated/<family>/<fmt>_mutate.c: mutator tables (emit_mutate.c) */
void emit_mutate_header(gen_schema *s, gen_out *o);            /* in <fmt>.h: the relic_<fmt>_mutator declaration */
void emit_fuzz_dict(gen_schema *s, gen_out *o);                /* fuzz/dict/gen_<fmt>.dict: libFuzzer dictionary */
void emit_detect_decl(gen_schema *s, gen_out *o);              /* in <fmt>.h: relic_format_<fmt> (emit_detect.c) */
void emit_detect_source(gen_schema *s, gen_out *o);            /* in <fmt>.c: its magic and descriptor */
void emit_detect_registry(gen_schema **ss, int n, gen_out *o); /* generated/registry/formats.c */
/* Typed GFF schemas (gen/emit_gff.c): tables + typed accessors, and the reference. */
void emit_gff_header(gen_schema *s, gen_out *o); /* generated/<family>/<fmt>.h */
void emit_gff_source(gen_schema *s, gen_out *o); /* generated/<family>/<fmt>.c */
void emit_gff_docs(gen_schema *s, gen_out *o);   /* generated/docs/<fmt>.md */
/* What changes from schema o to n for users of the bindings (gen/report.c);
 * returns the number of changes listed. */
int gen_report(gen_schema *o, gen_schema *n, gen_out *out);

#endif
