/* wtd_bits.c — the WTD bit container: 32-bit little-endian words read from
 * their most significant bit down, i.e. logical byte k = file byte k XOR 3,
 * fields MSB-first (Trespasser source, Lib/Sys/BitBuffer.cpp; BitBuffer.hpp 154-380). The
 * reader is bounds-checked: a field that would pass the end is refused
 * before anything is read. Away from the end a field is cut out of the two
 * 32-bit words it lies in, in one step. */
#include "relic_wtd.h"

relic_status relic_wtd_bits_init(relic_wtd_bits *b, const uint8_t *data, size_t size, uint64_t pos,
                                 relic_error *err)
{
    b->data = data;
    b->size_bits = (uint64_t)size * 8;
    b->pos = pos;
    if (size % RELIC_WTD_WORD_BYTES != 0)
        return relic_fail(err, RELIC_E_LAYOUT, size, "file",
                          "file size %zu is not a multiple of %d: the WTD bit container holds whole 32-bit words",
                          size, RELIC_WTD_WORD_BYTES);
    return RELIC_OK;
}

relic_status relic_wtd_bits_read(relic_wtd_bits *b, unsigned n, uint32_t *out, const char *path,
                                 relic_error *err)
{
    if (n > 32) return relic_fail(err, RELIC_E_ARGUMENT, 0, path, "bit field width %u exceeds 32", n);
    if (b->pos > b->size_bits || n > b->size_bits - b->pos) {
        uint64_t at = b->pos < b->size_bits ? relic_wtd_file_offset(b->pos) : b->size_bits / 8;
        return relic_fail(err, RELIC_E_TRUNCATED, at, path,
                          "a %u-bit field at logical bit %llu passes the end of the file (%llu bits)", n,
                          (unsigned long long)b->pos, (unsigned long long)b->size_bits);
    }
    /* Fast path: the field lies within the two whole words at its word
     * index; each word is a little-endian uint32 whose MSB is read first. */
    const uint64_t word = b->pos >> 5;
    if (n > 0 && (word + 2) * 32 <= b->size_bits) {
        const uint8_t *p = b->data + word * RELIC_WTD_WORD_BYTES;
        const uint64_t pair = (uint64_t)relic_load_u32le(p) << 32 | relic_load_u32le(p + RELIC_WTD_WORD_BYTES);
        *out = (uint32_t)((pair << (b->pos & 31)) >> (64 - n));
        b->pos += n;
        return RELIC_OK;
    }
    uint64_t v = 0;
    uint64_t pos = b->pos;
    unsigned left = n;
    while (left > 0) {
        unsigned in_byte = 8 - (unsigned)(pos & 7);
        unsigned take = in_byte < left ? in_byte : left;
        uint8_t byte = b->data[relic_wtd_file_offset(pos)];
        uint8_t bits = (uint8_t)((byte >> (in_byte - take)) & ((1u << take) - 1));
        v = (v << take) | bits;
        pos += take;
        left -= take;
    }
    b->pos = pos;
    *out = (uint32_t)v;
    return RELIC_OK;
}
