/* relic_tlk.h — BioWare talk tables, TLK V3.0 (NWN1, NWN2, KotOR I/II
 * dialog.tlk): the hand-written half.
 *
 * The header, the string data table and the text blob come from the schema
 * (schema/aurora/tlk.schema -> generated/aurora/tlk.h). This header adds
 * what a schema cannot say: each entry's text range checked against the
 * file, and the text of a StrRef.
 * Sources: BioWare, "Talk Table File Format" (as archived by xoreos-docs);
 * xoreos, src/aurora/talktable_tlk.cpp; neverwinter.nim, tlk.nim;
 * nwn-lib-d, tlk.d. */
#ifndef RELIC_TLK_H
#define RELIC_TLK_H

#include "relic.h"
#include "tlk.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The StrRef that names no string (BioWare Talk Table File Format, 3). */
#define RELIC_TLK_STRREF_NONE 0xFFFFFFFFu
/** The StrRef bit that selects a module's custom TLK in NWN (nwn-lib-d, tlk.d). */
#define RELIC_TLK_STRREF_CUSTOM 0x01000000u

/** Validate a TLK into the zero-copy view out: the generated checks (magic,
 *  the table inside the file, the text offset inside the file), then
 *  StringEntriesOffset at or after the table's end and every entry with
 *  TEXT_PRESENT and a size holding text inside the file
 *  ("entries[54].string_size @0x884: text 0x959+0x1B4 passes the end of the
 *  text (0xB0D bytes)"). Errors: RELIC_E_TRUNCATED, RELIC_E_MAGIC,
 *  RELIC_E_LAYOUT, with the field path and byte offset. */
relic_status relic_tlk_open(const uint8_t *data, size_t size, relic_tlk_view *out, relic_error *err);

/** The text of strref in a TLK opened by relic_tlk_open: *text points into
 *  the file (not NUL-terminated; cp1252/cp1250 in NWN1 and KotOR, UTF-8 in
 *  NWN2), *n its byte size. An entry without TEXT_PRESENT has empty text,
 *  as the BioWare text says. Returns 1 when strref names an entry (the
 *  custom-TLK bit is not stripped), 0 when it is RELIC_TLK_STRREF_NONE or
 *  past StringCount (then *text = "" and *n = 0). */
int relic_tlk_text(const relic_tlk_view *v, uint32_t strref, const char **text, size_t *n);

#ifdef __cplusplus
}
#endif
#endif /* RELIC_TLK_H */
