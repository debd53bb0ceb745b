/* relic_grf.h — the contents of GROFF sections: GRF level sections (.header,
 * .region, objects, both geometry forms, .mapping, .material, the value
 * table) and SCN/savegame sections (Header, Partitions, the hierarchies,
 * instance states, SaveGameName, SaveSCNName, SaveBMP). Each fixed layout is
 * a schema of its own (schema/tres/grf_*.schema, scn_*.schema; one root per
 * section kind, one per GROFF version where layouts differ); this header
 * adds what the schemas cannot say: which kind a section is, the value table
 * (NUL-terminated strings, tagged records), the rules between sections, the
 * whole-level JSON and the OBJ export. Facts: Trespasser source, Lib/Groff/GroffIO.cpp, Lib/Loader/SaveFile.cpp, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp; Trespasser file formats, "GRF", "SCN/Savegame". */
#ifndef RELIC_GRF_H
#define RELIC_GRF_H

#include "relic.h"
#include "relic_groff.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a section holds, as relic_grf_classify decides it. */
typedef enum relic_grf_kind {
    RELIC_GRF_OPAQUE = 0,   /**< not decoded: kept as bytes */
    RELIC_GRF_HEADER,       /**< .header (grf_header.schema) */
    RELIC_GRF_REGION,       /**< .region, GROFF 12-15 (grf_region.schema) */
    RELIC_GRF_REGION_V11,   /**< .region, GROFF 11 (grf_region_v11.schema) */
    RELIC_GRF_OBJECT,       /**< object (model) section (grf_object.schema) */
    RELIC_GRF_GEOMETRY,     /**< plain geometry, GROFF 14-15 (grf_geometry.schema) */
    RELIC_GRF_GEOMETRY_V13, /**< plain geometry, GROFF 13 */
    RELIC_GRF_GEOMETRY_V11, /**< plain geometry, GROFF 11-12 */
    RELIC_GRF_MESH,         /**< optimised ("type 2") geometry (grf_mesh.schema) */
    RELIC_GRF_MAPPING,      /**< .mapping with texture coordinates (grf_mapping.schema) */
    RELIC_GRF_MAPPING_REF,  /**< 4-byte .mapping of an optimised object */
    RELIC_GRF_MATERIAL,     /**< .material, GROFF 15 (grf_material.schema) */
    RELIC_GRF_MATERIAL_V11, /**< .material, GROFF 11-14 */
    RELIC_GRF_VALUE_TABLE,  /**< value table (hand-written: runtime/formats/tres/grf_valuetable.c) */
    RELIC_SCN_HEADER,       /**< SCN Header (scn_header.schema) */
    RELIC_SCN_PARTITIONS,   /**< Partitions (28-byte entries) */
    RELIC_SCN_PARTITIONS24, /**< Partitions with 24-byte entries (Trespasser file formats: TestScnNght) */
    RELIC_SCN_HIERARCHY,    /**< Hierarchy, TerrainHierarchy, TriggerHierarchy */
    RELIC_SCN_INSTANCE,     /**< 36-byte instance state named by a hash */
    RELIC_SCN_INSTANCE44,   /**< 44-byte instance state named by a hash */
    RELIC_SCN_TEXT,         /**< SaveGameName, SaveSCNName */
    RELIC_SCN_BMP,          /**< SaveBMP */
    RELIC_GRF_KIND_COUNT
} relic_grf_kind;

/** Short name of a kind ("region", "mesh", "scn_header", "opaque", ...): the
 *  "kind" of the JSON form; NULL when out of range. */
const char *relic_grf_kind_name(relic_grf_kind k);
/** The kind named name, or -1. */
int relic_grf_kind_from_name(const char *name);

/** How the sections of one container are to be read (Trespasser source, Lib/Groff/GroffIO.cpp: the GRF's
 *  .header gives the GROFF version, bit 31 = optimised). */
typedef struct relic_grf_layout {
    uint32_t version; /**< GROFF version 11..15, 0 when there is no valid .header */
    int optimised;    /**< bit 31 of the .header version */
    int is_scene;     /**< every section has content flag special (SCN/savegame) */
} relic_grf_layout;

/** The layout of a decoded container (see relic_grf_layout). */
relic_grf_layout relic_grf_layout_of(const relic_groff_file *m);

/** The kind of section i of m under layout l. By content flag: header,
 *  region (by version), object, geometry (optimised files: the mesh form when
 *  its 44-byte header's counts give exactly the section size; else the plain
 *  form of the version), mapping (4 bytes: the material-handle form),
 *  material (by version), value table; special sections by name (Header,
 *  Partitions (24-byte entries when the size fits those and not 28-byte
 *  ones), *Hierarchy, SaveGameName, SaveSCNName, SaveBMP; a hex name
 *  (Trespasser source, Lib/Audio/AudioLoad.cpp, Lib/EntityDBase/Instance.cpp) with 36 or 44 bytes: an instance state). Everything else, and
 *  version-dependent kinds when the version is unknown: RELIC_GRF_OPAQUE. */
relic_grf_kind relic_grf_classify(const relic_groff_file *m, size_t i, const relic_grf_layout *l);

/** relic_grf_classify of every section: kinds[i] for i < m->sections_count.
 *  Special sections' names are indexed once (relic_groff_model_section_names,
 *  from arena a, only when there are special sections), so a scene of n
 *  sections and symbols costs O(n log n), not n^2. Errors: those of
 *  relic_groff_model_section_names. */
relic_status relic_grf_classify_all(const relic_groff_file *m, const relic_grf_layout *l, relic_arena *a,
                                    relic_grf_kind *kinds, relic_error *err);

/** Validate the bytes of one section as kind k with its schema (or the
 *  value-table reader); the section must be exactly the layout (bytes after
 *  it, or a partial entry after the last whole one: RELIC_E_LAYOUT), so that
 *  every valid section round-trips. Errors: those of the generated
 *  validator, the path relative to the section and the offset from its start. */
relic_status relic_grf_section_validate(relic_grf_kind k, const uint8_t *p, size_t n, relic_error *err);

/** Decode one section of kind k into *model (the generated model struct of
 *  its schema, or relic_grf_value_table), allocated from a. Validates first.
 *  For RELIC_GRF_OPAQUE *model is NULL. */
relic_status relic_grf_section_decode(relic_grf_kind k, const uint8_t *p, size_t n, relic_arena *a, void **model,
                                      relic_error *err);

/** Append the bytes of a decoded section model to out. Errors: the writer's. */
relic_status relic_grf_section_write(relic_grf_kind k, const void *model, relic_buf *out, relic_error *err);

/** Append the JSON form of a decoded section model to out. */
relic_status relic_grf_section_json_print(relic_grf_kind k, const void *model, relic_buf *out, relic_error *err);

/** Validate the bytes of one section as kind k (relic_grf_section_decode's
 *  checks and errors, nothing decoded) into *view, its kind's validated
 *  view (relic_<kind>_view, or relic_grf_vt_view) allocated from a. For
 *  RELIC_GRF_OPAQUE *view is NULL. Errors: as relic_grf_section_validate;
 *  RELIC_E_NOMEM when a runs out. librelic-json. */
relic_status relic_grf_section_view(relic_grf_kind k, const uint8_t *p, size_t n, relic_arena *a, void **view,
                                    relic_error *err);

/** Append the JSON form of a section from its view (relic_grf_section_view):
 *  the text relic_grf_section_json_print prints for the decoded section,
 *  with nothing decoded or allocated. Errors: RELIC_E_NOMEM when out cannot
 *  grow; RELIC_E_ARGUMENT for a kind without a JSON form. */
relic_status relic_grf_section_json_print_view(relic_grf_kind k, const void *view, relic_buf *out, relic_error *err);

/** Read the JSON form of a section of kind k into *model in a. */
relic_status relic_grf_section_json_read(relic_grf_kind k, const char *text, size_t len, relic_arena *a, void **model,
                                         relic_error *err);

/* ---- the value table (Trespasser source, Lib/Groff/GroffIO.cpp "Value table"; ValueTable.cpp 327–370, 1493–1525, 1760–1856) ---- */

/** Value-table record types (ValueTable.hpp 98–144); 0 and 7 are rejected. */
typedef enum relic_grf_value_type {
    RELIC_GRF_VALUE_BOOL = 1,
    RELIC_GRF_VALUE_CHAR = 2,
    RELIC_GRF_VALUE_INT = 3,
    RELIC_GRF_VALUE_FLOAT = 4,
    RELIC_GRF_VALUE_STRING = 5,
    RELIC_GRF_VALUE_OBJECT = 6
} relic_grf_value_type;

/** A value-table handle: id and reference count, 8 bytes. */
typedef struct relic_grf_vt_handle {
    uint32_t id;
    uint32_t references;
} relic_grf_vt_handle;

/** An object-handle record: class name, handle base, next handle, handle
 *  count, in-use byte (ObjectHandle.cpp 283–330). */
typedef struct relic_grf_vt_handles {
    char *class_name;
    uint32_t base, next, count;
    uint8_t in_use;
} relic_grf_vt_handles;

/** A symbol of the value table: a property or object name and its handle. */
typedef struct relic_grf_vt_symbol {
    char *name;
    relic_grf_vt_handle handle;
} relic_grf_vt_symbol;

/** A record: a typed value named by a symbol. */
typedef struct relic_grf_vt_record {
    uint8_t type;      /**< relic_grf_value_type */
    uint8_t scope;     /**< 1 local, 2 public */
    uint8_t reference; /**< reference status */
    relic_grf_vt_handle value, symbol, target, key;
    uint8_t b;                  /**< bool and char payload */
    int32_t i;                  /**< int payload */
    float f;                    /**< float payload */
    char *s;                    /**< string payload (NUL-terminated, no NUL inside) */
    relic_grf_vt_handle *items; /**< object payload: handles of member records */
    size_t items_count;
} relic_grf_vt_record;

/** A whole value-table section. */
typedef struct relic_grf_value_table {
    char *name; /**< table name */
    relic_grf_vt_handles symbol_handles;
    char *symbol_table_name;
    relic_grf_vt_symbol *symbols;
    size_t symbols_count;
    relic_grf_vt_handles value_handles;
    relic_grf_vt_record *records;
    size_t records_count;
} relic_grf_value_table;

/** Parse a value-table section. With out NULL only validate (no
 *  allocation); else decode into *out from a. Memory is linear in n (counts
 *  are checked against the bytes left before anything is allocated).
 *  Errors: RELIC_E_TRUNCATED (a string without NUL, a count past the end),
 *  RELIC_E_RANGE (record type not 1..6), RELIC_E_LAYOUT (bytes after the
 *  last record), RELIC_E_NOMEM; paths such as records[12].type. */
relic_status relic_grf_value_table_parse(const uint8_t *p, size_t n, relic_arena *a, relic_grf_value_table *out,
                                         relic_error *err);
/** Serialise a value table (appending to out). Errors: RELIC_E_ARGUMENT for
 *  a record type not 1..6, RELIC_E_LIMIT when a count passes 32 bits. */
relic_status relic_grf_value_table_write(const relic_grf_value_table *vt, relic_buf *out, relic_error *err);
/** JSON form of a value table (every field, so that it reads back exactly). */
relic_status relic_grf_value_table_json_print(const relic_grf_value_table *vt, relic_buf *out, relic_error *err);
/** Read the JSON form. Errors: RELIC_E_SYNTAX, RELIC_E_RANGE, RELIC_E_ARGUMENT. */
relic_status relic_grf_value_table_json_read(const char *text, size_t len, relic_arena *a, relic_grf_value_table *out,
                                             relic_error *err);
/** Index of the record whose value handle id is id, or -1 (binary search
 *  when the ids ascend, as in every known file; else a scan). */
long relic_grf_value_table_find(const relic_grf_value_table *vt, uint32_t id);
/** Name of the symbol whose handle id is id, or NULL. */
const char *relic_grf_value_table_symbol(const relic_grf_value_table *vt, uint32_t id);

/** A validated value table, zero-copy: its bytes and where each symbol and
 *  record starts (byte offsets into p), so that it prints and answers
 *  look-ups without a decoded copy. Built by relic_grf_value_table_view. */
typedef struct relic_grf_vt_view {
    const uint8_t *p;                                        /**< the section's bytes */
    size_t n;                                                /**< their length */
    size_t symbol_handles, symbol_table_name, value_handles; /**< offsets of those members */
    const uint32_t *symbols;                                 /**< offset of each symbol (its name) */
    size_t symbols_count;
    const uint32_t *records; /**< offset of each record (its type byte) */
    size_t records_count;
} relic_grf_vt_view;

/** One record of a relic_grf_vt_view, its fixed fields loaded; payload
 *  points at the bytes after the target handle (bool or char byte, int or
 *  float u32, NUL-terminated string, or u32 count then items_count handles). */
typedef struct relic_grf_vt_record_view {
    uint8_t type, scope, reference;
    relic_grf_vt_handle value, symbol, target, key;
    const uint8_t *payload;
    size_t items_count; /**< object records: member handles */
} relic_grf_vt_record_view;

/** Validate n bytes at p as a value table (relic_grf_value_table_parse's
 *  checks and errors) and index them into *out: 4 bytes per symbol and per
 *  record from a, nothing copied. Errors: those of the parse;
 *  RELIC_E_NOMEM when a runs out. This and the view functions below are
 *  librelic-json's (runtime/json/grf_valuetable_json.c, grf_json.c). */
relic_status relic_grf_value_table_view(const uint8_t *p, size_t n, relic_arena *a, relic_grf_vt_view *out,
                                        relic_error *err);
/** Record i (< v->records_count) of a value-table view, plain loads. */
void relic_grf_vt_view_record(const relic_grf_vt_view *v, size_t i, relic_grf_vt_record_view *r);
/** Member handle k (< r->items_count) of an object record. */
relic_grf_vt_handle relic_grf_vt_record_item(const relic_grf_vt_record_view *r, size_t k);
/** relic_grf_value_table_find over a view: index of the record whose value
 *  handle id is id, or -1. */
long relic_grf_vt_view_find(const relic_grf_vt_view *v, uint32_t id);
/** relic_grf_value_table_symbol over a view: the name (in the section's
 *  bytes, NUL-terminated) of the symbol whose handle id is id, or NULL. */
const char *relic_grf_vt_view_symbol(const relic_grf_vt_view *v, uint32_t id);
/** relic_grf_value_table_json_print's text printed from a view: nothing
 *  decoded or allocated. Errors: RELIC_E_NOMEM when out cannot grow. */
relic_status relic_grf_value_table_json_print_view(const relic_grf_vt_view *v, relic_buf *out, relic_error *err);

/* ---- a whole level or scene ---- */

/** The symbols of a container sorted by handle (pointers into its model). */
typedef struct relic_grf_symbols {
    const relic_groff_symbol **sorted;
    size_t count;
} relic_grf_symbols;

/** Index the symbols of m (n pointers from a). Errors: RELIC_E_NOMEM. */
relic_status relic_grf_symbols_index(const relic_groff_file *m, relic_arena *a, relic_grf_symbols *out,
                                     relic_error *err);
/** The name of the symbol with this handle (the first when handles repeat), or NULL. */
const char *relic_grf_symbols_name(const relic_grf_symbols *s, uint32_t handle);

/** A container with each section decoded as its kind. */
typedef struct relic_grf_file {
    relic_groff_file container; /**< directory, symbols, the sections' bytes */
    relic_grf_layout layout;
    relic_grf_kind *kinds; /**< per section */
    void **models;         /**< per section: decoded model, NULL when opaque */
} relic_grf_file;

/** Decode every section of a validated container (its model m, which f
 *  keeps). A section whose bytes fail its kind's schema is an error (path
 *  sections[i].<kind path>, offset in the file). */
relic_status relic_grf_file_decode(const relic_groff_file *m, relic_arena *a, relic_grf_file *f, relic_error *err);

/** Re-serialise every decoded section into f->container's data (opaque
 *  ones as they are), lay the sections out back to back (relic_groff_layout)
 *  and append the whole file to out. */
relic_status relic_grf_file_write(relic_grf_file *f, relic_arena *a, relic_buf *out, relic_error *err);

/** Validate every section of a validated container with its kind's schema,
 *  then the rules between sections (Trespasser source, Lib/Groff/GroffIO.cpp): region objects are object
 *  sections, instance names and material names are symbols, object parts
 *  are geometry/mapping sections, mappings and meshes name material
 *  sections, triangles' material indices are below the material count,
 *  region value handles name object records of the value table; every
 *  coordinate of a geometry section (pivot, vertices, face and vertex
 *  normals, wrap vertices; a mesh's points) is a finite number
 *  (sections[i].vertices[k].y, RELIC_E_RANGE). Errors are
 *  reported with offsets in the file. Returns the number of problems. */
unsigned relic_grf_check(const relic_groff_file *m, relic_arena *scratch, relic_report_fn report, void *ctx);

/** Whole-file JSON: the container (generated groff JSON without the data
 *  hex), the GROFF version, "contents" (per section: name, kind and the
 *  section's JSON) and, for a GRF, "instances": each region instance with
 *  its placement and its properties from the value table by name
 *  (informational: ignored when read back). Only for files whose sections
 *  lie back to back in directory order (else RELIC_E_UNSUPPORTED: use the
 *  plain groff JSON). The models are written back to bytes and printed as
 *  relic_grf_json_print_view prints a file, so an edited model prints its
 *  edit: the container as f holds it, or laid out again (relic_groff_layout)
 *  when a section's size changed. Errors: the section writers' (path
 *  sections[i].<field>). Scratch from where out grows: an arena buffer's
 *  arena, or the heap for a heap or sink buffer; a buffer over caller
 *  memory is refused (RELIC_E_ARGUMENT: use relic_grf_json_print_in). */
relic_status relic_grf_json_print(const relic_grf_file *f, relic_buf *out, relic_error *err);
/** relic_grf_json_print with its scratch (the file written back, about its
 *  size twice, and the views' index) from scratch: no heap call when out is over caller memory or in
 *  an arena (relic_grf_json_print takes out's own arena for an arena
 *  buffer, a heap arena for a heap buffer). Errors: as relic_grf_json_print;
 *  RELIC_E_ARGUMENT when scratch is NULL; RELIC_E_NOMEM when scratch or
 *  out runs out. */
relic_status relic_grf_json_print_in(const relic_grf_file *f, relic_buf *out, relic_arena *scratch, relic_error *err);

/** A validated GROFF container ready for the whole-file JSON printed from
 *  views (relic_grf_json_print_view): each section classified
 *  (relic_grf_classify) and validated with its kind's schema into its
 *  generated view (relic_<kind>_view, or relic_grf_vt_view for the value
 *  table), plus the index the printer looks names up in. The directory is
 *  read into `directory` (32 bytes a section; its data and symbol names
 *  point into the file, not copied) so the kind rules of relic_grf_classify
 *  apply unchanged. Built by relic_grf_view_open. */
typedef struct relic_grf_view {
    relic_groff_view container; /**< the generated container view */
    relic_groff_file directory; /**< header, directory, symbols; data and names point into the file */
    relic_grf_layout layout;
    relic_grf_kind *kinds;     /**< per section */
    void **views;              /**< per section: its kind's view, NULL when opaque */
    relic_grf_symbols symbols; /**< the directory's symbols by handle */
} relic_grf_view;

/** Classify and validate every section of the validated container v (the
 *  checks and errors of relic_grf_file_decode: a section whose bytes fail
 *  its kind's schema is an error with path sections[i].<kind path> and the
 *  offset in the file) and index it into *out, all from a: per section a
 *  kind, a pointer and its view (tens of bytes), 8 bytes per symbol, 4
 *  bytes per value-table symbol and record; a symbol name without its NUL
 *  in the file is copied with one. Errors: as above; RELIC_E_NOMEM. */
relic_status relic_grf_view_open(const relic_groff_view *v, relic_arena *a, relic_grf_view *out, relic_error *err);

/** relic_grf_json_print's text for the file behind f, printed from the
 *  views with nothing decoded and no allocation (out over caller memory
 *  makes no heap call); out may be a sink buffer. Errors: RELIC_E_UNSUPPORTED,
 *  before anything is printed, when the sections do not lie back to back
 *  in directory order (print the plain container: relic_groff_json_print_view);
 *  RELIC_E_NOMEM when out cannot grow. */
relic_status relic_grf_json_print_view(const relic_grf_view *f, relic_buf *out, relic_error *err);

/** Read the whole-file JSON back into a container model (sections encoded
 *  from "contents", laid out back to back). Errors: those of the readers,
 *  RELIC_E_ARGUMENT when contents and directory disagree in count. */
relic_status relic_grf_json_read(const char *text, size_t len, relic_arena *a, relic_groff_file *out,
                                 relic_error *err);

/** The rotation matrix of a region instance's Euler angles (radians):
 *  m = Rz(rot[2]) * Ry(rot[1]) * Rx(rot[0]), right-handed, so x is applied
 *  first going object to world (Trespasser file formats, REGION ENTRY); world = position +
 *  m * (scale * p). Checked against the quaternions the demo's .scn stores
 *  for the same instances (tests/test_grf.c). */
void relic_grf_euler_matrix(const float rot[3], double m[3][3]);

/** Write the level of a decoded GRF as Wavefront OBJ (obj) with its
 *  materials (mtl; mtl_name is the name the OBJ's mtllib line uses): every
 *  region instance as an object `o NAME`, its geometry (mesh polygons or
 *  plain triangles) scaled, rotated by its Euler angles (x, then y, then z,
 *  object to world: Trespasser file formats, REGION ENTRY) and moved to its position, with
 *  texture coordinates, normals and per-face materials named after the
 *  texture file. Trespasser is Z-up; the OBJ is written Y-up (x, z, -y), the
 *  OBJ convention Blender and assimp import. Errors: RELIC_E_UNSUPPORTED
 *  without a region; broken handles are RELIC_E_INDEX. Scratch (the symbol
 *  index, per-mesh tables) comes from the caller's arena scratch. */
relic_status relic_grf_export_obj(const relic_grf_file *f, const char *mtl_name, relic_arena *scratch, relic_buf *obj, relic_buf *mtl,
                                  relic_error *err);

/** The file a material's map_Kd names for texture (the GRF's texture path,
 *  such as "Map\\demo\\Blaht2.bmp"), or NULL when there is none: the MTL
 *  then keeps the texture as a comment, so it never names a missing file.
 *  The string is copied at once. */
typedef const char *(*relic_grf_texture_file_fn)(void *ctx, const char *texture);

/** relic_grf_export_obj with the caller naming each texture's file
 *  (texture_file(ctx, path), see relic_grf_texture_file_fn): the form for
 *  textures converted beside the OBJ (`relic convert LEVEL.grf y.obj
 *  --textures LEVEL.pid --swp LEVEL.spz` writes them as PNG). texture_file
 *  NULL is relic_grf_export_obj: map_Kd names the texture path's file name.
 *  Errors: those of relic_grf_export_obj. */
relic_status relic_grf_export_obj_textured(const relic_grf_file *f, const char *mtl_name,
                                           relic_grf_texture_file_fn texture_file, void *ctx, relic_arena *scratch,
                                           relic_buf *obj, relic_buf *mtl, relic_error *err);

#ifdef __cplusplus
}
#endif
#endif
