/* trr_write.c — Trespasser TRR terrain source text out of a point cloud:
 * one "X Y Z" line per point (Trespasser source, Lib/GeomDBase/TerrainLoad.cpp; Trespasser file formats, "TRR"),
 * numbers as the shortest text that reads back exactly. */
#include "relic_trr.h"
#include "tres_text.h"

relic_status relic_trr_write(const relic_trr_points *p, relic_buf *out, relic_error *err)
{
    for (size_t i = 0; i < p->count && !out->failed; i++) {
        char a[32], b[32], c[32];
        relic_text_double(p->points[i][0], a);
        relic_text_double(p->points[i][1], b);
        relic_text_double(p->points[i][2], c);
        relic_buf_printf(out, "%s %s %s\n", a, b, c);
    }
    if (out->failed) return relic_fail(err, RELIC_E_NOMEM, 0, "trr", "the TRR output could not grow");
    return RELIC_OK;
}
