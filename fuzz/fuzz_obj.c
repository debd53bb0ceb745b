/* fuzz_obj.c — libFuzzer target for the OBJ reader (runtime/export/obj_lexer.re)
 * and OBJ -> walkmesh import. Oracles: every rejection carries a message;
 * every accepted mesh builds a walkmesh whose written bytes validate.
 * Build and run: make fuzz (or build-fuzz/fuzz_obj -max_total_time=60). */
#include <stdlib.h>
#include <string.h>

#include "obj.h"
#include "relic_bwm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    relic_arena a;
    relic_error err;
    relic_obj_mesh obj;
    relic_bwm_mesh mesh;
    uint32_t walkable;
    relic_arena_init_heap(&a, 64u << 20);
    relic_status st = relic_obj_parse("fuzz.obj", data, size, &a, &obj, &err);
    if (st == RELIC_OK) st = relic_obj_to_bwm("fuzz.obj", &obj, &a, &mesh, &walkable, &err);
    if (st != RELIC_OK) {
        if (err.message[0] == 0) abort();
        relic_arena_release(&a);
        return 0;
    }
    if (mesh.face_count <= 20000) {
        relic_bwm_file m;
        relic_buf out;
        relic_bwm_view v;
        relic_buf_init(&out, 0);
        st = relic_bwm_from_mesh(&mesh, RELIC_BWM_WALKMESH_TYPE_AREA, &a, &m, &err);
        if (st == RELIC_OK) {
            if (relic_bwm_write(&m, &out, &err) != RELIC_OK || relic_bwm_validate(out.data, out.size, &v, &err) != RELIC_OK) abort();
        } else if (st != RELIC_E_NOMEM && st != RELIC_E_LIMIT) {
            relic_error_print(stderr, "fuzz.obj", &err);
            abort();
        }
        relic_buf_free(&out);
    }
    relic_arena_release(&a);
    return 0;
}
