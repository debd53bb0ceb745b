/* grf_sections_json.h — internal to the JSON layer: a GROFF section's JSON
 * read from a value of an already parsed document (relic_jr_parse), so that
 * a GRF document's sections are read from the tree parsed once
 * (grf_json.c) instead of being printed back to text and parsed again. */
#ifndef RELIC_GRF_SECTIONS_JSON_H
#define RELIC_GRF_SECTIONS_JSON_H

#include "relic_grf.h"
#include "relic_json.h"

/** relic_grf_section_json_read of the value v (a section's JSON object)
 *  instead of text: the same checks, errors and *model in a. */
relic_status relic_grf_section_json_read_value(relic_grf_kind k, const relic_jv *v, relic_arena *a, void **model,
                                               relic_error *err);

/** relic_grf_value_table_json_read of the value doc instead of text. */
relic_status relic_grf_value_table_json_read_value(const relic_jv *doc, relic_arena *a, relic_grf_value_table *out,
                                                   relic_error *err);

#endif
