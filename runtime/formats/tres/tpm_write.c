/* tpm_write.c — TPM text from a model (runtime/include/relic/relic_tpm.h; Trespasser file formats, "TPM -
 * Models"): blocks in order with one space of indent as the TPM document's examples,
 * properties with their value text as read, then the mesh or skin geometry
 * in the order m, v, t, n, f, floats in their shortest form that reads back
 * to the same float, comments where the model places them. Everything that
 * would read back differently (a quote or line break in a string, a key
 * that is no key, text that would read as a number, comments out of order)
 * is refused, so that read(write(model)) equals the model. */
#include <math.h>

#include "relic_gen.h"
#include "relic_tpm.h"

static void putc1(relic_buf *b, char c) { relic_buf_append(b, &c, 1); }

typedef struct writer {
    relic_buf *out;
    relic_error *err;
    const relic_tpm_file *m;
    uint32_t next_comment;
} writer;

static relic_status bad(writer *w, relic_status code, const char *path, const char *fmt, const char *what)
{
    return relic_fail(w->err, code, 0, path, fmt, what);
}

/* A string the reader takes back as it is: no quote, line break or NUL. */
static int plain(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] == '"' || s[i] == '\n' || s[i] == '\r' || s[i] == 0) return 0;
    return 1;
}

static int is_key(const char *k, relic_tpm_kind kind)
{
    size_t n = strlen(k);
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = k[i];
        int alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '$';
        if (!(alpha || (i && ((c >= '0' && c <= '9') || c == '.' || c == '-')))) return 0;
    }
    /* in meshes and skins these letters are geometry statements */
    if ((kind == RELIC_TPM_MESH || kind == RELIC_TPM_SKIN) && n == 1 && strchr("mvtnf", k[0])) return 0;
    return 1;
}

static relic_status put_float(writer *w, float v, const char *path)
{
    char t[48];
    if (!isfinite(v)) return relic_fail(w->err, RELIC_E_RANGE, 0, path, "a non-finite number has no TPM form");
    relic_buf_append(w->out, t, relic_f32_shortest(v, t));
    return RELIC_OK;
}

static relic_status put_tuple(writer *w, const float *v, unsigned n, const char *path)
{
    relic_status st;
    putc1(w->out, '(');
    for (unsigned i = 0; i < n; i++) {
        if (i) putc1(w->out, ',');
        if ((st = put_float(w, v[i], path)) != RELIC_OK) return st;
    }
    putc1(w->out, ')');
    return RELIC_OK;
}

static void put_u32(writer *w, uint32_t v)
{
    char t[12];
    int n = 0;
    char r[12];
    do {
        r[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (int i = 0; i < n; i++) t[i] = r[n - 1 - i];
    relic_buf_append(w->out, t, (size_t)n);
}

/* Comments placed at (block, prop), in the model's order. */
static relic_status comments_at(writer *w, uint32_t block, uint32_t prop, const char *indent)
{
    const relic_tpm_file *m = w->m;
    while (w->next_comment < m->comment_count) {
        const relic_tpm_comment *c = &m->comments[w->next_comment];
        if (c->block != block || c->prop != prop) break;
        if (!c->text && c->len) return bad(w, RELIC_E_ARGUMENT, "comments", "%s", "a comment with NULL text");
        for (size_t i = 0; i < c->len; i++)
            if (c->text[i] == '\n' || c->text[i] == '\r' || c->text[i] == 0)
                return bad(w, RELIC_E_ARGUMENT, "comments", "%s", "a comment holds a line break or NUL");
        relic_buf_puts(w->out, indent);
        relic_buf_puts(w->out, "//");
        relic_buf_append(w->out, c->text, c->len);
        putc1(w->out, '\n');
        w->next_comment++;
    }
    return RELIC_OK;
}

static relic_status write_prop(writer *w, const relic_tpm_block *b, const relic_tpm_prop *p, const char *path)
{
    if (!p->key || !is_key(p->key, b->kind)) return bad(w, RELIC_E_ARGUMENT, path, "key '%s' is not a key here", p->key ? p->key : "");
    putc1(w->out, ' ');
    relic_buf_puts(w->out, p->key);
    relic_buf_puts(w->out, " = ");
    if (p->kind == RELIC_TPM_STRING) {
        if ((!p->text && p->text_len) || !plain(p->text, p->text_len))
            return bad(w, RELIC_E_ARGUMENT, path, "%s", "a string holds '\"', a line break or NUL");
        putc1(w->out, '"');
        relic_buf_append(w->out, p->text, p->text_len);
        putc1(w->out, '"');
    } else if (p->text && p->text_len) {
        /* the value as written; it must read back as the same kind */
        float v[4];
        unsigned n;
        relic_tpm_value_kind k = relic_tpm_classify(p->text, p->text_len, v, &n);
        int ok = k == p->kind && p->text[0] != ' ' && p->text[0] != '\t' && p->text[p->text_len - 1] != ' ' && p->text[p->text_len - 1] != '\t';
        /* the reader takes the value up to the line end or a // outside
         * quotes, and needs every quote closed on the line */
        for (size_t i = 0; ok && i < p->text_len; i++) {
            char c = p->text[i];
            if (c == '\n' || c == '\r' || c == 0) ok = 0;
            else if (c == '/' && i + 1 < p->text_len && p->text[i + 1] == '/') ok = 0;
            else if (c == '"') {
                size_t q = i + 1;
                while (q < p->text_len && p->text[q] != '"' && p->text[q] != '\n' && p->text[q] != '\r' && p->text[q] != 0) q++;
                if (q >= p->text_len || p->text[q] != '"') ok = 0;
                i = q;
            }
        }
        if (ok && k != RELIC_TPM_TEXT && (n != p->count || memcmp(v, p->v, n * sizeof v[0]))) ok = 0;
        if (!ok) return bad(w, RELIC_E_ARGUMENT, path, "%s", "the value text does not read back as the property's kind and values");
        relic_buf_append(w->out, p->text, p->text_len);
    } else if (p->kind == RELIC_TPM_NUMBER || p->kind == RELIC_TPM_TUPLE) {
        /* a built property without text: its numbers */
        relic_status st;
        if (p->kind == RELIC_TPM_NUMBER ? p->count != 1 : (p->count < 2 || p->count > 4))
            return bad(w, RELIC_E_ARGUMENT, path, "%s", "a number takes 1 value, a tuple 2 to 4");
        if ((st = p->kind == RELIC_TPM_NUMBER ? put_float(w, p->v[0], path) : put_tuple(w, p->v, p->count, path)) != RELIC_OK) return st;
    } else {
        return bad(w, RELIC_E_ARGUMENT, path, "%s", "an empty value");
    }
    putc1(w->out, '\n');
    return RELIC_OK;
}

static relic_status write_geometry(writer *w, const relic_tpm_block *b, const char *path)
{
    relic_status st;
    if ((b->material_count && !b->materials) || (b->vertex_count && !b->vertices) || (b->texcoord_count && !b->texcoords) ||
        (b->normal_count && !b->normals) || (b->face_count && !b->faces) || (b->kind == RELIC_TPM_SKIN && b->vertex_count && !b->bones))
        return bad(w, RELIC_E_ARGUMENT, path, "%s", "a geometry array is NULL with a nonzero count");
    for (uint32_t i = 0; i < b->material_count; i++) {
        if (!b->materials[i] || !plain(b->materials[i], strlen(b->materials[i])))
            return bad(w, RELIC_E_ARGUMENT, path, "%s", "a material name holds '\"' or a line break");
        relic_buf_puts(w->out, " m = \"");
        relic_buf_puts(w->out, b->materials[i]);
        relic_buf_puts(w->out, "\"\n");
    }
    for (uint32_t i = 0; i < b->vertex_count; i++) {
        relic_buf_puts(w->out, " v = ");
        if ((st = put_tuple(w, b->vertices[i], 3, path)) != RELIC_OK) return st;
        if (b->kind == RELIC_TPM_SKIN) {
            putc1(w->out, ',');
            put_u32(w, b->bones[i]);
        }
        putc1(w->out, '\n');
    }
    for (uint32_t i = 0; i < b->texcoord_count; i++) {
        relic_buf_puts(w->out, " t = ");
        if ((st = put_tuple(w, b->texcoords[i], 2, path)) != RELIC_OK) return st;
        putc1(w->out, '\n');
    }
    for (uint32_t i = 0; i < b->normal_count; i++) {
        relic_buf_puts(w->out, " n = ");
        if ((st = put_tuple(w, b->normals[i], 3, path)) != RELIC_OK) return st;
        putc1(w->out, '\n');
    }
    for (uint32_t i = 0; i < b->face_count; i++) {
        const relic_tpm_face *f = &b->faces[i];
        const uint32_t *tri[3] = {f->v, f->t, f->n};
        relic_buf_puts(w->out, " f = ");
        for (int k = 0; k < 3; k++) {
            relic_buf_puts(w->out, k ? ",(" : "(");
            for (int j = 0; j < 3; j++) {
                if (j) putc1(w->out, ',');
                put_u32(w, tri[k][j]);
            }
            putc1(w->out, ')');
        }
        putc1(w->out, ',');
        put_u32(w, f->material);
        putc1(w->out, '\n');
    }
    return RELIC_OK;
}

relic_status relic_tpm_write(const relic_tpm_file *m, relic_buf *out, relic_error *err)
{
    writer w = {out, err, m, 0};
    relic_status st;
    char path[64];
    if (m->block_count && !m->blocks) return relic_fail(err, RELIC_E_ARGUMENT, 0, "blocks", "NULL with a nonzero count");
    if (m->comment_count && !m->comments) return relic_fail(err, RELIC_E_ARGUMENT, 0, "comments", "NULL with a nonzero count");
    /* comments must come in the order of their places */
    for (uint32_t i = 0; i < m->comment_count; i++) {
        const relic_tpm_comment *c = &m->comments[i];
        uint64_t key = ((uint64_t)c->block << 33) + (c->prop == RELIC_TPM_OUTSIDE ? 0 : (uint64_t)c->prop + 1);
        int fits = c->block < m->block_count ? (c->prop == RELIC_TPM_OUTSIDE || c->prop <= m->blocks[c->block].prop_count)
                                             : (c->block == m->block_count && c->prop == RELIC_TPM_OUTSIDE);
        snprintf(path, sizeof path, "comments[%u]", i);
        if (!fits) return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "block %u, property %u: no such place", c->block, c->prop);
        if (i) {
            const relic_tpm_comment *p = &m->comments[i - 1];
            uint64_t pk = ((uint64_t)p->block << 33) + (p->prop == RELIC_TPM_OUTSIDE ? 0 : (uint64_t)p->prop + 1);
            if (pk > key) return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "comments are not in the order of their places");
        }
    }
    int fileinfo = 0;
    for (uint32_t i = 0; i < m->block_count; i++) {
        const relic_tpm_block *b = &m->blocks[i];
        snprintf(path, sizeof path, "blocks[%u]", i);
        if ((st = comments_at(&w, i, RELIC_TPM_OUTSIDE, "")) != RELIC_OK) return st;
        if ((unsigned)b->kind > RELIC_TPM_BONE) return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "block kind %d", (int)b->kind);
        relic_buf_puts(out, relic_tpm_kind_name(b->kind));
        if (b->kind == RELIC_TPM_FILEINFO) {
            if (fileinfo++) return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "a second fileinfo block");
        } else {
            if ((!b->name && b->name_len) || !plain(b->name ? b->name : "", b->name_len))
                return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "the name holds '\"', a line break or NUL");
            relic_buf_puts(out, " \"");
            relic_buf_append(out, b->name ? b->name : "", b->name_len);
            putc1(out, '"');
        }
        relic_buf_puts(out, "\n{\n");
        if (b->prop_count && !b->props) return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "properties NULL with a nonzero count");
        for (uint32_t j = 0; j < b->prop_count; j++) {
            char pp[96];
            snprintf(pp, sizeof pp, "blocks[%u].props[%u]", i, j);
            if ((st = comments_at(&w, i, j, " ")) != RELIC_OK) return st;
            if ((st = write_prop(&w, b, &b->props[j], pp)) != RELIC_OK) return st;
        }
        if ((st = comments_at(&w, i, b->prop_count, " ")) != RELIC_OK) return st;
        if (b->kind == RELIC_TPM_MESH || b->kind == RELIC_TPM_SKIN) {
            if ((st = write_geometry(&w, b, path)) != RELIC_OK) return st;
        } else if (b->material_count || b->vertex_count || b->texcoord_count || b->normal_count || b->face_count) {
            return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "geometry in a %s block", relic_tpm_kind_name(b->kind));
        }
        relic_buf_puts(out, i + 1 < m->block_count ? "}\n\n" : "}\n");
    }
    if ((st = comments_at(&w, m->block_count, RELIC_TPM_OUTSIDE, "")) != RELIC_OK) return st;
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "cannot grow the output");
    return RELIC_OK;
}
