/* hello.c — the start-up peer of tests/bench/startup.sh: a C hello world,
 * linked statically (no dynamic loader), the least a C command can cost. */
#include <stdio.h>

int main(void)
{
    puts("hello, world");
    return 0;
}
