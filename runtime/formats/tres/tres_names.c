/* tres_names.c — names derived from Trespasser's string hash: instance
 * handles and SCN section names, texture IDs, mip-level PID keys
 * (Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp). The CRC-32 is zlib's (Trespasser source, Lib/Std/Hash.cpp: identical). */
#include <zlib.h>

#include "relic_audio.h"
#include "relic_tres_names.h"

#define KEY_WIDTH_SHIFT 32
#define KEY_HEIGHT_SHIFT 42
#define KEY_PALETTE_SHIFT 52
#define KEY_DIM_MASK 0x3FFu

uint32_t relic_tres_object_hash(const char *name, size_t n) { return relic_tres_hash(name, n); }

size_t relic_tres_section_name(uint32_t handle, char out[9])
{
    int k = snprintf(out, 9, "%X", (unsigned)handle);
    return k > 0 ? (size_t)k : 0;
}

int relic_tres_parse_section_name(const char *name, size_t n, uint32_t *handle)
{
    if (n == 0 || n > 8 || (name[0] == '0' && n > 1)) return 0;
    uint32_t v = 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        unsigned d;
        if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
        else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
        else return 0;
        v = v << 4 | d;
    }
    *handle = v;
    return 1;
}

/* feed bytes through the texture-path normalisation */
static uLong crc_normalised(uLong c, const char *s, size_t n)
{
    Bytef chunk[256];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '\\') ch = '/';
        else if (ch >= 'A' && ch <= 'Z') ch = (unsigned char)(ch - 'A' + 'a');
        chunk[k++] = ch;
        if (k == sizeof chunk) {
            c = crc32(c, chunk, (uInt)k);
            k = 0;
        }
    }
    return crc32(c, chunk, (uInt)k);
}

uint32_t relic_tres_texture_id(const char *texture, size_t tn, const char *bump, size_t bn, float diffuse)
{
    uLong c = crc32(0L, Z_NULL, 0);
    c = crc_normalised(c, texture, tn);
    if (bump && bn) c = crc_normalised(c, bump, bn);
    uint8_t d[4];
    relic_store_f32le(d, diffuse);
    c = crc32(c, d, 4);
    return (uint32_t)c;
}

uint32_t relic_tres_palette_fold(uint32_t p)
{
    p ^= p >> 15;
    p &= 0xFFFFu;
    p ^= p >> 8;
    return p & 0xFFFu;
}

uint64_t relic_tres_mip_key(uint32_t texture_id, uint32_t width, uint32_t height, uint32_t palette_hash)
{
    return (uint64_t)texture_id | (uint64_t)(width & KEY_DIM_MASK) << KEY_WIDTH_SHIFT |
        (uint64_t)(height & KEY_DIM_MASK) << KEY_HEIGHT_SHIFT |
        (uint64_t)relic_tres_palette_fold(palette_hash) << KEY_PALETTE_SHIFT;
}
