/* Tests of the report model's findings on PMU data (report/model/): a real cacheline table fed
 * with samples of several threads, modelled, named as rm_name() would name a struct "g" of three
 * 8-byte members, judged and grouped; what unnamed memory is called (rm_name() without symbols);
 * the summary block (report/model/summary-text.c, printed by report/stdio/summary.c): --summary
 * limits, prefix, lighter members, the same lines for the TUI. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/diff/diff.h"
#include "report/model/contend-text.h"
#include "report/model/findings.h"
#include "report/resolve/symbols.h"
#include "report/stdio/summary.h"
#include "tests/text-lines.h"

#define LH     ((uint64_t)DSRC_LVL_HIT << DSRC_LVL_SHIFT)
#define L1     (DSRC_OP_LOAD | LH | (uint64_t)DSRC_LVL_L1 << DSRC_LVL_SHIFT)
#define ST     (DSRC_OP_STORE | LH | (uint64_t)DSRC_LVL_L1 << DSRC_LVL_SHIFT)
#define HITM   (DSRC_OP_LOAD | LH | (uint64_t)DSRC_LVL_L3 << DSRC_LVL_SHIFT | \
		(uint64_t)DSRC_SNOOP_HITM << DSRC_SNOOP_SHIFT)

#define DATA   0x600000ULL   /* "g" (struct s, 24 bytes): members a, b, c of 8 bytes */
#define HEAP   0x1000000ULL
#define STACK  0x7ff000ULL
#define SHM    0x2000000ULL  /* MAP_SHARED System V segment */

static const int32_t cpu_node[4] = { 0, 0, 0, 0 };

/* Code: 0x400100 is "wa" at w.c:10, 0x400200 "wb" at w.c:20, others unknown. */
static int fake_code(void *ctx, const struct maps_map *map, uint8_t mode, uint64_t ip,
		     uint64_t al, struct cltab_code *out)
{
	(void)ctx, (void)map, (void)mode, (void)al;
	if (ip != 0x400100 && ip != 0x400200)
		return -1;
	out->symbol = ip == 0x400100 ? "wa" : "wb";
	out->srcfile = "/src/w.c";
	out->line = ip == 0x400100 ? 10 : 20;
	return 0;
}

/* What rm_name() gives struct g's bytes: "g.a", "g.a (+4)", ... as members "g.a". */
static void fake_names(struct rm_model *m)
{
	static const char *const members[] = { "g.a", "g.b", "g.c" };
	size_t i, k;

	for (i = 0; i < m->nr_line; i++) {
		struct rm_line *l = &m->line[i];
		int named = l->addr == DATA;

		l->what = named ? "g (struct s, 24 bytes)" : "heap of pid 100";
		l->object = named ? "g" : NULL;
		for (k = 0; k < l->nr_row; k++) {
			struct rm_row *r = &l->row[k];

			r->member = named && r->offset < 24 ? members[r->offset / 8] : NULL;
			r->data = r->member ? r->member : "[unknown]";
		}
	}
}

struct fx {
	struct maps *m;
	struct cltab *t;
	struct rm_model *rm;
	struct rm_findings *fs;
};

static void mmap_rec(struct fx *f, uint64_t start, uint64_t len, uint64_t pgoff, uint32_t prot,
		     const char *name)
{
	struct trace_event ev = { .type = TRACE_REC_MMAP };

	ev.mmap = (struct trace_mmap){ .pid = 100, .tid = 100, .start = start, .len = len,
		.pgoff = pgoff, .prot = prot, .flags = start == SHM ? 1 : 2,
		.maj = name[0] == '/' ? 8 : 0,
		.ino = name[0] == '/' ? 5 : 0, .cpumode = 2, .filename = name };
	cltab_feed(f->t, f->m, &ev);
}

static void fx_open(struct fx *f)
{
	struct cltab_opts o = { .cl_size = 64, .display = CLTAB_DISPLAY_TOT, .nr_cpus = 4,
				.cpu_node = cpu_node, .nr_nodes = 1, .sym = fake_code };

	memset(f, 0, sizeof(*f));
	f->m = maps_new();
	f->t = cltab_new(&o);
	mmap_rec(f, 0x400000, 0x1000, 0, 5, "/bin/app");
	mmap_rec(f, DATA, 0x1000, 0x1000, 3, "/bin/app");
	mmap_rec(f, HEAP, 0x10000, 0, 3, "[heap]");
	mmap_rec(f, STACK, 0x1000, 0, 3, "[stack:77]");
	mmap_rec(f, SHM, 0x1000, 0, 3, "/SYSV0000002a (deleted)");
}

static void fx_close(struct fx *f)
{
	rm_findings_free(f->fs);
	rm_free(f->rm);
	cltab_free(f->t);
	maps_free(f->m);
}

static void add(struct fx *f, uint32_t tid, uint32_t cpu, uint64_t ip, uint64_t addr, uint64_t ds,
		int n)
{
	struct trace_event ev = { .type = TRACE_REC_SAMPLE };

	while (n-- > 0) {
		ev.sample = (struct trace_sample){ .ip = ip, .addr = addr, .data_src = ds,
			.weight = 10, .pid = 100, .tid = tid, .cpu = cpu, .cpumode = 2,
			.flags = TRACE_SAMPLE_HAS_CPU | TRACE_SAMPLE_HAS_ADDR | TRACE_SAMPLE_HAS_DSRC |
				 TRACE_SAMPLE_HAS_WEIGHT };
		cltab_feed(f->t, f->m, &ev);
	}
}

/* What the report session does: finish, model perf's lines, name, judge, group. With @names,
 * the fake names of g; without, rm_name() without a symbol session (@verbose reasons). */
static void build(struct fx *f, int names, int verbose)
{
	struct cltab_line *const *ln;
	size_t nr;

	cltab_finish(f->t);
	ln = cltab_lines(f->t, &nr);
	f->rm = rm_from_cltab(f->t, CLTAB_DISPLAY_TOT, ln, nr);
	if (names) {
		fake_names(f->rm);
	} else {
		struct rm_name_opts no = { .maps = f->m, .verbose = verbose };

		rm_name(f->rm, &no);
	}
	rm_judge(f->rm);
	assert_int_equal(rm_check(f->rm), 0);
	f->fs = rm_findings_build(f->rm);
}

struct smp {
	uint32_t tid, cpu;
	uint64_t ip, off, ds;
	int n;
};

static const struct verdict_case {
	int line;
	struct smp s[6];
	enum rm_verdict verdict;
	size_t nr_mem;
	const char *advice;      /* a part of the advice text */
} verdict_cases[] = {
	{ __LINE__, { { 1, 0, 0x400100, 0, ST, 5 }, { 1, 0, 0x400100, 0, HITM, 4 },
		      { 2, 1, 0x400200, 8, ST, 6 }, { 2, 1, 0x400200, 8, HITM, 3 } },
	  RM_V_FALSE, 2,
	  "g.a (written by tid 1) and g.b (written by tid 2) share a 64-byte line: put them on "
	  "separate lines (pad, or align each to 64 bytes: __attribute__((aligned(64))))" },
	/* a reader of one member, a writer of another */
	{ __LINE__, { { 1, 0, 0x400100, 0, ST, 5 }, { 2, 1, 0x400200, 16, HITM, 7 },
		      { 2, 1, 0x400200, 16, L1, 2 } },
	  RM_V_FALSE, 2, "g.a (written by tid 1) and g.c (read by tid 2) share" },
	/* two writers and a reader of one member */
	{ __LINE__, { { 1, 0, 0x400100, 8, ST, 5 }, { 2, 1, 0x400200, 8, HITM, 4 },
		      { 3, 2, 0x400200, 8, ST, 1 } },
	  RM_V_TRUE, 1,
	  "g.b is written by 2 threads (tid 1, tid 3) and read by tid 2: the threads share these "
	  "bytes" },
	/* bytes +0 and +4 of one scalar are one member */
	{ __LINE__, { { 1, 0, 0x400100, 0, ST, 5 }, { 2, 1, 0x400200, 4, ST, 2 },
		      { 2, 1, 0x400200, 4, HITM, 4 } },
	  RM_V_TRUE, 1, "g.a is written by 2 threads" },
	/* HITMs, but no store of another thread */
	{ __LINE__, { { 1, 0, 0x400100, 0, HITM, 5 }, { 2, 1, 0x400200, 8, HITM, 2 } },
	  RM_V_UNCLEAR, 2, "HITMs on the line but no store of another thread was sampled" },
	/* beyond the variable: members unknown, named by offset */
	{ __LINE__, { { 1, 0, 0x400300, 32, ST, 5 }, { 2, 1, 0x400300, 40, ST, 5 },
		      { 2, 1, 0x400300, 40, HITM, 5 } },
	  RM_V_FALSE, 2, "offset 0x20 (written by tid 1) and offset 0x28 (written by tid 2) share" },
	/* both threads write both members: stores to two members are no false sharing when the
	 * same threads make them (regression: stores to two members, whoever made them, were
	 * called false sharing) */
	{ __LINE__, { { 1, 0, 0x400100, 0, ST, 5 }, { 1, 0, 0x400100, 8, ST, 5 },
		      { 2, 1, 0x400200, 0, ST, 5 }, { 2, 1, 0x400200, 8, ST, 5 },
		      { 2, 1, 0x400200, 0, HITM, 6 }, { 1, 0, 0x400100, 8, HITM, 6 } },
	  RM_V_TRUE, 2, "the threads share these bytes" },
	/* a counter both write, a neighbour a third thread writes */
	{ __LINE__, { { 1, 0, 0x400100, 0, ST, 5 }, { 1, 0, 0x400100, 0, HITM, 5 },
		      { 2, 1, 0x400200, 0, ST, 5 }, { 2, 1, 0x400200, 0, HITM, 5 },
		      { 3, 2, 0x400200, 8, ST, 10 }, { 3, 2, 0x400200, 8, HITM, 5 } },
	  RM_V_MIXED, 2, "besides, g.a is written and read by 2 threads (tid 1, tid 2)" },
};

static void test_findings_verdicts(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(verdict_cases) / sizeof(verdict_cases[0]); i++) {
		const struct verdict_case *c = &verdict_cases[i];
		const struct rm_finding *fd;
		struct fx f;

		fx_open(&f);
		for (j = 0; j < 6 && c->s[j].n; j++)
			add(&f, c->s[j].tid, c->s[j].cpu, c->s[j].ip, DATA + c->s[j].off, c->s[j].ds,
			    c->s[j].n);
		build(&f, 1, 0);
		assert_int_equal(f.fs->nr, 1);
		fd = &f.fs->f[0];
		if (fd->verdict != c->verdict || fd->line[0]->nr_mem != c->nr_mem ||
		    !strstr(fd->advice, c->advice))
			fail_msg("row at line %d: verdict %s, %zu members, advice '%s'", c->line,
				 rm_verdict_name(fd->verdict), fd->line[0]->nr_mem, fd->advice);
		fx_close(&f);
	}
}

/* A line that starts with an idle counter "ctr" and holds the per-thread array "arr" the threads
 * fight over is a finding about arr, not about the line's first variable (regression: the
 * corpus's valkey zmalloc was reported as total_active_threads, its used_memory_thread[] beside
 * it being what the threads write). */
static void test_findings_contended_object(void **state)
{
	static const char *const members[] = { "ctr", "arr[0]", "arr[1]" };
	const struct rm_finding *fd;
	struct fx f;
	size_t i, k;

	(void)state;
	fx_open(&f);
	add(&f, 3, 2, 0x400300, DATA, L1, 1);                 /* main reads ctr once */
	add(&f, 1, 0, 0x400100, DATA + 8, ST, 5);
	add(&f, 1, 0, 0x400100, DATA + 8, HITM, 4);
	add(&f, 2, 1, 0x400200, DATA + 16, ST, 6);
	add(&f, 2, 1, 0x400200, DATA + 16, HITM, 3);
	cltab_finish(f.t);
	{
		struct cltab_line *const *ln;
		size_t nr;

		ln = cltab_lines(f.t, &nr);
		f.rm = rm_from_cltab(f.t, CLTAB_DISPLAY_TOT, ln, nr);
	}
	for (i = 0; i < f.rm->nr_line; i++) {
		struct rm_line *l = &f.rm->line[i];

		l->what = "ctr (long, 8 bytes), arr (long[2], 16 bytes)";
		l->object = "ctr";
		for (k = 0; k < l->nr_row; k++) {
			struct rm_row *r = &l->row[k];

			r->member = r->offset < 24 ? members[r->offset / 8] : NULL;
			r->data = r->member ? r->member : "[unknown]";
			r->object = r->offset < 8 ? "ctr" : "arr";
			r->object_what = r->offset < 8 ? "ctr (long, 8 bytes)" : "arr (long[2], 16 bytes)";
		}
	}
	rm_judge(f.rm);
	f.fs = rm_findings_build(f.rm);
	assert_int_equal(f.fs->nr, 1);
	fd = &f.fs->f[0];
	assert_int_equal(fd->verdict, RM_V_FALSE);
	assert_string_equal(fd->object, "arr");
	assert_string_equal(fd->what, "arr (long[2], 16 bytes), ctr (long, 8 bytes)");
	assert_non_null(strstr(fd->advice, "arr[0]"));
	fx_close(&f);
}

static void test_findings_members(void **state)
{
	const struct rm_line *l;
	const struct rm_member *b;
	struct fx f;

	(void)state;
	fx_open(&f);
	add(&f, 1, 0, 0x400100, DATA + 8, ST, 3);
	add(&f, 1, 0, 0x400100, DATA + 8, HITM, 2);
	add(&f, 2, 1, 0x400200, DATA + 12, HITM, 4);
	add(&f, 2, 1, 0x400200, DATA + 12, L1, 1);
	add(&f, 3, 2, 0x400200, DATA, ST, 1);
	build(&f, 1, 0);
	l = &f.rm->line[0];
	assert_int_equal(l->cost, 6);
	assert_true(l->v[RM_COL_COST] > 99.9);
	assert_int_equal(l->nr_mem, 2);
	/* by offset */
	assert_string_equal(l->mem[0].name, "g.a");
	b = &l->mem[1];
	assert_string_equal(b->name, "g.b");
	assert_int_equal(b->offset, 8);
	assert_int_equal(b->reads, 7);
	assert_int_equal(b->writes, 3);
	assert_int_equal(b->cost, 6);
	assert_int_equal(b->nr_writers, 1);
	assert_int_equal(b->nr_readers, 2);
	assert_int_equal(b->writer_row->code.ip, 0x400100);
	assert_int_equal(b->reader_row->code.ip, 0x400200);
	assert_string_equal(b->writer_row->code.symbol, "wa");
	/* tid 1 reads what it writes itself; tid 2 reads what tid 1 writes: true */
	assert_int_equal(l->verdict, RM_V_MIXED);
	fx_close(&f);
}

/* Two writers, tid 1 at @a and tid 2 at @b, each missing on the other's stores; modelled. */
static void two_writers(struct fx *f, uint64_t a, uint64_t b)
{
	fx_open(f);
	add(f, 1, 0, 0x400100, a, ST, 5);
	add(f, 1, 0, 0x400100, a, HITM, 4);
	add(f, 2, 1, 0x400200, b, ST, 6);
	add(f, 2, 1, 0x400200, b, HITM, 3);
	build(f, 0, 0);
}

/* Name every row of the model's lines as @name(row) says, with its instance and type, and
 * every touch as @size bytes; then judge and group again. */
struct inst_name {
	const char *member;
	uint64_t inst;           /* 0: none known */
	uint32_t size;
	int lock;
};

static void rename_rows(struct fx *f, const char *object, const char *type,
			struct inst_name (*name)(const struct rm_row *r))
{
	size_t i, k;

	for (i = 0; i < f->rm->nr_line; i++) {
		struct rm_line *l = &f->rm->line[i];

		l->object = object;
		l->what = object;
		for (k = 0; k < l->nr_row; k++) {
			struct rm_row *r = &l->row[k];
			struct inst_name n = name(r);

			r->member = r->data = n.member;
			r->object = object;
			r->type = type;
			r->has_inst = n.inst != 0;
			r->inst = n.inst;
			r->inst_size = 16;
			r->size = n.size;
			r->lock = n.lock;
		}
		for (k = 0; k < l->nr_touch; k++)
			l->touch[k].size = l->row[l->touch[k].row].size;
	}
	rm_findings_free(f->fs);
	rm_judge(f->rm);
	f->fs = rm_findings_build(f->rm);
}

/* "me->hits" of two threads' own elements: one name, two instances 16 bytes apart */
static struct inst_name heap_elems(const struct rm_row *r)
{
	uint32_t off = r->offset;

	return (struct inst_name){ off < 16 ? "me->hits (element i)" : "me->hits (element i+1)",
				   HEAP + (off < 16 ? 0 : 16), 8 };
}

/* the same name on both elements, as the code spells it before rm_name() tells them apart */
static struct inst_name heap_elems_one_name(const struct rm_row *r)
{
	uint32_t off = r->offset;

	return (struct inst_name){ "me->hits", HEAP + (off < 16 ? 0 : 16), 8 };
}

/* two pointers to one object: "a->x" and "b->x" are the same 8 bytes */
static struct inst_name two_pointers(const struct rm_row *r)
{
	return (struct inst_name){ r->code.ip == 0x400100 ? "a->x" : "b->x", HEAP, 8 };
}

/* no names: the offsets alone */
static struct inst_name unnamed(const struct rm_row *r)
{
	(void)r;
	return (struct inst_name){ NULL, 0, 0 };
}

/* The verdict comes from which threads write which bytes, never from a name: two threads'
 * "me->hits" on elements of their own are false sharing of an array on the heap, whose advice
 * is to align the element type and allocate it aligned; two names of the same bytes are true
 * sharing (regression: a heap array of per-thread structs was called TRUE SHARING with the
 * advice to make "me->hits" per-thread). */
static void test_findings_bytes_not_names(void **state)
{
	struct inst_name (*const same_bytes[])(const struct rm_row *) = { two_pointers, unnamed };
	const struct rm_finding *fd;
	struct fx f;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		two_writers(&f, HEAP, HEAP + 16);
		rename_rows(&f, "heap of pid 100: *me", "struct percpu",
			    i ? heap_elems_one_name : heap_elems);
		assert_int_equal(f.fs->nr, 1);
		fd = &f.fs->f[0];
		assert_int_equal(fd->verdict, RM_V_FALSE);
		assert_int_equal(fd->line[0]->nr_mem, 2);
		assert_true(fd->array);
		if (!strstr(fd->advice, "(written by tid 1) and ") ||
		    !strstr(fd->advice, "(written by tid 2)") ||
		    !strstr(fd->advice, "align the element type, struct percpu, to 64 bytes") ||
		    !strstr(fd->advice, "aligned_alloc(64, ...)"))
			fail_msg("case %zu: advice '%s'", i, fd->advice);
		fx_close(&f);
	}
	/* elements of a scalar type on a stack: no type definition to align, no allocation */
	two_writers(&f, HEAP, HEAP + 16);
	rename_rows(&f, "stack of tid 7: *slot", "long int", heap_elems);
	fd = &f.fs->f[0];
	assert_true(fd->array);
	if (!strstr(fd->advice, "elements of the array slot points into (stack of tid 7)") ||
	    !strstr(fd->advice, "(a struct { long int v; } __attribute__((aligned(64))) as the "
				"element)") || strstr(fd->advice, "aligned_alloc"))
		fail_msg("scalar elements: advice '%s'", fd->advice);
	fx_close(&f);
	/* the same bytes under two names, and unnamed bytes: one member written by both */
	for (i = 0; i < 2; i++) {
		two_writers(&f, HEAP, HEAP);
		rename_rows(&f, "heap of pid 100: *o", "struct obj", same_bytes[i]);
		fd = &f.fs->f[0];
		assert_int_equal(fd->verdict, RM_V_TRUE);
		assert_int_equal(fd->line[0]->nr_mem, 1);
		fx_close(&f);
	}
}

/* elements of a global array named by index, 8 bytes each (element 0 and element 2) */
static struct inst_name indexed_elems(const struct rm_row *r)
{
	return (struct inst_name){ r->offset < 16 ? "slots[0].n" : "slots[2].n", 0, 8 };
}

/* The advice is in the language of the type's definition: Go pads (no alignment attribute;
 * an array of 8 elements in 64 bytes: 8 each, 56 to add), Rust and C++ have their own
 * spellings, and none of them is told to call aligned_alloc. */
static void test_findings_advice_language(void **state)
{
	static const struct { enum sym_lang lang; const char *type, *want, *not; } c[] = {
		{ SYM_LANG_GO, "[8]main.slot", "pad the element type, main.slot, to 64 bytes (Go has "
		  "no alignment attribute: a blank field _ [56]byte after its last field)",
		  "__attribute__" },
		{ SYM_LANG_RUST, "[app::Slot; 8]", "the element type, app::Slot, to 64 bytes "
		  "(#[repr(align(64))] on its definition)", "__attribute__" },
		{ SYM_LANG_CXX, "Slot[8]", "the element type, Slot, to 64 bytes (alignas(64) on its "
		  "definition)", "__attribute__" },
		{ SYM_LANG_C, "struct slot[8]", "the element type, struct slot, to 64 bytes "
		  "(__attribute__((aligned(64))) on its definition)", "alignas" },
	};
	const struct rm_finding *fd;
	struct fx f;

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		two_writers(&f, HEAP, HEAP + 16);
		rename_rows(&f, "slots", c[i].type, indexed_elems);
		for (size_t k = 0; k < f.rm->line[0].nr_row; k++) {
			f.rm->line[0].row[k].lang = (uint8_t)c[i].lang;
			f.rm->line[0].row[k].inst_size = 64;
		}
		rm_findings_free(f.fs);
		rm_judge(f.rm);
		f.fs = rm_findings_build(f.rm);
		fd = &f.fs->f[0];
		assert_true(fd->array);
		if (!strstr(fd->advice, c[i].want) || strstr(fd->advice, c[i].not) ||
		    strstr(fd->advice, "aligned_alloc"))
			fail_msg("case %zu: advice '%s'", i, fd->advice);
		fx_close(&f);
	}
}

/* Bytes +0 and +4 of one name are two members when the accesses' sizes say they do not
 * overlap (4-byte halves of one name, e.g. a union's view), one when they do. */
static struct inst_name halves(const struct rm_row *r)
{
	(void)r;
	return (struct inst_name){ "g.a", DATA, 4 };
}

static struct inst_name whole(const struct rm_row *r)
{
	(void)r;
	return (struct inst_name){ "g.a", DATA, 8 };
}

/* two threads on different words of one lock (__lock, __owner): one member, the lock */
static struct inst_name mutex_words(const struct rm_row *r)
{
	(void)r;
	return (struct inst_name){ "g.mu", DATA, 4, 1 };
}

static void test_findings_sizes(void **state)
{
	struct inst_name (*const names[])(const struct rm_row *) = { halves, whole, mutex_words };
	const enum rm_verdict want[] = { RM_V_FALSE, RM_V_TRUE, RM_V_TRUE };
	struct fx f;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		two_writers(&f, DATA, DATA + 4);
		rename_rows(&f, "g", "struct s", names[i]);
		assert_int_equal(f.fs->f[0].verdict, want[i]);
		assert_int_equal(f.fs->f[0].line[0]->nr_mem, i ? 1 : 2);
		fx_close(&f);
	}
}

/* A global array's advice names members of different elements written by different threads,
 * not two members of one element by one thread (regression: "e.g. g_slots[0].ops (written by
 * T1) and g_slots[0].last (written by T1)"). */
static struct inst_name slots(const struct rm_row *r)
{
	static const char *const n[] = { "g_slots[0].ops", "g_slots[0].last", "g_slots[1].ops",
					 "g_slots[1].last" };
	uint32_t off = r->offset;

	return (struct inst_name){ n[off / 8 % 4], DATA, 8 };
}

static void test_findings_array_example(void **state)
{
	const struct rm_finding *fd;
	struct fx f;

	(void)state;
	fx_open(&f);
	add(&f, 1, 0, 0x400100, DATA, ST, 9);         /* slot 0: ops and last by tid 1 */
	add(&f, 1, 0, 0x400100, DATA, HITM, 9);
	add(&f, 1, 0, 0x400100, DATA + 8, ST, 8);
	add(&f, 1, 0, 0x400100, DATA + 8, HITM, 8);
	add(&f, 2, 1, 0x400200, DATA + 16, ST, 3);    /* slot 1: ops by tid 2 */
	add(&f, 2, 1, 0x400200, DATA + 16, HITM, 2);
	build(&f, 0, 0);
	rename_rows(&f, "g_slots", "struct slot", slots);
	fd = &f.fs->f[0];
	assert_int_equal(fd->verdict, RM_V_FALSE);
	assert_true(fd->array);
	if (!strstr(fd->advice, "(written by tid 2)") || !strstr(fd->advice, "(written by tid 1)"))
		fail_msg("advice '%s'", fd->advice);
	assert_null(strstr(fd->advice, "aligned_alloc"));   /* not on the heap */
	fx_close(&f);
}

static char *print(struct fx *f, size_t top);

/* A language runtime's own data (Go's runtime.sched) is no finding of the program's: it is
 * kept apart and listed after them. */
static struct inst_name sched_word(const struct rm_row *r)
{
	(void)r;
	return (struct inst_name){ "runtime.sched.lock", DATA, 8 };
}

static void test_findings_runtime_data(void **state)
{
	struct fx f;
	char *out;

	(void)state;
	two_writers(&f, DATA, DATA);
	rename_rows(&f, "runtime.sched", "runtime.schedt", sched_word);
	assert_int_equal(f.fs->nr, 0);
	assert_int_equal(f.fs->nr_rt, 1);
	assert_int_equal(f.fs->rt[0].verdict, RM_V_TRUE);
	assert_ptr_equal(f.rm->line[0].finding, &f.fs->rt[0]);
	out = print(&f, 5);
	assert_non_null(strstr(out, "# no contended cacheline in the program's own data: nothing to "
				    "fix\n"));
	if (!strstr(out, "#   runtime.sched: low confidence: 18 samples (looks like TRUE SHARING), "
			 "100.00% of Total HITMs\n"))
		fail_msg("%s", out);
	free(out);
	fx_close(&f);
}

static const struct what_case {
	int line;
	uint64_t addr;
	int verbose;
	const char *what;
} what_cases[] = {
	{ __LINE__, HEAP + 0x40, 0, "heap of pid 100" },
	{ __LINE__, STACK + 0x80, 0, "stack of tid 77" },
	{ __LINE__, SHM + 0x40, 0, "/SYSV0000002a (deleted)" },   /* shared memory: its name */
	{ __LINE__, DATA + 0x100, 0, "[unknown]" },
	{ __LINE__, DATA + 0x100, 1, "[unknown] (app: no symbol resolution)" },
	{ __LINE__, 0x9000000, 0, "[unknown]" },
	{ __LINE__, 0x9000000, 1, "[unknown] (no symbol resolution)" },
};

static void test_findings_what(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(what_cases) / sizeof(what_cases[0]); i++) {
		const struct what_case *c = &what_cases[i];
		struct fx f;

		fx_open(&f);
		add(&f, 1, 0, 0x400100, c->addr, ST, 2);
		add(&f, 2, 1, 0x400200, c->addr, HITM, 2);
		build(&f, 0, c->verbose);
		assert_int_equal(f.rm->nr_line, 1);
		if (strcmp(f.rm->line[0].what, c->what))
			fail_msg("row at line %d: '%s'", c->line, f.rm->line[0].what);
		assert_null(f.rm->line[0].object);   /* no variable: an object of its own */
		fx_close(&f);
	}
}

static char *print(struct fx *f, size_t top)
{
	struct rm_summary_opts o = { .top = top, .prefix = "# " };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_int_equal(summary_print(m, f->rm, f->fs, &o), 0);
	fclose(m);
	return buf;
}

/* Unnamed lines are findings of their own; --summary N prints the N costliest. */
static void test_findings_top(void **state)
{
	struct fx f;
	char *out;
	int i;

	(void)state;
	fx_open(&f);
	for (i = 0; i < 8; i++) {
		add(&f, 1, 0, 0x400100, HEAP + 64 * (uint64_t)i, HITM, 10 - i);
		add(&f, 2, 1, 0x400200, HEAP + 64 * (uint64_t)i + 8, ST, 1);
	}
	add(&f, 1, 0, 0x400100, HEAP + 64 * 20, ST, 1);
	build(&f, 0, 0);
	assert_int_equal(f.fs->nr, 8);
	assert_int_equal(f.fs->f[0].line[0]->addr, HEAP);
	assert_int_equal(f.fs->f[2].line[0]->addr, HEAP + 128);
	out = print(&f, 3);
	assert_non_null(strstr(out, "# c2c-lite summary: 8 findings on 8 contended cachelines (by "
				    "Total HITMs); the first 3\n"));
	/* 8 HITMs of tid 1 and one store of tid 2: too thin to assert a verdict */
	assert_non_null(strstr(out, "# 3. heap of pid 100: low confidence: 9 samples (looks like "
				    "FALSE SHARING)"));
	assert_null(strstr(out, "# 4. "));
	free(out);
	out = print(&f, 0);
	assert_string_equal(out, "");
	free(out);
	fx_close(&f);
}

/* The members of one object spread over lines (an array of per-thread elements) are one
 * finding, ranked by their total. */
static void test_findings_object_over_lines(void **state)
{
	struct fx f;
	size_t i;

	(void)state;
	fx_open(&f);
	for (i = 0; i < 4; i++) {   /* 4 lines of 8 elements; thread t writes element t */
		uint32_t t;

		for (t = 0; t < 8; t++) {
			add(&f, 10 + 8 * (uint32_t)i + t, t % 4, 0x400100, HEAP + 64 * i + 8 * t, ST, 1);
			add(&f, 10 + 8 * (uint32_t)i + t, t % 4, 0x400100, HEAP + 64 * i + 8 * t, HITM,
			    1);
		}
	}
	add(&f, 1, 0, 0x400200, DATA, HITM, 5);   /* another object, costlier than each line */
	add(&f, 2, 1, 0x400200, DATA, ST, 5);
	build(&f, 0, 0);
	for (i = 0; i < f.rm->nr_line; i++) {   /* as rm_name() names an array through its type */
		struct rm_line *l = &f.rm->line[i];
		size_t k;

		if (l->addr == DATA)
			continue;
		l->object = "heap of pid 100: *slots";
		for (k = 0; k < l->nr_row; k++) {
			char *name = malloc(32);

			snprintf(name, 32, "slots[%llu].n",
				 (unsigned long long)((l->addr - HEAP + l->row[k].offset) / 8));
			l->row[k].member = name;
		}
	}
	rm_judge(f.rm);
	rm_findings_free(f.fs);
	f.fs = rm_findings_build(f.rm);
	assert_int_equal(f.fs->nr, 2);
	assert_string_equal(f.fs->f[0].object, "heap of pid 100: *slots");
	assert_int_equal(f.fs->f[0].nr_line, 4);
	assert_int_equal(f.fs->f[0].verdict, RM_V_FALSE);
	assert_true(f.fs->f[0].array);
	assert_non_null(strstr(f.fs->f[0].advice, "elements of the array slots points into (heap of "
					       "pid 100) are written by different threads and share 4 "
					       "lines"));
	assert_non_null(strstr(f.fs->f[0].advice, "pad or align each element to 64 bytes"));
	assert_true(f.fs->f[0].gain > 50);
	for (i = 0; i < f.rm->nr_line; i++) {
		size_t k;

		for (k = 0; f.rm->line[i].addr != DATA && k < f.rm->line[i].nr_row; k++)
			free((char *)f.rm->line[i].row[k].member);
	}
	fx_close(&f);
}

/* g.a written by tid 1, g.b written and read (HITMs) by tid 2: @n samples of each, named and
 * judged. */
static void fx_false_g(struct fx *f, uint32_t n)
{
	fx_open(f);
	add(f, 1, 0, 0x400100, DATA, ST, n);
	add(f, 2, 1, 0x400200, DATA + 8, ST, n);
	add(f, 2, 1, 0x400200, DATA + 8, HITM, n);
	build(f, 1, 0);
}

static void test_findings_print(void **state)
{
	char *buf, *line, *save = NULL;
	struct fx f;

	(void)state;
	/* 15 samples: a guess, said so */
	fx_false_g(&f, 5);
	buf = print(&f, 5);
	assert_non_null(strstr(buf, "# 1. g (struct s, 24 bytes): low confidence: 15 samples (looks "
				    "like FALSE SHARING), 100.00% of Total HITMs"));
	assert_non_null(strstr(buf, "#   advice: (if the guess holds) g.a (written by tid 1)"));
	free(buf);
	fx_close(&f);
	/* 60: a verdict, with what it rests on */
	fx_false_g(&f, 20);
	buf = print(&f, 5);
	assert_non_null(strstr(buf, "# c2c-lite summary: 1 finding on 1 contended cacheline (by "
				    "Total HITMs)\n"));
	assert_non_null(strstr(buf, "# 1. g (struct s, 24 bytes): FALSE SHARING, 100.00% of Total "
				    "HITMs, 1 line (0x600000)\n"));
	assert_non_null(strstr(buf, "#   evidence: 60 samples (40 by tid 2, 20 by tid 1), 2 threads "
				    "writing, 0 only reading; share 100.00% [83.89, 100.00] (95%)\n"));
	assert_non_null(strstr(buf, "wb at w.c:20"));
	assert_non_null(strstr(buf, "#   false sharing: 100.00% of Total HITMs; not a speedup forecast"));
	/* every line is a comment line */
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		assert_true(!strcmp(line, "#") || !strncmp(line, "# ", 2));
	free(buf);
	fx_close(&f);
}

/* The TUI lists the summary's lines as the text report prints them: the same text, a list row
 * per printed line, none holding a newline (blank lines, the line map, the evidence included). */
static void test_findings_summary_lines(void **state)
{
	struct rm_summary_opts o = { .top = 5, .prefix = "  ", .say_none = 1, .map = 1 };
	struct text_lines j = { 0 };
	char *buf = NULL;
	size_t len = 0;
	struct fx f;
	FILE *m;

	(void)state;
	fx_false_g(&f, 20);
	m = open_memstream(&buf, &len);
	assert_int_equal(summary_print(m, f.rm, f.fs, &o), 0);
	fclose(m);
	rm_summary_text(f.rm, f.fs, &o, text_lines_put, &j);
	assert_non_null(strstr(j.s, "\n\n  1. g (struct s, 24 bytes): FALSE SHARING"));
	assert_non_null(strstr(j.s, "\n    line map of 0x600000:\n"));
	text_lines_check(&j, buf);
	free(buf);
	fx_close(&f);
}

/* More than RM_SUMMARY_MAX_MEMBERS members: the heaviest are printed, the rest counted. */
static void test_findings_cap(void **state)
{
	struct fx f;
	char *buf;
	int i;

	(void)state;
	fx_open(&f);
	for (i = 0; i < 20; i++)
		add(&f, 1, 0, 0x400100, HEAP + 2 * (uint64_t)i, HITM, i < 2 ? 1 : 2);
	add(&f, 2, 1, 0x400200, HEAP + 38, ST, 1);
	build(&f, 0, 0);
	assert_int_equal(f.rm->line[0].nr_mem, 20);
	buf = print(&f, 5);
	/* 0x4..0x26 cost 2 HITMs, 0x26 has a store too: 0x0, 0x2 (1 HITM), 0x22, 0x24 are left out */
	assert_non_null(strstr(buf, "#     (4 lighter members not shown)\n"));
	assert_null(strstr(buf, "#     0x0 "));
	assert_null(strstr(buf, "#     0x2 "));
	assert_null(strstr(buf, "#     0x24 "));
	assert_non_null(strstr(buf, "#     0x20 "));
	assert_non_null(strstr(buf, "#     0x26 "));
	free(buf);
	fx_close(&f);
}

/* diff: findings match by object without run-specific ids, unnamed data by its code; shares
 * decide gone, shrank, same, grew and new. */
static void test_findings_diff(void **state)
{
	struct rm_row rows[2] = { { .code = { .symbol = "bump_a" } }, { .code = { .symbol = "bump_b" } } };
	struct rm_line line = { .row = rows, .nr_row = 2 };
	const struct rm_line *lp = &line;
	struct rm_finding o[4] = {
		{ .object = "heap of pid 100: *c", .what = "w1", .share = 50, .gain = 40,
		  .verdict = RM_V_FALSE },
		{ .object = "counter", .what = "w2", .share = 20, .verdict = RM_V_TRUE },
		{ .object = "stats", .what = "w3", .share = 10, .verdict = RM_V_FALSE },
		{ .what = "0x1000", .share = 5, .verdict = RM_V_FALSE },
	};
	struct rm_finding n[4] = {
		{ .object = "heap of pid 200: *c", .what = "w1", .share = 10, .verdict = RM_V_FALSE },
		{ .object = "counter", .what = "w2", .share = 21, .verdict = RM_V_TRUE },
		{ .object = "lock", .what = "w4", .share = 30, .verdict = RM_V_TRUE },
		{ .what = "0x2000", .share = 5, .verdict = RM_V_FALSE },
	};
	struct rm_findings a = { .f = o, .nr = 4 }, b = { .f = n, .nr = 4 };
	struct diff *d;
	char key[256];
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		o[i].line = &lp;
		n[i].line = &lp;
		o[i].nr_line = n[i].nr_line = 1;
		snprintf(o[i].addr, sizeof(o[i].addr), "%s", o[i].what);
		snprintf(n[i].addr, sizeof(n[i].addr), "%s", n[i].what);
	}
	o[3].object = o[3].what;   /* unnamed: the object is its heading */
	n[3].object = n[3].what;
	diff_key(&o[0], key, sizeof(key));
	assert_string_equal(key, "heap: *c");
	diff_key(&o[3], key, sizeof(key));
	assert_string_equal(key, "code:bump_a,bump_b");
	d = diff_build(&a, &b);
	assert_int_equal(d->nr, 5);
	assert_int_equal(d->gone, 1);      /* stats */
	assert_int_equal(d->shrank, 1);    /* the heap object: 50 -> 10 */
	assert_int_equal(d->same, 2);      /* counter 20 -> 21, the unnamed line by its code */
	assert_int_equal(d->appeared, 1);  /* lock */
	assert_int_equal(d->e[0].status, DIFF_GONE);
	assert_string_equal(d->e[0].key, "stats");
	assert_int_equal(d->e[1].status, DIFF_SHRANK);
	assert_true(d->e[1].old.gain == 40);
	assert_int_equal(d->e[4].status, DIFF_NEW);
	assert_string_equal(d->e[4].key, "lock");
	diff_free(d);
}

/* diff: what each run recorded, from its command line, and whether the two are of one program */
static void test_findings_diff_workloads(void **state)
{
	static const struct {
		int line;
		const char *cmdline, *options, *want;   /* want NULL: none can be told */
	} wl[] = {
		{ __LINE__, "c2c-lite record --backend=soft -o t.c2c -- ./fs", "--backend=soft -o t.c2c --",
		  "./fs" },
		{ __LINE__, "c2c-lite record -o 'a b.data' -- ./app 'x y'", "-o 'a b.data' --",
		  "./app 'x y'" },
		{ __LINE__, "c2c-lite record ./prog 4", "", "./prog 4" },
		{ __LINE__, "c2c-lite record -e cpu-clock -- -- ./odd", "-e cpu-clock --", "./odd" },
		{ __LINE__, "c2c-lite record -p 1234 --duration 2", "-p 1234 --duration 2", NULL },
		{ __LINE__, "perf record -e cpu/mem-loads/P -- ./bench -n 3", NULL, "./bench -n 3" },
		{ __LINE__, "perf c2c record ./bench", NULL, NULL },
		{ __LINE__, "c2c-gen", "", NULL },
		{ __LINE__, NULL, NULL, NULL },
	};
	static const struct {
		int line;
		const char *old, *new;
		enum diff_workloads want;
	} cmp[] = {
		{ __LINE__, "./fs", "/tmp/build/fs", DIFF_WL_SAME },
		{ __LINE__, "./fs 4", "./fs 8", DIFF_WL_ARGS },
		{ __LINE__, "build/examples/false_sharing 1", "build/examples/padded 1",
		  DIFF_WL_PROGRAMS },
		{ __LINE__, "'./my prog' 1", "./my\\ prog 1", DIFF_WL_SAME },
		{ __LINE__, "\"./a b\"", "./a", DIFF_WL_PROGRAMS },
		{ __LINE__, NULL, "./fs", DIFF_WL_UNKNOWN },
		{ __LINE__, "./fs", NULL, DIFF_WL_UNKNOWN },
	};
	char buf[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(wl) / sizeof(wl[0]); i++) {
		int rc = diff_workload(wl[i].cmdline, wl[i].options, buf, sizeof(buf));

		if (wl[i].want ? rc || strcmp(buf, wl[i].want) : rc != -ENOENT)
			fail_msg("row at line %d: rc %d '%s'", wl[i].line, rc, rc ? "" : buf);
	}
	for (i = 0; i < sizeof(cmp) / sizeof(cmp[0]); i++)
		if (diff_workloads_cmp(cmp[i].old, cmp[i].new) != cmp[i].want)
			fail_msg("row at line %d: %s", cmp[i].line,
				 diff_workloads_key(diff_workloads_cmp(cmp[i].old, cmp[i].new)));
	assert_string_equal(diff_workloads_key(DIFF_WL_PROGRAMS), "different programs");
}

/* Contending functions and contention by type (contend.h): two threads writing their own
 * elements of a heap array from wa and wb are one pair (wa, wb) and one type line with two
 * instances; one function writing a counter from two threads contends with itself. */
static void test_contend_views(void **state)
{
	const struct rm_fn_pair *p;
	const struct rm_type_line *tl;
	struct rm_contend *c;
	char a[64], b[64];
	struct fx f;

	(void)state;
	two_writers(&f, HEAP, HEAP + 16);
	rename_rows(&f, "heap of pid 100: *me", "struct slot", heap_elems);
	assert_int_equal(f.rm->line[0].verdict, RM_V_FALSE);
	c = rm_contend_build(f.rm);
	assert_int_equal(c->nr_pair, 1);
	p = &c->pair[0];
	rm_fn_text(&p->fn[0], a, sizeof(a));
	rm_fn_text(&p->fn[1], b, sizeof(b));
	assert_string_equal(a, "wa");
	assert_string_equal(b, "wb");
	assert_false(p->self);
	assert_int_equal(p->nr_line, 1);
	assert_int_equal(p->nr_thread, 2);
	assert_int_equal(p->verdict, RM_V_FALSE);
	assert_true(p->cost == 7 && p->share == 100.0);     /* the HITMs of both: 4 + 3 */
	{
		char row[512];

		rm_contend_pair_row(f.rm, p, row, sizeof(row));
		assert_non_null(strstr(row, "100.00%  FALSE SHARING      1  wa <-> wb, by 2 threads"));
	}
	assert_int_equal(c->nr_type, 1);
	tl = &c->type[0];
	assert_string_equal(tl->type, "struct slot");
	assert_int_equal(tl->index, 0);
	assert_int_equal(tl->nr_inst, 2);
	assert_int_equal(tl->nr_member, 2);
	assert_int_equal(tl->nr_thread, 2);
	assert_int_equal(tl->verdict, RM_V_FALSE);
	{
		char row[512];

		rm_contend_type_row(f.rm, tl, row, sizeof(row));
		assert_non_null(strstr(row, "struct slot, line 0 (bytes 0-63): 2 instances"));
	}
	rm_contend_free(c);
	fx_close(&f);

	fx_open(&f);
	add(&f, 1, 0, 0x400100, DATA, ST, 5);
	add(&f, 1, 0, 0x400100, DATA, HITM, 4);
	add(&f, 2, 1, 0x400100, DATA, ST, 6);
	add(&f, 2, 1, 0x400100, DATA, HITM, 3);
	add(&f, 3, 2, 0x400200, DATA + 8, L1, 9);        /* a third thread reads g.b: no write */
	build(&f, 1, 0);
	c = rm_contend_build(f.rm);
	assert_true(c->nr_pair >= 1);
	p = &c->pair[0];
	assert_true(p->self);
	rm_fn_text(&p->fn[0], a, sizeof(a));
	assert_string_equal(a, "wa");
	assert_int_equal(p->nr_thread, 2);
	assert_int_equal(c->nr_type, 0);                 /* no row says what type it is */
	rm_contend_free(c);
	fx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_contend_views),
		cmocka_unit_test(test_findings_verdicts),
		cmocka_unit_test(test_findings_contended_object),
		cmocka_unit_test(test_findings_members),
		cmocka_unit_test(test_findings_what),
		cmocka_unit_test(test_findings_bytes_not_names),
		cmocka_unit_test(test_findings_advice_language),
		cmocka_unit_test(test_findings_sizes),
		cmocka_unit_test(test_findings_array_example),
		cmocka_unit_test(test_findings_runtime_data),
		cmocka_unit_test(test_findings_top),
		cmocka_unit_test(test_findings_object_over_lines),
		cmocka_unit_test(test_findings_print),
		cmocka_unit_test(test_findings_summary_lines),
		cmocka_unit_test(test_findings_cap),
		cmocka_unit_test(test_findings_diff),
		cmocka_unit_test(test_findings_diff_workloads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
