/* error.c — relic_error: status names, filling an error, printing it.
 *
 * Implements the "Status and errors" section of relic.h (DESIGN.md,
 * "Runtime" and "Safety contract": every rejection names the field and the
 * byte offset). The printed form is the `relic check` line:
 *
 *     FILE: path @0xOFFSET: message
 *
 * Both text fields of relic_error are fixed-size; anything longer is cut at
 * the last byte that fits and always NUL-terminated. relic_fail may be given
 * text that lives inside the very error it fills (re-wrapping a lower-level
 * error: relic_fail(err, err->code, err->offset, err->path, "in X: %s",
 * err->message)), so both fields are built in local buffers first. */
#include "relic.h"
#include "relic_gen.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The names in relic_status order, NUL-separated: one string walked to the
 * s-th name costs an embedded reader a third of a switch of returns. */
static const char status_names[] = "ok\0truncated\0bad magic\0out of range\0bad index\0bad layout\0"
                                   "limit exceeded\0out of memory\0i/o error\0syntax error\0unsupported\0"
                                   "bad argument";

const char *relic_status_name(relic_status s)
{
    const char *p = status_names;
    if ((unsigned)s > (unsigned)RELIC_E_ARGUMENT)
        return "unknown status";
    for (unsigned i = (unsigned)s; i != 0; i--)
        p += strlen(p) + 1;
    return p;
}

/* Copy at most cap-1 bytes of src into dst and terminate; src may overlap dst. */
static void copy_truncated(char *dst, size_t cap, const char *src)
{
    size_t len = 0;
    while (len + 1 < cap && src[len] != '\0')
        len++;
    memmove(dst, src, len);
    dst[len] = '\0';
}

relic_status relic_fail_code(relic_error *err, relic_status code, uint64_t offset)
{
    if (err == NULL)
        return code;
    err->code = code;
    err->offset = offset;
    err->path[0] = '\0';
    err->message[0] = '\0';
    return code;
}

relic_status relic_vfail(relic_error *err, relic_status code, uint64_t offset,
                         const char *path, const char *fmt, va_list ap)
{
    char message[RELIC_ERROR_MESSAGE_MAX];
    char field[RELIC_ERROR_PATH_MAX];

    if (err == NULL)
        return code;

    message[0] = '\0';
    /* vsnprintf truncates and terminates; a negative return (encoding
     * error) leaves the buffer unspecified, so reset it then. */
    if (fmt != NULL && vsnprintf(message, sizeof message, fmt, ap) < 0)
        message[0] = '\0';
    copy_truncated(field, sizeof field, path != NULL ? path : "");

    err->code = code;
    err->offset = offset;
    memcpy(err->path, field, sizeof field);
    memcpy(err->message, message, sizeof message);
    return code;
}

/* (relic_fail): under RELIC_NO_ERRMSG relic_fail is a macro (relic.h); the
 * function stays, for callers built without it. */
relic_status(relic_fail)(relic_error *err, relic_status code, uint64_t offset,
                         const char *path, const char *fmt, ...)
{
    va_list ap;
    relic_status st;

    va_start(ap, fmt);
    st = relic_vfail(err, code, offset, path, fmt, ap);
    va_end(ap);
    return st;
}

void relic_error_clear(relic_error *err)
{
    if (err == NULL)
        return;
    err->code = RELIC_OK;
    err->offset = 0;
    err->path[0] = '\0';
    err->message[0] = '\0';
}

/* prefix, then v in lower-case hexadecimal, at least `digits` digits: the
 * offset as printf's PRIx64 writes it and the \\xNN escapes, without a
 * printf-family call (an embedded reader's size, issue 15). */
static void put_hex(FILE *out, const char *prefix, uint64_t v, int digits)
{
    char text[17];
    char *p = text + sizeof text - 1;
    *p = '\0';
    do {
        *--p = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (--digits > 0 || v != 0);
    fputs(prefix, out);
    fputs(p, out);
}

/* s (at most max bytes) with control bytes and DEL as \\xNN: a field path
 * or message may quote a name from the file, and the file must not drive
 * the terminal the error is printed on. */
static void put_escaped(FILE *out, const char *s, size_t max)
{
    for (size_t i = 0; i < max && s[i] != '\0'; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7F)
            put_hex(out, "\\x", c, 2);
        else
            fputc(c, out);
    }
}

void relic_error_print(FILE *out, const char *file, const relic_error *err)
{
    const char *message;

    if (out == NULL)
        return;
    if (file == NULL)
        file = "-";
    put_escaped(out, file, SIZE_MAX);
    if (err == NULL) {
        fputs(": @0x0: no error details\n", out);
        return;
    }
    /* An error filled without a message still says what kind it was. The
     * limits keep a hand-filled, unterminated field inside its array. */
    message = err->message[0] != '\0' ? err->message : relic_status_name(err->code);
    fputs(": ", out);
    if (err->path[0] != '\0') {
        put_escaped(out, err->path, RELIC_ERROR_PATH_MAX);
        fputc(' ', out);
    }
    put_hex(out, "@0x", err->offset, 1);
    fputs(": ", out);
    put_escaped(out, message, RELIC_ERROR_MESSAGE_MAX);
    fputc('\n', out);
}

static void problem_report(relic_problems *p, relic_status code, uint64_t offset, const char *path,
                           const char *fmt, va_list ap)
{
    p->count++;
    if (!p->report || (p->max_reports && p->count > p->max_reports)) return;
    relic_error e;
    memset(&e, 0, sizeof e);
    e.code = code;
    e.offset = offset;
    if (path) snprintf(e.path, sizeof e.path, "%s", path);
    vsnprintf(e.message, sizeof e.message, fmt, ap);
    p->report(p->ctx, &e);
}

void relic_problem(relic_problems *p, relic_status code, uint64_t offset, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    problem_report(p, code, offset, path, fmt, ap);
    va_end(ap);
}

void relic_problem_at(relic_problems *p, relic_status code, uint64_t offset, const char *prefix, const char *field,
                      const char *fmt, ...)
{
    char path[RELIC_ERROR_PATH_MAX];
    snprintf(path, sizeof path, "%s.%s", prefix, field);
    va_list ap;
    va_start(ap, fmt);
    problem_report(p, code, offset, path, fmt, ap);
    va_end(ap);
}
