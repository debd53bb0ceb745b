/* tres_text.c — decimal numbers, shortest double text and positioned
 * errors for the Trespasser terrain text formats (see tres_text.h;
 * Trespasser source, Lib/GeomDBase/TerrainLoad.cpp). Numbers go through strtod with the locale's
 * decimal point swapped in, so they are correctly rounded whatever the
 * locale; only tokens too long for its buffer are converted here, within
 * an ulp. */
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "tres_text.h"

#define EXACT_POW10 22
#define EXACT_DIGITS 19
#define EXPONENT_CAP 100000 /* saturates far beyond any double */

/* clang-format off */
static const double pow10_exact[EXACT_POW10 + 1] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};
/* clang-format on */

/* Longest token handed to strtod; longer ones (hundreds of digits) take the
 * approximate path below. */
#define STRTOD_MAX 127

double relic_text_decimal(const uint8_t *s, const uint8_t *end)
{
    /* Exact: the C library's correctly rounded strtod, with the '.' of the
     * text replaced by the current locale's decimal point. */
    const size_t len = (size_t)(end - s);
    if (len <= STRTOD_MAX) {
        char buf[STRTOD_MAX + 1];
        const char point = localeconv()->decimal_point[0];
        for (size_t i = 0; i < len; i++) buf[i] = s[i] == '.' ? point : (char)s[i];
        buf[len] = 0;
        return strtod(buf, NULL);
    }
    int negative = 0;
    if (s < end && (*s == '+' || *s == '-')) negative = *s++ == '-';
    uint64_t mant = 0;
    int digits = 0;
    long scale = 0; /* value = mant x 10^scale */
    int seen_point = 0;
    for (; s < end && ((*s >= '0' && *s <= '9') || *s == '.'); s++) {
        if (*s == '.') {
            seen_point = 1;
            continue;
        }
        if (digits < EXACT_DIGITS) {
            if (mant || *s != '0') digits++;
            mant = mant * 10 + (uint64_t)(*s - '0');
            if (seen_point) scale--;
        } else if (!seen_point) {
            scale++; /* a dropped integer digit */
        }
    }
    if (s < end && (*s == 'e' || *s == 'E')) {
        s++;
        int eneg = 0;
        if (s < end && (*s == '+' || *s == '-')) eneg = *s++ == '-';
        long e = 0;
        for (; s < end && *s >= '0' && *s <= '9'; s++)
            if (e < EXPONENT_CAP) e = e * 10 + (*s - '0');
        scale += eneg ? -e : e;
    }
    double v = (double)mant;
    if (mant == 0) {
        v = 0;
    } else if (scale >= 0 && scale <= EXACT_POW10 && mant < ((uint64_t)1 << 53)) {
        v *= pow10_exact[scale];
    } else if (scale < 0 && -scale <= EXACT_POW10 && mant < ((uint64_t)1 << 53)) {
        v /= pow10_exact[-scale];
    } else {
        v *= pow(10.0, (double)scale);
    }
    return negative ? -v : v;
}

size_t relic_text_double(double v, char *buf)
{
    if (v == 0) v = 0; /* no "-0" */
    for (int prec = 15; prec <= 17; prec++) {
        int len = snprintf(buf, 32, "%.*g", prec, v);
        const char point = localeconv()->decimal_point[0];
        for (int i = 0; i < len; i++)
            if (buf[i] == point) buf[i] = '.';
        if (prec == 17 || relic_text_decimal((const uint8_t *)buf, (const uint8_t *)buf + len) == v) return (size_t)len;
    }
    return 0; /* not reached */
}

relic_status relic_text_fail(relic_error *err, const char *file, relic_text_pos p, relic_status code, const char *fmt,
                             ...)
{
    char what[RELIC_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return relic_fail(err, code, p.offset, NULL, "%s:%u:%u: %s", file ? file : "<text>", p.line, p.col, what);
}
