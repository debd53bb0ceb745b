/* wtd_header.c — the WTD header and SMapping parameter block: the first 90
 * logical bytes (file bytes XOR 3, Trespasser source, Lib/Sys/BitBuffer.cpp) gathered and
 * checked by the schema's validator (schema/tres/wtd.schema, Trespasser source, Lib/GeomDBase/WaveletDataFormat.cpp, Lib/GeomDBase/WaveletConv.cpp),
 * then the rules between fields the schema cannot state (float scales). */
#include <math.h>

#include "relic_wtd.h"

relic_status relic_wtd_read_header(const uint8_t *data, size_t size, relic_wtd_file *out, relic_error *err)
{
    relic_wtd_bits b;
    relic_status st = relic_wtd_bits_init(&b, data, size, 0, err);
    if (st != RELIC_OK) return st;
    uint8_t logical[RELIC_WTD_FILE_SIZE];
    if (size < RELIC_WTD_FILE_SIZE)
        return relic_fail(err, RELIC_E_TRUNCATED, size, "header",
                          "file of %zu bytes is shorter than the %d-byte header and parameter block", size,
                          RELIC_WTD_FILE_SIZE);
    for (size_t k = 0; k < RELIC_WTD_FILE_SIZE; k++) logical[k] = data[k ^ 3];
    relic_wtd_view v;
    st = relic_wtd_validate(logical, sizeof logical, &v, err);
    if (st != RELIC_OK) {
        if (err) err->offset = relic_wtd_file_offset(err->offset * 8);
        return st;
    }
    uint8_t mem[512];
    relic_arena a;
    relic_arena_init_buffer(&a, mem, sizeof mem);
    st = relic_wtd_decode(&v, &a, out, err);
    if (st != RELIC_OK) return st;
    const relic_wtd_mapping *m = &out->mapping;
    /* every float parameter a finite number: the grid's placement in the
     * world and the height scale all come from them */
    const struct {
        const char *name;
        unsigned offset;
        float value;
    } params[] = {
#define WTD_PARAM(field, at) {"mapping." #field, at, m->field}
        WTD_PARAM(world_extents.start_x, RELIC_WTD_MAPPING_WORLD_EXTENTS_POS + RELIC_WTD_WORLD_RECT_START_X_POS),
        WTD_PARAM(world_extents.start_y, RELIC_WTD_MAPPING_WORLD_EXTENTS_POS + RELIC_WTD_WORLD_RECT_START_Y_POS),
        WTD_PARAM(world_extents.size_x, RELIC_WTD_MAPPING_WORLD_EXTENTS_POS + RELIC_WTD_WORLD_RECT_SIZE_X_POS),
        WTD_PARAM(world_extents.size_y, RELIC_WTD_MAPPING_WORLD_EXTENTS_POS + RELIC_WTD_WORLD_RECT_SIZE_Y_POS),
        WTD_PARAM(quad_to_world_x.offset, RELIC_WTD_MAPPING_QUAD_TO_WORLD_X_POS + RELIC_WTD_LINEAR_OFFSET_POS),
        WTD_PARAM(quad_to_world_y.offset, RELIC_WTD_MAPPING_QUAD_TO_WORLD_Y_POS + RELIC_WTD_LINEAR_OFFSET_POS),
        WTD_PARAM(world_to_quad_x.scale, RELIC_WTD_MAPPING_WORLD_TO_QUAD_X_POS + RELIC_WTD_LINEAR_SCALE_POS),
        WTD_PARAM(world_to_quad_x.offset, RELIC_WTD_MAPPING_WORLD_TO_QUAD_X_POS + RELIC_WTD_LINEAR_OFFSET_POS),
        WTD_PARAM(world_to_quad_y.scale, RELIC_WTD_MAPPING_WORLD_TO_QUAD_Y_POS + RELIC_WTD_LINEAR_SCALE_POS),
        WTD_PARAM(world_to_quad_y.offset, RELIC_WTD_MAPPING_WORLD_TO_QUAD_Y_POS + RELIC_WTD_LINEAR_OFFSET_POS),
        WTD_PARAM(world_to_coef, RELIC_WTD_MAPPING_WORLD_TO_COEF_POS),
        WTD_PARAM(coef_to_quad, RELIC_WTD_MAPPING_COEF_TO_QUAD_POS),
#undef WTD_PARAM
    };
    for (size_t k = 0; k < sizeof params / sizeof params[0]; k++)
        if (!isfinite(params[k].value))
            return relic_fail(err, RELIC_E_RANGE,
                              relic_wtd_file_offset((RELIC_WTD_FILE_MAPPING_POS + (uint64_t)params[k].offset) * 8),
                              params[k].name, "%s, not a finite number",
                              isnan(params[k].value) ? "NaN" : params[k].value > 0 ? "+infinity"
                                                                                   : "-infinity");
    uint64_t off = RELIC_WTD_FILE_MAPPING_POS + RELIC_WTD_MAPPING_QUAD_TO_WORLD_X_POS;
    if (!isfinite(m->quad_to_world_x.scale) || !(m->quad_to_world_x.scale > 0.0f))
        return relic_fail(err, RELIC_E_RANGE, relic_wtd_file_offset(off * 8), "mapping.quad_to_world_x.scale",
                          "quad->world scale %g is not a positive finite number", (double)m->quad_to_world_x.scale);
    off = RELIC_WTD_FILE_MAPPING_POS + RELIC_WTD_MAPPING_QUAD_TO_WORLD_Y_POS;
    if (m->quad_to_world_y.scale != m->quad_to_world_x.scale)
        return relic_fail(err, RELIC_E_RANGE, relic_wtd_file_offset(off * 8), "mapping.quad_to_world_y.scale",
                          "quad->world Y scale %g differs from the X scale %g (the game asserts they are equal)",
                          (double)m->quad_to_world_y.scale, (double)m->quad_to_world_x.scale);
    off = RELIC_WTD_FILE_MAPPING_POS + RELIC_WTD_MAPPING_COEF_TO_WORLD_POS;
    if (!isfinite(m->coef_to_world))
        return relic_fail(err, RELIC_E_RANGE, relic_wtd_file_offset(off * 8), "mapping.coef_to_world",
                          "coefficient->world scale is not a finite number");
    return RELIC_OK;
}

int relic_wtd_detect(const uint8_t *data, size_t size)
{
    if (size < RELIC_WTD_FILE_SIZE || size % RELIC_WTD_WORD_BYTES != 0) return 0;
    uint8_t logical[RELIC_WTD_FILE_SIZE];
    for (size_t k = 0; k < RELIC_WTD_FILE_SIZE; k++) logical[k] = data[k ^ 3];
    relic_wtd_view v;
    return relic_wtd_validate(logical, sizeof logical, &v, NULL) == RELIC_OK;
}
