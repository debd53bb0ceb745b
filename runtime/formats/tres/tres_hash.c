/* tres_hash.c — Trespasser's string hash and the sound-ID form of it
 * (Trespasser source, Lib/Std/Hash.cpp: standard CRC-32, bytes up to the NUL; Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp:
 * sound identifiers and sound-material names have '\' as '/' and ASCII
 * A-Z lower-cased first, so "MISSING" -> 0xF0A07BD9). zlib computes the
 * CRC. */
#include <zlib.h>

#include "relic_audio.h"

uint32_t relic_tres_hash(const char *s, size_t n)
{
    uLong c = crc32(0L, Z_NULL, 0);
    while (n > 0) {
        uInt k = n > 0x40000000u ? 0x40000000u : (uInt)n;
        c = crc32(c, (const Bytef *)s, k);
        s += k;
        n -= k;
    }
    return (uint32_t)c;
}

uint32_t relic_tres_sound_hash(const char *name, size_t n)
{
    uLong c = crc32(0L, Z_NULL, 0);
    Bytef chunk[256];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)name[i];
        if (ch == '\\') ch = '/';
        else if (ch >= 'A' && ch <= 'Z') ch = (unsigned char)(ch - 'A' + 'a');
        chunk[k++] = ch;
        if (k == sizeof chunk) {
            c = crc32(c, chunk, (uInt)k);
            k = 0;
        }
    }
    c = crc32(c, chunk, (uInt)k);
    return (uint32_t)c;
}
