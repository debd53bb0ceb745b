/* detect.c — which format a file holds: its magic first, then its name.
 *
 * Implements "Format detection" of relic.h (DESIGN.md "Runtime":
 * relic_detect, format from magic and extension). Content wins over the
 * name, so a walkmesh saved as "x.json" is still read as BWM. Magics:
 *  - BWM: the 8-byte "BWM V1.0" header (seed 002, Binary format; the
 *    `magic` field of schema/kotor/bwm.schema);
 *  - JSON: relic's JSON forms are objects, so the first byte after any
 *    UTF-8 byte-order mark and JSON whitespace (RFC 8259 §2) is '{'.
 * Extensions, compared case-insensitively: wok pwk dwk (BWM), json, obj,
 * svg. */
#include "relic.h"

/* A format-subset build (make FORMATS="bwm gff", README "Embedding")
 * defines RELIC_FORMATS_SUBSET and RELIC_WITH_<FAMILY> for what it holds;
 * detection then knows only those. Without it every format is in. */
#ifndef RELIC_FORMATS_SUBSET
#define RELIC_WITH_BWM 1
#define RELIC_WITH_GFF 1
#define RELIC_WITH_ERF 1
#define RELIC_WITH_TRN 1
#define RELIC_WITH_TRES 1
#endif
#if RELIC_WITH_BWM
#include "bwm.h"
#endif
#if RELIC_WITH_GFF
#include "gff.h"
#endif
#if RELIC_WITH_ERF
#include "relic_erf.h"
#endif
#if RELIC_WITH_TRN
#include "trn.h"
#endif
#if RELIC_WITH_TRES
#include "relic_audio.h"
#include "relic_groff.h"
#include "relic_wtd.h"
#endif

static const uint8_t utf8_bom[] = {0xEF, 0xBB, 0xBF};

/* Longest extension relic_detect has to recognise, plus one so that a
 * longer one ("jsonx") is not cut down to a known one. */
#define DETECT_EXTENSION_BUF 8

static int is_json_space(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static relic_format detect_by_magic(const uint8_t *data, size_t size)
{
    size_t i = 0;

#if RELIC_WITH_BWM
    if (size >= RELIC_BWM_HEADER_MAGIC_LEN && memcmp(data, RELIC_BWM_HEADER_MAGIC_VALUE, RELIC_BWM_HEADER_MAGIC_LEN) == 0)
        return RELIC_FORMAT_BWM;
#endif

#if RELIC_WITH_TRES
    /* Trespasser audio (spec/trespasser.md §4.1, §4.3): a CAU starts with
     * "WBOR"; a TPA with version 0x150 and the identifier table at 24. */
    if (size >= RELIC_CAU_SAMPLE_HEADER_MAGIC_LEN && memcmp(data, RELIC_CAU_SAMPLE_HEADER_MAGIC_VALUE, RELIC_CAU_SAMPLE_HEADER_MAGIC_LEN) == 0)
        return RELIC_FORMAT_CAU;
    if (size >= RELIC_TPA_HEADER_SIZE && relic_load_u32le(data) == RELIC_AUDIO_TPA_VERSION &&
        relic_load_u32le(data + RELIC_TPA_HEADER_ID_TABLE_OFFSET_OFFSET) == RELIC_TPA_HEADER_SIZE)
        return RELIC_FORMAT_TPA;
    /* Trespasser levels and textures (spec/trespasser.md §5.1, §5.5, §3.2):
     * GROFF starts with 0x0ACEBABE; a PID with version 0x130 and bump depth
     * 16; an SZDD-compressed GROFF is recognised by its name (below). */
    if (size >= 4 && relic_load_u32le(data) == RELIC_GROFF_MAGIC)
        return RELIC_FORMAT_GROFF;
    if (size >= RELIC_PID_HEADER_SIZE && relic_load_u32le(data) == RELIC_PID_VERSION &&
        relic_load_u32le(data + RELIC_PID_HEADER_BUMP_DEPTH_OFFSET) == RELIC_PID_BUMP_DEPTH)
        return RELIC_FORMAT_PID;
#endif
#if RELIC_WITH_TRN
    /* NWN2 packet file (spec/aurora.md §1.1): "NWN2", version words 2 and 3
     * (an MDB model shares the magic with other version words). */
    if (size >= RELIC_TRN_HEADER_SIZE && memcmp(data, RELIC_TRN_HEADER_MAGIC_VALUE, RELIC_TRN_HEADER_MAGIC_LEN) == 0 &&
        relic_load_u16le(data + 4) == 2 && relic_load_u16le(data + 6) == 3)
        return RELIC_FORMAT_TRN;
#endif
#if RELIC_WITH_TRES
    /* Trespasser WTD terrain (spec/trespasser.md §1.2-1.4): version 1001 and a
     * square power-of-two quad size in the XOR-3 word container. */
    if (relic_wtd_detect(data, size))
        return RELIC_FORMAT_WTD;
#endif
    if (size >= 12 && memcmp(data, "RIFF", 4) == 0 && memcmp(data + 8, "WAVE", 4) == 0)
        return RELIC_FORMAT_WAV;
#if RELIC_WITH_ERF
    /* BioWare ERF/RIM containers (spec/aurora.md §5.1): "MOD V1.0", "RIM V1.0", ... */
    if (relic_erf_detect(data, size))
        return RELIC_FORMAT_ERF;
#endif
#if RELIC_WITH_GFF
    /* BioWare GFF (spec/aurora.md §4.1): a 4-character type, then "V3.2" */
    if (size >= RELIC_GFF_HEADER_SIZE &&
        memcmp(data + RELIC_GFF_HEADER_FILE_VERSION_OFFSET, RELIC_GFF_HEADER_FILE_VERSION_VALUE, RELIC_GFF_HEADER_FILE_VERSION_LEN) == 0)
        return RELIC_FORMAT_GFF;
#endif

    if (size >= sizeof utf8_bom && memcmp(data, utf8_bom, sizeof utf8_bom) == 0)
        i = sizeof utf8_bom;
    while (i < size && is_json_space(data[i]))
        i++;
    if (i < size && data[i] == '{')
        return RELIC_FORMAT_JSON;
    return RELIC_FORMAT_UNKNOWN;
}

relic_format relic_detect(const uint8_t *data, size_t size, const char *name)
{
    static const struct {
        const char *ext;
        relic_format format;
    } by_extension[] = {
#if RELIC_WITH_BWM
        {"wok", RELIC_FORMAT_BWM},  {"pwk", RELIC_FORMAT_BWM}, {"dwk", RELIC_FORMAT_BWM},
#endif
        {"json", RELIC_FORMAT_JSON}, {"obj", RELIC_FORMAT_OBJ}, {"svg", RELIC_FORMAT_SVG},
#if RELIC_WITH_TRES
        {"grf", RELIC_FORMAT_GROFF}, {"scn", RELIC_FORMAT_GROFF}, {"pid", RELIC_FORMAT_PID},
        {"spz", RELIC_FORMAT_SPZ}, {"swp", RELIC_FORMAT_SPZ}, {"gr_", RELIC_FORMAT_GROFF}, {"sc_", RELIC_FORMAT_GROFF},
        {"tpa", RELIC_FORMAT_TPA}, {"cau", RELIC_FORMAT_CAU}, {"wav", RELIC_FORMAT_WAV},
        {"wtd", RELIC_FORMAT_WTD}, {"tri", RELIC_FORMAT_TRI}, {"trr", RELIC_FORMAT_TRR}, {"tpm", RELIC_FORMAT_TPM},
#endif
#if RELIC_WITH_TRN
        {"trn", RELIC_FORMAT_TRN}, {"trx", RELIC_FORMAT_TRN},
#endif
#if RELIC_WITH_ERF
        {"erf", RELIC_FORMAT_ERF}, {"mod", RELIC_FORMAT_ERF}, {"hak", RELIC_FORMAT_ERF}, {"sav", RELIC_FORMAT_ERF},
        {"nwm", RELIC_FORMAT_ERF}, {"rim", RELIC_FORMAT_ERF},
#endif
#if RELIC_WITH_GFF
        {"gff", RELIC_FORMAT_GFF}, {"are", RELIC_FORMAT_GFF}, {"git", RELIC_FORMAT_GFF}, {"gic", RELIC_FORMAT_GFF},
        {"ifo", RELIC_FORMAT_GFF}, {"bic", RELIC_FORMAT_GFF}, {"utc", RELIC_FORMAT_GFF}, {"dlg", RELIC_FORMAT_GFF},
#endif
    };
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
    for (i = 0; i < sizeof by_extension / sizeof by_extension[0]; i++)
        if (strcmp(ext, by_extension[i].ext) == 0)
            return by_extension[i].format;
    return RELIC_FORMAT_UNKNOWN;
}

const char *relic_format_name(relic_format f)
{
    switch (f) {
    case RELIC_FORMAT_UNKNOWN: return "unknown";
    case RELIC_FORMAT_BWM:     return "bwm";
    case RELIC_FORMAT_JSON:    return "json";
    case RELIC_FORMAT_OBJ:     return "obj";
    case RELIC_FORMAT_SVG:     return "svg";
    case RELIC_FORMAT_TPA:     return "tpa";
    case RELIC_FORMAT_CAU:     return "cau";
    case RELIC_FORMAT_WAV:     return "wav";
    case RELIC_FORMAT_GROFF:   return "groff";
    case RELIC_FORMAT_PID:     return "pid";
    case RELIC_FORMAT_SPZ:     return "spz";
    case RELIC_FORMAT_GFF:     return "gff";
    case RELIC_FORMAT_TRN:     return "trn";
    case RELIC_FORMAT_WTD:     return "wtd";
    case RELIC_FORMAT_TRI:     return "tri";
    case RELIC_FORMAT_TRR:     return "trr";
    case RELIC_FORMAT_TPM:     return "tpm";
    case RELIC_FORMAT_ERF:     return "erf";
    }
    return "unknown";
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
