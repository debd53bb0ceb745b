/* cmd_pack_sounds.c — `relic pack-sounds DIR OUT.tpa [--adpcm]`: a TPA
 * bank from a directory as `relic extract` writes it (Trespasser source, Lib/Audio/AudioLoad.cpp identifier table, Trespasser source, Lib/Audio/AudioLoad.cpp samples and caption blocks, Trespasser source, Lib/Audio/AudioLoader.hpp, Source/Tools/CollisionEditor/Database.cpp collision
 * table): DIR/sounds.json lists the identifiers in table order with their
 * properties, which identifiers share one sample ("same_sample_as") and how
 * each sample is stored; each WAV is encoded again (PCM, or IMA ADPCM with
 * runtime/codec/adpcm.c, whose block-wise search gives the game's bytes back for
 * real samples); DIR/captions.json gives caption lines by sound ID;
 * DIR/foley.json the collision table. Without sounds.json every .wav file in DIR is
 * one identifier (sorted by file name; an 8-hex-digit name is the sound ID,
 * any other name is hashed as a sound name, Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp). The bank is laid out
 * by relic_tpa_pack (runtime/formats/tres/tpa_pack.c) from each sample's
 * size, which follows from its WAV's frame count, then written piece by
 * piece with the data encoded block by block from the WAVs (constant
 * memory whatever the size), and read back and checked before the
 * temporary file is renamed into place. */
#define _DEFAULT_SOURCE 1 /* madvise */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include "audio_cli.h"
#include "relic_gen.h"
#include "relic_json.h"
#include "progress.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: relic pack-sounds DIR OUT.tpa [--adpcm]\n"
               "Build a Trespasser sound bank from DIR as `relic extract BANK.tpa -C DIR` writes it:\n"
               "  DIR/sounds.json    identifiers in table order: {\"sounds\": [{\"sound_id\": \"0x...\" (or\n"
               "                     \"name\": \"Anne/Anne001\", hashed), \"file\": \"X.wav\", \"attenuation\",\n"
               "                     \"master_volume\", and \"same_sample_as\": \"0x...\" to share another\n"
               "                     identifier's sample, or the storage: \"compression\" (pcm|ima_adpcm),\n"
               "                     \"bits\", \"block_align\", \"decoded_size\", \"version\", \"flags\",\n"
               "                     \"caption_slack\" (hex bytes after the last caption line)}, ...]}\n"
               "  DIR/*.wav          the sounds (without sounds.json: every WAV, sorted by name; a name of\n"
               "                     8 hex digits is the sound ID, another name is hashed as a sound name)\n"
               "  DIR/captions.json  caption lines per sound ID (optional)\n"
               "  DIR/foley.json     the collision (Foley) table (optional)\n"
               "  --adpcm            store sounds without a \"compression\" as IMA ADPCM (default PCM)\n"
               "A directory extracted from a bank packs to the same bytes when the WAVs are unchanged.\n"
               "Exit status: 0 success, 1 invalid input or failed write, 2 usage error.\n");
}

/* One identifier as sounds.json (or the directory) gives it. */
typedef struct sound {
    uint32_t sound_id;
    const char *file; /* WAV file name inside DIR; NULL when shared */
    float attenuation, master_volume;
    int shared; /* same_sample_as given */
    uint32_t same_as;
    int64_t compression;  /* -1: the --adpcm default */
    unsigned bits;        /* 0: the WAV's */
    uint32_t block_align; /* 0: the game's for the channel count */
    int has_decoded_size;
    uint32_t decoded_size;
    uint32_t version;
    uint8_t flags;
    int has_slack;
    uint8_t *slack; /* bytes after the last caption line */
    size_t slack_len;
    size_t sample; /* index of its sample in the packed list */
} sound;

/* Caption lines of one sound ID from captions.json. */
typedef struct caption_set {
    uint32_t sound_id;
    relic_audio_caption *lines;
    size_t count;
} caption_set;

static int read_file(const char *dir, const char *name, relic_mapping *m, int optional)
{
    char path[4096];
    relic_error err;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (optional && access(path, F_OK) != 0) return -1;
    if (relic_map_file(path, CLI_MAX_PIPE_INPUT, m, &err) != RELIC_OK) {
        cli_error(path, &err);
        return 1;
    }
    return 0;
}

/* A sound ID: "0x1234ABCD" or an integer. */
static relic_status read_id(relic_jr *r, const relic_jv *v, uint32_t *out)
{
    if (relic_jv_is(v, RELIC_JV_STRING)) {
        char s[32] = "";
        if (v->len < sizeof s && !memchr(v->u.s, 0, v->len)) memcpy(s, v->u.s, v->len);
        char *end;
        errno = 0;
        unsigned long long x = strtoull(s, &end, 16);
        if (strncmp(s, "0x", 2) || *end || errno || x > UINT32_MAX || end == s + 2)
            return relic_jr_fail(r, RELIC_E_RANGE, "'%s' is not a sound ID (0x followed by up to 8 hex digits)", s);
        *out = (uint32_t)x;
        return RELIC_OK;
    }
    int64_t x;
    relic_status st = relic_jr_int(r, v, 0, UINT32_MAX, &x);
    *out = (uint32_t)x;
    return st;
}

static int compression_from_name(const char *name, int64_t *v) { return relic_tpa_compression_from_name(name, v); }

/* Optional unsigned member key into *out (unchanged when absent). */
static relic_status opt_uint(relic_jr *r, const relic_jv *obj, const char *key, uint64_t hi, int *present, uint32_t *out)
{
    const relic_jv *v;
    int64_t x;
    relic_status st = relic_jr_member(r, obj, key, 0, &v);
    if (st != RELIC_OK || !v) return st;
    relic_jr_push(r, key, -1);
    if ((st = relic_jr_int(r, v, 0, hi, &x)) != RELIC_OK) return st;
    relic_jr_pop(r);
    *out = (uint32_t)x;
    if (present) *present = 1;
    return RELIC_OK;
}

static relic_status parse_sound(relic_jr *r, const relic_jv *e, relic_arena *a, sound *s)
{
    const relic_jv *v;
    relic_status st;
    memset(s, 0, sizeof *s);
    s->compression = -1;
    s->version = RELIC_AUDIO_CAU_VERSION;
    if ((st = relic_jr_member(r, e, "sound_id", 0, &v)) != RELIC_OK) return st;
    if (v) {
        relic_jr_push(r, "sound_id", -1);
        if ((st = read_id(r, v, &s->sound_id)) != RELIC_OK) return st;
        relic_jr_pop(r);
    } else {
        char *name;
        size_t n;
        if ((st = relic_jr_member(r, e, "name", 0, &v)) != RELIC_OK) return st;
        if (!v) return relic_jr_fail(r, RELIC_E_ARGUMENT, "neither \"sound_id\" nor \"name\"");
        relic_jr_push(r, "name", -1);
        if ((st = relic_jr_string(r, v, &name, &n)) != RELIC_OK) return st;
        relic_jr_pop(r);
        s->sound_id = relic_tres_sound_hash(name, n);
    }
    static const char *const fkeys[2] = {"attenuation", "master_volume"};
    float *fdst[2] = {&s->attenuation, &s->master_volume};
    for (int k = 0; k < 2; k++) {
        if ((st = relic_jr_member(r, e, fkeys[k], 0, &v)) != RELIC_OK) return st;
        if (!v) continue;
        relic_jr_push(r, fkeys[k], -1);
        if ((st = relic_jr_f32(r, v, fdst[k])) != RELIC_OK) return st;
        relic_jr_pop(r);
    }
    if ((st = relic_jr_member(r, e, "same_sample_as", 0, &v)) != RELIC_OK) return st;
    if (v) {
        relic_jr_push(r, "same_sample_as", -1);
        if ((st = read_id(r, v, &s->same_as)) != RELIC_OK) return st;
        relic_jr_pop(r);
        s->shared = 1;
        return RELIC_OK;
    }
    char *file;
    size_t n;
    if ((st = relic_jr_member(r, e, "file", 1, &v)) != RELIC_OK) return st;
    relic_jr_push(r, "file", -1);
    if ((st = relic_jr_string(r, v, &file, &n)) != RELIC_OK) return st;
    if (n == 0 || memchr(file, 0, n) || strstr(file, "..") || file[0] == '/')
        return relic_jr_fail(r, RELIC_E_RANGE, "'%s' is not a file name inside the directory", file);
    relic_jr_pop(r);
    s->file = file;
    (void)a;
    if ((st = relic_jr_member(r, e, "compression", 0, &v)) != RELIC_OK) return st;
    if (v) {
        relic_jr_push(r, "compression", -1);
        if ((st = relic_jr_enum(r, v, compression_from_name, 0, 255, &s->compression)) != RELIC_OK) return st;
        if (s->compression != RELIC_TPA_COMPRESSION_PCM && s->compression != RELIC_TPA_COMPRESSION_IMA_ADPCM)
            return relic_jr_fail(r, RELIC_E_UNSUPPORTED, "relic stores pcm or ima_adpcm");
        relic_jr_pop(r);
    }
    uint32_t bits = 0, flags = 0;
    if ((st = opt_uint(r, e, "bits", 16, NULL, &bits)) != RELIC_OK) return st;
    if (bits != 0 && bits != 8 && bits != 16) {
        relic_jr_push(r, "bits", -1);
        return relic_jr_fail(r, RELIC_E_RANGE, "%u bits (8 or 16)", bits);
    }
    s->bits = bits;
    if ((st = opt_uint(r, e, "block_align", RELIC_ADPCM_MAX_BLOCK, NULL, &s->block_align)) != RELIC_OK) return st;
    if ((st = opt_uint(r, e, "decoded_size", UINT32_MAX, &s->has_decoded_size, &s->decoded_size)) != RELIC_OK) return st;
    if ((st = opt_uint(r, e, "version", UINT32_MAX, NULL, &s->version)) != RELIC_OK) return st;
    if ((st = opt_uint(r, e, "flags", 255, NULL, &flags)) != RELIC_OK) return st;
    s->flags = (uint8_t)flags;
    if ((st = relic_jr_member(r, e, "caption_slack", 0, &v)) != RELIC_OK) return st;
    if (v) {
        relic_jr_push(r, "caption_slack", -1);
        if ((st = relic_jr_hex(r, v, &s->slack, &s->slack_len)) != RELIC_OK) return st;
        if (s->slack_len > 65536) return relic_jr_fail(r, RELIC_E_LIMIT, "%zu bytes of slack (at most 65536)", s->slack_len);
        relic_jr_pop(r);
        s->has_slack = 1;
    }
    return RELIC_OK;
}

/* sounds.json into sounds[0..*n). */
static int load_sounds(const char *dir, relic_mapping *m, relic_arena *a, sound **out, size_t *n)
{
    relic_error err;
    relic_jr r;
    const relic_jv *doc, *arr;
    relic_status st;
    memset(&r, 0, sizeof r);
    r.arena = a;
    r.err = &err;
    if ((st = relic_jr_parse((const char *)m->bytes.data, m->bytes.size, a, &doc, &err)) == RELIC_OK) {
        if ((st = relic_jr_check_format(&r, doc, "tpa sounds")) == RELIC_OK &&
            (st = relic_jr_member(&r, doc, "sounds", 1, &arr)) == RELIC_OK) {
            relic_jr_push(&r, "sounds", -1);
            if ((st = relic_jr_array(&r, arr, n)) == RELIC_OK) {
                *out = relic_arena_array(a, *n ? *n : 1, sizeof **out, _Alignof(sound));
                if (!*out) st = relic_jr_fail(&r, RELIC_E_NOMEM, "no memory for %zu sounds", *n);
                for (size_t i = 0; st == RELIC_OK && i < *n; i++) {
                    relic_jr_push(&r, NULL, (int64_t)i);
                    st = parse_sound(&r, relic_jv_at(arr, i), a, &(*out)[i]);
                    if (st == RELIC_OK) relic_jr_pop(&r);
                }
            }
        }
    }
    if (st != RELIC_OK) {
        char path[4096];
        snprintf(path, sizeof path, "%s/sounds.json", dir);
        cli_error(path, &err);
        return 1;
    }
    return 0;
}

static int by_name(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* Without sounds.json: every .wav file of DIR, sorted, one identifier each. */
static int scan_dir(const char *dir, relic_arena *a, sound **out, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d) {
        cli_errorf(dir, 0, "cannot read the directory: %s", strerror(errno));
        return 1;
    }
    size_t cap = 64, k = 0;
    char **names = malloc(cap * sizeof *names);
    struct dirent *de;
    int rc = 0;
    while (names && (de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len <= 4 || strcasecmp(de->d_name + len - 4, ".wav")) continue;
        if (k == cap) {
            char **more = realloc(names, 2 * cap * sizeof *names);
            if (!more) {
                rc = 1;
                break;
            }
            names = more;
            cap *= 2;
        }
        names[k++] = relic_arena_strndup(a, de->d_name, len);
        if (!names[k - 1]) {
            rc = 1;
            break;
        }
    }
    closedir(d);
    if (!names || rc) {
        free(names);
        cli_errorf(dir, 0, "no memory for the file list");
        return 1;
    }
    if (k == 0) {
        free(names);
        cli_errorf(dir, 0, "holds no sounds.json and no .wav file");
        return 1;
    }
    qsort(names, k, sizeof *names, by_name);
    sound *s = relic_arena_array(a, k, sizeof *s, _Alignof(sound));
    if (!s) {
        free(names);
        cli_errorf(dir, 0, "no memory for the sounds");
        return 1;
    }
    for (size_t i = 0; i < k; i++) {
        memset(&s[i], 0, sizeof s[i]);
        s[i].file = names[i];
        s[i].compression = -1;
        s[i].version = RELIC_AUDIO_CAU_VERSION;
        size_t stem = strlen(names[i]) - 4;
        int hex = stem == 8;
        for (size_t c = 0; hex && c < stem; c++) hex = strchr("0123456789abcdefABCDEF", names[i][c]) != NULL;
        s[i].sound_id = hex ? (uint32_t)strtoul(names[i], NULL, 16) : relic_tres_sound_hash(names[i], stem);
    }
    free(names);
    *out = s;
    *n = k;
    return 0;
}

/* captions.json: each sample object's "sound_id" and its lines. */
static int load_captions(const char *dir, relic_mapping *m, relic_arena *a, caption_set **out, size_t *n)
{
    relic_error err;
    relic_jr r;
    const relic_jv *doc, *arr, *v;
    relic_status st;
    memset(&r, 0, sizeof r);
    r.arena = a;
    r.err = &err;
    if ((st = relic_jr_parse((const char *)m->bytes.data, m->bytes.size, a, &doc, &err)) == RELIC_OK) {
        if ((st = relic_jr_member(&r, doc, "samples", 1, &arr)) == RELIC_OK) {
            relic_jr_push(&r, "samples", -1);
            if ((st = relic_jr_array(&r, arr, n)) == RELIC_OK) {
                *out = relic_arena_array(a, *n ? *n : 1, sizeof **out, _Alignof(caption_set));
                if (!*out) st = relic_jr_fail(&r, RELIC_E_NOMEM, "no memory for %zu caption sets", *n);
                for (size_t i = 0; st == RELIC_OK && i < *n; i++) {
                    const relic_jv *e = relic_jv_at(arr, i);
                    relic_jr_push(&r, NULL, (int64_t)i);
                    if ((st = relic_jr_member(&r, e, "sound_id", 1, &v)) != RELIC_OK) break;
                    relic_jr_push(&r, "sound_id", -1);
                    if ((st = read_id(&r, v, &(*out)[i].sound_id)) != RELIC_OK) break;
                    relic_jr_pop(&r);
                    /* the lines, read by the same reader `relic encode --captions` uses */
                    relic_buf text;
                    relic_buf_init_arena(&text, a, 0);
                    relic_jv_print(&text, e);
                    relic_error e2;
                    if (text.failed) {
                        st = relic_jr_fail(&r, RELIC_E_NOMEM, "no memory");
                        break;
                    }
                    if ((st = relic_audio_captions_from_json((const char *)text.data, text.size, a, &(*out)[i].lines, &(*out)[i].count, &e2)) != RELIC_OK) {
                        st = relic_jr_fail(&r, e2.code, "%s: %s", e2.path, e2.message);
                        break;
                    }
                    relic_jr_pop(&r);
                }
            }
        }
    }
    if (st != RELIC_OK) {
        char path[4096];
        snprintf(path, sizeof path, "%s/captions.json", dir);
        cli_error(path, &err);
        return 1;
    }
    return 0;
}

/* How one stored sample's data are made from its WAV. */
typedef struct sample_src {
    const char *file;     /* the WAV's name inside DIR */
    relic_wav_info wav;   /* as parsed when the sample was planned */
    unsigned bits;        /* PCM bits to store (8 or 16) */
    uint32_t block_align; /* IMA ADPCM block size; 0 for PCM */
} sample_src;

/* The sample of sound s as sounds.json says to store it: its header and
 * caption block in out (out->data is NULL, out->data_count the size the
 * data will have: PCM and IMA ADPCM sizes follow from the frame count), and
 * how to make the data in src. The WAV is read for its header only. */
static int plan_sample(const char *dir, const sound *s, int adpcm_default, const caption_set *caps, size_t ncaps,
                       relic_arena *a, relic_cau_file *out, sample_src *src)
{
    char path[4096];
    relic_mapping m;
    relic_error err;
    relic_wav_info *w = &src->wav;
    int rc = 1;
    snprintf(path, sizeof path, "%s/%s", dir, s->file);
    if (relic_map_file(path, 0, &m, &err) != RELIC_OK) {
        cli_error(path, &err);
        return 1;
    }
    const caption_set *c = NULL;
    for (size_t i = 0; i < ncaps && !c; i++)
        if (caps[i].sound_id == s->sound_id) c = &caps[i];
    int adpcm = s->compression < 0 ? adpcm_default : s->compression == RELIC_TPA_COMPRESSION_IMA_ADPCM;
    relic_status st = relic_audio_wav_parse(m.bytes.data, m.bytes.size, w, &err);
    if (st == RELIC_OK && w->frames > UINT32_MAX / 4u)
        st = relic_fail(&err, RELIC_E_LIMIT, w->data_offset, "data", "%llu frames: a sample holds at most 4 GiB",
                        (unsigned long long)w->frames);
    unsigned wav_bits = w->bits == 8 && !w->is_float ? 8 : 16; /* what the WAV holds, as 8 or 16 bits */
    if (st == RELIC_OK)
        st = relic_audio_cau_from_pcm(NULL, 0, w->channels, w->sample_rate, s->bits ? s->bits : wav_bits, adpcm,
                                      c ? c->lines : NULL, c ? c->count : 0, a, out, &err);
    if (st != RELIC_OK) {
        cli_error(path, &err);
        goto done;
    }
    relic_cau_sample_header *h = &out->header;
    if (adpcm && s->block_align && s->block_align != h->block_align) {
        /* a block size other than the game's */
        if (relic_adpcm_check_params(s->block_align, w->channels, &err) != RELIC_OK) {
            cli_error_in(path, "block_align", &err);
            goto done;
        }
        h->block_align = s->block_align;
    } else if (!adpcm && s->block_align) {
        cli_errorf(path, 0, "block_align %u for PCM (must be 0)", s->block_align);
        goto done;
    }
    uint64_t size = adpcm ? relic_adpcm_encoded_size(w->frames, h->block_align, w->channels)
                          : w->frames * w->channels * (h->bits / 8u);
    uint64_t decoded = adpcm ? relic_adpcm_frames(size, h->block_align, w->channels) * w->channels * 2 : size;
    if (size > UINT32_MAX - 65536u || decoded > UINT32_MAX) {
        cli_errorf(path, 0, "%llu frames do not fit a CAU sample (4 GiB)", (unsigned long long)w->frames);
        goto done;
    }
    out->data = NULL;
    out->data_count = (size_t)size;
    h->data_size = (uint32_t)size;
    h->decoded_size = (uint32_t)decoded;
    src->file = s->file;
    src->bits = h->bits;
    src->block_align = adpcm ? h->block_align : 0;
    if (s->has_slack && out->caption_count) {
        /* the caption block's tail as the bank had it, instead of the 4
         * bytes relic_audio_captions_build appends */
        size_t lines = out->caption_text_count - RELIC_AUDIO_CAPTION_SLACK;
        uint8_t *t = relic_arena_alloc(a, lines + s->slack_len + 1, 1);
        if (!t) {
            cli_errorf(path, 0, "no memory for the captions");
            goto done;
        }
        memcpy(t, out->caption_text, lines);
        if (s->slack_len) memcpy(t + lines, s->slack, s->slack_len);
        out->caption_text = t;
        out->caption_text_count = lines + s->slack_len;
        out->caption_length = (uint32_t)(out->caption_text_count + 4);
        h->data_offset = h->caption_offset + 4 + out->caption_length;
    }
    if (s->has_decoded_size) h->decoded_size = s->decoded_size;
    h->version = s->version;
    h->flags = s->flags;
    rc = 0;
done:
    relic_unmap(&m);
    return rc;
}

/* The data of the sample src plans, from its WAV, onto the output. */
static int write_sample_data(cli_stream *o, const char *dir, const sample_src *src)
{
    char path[4096];
    relic_mapping m;
    relic_error err;
    relic_wav_info w;
    snprintf(path, sizeof path, "%s/%s", dir, src->file);
    if (relic_map_file(path, 0, &m, &err) != RELIC_OK) {
        cli_error(path, &err);
        return 1;
    }
    int rc = 1;
    if (relic_audio_wav_parse(m.bytes.data, m.bytes.size, &w, &err) != RELIC_OK) cli_error(path, &err);
    else if (memcmp(&w, &src->wav, sizeof w) != 0) cli_errorf(path, 0, "the file changed while the bank was written");
    else rc = cli_stream_wav_data(o, path, &m, &w, src->bits, src->block_align);
    relic_unmap(&m);
    return rc;
}

/* The bank m (from relic_tpa_pack, whose samples hold no data bytes) onto
 * the output piece by piece: the header and identifier table, each
 * sample's header and caption block followed by its data encoded from its
 * WAV, then the collision table. The pieces come from the generated
 * writers; the layout is relic_tpa_pack's. by_storage[k] is the index into
 * cau/src of the k-th stored sample. */
static int write_bank(cli_stream *o, const char *dir, const char *out_path, const relic_tpa_file *m,
                      relic_cau_file *cau, const sample_src *src, const size_t *by_storage)
{
    relic_error err;
    relic_buf b;
    relic_buf_init(&b, 0);
    int rc = 1;
    /* header and identifiers: the writer's derived counts and offsets for a
     * bank without samples and collisions, then the real ones */
    relic_tpa_file head = *m;
    head.samples_count = 0;
    head.collisions = NULL;
    head.collisions_count = 0;
    head.header.collision_offset = 0;
    if (relic_tpa_write(&head, &b, &err) != RELIC_OK) {
        cli_error(out_path, &err);
        goto done;
    }
    relic_store_u32le(b.data + RELIC_TPA_HEADER_SAMPLE_COUNT_POS, (uint32_t)m->samples_count);
    relic_store_u32le(b.data + RELIC_TPA_HEADER_COLLISION_COUNT_POS, (uint32_t)m->collisions_count);
    relic_store_u32le(b.data + RELIC_TPA_HEADER_COLLISION_OFFSET_POS, m->header.collision_offset);
    if (cli_stream_write(o, b.data, b.size)) goto done;
    for (size_t k = 0; k < m->samples_count; k++) {
        b.size = 0;
        if (cli_cau_prefix(&cau[by_storage[k]], &b, out_path) || cli_stream_write(o, b.data, b.size) ||
            write_sample_data(o, dir, &src[by_storage[k]]))
            goto done;
    }
    if (m->collisions_count) {
        /* the records as the writer lays them out after a bare header */
        relic_tpa_file tail;
        memset(&tail, 0, sizeof tail);
        tail.header.version = m->header.version;
        tail.collisions = (relic_tpa_collision *)m->collisions; /* only read by the writer */
        tail.collisions_count = m->collisions_count;
        b.size = 0;
        if (relic_tpa_write(&tail, &b, &err) != RELIC_OK) {
            cli_error(out_path, &err);
            goto done;
        }
        if (cli_stream_write(o, b.data + RELIC_TPA_HEADER_SIZE, b.size - RELIC_TPA_HEADER_SIZE)) goto done;
    }
    rc = 0;
done:
    relic_buf_free(&b);
    return rc;
}

/* Hand back the pages of a read-only file mapping wholly inside [p, p+n):
 * read once, they need not stay resident. */
static void release_pages(const uint8_t *p, size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = ((uintptr_t)p + page - 1) / page * page, to = ((uintptr_t)p + n) / page * page;
    if (to > from) madvise((void *)from, to - from, MADV_DONTNEED);
}

/* Sample data read back per window: 64 stereo ADPCM blocks (the check
 * rounds down to whole blocks), so the pages held stay few. */
#define CHECK_WINDOW ((size_t)64 * 2 * 1028)

static void release_window(void *ctx, uint64_t offset, const uint8_t *data, size_t n)
{
    (void)ctx;
    (void)offset;
    release_pages(data, n);
}

/* Each problem of the read-back check, as an internal error of the output. */
static void report_internal(void *ctx, const relic_error *err)
{
    cli_error_in((const char *)ctx, "internal error: the packed bank fails its check", err);
}

/* The written bank read back, in constant memory: the validator, then
 * relic_tpa_check's rules for the plan m it was written from (each
 * identifier names a stored sample's start and length and holds a copy of
 * its header; each sample's data decode), the data a window at a time
 * with the pages handed back. */
static int check_written(cli_stream *o, const char *out_path, const relic_tpa_file *m)
{
    relic_mapping map;
    relic_tpa_view v;
    relic_error err;
    int have = cli_stream_reread(o, &map);
    if (have <= 0) return have < 0;
    int rc = 1;
    if (relic_tpa_validate(map.bytes.data, map.bytes.size, &v, &err) != RELIC_OK) {
        cli_error_in(out_path, "internal error: the packed bank does not validate", &err);
    } else {
        relic_arena scratch;
        relic_arena_init_heap(&scratch, 0);
        rc = relic_tpa_check_windowed(&v, m, 0, CHECK_WINDOW, release_window, NULL, &scratch, report_internal,
                                      (void *)out_path) != 0;
        relic_arena_release(&scratch);
    }
    relic_unmap(&map);
    return rc;
}

int cmd_pack_sounds(int argc, char **argv)
{
    const char *dir = NULL, *out_path = NULL;
    int adpcm = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_VALID;
        }
        if (!strcmp(argv[i], "--adpcm")) adpcm = 1;
        else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "relic pack-sounds: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return EXIT_USAGE;
        } else if (!dir) dir = argv[i];
        else if (!out_path) out_path = argv[i];
        else {
            usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (!dir || !out_path) {
        usage(stderr);
        return EXIT_USAGE;
    }
    relic_arena a;
    relic_error err;
    relic_mapping sm, cm, fm;
    memset(&sm, 0, sizeof sm);
    memset(&cm, 0, sizeof cm);
    memset(&fm, 0, sizeof fm);
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    sound *snd = NULL;
    size_t ns = 0, ncaps = 0;
    caption_set *caps = NULL;
    relic_tpa_file foley;
    memset(&foley, 0, sizeof foley);
    int rc = 1, have;
    if ((have = read_file(dir, "sounds.json", &sm, 1)) > 0) goto done;
    if (have == 0 ? load_sounds(dir, &sm, &a, &snd, &ns) : scan_dir(dir, &a, &snd, &ns)) goto done;
    if ((have = read_file(dir, "captions.json", &cm, 1)) > 0 || (have == 0 && load_captions(dir, &cm, &a, &caps, &ncaps))) goto done;
    if ((have = read_file(dir, "foley.json", &fm, 1)) > 0) goto done;
    if (have == 0 && relic_tpa_json_read((const char *)fm.bytes.data, fm.bytes.size, &a, &foley, &err) != RELIC_OK) {
        char path[4096];
        snprintf(path, sizeof path, "%s/foley.json", dir);
        cli_error(path, &err);
        goto done;
    }
    /* one sample per sound that does not share another's */
    relic_cau_file *samples = relic_arena_array(&a, ns ? ns : 1, sizeof *samples, _Alignof(relic_cau_file));
    sample_src *src = relic_arena_array(&a, ns ? ns : 1, sizeof *src, _Alignof(sample_src));
    relic_tpa_pack_entry *ids = relic_arena_array(&a, ns ? ns : 1, sizeof *ids, _Alignof(relic_tpa_pack_entry));
    size_t *by_storage = relic_arena_array(&a, ns ? ns : 1, sizeof *by_storage, _Alignof(size_t));
    uint8_t *seen = relic_arena_array(&a, ns ? ns : 1, 1, 1);
    if (!samples || !src || !ids || !by_storage || !seen) {
        cli_errorf(dir, 0, "no memory for %zu sounds", ns);
        goto done;
    }
    size_t nsamples = 0;
    for (size_t i = 0; i < ns; i++) {
        if (snd[i].shared) continue;
        if (plan_sample(dir, &snd[i], adpcm, caps, ncaps, &a, &samples[nsamples], &src[nsamples])) goto done;
        snd[i].sample = nsamples++;
    }
    for (size_t i = 0; i < ns; i++) {
        ids[i].sound_id = snd[i].sound_id;
        ids[i].attenuation = snd[i].attenuation;
        ids[i].master_volume = snd[i].master_volume;
        ids[i].sample = snd[i].sample;
        if (!snd[i].shared) continue;
        size_t j = 0;
        while (j < ns && !(snd[j].sound_id == snd[i].same_as && !snd[j].shared)) j++;
        if (j == ns) {
            char json[4096], field[64];
            snprintf(json, sizeof json, "%s/sounds.json", dir);
            snprintf(field, sizeof field, "sounds[%zu].same_sample_as", i);
            relic_error e;
            relic_fail(&e, RELIC_E_INDEX, 0, field, "0x%08X is no sound stored with its own file", snd[i].same_as);
            cli_error(json, &e);
            goto done;
        }
        ids[i].sample = snd[j].sample;
    }
    relic_tpa_file m;
    if (relic_tpa_pack(ids, ns, samples, nsamples, foley.collisions, foley.collisions_count, &a, &m, &err) != RELIC_OK) {
        cli_error(out_path, &err);
        goto done;
    }
    /* relic_tpa_pack stores the samples in the order the identifiers first
     * name them */
    memset(seen, 0, ns ? ns : 1);
    for (size_t i = 0, k = 0; i < ns; i++)
        if (!seen[ids[i].sample]) {
            seen[ids[i].sample] = 1;
            by_storage[k++] = ids[i].sample;
        }
    cli_progress tick;
    char what[96];
    snprintf(what, sizeof what, "pack-sounds: %.80s", dir);
    cli_progress_tick_begin(&tick, what, 0);
    cli_stream *o = cli_stream_open(out_path);
    if (!o) {
        cli_progress_end(&tick);
        goto done;
    }
    int failed = write_bank(o, dir, out_path, &m, samples, src, by_storage);
    cli_progress_end(&tick);
    if (!failed) failed = check_written(o, out_path, &m);
    if (cli_stream_close(o, failed)) goto done;
    printf("%s: %zu identifiers, %zu samples, %zu collision records, %llu bytes\n", out_path, ns, nsamples,
           foley.collisions_count,
           (unsigned long long)m.header.collision_offset + (unsigned long long)foley.collisions_count * RELIC_TPA_COLLISION_SIZE);
    rc = 0;
done:
    relic_unmap(&sm);
    relic_unmap(&cm);
    relic_unmap(&fm);
    relic_arena_release(&a);
    return rc ? EXIT_INVALID : EXIT_VALID;
}
