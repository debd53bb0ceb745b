/* schema_io.c — the steps every schema-described format of the `relic`
 * command shares, written once over a format's cli_schema (formats.h):
 * validate, decode, write (with the output validated again before it is
 * written), and JSON both ways. fmt_<name>.c keeps only what differs. */
#include <stdlib.h>
#include <string.h>

#include "formats.h"

int cli_schema_view(const cli_format *f, const cli_input *in, void *view)
{
    relic_error err;
    if (f->schema->gen->validate(in->map.bytes.data, in->map.bytes.size, view, &err) != RELIC_OK) {
        cli_report(cli_problem_stream(), in->path, &err); /* a validation problem, as check prints it */
        return 1;
    }
    return 0;
}

/* Memory for one view or model of the schema: from the arena, which the
 * caller releases. */
static void *alloc_in(relic_arena *a, size_t size, const char *path)
{
    void *p = relic_arena_alloc(a, size ? size : 1, 16);
    if (!p) cli_errorf(path, 0, "out of memory");
    return p;
}

int cli_schema_model(const cli_format *f, const cli_input *in, relic_arena *a, void *view, void *model)
{
    relic_error err;
    if (!view && !(view = alloc_in(a, f->schema->gen->view_size, in->path))) return 1;
    if (cli_schema_view(f, in, view)) return 1;
    if (f->schema->gen->decode(view, a, model, &err) != RELIC_OK) {
        cli_error(in->path, &err);
        return 1;
    }
    return 0;
}

int cli_schema_write(const cli_format *f, void *model, relic_arena *a, const char *out_path, const char *in_path)
{
    const relic_gen_ops *s = f->schema->gen;
    relic_buf out;
    relic_error err;
    int rc;
    void *check = alloc_in(a, s->view_size, out_path);
    if (!check) return 1;
    relic_buf_init(&out, 0);
    if ((s->layout && s->layout(model, a, &err) != RELIC_OK) || s->write(model, &out, &err) != RELIC_OK) {
        cli_error(out_path, &err);
        rc = 1;
    } else if (s->validate(out.data, out.size, check, &err) != RELIC_OK) {
        /* a writer's output always validates; if not, it is relic's bug: say so, write nothing */
        char what[64];
        snprintf(what, sizeof what, "internal error: the written %s file does not validate", s->name);
        cli_error_in(out_path, what, &err);
        rc = 1;
    } else {
        rc = cli_write(out_path, out.data, out.size, in_path);
    }
    relic_buf_free(&out);
    return rc;
}

/* A model of f's schema from the arena (its size is the schema's). */
static void *model_in(const cli_format *f, relic_arena *a, const char *path)
{
    return alloc_in(a, f->schema->gen->model_size, path);
}

int cli_format_to_json(const cli_format *f, const cli_input *in, relic_buf *out)
{
    if (f->hooks->to_json) return f->hooks->to_json(in, out);
    if (!f->schema) {
        cli_errorf(in->path, 0, "a %s file has no JSON form", f->name);
        return 1;
    }
    relic_arena a;
    relic_error err;
    int rc = 1;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    if (f->schema->json_print_view) { /* straight from the validated bytes */
        void *v = alloc_in(&a, f->schema->gen->view_size, in->path);
        if (v && cli_schema_view(f, in, v) == 0) {
            if (f->schema->json_print_view(v, out, &err) == RELIC_OK) rc = 0;
            else if (!cli_json_write_failed(out)) cli_error(in->path, &err);
        }
        relic_arena_release(&a);
        return rc;
    }
    void *m = model_in(f, &a, in->path);
    if (m && cli_schema_model(f, in, &a, NULL, m) == 0) {
        if (f->schema->json_print(m, out, &err) == RELIC_OK) rc = 0;
        else if (!cli_json_write_failed(out)) cli_error(in->path, &err);
    }
    relic_arena_release(&a);
    return rc;
}

int cli_format_from_json(const cli_format *f, const cli_input *in, const char *out_path)
{
    if (f->hooks->from_json) return f->hooks->from_json(in, out_path);
    if (!f->schema) {
        cli_errorf(in->path, 0, "a %s file is not made from JSON", f->name);
        return 1;
    }
    relic_arena a;
    relic_error err;
    int rc = 1;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    void *m = model_in(f, &a, in->path);
    if (m && f->schema->json_read((const char *)in->map.bytes.data, in->map.bytes.size, &a, m, &err) != RELIC_OK)
        cli_report(cli_problem_stream(), in->path, &err);
    else if (m)
        rc = cli_schema_write(f, m, &a, out_path, in->path);
    relic_arena_release(&a);
    return rc;
}

int cli_format_rewrite(const cli_format *f, const cli_input *in, const char *out_path)
{
    if (f->hooks->rewrite) return f->hooks->rewrite(in, out_path);
    if (!f->schema) {
        cli_errorf(in->path, 0, "a %s file is not re-written", f->name);
        return 1;
    }
    relic_arena a;
    int rc = 1;
    relic_arena_init_heap(&a, CLI_ARENA_LIMIT);
    void *m = model_in(f, &a, in->path);
    if (m && cli_schema_model(f, in, &a, NULL, m) == 0) rc = cli_schema_write(f, m, &a, out_path, in->path);
    relic_arena_release(&a);
    return rc;
}
