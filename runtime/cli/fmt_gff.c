/* fmt_gff.c — the `relic` command for BioWare GFF V3.2 files (ARE, GIT,
 * GIC, IFO, UTC, DLG, BIC, ... detected by the "XXX V3.2" magic): info,
 * check (runtime/formats/aurora/gff_validate.c; duplicate labels are warnings, problems
 * with --strict), nwn_gff JSON both ways (runtime/json/gff_json_print.c and
 * gff_json.c; text encoding from --encoding, default auto: UTF-8 for NWN2's
 * UTF-8 text, else cp1252) and re-writing (runtime/formats/aurora/gff_write.c, the file's own layout kept).
 * Sources: xoreos, src/aurora/gff3file.cpp; neverwinter.nim, gff.nim. */
#include <string.h>

#include "formats.h"
#include "gff_cli.h"
#include "gff_json_flat.h"
#include "key_cli.h"
#include "relic_gff.h"

typedef struct warn_ctx {
    const char *path;
    unsigned count;
    int print;
} warn_ctx;

static void on_warn(void *vctx, const relic_error *err)
{
    warn_ctx *c = vctx;
    c->count++;
    if (c->print) {
        relic_error w = *err;
        char msg[RELIC_ERROR_MESSAGE_MAX];
        snprintf(msg, sizeof msg, "warning: %.180s", err->message);
        memcpy(w.message, msg, sizeof w.message);
        cli_report(cli_problem_stream(), c->path, &w);
    }
}

/* Validate into d (scratch from a); prints the error. */
static int open_doc(const cli_input *in, relic_arena *a, relic_gff_doc *d, warn_ctx *w)
{
    relic_error err;
    if (relic_gff_open(in->map.bytes.data, in->map.bytes.size, a, w ? on_warn : NULL, w, d, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &err);
        return 1;
    }
    return 0;
}

static int load_tree(const cli_input *in, relic_arena *a, relic_gff_tree *t)
{
    relic_gff_doc d;
    relic_error err;
    if (open_doc(in, a, &d, NULL)) return 1;
    if (relic_gff_tree_from_doc(&d, a, t, &err) != RELIC_OK) {
        cli_error(in->path, &err);
        return 1;
    }
    return 0;
}

/* Serialise, check that the output validates, write atomically. */
static int write_tree(const relic_gff_tree *t, relic_gff_layout layout, const char *out_path, const char *in_path)
{
    relic_buf out;
    relic_error err;
    relic_arena a;
    cli_huge_arena mem; /* the writer's scratch and the output: fresh MBs */
    relic_gff_doc check;
    int rc;
    cli_huge_arena_init(&mem, &a);
    relic_buf_init_arena(&out, &a, 0);
    if (relic_gff_write_tree(t, layout, &a, &out, NULL, &err) != RELIC_OK) {
        cli_error(out_path, &err);
        rc = 1;
    } else if (relic_gff_open(out.data, out.size, &a, NULL, NULL, &check, &err) != RELIC_OK) {
        cli_error_in(out_path, "internal error: the written GFF does not validate", &err);
        rc = 1;
    } else {
        rc = cli_write(out_path, out.data, out.size, in_path);
    }
    relic_buf_free(&out);
    cli_huge_arena_release(&mem, &a);
    return rc;
}

/* Which family's layout reproduces the file, or "other". */
static const char *layout_of(const cli_input *in, const relic_gff_tree *t, char *buf, size_t cap)
{
    for (size_t i = 0; i < relic_gff_family_count; i++) {
        relic_buf b;
        relic_error err;
        relic_arena a;
        int same;
        relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
        relic_buf_init(&b, 0);
        same = relic_gff_write_tree(t, relic_gff_families[i].layout, &a, &b, NULL, &err) == RELIC_OK &&
            b.size == in->map.bytes.size && memcmp(b.data, in->map.bytes.data, b.size) == 0;
        relic_buf_free(&b);
        relic_arena_release(&a);
        if (same) {
            snprintf(buf, cap, "%s (%s)", relic_gff_families[i].name, relic_gff_families[i].writers);
            return buf;
        }
    }
    /* the family with the file's own record order (what the JSON's "__layout" object carries) */
    relic_arena a;
    relic_gff_doc d;
    relic_gff_order o;
    relic_gff_tree ordered = *t;
    relic_buf b;
    relic_error err;
    int same = 0;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    relic_buf_init(&b, 0);
    if (relic_gff_open(in->map.bytes.data, in->map.bytes.size, &a, NULL, NULL, &d, &err) == RELIC_OK &&
        relic_gff_order_of(&d, t->family, &a, &o, &err) == RELIC_OK && relic_gff_order_used(&o)) {
        ordered.order = &o;
        same = relic_gff_write_tree(&ordered, t->family, &a, &b, NULL, &err) == RELIC_OK &&
            b.size == in->map.bytes.size && memcmp(b.data, in->map.bytes.data, b.size) == 0;
    }
    if (same) {
        size_t k = (size_t)snprintf(buf, cap, "%s, records in the file's own order (", relic_gff_family_of(t->family)->name);
        for (int i = 0, n = 0; i < RELIC_GFF_ORDER_KINDS && k < cap; i++)
            if (o.nruns[i]) k += (size_t)snprintf(buf + k, cap - k, "%s%s", n++ ? ", " : "", relic_gff_order_names[i]);
        if (k < cap) snprintf(buf + k, cap - k, "; the JSON's \"__layout\" records it)");
    } else {
        snprintf(buf, cap, "other, closest family %s (kept as is when re-written)", relic_gff_family_of(t->family)->name);
    }
    relic_buf_free(&b);
    relic_arena_release(&a);
    return buf;
}

static int gff_info(const cli_input *in)
{
    relic_arena a;
    relic_gff_doc d;
    relic_gff_tree t;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    warn_ctx w = {in->path, 0, 0};
    if (open_doc(in, &a, &d, &w) || load_tree(in, &a, &t)) {
        relic_arena_release(&a);
        return 1;
    }
    printf("%s: BioWare GFF V3.2, type \"%.4s\"\n", in->path, relic_gff_file_type(&d));
    printf("  %u structs (%u reachable, nesting depth %u), %u fields, %zu labels\n", (unsigned)d.struct_count,
           (unsigned)d.reachable, (unsigned)d.max_depth, (unsigned)d.field_count, d.v.labels_count);
    printf("  field data %zu bytes, field indices %zu bytes, list indices %zu bytes\n", d.v.field_data_count,
           d.v.field_indices_count * 4, d.v.list_indices_count * 4);
    unsigned per_type[18] = {0};
    for (uint32_t f = 0; f < d.field_count; f++) per_type[relic_gff_field_type_of(&d, f)]++;
    printf("  field types:");
    for (uint32_t ty = 0; ty < 18; ty++)
        if (per_type[ty]) printf(" %s=%u", relic_gff_type_name(ty), per_type[ty]);
    printf("\n  top-level fields: %u", (unsigned)relic_gff_doc_struct_field_count(&d, 0));
    if (w.count) printf(" (%u duplicate labels)", w.count);
    char lbuf[256];
    printf("\n  layout: %s\n", layout_of(in, &t, lbuf, sizeof lbuf));
    relic_arena_release(&a);
    return 0;
}

static unsigned gff_check(const cli_input *in, int strict)
{
    relic_arena a;
    relic_gff_doc d;
    warn_ctx w = {in->path, 0, 1};
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    int bad = open_doc(in, &a, &d, &w);
    if (!bad && strict) {
        /* the typed file's documented types, ranges and pairs: warnings */
        relic_problems pr = {on_warn, &w, 0, 0};
        cli_gff_strict(in->path, &d, &pr);
    }
    relic_arena_release(&a);
    return bad ? 1 : strict ? w.count
                            : 0;
}

/* --encoding (cp1252, utf8, auto; auto when absent); -1 when unknown. */
static int text_encoding(relic_gff_encoding *enc)
{
    const char *name = cli_convert_option("--encoding");
    *enc = RELIC_GFF_ENC_AUTO;
    if (name && !relic_gff_encoding_from_name(name, enc)) {
        fprintf(stderr, "relic: unknown --encoding '%s' (cp1252, utf8 or auto)\n", name);
        return -1;
    }
    return 0;
}

static int gff_to_json(const cli_input *in, relic_buf *out)
{
    relic_arena a;
    cli_huge_arena mem; /* the struct graph's bits and the printer's scratch */
    relic_gff_doc d;
    relic_gff_encoding enc;
    relic_error err;
    int rc = 0;
    if (text_encoding(&enc)) return 1;
    cli_huge_arena_init(&mem, &a);
    if (open_doc(in, &a, &d, NULL)) rc = 1;
    else if ((cli_tlk_current ? relic_gff_json_print_doc_strrefs_in(&d, enc, cli_tlk_strref_text, (void *)cli_tlk_current, out, &a, &err)
                              : relic_gff_json_print_doc_in(&d, enc, out, &a, &err)) != RELIC_OK) { /* --tlk: fmt_tlk.c */
        if (!cli_json_write_failed(out)) cli_error(in->path, &err);
        rc = 1;
    }
    cli_huge_arena_release(&mem, &a);
    return rc;
}

static int gff_from_json(const cli_input *in, const char *out_path)
{
    relic_arena a;
    relic_gff_tree t;
    relic_gff_encoding enc;
    relic_error err;
    cli_huge_arena mem; /* the records and output, or the tree: fresh MBs */
    int rc;
    if (text_encoding(&enc)) return 1;
    cli_huge_arena_init(&mem, &a);
    relic_buf out;
    relic_buf_init_arena(&out, &a, 0);
    if (relic_gff_json_to_gff_flat((const char *)in->map.bytes.data, in->map.bytes.size, enc, &a, &out)) {
        /* the common shape, straight to bytes (relic_gff_json_to_gff's fast path); checked as write_tree does */
        relic_gff_doc check;
        if (relic_gff_open(out.data, out.size, &a, NULL, NULL, &check, &err) != RELIC_OK) {
            cli_error_in(out_path, "internal error: the written GFF does not validate", &err);
            rc = 1;
        } else {
            rc = cli_write(out_path, out.data, out.size, in->path);
        }
    } else if (relic_gff_json_read_tree((const char *)in->map.bytes.data, in->map.bytes.size, enc, &a, &t,
                                        &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &err);
        rc = 1;
    } else {
        rc = write_tree(&t, t.family, out_path, in->path); /* the "__layout" family, bioware when absent */
    }
    cli_huge_arena_release(&mem, &a);
    return rc;
}

/* Re-written through the tree, the file's own layout kept. */
static int gff_rewrite(const cli_input *in, const char *out_path)
{
    relic_arena a;
    relic_gff_tree t;
    int rc;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    rc = load_tree(in, &a, &t) ? 1 : write_tree(&t, RELIC_GFF_LAYOUT_KEEP, out_path, in->path);
    relic_arena_release(&a);
    return rc;
}

/* The most bytes of JSON a GFF prints by default: 32 times the file plus
 * 16 MiB. A GFF holds no compressed data, so its JSON is a few times its
 * size (3.2 at most on the corpus), except where many fields point at one
 * value, each printing it again: a 352 KB file of 1000 fields at one
 * 40000-substring locstring prints 658 MB. The bound keeps a dump of a file
 * under 1 MB under 1 s of CPU (docs/security.md). */
static uint64_t gff_json_max_output(size_t file_bytes)
{
    return (uint64_t)file_bytes * 32 + ((uint64_t)16 << 20);
}

const cli_hooks cli_gff_hooks = {
    gff_info,
    gff_check,
    gff_to_json,
    gff_from_json,
    gff_rewrite,
    NULL,
    NULL,
    "  x.are|x.git|x.utc|... (any GFF) -> y.json      nwn_gff-compatible JSON (--encoding cp1252|utf8|auto:\n"
    "                                                   game text as UTF-8; auto = UTF-8 if NWN2's, else cp1252;\n"
    "                                                   --max-output N: at most N bytes, default 32 x the GFF\n"
    "                                                   + 16 MiB, 0 none)\n"
    "  x.json -> y.are|y.git|y.utc|...                a GFF in the game's layout (byte for byte for\n"
    "                                                   game-written files)\n"
    "  x.gff -> y.gff                                 re-written, the file's own layout kept\n",
    gff_json_max_output,
};
