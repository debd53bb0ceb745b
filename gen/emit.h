/* emit.h — helpers shared by the emitters: C names for schema things,
 * expression code, member walks. */
#ifndef RELIC_GEN_EMIT_H
#define RELIC_GEN_EMIT_H

#include "ast.h"

/* "relic_bwm" for format bwm; UP = "RELIC_BWM". */
const char *em_prefix(const gen_schema *s);
const char *em_upper(const char *s); /* static buffer rotation: copy before the next 8 calls */

/* C type of one element of f in the model (uint32_t, relic_bwm_vec3f ...). */
const char *em_elem_ctype(const gen_schema *s, const gen_field *f);
/* Element size in the file for fixed-size elements, -1 when variable. */
int64_t em_elem_size(const gen_field *f);
/* Number of elements in the fixed dimensions (1 when none). */
int64_t em_fixed_elems(const gen_field *f);
int em_is_scalar(const gen_field *f);
int em_is_int(gen_prim p);
/* Load/store helper names: relic_load_u32le, relic_store_f32be ... */
const char *em_load_fn(const gen_field *f);
const char *em_store_fn(const gen_field *f);
/* Whether validating a struct needs a per-element pass (checks, enums, ...). */
int em_struct_needs_check(const gen_struct *st);
/* A root array marked `deferred` whose elements have checks (they run in
 * P_validate_elements); whether root has one. */
int em_deferred(const gen_field *f);
int em_has_deferred(const gen_struct *root);
/* "case V:" labels for the n values v, packed several to a line; `tail` ends the last. */
void em_case_labels(gen_out *o, const int64_t *v, int n, const char *tail);
int em_field_needs_check(const gen_field *f);

/* Emit a C expression (int64_t) for e. local: how to reach the current
 * struct's model ("m->"); root: how to reach the root model ("c->root->");
 * it: the C expression of `it`. */
void em_expr(gen_out *o, const gen_expr *e, const char *local, const char *root, const char *it);
/* The schema text of e, for messages and docs. */
void em_expr_text(gen_out *o, const gen_expr *e);
/* C string literal (quotes included) for s (may contain any byte). */
void em_cstring(gen_out *o, const char *s, int len);

/* A doc comment (doc, then "Source: source.") at indent; nothing when both are NULL. */
void em_doc_comment(gen_out *o, const char *indent, const char *doc, const char *source);

/* An enum or flags type: its C enum and name-function declarations (header),
 * and the name functions (source). */
void em_enum_decl(gen_schema *s, gen_out *o, const gen_enum *e);
void em_enum_source(gen_schema *s, gen_out *o, const gen_enum *e);

/* Structs in an order where each comes after the structs it embeds. */
int em_struct_order(gen_schema *s, gen_struct **out);

/* Structs in an order where each comes after every struct its members name
 * (callees first); needs_proto[i] is 1 for out[i] when a cycle requires a
 * declaration ahead of the definitions. */
int em_callee_order(gen_schema *s, gen_struct **out, int *needs_proto);

/* Members flattened (fields inside if/switch included), in order. */
int em_fields(const gen_struct *st, gen_field **out, int max);

/* Emit member m when it is an if/else or a switch: the condition over
 * local/root (as em_expr), each branch's members through body(ctx, ...),
 * and for a switch without `default` the statement no_case (NULL: break;).
 * Returns 0, emitting nothing, for other members. */
typedef void (*em_body_fn)(void *ctx, const gen_member *m, int n);
int em_branch(gen_out *o, const gen_member *m, const char *local, const char *root, em_body_fn body, void *ctx,
              const char *no_case);

/* A fixed-size struct of little-endian numbers (no constants, derived or
 * placed fields), so its C layout may equal its file layout. */
int em_struct_plain(const gen_struct *st);
/* A plain struct whose natural C layout is its file layout: arrays of it are
 * copied with memcpy on a little-endian host (emit_reader.c asserts it). */
int em_struct_memcpy(const gen_struct *st);
/* Whether st is root or reached from it through member types (a codec
 * target is not: the model holds its encoded bytes). */
int em_reachable(const gen_struct *root, const gen_struct *st);
/* Whether the format's JSON can be printed from its validated view (emit_json.c). */
int em_json_view_printable(const gen_struct *root);
/* Whether the format also gets relic_<f>_json_print_view_open (emit_json.c). */
int em_json_view_open(const gen_schema *s);

/* python/relic/_gen/<family>_<format>.py: enums, dtypes and member lists for
 * the Python package (gen/emit_python.c); and the package index of them. */
void emit_python(gen_schema *s, gen_out *o);
void emit_python_index(gen_schema **ss, int n, gen_out *o);

/* Every name emit_python() gives a Python user of s, each with what it
 * holds, for `relic-gen --report`: name(ctx, "Kind.BOX", "= 1"),
 * name(ctx, "item.weight", "'<f4'"), name(ctx, "item_dtype['weight']",
 * "'<f4' at offset 4"), ... in module order; a name a struct holds in more
 * than one branch comes once per branch. */
typedef void (*py_name_fn)(void *ctx, const char *name, const char *what);
void emit_python_names(gen_schema *s, py_name_fn name, void *ctx);

#endif
