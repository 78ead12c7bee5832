/* Objects reached through typed pointers, for tests/test_symtype.c (data-type profiling): each
 * noinline function below touches heap objects through a pointer (in a register, loaded by the
 * function, or derived by inlining), a global, or its own stack frame. The test decodes every
 * memory instruction of these functions and checks the member names found against the sets it
 * lists per function, so keep both in step. Built without libc (PROG_HEAP_NOLIBC) for the
 * AArch64 cross build. */
#ifndef PROG_HEAP_NOLIBC
#include <stdlib.h>
#endif

#define NOINLINE __attribute__((noinline, used))

struct stats {
	long hits;
	long misses;
	long total;
};

struct node {
	struct node *next;
	long key;
	int val;
};

struct item {
	int id;
	int count;
};

struct inner {
	int x;
	int y[4];
};

struct outer {
	long tag;
	struct inner in;
	struct stats st[2];
	char name[8];
};

typedef struct stats stats_t;

struct holder {
	struct stats *sp;
	long n;
};

struct stats gstats;

NOINLINE long gload(void)
{
	return gstats.misses;
}

struct node *ghead;

/* a pointer loaded from a global: "mov rax, [rip + ghead]; mov rax, [rax + 8]" */
NOINLINE long ghead_key(void)
{
	return ghead->key;
}

NOINLINE long sum(struct stats *st)
{
	return st->hits + st->misses;
}

NOINLINE void bump(stats_t *s, long v)
{
	s->total += v;
}

NOINLINE long walk(const struct node *n)
{
	long k = 0;

	for (; n; n = n->next)
		k += n->key;
	return k;
}

NOINLINE int item_count(struct item *it, long i)
{
	return it[i].count;
}

NOINLINE long outer_get(struct outer *o)
{
	return o->in.y[2] + o->st[1].misses + o->name[3];
}

NOINLINE int array_get(struct outer *o, long i)
{
	return o->in.y[i];
}

NOINLINE long elem2(struct stats *st)
{
	return st[2].total;
}

static inline long hits_of(struct stats *p)
{
	return p->hits;
}

NOINLINE long via_inline(struct holder *h)
{
	struct stats *local = h->sp;

	return hits_of(local) * 3;
}

static inline void stats_add(struct stats *s2, long v)
{
	s2->hits += v;
	s2->total += v;
}

/* s2 = &o->st[1] once inlined: its DWARF value is rdi + 56 ("DW_OP_breg5 56, stack_value") */
NOINLINE void inner_ptr(struct outer *o, long v)
{
	stats_add(&o->st[1], v);
}

#ifdef __x86_64__
/* Two paths join at label 1: through the jump r holds c, through the fall-through n->next, so
 * the last load's base has no known type and must not be named "n->next->key". */
NOINLINE long join(struct node *n, long c)
{
	long r;

	__asm__("mov %2, %0\n\t"
		"test %2, %2\n\t"
		"jz 1f\n\t"
		"mov (%1), %0\n"
		"1:\tmov 8(%0), %0"
		: "=&r"(r) : "r"(n), "r"(c) : "cc", "memory");
	return r;
}

/* Two paths join at label 2 and both copied n into r there: r->key is "n->key". */
NOINLINE long agree(struct node *n, long c)
{
	struct node *r;
	long k;

	__asm__("test %2, %2\n\t"
		"jz 1f\n\t"
		"mov %3, %1\n\t"
		"jmp 2f\n"
		"1:\tmov %3, %1\n"
		"2:\tmov 8(%1), %0"
		: "=&r"(k), "=&r"(r) : "r"(c), "r"(n) : "cc", "memory");
	return k;
}

/* n is copied to r in the entry block and read in the next one ("n->key", across the block
 * boundary); then the loop advances r = r->next across its back edge, so at the loop head r is
 * n or any later node: its loads must stay unnamed, not "n->val" or "n->next". */
NOINLINE long chase(struct node *n, long c)
{
	struct node *r;
	long k;

	__asm__("mov %3, %1\n\t"
		"xor %0, %0\n\t"
		"test %2, %2\n\t"
		"jz 2f\n\t"
		"mov 8(%1), %0\n"
		"1:\tcmpl $0, 16(%1)\n\t"
		"mov (%1), %1\n\t"
		"test %1, %1\n\t"
		"jnz 1b\n"
		"2:"
		: "=&r"(k), "=&r"(r) : "r"(c), "r"(n) : "cc", "memory");
	return k + (long)r;
}
#endif

/* The pointer parameter lives in its register for the whole function, but gcc -O1 copies it
 * to another register in the entry block and uses the copy in the loop (examples/heap_sharing.c):
 * named through the register state carried across blocks. */
struct counters {
	volatile long hits;
	volatile long misses;
	long pad[6];
};

volatile int gstop;

NOINLINE void count_hits(struct counters *c)
{
	while (!gstop)
		for (int i = 0; i < 4096; i++)
			c->hits++;
}

NOINLINE void count_misses(struct counters *c, int rounds)
{
	while (!gstop && rounds-- > 0)
		for (int i = 0; i < 4096; i++)
			c->misses++;
}

NOINLINE void fill(struct stats *s, long *a)
{
	__asm__ volatile("" : : "r"(s), "r"(a) : "memory");
}

/* locals in the stack frame: named through DW_OP_fbreg and the CFA */
NOINLINE long on_stack(long v)
{
	struct stats local;
	long arr[4];

	fill(&local, arr);
	return local.misses + arr[2] + v;
}

NOINLINE long no_mem(long a, long b)
{
	return a * b + 7;
}

NOINLINE long from_long(long addr)
{
	return *(volatile long *)addr;
}

NOINLINE long deref2(struct node *n)
{
	return n->next->key;
}

#ifdef PROG_HEAP_NOLIBC
/* Built without a C library (a cross build for another architecture): only the code matters. */
void _start(void)
{
	struct holder h = { 0, 0 };

	sum(0), bump(0, 1), walk(0), item_count(0, 1), outer_get(0), array_get(0, 1), elem2(0);
	via_inline(&h), no_mem(1, 2), from_long(0), deref2(0), gload(), inner_ptr(0, 1);
	ghead_key(), on_stack(1), count_hits(0), count_misses(0, 1);
	for (;;)
		;
}
#else
int main(int argc, char **argv)
{
	struct stats *st = calloc(3, sizeof(*st));
	struct node *n = calloc(2, sizeof(*n));
	struct item *it = calloc(4, sizeof(*it));
	struct outer *o = calloc(1, sizeof(*o));
	struct counters *cnt = calloc(1, sizeof(*cnt));
	struct holder h = { st, 1 };
	long r;

	(void)argv;
	if (!st || !n || !it || !o || !cnt)
		return 1;
	n[0].next = &n[1];
	ghead = n;
	bump(st, argc);
	inner_ptr(o, argc);
	r = sum(st) + walk(n) + item_count(it, argc) + outer_get(o) + via_inline(&h) +
	    array_get(o, argc) + elem2(st) + gload() + ghead_key() + on_stack(argc) +
	    no_mem(argc, 2) + from_long((long)&st->hits) + deref2(n) + join(n, (long)n) +
	    agree(n, 0) + chase(n, 0);
	count_misses(cnt, 1);
	gstop = 1;
	count_hits(cnt);
	free(st);
	free(n);
	free(it);
	free(o);
	free(cnt);
	return (int)(r & 1);
}
#endif
