/* gff_find.c — footprint program (tests/bench/footprint.sh): open a GFF and
 * print the top-level field labelled argv[2] ("Tag" by default), the smallest
 * useful GFF reader, built from the amalgamation. */
#include <stdio.h>

#include "relic_gff.h"

int main(int argc, char **argv)
{
    static unsigned char scratch[1 << 16];
    relic_mapping map;
    relic_error err;
    relic_arena arena;
    relic_gff_doc doc;
    uint32_t f;
    if (argc < 2 || relic_map_file(argv[1], 0, &map, &err) != RELIC_OK) return 2;
    relic_arena_init_buffer(&arena, scratch, sizeof scratch);
    if (relic_gff_open(map.bytes.data, map.bytes.size, &arena, NULL, NULL, &doc, &err) != RELIC_OK) {
        relic_error_print(stderr, argv[1], &err);
        return 1;
    }
    int found = relic_gff_find(&doc, 0, argc > 2 ? argv[2] : "Tag", &f);
    printf("%s\n", found ? "found" : "absent");
    relic_unmap(&map);
    return 0;
}
