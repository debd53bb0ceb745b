/* fmt_erf.c — the `relic` command for BioWare containers: ERF V1.0/V1.1
 * (.erf .mod .hak .sav .nwm) and RIM V1.0 (.rim). info, check (the
 * container, then every member that is a GFF, validated in place; --strict
 * adds what real files keep: ResID = index, no name twice), the JSON
 * listing (header, localized strings, entries, printed by librelic-json's
 * relic_erf_archive_json; the manifest `relic extract` writes and `relic
 * pack` reads, runtime/cli/cmd_container.c) and re-writing
 * in the container's own layout. Sources: xoreos, src/aurora/erffile.cpp; neverwinter.nim, erf.nim. */
#include <stdlib.h>
#include <string.h>

#include "erf_cli.h"
#include "relic_gen.h"
#include "relic_json.h"


int cli_erf_open(const cli_input *in, relic_arena *a, relic_erf_archive *ar)
{
    relic_error err;
    if (relic_erf_open(in->map.bytes.data, in->map.bytes.size, a, ar, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &err);
        return 1;
    }
    return 0;
}

typedef struct name_key {
    char name[RELIC_ERF_RESREF_MAX + 1];
    uint32_t type, index;
} name_key;

static int by_name(const void *x, const void *y)
{
    const name_key *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    if (c) return c;
    if (a->type != b->type) return a->type < b->type ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

int cli_erf_duplicate(const relic_erf_archive *ar, relic_arena *a, uint32_t *first, uint32_t *second)
{
    name_key *k = relic_arena_array(a, ar->count ? ar->count : 1, sizeof *k, 8);
    if (!k) return 0;
    for (uint32_t i = 0; i < ar->count; i++) {
        size_t j = 0;
        for (const char *s = ar->entries[i].resref; *s; s++) k[i].name[j++] = (char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s);
        k[i].name[j] = 0;
        k[i].type = ar->entries[i].res_type;
        k[i].index = i;
    }
    qsort(k, ar->count, sizeof *k, by_name);
    for (uint32_t i = 1; i < ar->count; i++)
        if (!strcmp(k[i].name, k[i - 1].name) && k[i].type == k[i - 1].type) {
            *first = k[i - 1].index;
            *second = k[i].index;
            return 1;
        }
    return 0;
}

/* 1 when the member's bytes start like a GFF ("XXX V3.2"). */
static int member_is_gff(const relic_erf_entry *e)
{
    return e->size >= RELIC_GFF_HEADER_SIZE &&
        memcmp(e->data + RELIC_GFF_HEADER_FILE_VERSION_POS, RELIC_GFF_HEADER_FILE_VERSION_VALUE, 4) == 0;
}

/* Which writer layout reproduces the container. */
static const char *layout_of(const cli_input *in, const relic_erf_archive *ar)
{
    relic_buf b;
    relic_error err;
    relic_buf_init(&b, 0);
    int same = cli_erf_write(ar, RELIC_ERF_LAYOUT_PACKED, &b, NULL, &err) == RELIC_OK &&
        b.size == in->map.bytes.size && memcmp(b.data, in->map.bytes.data, b.size) == 0;
    relic_buf_free(&b);
    return same ? "packed (tables, then data back to back in entry order)" : "its own (kept as is when re-written)";
}

static int erf_info(const cli_input *in)
{
    relic_arena a;
    relic_erf_archive ar;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (cli_erf_open(in, &a, &ar)) {
        relic_arena_release(&a);
        return 1;
    }
    uint64_t data = 0;
    unsigned gff = 0;
    for (uint32_t i = 0; i < ar.count; i++) {
        data += ar.entries[i].size;
        gff += member_is_gff(&ar.entries[i]);
    }
    if (ar.kind == RELIC_ERF_KIND_RIM) {
        printf("%s: BioWare RIM V1.0 (KotOR resource ids)\n", in->path);
    } else {
        const relic_erf_header *h = &ar.erf.header;
        printf("%s: BioWare ERF, type \"%.4s\", %s (%s resource ids)\n", in->path, h->file_type,
               h->file_version == RELIC_ERF_VERSION_V1_1 ? "V1.1" : "V1.0",
               relic_erf_game_of(&ar) == RELIC_ERF_GAME_NWN2 ? "NWN2" : "NWN1/KotOR");
        printf("  built %u, day %u; description StrRef 0x%08x; %zu localized strings\n", (unsigned)h->build_year + 1900,
               (unsigned)h->build_day, (unsigned)h->description_str_ref, ar.erf.localized_strings_count);
        for (size_t i = 0; i < ar.erf.localized_strings_count; i++)
            if (ar.erf.localized_strings[i].text_count)
                printf("  description [%u]: %.*s\n", (unsigned)ar.erf.localized_strings[i].language_id,
                       (int)ar.erf.localized_strings[i].text_count, (const char *)ar.erf.localized_strings[i].text);
    }
    printf("  %u resources (%u GFF), %llu bytes of data\n", (unsigned)ar.count, gff, (unsigned long long)data);
    printf("  layout: %s\n", layout_of(in, &ar));
    relic_arena_release(&a);
    return 0;
}

const char *cli_erf_shown_name(const relic_erf_archive *ar, uint32_t i, char *out, size_t size)
{
    char raw[RELIC_ERF_RESREF_MAX + 16];
    relic_erf_entry_name(ar, i, raw, sizeof raw);
    return cli_escape(out, size, raw, strlen(raw));
}

/* File offset of key (ERF) or entry (RIM) i: where a problem with it is reported. */
static uint64_t key_offset(const relic_erf_archive *ar, uint32_t i)
{
    if (ar->kind == RELIC_ERF_KIND_RIM) return ar->rim.header.offset_to_entries + (uint64_t)RELIC_RIM_ENTRY_SIZE * i;
    return ar->erf.header.offset_to_key_list + (ar->erf.header.file_version == RELIC_ERF_VERSION_V1_1 ? 40ull : 24ull) * i;
}

/* The container's own rules, and each GFF member through relic_erf_open_gff
 * when members is set (`relic check -r` checks the members itself). */
static unsigned erf_check_members(const cli_input *in, int strict, int members)
{
    relic_arena a;
    relic_erf_archive ar;
    relic_error err;
    unsigned problems = 0;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (cli_erf_open(in, &a, &ar)) {
        relic_arena_release(&a);
        return 1;
    }
    for (uint32_t i = 0; i < ar.count; i++) {
        const relic_erf_entry *e = &ar.entries[i];
        if (members && member_is_gff(e)) {
            relic_gff_doc d;
            relic_arena s;
            relic_arena_init_heap(&s, CLI_ARENA_LIMIT);
            if (relic_erf_open_gff(&ar, i, &s, &d, &err) != RELIC_OK) {
                cli_report(cli_problem_stream(), in->path, &err);
                problems++;
            }
            relic_arena_release(&s);
        }
        size_t bad;
        const char *why = relic_member_name_problem(e->resref, strlen(e->resref), strict, &bad);
        if (why) {
            /* the resref is the key's (ERF) or entry's (RIM) first field */
            int rim = ar.kind == RELIC_ERF_KIND_RIM;
            uint64_t key = key_offset(&ar, i);
            char shown[4 * RELIC_ERF_RESREF_MAX + 1];
            char field[48];
            snprintf(field, sizeof field, "%s[%u].resref", rim ? "entries" : "keys", (unsigned)i);
            cli_problemf(in->path, key + bad, field, "'%s': %s", cli_escape(shown, sizeof shown, e->resref, strlen(e->resref)), why);
            problems++;
        }
        if (strict && e->res_id != i) {
            /* xoreos, src/aurora/erffile.cpp; neverwinter.nim, erf.nim: ResID = the key's index in real files */
            char field[48];
            snprintf(field, sizeof field, "%s[%u].res_id", ar.kind == RELIC_ERF_KIND_RIM ? "entries" : "keys", (unsigned)i);
            cli_problemf(in->path, key_offset(&ar, i), field, "%u, not the entry's index (real files number them in order)",
                         (unsigned)e->res_id);
            problems++;
        }
    }
    uint32_t d1, d2;
    char name[CLI_ERF_SHOWN_MAX];
    if (strict && cli_erf_duplicate(&ar, &a, &d1, &d2)) {
        char field[48];
        snprintf(field, sizeof field, "%s[%u]", ar.kind == RELIC_ERF_KIND_RIM ? "entries" : "keys", (unsigned)d2);
        cli_problemf(in->path, key_offset(&ar, d2), field, "'%s' is also entry %u (the game loads one of them)",
                     cli_erf_shown_name(&ar, d2, name, sizeof name), (unsigned)d1);
        problems++;
    }
    relic_arena_release(&a);
    return problems;
}

static unsigned erf_check(const cli_input *in, int strict) { return erf_check_members(in, strict, 1); }

unsigned cli_erf_check_tables(const cli_input *in, int strict) { return erf_check_members(in, strict, 0); }

void cli_erf_entry_json(const relic_erf_archive *ar, uint32_t i, relic_buf *o) { relic_erf_archive_json_entry(ar, i, o); }

int cli_erf_json(const relic_erf_archive *ar, relic_buf *o) { return relic_erf_archive_json(ar, o); }

static int erf_to_json(const cli_input *in, relic_buf *out)
{
    relic_arena a;
    relic_erf_archive ar;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    int rc = cli_erf_open(in, &a, &ar) ? 1 : cli_erf_json(&ar, out);
    relic_arena_release(&a);
    return rc;
}

/* The JSON listing holds no member bytes: a container is built by pack. */
static int erf_from_json(const cli_input *in, const char *out_path)
{
    (void)out_path;
    cli_errorf(in->path, 0, "a container's JSON lists its members, not their bytes; put it in the members' "
                            "directory as " CLI_ERF_MANIFEST " and run relic pack DIR OUT (relic extract writes both)");
    return 1;
}

/* Re-write a container (same kind) in its own layout. */
static int erf_rewrite(const cli_input *in, const char *out_path)
{
    char ext[16];
    relic_path_extension(out_path, ext, sizeof ext);
    relic_arena a;
    relic_erf_archive ar;
    relic_buf b;
    relic_error err;
    int rc = 1;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    relic_buf_init(&b, 0);
    if (cli_erf_open(in, &a, &ar) == 0) {
        if ((ar.kind == RELIC_ERF_KIND_RIM) != (strcmp(ext, "rim") == 0))
            cli_errorf(in->path, 0, "cannot convert between RIM and ERF by rewriting; use relic extract and relic pack");
        else if (cli_erf_write(&ar, RELIC_ERF_LAYOUT_KEEP, &b, NULL, &err) != RELIC_OK)
            cli_error(out_path, &err);
        else
            rc = cli_write(out_path, b.data, b.size, in->path);
    }
    relic_buf_free(&b);
    relic_arena_release(&a);
    return rc;
}

const cli_hooks cli_erf_hooks = {
    erf_info,
    erf_check,
    erf_to_json,
    erf_from_json,
    erf_rewrite,
    NULL,
    NULL,
    "  x.mod|x.erf|x.hak|x.sav|x.nwm|x.rim -> y.json  the header and entry list (relic extract/pack move the data)\n"
    "  x.mod -> y.mod                                 re-written, the container's own layout kept\n",
    NULL, /* json_max_output: no bound */
};
