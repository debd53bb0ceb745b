/* tres_text.h — pieces shared by relic's readers and writers of Trespasser
 * terrain text (runtime/formats/tres/tri_lexer.re, runtime/formats/tres/trr_lexer.re): decimal numbers
 * independent of the locale's decimal point, the shortest
 * decimal text that reads back to the same double, and errors of the form
 * "FILE:LINE:COL: message" (LINE, COL 1-based, COL in bytes). Private to
 * the runtime. */
#ifndef RELIC_TRES_TEXT_H
#define RELIC_TRES_TEXT_H

#include "relic.h"

/** Where a token starts: 1-based line and byte column, and byte offset. */
typedef struct relic_text_pos {
    uint32_t line;
    uint32_t col;
    uint64_t offset;
} relic_text_pos;

/** The value of the decimal text s[0..end) — [+-] digits [. digits]
 *  [(e|E) [+-] digits], syntax already checked by the scanner — correctly
 *  rounded (strtod, whatever the locale's decimal point) for tokens of up
 *  to 127 bytes, within an ulp for longer ones; overflow gives ±HUGE_VAL
 *  (callers check isfinite). */
double relic_text_decimal(const uint8_t *s, const uint8_t *end);

/** The shortest of "%.15g", "%.16g", "%.17g" that reads back to v, into buf
 *  (at least 32 bytes); returns its length. Finite values only. */
size_t relic_text_double(double v, char *buf);

/** Fail with code, offset = p.offset and the message
 *  "FILE:LINE:COL: <fmt>" (file NULL: "<text>"). */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
relic_status
relic_text_fail(relic_error *err, const char *file, relic_text_pos p, relic_status code, const char *fmt,
                ...);

#endif
