/* bwm_export.c — KotOR walkmeshes out to Wavefront OBJ text and to an SVG
 * top-down picture.
 *
 * Implements runtime/include/relic/bwm_export.h. Sources: PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py (sides:
 * side k runs v[k] -> v[(k+1)%3]), PyKotor, common/geometry.py; kotorblender, constants.py (materials and walkability, via
 * runtime/include/relic/bwm_build.h), PyKotor, io_bwm.py; kotorblender, format/bwm/reader.py (edges = 3*face+side with a transition,
 * perimeters = cumulative loop ends). The OBJ material names are the ones
 * runtime/include/relic/obj.h reads back (relic_obj_material_label). */
#include "bwm_export.h"

#include <math.h>

#include "obj.h"

/* ---------------------------------------------------------------------- */
/* Shared checks                                                           */
/* ---------------------------------------------------------------------- */

static relic_status check_mesh(const relic_bwm_mesh *m, relic_error *err)
{
    uint32_t f;
    int k;
    if ((m->vertex_count != 0 && m->vertices == NULL) ||
        (m->face_count != 0 && (m->faces == NULL || m->materials == NULL)))
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "mesh arrays missing");
    for (f = 0; f < m->face_count; f++)
        for (k = 0; k < 3; k++)
            if (m->faces[f][k] >= m->vertex_count) {
                char path[48];
                snprintf(path, sizeof path, "faces[%u].v[%d]", f, k);
                return relic_fail(err, RELIC_E_INDEX, 0, path, "face %u uses vertex %u of %u", f, m->faces[f][k],
                                  m->vertex_count);
            }
    return RELIC_OK;
}

static relic_status buf_status(const relic_buf *out, relic_error *err)
{
    if (out->failed)
        return relic_fail(err, RELIC_E_NOMEM, 0, NULL, "output buffer could not grow (memory or its %zu-byte limit)",
                          out->limit);
    return RELIC_OK;
}

/* One line of text for a comment or an XML text node: control characters
 * become spaces (no newline may end an OBJ comment early). */
static void put_clean(relic_buf *out, const char *s, int xml)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f)
            relic_buf_puts(out, " ");
        else if (xml && c == '&')
            relic_buf_puts(out, "&amp;");
        else if (xml && c == '<')
            relic_buf_puts(out, "&lt;");
        else if (xml && c == '>')
            relic_buf_puts(out, "&gt;");
        else if (xml && c == '"')
            relic_buf_puts(out, "&quot;");
        else if (xml && c == '\'')
            relic_buf_puts(out, "&apos;");
        else
            relic_buf_append(out, s, 1);
    }
}

/* ---------------------------------------------------------------------- */
/* OBJ                                                                     */
/* ---------------------------------------------------------------------- */

/* Label buffer: "surfacemat_" and ten digits fit. */
#define LABEL_SIZE 32

relic_status relic_bwm_export_obj(const relic_bwm_mesh *m, const char *title, relic_buf *out, relic_error *err)
{
    uint32_t i, walkable = 0;
    relic_status st;

    if (m == NULL || out == NULL)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "NULL mesh or output buffer");
    if ((st = check_mesh(m, err)) != RELIC_OK)
        return st;
    for (i = 0; i < m->vertex_count; i++)
        if (!isfinite(m->vertices[i][0]) || !isfinite(m->vertices[i][1]) || !isfinite(m->vertices[i][2])) {
            char path[32];
            snprintf(path, sizeof path, "vertices[%u]", i);
            return relic_fail(err, RELIC_E_RANGE, 0, path, "vertex %u is not finite; OBJ cannot carry it", i);
        }
    for (i = 0; i < m->face_count; i++)
        walkable += relic_bwm_material_walkable(m->materials[i]) != 0;

    relic_buf_puts(out, "# relic: KotOR walkmesh (BWM) as Wavefront OBJ\n");
    if (title != NULL) {
        relic_buf_puts(out, "# source: ");
        put_clean(out, title, 0);
        relic_buf_puts(out, "\n");
    }
    relic_buf_printf(out, "# %u vertices, %u faces (%u walkable)\n", m->vertex_count, m->face_count, walkable);
    relic_buf_puts(out, "# usemtl names are surface materials (surfacemat.2da): a material name such as\n"
                        "# Stone or NonWalk, or surfacemat_N for row N. Faces are in file order.\n");
    for (i = 0; i < m->vertex_count && !out->failed; i++)
        relic_buf_printf(out, "v %.9g %.9g %.9g\n", (double)m->vertices[i][0], (double)m->vertices[i][1],
                         (double)m->vertices[i][2]);
    for (i = 0; i < m->face_count && !out->failed; i++) {
        if (i == 0 || m->materials[i] != m->materials[i - 1]) {
            char label[LABEL_SIZE];
            relic_obj_material_label(m->materials[i], label, sizeof label);
            relic_buf_printf(out, "g %s\nusemtl %s\n", label, label);
        }
        relic_buf_printf(out, "f %lu %lu %lu\n", (unsigned long)m->faces[i][0] + 1, (unsigned long)m->faces[i][1] + 1,
                         (unsigned long)m->faces[i][2] + 1);
    }
    return buf_status(out, err);
}

/* ---------------------------------------------------------------------- */
/* SVG                                                                     */
/* ---------------------------------------------------------------------- */

/* Page geometry, in SVG pixels. */
#define SVG_DRAW_SIZE 800.0 /* the larger extent of the mesh */
#define SVG_MARGIN 24.0
#define SVG_TITLE_HEIGHT 44.0
#define SVG_LEGEND_WIDTH 300.0
#define SVG_LEGEND_ROW 22.0
#define SVG_SWATCH 14.0
#define SVG_FACE_STROKE 0.4
#define SVG_PERIMETER_STROKE 2.6
#define SVG_TRANSITION_STROKE 4.0

/* Colours. */
#define SVG_FACE_OUTLINE "#555555"
#define SVG_PERIMETER_COLOUR "#111111"
#define SVG_TRANSITION_COLOUR "#e6007e"
#define SVG_HATCH_COLOUR "#8a8a8a"

/* Materials tracked one by one in the legend; larger ids share an entry. */
#define SVG_TRACKED_MATERIALS 64u
#define SVG_OTHER SVG_TRACKED_MATERIALS

/* Fixed palette for the named rows of surfacemat.2da (PyKotor, common/geometry.py; kotorblender, constants.py):
 * saturated colours for walkable materials, light tints for the others. */
static const char *const named_colour[] = {
    "#e0e0e0", /*  0 NotDefined */ "#a0652d",    /*  1 Dirt */
    "#d7ccc8", /*  2 Obscuring */ "#4caf50",     /*  3 Grass */
    "#5b7fb8", /*  4 Stone */ "#c48a3f",         /*  5 Wood */
    "#29b6f6", /*  6 Water */ "#cfd8dc",         /*  7 NonWalk */
    "#f5f5f5", /*  8 Transparent */ "#c2185b",   /*  9 Carpet */
    "#7e57c2", /* 10 Metal */ "#26a69a",         /* 11 Puddles */
    "#827717", /* 12 Swamp */ "#6d4c41",         /* 13 Mud */
    "#8bc34a", /* 14 Leaves */ "#ffccbc",        /* 15 Lava */
    "#37474f", /* 16 BottomlessPit */ "#b3e5fc", /* 17 DeepWater */
    "#ffb300", /* 18 Door */ "#fff59d",          /* 19 Snow */
    "#d4b45a", /* 20 Sand */ "#a1887f",          /* 21 BareBones */
    "#3949ab", /* 22 StoneBridge */ NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    "#ff7043", /* 30 Trigger */
};
#define NAMED_COLOURS (sizeof named_colour / sizeof named_colour[0])

/* A distinct light hue for ids without a fixed colour (never walkable). */
static void material_colour(uint32_t id, char out[8])
{
    double h, s = 0.55, l = 0.80, c, x, mm, r = 0, g = 0, b = 0;
    if (id < NAMED_COLOURS && named_colour[id] != NULL) {
        memcpy(out, named_colour[id], 8);
        return;
    }
    h = (double)((id * 137u) % 360u) / 60.0;
    c = (1.0 - fabs(2.0 * l - 1.0)) * s;
    x = c * (1.0 - fabs(fmod(h, 2.0) - 1.0));
    mm = l - c / 2.0;
    if (h < 1) {
        r = c;
        g = x;
    } else if (h < 2) {
        r = x;
        g = c;
    } else if (h < 3) {
        g = c;
        b = x;
    } else if (h < 4) {
        g = x;
        b = c;
    } else if (h < 5) {
        r = x;
        b = c;
    } else {
        r = c;
        b = x;
    }
    snprintf(out, 8, "#%02x%02x%02x", (unsigned)lround((r + mm) * 255.0), (unsigned)lround((g + mm) * 255.0),
             (unsigned)lround((b + mm) * 255.0));
}

typedef struct svg_view {
    double minx, maxy, scale, ox, oy;
} svg_view;

static double px(const svg_view *v, float x) { return v->ox + ((double)x - v->minx) * v->scale; }
static double py(const svg_view *v, float y) { return v->oy + (v->maxy - (double)y) * v->scale; }

static int vertex_ok(const relic_bwm_mesh *m, uint32_t i)
{
    return isfinite(m->vertices[i][0]) && isfinite(m->vertices[i][1]);
}

/* The fill of a face of material id: a colour, or the pattern of a
 * non-walkable material (tint plus hatch). */
static void put_fill(relic_buf *out, uint32_t id)
{
    if (relic_bwm_material_walkable(id)) {
        char c[8];
        material_colour(id, c);
        relic_buf_printf(out, "%s", c);
    } else if (id < SVG_TRACKED_MATERIALS) {
        relic_buf_printf(out, "url(#nw%u)", id);
    } else {
        relic_buf_puts(out, "url(#nwother)");
    }
}

static void put_edge_segment(relic_buf *out, const relic_bwm_mesh *m, const svg_view *v, uint32_t edge,
                             uint32_t *pen)
{
    uint32_t f = edge / 3, s = edge % 3;
    uint32_t a = m->faces[f][s], b = m->faces[f][(s + 1) % 3];
    if (!vertex_ok(m, a) || !vertex_ok(m, b)) {
        *pen = UINT32_MAX;
        return;
    }
    if (*pen != a)
        relic_buf_printf(out, "M%.2f %.2f", px(v, m->vertices[a][0]), py(v, m->vertices[a][1]));
    relic_buf_printf(out, "L%.2f %.2f", px(v, m->vertices[b][0]), py(v, m->vertices[b][1]));
    *pen = b;
}

relic_status relic_bwm_export_svg(const relic_bwm_mesh *m, const relic_bwm_svg_tables *tables, const char *title,
                                  relic_buf *out, relic_error *err)
{
    static const relic_bwm_svg_tables none = {0, NULL, 0, NULL, 0};
    uint32_t counts[SVG_TRACKED_MATERIALS + 1] = {0};
    uint32_t i, walkable_faces = 0, transitions = 0, legend_rows = 0, pen;
    double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY, w, h, width, height, ly;
    svg_view v;
    relic_status st;
    int pass;

    if (m == NULL || out == NULL)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "NULL mesh or output buffer");
    if (tables == NULL)
        tables = &none;
    if ((st = check_mesh(m, err)) != RELIC_OK)
        return st;
    if ((tables->edge_count != 0 && tables->edges == NULL) ||
        (tables->perimeter_count != 0 && tables->perimeters == NULL) || tables->walkable_count > m->face_count)
        return relic_fail(err, RELIC_E_ARGUMENT, 0, NULL, "edge or perimeter tables missing, or %u walkable of %u faces",
                          tables->walkable_count, m->face_count);
    for (i = 0; i < tables->edge_count; i++)
        if (tables->edges[i].edge / 3 >= tables->walkable_count) {
            char path[32];
            snprintf(path, sizeof path, "edges[%u]", i);
            return relic_fail(err, RELIC_E_INDEX, 0, path, "edge %u lies on face %u, not one of the %u walkable faces",
                              tables->edges[i].edge, tables->edges[i].edge / 3, tables->walkable_count);
        }
    for (i = 0; i < tables->perimeter_count; i++)
        if (tables->perimeters[i] > tables->edge_count || (i > 0 && tables->perimeters[i] < tables->perimeters[i - 1])) {
            char path[32];
            snprintf(path, sizeof path, "perimeters[%u]", i);
            return relic_fail(err, RELIC_E_LAYOUT, 0, path, "perimeter end %u: ends must not decrease or pass %u edges",
                              tables->perimeters[i], tables->edge_count);
        }

    for (i = 0; i < m->face_count; i++) {
        uint32_t id = m->materials[i];
        counts[id < SVG_TRACKED_MATERIALS ? id : SVG_OTHER]++;
        walkable_faces += relic_bwm_material_walkable(id) != 0;
    }
    for (i = 0; i < m->vertex_count; i++) {
        if (!vertex_ok(m, i))
            continue;
        if (m->vertices[i][0] < minx) minx = m->vertices[i][0];
        if (m->vertices[i][0] > maxx) maxx = m->vertices[i][0];
        if (m->vertices[i][1] < miny) miny = m->vertices[i][1];
        if (m->vertices[i][1] > maxy) maxy = m->vertices[i][1];
    }
    if (minx > maxx) { /* no finite vertex */
        minx = miny = 0.0;
        maxx = maxy = 1.0;
    }
    w = maxx - minx;
    h = maxy - miny;
    v.scale = (w > h ? w : h) > 0.0 ? SVG_DRAW_SIZE / (w > h ? w : h) : 1.0;
    v.minx = minx;
    v.maxy = maxy;
    v.ox = SVG_MARGIN;
    v.oy = SVG_MARGIN + SVG_TITLE_HEIGHT;
    for (i = 0; i <= SVG_TRACKED_MATERIALS; i++)
        legend_rows += counts[i] != 0;
    for (i = 0; i < tables->edge_count; i++)
        transitions += tables->edges[i].transition >= 0;
    legend_rows += 2 + (tables->edge_count != 0) + (transitions != 0);
    width = 2 * SVG_MARGIN + w * v.scale + SVG_LEGEND_WIDTH;
    height = SVG_MARGIN + SVG_TITLE_HEIGHT + h * v.scale + SVG_MARGIN;
    if (height < SVG_MARGIN + SVG_TITLE_HEIGHT + legend_rows * SVG_LEGEND_ROW + SVG_MARGIN)
        height = SVG_MARGIN + SVG_TITLE_HEIGHT + legend_rows * SVG_LEGEND_ROW + SVG_MARGIN;

    relic_buf_printf(out,
                     "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" "
                     "height=\"%.0f\" font-family=\"sans-serif\">\n",
                     ceil(width), ceil(height), ceil(width), ceil(height));
    relic_buf_puts(out, "<title>");
    put_clean(out, title != NULL ? title : "walkmesh", 1);
    relic_buf_puts(out, "</title>\n<defs>\n");
    for (i = 0; i <= SVG_TRACKED_MATERIALS; i++) {
        char c[8];
        if (counts[i] == 0 || (i < SVG_TRACKED_MATERIALS && relic_bwm_material_walkable(i)))
            continue;
        material_colour(i < SVG_TRACKED_MATERIALS ? i : SVG_TRACKED_MATERIALS, c);
        if (i < SVG_TRACKED_MATERIALS)
            relic_buf_printf(out, "<pattern id=\"nw%u\"", i);
        else
            relic_buf_puts(out, "<pattern id=\"nwother\"");
        relic_buf_printf(out,
                         " width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
                         "<rect width=\"6\" height=\"6\" fill=\"%s\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" "
                         "stroke=\"" SVG_HATCH_COLOUR "\" stroke-width=\"0.8\"/></pattern>\n",
                         c);
    }
    relic_buf_puts(out, "</defs>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");

    /* Title with the counts. */
    relic_buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"18\" font-weight=\"bold\">", SVG_MARGIN,
                     SVG_MARGIN + 6.0);
    put_clean(out, title != NULL ? title : "walkmesh", 1);
    relic_buf_printf(out,
                     "</text>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#444\">%u vertices, %u faces "
                     "(%u walkable), %u edges, %u perimeters; top view, x right, y up, %.3g px per unit</text>\n",
                     SVG_MARGIN, SVG_MARGIN + 26.0, m->vertex_count, m->face_count, walkable_faces,
                     tables->edge_count, tables->perimeter_count, v.scale);

    /* Faces: non-walkable underneath, walkable on top. */
    relic_buf_printf(out, "<g stroke=\"" SVG_FACE_OUTLINE "\" stroke-width=\"%.1f\" stroke-linejoin=\"round\">\n",
                     SVG_FACE_STROKE);
    for (pass = 0; pass < 2; pass++)
        for (i = 0; i < m->face_count && !out->failed; i++) {
            const uint32_t *f = m->faces[i];
            int walk = relic_bwm_material_walkable(m->materials[i]) != 0;
            if (walk != (pass == 1) || !vertex_ok(m, f[0]) || !vertex_ok(m, f[1]) || !vertex_ok(m, f[2]))
                continue;
            relic_buf_printf(out, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\" fill=\"",
                             px(&v, m->vertices[f[0]][0]), py(&v, m->vertices[f[0]][1]), px(&v, m->vertices[f[1]][0]),
                             py(&v, m->vertices[f[1]][1]), px(&v, m->vertices[f[2]][0]), py(&v, m->vertices[f[2]][1]));
            put_fill(out, m->materials[i]);
            relic_buf_puts(out, walk ? "\" fill-opacity=\"0.85\"/>\n" : "\"/>\n");
        }
    relic_buf_puts(out, "</g>\n");

    /* Perimeter loops (every edge when no perimeters are given). */
    if (tables->edge_count != 0) {
        uint32_t loops = tables->perimeter_count != 0 ? tables->perimeter_count : 1, start = 0, k;
        relic_buf_printf(out,
                         "<g fill=\"none\" stroke=\"" SVG_PERIMETER_COLOUR "\" stroke-width=\"%.1f\" "
                         "stroke-linejoin=\"round\" stroke-linecap=\"round\">\n",
                         SVG_PERIMETER_STROKE);
        for (k = 0; k < loops && !out->failed; k++) {
            uint32_t end = tables->perimeter_count != 0 ? tables->perimeters[k] : tables->edge_count;
            if (end <= start)
                continue;
            relic_buf_printf(out, "<path class=\"perimeter\" data-loop=\"%u\" d=\"", k);
            pen = UINT32_MAX;
            for (i = start; i < end; i++)
                put_edge_segment(out, m, &v, tables->edges[i].edge, &pen);
            relic_buf_puts(out, "\"/>\n");
            start = end;
        }
        relic_buf_puts(out, "</g>\n");
    }

    /* Transitions, with the room index at the middle of the edge. */
    if (transitions != 0) {
        relic_buf_printf(out,
                         "<g stroke=\"" SVG_TRANSITION_COLOUR "\" stroke-width=\"%.1f\" stroke-linecap=\"round\" "
                         "font-size=\"11\">\n",
                         SVG_TRANSITION_STROKE);
        for (i = 0; i < tables->edge_count && !out->failed; i++) {
            uint32_t e = tables->edges[i].edge, f = e / 3, s = e % 3, a, b;
            if (tables->edges[i].transition < 0)
                continue;
            a = m->faces[f][s];
            b = m->faces[f][(s + 1) % 3];
            if (!vertex_ok(m, a) || !vertex_ok(m, b))
                continue;
            relic_buf_printf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>", px(&v, m->vertices[a][0]),
                             py(&v, m->vertices[a][1]), px(&v, m->vertices[b][0]), py(&v, m->vertices[b][1]));
            relic_buf_printf(out,
                             "<text x=\"%.2f\" y=\"%.2f\" stroke=\"#ffffff\" stroke-width=\"3\" "
                             "paint-order=\"stroke\" fill=\"" SVG_TRANSITION_COLOUR "\" text-anchor=\"middle\">%d"
                             "</text>\n",
                             (px(&v, m->vertices[a][0]) + px(&v, m->vertices[b][0])) / 2.0,
                             (py(&v, m->vertices[a][1]) + py(&v, m->vertices[b][1])) / 2.0 - 4.0,
                             (int)tables->edges[i].transition);
        }
        relic_buf_puts(out, "</g>\n");
    }

    /* Legend. */
    ly = SVG_MARGIN + SVG_TITLE_HEIGHT;
    relic_buf_printf(out, "<g class=\"legend\" font-size=\"12\" transform=\"translate(%.1f 0)\">\n",
                     2 * SVG_MARGIN + w * v.scale);
    relic_buf_printf(out, "<text x=\"0\" y=\"%.1f\" font-weight=\"bold\">Surface materials</text>\n", ly + 10.0);
    ly += SVG_LEGEND_ROW;
    for (i = 0; i <= SVG_TRACKED_MATERIALS && !out->failed; i++) {
        const char *name = i < SVG_TRACKED_MATERIALS ? relic_bwm_material_name(i) : NULL;
        int walk = i < SVG_TRACKED_MATERIALS && relic_bwm_material_walkable(i);
        if (counts[i] == 0)
            continue;
        relic_buf_printf(out, "<rect x=\"0\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" stroke=\"#555\" fill=\"", ly,
                         SVG_SWATCH, SVG_SWATCH);
        put_fill(out, i);
        if (i < SVG_TRACKED_MATERIALS)
            relic_buf_printf(out, "\"/><text x=\"%.0f\" y=\"%.1f\">%u %s: %u face%s, %s</text>\n", SVG_SWATCH + 8,
                             ly + 11.0, i, name != NULL ? name : "(unnamed)", counts[i], counts[i] == 1 ? "" : "s",
                             walk ? "walkable" : "not walkable");
        else
            relic_buf_printf(out, "\"/><text x=\"%.0f\" y=\"%.1f\">ids %u and up: %u face%s, not walkable</text>\n",
                             SVG_SWATCH + 8, ly + 11.0, SVG_TRACKED_MATERIALS, counts[i], counts[i] == 1 ? "" : "s");
        ly += SVG_LEGEND_ROW;
    }
    if (tables->edge_count != 0) {
        relic_buf_printf(out,
                         "<line x1=\"0\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"" SVG_PERIMETER_COLOUR
                         "\" stroke-width=\"%.1f\"/><text x=\"%.0f\" y=\"%.1f\">perimeter (%u loop%s)</text>\n",
                         ly + 7.0, SVG_SWATCH, ly + 7.0, SVG_PERIMETER_STROKE, SVG_SWATCH + 8, ly + 11.0,
                         tables->perimeter_count, tables->perimeter_count == 1 ? "" : "s");
        ly += SVG_LEGEND_ROW;
    }
    if (transitions != 0) {
        relic_buf_printf(out,
                         "<line x1=\"0\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"" SVG_TRANSITION_COLOUR
                         "\" stroke-width=\"%.1f\"/><text x=\"%.0f\" y=\"%.1f\">transition: edge to room N (%u)</text>\n",
                         ly + 7.0, SVG_SWATCH, ly + 7.0, SVG_TRANSITION_STROKE, SVG_SWATCH + 8, ly + 11.0, transitions);
        ly += SVG_LEGEND_ROW;
    }
    relic_buf_puts(out, "</g>\n</svg>\n");
    return buf_status(out, err);
}
