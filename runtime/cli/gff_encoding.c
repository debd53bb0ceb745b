/* gff_encoding.c — the one text encoding of the GFF commands (get, set,
 * dump, diff): chosen the same way everywhere (--encoding cp1252|utf8,
 * else auto: relic_gff_detect_encoding), and text shown as UTF-8 so that
 * `relic set F P "$(relic get F P)"` stores the very bytes it read.
 * CExoString and locstring text is in the file's encoding (windows-1252
 * for NWN1 and KotOR, UTF-8 for NWN2: BioWare, *Aurora engine
 * specifications*, GFF §4; measured on NWN2 files); ResRefs are always
 * windows-1252, as in the JSON form. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "gff_cli.h"
#include "gff_text.h"

int cli_gff_encoding(const char *name, const relic_gff_doc *d, relic_gff_encoding *out)
{
    *out = RELIC_GFF_ENC_AUTO;
    if (name && !relic_gff_encoding_from_name(name, out)) return -1;
    if (*out == RELIC_GFF_ENC_AUTO && d) *out = relic_gff_detect_encoding(d);
    return 0;
}

void cli_gff_put_text(FILE *f, const uint8_t *p, size_t n, relic_gff_encoding enc)
{
    /* on a terminal, control bytes other than newline and tab are escaped: a
     * value from the file must not drive the terminal (pipes get the text) */
    int tty = isatty(fileno(f));
    for (size_t i = 0; i < n;) {
        uint8_t u[3];
        uint32_t cp;
        size_t step;
        if (tty && ((p[i] < 0x20 && p[i] != '\n' && p[i] != '\t') || p[i] == 0x7F)) {
            fprintf(f, "\\x%02x", p[i++]);
        } else if (p[i] < 0x80) {
            fputc(p[i++], f);
        } else if (enc != RELIC_GFF_ENC_UTF8) {
            fwrite(u, 1, relic_cp1252_utf8(p[i++], u), f);
        } else if ((step = relic_utf8_next(p + i, n - i, &cp)) != 0) {
            fwrite(p + i, 1, step, f);
            i += step;
        } else {
            /* not UTF-8 in a file read as UTF-8 (--encoding utf8): its cp1252 reading */
            fwrite(u, 1, relic_cp1252_utf8(p[i++], u), f);
        }
    }
}

uint8_t *cli_gff_encode_text(const char *value, relic_gff_encoding enc, relic_arena *a, size_t *n, const char *cmd,
                             const char *label)
{
    const uint8_t *p = (const uint8_t *)value;
    size_t len = strlen(value), k = 0;
    uint8_t *out = relic_arena_alloc(a, len + 1, 1);
    if (!out) return NULL;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t step = relic_utf8_next(p + i, len - i, &cp);
        if (!step) {
            fprintf(stderr, "relic %s: %s: the value is not valid UTF-8\n", cmd, label);
            return NULL;
        }
        if (enc == RELIC_GFF_ENC_UTF8) memcpy(out + k, p + i, step), k += step;
        else if (!relic_cp_to_cp1252(cp, out + k++)) {
            fprintf(stderr, "relic %s: %s: U+%04X has no windows-1252 byte (use --encoding utf8 for NWN2 text)\n", cmd,
                    label, (unsigned)cp);
            return NULL;
        }
        i += step;
    }
    *n = k;
    return out;
}
