/* member_name.c — is a container member's name safe to show and to turn
 * into a file name? ERF/RIM resrefs, GROFF section names and TPA
 * identifiers are bytes from the file: a control byte would drive the
 * terminal that prints it, a separator or ".." would climb out of the
 * directory an extract writes to. BioWare, *Aurora engine specifications*
 * (as archived by xoreos-docs), "Key/BIF": a ResRef is up to 16 (32 in
 * NWN2) alphanumeric characters and underscores; tools accept more. */
#include "relic.h"

const char *relic_member_name_problem(const char *name, size_t n, int strict, size_t *at)
{
    size_t i;
    *at = 0;
    if (n == 0)
        return strict ? "empty name" : NULL;
    if ((n == 1 && name[0] == '.') || (n == 2 && name[0] == '.' && name[1] == '.'))
        return "names a directory ('.' or '..')";
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        *at = i;
        if (c < 0x20 || c == 0x7F)
            return "control character";
        if (c == '/' || c == '\\')
            return "path separator";
    }
    if (!strict) return NULL;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        *at = i;
        if (c > 0x7E)
            return "byte outside printable ASCII";
        if (strchr(":*?\"<>|", c) != NULL)
            return "character a Windows file name cannot hold";
        if (i + 1 < n && c == '.' && name[i + 1] == '.')
            return "'..' inside the name";
    }
    *at = n - 1;
    if (name[0] == ' ' || name[n - 1] == ' ' || name[n - 1] == '.') {
        *at = name[0] == ' ' ? 0 : n - 1;
        return "leading or trailing space or trailing dot";
    }
    return NULL;
}
