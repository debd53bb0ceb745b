/* gff_text.h — GFF text encodings shared by the JSON printer and reader
 * (not public): windows-1252 <-> Unicode and UTF-8 sequences. Source:
 * xoreos-tools, src/aurora/language.cpp; neverwinter.nim, util.nim (cp1252 for NWN1/KotOR, UTF-8 measured in NWN2). */
#ifndef RELIC_GFF_TEXT_H
#define RELIC_GFF_TEXT_H

#include <stddef.h>
#include <stdint.h>

/** Code point of windows-1252 byte b; the five bytes cp1252 leaves
 *  undefined (0x81 0x8D 0x8F 0x90 0x9D) keep their C1 value, so the
 *  mapping is one to one over all 256 bytes. */
uint32_t relic_cp1252_to_cp(uint8_t b);
/** The byte of code point cp in windows-1252 (same table): 1, or 0 when
 *  cp has none. */
int relic_cp_to_cp1252(uint32_t cp, uint8_t *out);
/** UTF-8 of cp1252 byte b: its length (1-3) and bytes in out. */
size_t relic_cp1252_utf8(uint8_t b, uint8_t out[3]);
/** One UTF-8 sequence at p (n >= 1 bytes left): its length (1-4) and
 *  code point, or 0 when it is not valid UTF-8 (overlong, surrogate, above
 *  U+10FFFF, truncated). */
size_t relic_utf8_next(const uint8_t *p, size_t n, uint32_t *cp);

#endif
