/* gff_text.c — GFF text encodings (runtime/formats/aurora/gff_text.h): windows-1252 to
 * Unicode and back, and UTF-8 sequences, for the nwn_gff JSON form
 * (xoreos-tools, src/aurora/language.cpp, src/xml/gff3dumper.cpp; neverwinter.nim, util.nim, gffjson.nim: text converted between the game's code page
 * and UTF-8). */
#include "gff_text.h"

/* Code points of bytes 0x80-0x9F; the five undefined ones keep their C1
 * value, so every byte has a code point and the mapping is one to one. */
/* clang-format off */
static const uint16_t cp1252_high[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D,
    0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
    0x0153, 0x009D, 0x017E, 0x0178,
};
/* clang-format on */

uint32_t relic_cp1252_to_cp(uint8_t b)
{
    return b >= 0x80 && b < 0xA0 ? cp1252_high[b - 0x80] : b;
}

int relic_cp_to_cp1252(uint32_t cp, uint8_t *out)
{
    if (cp < 0x80 || (cp >= 0xA0 && cp <= 0xFF)) {
        *out = (uint8_t)cp;
        return 1;
    }
    for (int i = 0; i < 32; i++)
        if (cp1252_high[i] == cp) {
            *out = (uint8_t)(0x80 + i);
            return 1;
        }
    return 0;
}

size_t relic_cp1252_utf8(uint8_t b, uint8_t out[3])
{
    uint32_t cp = relic_cp1252_to_cp(b);
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xC0 | (cp >> 6));
        out[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    out[0] = (uint8_t)(0xE0 | (cp >> 12));
    out[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (uint8_t)(0x80 | (cp & 0x3F));
    return 3;
}

size_t relic_utf8_next(const uint8_t *p, size_t n, uint32_t *cp)
{
    uint8_t c = p[0];
    size_t len;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if ((c & 0xE0) == 0xC0) {
        len = 2;
        v = c & 0x1F;
        min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3;
        v = c & 0x0F;
        min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4;
        v = c & 0x07;
        min = 0x10000;
    } else return 0;
    if (len > n) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        v = (v << 6) | (p[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    *cp = v;
    return len;
}
