/* test_tpm.c — TPM (Trespasser Models) text: the reader of
 * runtime/formats/tres/tpm_lexer.re, the writer of runtime/formats/tres/tpm_write.c and the OBJ
 * conversions of runtime/export/tpm_obj.c. The test vectors are the examples of
 * Trespasser file formats, "TPM - Models" (Remdul's draft, August 2007), typed from the
 * seed: Fileinfo, Instance, Material, Mesh, Skin and Bone "Example" blocks.
 * They must parse with the values the Trespasser file-formats document shows and round trip (read ->
 * write -> read gives an equal model, and the written text is a fixed
 * point). Error positions (FILE:LINE:COL) are checked for each kind of
 * mistake, and truncation and mutation sweeps must never crash (ASan and
 * UBSan run them in `make test`). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "obj.h"
#include "relic_tpm.h"

/* Trespasser file formats, TPM "Fileinfo" Example */
static const char seed_fileinfo[] =
    "fileinfo\n"
    "{\n"
    " formatversion = 1.0.1\n"
    " name = \"NewRaptor.max\"\n"
    " version = 0.1.3\n"
    " source = \"NewRaptor.max\"\n"
    " date = 7/2/2007 6:03:23 PM\n"
    " comments = \"unfinished yet\"\n"
    "}\n";

/* Trespasser file formats, TPM "Instance" Example */
static const char seed_instance[] =
    "instance \"RaptorB\"\n"
    "{\n"
    " mesh = \"RaptorB\"\n"
    " position = (0.00585938,-0.51088,0.0339626)\n"
    " rotation = (0,0,0)\n"
    " scale = 3.05637\n"
    "}\n";

/* Trespasser file formats, TPM "Material" Example */
static const char seed_material[] =
    "material \"RaptorGreen2\"\n"
    "{\n"
    " colormap = \"RaptorGreen2color.bmp\"\n"
    " bumpmap = \"RaptorGreen2bump.bmp\"\n"
    "}\n";

/* Trespasser file formats, TPM "Mesh" Example */
static const char seed_mesh[] =
    "mesh \"Plane01\"\n"
    "{\n"
    " m = \"wood04\"\n"
    " m = \"stone03\"\n"
    " v = (-1.0,-0.5,0.0)\n"
    " v = (1.0,-0.5,0.0)\n"
    " v = (-1.0,0.5,0.0)\n"
    " v = (1.0,0.5,0.0)\n"
    " t = (0.0,0.0)\n"
    " t = (1.0,0.0)\n"
    " t = (0.0,1.0)\n"
    " t = (1.0,1.0)\n"
    " n = (0.0,0.0,1.0)\n"
    " f = (3,1,4),(3,1,4),(1,1,1),2\n"
    " f = (2,4,1),(2,4,1),(1,1,1),1\n"
    "}\n";

/* Trespasser file formats, TPM "Skin" Example Code */
static const char seed_skin[] =
    "skin \"TestSkin\"\n"
    "{\n"
    " m = \"default\"\n"
    " v = (-1.0,-0.5,0.0),1\n"
    " v = (1.0,-0.5,0.0),1\n"
    " v = (-1.0,0.5,0.0),3\n"
    " v = (1.0,0.5,0.0),2\n"
    " t = (0.0,0.0)\n"
    " t = (1.0,0.0)\n"
    " t = (0.0,1.0)\n"
    " t = (1.0,1.0)\n"
    " n = (0.0,0.0,1.0)\n"
    " f = (3,1,4),(3,1,4),(1,1,1),1\n"
    " f = (2,4,1),(2,4,1),(1,1,1),1\n"
    "}\n";

/* Trespasser file formats, TPM "Bone" Example Code */
static const char seed_bone[] =
    "bone \"$JRaptorB23\"\n"
    "{\n"
    " position = (0.002930,1.740082,0.810120)\n"
    " rotation = (31.740742,-0.000009,0.000010)\n"
    " Anim00 = 7\n"
    " Anim01 = 8\n"
    " Ratio = 0.500000\n"
    " RotationRatio = 0.500000\n"
    "}\n";

static const char *const seed_examples[6] = {seed_fileinfo, seed_instance, seed_material, seed_mesh, seed_skin, seed_bone};

/* All six examples in one file, with comments as the document's introduction
 * allows ("lines of text can also be 'commented out' by using double
 * slashes"). */
static char *seed_file(size_t *n)
{
    size_t cap = 4096;
    char *s = malloc(cap);
    assert_non_null(s);
    int k = snprintf(s, cap, "// TPM examples of Trespasser file formats\n%s\n%s\n%s\n// the mesh\n%s\n%s\n%s// end\n", seed_fileinfo, seed_instance,
                     seed_material, seed_mesh, seed_skin, seed_bone);
    assert_true(k > 0 && (size_t)k < cap);
    *n = (size_t)k;
    return s;
}

static relic_status parse(const char *text, relic_arena *a, relic_tpm_file *m, relic_error *err)
{
    return relic_tpm_parse("t.tpm", (const uint8_t *)text, strlen(text), a, m, err);
}

/* read -> write -> read is the identity and the text is a fixed point. */
static void round_trip(const relic_tpm_file *m)
{
    relic_arena a;
    relic_error err;
    relic_buf t1, t2;
    relic_tpm_file back;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&t1, 0);
    relic_buf_init(&t2, 0);
    assert_int_equal(relic_tpm_write(m, &t1, &err), RELIC_OK);
    if (relic_tpm_parse("w.tpm", t1.data, t1.size, &a, &back, &err) != RELIC_OK) fail_msg("%s", err.message);
    assert_true(relic_tpm_equal(m, &back));
    assert_int_equal(relic_tpm_write(&back, &t2, &err), RELIC_OK);
    assert_int_equal(t1.size, t2.size);
    assert_memory_equal(t1.data, t2.data, t1.size);
    relic_buf_free(&t1);
    relic_buf_free(&t2);
    relic_arena_release(&a);
}

/* A text longer than the caller's bound is refused before it is copied, where it starts;
 * 0 lifts the bound. */
static void test_text_over_max_text_is_a_limit_error(void **state)
{
    (void)state;
    static const char text[] = "// a comment of 40 bytes, more or less..\n";
    relic_arena a;
    relic_error err;
    relic_tpm_file m;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_tpm_parse_max_text("c.tpm", (const uint8_t *)text, sizeof text - 1, 16, &a, &m, &err), RELIC_E_LIMIT);
    assert_int_equal(err.offset, 2);
    assert_non_null(strstr(err.message, "c.tpm:1:3: 38 bytes of text, over the limit of 16"));
    assert_int_equal(relic_tpm_parse_max_text("c.tpm", (const uint8_t *)text, sizeof text - 1, 38, &a, &m, &err), RELIC_OK);
    assert_int_equal(m.comment_count, 1);
    assert_int_equal(relic_tpm_parse_max_text("c.tpm", (const uint8_t *)text, sizeof text - 1, 0, &a, &m, &err), RELIC_OK);
    relic_arena_release(&a);
}

static void test_seed_examples_parse_and_round_trip(void **state)
{
    (void)state;
    for (int i = 0; i < 6; i++) {
        relic_arena a;
        relic_error err;
        relic_tpm_file m;
        relic_arena_init_heap(&a, 0);
        if (parse(seed_examples[i], &a, &m, &err) != RELIC_OK) fail_msg("example %d: %s", i, err.message);
        assert_int_equal(m.block_count, 1);
        assert_int_equal(m.blocks[0].kind, (relic_tpm_kind)i); /* the examples are in the enum's order */
        round_trip(&m);
        relic_arena_release(&a);
    }
}

static void test_fileinfo_keeps_versions_and_date_as_text(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    relic_tpm_file m;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(parse(seed_fileinfo, &a, &m, &err), RELIC_OK);
    const relic_tpm_block *b = &m.blocks[0];
    assert_null(b->name);
    assert_int_equal(b->prop_count, 6);
    const relic_tpm_prop *p = relic_tpm_find(b, "formatversion");
    assert_non_null(p);
    assert_int_equal(p->kind, RELIC_TPM_TEXT);
    assert_string_equal(p->text, "1.0.1");
    p = relic_tpm_find(b, "date");
    assert_int_equal(p->kind, RELIC_TPM_TEXT);
    assert_string_equal(p->text, "7/2/2007 6:03:23 PM");
    p = relic_tpm_find(b, "comments");
    assert_int_equal(p->kind, RELIC_TPM_STRING);
    assert_string_equal(p->text, "unfinished yet");
    relic_arena_release(&a);
}

static void test_instance_position_rotation_and_scale_are_numbers(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    relic_tpm_file m;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(parse(seed_instance, &a, &m, &err), RELIC_OK);
    const relic_tpm_block *b = &m.blocks[0];
    assert_string_equal(b->name, "RaptorB");
    const relic_tpm_prop *p = relic_tpm_find(b, "position");
    assert_int_equal(p->kind, RELIC_TPM_TUPLE);
    assert_int_equal(p->count, 3);
    assert_true(p->v[0] == 0.00585938f && p->v[1] == -0.51088f && p->v[2] == 0.0339626f);
    p = relic_tpm_find(b, "scale");
    assert_int_equal(p->kind, RELIC_TPM_NUMBER);
    assert_true(p->v[0] == 3.05637f);
    assert_string_equal(relic_tpm_find(b, "mesh")->text, "RaptorB");
    relic_arena_release(&a);
}

static void test_mesh_example_has_its_tables_and_one_based_faces(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    relic_tpm_file m;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(parse(seed_mesh, &a, &m, &err), RELIC_OK);
    const relic_tpm_block *b = &m.blocks[0];
    assert_int_equal(b->material_count, 2);
    assert_string_equal(b->materials[1], "stone03");
    assert_int_equal(b->vertex_count, 4);
    assert_null(b->bones);
    assert_true(b->vertices[3][0] == 1.0f && b->vertices[3][1] == 0.5f && b->vertices[3][2] == 0.0f);
    assert_int_equal(b->texcoord_count, 4);
    assert_int_equal(b->normal_count, 1);
    assert_int_equal(b->face_count, 2);
    const relic_tpm_face *f = &b->faces[0];
    assert_int_equal(f->v[0], 3);
    assert_int_equal(f->v[2], 4);
    assert_int_equal(f->t[1], 1);
    assert_int_equal(f->n[2], 1);
    assert_int_equal(f->material, 2);
    assert_int_equal(b->faces[1].material, 1);
    relic_arena_release(&a);
}

static void test_skin_vertices_carry_bone_indices(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    relic_tpm_file m;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(parse(seed_skin, &a, &m, &err), RELIC_OK);
    const relic_tpm_block *b = &m.blocks[0];
    assert_int_equal(b->kind, RELIC_TPM_SKIN);
    assert_int_equal(b->vertex_count, 4);
    assert_non_null(b->bones);
    assert_int_equal(b->bones[0], 1);
    assert_int_equal(b->bones[2], 3);
    assert_int_equal(b->bones[3], 2);
    relic_arena_release(&a);
}

static void test_bone_extra_t_script_values_are_preserved(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    relic_tpm_file m;
    relic_buf out;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&out, 0);
    assert_int_equal(parse(seed_bone, &a, &m, &err), RELIC_OK);
    const relic_tpm_block *b = &m.blocks[0];
    assert_string_equal(b->name, "$JRaptorB23");
    assert_int_equal(b->prop_count, 6);
    assert_true(relic_tpm_find(b, "Anim00")->v[0] == 7.0f);
    /* "they must be preserved in a conversion process": kept as written */
    assert_string_equal(relic_tpm_find(b, "Ratio")->text, "0.500000");
    assert_int_equal(relic_tpm_write(&m, &out, &err), RELIC_OK);
    assert_non_null(strstr((const char *)out.data, " RotationRatio = 0.500000\n"));
    assert_non_null(strstr((const char *)out.data, " rotation = (31.740742,-0.000009,0.000010)\n"));
    relic_buf_free(&out);
    relic_arena_release(&a);
}

static void test_whole_seed_file_with_comments_round_trips(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    relic_tpm_file m;
    size_t n;
    char *s = seed_file(&n);
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_tpm_parse("seed.tpm", (const uint8_t *)s, n, &a, &m, &err), RELIC_OK);
    assert_int_equal(m.block_count, 6);
    assert_int_equal(m.comment_count, 3);
    assert_int_equal(m.comments[0].block, 0);
    assert_int_equal(m.comments[0].prop, RELIC_TPM_OUTSIDE);
    assert_string_equal(m.comments[1].text, " the mesh");
    assert_int_equal(m.comments[1].block, 3);
    assert_int_equal(m.comments[2].block, 6); /* at the end of the file */
    round_trip(&m);
    relic_arena_release(&a);
    free(s);
}

static void test_comments_inside_blocks_and_after_values_keep_their_places(void **state)
{
    (void)state;
    static const char text[] =
        "instance \"x\" // on the header line\n"
        "{\n"
        " // before mesh\n"
        " mesh = \"m\" // after the value\n"
        " scale = 2\n"
        " // before the brace\n"
        "} // after the brace\n";
    relic_arena a;
    relic_error err;
    relic_tpm_file m;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(parse(text, &a, &m, &err), RELIC_OK);
    assert_int_equal(m.comment_count, 5);
    static const uint32_t block[5] = {0, 0, 0, 0, 1}, prop[5] = {0, 0, 1, 2, RELIC_TPM_OUTSIDE};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(m.comments[i].block, block[i]);
        assert_int_equal(m.comments[i].prop, prop[i]);
    }
    assert_string_equal(m.comments[2].text, " after the value");
    assert_string_equal(relic_tpm_find(&m.blocks[0], "mesh")->text, "m");
    round_trip(&m);
    relic_arena_release(&a);
}

static void test_crlf_lines_and_upper_case_keywords_are_read(void **state)
{
    (void)state;
    static const char text[] = "MESH \"a\"\r\n{\r\n v = (1,2,3)\r\n f = (1,1,1),(0,0,0),(0,0,0),0\r\n}\r\nBone \"b\"\r\n{\r\n}\r\n";
    relic_arena a;
    relic_error err;
    relic_tpm_file m;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(parse(text, &a, &m, &err), RELIC_OK);
    assert_int_equal(m.block_count, 2);
    assert_int_equal(m.blocks[0].kind, RELIC_TPM_MESH);
    assert_int_equal(m.blocks[1].kind, RELIC_TPM_BONE);
    assert_int_equal(m.blocks[1].where.line, 6);
    round_trip(&m);
    relic_arena_release(&a);
}

static void test_faces_may_come_before_the_arrays_they_index(void **state)
{
    (void)state;
    static const char text[] = "mesh \"a\"\n{\n f = (1,2,3),(1,1,1),(1,1,1),1\n v = (0,0,0)\n v = (1,0,0)\n v = (0,1,0)\n t = (0,0)\n n = (0,0,1)\n m = \"x\"\n}\n";
    relic_arena a;
    relic_error err;
    relic_tpm_file m;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(parse(text, &a, &m, &err), RELIC_OK);
    assert_int_equal(m.blocks[0].face_count, 1);
    round_trip(&m);
    relic_arena_release(&a);
}

/* Geometry lines are read by a fast scan, and by the token path when a
 * comment follows: both must give the same floats for every number form. */
static void test_numbers_read_the_same_on_the_fast_and_the_token_path(void **state)
{
    (void)state;
    static const char *const numbers[] = {"0", "-0.0", "+7", "5.", ".5", "-.25", "0.1", "1e-22", "1E+22", "123456789012345",
                                          "16777217", "3.4028235e38", "1.17549435e-38", "1e-45", "0.30000001192092896",
                                          "99999999999999999999", "0.000000000000000000000001", "2.5e-3", "-6.02214076e23"};
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        char text[256];
        relic_arena a;
        relic_error err;
        relic_tpm_file m;
        snprintf(text, sizeof text, "mesh \"x\"\n{\n v = (%s,1,2)\n v = (%s,1,2) // token path\n t = (%s,0)\n t = ( %s , 0 )//\n}\n",
                 numbers[i], numbers[i], numbers[i], numbers[i]);
        relic_arena_init_heap(&a, 0);
        if (parse(text, &a, &m, &err) != RELIC_OK) fail_msg("%s: %s", numbers[i], err.message);
        const relic_tpm_block *b = &m.blocks[0];
        if (memcmp(&b->vertices[0][0], &b->vertices[1][0], sizeof(float)) || memcmp(&b->texcoords[0][0], &b->texcoords[1][0], sizeof(float)))
            fail_msg("%s reads as %a on the fast path, %a on the token path", numbers[i], (double)b->vertices[0][0], (double)b->vertices[1][0]);
        relic_arena_release(&a);
    }
}

/* Each malformed input, the code, the "FILE:LINE:COL:" its message starts
 * with and a word of the message. */
static void test_errors_name_line_and_column(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        relic_status code;
        const char *where;
        const char *what;
    } cases[] = {
        {"blah \"x\"\n{\n}\n", RELIC_E_SYNTAX, "t.tpm:1:1:", "unknown block"},
        {"mesh\n{\n}\n", RELIC_E_SYNTAX, "t.tpm:1:5:", "name of the mesh"},
        {"mesh \"x\"\n v = (1,2,3)\n}\n", RELIC_E_SYNTAX, "t.tpm:2:2:", "expected '{'"},
        {"mesh \"x\"\n{\n v = (1,2,3)\n", RELIC_E_SYNTAX, "t.tpm:1:1:", "no closing '}'"},
        {"mesh \"x\"\n{\n v = (1,2\n}\n", RELIC_E_SYNTAX, "t.tpm:3:10:", "expected ','"},
        {"mesh \"x\"\n{\n v = (1,a,3)\n}\n", RELIC_E_SYNTAX, "t.tpm:3:9:", "expected a number"},
        {"mesh \"x\"\n{\n v = (1,2,3)\n f = (1,1,2),(0,0,0),(0,0,0),0\n}\n", RELIC_E_INDEX, "t.tpm:4:11:", "vertex index 2"},
        {"mesh \"x\"\n{\n v = (1,2,3)\n f = (1,0,1),(0,0,0),(0,0,0),0\n}\n", RELIC_E_INDEX, "t.tpm:4:9:", "1-based"},
        {"mesh \"x\"\n{\n v = (1,2,3)\n f = (1,1,1),(0,0,0),(0,0,0),3\n}\n", RELIC_E_INDEX, "t.tpm:4:30:", "material index 3"},
        {"mesh \"x\"\n{\n v = (1,2,3)\n f = (1,1,1),(0,2,0),(0,0,0),0\n}\n", RELIC_E_INDEX, "t.tpm:4:17:", "texture coordinate index 2"},
        {"skin \"x\"\n{\n v = (1,2,3)\n}\n", RELIC_E_SYNTAX, "t.tpm:3:13:", "bone index"},
        {"mesh \"x\"\n{\n v = (1e39,0,0)\n}\n", RELIC_E_RANGE, "t.tpm:3:7:", "float range"},
        {"mesh \"x\"\n{\n f = (1,1,1),(0,0,0),(0,0,0),4294967296\n}\n", RELIC_E_RANGE, "t.tpm:3:30:", "over 4294967295"},
        {"instance \"x\n{\n}\n", RELIC_E_SYNTAX, "t.tpm:1:10:", "closing '\"'"},
        {"instance \"x\"\n{\n mesh = \"abc\n}\n", RELIC_E_SYNTAX, "t.tpm:3:9:", "closing '\"'"},
        {"instance \"x\"\n{\n scale =\n}\n", RELIC_E_SYNTAX, "t.tpm:3:9:", "no value"},
        {"instance \"x\"\n{\n = 3\n}\n", RELIC_E_SYNTAX, "t.tpm:3:2:", "expected a property"},
        {"fileinfo\n{\n}\nfileinfo\n{\n}\n", RELIC_E_SYNTAX, "t.tpm:4:1:", "second fileinfo"},
        {"bone \"b\"\n{\n}\n}\n", RELIC_E_SYNTAX, "t.tpm:4:1:", "expected a block"},
        {"bone \"b\"\n{\n} x\n", RELIC_E_SYNTAX, "t.tpm:3:3:", "after the closing"},
        {"mesh \"x\"\n{\n m = wood\n}\n", RELIC_E_SYNTAX, "t.tpm:3:6:", "material name"},
        {"mesh \"x\"\n{\n v = (1,2,3) 4\n}\n", RELIC_E_SYNTAX, "t.tpm:3:14:", "unexpected '4'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        relic_arena a;
        relic_error err;
        relic_tpm_file m;
        relic_arena_init_heap(&a, 0);
        relic_status st = parse(cases[i].text, &a, &m, &err);
        if (st != cases[i].code || strncmp(err.message, cases[i].where, strlen(cases[i].where)) || !strstr(err.message, cases[i].what))
            fail_msg("case %zu: status %d, message '%s' (want %d, '%s ... %s')", i, st, err.message, cases[i].code, cases[i].where,
                     cases[i].what);
        assert_int_equal(m.block_count, 0); /* zeroed on error */
        relic_arena_release(&a);
    }
}

static void test_nul_byte_is_an_error_at_its_offset(void **state)
{
    (void)state;
    static const uint8_t text[] = "bone \"b\"\n{\n x = 1\0\n}\n";
    relic_arena a;
    relic_error err;
    relic_tpm_file m;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_tpm_parse(NULL, text, sizeof text - 1, &a, &m, &err), RELIC_E_SYNTAX);
    assert_int_equal(err.offset, 17);
    assert_non_null(strstr(err.message, "<tpm>:3:7:"));
    relic_arena_release(&a);
}

static void test_writer_refuses_what_would_read_back_differently(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    relic_tpm_file m;
    relic_buf out;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&out, 0);
    assert_int_equal(parse(seed_instance, &a, &m, &err), RELIC_OK);
    relic_tpm_prop *p = &m.blocks[0].props[0];
    p->text[1] = '"'; /* a quote inside a string */
    assert_int_equal(relic_tpm_write(&m, &out, &err), RELIC_E_ARGUMENT);
    assert_string_equal(err.path, "blocks[0].props[0]");
    p->text[1] = 'a';
    p->kind = RELIC_TPM_TEXT;
    p->text = "3.5"; /* text that reads as a number */
    p->text_len = 3;
    assert_int_equal(relic_tpm_write(&m, &out, &err), RELIC_E_ARGUMENT);
    p->kind = RELIC_TPM_STRING;
    m.blocks[0].kind = RELIC_TPM_MESH; /* "mesh" is fine, but a key "v" in a mesh is geometry */
    p->key = "v";
    assert_int_equal(relic_tpm_write(&m, &out, &err), RELIC_E_ARGUMENT);
    m.blocks[0].kind = RELIC_TPM_INSTANCE;
    p->key = "mesh";
    relic_tpm_comment c = {"two\nlines", 9, 0, RELIC_TPM_OUTSIDE};
    m.comments = &c;
    m.comment_count = 1;
    assert_int_equal(relic_tpm_write(&m, &out, &err), RELIC_E_ARGUMENT);
    relic_buf_free(&out);
    relic_arena_release(&a);
}

static void test_obj_round_trip_keeps_positions_uvs_normals_faces_and_materials(void **state)
{
    (void)state;
    relic_arena a;
    relic_error err;
    relic_tpm_file m, back;
    relic_obj_mesh obj;
    relic_buf o;
    relic_arena_init_heap(&a, 0);
    relic_buf_init(&o, 0);
    assert_int_equal(parse(seed_mesh, &a, &m, &err), RELIC_OK);
    assert_int_equal(relic_tpm_to_obj(&m, &o, &err), RELIC_OK);
    assert_non_null(strstr((const char *)o.data, "f 3/3/1 1/1/1 4/4/1\n"));
    assert_int_equal(relic_obj_parse("t.obj", o.data, o.size, &a, &obj, &err), RELIC_OK);
    assert_int_equal(obj.texcoord_count, 4);
    assert_int_equal(relic_tpm_from_obj(&obj, "Plane01", &a, &back, &err), RELIC_OK);
    assert_int_equal(back.block_count, 3);
    const relic_tpm_block *b = &back.blocks[2], *s = &m.blocks[0];
    assert_int_equal(b->kind, RELIC_TPM_MESH);
    assert_int_equal(b->vertex_count, s->vertex_count);
    assert_memory_equal(b->vertices, s->vertices, s->vertex_count * sizeof s->vertices[0]);
    assert_true(s->texcoord_count > 0 && s->normal_count > 0);
    assert_int_equal(b->texcoord_count, s->texcoord_count);
    assert_memory_equal(b->texcoords, s->texcoords, s->texcoord_count * sizeof s->texcoords[0]);
    assert_int_equal(b->normal_count, s->normal_count);
    assert_memory_equal(b->normals, s->normals, s->normal_count * sizeof s->normals[0]);
    assert_int_equal(b->face_count, s->face_count);
    for (uint32_t i = 0; i < b->face_count; i++) {
        assert_memory_equal(b->faces[i].v, s->faces[i].v, sizeof s->faces[i].v);
        assert_memory_equal(b->faces[i].t, s->faces[i].t, sizeof s->faces[i].t);
        assert_memory_equal(b->faces[i].n, s->faces[i].n, sizeof s->faces[i].n);
        /* materials are numbered by first use in the OBJ: compare names */
        assert_string_equal(b->materials[b->faces[i].material - 1], s->materials[s->faces[i].material - 1]);
    }
    assert_string_equal(relic_tpm_find(&back.blocks[0], "formatversion")->text, "1.0.1");
    round_trip(&back);
    relic_buf_free(&o);
    relic_arena_release(&a);
}

static void test_obj_reader_keeps_texcoords_normals_and_corner_indices(void **state)
{
    (void)state;
    static const char text[] = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0.5\nvt 0.25 0.75 1\n"
                               "vn 0 0 1\nvn 0 -1 0\nf 1/2/2 2//1 3/1 4\n";
    relic_arena a;
    relic_error err;
    relic_obj_mesh o;
    relic_arena_init_heap(&a, 0);
    assert_int_equal(relic_obj_parse("t.obj", (const uint8_t *)text, sizeof text - 1, &a, &o, &err), RELIC_OK);
    assert_int_equal(o.texcoord_count, 2);
    assert_true(o.texcoords[0][0] == 0.5f && o.texcoords[0][1] == 0.0f);
    assert_true(o.texcoords[1][0] == 0.25f && o.texcoords[1][1] == 0.75f);
    assert_int_equal(o.normal_count, 2);
    assert_true(o.normals[1][0] == 0.0f && o.normals[1][1] == -1.0f && o.normals[1][2] == 0.0f);
    assert_int_equal(o.face_count, 2); /* the quad fans to (1,2,3) and (1,3,4) */
    assert_int_equal(o.face_texcoords[0][0], 1);
    assert_int_equal(o.face_texcoords[0][1], RELIC_OBJ_NONE);
    assert_int_equal(o.face_texcoords[0][2], 0);
    assert_int_equal(o.face_normals[0][0], 1);
    assert_int_equal(o.face_normals[0][1], 0);
    assert_int_equal(o.face_normals[0][2], RELIC_OBJ_NONE);
    assert_int_equal(o.face_texcoords[1][2], RELIC_OBJ_NONE);
    assert_int_equal(o.face_normals[1][0], 1);
    relic_tpm_file m;
    assert_int_equal(relic_tpm_from_obj(&o, "q", &a, &m, &err), RELIC_OK);
    assert_int_equal(m.blocks[2].faces[0].t[0], 2);
    assert_int_equal(m.blocks[2].faces[0].t[1], 0);
    assert_int_equal(m.blocks[2].faces[0].n[1], 1);
    round_trip(&m);
    relic_arena_release(&a);
}

/* The whole seed file cut at 64 points and mutated byte by byte: never a
 * crash, every rejection positioned, every accepted model round trips. */
static void exercise(const uint8_t *p, size_t n, unsigned *accepted)
{
    relic_arena a;
    relic_error err;
    relic_tpm_file m;
    relic_arena_init_heap(&a, 1u << 24);
    if (relic_tpm_parse("x.tpm", p, n, &a, &m, &err) == RELIC_OK) {
        (*accepted)++;
        round_trip(&m);
    } else {
        assert_true(strncmp(err.message, "x.tpm:", 6) == 0);
        assert_true(err.offset <= n);
    }
    relic_arena_release(&a);
}

static void test_truncations_never_crash(void **state)
{
    (void)state;
    size_t n;
    char *s = seed_file(&n);
    unsigned accepted = 0;
    for (unsigned k = 0; k < 64; k++) exercise((const uint8_t *)s, n * k / 64, &accepted);
    print_message("truncations: 64 cuts, %u accepted\n", accepted);
    free(s);
}

static void test_mutations_never_crash(void **state)
{
    (void)state;
    size_t n;
    char *s = seed_file(&n);
    uint8_t *b = malloc(n);
    uint32_t r = 12345;
    unsigned accepted = 0;
    static const uint8_t interesting[] = {'"', '(', ')', ',', '{', '}', '/', '\n', '\r', '0', '9', '-', '.', 'e', ' ', 0, 0xFF};
    for (int i = 0; i < 3000; i++) {
        memcpy(b, s, n);
        r = r * 1103515245u + 12345u;
        size_t at = (r >> 8) % n;
        r = r * 1103515245u + 12345u;
        b[at] = (r >> 16) & 1 ? interesting[(r >> 8) % sizeof interesting] : (uint8_t)(r >> 8);
        exercise(b, n, &accepted);
    }
    print_message("mutations: 3000 inputs, %u accepted\n", accepted);
    free(b);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_examples_parse_and_round_trip),
        cmocka_unit_test(test_fileinfo_keeps_versions_and_date_as_text),
        cmocka_unit_test(test_instance_position_rotation_and_scale_are_numbers),
        cmocka_unit_test(test_mesh_example_has_its_tables_and_one_based_faces),
        cmocka_unit_test(test_skin_vertices_carry_bone_indices),
        cmocka_unit_test(test_bone_extra_t_script_values_are_preserved),
        cmocka_unit_test(test_whole_seed_file_with_comments_round_trips),
        cmocka_unit_test(test_comments_inside_blocks_and_after_values_keep_their_places),
        cmocka_unit_test(test_crlf_lines_and_upper_case_keywords_are_read),
        cmocka_unit_test(test_faces_may_come_before_the_arrays_they_index),
        cmocka_unit_test(test_numbers_read_the_same_on_the_fast_and_the_token_path),
        cmocka_unit_test(test_errors_name_line_and_column),
        cmocka_unit_test(test_nul_byte_is_an_error_at_its_offset),
        cmocka_unit_test(test_writer_refuses_what_would_read_back_differently),
        cmocka_unit_test(test_obj_round_trip_keeps_positions_uvs_normals_faces_and_materials),
        cmocka_unit_test(test_obj_reader_keeps_texcoords_normals_and_corner_indices),
        cmocka_unit_test(test_truncations_never_crash),
        cmocka_unit_test(test_mutations_never_crash),
        cmocka_unit_test(test_text_over_max_text_is_a_limit_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
