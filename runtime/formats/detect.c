/* detect.c — which format a file holds: its magic first, then its name.
 *
 * Implements "Format detection" of relic.h (DESIGN.md "Runtime":
 * relic_detect, format from magic and extension). Content wins over the
 * name, so a walkmesh saved as "x.json" is still read as BWM. The game
 * formats come from relic_formats[], generated from the `detect` lines of
 * the schemas (magic: the constant header fields, e.g. "BWM V1.0" of the
 * KotOR BWM header, PyKotor wiki, *KotOR BWM file format*). This file adds
 * only what no schema describes: the inputs relic converts from or to
 * (JSON: an object, so the first byte after any UTF-8 byte-order mark and
 * JSON whitespace, RFC 8259 §2, is '{'; WAV: "RIFF" and "WAVE"; OBJ; SVG)
 * and the Trespasser text and swap formats, known by extension. */
#include "relic.h"

/* A format-subset build (make FORMATS="bwm gff", README "Embedding")
 * defines RELIC_FORMATS_SUBSET and RELIC_WITH_<FORMAT> for what it holds. */
#if !defined(RELIC_FORMATS_SUBSET) || RELIC_WITH_TRES
#include "relic_swp.h"
#include "relic_tpm.h"
#include "relic_tri.h"
#include "relic_trr.h"
#define DETECT_TRES_TEXT 1
#endif
#if !defined(RELIC_FORMATS_SUBSET) || RELIC_WITH_GROFF
#include "groff.h"
#define DETECT_GROFF 1
#endif
#if !defined(RELIC_FORMATS_SUBSET) || RELIC_WITH_ERF
#include "erf.h"
#define DETECT_ERF 1
#endif

static const char *const json_extensions[] = {"json", NULL};
static const char *const obj_extensions[] = {"obj", NULL};
static const char *const svg_extensions[] = {"svg", NULL};
static const char *const wav_extensions[] = {"wav", NULL};
static const relic_magic wav_magic[] = {{0, 4, "RIFF"}, {8, 4, "WAVE"}};
const relic_format_info relic_format_json = {"json", "relic's JSON form of a binary format", json_extensions, NULL, 0, NULL};
const relic_format_info relic_format_obj = {"obj", "Wavefront OBJ text mesh", obj_extensions, NULL, 0, NULL};
const relic_format_info relic_format_svg = {"svg", "SVG picture (output only)", svg_extensions, NULL, 0, NULL};
const relic_format_info relic_format_wav = {"wav", "RIFF WAVE sound", wav_extensions, wav_magic, 2, NULL};

#ifdef DETECT_TRES_TEXT
/* Trespasser formats without a fixed header (Andres, PenguiN42, TSOrd,
 * machf, *Trespasser file formats*): an LZSS stream and text files. */
static const char *const spz_extensions[] = {"spz", "swp", NULL};
static const char *const tri_extensions[] = {"tri", NULL};
static const char *const trr_extensions[] = {"trr", NULL};
static const char *const tpm_extensions[] = {"tpm", NULL};
const relic_format_info relic_format_spz = {"spz", "Trespasser texture swap file, LZSS-compressed (.spz) or raw (.swp)", spz_extensions, NULL, 0, NULL};
const relic_format_info relic_format_tri = {"tri", "Trespasser terrain triangulation text", tri_extensions, NULL, 0, NULL};
const relic_format_info relic_format_trr = {"trr", "Trespasser terrain point-cloud text", trr_extensions, NULL, 0, NULL};
const relic_format_info relic_format_tpm = {"tpm", "Trespasser Models text", tpm_extensions, NULL, 0, NULL};
#endif

/* Formats found by extension only, after relic_formats[], and names that
 * belong to a schema's format but not to its `extensions` line: an
 * SZDD-compressed GROFF (.gr_ .sc_) and a RIM, read by the ERF code. */
static const struct {
    const char *ext;
    relic_format format;
} extra_extensions[] = {
    {"json", &relic_format_json},
    {"obj", &relic_format_obj},
    {"svg", &relic_format_svg},
    {"wav", &relic_format_wav},
#ifdef DETECT_TRES_TEXT
    {"spz", &relic_format_spz},
    {"swp", &relic_format_spz},
    {"tri", &relic_format_tri},
    {"trr", &relic_format_trr},
    {"tpm", &relic_format_tpm},
#endif
#ifdef DETECT_GROFF
    {"gr_", RELIC_FORMAT_GROFF},
    {"sc_", RELIC_FORMAT_GROFF},
#endif
#ifdef DETECT_ERF
    {"rim", RELIC_FORMAT_ERF},
#endif
};

static const uint8_t utf8_bom[] = {0xEF, 0xBB, 0xBF};

/* Longest extension relic_detect has to recognise, plus one so that a
 * longer one ("jsonx") is not cut down to a known one. */
#define DETECT_EXTENSION_BUF 8

static int is_json_space(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int relic_format_match(relic_format f, const uint8_t *data, size_t size)
{
    size_t k;

    if (f == NULL || data == NULL)
        return 0;
    if (f->detect != NULL)
        return f->detect(data, size);
    if (f->magic_count == 0)
        return 0;
    for (k = 0; k < f->magic_count; k++) {
        const relic_magic *m = &f->magic[k];
        if (size < m->offset || size - m->offset < m->size || memcmp(data + m->offset, m->bytes, m->size) != 0)
            return 0;
    }
    return 1;
}

static relic_format detect_by_magic(const uint8_t *data, size_t size)
{
    size_t i = 0;

    for (const relic_format_info *const *f = relic_formats; *f != NULL; f++)
        if (relic_format_match(*f, data, size))
            return *f;
    if (relic_format_match(&relic_format_wav, data, size))
        return &relic_format_wav;

    if (size >= sizeof utf8_bom && memcmp(data, utf8_bom, sizeof utf8_bom) == 0)
        i = sizeof utf8_bom;
    while (i < size && is_json_space(data[i]))
        i++;
    if (i < size && data[i] == '{')
        return &relic_format_json;
    return RELIC_FORMAT_UNKNOWN;
}

relic_format relic_detect(const uint8_t *data, size_t size, const char *name)
{
    char ext[DETECT_EXTENSION_BUF];
    size_t i;

    if (data != NULL) {
        relic_format f = detect_by_magic(data, size);
        if (f != RELIC_FORMAT_UNKNOWN)
            return f;
    }
    if (name == NULL)
        return RELIC_FORMAT_UNKNOWN;
    relic_path_extension(name, ext, sizeof ext);
    if (ext[0] == '\0')
        return RELIC_FORMAT_UNKNOWN;
    for (const relic_format_info *const *f = relic_formats; *f != NULL; f++)
        for (const char *const *e = (*f)->extensions; e != NULL && *e != NULL; e++)
            if (strcmp(ext, *e) == 0)
                return *f;
    for (i = 0; i < sizeof extra_extensions / sizeof extra_extensions[0]; i++)
        if (strcmp(ext, extra_extensions[i].ext) == 0)
            return extra_extensions[i].format;
    return RELIC_FORMAT_UNKNOWN;
}

const char *relic_format_name(relic_format f)
{
    return f != NULL ? f->name : "unknown";
}

/* The extension is what follows the last '.' of the last path component,
 * unless that dot starts the component (".profile" has none). One that does
 * not fit in buf is reported as "" rather than cut short, so "x.wokbak" can
 * never pass for "wok". */
const char *relic_path_extension(const char *path, char *buf, size_t n)
{
    const char *base, *dot, *p;
    size_t len, i;

    if (buf == NULL || n == 0)
        return buf;
    buf[0] = '\0';
    if (path == NULL)
        return buf;

    base = path;
    for (p = path; *p != '\0'; p++)
        if (*p == '/')
            base = p + 1;
    dot = strrchr(base, '.');
    if (dot == NULL || dot == base)
        return buf;

    len = strlen(dot + 1);
    if (len >= n)
        return buf;
    for (i = 0; i < len; i++) {
        char c = dot[1 + i];
        buf[i] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
    }
    buf[len] = '\0';
    return buf;
}
