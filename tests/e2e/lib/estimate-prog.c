/* The program estimate-gen --elf takes its addresses from (tests/tools/estimate-gen.c): buf1
 * (two members) in .bss, page-aligned so that it lies past the file-backed pages in the anonymous
 * map that follows them; counter in .data; the functions that touch them. Built with -g. */
struct pair { long a; long b; };
__attribute__((aligned(4096))) struct pair buf1;
long counter = 1;
__attribute__((noinline)) void writer_a(void) { buf1.a++; }
__attribute__((noinline)) void writer_b(void) { buf1.b++; }
__attribute__((noinline)) void bump(void) { __atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST); }
int main(void) { writer_a(); writer_b(); bump(); return 0; }
