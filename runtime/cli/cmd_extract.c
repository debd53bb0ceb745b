/* cmd_extract.c — `relic extract IN ...`: the arguments parsed and IN mapped
 * once, then the extractor of IN's format: containers (cmd_container.c),
 * PID textures (cmd_extract_textures.c), or, here,
 * `relic extract BANK.tpa -C DIR [--names FILE]`: one WAV
 * file per identifier of a TPA bank (or the one sample of a CAU), named by
 * sound ID (XXXXXXXX.wav) or, when a name list is given, by the name whose
 * sound hash (Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp) is the ID; plus captions.json with
 * the caption lines of every sample that has them (durations in seconds,
 * Trespasser source, Lib/Audio/AudioLoad.cpp); for a bank also sounds.json (the identifier table, Trespasser source, Lib/Audio/AudioLoad.cpp:
 * properties, which identifiers share a sample, how each sample is stored)
 * and, when the bank has one, foley.json (the collision table, Trespasser source, Lib/Audio/AudioLoader.hpp, Source/Tools/CollisionEditor/Database.cpp, as the
 * JSON of a bank holding only it). `relic pack-sounds` reads them back. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "audio_cli.h"
#include "erf_cli.h"
#include "key_cli.h"
#include "relic_gen.h"
#include "relic_groff.h"
#include "relic_json.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: relic extract BANK.tpa|CLIP.cau -C DIR [--names FILE]\n"
               "Write each sample as DIR/<sound ID>.wav (16-bit PCM decoded from IMA ADPCM, or the PCM\n"
               "as stored) and DIR/captions.json with the caption lines; for a bank also DIR/sounds.json\n"
               "(identifier table: attenuation, master volume, shared samples, storage) and, when the\n"
               "bank has a collision table, DIR/foley.json. `relic pack-sounds DIR OUT.tpa` rebuilds the\n"
               "bank from them. With --names, FILE lists sound\n"
               "names one per line (e.g. Anne/Anne001); a sample whose ID is a name's hash (lower case,\n"
               "'\\' as '/', CRC-32) is written as DIR/<name>.wav ('/' and other unsafe characters as '_').\n");
}

typedef struct name_entry {
    uint32_t id;
    const char *name;
} name_entry;

static int load_names(const char *path, relic_arena *a, name_entry **out, size_t *count)
{
    relic_mapping m;
    relic_error err;
    if (relic_map_file(path, CLI_MAX_PIPE_INPUT, &m, &err) != RELIC_OK) {
        cli_error(path, &err);
        return 1;
    }
    size_t lines = 1;
    for (size_t i = 0; i < m.bytes.size; i++) lines += m.bytes.data[i] == '\n';
    name_entry *e = relic_arena_array(a, lines, sizeof *e, 8);
    size_t n = 0;
    if (!e) {
        relic_unmap(&m);
        cli_errorf(path, 0, "no memory for %zu names", lines);
        return 1;
    }
    const char *p = (const char *)m.bytes.data, *end = p + m.bytes.size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *q = nl ? nl : end;
        size_t len = (size_t)(q - p);
        while (len && (p[len - 1] == '\r' || p[len - 1] == ' ' || p[len - 1] == '\t')) len--;
        if (len) {
            e[n].id = relic_tres_sound_hash(p, len);
            e[n].name = relic_arena_strndup(a, p, len);
            if (!e[n].name) {
                relic_unmap(&m);
                return 1;
            }
            n++;
        }
        p = q + 1;
    }
    relic_unmap(&m);
    *out = e;
    *count = n;
    return 0;
}

/* DIR/<name>.wav with unsafe characters replaced; or DIR/<ID>.wav. */
static void file_name(char *buf, size_t n, const char *dir, uint32_t id, const name_entry *names, size_t nn)
{
    for (size_t i = 0; i < nn; i++)
        if (names[i].id == id) {
            char safe[200];
            size_t k = 0;
            for (const char *s = names[i].name; *s && k + 1 < sizeof safe; s++) {
                unsigned char c = (unsigned char)*s;
                safe[k++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ? (char)c : '_';
            }
            safe[k] = 0;
            snprintf(buf, n, "%s/%s.wav", dir, safe);
            return;
        }
    snprintf(buf, n, "%s/%08X.wav", dir, id);
}

/* Append one sample's captions to the captions.json array. */
static int add_captions(relic_buf *j, int *first, uint32_t id, int id_set, const char *wav, const uint8_t *text, size_t n,
                        uint32_t count, const char *in_path)
{
    relic_arena a;
    relic_error err;
    relic_audio_caption *lines;
    size_t used;
    int rc = 0;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (relic_audio_captions_parse(text, n, count, &a, &lines, &used, &err) != RELIC_OK) {
        cli_error(in_path, &err);
        rc = 1;
    } else {
        relic_buf_puts(j, *first ? "\n" : ",\n");
        *first = 0;
        relic_buf_puts(j, "{\"file\": ");
        const char *base = strrchr(wav, '/');
        base = base ? base + 1 : wav;
        relic_json_string(j, base, strlen(base));
        relic_buf_puts(j, ", ");
        relic_buf j2;
        relic_buf_init(&j2, 0);
        relic_audio_captions_json(lines, count, id_set, id, &j2);
        relic_buf_append(j, j2.data + 1, j2.size - 2); /* without the braces' outer "{" and final "\n" */
        relic_buf_free(&j2);
    }
    relic_arena_release(&a);
    return rc;
}

/* The name --names gave an ID, or NULL. */
static const char *name_of(uint32_t id, const name_entry *names, size_t nn)
{
    for (size_t i = 0; i < nn; i++)
        if (names[i].id == id) return names[i].name;
    return NULL;
}

/* Append identifier i of a bank to sounds.json: its ID, file, properties,
 * and either the sample it shares with an earlier identifier or how its
 * sample is stored (the fields a WAV does not carry). */
static void add_sound(relic_buf *s, const relic_tpa_file *m, const uint8_t *base_bytes, size_t i, const char *wav,
                      const name_entry *names, size_t nn)
{
    const relic_tpa_id_entry *e = &m->ids[i];
    const char *base = strrchr(wav, '/'), *name = name_of(e->sound_id, names, nn);
    base = base ? base + 1 : wav;
    relic_buf_printf(s, "%s\n  {\"sound_id\": \"0x%08X\", ", i ? "," : "", e->sound_id);
    if (name) {
        relic_buf_puts(s, "\"name\": ");
        relic_json_string(s, name, strlen(name));
        relic_buf_puts(s, ", ");
    }
    relic_buf_puts(s, "\"file\": ");
    relic_json_string(s, base, strlen(base));
    relic_buf_puts(s, ", \"attenuation\": ");
    relic_json_f32(s, e->attenuation);
    relic_buf_puts(s, ", \"master_volume\": ");
    relic_json_f32(s, e->master_volume);
    for (size_t j = 0; j < i; j++)
        if (m->ids[j].sample_offset == e->sample_offset) {
            relic_buf_printf(s, ", \"same_sample_as\": \"0x%08X\"}", m->ids[j].sound_id);
            return;
        }
    const relic_tpa_sample_header *h = &e->header;
    const char *comp = relic_tpa_compression_name(h->compression);
    relic_buf_printf(s, ", \"compression\": \"%s\", \"bits\": %u, \"block_align\": %u, \"decoded_size\": %u, "
                        "\"version\": %u, \"flags\": %u",
                     comp ? comp : "?", h->bits, h->block_align, h->decoded_size, h->version, h->flags);
    if (h->caption_offset) {
        /* the bytes after the last caption line: CD CD CD CD in the CAU
         * files, zeros or leftovers in the banks (Trespasser source, Lib/Audio/AudioLoad.cpp) */
        const uint8_t *cb = base_bytes + e->sample_offset + h->caption_offset;
        uint32_t len = relic_load_u32le(cb) - 4;
        relic_arena a;
        relic_error err;
        relic_audio_caption *lines;
        size_t used;
        relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
        if (relic_audio_captions_parse(cb + 8, len, relic_load_u32le(cb + 4), &a, &lines, &used, &err) == RELIC_OK) {
            relic_buf_puts(s, ", \"caption_slack\": ");
            relic_json_hex(s, cb + 8 + used, len - used);
        }
        relic_arena_release(&a);
    }
    relic_buf_puts(s, "}");
}

/* A bank's tables without its sample data, so extraction takes memory for
 * the identifiers and collision records only, whatever the size of the
 * samples: the header, identifier table and collision table copied into a
 * small buffer whose header says "no samples", decoded by the generated
 * decoder. Then what extraction relies on is checked against the file
 * (offsets in the bank): each identifier's sample lies in the file, its
 * header copy equals the sample's header, and its data and caption block lie
 * in the sample. The data themselves are checked as they are decoded; the
 * other table rules are `relic check`'s. */
static int tpa_tables(const relic_tpa_view *v, relic_arena *a, relic_tpa_file *m, const char *in_path)
{
    relic_error err;
    size_t ids = v->ids_count * RELIC_TPA_ID_ENTRY_SIZE, cols = v->collisions_count * RELIC_TPA_COLLISION_SIZE;
    uint8_t *t = relic_arena_alloc(a, RELIC_TPA_HEADER_SIZE + ids + cols, 4);
    if (!t) {
        cli_errorf(in_path, 0, "no memory for the bank's tables");
        return 1;
    }
    memcpy(t, v->header, RELIC_TPA_HEADER_SIZE);
    memcpy(t + RELIC_TPA_HEADER_SIZE, v->ids, ids);
    if (cols) memcpy(t + RELIC_TPA_HEADER_SIZE + ids, v->collisions, cols);
    relic_store_u32le(t + 4, 0);                                        /* sample_count */
    relic_store_u32le(t + 8, RELIC_TPA_HEADER_SIZE);                    /* id_table_offset */
    relic_store_u32le(t + 16, (uint32_t)(RELIC_TPA_HEADER_SIZE + ids)); /* collision_offset */
    relic_tpa_view tv;
    if (relic_tpa_validate(t, RELIC_TPA_HEADER_SIZE + ids + cols, &tv, &err) != RELIC_OK ||
        relic_tpa_decode(&tv, a, m, &err) != RELIC_OK) {
        cli_error(in_path, &err);
        return 1;
    }
    for (size_t i = 0; i < m->ids_count; i++) {
        const relic_tpa_id_entry *e = &m->ids[i];
        const relic_tpa_sample_header *h = &e->header;
        size_t at = (size_t)(v->ids - v->base) + i * RELIC_TPA_ID_ENTRY_SIZE;
        const char *what = NULL;
        if ((uint64_t)e->sample_offset + e->sample_length > v->size || e->sample_length < RELIC_TPA_SAMPLE_HEADER_SIZE)
            what = "sample_offset";
        else if (memcmp(v->base + at + RELIC_TPA_ID_ENTRY_HEADER_POS, v->base + e->sample_offset,
                        RELIC_TPA_SAMPLE_HEADER_SIZE) != 0)
            what = "header";
        else if ((uint64_t)h->data_offset + h->data_size > e->sample_length ||
                 (h->caption_offset && (uint64_t)h->caption_offset + 8 > e->sample_length))
            what = "header.data_size";
        else if (h->caption_offset &&
                 (uint64_t)h->caption_offset + 4 + relic_load_u32le(v->base + e->sample_offset + h->caption_offset) > e->sample_length)
            what = "header.caption_offset";
        if (what) {
            char field[64];
            snprintf(field, sizeof field, "ids[%zu].%s", i, what);
            cli_problemf(in_path, at, field, "the identifier's sample does not lie in the bank as its entry says (see relic check)");
            return 1;
        }
    }
    return 0;
}

/* `relic extract BANK.tpa|CLIP.cau -C DIR [--names FILE]` on the loaded input. */
static int extract_audio(cli_input *in, const cli_extract_args *x)
{
    const char *in_path = in->path, *dir = x->dir, *names_path = x->names;
    if (!dir || x->swp || x->mips || x->nmembers) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cli_errorf(dir, 0, "cannot create the directory: %s", strerror(errno));
        return EXIT_INVALID;
    }
    relic_arena a;
    relic_error err;
    name_entry *names = NULL;
    size_t nn = 0;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (names_path && load_names(names_path, &a, &names, &nn)) {
        relic_arena_release(&a);
        return EXIT_INVALID;
    }
    int rc = 0, first = 1;
    unsigned written = 0;
    char path[4096];
    relic_buf j, snd, foley;
    relic_buf_init(&j, 0);
    relic_buf_init(&snd, 0);
    relic_buf_init(&foley, 0);
    relic_buf_puts(&j, "{\"format\": \"captions\", \"samples\": [");
    cli_batch_begin(); /* every file of the directory, or none */
    if (in->format == RELIC_FORMAT_TPA) {
        relic_tpa_view v;
        relic_tpa_file m;
        if (relic_tpa_validate(in->map.bytes.data, in->map.bytes.size, &v, &err) != RELIC_OK) {
            cli_report(cli_problem_stream(), in_path, &err);
            rc = 1;
        } else if (tpa_tables(&v, &a, &m, in_path)) {
            rc = 1;
        } else {
            relic_buf_puts(&snd, "{\"format\": \"tpa sounds\", \"sounds\": [");
            for (size_t i = 0; i < m.ids_count && !rc; i++) {
                const relic_tpa_id_entry *e = &m.ids[i];
                const uint8_t *s = v.base + e->sample_offset;
                relic_audio_format f;
                relic_audio_format_of_tpa(&e->header, &f);
                file_name(path, sizeof path, dir, e->sound_id, names, nn);
                rc = cli_audio_write_wav(&f, s + e->header.data_offset, e->header.data_size, &in->map, path, in_path);
                written += rc == 0;
                add_sound(&snd, &m, v.base, i, path, names, nn);
                if (!rc && e->header.caption_offset) {
                    const uint8_t *cb = s + e->header.caption_offset;
                    rc = add_captions(&j, &first, e->sound_id, 1, path, cb + 8, relic_load_u32le(cb) - 4,
                                      relic_load_u32le(cb + 4), in_path);
                }
            }
            relic_buf_puts(&snd, m.ids_count ? "\n]}\n" : "]}\n");
            if (!rc && m.collisions_count) {
                /* the collision table as the JSON of a bank holding only it */
                relic_tpa_file fm;
                memset(&fm, 0, sizeof fm);
                fm.header.version = RELIC_AUDIO_TPA_VERSION;
                fm.collisions = m.collisions;
                fm.collisions_count = m.collisions_count;
                if (relic_tpa_json_print(&fm, &foley, &err) != RELIC_OK) {
                    cli_error(in_path, &err);
                    rc = 1;
                }
            }
        }
    } else if (in->format == RELIC_FORMAT_CAU) {
        relic_cau_view v;
        if (relic_cau_validate(in->map.bytes.data, in->map.bytes.size, &v, &err) != RELIC_OK) {
            cli_report(cli_problem_stream(), in_path, &err);
            rc = 1;
        } else {
            const relic_cau_sample_header *h = &v.values.header;
            relic_audio_format f;
            relic_audio_format_of_cau(h, &f);
            const char *base = strrchr(in_path, '/');
            base = base ? base + 1 : in_path;
            snprintf(path, sizeof path, "%s/%.*s.wav", dir, (int)(strrchr(base, '.') ? (size_t)(strrchr(base, '.') - base) : strlen(base)), base);
            rc = cli_audio_write_wav(&f, v.base + h->data_offset, h->data_size, &in->map, path, in_path);
            written += rc == 0;
            if (!rc && h->caption_offset)
                rc = add_captions(&j, &first, 0, 0, path, v.base + h->caption_offset + 8, v.values.caption_length - 4,
                                  v.values.caption_count, in_path);
        }
    }
    relic_buf_puts(&j, first ? "]}\n" : "\n]}\n");
    if (!rc) {
        snprintf(path, sizeof path, "%s/captions.json", dir);
        if (!first) rc = cli_write(path, j.data, j.size, in_path);
        snprintf(path, sizeof path, "%s/sounds.json", dir);
        if (!rc && snd.size) rc = cli_write(path, snd.data, snd.size, in_path);
        snprintf(path, sizeof path, "%s/foley.json", dir);
        if (!rc && foley.size) rc = cli_write(path, foley.data, foley.size, in_path);
    }
    rc = cli_batch_end(!rc);
    if (!rc) printf("%s: %u WAV file%s%s%s%s in %s\n", in_path, written, written == 1 ? "" : "s", first ? "" : ", captions.json",
                    snd.size ? ", sounds.json" : "", foley.size ? ", foley.json" : "", dir);
    relic_buf_free(&j);
    relic_buf_free(&snd);
    relic_buf_free(&foley);
    relic_arena_release(&a);
    return rc ? EXIT_INVALID : EXIT_VALID;
}

/* `relic extract IN ...`: the arguments parsed once, IN mapped once, then
 * the extractor of IN's format. */
int cmd_extract(int argc, char **argv)
{
    cli_extract_args x;
    const char *in_path = NULL;
    memset(&x, 0, sizeof x);
    char **members = calloc((size_t)argc, sizeof *members);
    if (!members) {
        fprintf(stderr, "relic extract: out of memory\n");
        return EXIT_INVALID;
    }
    x.members = members;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            putchar('\n');
            cli_extract_container_usage(stdout);
            putchar('\n');
            cli_key_extract_usage(stdout);
            putchar('\n');
            cli_extract_textures_usage(stdout);
            printf("\nExit status: 0 success, 1 invalid input, missing member or failed write, 2 usage error.\n");
            free(members);
            return EXIT_VALID;
        }
        if (!strcmp(argv[i], "-C") && i + 1 < argc) x.dir = argv[++i];
        else if (!strcmp(argv[i], "--names") && i + 1 < argc) x.names = argv[++i];
        else if (!strcmp(argv[i], "--swp") && i + 1 < argc) x.swp = argv[++i];
        else if (!strcmp(argv[i], "--mips")) x.mips = 1;
        else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "relic extract: unknown option '%s' (see relic extract --help)\n", argv[i]);
            free(members);
            return EXIT_USAGE;
        } else if (!in_path) in_path = argv[i];
        else members[x.nmembers++] = argv[i];
    }
    cli_input in;
    int rc;
    if (!in_path) {
        usage(stderr);
        rc = EXIT_USAGE;
    } else if (cli_load(in_path, &in)) {
        rc = EXIT_INVALID;
    } else {
        if (in.format == RELIC_FORMAT_ERF) {
            rc = cli_extract_container(&in, &x);
        } else if (in.format == RELIC_FORMAT_KEY) {
            rc = cli_key_extract(&in, &x);
        } else if (in.format == RELIC_FORMAT_PID) {
            rc = cli_extract_textures(&in, &x);
        } else if (in.format == RELIC_FORMAT_TPA || in.format == RELIC_FORMAT_CAU) {
            rc = extract_audio(&in, &x);
        } else {
            cli_errorf(in_path, 0, "not a container, sound bank, sample or texture directory (detected: %s)",
                       relic_format_name(in.format));
            rc = EXIT_INVALID;
        }
        cli_unload(&in);
    }
    free(members);
    return rc;
}
