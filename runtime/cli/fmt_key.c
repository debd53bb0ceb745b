/* fmt_key.c — the `relic` command for BioWare KEY V1 (chitin.key) and BIF
 * V1 (data\*.bif): info, check (the KEY's tables, then each BIF found beside
 * it as the game finds it, then every resource through its own format), ls
 * (every key with its BIF), extract (by name, type or glob), and the
 * lookup `relic get --install` uses. JSON both ways and re-writing a KEY are
 * the schema's (schema_io.c); a BIF's JSON lists its table, not its data.
 * Sources: BioWare, "Key and BIF File Formats"; xoreos, src/aurora/keyfile.cpp,
 * biffile.cpp (names relative to the game directory, '\' as separator,
 * case-insensitive); neverwinter.nim, key.nim. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "erf_cli.h"
#include "key_cli.h"
#include "relic_gen.h"

/* a + sep + b into out (n bytes); 1 when it did not fit. */
static int join(char *out, size_t n, const char *a, char sep, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la + 1 + lb + 1 > n) return 1;
    memcpy(out, a, la);
    out[la] = sep;
    memcpy(out + la + 1, b, lb + 1);
    return 0;
}

int cli_find_nocase(const char *dir, const char *rel, char *out, size_t n)
{
    char cur[4096], part[256];
    snprintf(cur, sizeof cur, "%s", dir && *dir ? dir : ".");
    while (*rel == '/') rel++;
    while (*rel) {
        const char *slash = strchr(rel, '/');
        size_t len = slash ? (size_t)(slash - rel) : strlen(rel);
        if (len == 0 || len >= sizeof part) return 1;
        memcpy(part, rel, len);
        part[len] = 0;
        rel += len + (slash ? 1 : 0);
        char next[4096];
        struct stat st;
        if (join(next, sizeof next, cur, '/', part)) return 1;
        if (stat(next, &st) != 0) { /* not as spelled: the first entry equal without regard to case */
            DIR *d = opendir(cur);
            struct dirent *e;
            int found = 0;
            if (!d) return 1;
            while (!found && (e = readdir(d)) != NULL)
                if (strcasecmp(e->d_name, part) == 0) found = !join(next, sizeof next, cur, '/', e->d_name);
            closedir(d);
            if (!found) return 1;
        }
        snprintf(cur, sizeof cur, "%s", next);
    }
    snprintf(out, n, "%s", cur);
    return 0;
}

/* ---------------------------------------------------------------------- */
/* A KEY with its BIFs                                                    */
/* ---------------------------------------------------------------------- */

typedef struct bif_slot {
    int state; /* 0 not tried, 1 open, -1 missing, -2 invalid */
    cli_input in;
    relic_bif_file bif;
    char path[4096]; /* where it was found */
} bif_slot;

typedef struct key_set {
    const cli_input *in;
    relic_arena a;
    relic_key_file key;
    bif_slot *bifs;
    char dir[4096];
} key_set;

/* Open in's KEY; its error printed, or with quiet only left in *err. */
static int key_set_open_err(key_set *s, const cli_input *in, relic_error *err, int quiet)
{
    memset(s, 0, sizeof *s);
    s->in = in;
    relic_arena_init_heap(&s->a, CLI_ARENA_LIMIT);
    if (relic_key_open(in->map.bytes.data, in->map.bytes.size, &s->a, &s->key, err) != RELIC_OK) {
        if (!quiet) cli_report(cli_problem_stream(), in->path, err);
        relic_arena_release(&s->a);
        return 1;
    }
    s->bifs = relic_arena_array(&s->a, s->key.files_count ? s->key.files_count : 1, sizeof *s->bifs, 8);
    if (!s->bifs) {
        relic_arena_release(&s->a);
        relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory for the KEY's BIF list");
        if (!quiet) cli_report(cli_problem_stream(), in->path, err);
        return 1;
    }
    /* BIF names are relative to the game directory, which holds the KEY */
    snprintf(s->dir, sizeof s->dir, "%s", in->path);
    char *slash = strrchr(s->dir, '/');
    if (slash) *slash = 0;
    else snprintf(s->dir, sizeof s->dir, ".");
    return 0;
}

static int key_set_open(key_set *s, const cli_input *in)
{
    relic_error err;
    return key_set_open_err(s, in, &err, 0);
}

static void key_set_close(key_set *s)
{
    for (size_t i = 0; i < s->key.files_count; i++)
        if (s->bifs[i].state == 1 || s->bifs[i].state == -2) cli_unload(&s->bifs[i].in);
    relic_arena_release(&s->a);
}

/* BIF i, opened on first use (tables only: resources are checked one by
 * one). quiet: no message when it is missing. */
static bif_slot *key_set_bif(key_set *s, uint32_t i, int quiet)
{
    bif_slot *b = &s->bifs[i];
    char rel[1024];
    relic_error err;
    if (b->state) return b;
    relic_key_bif_path(&s->key, i, rel, sizeof rel);
    if (cli_find_nocase(s->dir, rel, b->path, sizeof b->path)) {
        b->state = -1;
        if (join(b->path, sizeof b->path, s->dir, '/', rel)) snprintf(b->path, sizeof b->path, "%s", rel);
        if (!quiet) cli_errorf(s->in->path, 0, "files[%u]: BIF '%s' not found beside the KEY", (unsigned)i, b->path);
        return b;
    }
    if (cli_load(b->path, &b->in)) {
        b->state = -1;
        return b;
    }
    if (relic_bif_open_tables(b->in.map.bytes.data, b->in.map.bytes.size, &s->a, &b->bif, &err) != RELIC_OK) {
        cli_report(quiet ? stderr : stdout, b->path, &err); /* quiet: a listing owns standard output */
        b->state = -2;
        return b;
    }
    b->state = 1;
    return b;
}

/* Key k's bytes in its BIF, or an error (printed when loud). */
static int key_set_member(key_set *s, uint32_t k, const uint8_t **data, uint32_t *size, int loud)
{
    uint32_t id = s->key.keys[k].res_id;
    bif_slot *b = key_set_bif(s, RELIC_KEY_BIF_INDEX(id), !loud);
    relic_error err;
    if (b->state != 1) return 1;
    if (relic_bif_resource(&b->bif, b->in.map.bytes.data, b->in.map.bytes.size, RELIC_KEY_RES_INDEX(id), data, size,
                           &err) != RELIC_OK) {
        if (loud) cli_report(cli_problem_stream(), b->path, &err);
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* info, check                                                            */
/* ---------------------------------------------------------------------- */

static int key_info(const cli_input *in)
{
    key_set s;
    char rel[1024];
    if (key_set_open(&s, in)) return 1;
    const relic_key_header *h = &s.key.header;
    printf("%s: BioWare KEY V1, built %u, day %u; %u BIFs, %u keys\n", in->path, (unsigned)h->build_year + 1900,
           (unsigned)h->build_day, (unsigned)h->bif_count, (unsigned)h->key_count);
    uint32_t *per = calloc(s.key.files_count + 1, sizeof *per);
    for (uint32_t k = 0; per && k < s.key.keys_count; k++) per[RELIC_KEY_BIF_INDEX(s.key.keys[k].res_id)]++;
    for (uint32_t i = 0; i < s.key.files_count; i++) {
        bif_slot *b = key_set_bif(&s, i, 1);
        printf("  %-28s %6u keys, %10u bytes%s\n", relic_key_bif_path(&s.key, i, rel, sizeof rel), per ? per[i] : 0,
               (unsigned)s.key.files[i].file_size, b->state == 1 ? "" : b->state == -1 ? " (not found)"
                                                                                       : " (invalid)");
    }
    free(per);
    key_set_close(&s);
    return 0;
}

/* A member's bytes through its own format's check; NULL format: not checked. */
static unsigned check_member(const char *shown, const uint8_t *data, size_t size, int strict, unsigned *checked)
{
    cli_input m;
    memset(&m, 0, sizeof m);
    m.path = shown;
    m.map.bytes.data = data;
    m.map.bytes.size = size;
    m.format = relic_detect(data, size, shown);
    /* a KEY or BIF inside a BIF could name the BIF it lies in: not followed */
    if (m.format == RELIC_FORMAT_KEY || m.format == RELIC_FORMAT_BIF) return 0;
    const cli_format *f = cli_format_for(m.format);
    if (!f || !f->hooks->check) return 0;
    (*checked)++;
    return f->hooks->check(&m, strict);
}

/* The KEY's tables and its BIFs' data; with members, each member through its format too. */
static unsigned key_check_with(const cli_input *in, int strict, int members)
{
    key_set s;
    unsigned problems = 0, checked = 0, missing = 0;
    char name[64], shown[4096];
    if (key_set_open(&s, in)) return 1;
    relic_problems pr = {cli_report_problem, (void *)0, 0, 0};
    for (uint32_t i = 0; i < s.key.files_count; i++) {
        bif_slot *b = key_set_bif(&s, i, !strict);
        if (b->state == -1) {
            missing++;
            problems += strict;
            continue;
        }
        if (b->state == -2) {
            problems++;
            continue;
        }
        pr.ctx = b->path;
        relic_arena scratch;
        relic_arena_init_heap(&scratch, CLI_ARENA_LIMIT);
        problems += relic_bif_check_data(&b->bif, b->in.map.bytes.size, &scratch, &pr);
        relic_arena_release(&scratch);
    }
    for (uint32_t k = 0; k < s.key.keys_count; k++) {
        uint32_t id = s.key.keys[k].res_id, bi = RELIC_KEY_BIF_INDEX(id), ri = RELIC_KEY_RES_INDEX(id);
        bif_slot *b = &s.bifs[bi];
        const uint8_t *data;
        uint32_t size;
        char field[48];
        if (b->state != 1) continue;
        snprintf(field, sizeof field, "keys[%u].res_id", (unsigned)k);
        uint64_t at = s.key.header.offset_to_key_table + (uint64_t)RELIC_KEY_ENTRY_SIZE * k;
        if (ri >= b->bif.variable_resources_count) {
            cli_problemf(in->path, at + RELIC_KEY_ENTRY_RES_ID_POS, field, "resource index %u >= %zu resources of %s",
                         (unsigned)ri, b->bif.variable_resources_count, b->path);
            problems++;
            continue;
        }
        if (b->bif.variable_resources[ri].res_type != s.key.keys[k].res_type) {
            /* xoreos trusts the BIF's type and warns */
            snprintf(field, sizeof field, "keys[%u].res_type", (unsigned)k);
            cli_problemf(in->path, at + RELIC_KEY_ENTRY_RES_TYPE_POS, field, "type %u, but the BIF says %u",
                         (unsigned)s.key.keys[k].res_type, (unsigned)b->bif.variable_resources[ri].res_type);
            problems++;
        }
        if (!members || key_set_member(&s, k, &data, &size, 0)) continue; /* reported by the BIF's data check */
        relic_key_entry_name(&s.key, k, name, sizeof name);
        if (join(shown, sizeof shown, b->path, ':', name)) continue;
        problems += check_member(shown, data, size, strict, &checked);
    }
    if (missing) fprintf(stderr, "%s: %u of %zu BIFs not found beside the KEY (their members not checked)\n", in->path,
                         missing, s.key.files_count);
    if (members) fprintf(stderr, "%s: %u members checked through their formats\n", in->path, checked);
    key_set_close(&s);
    return problems;
}

static unsigned key_check(const cli_input *in, int strict) { return key_check_with(in, strict, 1); }

unsigned cli_key_check_tables(const cli_input *in, int strict) { return key_check_with(in, strict, 0); }

/* ---------------------------------------------------------------------- */
/* The KEY as a container of relic check -r (walk.c)                      */
/* ---------------------------------------------------------------------- */

typedef struct key_walk {
    cli_input in;   /* the KEY's bytes as the walker holds them */
    key_set s;      /* its BIFs, mapped on first use, until the process ends */
    uint32_t *keys; /* the keys whose data are in a BIF found beside the KEY */
    uint32_t count;
} key_walk;

int cli_key_walk_open(const char *name, const uint8_t *data, size_t size, relic_arena *a, const void **handle,
                      relic_error *err)
{
    key_walk *w = relic_arena_alloc(a, sizeof *w, _Alignof(key_walk));
    if (!w) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory for the KEY's tables"), 1;
    memset(&w->in, 0, sizeof w->in);
    w->in.path = name;
    w->in.map.bytes.data = data;
    w->in.map.bytes.size = size;
    w->in.format = RELIC_FORMAT_KEY;
    if (key_set_open_err(&w->s, &w->in, err, 1)) return 1;
    w->keys = relic_arena_array(a, w->s.key.keys_count ? w->s.key.keys_count : 1, sizeof *w->keys, 4);
    if (!w->keys) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "out of memory for the KEY's keys"), 1;
    /* members of missing or broken BIFs are left out: the KEY's own check reports them */
    w->count = 0;
    for (uint32_t k = 0; k < w->s.key.keys_count; k++) {
        const uint8_t *d;
        uint32_t n;
        if (!key_set_member(&w->s, k, &d, &n, 0)) w->keys[w->count++] = k;
    }
    *handle = w;
    return 0;
}

uint32_t cli_key_walk_count(const void *handle) { return ((const key_walk *)handle)->count; }

void cli_key_walk_member(const void *handle, uint32_t i, char *name, size_t size, relic_bytes *bytes)
{
    key_walk *w = (key_walk *)handle; /* the BIF slots were opened by cli_key_walk_open */
    const uint8_t *d = NULL;
    uint32_t n = 0;
    relic_key_entry_name(&w->s.key, w->keys[i], name, size);
    if (key_set_member(&w->s, w->keys[i], &d, &n, 0)) d = NULL, n = 0;
    bytes->data = d;
    bytes->size = n;
}

/* A BIF's tables from in, in a fresh heap arena a (released on failure, the
 * error printed); 0 when read. */
static int bif_open(const cli_input *in, relic_arena *a, relic_bif_file *b)
{
    relic_error err;
    relic_arena_init_heap(a, CLI_ARENA_LIMIT);
    if (relic_bif_open_tables(in->map.bytes.data, in->map.bytes.size, a, b, &err) == RELIC_OK) return 0;
    cli_report(cli_problem_stream(), in->path, &err);
    relic_arena_release(a);
    return 1;
}

static int bif_info(const cli_input *in)
{
    relic_arena a;
    relic_bif_file b;
    if (bif_open(in, &a, &b)) return 1;
    uint64_t data = 0;
    unsigned past = 0;
    for (size_t i = 0; i < b.variable_resources_count; i++) {
        data += b.variable_resources[i].file_size;
        past += (uint64_t)b.variable_resources[i].offset + b.variable_resources[i].file_size > in->map.bytes.size;
    }
    printf("%s: BioWare BIF V1, %zu resources, %llu bytes of data\n", in->path, b.variable_resources_count,
           (unsigned long long)data);
    if (past) printf("  %u resources pass the end of the file (%zu bytes): see relic check\n", past, in->map.bytes.size);
    relic_arena_release(&a);
    return 0;
}

static unsigned bif_check(const cli_input *in, int strict)
{
    relic_arena a;
    relic_bif_file b;
    relic_error err;
    unsigned problems, checked = 0;
    char name[64], shown[4096];
    if (bif_open(in, &a, &b)) return 1;
    relic_problems pr = {cli_report_problem, (void *)in->path, 0, 0};
    problems = relic_bif_check_data(&b, in->map.bytes.size, &a, &pr);
    for (uint32_t i = 0; i < b.variable_resources_count; i++) {
        const uint8_t *data;
        uint32_t size;
        if (relic_bif_resource(&b, in->map.bytes.data, in->map.bytes.size, i, &data, &size, &err) != RELIC_OK) continue;
        const char *ext = relic_erf_type_extension(b.variable_resources[i].res_type, RELIC_ERF_GAME_KOTOR);
        if (ext) snprintf(name, sizeof name, "%u.%s", (unsigned)i, ext);
        else snprintf(name, sizeof name, "%u.%u", (unsigned)i, (unsigned)b.variable_resources[i].res_type);
        if (join(shown, sizeof shown, in->path, ':', name)) continue;
        problems += check_member(shown, data, size, strict, &checked);
    }
    relic_arena_release(&a);
    return problems;
}

/* A BIF's JSON is its table (the schema's form); its data need the BIF. */
static int bif_from_json(const cli_input *in, const char *out_path)
{
    (void)out_path;
    cli_errorf(in->path, 0, "a BIF's JSON lists its resources, not their bytes: it cannot be turned back into a BIF");
    return 1;
}

/* Re-write a BIF: its table by the generated writer (offsets kept), its
 * data copied to where the table places them. */
static int bif_rewrite(const cli_input *in, const char *out_path)
{
    relic_arena a;
    relic_bif_file b;
    relic_error err;
    relic_buf o;
    int rc = 1;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    relic_buf_init(&o, 0);
    if (relic_bif_open(in->map.bytes.data, in->map.bytes.size, &a, &b, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &err);
    } else if (relic_bif_write(&b, &o, &err) != RELIC_OK) {
        cli_error(out_path, &err);
    } else {
        uint64_t end = o.size;
        for (size_t i = 0; i < b.variable_resources_count; i++) {
            uint64_t e = (uint64_t)b.variable_resources[i].offset + b.variable_resources[i].file_size;
            if (e > end) end = e;
        }
        size_t had = o.size;
        uint8_t *p = relic_buf_extend(&o, (size_t)(end - had));
        if (p) {
            memset(p, 0, (size_t)(end - had));
            for (size_t i = 0; i < b.variable_resources_count; i++)
                memcpy(o.data + b.variable_resources[i].offset, in->map.bytes.data + b.variable_resources[i].offset,
                       b.variable_resources[i].file_size);
            rc = cli_write(out_path, o.data, o.size, in->path);
        } else {
            cli_errorf(out_path, 0, "out of memory");
        }
    }
    relic_buf_free(&o);
    relic_arena_release(&a);
    return rc;
}

const cli_hooks cli_key_hooks = {
    key_info,
    key_check,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    "  x.key -> y.json|y.key                            JSON (header, BIF list, keys), re-written KEY\n"
    "  x.json -> y.key                                  the KEY again, byte for byte\n",
    NULL, /* json_max_output: no bound */
};

const cli_hooks cli_bif_hooks = {
    bif_info,
    bif_check,
    NULL,
    bif_from_json,
    bif_rewrite,
    NULL,
    NULL,
    "  x.bif -> y.json|y.bif                            the resource table as JSON, re-written BIF\n",
    NULL, /* json_max_output: no bound */
};

/* ---------------------------------------------------------------------- */
/* ls                                                                     */
/* ---------------------------------------------------------------------- */

int cli_key_ls(const cli_input *in)
{
    key_set s;
    char name[64], shown[256], rel[1024];
    if (key_set_open(&s, in)) return 1;
    printf("%-23s %5s %-24s %7s %10s\n", "name", "type", "bif", "index", "size");
    for (uint32_t k = 0; k < s.key.keys_count; k++) {
        uint32_t id = s.key.keys[k].res_id;
        const uint8_t *data;
        uint32_t size;
        relic_key_entry_name(&s.key, k, name, sizeof name);
        relic_key_bif_path(&s.key, RELIC_KEY_BIF_INDEX(id), rel, sizeof rel);
        printf("%-23s %5u %-24s %7u ", cli_escape(shown, sizeof shown, name, strlen(name)),
               (unsigned)s.key.keys[k].res_type, rel, (unsigned)RELIC_KEY_RES_INDEX(id));
        if (key_set_member(&s, k, &data, &size, 0) == 0) printf("%10u\n", (unsigned)size);
        else printf("%10s\n", "-");
    }
    key_set_close(&s);
    return 0;
}

/* `ls --json` of a KEY: the BIF list and every key (docs/cli.md keys). */
int cli_key_ls_json(const cli_input *in, relic_buf *o)
{
    key_set s;
    char name[64], rel[1024];
    if (key_set_open(&s, in)) return 1;
    relic_buf_puts(o, "{\"file\": ");
    cli_json_text(o, in->path, strlen(in->path));
    relic_buf_puts(o, ", \"format\": \"key\", \"bifs\": [");
    for (uint32_t i = 0; i < s.key.files_count; i++) {
        relic_key_bif_path(&s.key, i, rel, sizeof rel);
        relic_buf_puts(o, i ? ", {\"index\": " : "{\"index\": ");
        relic_json_u64(o, i);
        relic_buf_puts(o, ", \"name\": ");
        cli_json_text(o, rel, strlen(rel));
        relic_buf_puts(o, key_set_bif(&s, i, 1)->state == 1 ? ", \"found\": true}" : ", \"found\": false}");
    }
    relic_buf_puts(o, "], \"members\": [");
    for (uint32_t k = 0; k < s.key.keys_count; k++) {
        uint32_t id = s.key.keys[k].res_id, bif = RELIC_KEY_BIF_INDEX(id);
        const uint8_t *data;
        uint32_t size;
        relic_key_entry_name(&s.key, k, name, sizeof name);
        relic_buf_puts(o, k ? ", {\"name\": " : "{\"name\": ");
        cli_json_text(o, name, strlen(name));
        relic_key_resref(&s.key, k, name);
        relic_buf_puts(o, ", \"resref\": ");
        cli_json_text(o, name, strlen(name));
        relic_buf_puts(o, ", \"type\": ");
        relic_json_u64(o, s.key.keys[k].res_type);
        relic_buf_puts(o, ", \"id\": ");
        relic_json_u64(o, id);
        relic_key_bif_path(&s.key, bif, rel, sizeof rel);
        relic_buf_puts(o, ", \"bif\": ");
        cli_json_text(o, rel, strlen(rel));
        relic_buf_puts(o, ", \"bif_index\": ");
        relic_json_u64(o, bif);
        relic_buf_puts(o, ", \"index\": ");
        relic_json_u64(o, RELIC_KEY_RES_INDEX(id));
        relic_buf_puts(o, ", \"size\": ");
        if (key_set_member(&s, k, &data, &size, 0) == 0) relic_json_u64(o, size);
        else relic_buf_puts(o, "null");
        relic_buf_puts(o, "}");
    }
    relic_buf_puts(o, "]}\n");
    key_set_close(&s);
    return 0;
}

/* `ls --json` of a BIF: every resource of its table. */
int cli_bif_ls_json(const cli_input *in, relic_buf *o)
{
    relic_arena a;
    relic_bif_file b;
    if (bif_open(in, &a, &b)) return 1;
    relic_buf_puts(o, "{\"file\": ");
    cli_json_text(o, in->path, strlen(in->path));
    relic_buf_puts(o, ", \"format\": \"bif\", \"members\": [");
    for (size_t i = 0; i < b.variable_resources_count; i++) {
        const relic_bif_variable_resource *r = &b.variable_resources[i];
        relic_buf_puts(o, i ? ", {\"index\": " : "{\"index\": ");
        relic_json_u64(o, i);
        relic_buf_puts(o, ", \"id\": ");
        relic_json_u64(o, r->id);
        relic_buf_puts(o, ", \"type\": ");
        relic_json_u64(o, r->res_type);
        relic_buf_puts(o, ", \"offset\": ");
        relic_json_u64(o, r->offset);
        relic_buf_puts(o, ", \"size\": ");
        relic_json_u64(o, r->file_size);
        relic_buf_puts(o, (uint64_t)r->offset + r->file_size > in->map.bytes.size ? ", \"past_end\": true}" : ", \"past_end\": false}");
    }
    relic_buf_puts(o, "]}\n");
    relic_arena_release(&a);
    return 0;
}

int cli_bif_ls(const cli_input *in)
{
    relic_arena a;
    relic_bif_file b;
    if (bif_open(in, &a, &b)) return 1;
    printf("%7s %-10s %5s %10s %10s\n", "index", "id", "type", "size", "offset");
    for (size_t i = 0; i < b.variable_resources_count; i++) {
        const relic_bif_variable_resource *r = &b.variable_resources[i];
        int past = (uint64_t)r->offset + r->file_size > in->map.bytes.size;
        printf("%7zu 0x%08x %5u %10u %10u%s\n", i, (unsigned)r->id, (unsigned)r->res_type, (unsigned)r->file_size,
               (unsigned)r->offset, past ? "  (past the end of the file)" : "");
    }
    relic_arena_release(&a);
    return 0;
}

/* ---------------------------------------------------------------------- */
/* extract                                                                */
/* ---------------------------------------------------------------------- */

void cli_key_extract_usage(FILE *f)
{
    fprintf(f, "usage: relic extract chitin.key [NAME|TYPE|GLOB...] [-C DIR]\n"
               "Write resources of a KEY's BIFs (found beside the KEY, names matched without regard to\n"
               "case, as the game does) into DIR (default: the current directory) as DIR/resref.ext:\n"
               "all of them, or those named (m10aa.wok), of a type (wok), or matching a glob (m10*.wok).\n");
}

static void lower(char *s)
{
    for (; *s; s++)
        if (*s >= 'A' && *s <= 'Z') *s = (char)(*s + 32);
}

/* Does key k's name match argument arg (a name, a type, or a glob)? */
static int key_matches(const relic_key_file *key, uint32_t k, const char *arg)
{
    char name[64], pat[256];
    uint32_t type;
    relic_key_entry_name(key, k, name, sizeof name);
    lower(name);
    snprintf(pat, sizeof pat, "%s", arg[0] == '.' ? arg + 1 : arg);
    lower(pat);
    if (!strchr(pat, '.') && !strpbrk(pat, "*?[") && relic_erf_type_from_extension(pat, RELIC_ERF_GAME_KOTOR, &type))
        return key->keys[k].res_type == type;
    return fnmatch(pat, name, 0) == 0;
}

int cli_key_extract(const cli_input *in, const cli_extract_args *x)
{
    const char *dir = x->dir ? x->dir : ".";
    key_set s;
    char name[64], path[4096];
    int rc = 0;
    unsigned written = 0, missing = 0;
    if (x->names || x->swp || x->mips) {
        fprintf(stderr, "relic extract: --names, --swp and --mips are not for KEY files\n");
        return EXIT_USAGE;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cli_errorf(dir, 0, "cannot create the directory: %s", strerror(errno));
        return EXIT_INVALID;
    }
    if (key_set_open(&s, in)) return EXIT_INVALID;
    uint8_t *want = relic_arena_alloc(&s.a, s.key.keys_count + 1, 1);
    if (!want) {
        key_set_close(&s);
        return EXIT_INVALID;
    }
    for (int i = 0; i < x->nmembers; i++) {
        unsigned hits = 0;
        for (uint32_t k = 0; k < s.key.keys_count; k++)
            if (key_matches(&s.key, k, x->members[i])) {
                want[k] = 1;
                hits++;
            }
        if (!hits) {
            cli_errorf(in->path, 0, "no key matches '%s' (see relic ls)", x->members[i]);
            rc = 1;
        }
    }
    cli_batch_begin(); /* every member or none */
    for (uint32_t k = 0; !rc && k < s.key.keys_count; k++) {
        const uint8_t *data;
        uint32_t size;
        if (x->nmembers && !want[k]) continue;
        if (key_set_member(&s, k, &data, &size, 1)) {
            if (s.bifs[RELIC_KEY_BIF_INDEX(s.key.keys[k].res_id)].state == -1 && !x->nmembers) {
                missing++;
                continue;
            }
            rc = 1;
            break;
        }
        relic_key_entry_name(&s.key, k, name, sizeof name);
        lower(name);
        for (char *c = name; *c; c++) /* a file name: what the ResRef holds, separators and oddities as '_' */
            if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' || *c == '-' || *c == '.')) *c = '_';
        if (join(path, sizeof path, dir, '/', name)) {
            cli_errorf(dir, 0, "path too long");
            rc = 1;
            break;
        }
        rc = cli_write(path, data, size, in->path);
        written += rc == 0;
    }
    rc = cli_batch_end(!rc);
    if (!rc) printf("%s: %u member%s in %s%s\n", in->path, written, written == 1 ? "" : "s", dir,
                    missing ? " (members of BIFs not found were skipped)" : "");
    key_set_close(&s);
    return rc ? EXIT_INVALID : EXIT_VALID;
}

/* ---------------------------------------------------------------------- */
/* lookup for get --install                                               */
/* ---------------------------------------------------------------------- */

int cli_key_lookup(const char *key_path, const char *name, uint8_t **data, size_t *size)
{
    cli_input in;
    key_set s;
    uint32_t k, n;
    const uint8_t *p;
    int rc = 1;
    if (cli_load(key_path, &in)) return -1;
    if (key_set_open(&s, &in)) {
        cli_unload(&in);
        return -1;
    }
    if (relic_key_find(&s.key, name, &k)) {
        if (key_set_member(&s, k, &p, &n, 1)) {
            rc = -1;
        } else if ((*data = malloc(n ? n : 1)) != NULL) {
            memcpy(*data, p, n);
            *size = n;
            rc = 0;
        } else {
            rc = -1;
        }
    }
    key_set_close(&s);
    cli_unload(&in);
    return rc;
}

/* ---------------------------------------------------------------------- */
/* pack DIR OUT.key                                                       */
/* ---------------------------------------------------------------------- */

typedef struct pack_file {
    char name[256];
    char resref[RELIC_KEY_RESREF_MAX + 1];
    uint32_t type;
    relic_mapping map;
} pack_file;

static int by_resref_type(const void *x, const void *y)
{
    const pack_file *a = x, *b = y;
    int c = strcmp(a->resref, b->resref);
    return c ? c : (a->type > b->type) - (a->type < b->type);
}

int cli_key_pack(const char *dir, const char *out_path)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    pack_file *files = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    char path[4096], base[256], bif_rel[300], bif_path[4096], outdir[4096];
    relic_error err;
    if (!d) {
        cli_errorf(dir, 0, "cannot open the directory: %s", strerror(errno));
        return EXIT_INVALID;
    }
    while (!rc && (de = readdir(d)) != NULL) {
        struct stat st;
        if (de->d_name[0] == '.' || join(path, sizeof path, dir, '/', de->d_name)) continue;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        const char *dot = strrchr(de->d_name, '.');
        size_t stem = dot ? (size_t)(dot - de->d_name) : 0;
        uint32_t type;
        if (!dot || !relic_erf_type_from_extension(dot + 1, RELIC_ERF_GAME_KOTOR, &type) || type > UINT16_MAX) {
            cli_errorf(path, 0, "unknown resource type '%s' (use a known extension or a decimal type id)", dot ? dot + 1 : "");
            rc = 1;
            break;
        }
        if (stem == 0 || stem > RELIC_KEY_RESREF_MAX || strlen(de->d_name) >= sizeof files->name) {
            cli_errorf(path, 0, "a KEY's ResRef has 1 to %d characters", RELIC_KEY_RESREF_MAX);
            rc = 1;
            break;
        }
        if (n == cap) {
            pack_file *m = realloc(files, (cap = cap ? cap * 2 : 64) * sizeof *files);
            if (!m) {
                rc = 1;
                break;
            }
            files = m;
        }
        memset(&files[n], 0, sizeof files[n]);
        memcpy(files[n].name, de->d_name, strlen(de->d_name) + 1);
        for (size_t k = 0; k < stem; k++)
            files[n].resref[k] = (char)(de->d_name[k] >= 'A' && de->d_name[k] <= 'Z' ? de->d_name[k] + 32 : de->d_name[k]);
        files[n].type = type;
        n++;
    }
    closedir(d);
    if (!rc && n) qsort(files, n, sizeof *files, by_resref_type);
    relic_bif_member *bm = calloc(n + 1, sizeof *bm);
    relic_key_member *km = calloc(n + 1, sizeof *km);
    size_t mapped = 0;
    if (!bm || !km) rc = 1;
    for (size_t i = 0; !rc && i < n; i++, mapped++) {
        if (join(path, sizeof path, dir, '/', files[i].name) ||
            relic_map_file(path, CLI_MAX_PIPE_INPUT, &files[i].map, &err) != RELIC_OK) {
            cli_error(path, &err);
            rc = 1;
            break;
        }
        if (files[i].map.bytes.size > UINT32_MAX) {
            cli_errorf(path, 0, "over 4 GiB");
            rc = 1;
            break;
        }
        bm[i].res_type = files[i].type;
        bm[i].data = files[i].map.bytes.data;
        bm[i].size = (uint32_t)files[i].map.bytes.size;
        km[i].resref = files[i].resref;
        km[i].res_type = (uint16_t)files[i].type;
        km[i].bif = 0;
        km[i].index = (uint32_t)i;
    }
    /* one BIF, data/<KEY's name>.bif beside the KEY, as the game's BIFs lie */
    const char *slash = strrchr(out_path, '/');
    snprintf(outdir, sizeof outdir, "%.*s", slash ? (int)(slash - out_path) : 1, slash ? out_path : ".");
    snprintf(base, sizeof base, "%s", slash ? slash + 1 : out_path);
    char *dot = strrchr(base, '.');
    if (dot) *dot = 0;
    snprintf(bif_rel, sizeof bif_rel, "data/%s.bif", base);
    if (!rc && join(path, sizeof path, outdir, '/', "data")) rc = 1;
    if (!rc && mkdir(path, 0777) != 0 && errno != EEXIST) {
        cli_errorf(path, 0, "cannot create the directory: %s", strerror(errno));
        rc = 1;
    }
    if (!rc && join(bif_path, sizeof bif_path, outdir, '/', bif_rel)) rc = 1;
    relic_arena a;
    relic_buf bif, key;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    relic_buf_init(&bif, 0);
    relic_buf_init(&key, 0);
    if (!rc) {
        const char *names[1] = {bif_rel};
        uint32_t sizes[1];
        const char *sde = getenv("SOURCE_DATE_EPOCH");
        time_t t = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
        struct tm tm;
        gmtime_r(&t, &tm);
        if (relic_bif_write_members(bm, (uint32_t)n, 0, &a, &bif, &err) != RELIC_OK) {
            cli_error(bif_path, &err);
            rc = 1;
        }
        sizes[0] = (uint32_t)bif.size;
        if (!rc && relic_key_write_index(names, sizes, 1, km, (uint32_t)n, (uint32_t)tm.tm_year, (uint32_t)tm.tm_yday, &a, &key, &err) != RELIC_OK) {
            cli_error(out_path, &err);
            rc = 1;
        }
    }
    if (!rc) {
        cli_batch_begin(); /* both files or neither */
        rc = cli_write(bif_path, bif.data, bif.size, NULL) || cli_write(out_path, key.data, key.size, NULL);
        rc = cli_batch_end(!rc);
        if (!rc) printf("%s: %zu resources, in %s\n", out_path, n, bif_path);
    }
    for (size_t i = 0; i < mapped; i++) relic_unmap(&files[i].map);
    relic_buf_free(&bif);
    relic_buf_free(&key);
    relic_arena_release(&a);
    free(files);
    free(bm);
    free(km);
    return rc ? EXIT_INVALID : EXIT_VALID;
}

/* ---------------------------------------------------------------------- */
/* lookup in a game install for get --install                             */
/* ---------------------------------------------------------------------- */

static int by_string(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* The first module container (modules/NAME.mod .erf .hak .rim, in name order)
 * holding name. 0 found, 1 not, -1 error. */
static int modules_lookup(const char *dir, const char *name, uint8_t **data, size_t *size, char *where, size_t where_n)
{
    char mdir[4096], path[4096];
    if (cli_find_nocase(dir, "modules", mdir, sizeof mdir)) return 1;
    DIR *d = opendir(mdir);
    struct dirent *de;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 1;
    if (!d) return 1;
    while ((de = readdir(d)) != NULL) {
        char ext[8];
        relic_path_extension(de->d_name, ext, sizeof ext);
        if (strcmp(ext, "mod") && strcmp(ext, "erf") && strcmp(ext, "hak") && strcmp(ext, "rim")) continue;
        if (n == cap) {
            char **m = realloc(names, (cap = cap ? cap * 2 : 16) * sizeof *names);
            if (!m) break;
            names = m;
        }
        if ((names[n] = malloc(strlen(de->d_name) + 1)) == NULL) break;
        memcpy(names[n], de->d_name, strlen(de->d_name) + 1);
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, by_string);
    for (size_t i = 0; rc == 1 && i < n; i++) {
        cli_input in;
        relic_arena a;
        relic_erf_archive ar;
        relic_error err;
        uint32_t k;
        if (join(path, sizeof path, mdir, '/', names[i]) || cli_load(path, &in)) continue;
        relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
        if (relic_erf_open(in.map.bytes.data, in.map.bytes.size, &a, &ar, &err) != RELIC_OK) {
            fprintf(stderr, "relic get: note: %s skipped: ", path);
            cli_error(path, &err);
        } else if (relic_erf_find(&ar, name, &k)) {
            *size = ar.entries[k].size;
            if ((*data = malloc(*size ? *size : 1)) != NULL) {
                memcpy(*data, ar.entries[k].data, *size);
                snprintf(where, where_n, "%s", path);
                rc = 0;
            } else {
                rc = -1;
            }
        }
        relic_arena_release(&a);
        cli_unload(&in);
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    return rc;
}

int cli_install_lookup(const char *dir, const char *name, uint8_t **data, size_t *size, char *where, size_t where_n)
{
    char rel[300], path[4096];
    int rc;
    /* 1. override/ (PyKotor's order for KotOR; the brief's for every game) */
    snprintf(rel, sizeof rel, "override/%s", name);
    if (!strchr(name, '/') && cli_find_nocase(dir, rel, path, sizeof path) == 0) {
        cli_input in;
        if (cli_load(path, &in)) return -1;
        *size = in.map.bytes.size;
        *data = malloc(*size ? *size : 1);
        if (*data) memcpy(*data, in.map.bytes.data, *size);
        cli_unload(&in);
        snprintf(where, where_n, "%s", path);
        return *data ? 0 : -1;
    }
    /* 2. the modules' containers */
    if ((rc = modules_lookup(dir, name, data, size, where, where_n)) != 1) return rc;
    /* 3. chitin.key's BIFs */
    if (cli_find_nocase(dir, "chitin.key", path, sizeof path)) return 1;
    rc = cli_key_lookup(path, name, data, size);
    if (rc == 0) snprintf(where, where_n, "%s", path);
    return rc;
}
